; Zig tags for repo-graph. A type is a constant bound to a container:
; `pub const RetryPolicy = struct { ... };` defines RetryPolicy, and its functions
; are its methods.

(variable_declaration
  (identifier) @name
  [(struct_declaration) (union_declaration) (opaque_declaration)]) @definition.struct

(variable_declaration
  (identifier) @name
  [(enum_declaration) (error_set_declaration)]) @definition.enum

(function_declaration
  name: (identifier) @name) @definition.function

; test "delay grows" { ... } is the symbol `test(delay grows)` (extract.py's @callee).
(test_declaration
  "test" @callee
  (string (string_content) @name)) @definition.test

; Top-level `const MAX_TIMEOUT: u32 = 30;` in upper case.
(source_file
  (variable_declaration
    (identifier) @name) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]+$"))

; ---------------------------------------------------------------- references

(call_expression
  function: [
    (identifier) @name
    (field_expression member: (identifier) @name)
  ]) @reference.call

(parameter
  type: [
    (identifier) @name
    (field_expression member: (identifier) @name)
  ]) @reference.type

(struct_initializer . (identifier) @name) @reference.type
