; C tags for repo-graph (adapted from tree-sitter-c queries/tags.scm).
; Note: preproc_* nodes end at column 0 of the following line.

; Function definitions (not prototypes). The name is the identifier inside the
; function_declarator, possibly wrapped in pointer declarators.
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (parenthesized_declarator (function_declarator declarator: (identifier) @name))
  ]) @definition.function

; Aggregates with bodies.
(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list)) @definition.enum

; typedefs (plain, pointer, array and function-pointer forms).
; Only the first declarator is used (`typedef struct x X, *PX;` yields X), so a
; typedef is never captured twice.
(type_definition
  type: (_)
  .
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
    (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))
  ]) @definition.type

; Macros.
(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; File-scope `const` variables with an initializer.
(translation_unit
  (declaration
    (type_qualifier "const")
    declarator: (init_declarator
      declarator: (identifier) @name)) @definition.constant)

; ---------------------------------------------------------------- references

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (parenthesized_expression (identifier) @name)
  ]) @reference.call

; Type uses: typedef names in type positions, and `struct/union/enum X`
; used without a body.
(_
  type: (type_identifier) @name @reference.type)

(struct_specifier
  name: (type_identifier) @name
  !body) @reference.type

(union_specifier
  name: (type_identifier) @name
  !body) @reference.type

(enum_specifier
  name: (type_identifier) @name
  !body) @reference.type
