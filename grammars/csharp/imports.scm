; C# using directives. @import.path is the namespace (or aliased target).
(using_directive
  [(identifier) (qualified_name)] @import.path
  !name) @import

(using_directive
  name: (identifier)
  .
  [(identifier) (qualified_name) (generic_name)] @import.path) @import
