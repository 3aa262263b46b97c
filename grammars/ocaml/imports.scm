; OCaml: `open Printf`. @import.path is the module path (a file only when it is spelled
; as one: modules are files with a lower-case first letter, which dotted lookup misses).
(open_module
  module: (module_path) @import.path) @import
