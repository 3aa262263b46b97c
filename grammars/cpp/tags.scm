; C++ tags for repo-graph (adapted from tree-sitter-cpp queries/tags.scm).
; Note: preproc_* nodes end at column 0 of the following line.
; A template's header line belongs to its definition: `template_declaration` is a
; wrapper (language.toml), so one pattern per definition shape covers both. (An
; earlier version spelled every parent out and took 7 s to compile.)

; ------------------------------------------------------------- functions
; Free functions and in-class member function definitions are
; @definition.function (in-class ones become methods by containment
; elsewhere). Out-of-class member definitions (`R Class::name(...) {...}`) are
; @definition.method with the class name captured as @receiver.

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
    (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
  ]) @definition.function

(function_definition
  declarator: (operator_cast) @name) @definition.function

(function_definition
  declarator: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: (operator_cast) @name)) @definition.method

(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name))))
    (reference_declarator (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name)))
  ]) @definition.method

; `ns::Class::method`
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name)))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name))))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name)))))
    (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)] name: [(identifier) (destructor_name) (operator_name)] @name))))
  ]) @definition.method

; ------------------------------------------------------------ aggregates

(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class
(struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct
(union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct
(enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum

; `using X = Y;` (plain or templated)
(alias_declaration name: (type_identifier) @name) @definition.type


; ------------------------------------------------------------------ other

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module

; typedefs and `using X = Y;`
; Only the first declarator is used (`typedef struct x X, *PX;` yields X), so a
; typedef is never captured twice.
(type_definition
  type: (_)
  .
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; Namespace-scope `const`/`constexpr` variables with an initializer.
(translation_unit
  (declaration
    (type_qualifier ["const" "constexpr"])
    declarator: (init_declarator
      declarator: (identifier) @name)) @definition.constant)

(namespace_definition
  body: (declaration_list
    (declaration
      (type_qualifier ["const" "constexpr"])
      declarator: (init_declarator
        declarator: (identifier) @name)) @definition.constant))

; ---------------------------------------------------------------- references

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (qualified_identifier name: (identifier) @name)
    (qualified_identifier name: (qualified_identifier name: (identifier) @name))
    (template_function name: (identifier) @name)
    (qualified_identifier name: (template_function name: (identifier) @name))
    (field_expression field: (template_method name: (field_identifier) @name))
  ]) @reference.call

; Type uses.
(_
  type: (type_identifier) @name @reference.type)

(qualified_identifier
  name: (type_identifier) @name) @reference.type

(template_type
  name: (type_identifier) @name) @reference.type

(base_class_clause
  (type_identifier) @name @reference.type)

(struct_specifier
  name: (type_identifier) @name
  !body) @reference.type

(class_specifier
  name: (type_identifier) @name
  !body) @reference.type

(enum_specifier
  name: (type_identifier) @name
  !body) @reference.type
