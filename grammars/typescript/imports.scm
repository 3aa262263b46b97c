; TypeScript imports. @import.path is the quoted string node.

; import x from "m"; import type { T } from "m"; import "m";
(import_statement
  source: (string) @import.path) @import

; import x = require("m");
(import_statement
  (import_require_clause
    source: (string) @import.path)) @import

; export { x } from "m"; export * from "m";
(export_statement
  source: (string) @import.path) @import

; require("m")
((call_expression
   function: (identifier) @_fn
   arguments: (arguments . (string) @import.path .)) @import
  (#eq? @_fn "require"))

; import("m")
(call_expression
  function: (import)
  arguments: (arguments . (string) @import.path)) @import
