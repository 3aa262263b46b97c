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

; test retryDelay { ... } tests a declaration (a doctest): `test(retryDelay)`.
(test_declaration
  "test" @callee
  (identifier) @name) @definition.test

; test { ... } and comptime { ... } have no name: the keyword is theirs. Without them
; what they say (`std.testing.refAllDecls(@This())`) was in no symbol's text.
(test_declaration
  "test" @name
  .
  (block)) @definition.test

(source_file
  (comptime_declaration
    "comptime" @name) @definition.block)

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
