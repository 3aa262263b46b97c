; Elixir: alias/import/require/use MyApp.Http.Client. @import.path is the module alias.
(call
  target: (identifier) @_keyword
  (arguments . (alias) @import.path)
  (#any-of? @_keyword "alias" "import" "require" "use")) @import

; alias Phoenix.Router.{Route, Scope}: one import of each module in the braces (@import.name), under the prefix.
(call
  target: (identifier) @_keyword
  (arguments . (dot left: (alias) @import.path right: (tuple (alias) @import.name)))
  (#any-of? @_keyword "alias" "import" "require" "use")) @import
