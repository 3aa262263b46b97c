; Test blocks of JavaScript, TypeScript and TSX test files, one query for the three
; (their grammars share these nodes); each language's language.toml inherits it.

; ------------------------------------------------------------ test blocks
; A test file is made of describe/it blocks, not definitions. Each `describe`
; (or context, suite; .only/.skip too) is a symbol named by its title, with
; `describe(title)` in its qualified name (never one of the code's), so the
; words of its tests are found in it; the `it`/`test` blocks inside are its body
; (one node per test crowds a question's answer with near-identical tests),
; except those at the top of a file, which stand alone.
(expression_statement
  (call_expression
    function: [
      (identifier) @_fn @callee
      (member_expression object: (identifier) @_fn) @callee
    ]
    arguments: (arguments . (string (string_fragment) @name)))
  (#match? @_fn "^(describe|context|suite)$")) @definition.test

(program
  (expression_statement
    (call_expression
      function: [
        (identifier) @_fn @callee
        (member_expression object: (identifier) @_fn) @callee
      ]
      arguments: (arguments . (string (string_fragment) @name)))
    (#match? @_fn "^(it|test|specify)$")) @definition.test)
