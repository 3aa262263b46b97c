; TSX: everything in typescript/tags.scm (inherited, see language.toml) plus JSX
; component uses.

; JSX: `<RetryButton ... />` uses a component (capitalised names only;
; lowercase names are intrinsic HTML elements).
((jsx_opening_element
   name: [
     (identifier) @name
     (member_expression property: (property_identifier) @name)
   ]) @reference.call
  (#match? @name "^[A-Z]"))

((jsx_self_closing_element
   name: [
     (identifier) @name
     (member_expression property: (property_identifier) @name)
   ]) @reference.call
  (#match? @name "^[A-Z]"))
