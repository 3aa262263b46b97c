; Go imports: one match per import_spec (grouped or single).
; @import.path is the quoted interpreted_string_literal.
(import_spec
  path: (interpreted_string_literal) @import.path) @import
