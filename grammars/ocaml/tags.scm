; OCaml tags for repo-graph. A structure's `let` bindings are its functions (with
; parameters) and values; a `let ... in` inside an expression is local, not a symbol.

; The definition is the whole `let`/`module`/`type` (its signature keeps the keyword);
; the rare second binding of an `and` is left out.
(module_definition
  (module_binding (module_name) @name)) @definition.module

(module_type_definition
  (module_type_name) @name) @definition.interface

(type_definition
  . (type_binding name: (type_constructor) @name)) @definition.type

(exception_definition
  (constructor_declaration (constructor_name) @name)) @definition.type

([(compilation_unit (value_definition . (let_binding pattern: (value_name) @name (parameter))) @definition.function)
  (structure (value_definition . (let_binding pattern: (value_name) @name (parameter))) @definition.function)])

([(compilation_unit (value_definition . (let_binding pattern: (value_name) @name body: (_) .)) @definition.constant)
  (structure (value_definition . (let_binding pattern: (value_name) @name body: (_) .)) @definition.constant)])

(signature
  (value_specification (value_name) @name) @definition.function)

; ---------------------------------------------------------------- references

(application_expression
  function: (value_path (value_name) @name)) @reference.call

(type_constructor_path (type_constructor) @name) @reference.type
