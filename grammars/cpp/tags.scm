; C++ tags for repo-graph (adapted from tree-sitter-cpp queries/tags.scm).
; Note: preproc_* nodes end at column 0 of the following line.

; ------------------------------------------------------------- functions
; Free functions and in-class member function definitions are
; @definition.function (in-class ones become methods by containment
; elsewhere). Out-of-class member definitions (`R Class::name(...) {...}`) are
; @definition.method with the class name captured as @receiver.
; For templates the whole template_declaration (header line included) is the
; definition node; the non-template patterns are therefore restricted to the
; parents a definition can otherwise have (so nothing is captured twice).

[
  (translation_unit
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (declaration_list
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (field_declaration_list
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (linkage_specification
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (friend_declaration
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (preproc_if
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (preproc_ifdef
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (preproc_else
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (preproc_elif
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (preproc_elifdef
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (compound_statement
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
  (ERROR
    (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ]) @definition.function)
]

(template_declaration
  (function_definition
    declarator: [
      (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])
      (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)])))
      (reference_declarator (function_declarator declarator: [(identifier) @name (field_identifier) @name (destructor_name) @name (operator_name) @name (template_function name: (identifier) @name)]))
    ])) @definition.function

[
  (translation_unit
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (declaration_list
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (field_declaration_list
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (linkage_specification
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (friend_declaration
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (preproc_if
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (preproc_ifdef
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (preproc_else
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (preproc_elif
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (preproc_elifdef
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (compound_statement
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
  (ERROR
    (function_definition
    declarator: [
      (operator_cast) @name
    ]) @definition.function)
]

(template_declaration
  (function_definition
    declarator: [
      (operator_cast) @name
    ])) @definition.function

[
  (translation_unit
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (declaration_list
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (field_declaration_list
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (linkage_specification
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (friend_declaration
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (preproc_if
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (preproc_ifdef
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (preproc_else
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (preproc_elif
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (preproc_elifdef
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (compound_statement
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
  (ERROR
    (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ]) @definition.method)
]

(template_declaration
  (function_definition
    declarator: [
      (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (operator_cast) @name)
    ])) @definition.method

[
  (translation_unit
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (declaration_list
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (field_declaration_list
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (linkage_specification
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (friend_declaration
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (preproc_if
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (preproc_ifdef
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (preproc_else
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (preproc_elif
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (preproc_elifdef
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (compound_statement
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
  (ERROR
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ]) @definition.method)
]

(template_declaration
  (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    ])) @definition.method

[
  (translation_unit
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (declaration_list
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (field_declaration_list
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (linkage_specification
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (friend_declaration
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (preproc_if
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (preproc_ifdef
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (preproc_else
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (preproc_elif
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (preproc_elifdef
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (compound_statement
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
  (ERROR
    (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ]) @definition.method)
]

(template_declaration
  (function_definition
    declarator: [
      (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
      (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))))
      (reference_declarator (function_declarator declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    ])) @definition.method

; ------------------------------------------------------------ aggregates
; Direct children of scopes, `type:` of a declaration/typedef/field, or a
; template.

[
  (translation_unit (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (declaration_list (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (preproc_if (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (preproc_ifdef (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (preproc_else (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (preproc_elif (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (preproc_elifdef (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (compound_statement (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (ERROR (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
  (_ type: (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.class)
]

(template_declaration (class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list))) @definition.class

[
  (translation_unit (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (declaration_list (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_if (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_ifdef (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_else (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_elif (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_elifdef (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (compound_statement (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (ERROR (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (_ type: (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
]

(template_declaration (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list))) @definition.struct

[
  (translation_unit (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (declaration_list (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_if (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_ifdef (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_else (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_elif (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (preproc_elifdef (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (compound_statement (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (ERROR (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
  (_ type: (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list)) @definition.struct)
]

(template_declaration (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (field_declaration_list))) @definition.struct

[
  (translation_unit (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (declaration_list (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (preproc_if (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (preproc_ifdef (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (preproc_else (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (preproc_elif (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (preproc_elifdef (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (compound_statement (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (ERROR (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
  (_ type: (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list)) @definition.enum)
]

(template_declaration (enum_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) (qualified_identifier name: (template_type name: (type_identifier) @name))] body: (enumerator_list))) @definition.enum

; `using X = Y;` (plain or templated)
[
  (translation_unit (alias_declaration name: (type_identifier) @name) @definition.type)
  (declaration_list (alias_declaration name: (type_identifier) @name) @definition.type)
  (field_declaration_list (alias_declaration name: (type_identifier) @name) @definition.type)
  (preproc_if (alias_declaration name: (type_identifier) @name) @definition.type)
  (preproc_ifdef (alias_declaration name: (type_identifier) @name) @definition.type)
  (preproc_else (alias_declaration name: (type_identifier) @name) @definition.type)
  (preproc_elif (alias_declaration name: (type_identifier) @name) @definition.type)
  (preproc_elifdef (alias_declaration name: (type_identifier) @name) @definition.type)
  (compound_statement (alias_declaration name: (type_identifier) @name) @definition.type)
  (ERROR (alias_declaration name: (type_identifier) @name) @definition.type)
]

(template_declaration (alias_declaration name: (type_identifier) @name)) @definition.type


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
