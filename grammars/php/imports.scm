; PHP imports.
; require/include(_once) with a string literal, or `__DIR__ . 'x.php'`:
; @import.path is the quoted string node.
([
  (require_expression [(string) (encapsed_string)] @import.path)
  (require_once_expression [(string) (encapsed_string)] @import.path)
  (include_expression [(string) (encapsed_string)] @import.path)
  (include_once_expression [(string) (encapsed_string)] @import.path)
  (require_expression (binary_expression right: [(string) (encapsed_string)] @import.path))
  (require_once_expression (binary_expression right: [(string) (encapsed_string)] @import.path))
  (include_expression (binary_expression right: [(string) (encapsed_string)] @import.path))
  (include_once_expression (binary_expression right: [(string) (encapsed_string)] @import.path))
] @import)

; use Foo\Bar; use Foo\Bar as Baz; use function Foo\bar;
; @import.path is the qualified name.
(namespace_use_declaration
  (namespace_use_clause
    [(qualified_name) (name)] @import.path)) @import

; use Foo\{Bar, Baz}; @import.path is the common prefix.
(namespace_use_declaration
  (namespace_name) @import.path
  body: (namespace_use_group)) @import
