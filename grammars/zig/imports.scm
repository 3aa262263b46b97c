; Zig: const x = @import("file.zig"). @import.path is the string's content.
((builtin_function
   (builtin_identifier) @_builtin
   (arguments . (string (string_content) @import.path))) @import
  (#eq? @_builtin "@import"))
