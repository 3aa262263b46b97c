; Rust imports. @import.path is the use argument (e.g. `std::{fmt, thread}`),
; the name of an out-of-line `mod foo;`, or an `extern crate` name.
(use_declaration
  argument: (_) @import.path) @import

(mod_item
  name: (identifier) @import.path
  !body) @import

(extern_crate_declaration
  name: (identifier) @import.path) @import
