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

; A class's function, `Config.from_file(p)`, by its path: it resolves to that class's
; (indexer/resolve.py), where `from_file` alone is any the file sees. Other attributes
; (`self.load()`, `os.path.join()`, `LOGGER.info()`) by the function's name.
(call
  function: (attribute object: (identifier) @_type) @name
  (#match? @_type "^[A-Z][a-z]")) @reference.call

(call
  function: (attribute
    object: (_) @_object
    attribute: (identifier) @name)
  (#not-match? @_object "^[A-Z][a-z][A-Za-z0-9_]*$")) @reference.call

(class_definition
  superclasses: (argument_list
    [(identifier) @name
     (attribute attribute: (identifier) @name)] @reference.type))
