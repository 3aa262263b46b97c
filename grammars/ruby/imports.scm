; Ruby imports: require / require_relative / load with a string literal.
; @import.path is the quoted string node.
((call
   !receiver
   method: (identifier) @_method
   arguments: (argument_list . (string) @import.path)) @import
  (#match? @_method "^(require|require_relative|load)$"))
