; OCaml interfaces: `open Printf`. @import.path is the module path.
(open_module_signature
  module: (extended_module_path) @import.path) @import
