; Swift tags for repo-graph (the tree-sitter-swift wheel ships no tags query).
; struct, class, actor, enum and extension all parse as class_declaration and are
; told apart by their declaration_kind; an extension is a container named by the
; type it extends, so its members are that type's methods.

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: ["class" "actor"]
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @name)) @definition.impl

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

(function_declaration
  name: (simple_identifier) @name) @definition.function

(protocol_function_declaration
  name: (simple_identifier) @name) @definition.function

; init(...) has no name of its own: the keyword stands for it.
(init_declaration
  "init" @name) @definition.function

(typealias_declaration
  name: (type_identifier) @name) @definition.type

; Top-level `let NAME = ...` in upper case.
(source_file
  (property_declaration
    (value_binding_pattern "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

; ---------------------------------------------------------------- references

(call_expression
  (simple_identifier) @name) @reference.call

; `Session.make(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Session.make` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `make` in sight (indexer/resolve.py).
(call_expression
  (navigation_expression
    target: (_) @qualifier
    suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

(call_expression
  (navigation_expression
    !target
    suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

(inheritance_specifier
  inherits_from: (user_type (type_identifier) @name)) @reference.type

(type_annotation
  (user_type (type_identifier) @name)) @reference.type

(parameter
  (user_type (type_identifier) @name)) @reference.type

(function_declaration
  (user_type (type_identifier) @name) @reference.type)

(protocol_function_declaration
  (user_type (type_identifier) @name) @reference.type)
