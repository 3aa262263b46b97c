; Java imports. @import.path is the dotted name (without a trailing `.*`;
; wildcard imports have an `asterisk` sibling).
(import_declaration
  [
    (scoped_identifier)
    (identifier)
  ] @import.path) @import
