; Dart tags for repo-graph. A function's signature and its body are siblings in this
; grammar, not one node: @body (extract.py) takes the body in, so the symbol runs from
; the signature to the body's end.

(class_definition
  name: (identifier) @name) @definition.class

(mixin_declaration
  (identifier) @name) @definition.class

(extension_declaration
  name: (identifier) @name) @definition.impl

(enum_declaration
  name: (identifier) @name) @definition.enum

(type_alias
  (type_identifier) @name) @definition.type

; Methods, getters and setters with a body.
((method_signature
   [(function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)]) @definition.function
 .
 (function_body) @body)

; Top-level functions.
((function_signature name: (identifier) @name) @definition.function
 .
 (function_body) @body)

; Abstract methods and constructors: a declaration without a body of its own.
(declaration
  [(function_signature name: (identifier) @name)
   (constructor_signature . name: (identifier) @name)
   (constant_constructor_signature . (identifier) @name)]) @definition.function

; ---------------------------------------------------------------- references

; `foo()`, `a.bar()`: a name, then an argument list.
((identifier) @name @reference.call
 .
 (selector (argument_part)))

((selector (unconditional_assignable_selector (identifier) @name)) @reference.call
 .
 (selector (argument_part)))

; `Config.load()`: its receiver, a name right before it, is @qualifier, and
; indexer/extract.py names the call `Config.load` when the receiver is spelled as a
; class: it then resolves to that class's, not to any `load` in sight.
((identifier) @qualifier
 .
 (selector (unconditional_assignable_selector (identifier) @name)) @reference.call
 .
 (selector (argument_part)))

(superclass (type_identifier) @name @reference.type)

(formal_parameter (type_identifier) @name @reference.type)
