; OCaml implementation (.ml) tags for repo-graph; what interfaces share is in
; ocaml_common. A structure's `let` bindings are its functions (with
; parameters) and values; a `let ... in` inside an expression is local, not a symbol.

([(compilation_unit (value_definition . (let_binding pattern: (value_name) @name (parameter))) @definition.function)
  (structure (value_definition . (let_binding pattern: (value_name) @name (parameter))) @definition.function)])

([(compilation_unit (value_definition . (let_binding pattern: (value_name) @name body: (_) .)) @definition.constant)
  (structure (value_definition . (let_binding pattern: (value_name) @name body: (_) .)) @definition.constant)])

; ---------------------------------------------------------------- references

(application_expression
  function: (value_path (value_name) @name)) @reference.call
