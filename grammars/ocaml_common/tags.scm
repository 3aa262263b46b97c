; What OCaml implementations (.ml) and interfaces (.mli) share: modules, module types,
; types, exceptions and value specifications (`val delay : policy -> int -> float`, in
; an interface or a signature), and the types they name. Inherited by ocaml and
; ocaml_interface (language.toml).
; The definition is the whole `module`/`type` (its signature keeps the keyword); the rare
; second binding of an `and` is left out.

(module_definition
  (module_binding (module_name) @name)) @definition.module

(module_type_definition
  (module_type_name) @name) @definition.interface

(type_definition
  . (type_binding name: (type_constructor) @name)) @definition.type

(exception_definition
  (constructor_declaration (constructor_name) @name)) @definition.type

(value_specification
  (value_name) @name) @definition.function

(type_constructor_path (type_constructor) @name) @reference.type
