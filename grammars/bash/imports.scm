; Bash imports: `source FILE` / `. FILE`. @import.path is the first argument
; node as written (word, or quoted string which may contain expansions).
((command
   name: (command_name (word) @_command)
   .
   argument: [(word) (string) (raw_string) (concatenation)] @import.path) @import
  (#match? @_command "^(source|\\.)$"))
