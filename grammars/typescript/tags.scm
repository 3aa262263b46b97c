; TypeScript tags for repo-graph (adapted from tree-sitter-javascript and
; tree-sitter-typescript queries/tags.scm).

; Variable-bound functions/constants (`const f = () => ...`) are captured as
; the variable_declarator; their doc comment precedes the enclosing
; lexical_declaration (or export_statement), which starts on the same line.

; ---------------------------------------------------------- declarations
; An exported declaration is captured as its export_statement, so the range
; includes `export` and any decorators above it and the doc comment directly
; precedes the captured node; other declarations are captured as themselves
; (the parent list below keeps the two cases from overlapping).

[
  (program (class_declaration name: (type_identifier) @name) @definition.class)
  (statement_block (class_declaration name: (type_identifier) @name) @definition.class)
  (switch_case (class_declaration name: (type_identifier) @name) @definition.class)
  (switch_default (class_declaration name: (type_identifier) @name) @definition.class)
  (labeled_statement (class_declaration name: (type_identifier) @name) @definition.class)
  (ambient_declaration (class_declaration name: (type_identifier) @name) @definition.class)
]
(export_statement declaration: (class_declaration name: (type_identifier) @name)) @definition.class

[
  (program (function_declaration name: (identifier) @name) @definition.function)
  (statement_block (function_declaration name: (identifier) @name) @definition.function)
  (switch_case (function_declaration name: (identifier) @name) @definition.function)
  (switch_default (function_declaration name: (identifier) @name) @definition.function)
  (labeled_statement (function_declaration name: (identifier) @name) @definition.function)
  (ambient_declaration (function_declaration name: (identifier) @name) @definition.function)
]
(export_statement declaration: (function_declaration name: (identifier) @name)) @definition.function

[
  (program (generator_function_declaration name: (identifier) @name) @definition.function)
  (statement_block (generator_function_declaration name: (identifier) @name) @definition.function)
  (switch_case (generator_function_declaration name: (identifier) @name) @definition.function)
  (switch_default (generator_function_declaration name: (identifier) @name) @definition.function)
  (labeled_statement (generator_function_declaration name: (identifier) @name) @definition.function)
  (ambient_declaration (generator_function_declaration name: (identifier) @name) @definition.function)
]
(export_statement declaration: (generator_function_declaration name: (identifier) @name)) @definition.function

[
  (program (abstract_class_declaration name: (type_identifier) @name) @definition.class)
  (statement_block (abstract_class_declaration name: (type_identifier) @name) @definition.class)
  (switch_case (abstract_class_declaration name: (type_identifier) @name) @definition.class)
  (switch_default (abstract_class_declaration name: (type_identifier) @name) @definition.class)
  (labeled_statement (abstract_class_declaration name: (type_identifier) @name) @definition.class)
  (ambient_declaration (abstract_class_declaration name: (type_identifier) @name) @definition.class)
]
(export_statement declaration: (abstract_class_declaration name: (type_identifier) @name)) @definition.class

[
  (program (interface_declaration name: (type_identifier) @name) @definition.interface)
  (statement_block (interface_declaration name: (type_identifier) @name) @definition.interface)
  (switch_case (interface_declaration name: (type_identifier) @name) @definition.interface)
  (switch_default (interface_declaration name: (type_identifier) @name) @definition.interface)
  (labeled_statement (interface_declaration name: (type_identifier) @name) @definition.interface)
  (ambient_declaration (interface_declaration name: (type_identifier) @name) @definition.interface)
]
(export_statement declaration: (interface_declaration name: (type_identifier) @name)) @definition.interface

[
  (program (type_alias_declaration name: (type_identifier) @name) @definition.type)
  (statement_block (type_alias_declaration name: (type_identifier) @name) @definition.type)
  (switch_case (type_alias_declaration name: (type_identifier) @name) @definition.type)
  (switch_default (type_alias_declaration name: (type_identifier) @name) @definition.type)
  (labeled_statement (type_alias_declaration name: (type_identifier) @name) @definition.type)
  (ambient_declaration (type_alias_declaration name: (type_identifier) @name) @definition.type)
]
(export_statement declaration: (type_alias_declaration name: (type_identifier) @name)) @definition.type

[
  (program (enum_declaration name: (identifier) @name) @definition.enum)
  (statement_block (enum_declaration name: (identifier) @name) @definition.enum)
  (switch_case (enum_declaration name: (identifier) @name) @definition.enum)
  (switch_default (enum_declaration name: (identifier) @name) @definition.enum)
  (labeled_statement (enum_declaration name: (identifier) @name) @definition.enum)
  (ambient_declaration (enum_declaration name: (identifier) @name) @definition.enum)
]
(export_statement declaration: (enum_declaration name: (identifier) @name)) @definition.enum

[
  (program (function_signature name: (identifier) @name) @definition.function)
  (statement_block (function_signature name: (identifier) @name) @definition.function)
  (switch_case (function_signature name: (identifier) @name) @definition.function)
  (switch_default (function_signature name: (identifier) @name) @definition.function)
  (labeled_statement (function_signature name: (identifier) @name) @definition.function)
  (ambient_declaration (function_signature name: (identifier) @name) @definition.function)
]
(export_statement declaration: (function_signature name: (identifier) @name)) @definition.function

[
  (program (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (statement_block (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (switch_case (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (switch_default (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (labeled_statement (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (expression_statement (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (ambient_declaration (internal_module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
]
(export_statement declaration: (internal_module name: [(identifier) (nested_identifier) (string)] @name)) @definition.module

[
  (program (module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (statement_block (module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (switch_case (module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (switch_default (module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (labeled_statement (module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
  (ambient_declaration (module name: [(identifier) (nested_identifier) (string)] @name) @definition.module)
]
(export_statement declaration: (module name: [(identifier) (nested_identifier) (string)] @name)) @definition.module


; ---------------------------------------------------------------- members

; Methods (including constructors, accessors, static methods), interface
; method signatures and abstract methods.
(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

(method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

; const/let/var f = () => ... / function () {...} / class {...}. A generic arrow
; function in a .ts file, `const f = <T>(x: T) => ...`, parses as an old-style
; type assertion `<T>` wrapping the arrow function (a node TSX, which inherits
; this file, does not have): any value whose child is an arrow function counts.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)
          (_ (arrow_function))]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; exports.f = function () {...}; Foo.prototype.f = () => ...
(assignment_expression
  left: (member_expression
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; Top-level `const NAME = <literal-ish value>` (exported or not).
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(number) (string) (template_string) (true) (false) (null) (regex)
              (array) (object) (binary_expression) (unary_expression)
              (member_expression) (new_expression) (as_expression)
              (satisfies_expression)]) @definition.constant))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(number) (string) (template_string) (true) (false) (null) (regex)
                (array) (object) (binary_expression) (unary_expression)
                (member_expression) (new_expression) (as_expression)
                (satisfies_expression)]) @definition.constant)))

; ---------------------------------------------------------------- references

((call_expression
   function: (identifier) @name) @reference.call
  (#not-eq? @name "require"))

; `Config.load(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Config.load` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `load` in sight (indexer/resolve.py).
(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call

; `new Foo(...)` is a call to Foo's constructor.
(new_expression
  constructor: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.call

; `class A extends B` (an expression in TS).
(extends_clause
  value: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ] @reference.type)

; Qualified types `ns.Foo`.
(nested_type_identifier
  name: (type_identifier) @name) @reference.type

; Type identifiers in type positions: the identifier itself is both @name and
; @reference.type (declaration names and type parameter names are excluded).
[
  (type_annotation (type_identifier) @name @reference.type)
  (opting_type_annotation (type_identifier) @name @reference.type)
  (omitting_type_annotation (type_identifier) @name @reference.type)
  (generic_type name: (type_identifier) @name @reference.type)
  (type_arguments (type_identifier) @name @reference.type)
  (union_type (type_identifier) @name @reference.type)
  (intersection_type (type_identifier) @name @reference.type)
  (array_type (type_identifier) @name @reference.type)
  (tuple_type (type_identifier) @name @reference.type)
  (optional_type (type_identifier) @name @reference.type)
  (rest_type (type_identifier) @name @reference.type)
  (readonly_type (type_identifier) @name @reference.type)
  (parenthesized_type (type_identifier) @name @reference.type)
  (index_type_query (type_identifier) @name @reference.type)
  (lookup_type (type_identifier) @name @reference.type)
  (conditional_type (type_identifier) @name @reference.type)
  (type_predicate type: (type_identifier) @name @reference.type)
  (function_type return_type: (type_identifier) @name @reference.type)
  (constructor_type (type_identifier) @name @reference.type)
  (implements_clause (type_identifier) @name @reference.type)
  (extends_type_clause type: (type_identifier) @name @reference.type)
  (constraint (type_identifier) @name @reference.type)
  (default_type (type_identifier) @name @reference.type)
  (type_alias_declaration value: (type_identifier) @name @reference.type)
  (as_expression (type_identifier) @name @reference.type)
  (satisfies_expression (type_identifier) @name @reference.type)
]
