; Kotlin tags for repo-graph (tree-sitter-kotlin ships no tags query).
; class/interface/enum class all parse as class_declaration; they are told
; apart by the keyword token and the body node type. Functions are always
; @definition.function; functions inside class/object bodies become methods
; by containment elsewhere.

(class_declaration
  "interface"
  name: (identifier) @name) @definition.interface

(class_declaration
  name: (identifier) @name
  (enum_class_body)) @definition.enum

; Classes with a body...
(class_declaration
  "class"
  name: (identifier) @name
  (class_body)) @definition.class

; ...and without one (`class Foo`, `data class Foo(val x: Int)`).
(class_declaration
  "class"
  name: (identifier) @name
  .) @definition.class

(class_declaration
  "class"
  name: (identifier) @name
  [(primary_constructor) (delegation_specifiers) (type_constraints) (type_parameters)]
  .) @definition.class

(object_declaration
  name: (identifier) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(type_alias
  type: (identifier) @name) @definition.type

; const val NAME = ...
(property_declaration
  (modifiers (property_modifier "const"))
  (variable_declaration
    (identifier) @name)) @definition.constant

; ---------------------------------------------------------------- references

(call_expression
  .
  (identifier) @name) @reference.call

; `Foo.create(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Foo.create` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `create` in sight (indexer/resolve.py).
(call_expression
  .
  (navigation_expression . (_) @qualifier (identifier) @name .)) @reference.call

; Type uses: the last identifier of a (possibly qualified) user type.
[
  (user_type (identifier) @name .)
  (user_type (identifier) @name . (type_arguments) .)
] @reference.type
