; JavaScript tags for repo-graph (adapted from tree-sitter-javascript
; queries/tags.scm).

; Variable-bound functions/constants (`const f = () => ...`) are captured as
; the variable_declarator; their doc comment precedes the enclosing
; lexical_declaration (or export_statement), which starts on the same line.

; ---------------------------------------------------------- declarations
; An exported declaration is captured as its export_statement, so the range
; includes `export` and any decorators above it and the doc comment directly
; precedes the captured node; other declarations are captured as themselves
; (the parent list below keeps the two cases from overlapping).

[
  (program (class_declaration name: (identifier) @name) @definition.class)
  (statement_block (class_declaration name: (identifier) @name) @definition.class)
  (switch_case (class_declaration name: (identifier) @name) @definition.class)
  (switch_default (class_declaration name: (identifier) @name) @definition.class)
  (labeled_statement (class_declaration name: (identifier) @name) @definition.class)
]
(export_statement declaration: (class_declaration name: (identifier) @name)) @definition.class

[
  (program (function_declaration name: (identifier) @name) @definition.function)
  (statement_block (function_declaration name: (identifier) @name) @definition.function)
  (switch_case (function_declaration name: (identifier) @name) @definition.function)
  (switch_default (function_declaration name: (identifier) @name) @definition.function)
  (labeled_statement (function_declaration name: (identifier) @name) @definition.function)
]
(export_statement declaration: (function_declaration name: (identifier) @name)) @definition.function

[
  (program (generator_function_declaration name: (identifier) @name) @definition.function)
  (statement_block (generator_function_declaration name: (identifier) @name) @definition.function)
  (switch_case (generator_function_declaration name: (identifier) @name) @definition.function)
  (switch_default (generator_function_declaration name: (identifier) @name) @definition.function)
  (labeled_statement (generator_function_declaration name: (identifier) @name) @definition.function)
]
(export_statement declaration: (generator_function_declaration name: (identifier) @name)) @definition.function


; ---------------------------------------------------------------- members

; Methods (including constructors, getters/setters and static methods).
(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

; const/let/var f = () => ... / function () {...} / class {...}
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; exports.f = function () {...}; module.exports.f = () => ...; Foo.prototype.f = ...
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
              (member_expression) (new_expression)]) @definition.constant))

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(number) (string) (template_string) (true) (false) (null) (regex)
                (array) (object) (binary_expression) (unary_expression)
                (member_expression) (new_expression)]) @definition.constant)))

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

; `class A extends B` references B as a type.
(class_heritage
  [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ] @reference.type)

; JSX: `<RetryButton ... />` uses a component (capitalised names only;
; lowercase names are intrinsic HTML elements).
((jsx_opening_element
   name: [
     (identifier) @name
     (member_expression property: (property_identifier) @name)
   ]) @reference.call
  (#match? @name "^[A-Z]"))

((jsx_self_closing_element
   name: [
     (identifier) @name
     (member_expression property: (property_identifier) @name)
   ]) @reference.call
  (#match? @name "^[A-Z]"))
