; Lua. Conventions: see src/parse/languages.ts. `function M.f()` / `function M:f()` are
; methods of the table M (through @receiver); tables themselves are not symbols.

(function_definition_statement name: (identifier) @name) @definition.function
(local_function_definition_statement name: (identifier) @name) @definition.function
(function_definition_statement
  name: (variable table: (_) @receiver [field: (identifier) @name method: (identifier) @name])) @definition.method
(local_variable_declaration
  (variable_list . (variable name: (identifier) @name))
  (expression_list . value: (function_definition))) @definition.function

; ---- imports
(call
  function: (variable name: (identifier) @_require)
  arguments: (argument_list (expression_list . (string) @import.source))
  (#eq? @_require "require")) @import

; ---- calls
(call function: (variable name: (identifier) @call.name)) @call
(call function: (variable [field: (identifier) @call.name method: (identifier) @call.name])) @call

(comment) @comment
