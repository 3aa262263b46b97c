; Bash tags for repo-graph (tree-sitter-bash ships no tags query).

; foo() { ...; }  /  function foo { ...; }
(function_definition
  name: (word) @name) @definition.function

; readonly NAME=value
(declaration_command
  "readonly"
  (variable_assignment
    name: (variable_name) @name)) @definition.constant

; ---------------------------------------------------------------- references

; Every simple command invocation is a call (resolves to a function when one
; with that name exists). `source`/`.` are imports (see imports.scm);
; control-flow builtins are skipped.
((command
   name: (command_name (word) @name)) @reference.call
  (#not-match? @name "^(source|\\.|:|return|exit|break|continue|shift|set|true|false)$"))
