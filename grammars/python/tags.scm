; Definitions: the whole definition node, its name, and (for docstrings) the first
; string of the body.
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

; References: calls by simple name or by attribute, and names in base classes.
(call
  function: (identifier) @name) @reference.call

; `Config.from_file(p)`: its receiver is @qualifier, and indexer/extract.py names the call
; `Config.from_file` when the receiver is spelled as a class: it then resolves to that
; class's, not to any `from_file` in sight (indexer/resolve.py).
; `self.load()`, `os.path.join()`, `LOGGER.info()` go by the function's name.
(call
  function: (attribute
    object: (_) @qualifier
    attribute: (identifier) @name)) @reference.call

(class_definition
  superclasses: (argument_list
    [(identifier) @name
     (attribute attribute: (identifier) @name)] @reference.type))
