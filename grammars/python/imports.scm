(import_statement
  name: [(dotted_name) @import.path
         (aliased_import name: (dotted_name) @import.path)]) @import

(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.path) @import
