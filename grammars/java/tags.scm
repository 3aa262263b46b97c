; Java tags for repo-graph (adapted from tree-sitter-java queries/tags.scm).
; Annotations are part of the `modifiers` child, so definition nodes start at
; the first annotation and doc comments directly precede them.

(class_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(record_declaration
  name: (identifier) @name) @definition.struct

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(compact_constructor_declaration
  name: (identifier) @name) @definition.method

; `static final` fields are constants.
(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant

(field_declaration
  (modifiers "final" "static")
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant

; ---------------------------------------------------------------- references

; `Gson.toJson(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Gson.toJson` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `toJson` in sight (indexer/resolve.py).
(method_invocation
  object: (_) @qualifier
  name: (identifier) @name) @reference.call

(method_invocation
  !object
  name: (identifier) @name) @reference.call

; `new Foo(...)` is a call to Foo's constructor.
(object_creation_expression
  type: (type_identifier) @name) @reference.call

; Type uses: the type identifier itself is both @name and @reference.type.
[
  (formal_parameter type: (type_identifier) @name @reference.type)
  (spread_parameter (type_identifier) @name @reference.type)
  (field_declaration type: (type_identifier) @name @reference.type)
  (constant_declaration type: (type_identifier) @name @reference.type)
  (local_variable_declaration type: (type_identifier) @name @reference.type)
  (method_declaration type: (type_identifier) @name @reference.type)
  (generic_type (type_identifier) @name @reference.type)
  (type_arguments (type_identifier) @name @reference.type)
  (superclass (type_identifier) @name @reference.type)
  (type_list (type_identifier) @name @reference.type)
  (array_type element: (type_identifier) @name @reference.type)
  (catch_type (type_identifier) @name @reference.type)
  (cast_expression type: (type_identifier) @name @reference.type)
  (instanceof_expression right: (type_identifier) @name @reference.type)
  (throws (type_identifier) @name @reference.type)
  (type_bound (type_identifier) @name @reference.type)
  (class_literal (type_identifier) @name @reference.type)
]

; Qualified types `a.B`: the last identifier is the name.
(scoped_type_identifier
  (type_identifier) @name .) @reference.type
