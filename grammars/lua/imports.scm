; Lua imports: require("x") / require "x". @import.path is the quoted string.
((function_call
   name: (identifier) @_fn
   arguments: (arguments . (string) @import.path)) @import
  (#eq? @_fn "require"))
