; Rust tags for repo-graph (adapted from tree-sitter-rust queries/tags.scm).
; Functions are always @definition.function; functions inside impl/trait
; bodies become methods by containment elsewhere.

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.interface

(type_item
  name: (type_identifier) @name) @definition.type

; Inline modules only; `mod foo;` (no body) is an import (see imports.scm).
(mod_item
  name: (identifier) @name
  body: (declaration_list)) @definition.module

(macro_definition
  name: (identifier) @name) @definition.macro

(const_item
  name: (identifier) @name) @definition.constant

(static_item
  name: (identifier) @name) @definition.constant

(function_item
  name: (identifier) @name) @definition.function

; Trait method declarations without a body.
(function_signature_item
  name: (identifier) @name) @definition.function

; impl blocks: @name is the implementing type's name.
(impl_item
  type: [
    (type_identifier) @name
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (reference_type type: (type_identifier) @name)
    (reference_type type: (generic_type type: (type_identifier) @name))
  ]) @definition.impl

; ---------------------------------------------------------------- references

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (generic_function function: (identifier) @name)
    (generic_function function: (field_expression field: (field_identifier) @name))
    (generic_function function: (scoped_identifier name: (identifier) @name))
  ]) @reference.call

; `Router::new()`: its receiver is @qualifier, and indexer/extract.py names the call
; `Router.new` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `new` in sight (indexer/resolve.py).
; `Self::new()`, `util::helper()` and `Vec::<u8>::new()` go by the function's name.
(call_expression
  function: (scoped_identifier
    path: (_) @qualifier
    name: (identifier) @name)) @reference.call

(macro_invocation
  macro: [
    (identifier) @name
    (scoped_identifier name: (identifier) @name)
  ]) @reference.call

; Type uses: a path type `a::B` is one reference; a bare type identifier is
; captured as both @name and @reference.type. `Self` is skipped.
(scoped_type_identifier
  name: (type_identifier) @name) @reference.type

([
  (parameter type: (type_identifier) @name @reference.type)
  (let_declaration type: (type_identifier) @name @reference.type)
  (field_declaration type: (type_identifier) @name @reference.type)
  (ordered_field_declaration_list type: (type_identifier) @name @reference.type)
  (reference_type type: (type_identifier) @name @reference.type)
  (pointer_type type: (type_identifier) @name @reference.type)
  (generic_type type: (type_identifier) @name @reference.type)
  (type_item type: (type_identifier) @name @reference.type)
  (const_item type: (type_identifier) @name @reference.type)
  (static_item type: (type_identifier) @name @reference.type)
  (type_cast_expression type: (type_identifier) @name @reference.type)
  (array_type element: (type_identifier) @name @reference.type)
  (tuple_type (type_identifier) @name @reference.type)
  (type_arguments (type_identifier) @name @reference.type)
  (function_item return_type: (type_identifier) @name @reference.type)
  (function_signature_item return_type: (type_identifier) @name @reference.type)
  (function_type return_type: (type_identifier) @name @reference.type)
  (function_type trait: (type_identifier) @name @reference.type)
  (closure_expression return_type: (type_identifier) @name @reference.type)
  (impl_item trait: (type_identifier) @name @reference.type)
  (trait_bounds (type_identifier) @name @reference.type)
  (dynamic_type trait: (type_identifier) @name @reference.type)
  (abstract_type trait: (type_identifier) @name @reference.type)
  (struct_expression name: (type_identifier) @name @reference.type)
]
  (#not-eq? @name "Self"))
