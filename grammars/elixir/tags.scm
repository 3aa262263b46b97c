; Elixir tags for repo-graph. Everything is a call: `defmodule X do ... end` is the
; call `defmodule` with the alias X and a do block; the keyword tells what it defines.

(call
  target: (identifier) @_keyword
  (arguments (alias) @name)
  (#any-of? @_keyword "defmodule" "defprotocol" "defimpl")) @definition.module

; def name(args), def name(args) when guard, def name (no arguments); macros alike.
(call
  target: (identifier) @_keyword
  (arguments
    [
      (identifier) @name
      (call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name) operator: "when")
    ])
  (#any-of? @_keyword "def" "defp" "defdelegate" "defguard" "defguardp" "defmacro" "defmacrop")) @definition.function

; ---------------------------------------------------------------- references

; Local calls, but not the keywords of the language nor the standard module attributes
; (`@doc`, `@spec`), which are calls too. A def's head is a call as well: extract.py
; drops a use that a definition captured as its name.
(call
  target: (identifier) @name
  (#not-match? @name "^(def|defp|defmodule|defprotocol|defimpl|defmacro|defmacrop|defdelegate|defguard|defguardp|defstruct|defexception|defoverridable|alias|import|require|use|case|cond|if|unless|with|for|fn|receive|try|quote|unquote|raise|reraise|throw|super|moduledoc|doc|typedoc|spec|type|typep|opaque|callback|impl|behaviour)$")) @reference.call

; Remote calls: Client.retry(...), fun.()
(call
  target: (dot right: (identifier) @name)) @reference.call

; Modules named in code: a struct (%Phoenix.Socket.Reply{}), a remote call's module
; (Phoenix.Channel.Server.broadcast(...)), a module passed to a call or declared
; (`encode(Message, x)`, `plug Plug.Parsers`, `@behaviour Plug`); not the names a
; defmodule defines nor those alias/import/require/use import (imports.scm).
(struct (alias) @name) @reference.type

(call target: (dot left: (alias) @name)) @reference.type

(call
  target: (identifier) @_keyword
  (arguments (alias) @name)
  (#not-match? @_keyword "^(defmodule|defprotocol|defimpl|alias|import|require|use)$")) @reference.type
