; Bash. Conventions: see src/parse/languages.ts. Commands are calls; `source f` / `. f`
; are imports.

(function_definition name: (word) @name) @definition.function

(command
  name: (command_name (word) @_source)
  argument: [(word) @import.source (string (string_content) @import.source) (raw_string) @import.source]
  (#any-of? @_source "source" ".")) @import

(command name: (command_name (word) @call.name)) @call

(comment) @comment
