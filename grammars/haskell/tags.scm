; Haskell tags for repo-graph. A function is its equations (`function` nodes; a
; function defined by several clauses is several symbols, `f`, `f~2`); its type
; signature, read as a comment (language.toml), joins its doc.

(data_type
  name: (name) @name) @definition.type

(newtype
  name: (name) @name) @definition.type

(type_synonym
  name: (name) @name) @definition.type

(class
  name: (name) @name) @definition.interface

; `instance Transport Client`: the class's methods for one type, named by the class
; (the type may be any pattern: `MonadState s (ReaderT r m)`), `Transport~2`.
(instance
  name: (name) @name) @definition.impl

(function
  name: (variable) @name) @definition.function

(bind
  name: (variable) @name) @definition.function

; A class's method signatures.
(class_declarations
  (signature name: (variable) @name) @definition.function)

; ---------------------------------------------------------------- references

(apply
  function: [
    (variable) @name
    (qualified (variable) @name)
  ]) @reference.call

(signature
  type: (_ [(name) @name (apply constructor: (name) @name)])) @reference.type
