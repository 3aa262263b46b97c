; PHP tags for repo-graph (adapted from tree-sitter-php queries/tags.scm).

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

; Traits are reusable method bundles; reported as interfaces.
(trait_declaration
  name: (name) @name) @definition.interface

(enum_declaration
  name: (name) @name) @definition.enum

; Only braced namespaces have a body; `namespace X;` is not a container.
(namespace_definition
  name: (namespace_name) @name
  body: (compound_statement)) @definition.module

(function_definition
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name) @definition.method

; `const X = 1;` (top level or class constant). The definition node is the
; const_element; the doc comment precedes the enclosing const_declaration.
(const_declaration
  (const_element
    (name) @name) @definition.constant)

; ------------------------------------------------------------ test blocks
; Pest files are made of describe/it blocks. Each `describe` is a symbol named by
; its title, `describe(title)` in its qualified name; the `it`/`test` blocks
; inside are its body, except those at the top of a file.
(expression_statement
  (function_call_expression
    function: (name) @_fn @callee
    arguments: (arguments . (argument (string (string_content) @name))))
  (#eq? @_fn "describe")) @definition.test

(program
  (expression_statement
    (function_call_expression
      function: (name) @_fn @callee
      arguments: (arguments . (argument (string (string_content) @name))))
    (#match? @_fn "^(it|test)$")) @definition.test)

; ---------------------------------------------------------------- references

(function_call_expression
  function: [
    (name) @name
    (qualified_name (name) @name .)
  ]) @reference.call

(member_call_expression
  name: (name) @name) @reference.call

(nullsafe_member_call_expression
  name: (name) @name) @reference.call

; `Foo::create($x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Foo.create` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `create` in sight (indexer/resolve.py).
; `self::`, `static::` and `$class::` go by the function's name.
(scoped_call_expression
  scope: (_) @qualifier
  name: (name) @name) @reference.call

; `new Foo(...)` is a call to Foo's constructor.
((object_creation_expression
   [
     (name) @name
     (qualified_name (name) @name .)
   ]) @reference.call
  (#not-match? @name "^(self|static|parent)$"))

; Type uses: parameter/return/property types, extends, implements, trait use.
((named_type
   [
     (name) @name
     (qualified_name (name) @name .)
   ]) @reference.type
  (#not-match? @name "^(self|static|parent)$"))

(base_clause
  [
    (name) @name @reference.type
    (qualified_name (name) @name .) @reference.type
  ])

(class_interface_clause
  [
    (name) @name @reference.type
    (qualified_name (name) @name .) @reference.type
  ])

(use_declaration
  [
    (name) @name @reference.type
    (qualified_name (name) @name .) @reference.type
  ])
