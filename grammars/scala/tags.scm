; Scala tags for repo-graph (2 and 3 syntax). An object is a container like a class:
; `object RetryPolicy` beside `case class RetryPolicy` is its companion.

(class_definition
  name: (identifier) @name) @definition.class

(object_definition
  name: (identifier) @name) @definition.class

(trait_definition
  name: (identifier) @name) @definition.trait

(enum_definition
  name: (identifier) @name) @definition.enum

(function_definition
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(type_definition
  name: (type_identifier) @name) @definition.type

; `val MaxAttempts = 5` in an object or at the top: a constant when it is capitalised.
([(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant)
  (object_definition body: (template_body (val_definition pattern: (identifier) @name) @definition.constant))]
  (#match? @name "^[A-Z]"))

; ---------------------------------------------------------------- references

(call_expression
  function: [
    (identifier) @name
    (generic_function function: (identifier) @name)
  ]) @reference.call

; `Parser.parse(x)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Parser.parse` when the receiver is spelled as a class or object: it then resolves to
; that one's, not to any `parse` in sight (indexer/resolve.py).
(call_expression
  function: (field_expression
    value: (_) @qualifier
    field: (identifier) @name)) @reference.call

; A type named where a type goes: parameters, class parameters, extends clauses, vals,
; the base of a generic type (`List` in `List[Int]`), and results.
(_ type: (type_identifier) @name) @reference.type

(_ return_type: (type_identifier) @name) @reference.type
