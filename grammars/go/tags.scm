; Go tags for repo-graph (adapted from tree-sitter-go queries/tags.scm).
; Definitions capture the whole node (body included) as @definition.<kind>
; and the identifier as @name.

(function_declaration
  name: (identifier) @name) @definition.function

; Methods: the receiver's base type name is captured as @receiver.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

; Type declarations. type_spec spans name..end of body; for the usual
; single-spec form `type X struct {...}` the leading `type` keyword is on the
; same line, so line ranges are exact. Doc comments sit above the enclosing
; type_declaration.
(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface

(type_spec
  name: (type_identifier) @name
  type: [
    (type_identifier)
    (qualified_type)
    (generic_type)
    (pointer_type)
    (slice_type)
    (array_type)
    (map_type)
    (channel_type)
    (function_type)
    (parenthesized_type)
    (negated_type)
  ]) @definition.type

(type_alias
  name: (type_identifier) @name) @definition.type

; Constants (one per const_spec; grouped blocks yield one per name line).
(const_spec
  name: (identifier) @name) @definition.constant

; Package-level variables, the same way (`var ErrClosed = errors.New(...)`,
; `var DefaultWriter io.Writer = os.Stdout`); a function's locals are not
; symbols, and `_` (an interface assertion) names nothing.
(source_file
  (var_declaration
    (var_spec name: (identifier) @name) @definition.variable)
  (#not-eq? @name "_"))
(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name) @definition.variable))
  (#not-eq? @name "_"))

; ---------------------------------------------------------------- references

(call_expression
  function: [
    (identifier) @name
    (parenthesized_expression (identifier) @name)
    (selector_expression field: (field_identifier) @name)
    (parenthesized_expression (selector_expression field: (field_identifier) @name))
  ]) @reference.call

; Type uses: the type identifier itself is both @name and @reference.type.
; Builtin types are skipped.
(qualified_type
  name: (type_identifier) @name) @reference.type

([
  (parameter_declaration type: (type_identifier) @name @reference.type)
  (variadic_parameter_declaration type: (type_identifier) @name @reference.type)
  (field_declaration type: (type_identifier) @name @reference.type)
  (composite_literal type: (type_identifier) @name @reference.type)
  (var_spec type: (type_identifier) @name @reference.type)
  (const_spec type: (type_identifier) @name @reference.type)
  (type_spec type: (type_identifier) @name @reference.type)
  (type_alias type: (type_identifier) @name @reference.type)
  (generic_type type: (type_identifier) @name @reference.type)
  (type_conversion_expression type: (type_identifier) @name @reference.type)
  (type_assertion_expression type: (type_identifier) @name @reference.type)
  (function_declaration result: (type_identifier) @name @reference.type)
  (method_declaration result: (type_identifier) @name @reference.type)
  (method_elem result: (type_identifier) @name @reference.type)
  (function_type result: (type_identifier) @name @reference.type)
  (func_literal result: (type_identifier) @name @reference.type)
  (pointer_type (type_identifier) @name @reference.type)
  (slice_type element: (type_identifier) @name @reference.type)
  (array_type element: (type_identifier) @name @reference.type)
  (map_type key: (type_identifier) @name @reference.type)
  (map_type value: (type_identifier) @name @reference.type)
  (channel_type value: (type_identifier) @name @reference.type)
  (type_elem (type_identifier) @name @reference.type)
]
  (#not-match? @name "^(bool|byte|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr|any|comparable)$"))
