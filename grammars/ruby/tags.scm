; Ruby tags for repo-graph (adapted from tree-sitter-ruby queries/tags.scm).
; Note: the first comment inside a class/module body is a child of the
; class/module node, not of its body_statement.

(method
  name: (_) @name) @definition.method

; def self.foo / def obj.foo
(singleton_method
  name: (_) @name) @definition.method

(class
  name: [
    (constant) @name
    (scope_resolution name: (_) @name)
  ]) @definition.class

(module
  name: [
    (constant) @name
    (scope_resolution name: (_) @name)
  ]) @definition.module

; FOO = ...
(assignment
  left: (constant) @name) @definition.constant

; ------------------------------------------------------------ test blocks
; RSpec and minitest/spec files are made of describe/it blocks. Each `describe`
; (or context, feature, shared examples) is a symbol named by its title or the
; constant it describes, with `describe(title)` in its qualified name; the `it`
; blocks inside are its body, except those at the top of a file.
(call
  method: (identifier) @_fn @callee
  arguments: (argument_list . [(string (string_content) @name) (constant) @name (scope_resolution) @name])
  block: [(do_block) (block)]
  (#match? @_fn "^(describe|context|feature|shared_examples|shared_context)$")) @definition.test

(program
  (call
    method: (identifier) @_fn @callee
    arguments: (argument_list . [(string (string_content) @name) (constant) @name (scope_resolution) @name])
    block: [(do_block) (block)]
    (#match? @_fn "^(it|specify|example|scenario)$")) @definition.test)

; ---------------------------------------------------------------- references

; Explicit calls (`foo(x)`, `obj.foo`, `Foo.new`); bare zero-argument
; identifiers are ambiguous with locals and are not captured.
; `Cart.build(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Cart.build` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `build` in sight (indexer/resolve.py).
((call
   receiver: (_) @qualifier
   method: (identifier) @name) @reference.call
  (#not-match? @name "^(require|require_relative|load|attr_reader|attr_writer|attr_accessor|private|protected|public|include|extend|prepend|raise)$"))

((call
   !receiver
   method: (identifier) @name) @reference.call
  (#not-match? @name "^(require|require_relative|load|attr_reader|attr_writer|attr_accessor|private|protected|public|include|extend|prepend|raise)$"))

; Constants used as types: superclass, call receivers (`Foo.new`), rescue
; clauses.
(superclass
  [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ] @reference.type)

(call
  receiver: [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ] @reference.type)

(exceptions
  [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ] @reference.type)

; include/extend/prepend Foo
((call
   method: (identifier) @_method
   arguments: (argument_list
     [
       (constant) @name
       (scope_resolution name: (constant) @name)
     ] @reference.type))
  (#match? @_method "^(include|extend|prepend)$"))
