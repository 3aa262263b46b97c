; `import a.b` and `import a.b as c`: the module path.
(import_statement
  name: [(dotted_name) @import.path
         (aliased_import name: (dotted_name) @import.path)]) @import

; `from .x import a, b`: the module path, and the names (which may be submodules).
(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.path
  name: [(dotted_name) @import.name
         (aliased_import name: (dotted_name) @import.name)]) @import

(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.path
  (wildcard_import)) @import
