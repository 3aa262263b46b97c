; C# tags for repo-graph (adapted from tree-sitter-c-sharp queries/tags.scm).
; Attributes belong to the declaration node, so doc comments (`///`) directly
; precede it.

(class_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(struct_declaration
  name: (identifier) @name) @definition.struct

(record_declaration
  name: (identifier) @name) @definition.struct

(delegate_declaration
  name: (identifier) @name) @definition.type

(namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.module

(file_scoped_namespace_declaration
  name: [(identifier) (qualified_name)] @name) @definition.module

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(destructor_declaration
  name: (identifier) @name) @definition.method

(local_function_statement
  name: (identifier) @name) @definition.function

; `const` fields.
(field_declaration
  (modifier "const")
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.constant

; ---------------------------------------------------------------- references

(invocation_expression
  function: [
    (identifier) @name
    (generic_name (identifier) @name)
  ]) @reference.call

; `Config.Load(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Config.Load` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `Load` in sight (indexer/resolve.py; a property spelled so,
; `Logger.Log()`, falls back to the name: language.toml `receivers_may_be_members`).
(invocation_expression
  function: (member_access_expression
    expression: (_) @qualifier
    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call

; `new Foo(...)` is a call to Foo's constructor.
(object_creation_expression
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: (identifier) @name)
    (qualified_name name: (generic_name (identifier) @name))
  ]) @reference.call

; Type uses: @reference.type is the type node, @name its (last) identifier.
(parameter
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(variable_declaration
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(method_declaration
  returns: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(local_function_statement
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(property_declaration
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(indexer_declaration
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(delegate_declaration
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(operator_declaration
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(cast_expression
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(typeof_expression
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(default_expression
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(catch_declaration
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(declaration_pattern
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(base_list
  [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(type_argument_list
  [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(type_parameter_constraint
  type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type)

(array_creation_expression
  type: (array_type type: [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: (identifier) @name)
     (qualified_name name: (generic_name (identifier) @name))
     (nullable_type type: (identifier) @name)
     (array_type type: (identifier) @name)] @reference.type))
