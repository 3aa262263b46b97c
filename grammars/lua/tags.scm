; Lua tags for repo-graph (adapted from tree-sitter-lua queries/tags.scm).

; function foo() / local function foo() / function M.foo() / function a.b.foo()
(function_declaration
  name: [
    (identifier) @name
    (dot_index_expression field: (identifier) @name)
  ]) @definition.function

; function Class:method() - the table name is captured as @receiver.
(function_declaration
  name: (method_index_expression
    table: [
      (identifier) @receiver
      (dot_index_expression field: (identifier) @receiver)
    ]
    method: (identifier) @name)) @definition.method

; foo = function() end / M.foo = function() end / local foo = function() end
(assignment_statement
  (variable_list
    .
    name: [
      (identifier) @name
      (dot_index_expression field: (identifier) @name)
    ])
  (expression_list
    .
    value: (function_definition))) @definition.function

; Top-level UPPER_CASE (2+ chars) assignments (`local MAX = 5`, `M.MAX = 5`) are constants.
((chunk
   [
     (assignment_statement
       (variable_list
         .
         name: [
           (identifier) @name
           (dot_index_expression field: (identifier) @name)
         ])
       (expression_list
         .
         value: [(number) (string) (true) (false) (table_constructor) (binary_expression) (unary_expression)])) @definition.constant
     (variable_declaration
       (assignment_statement
         (variable_list
           .
           name: (identifier) @name)
         (expression_list
           .
           value: [(number) (string) (true) (false) (table_constructor) (binary_expression) (unary_expression)])) @definition.constant)
   ])
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

; ---------------------------------------------------------------- references

((function_call
   name: [
     (identifier) @name
     (dot_index_expression field: (identifier) @name)
     (method_index_expression method: (identifier) @name)
   ]) @reference.call
  (#not-eq? @name "require"))
