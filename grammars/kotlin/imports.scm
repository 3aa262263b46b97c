; Kotlin imports. @import.path is the dotted name (without `.*` or alias).
(import
  (qualified_identifier) @import.path) @import
