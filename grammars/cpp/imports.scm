; C++ includes. @import.path is the string_literal ("x.h", quotes included)
; or system_lib_string (<x.h>, brackets included).
(preproc_include
  path: [
    (string_literal)
    (system_lib_string)
  ] @import.path) @import
