; Elixir: alias/import/require/use MyApp.Http.Client. @import.path is the module alias.
(call
  target: (identifier) @_keyword
  (arguments . (alias) @import.path)
  (#any-of? @_keyword "alias" "import" "require" "use")) @import
