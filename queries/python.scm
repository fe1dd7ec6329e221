; Python. Conventions: see src/parse/languages.ts.

(class_definition name: (identifier) @name) @definition.class

(class_definition
  name: (identifier) @name
  superclasses: (argument_list [(identifier) (attribute)] @base)) @definition.class

(class_definition
  name: (identifier) @name
  superclasses: (argument_list (subscript value: [(identifier) (attribute)] @base))) @definition.class

(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.class

(function_definition name: (identifier) @name) @definition.function

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc))) @definition.function

(import_statement name: (dotted_name) @import.source) @import
(import_statement name: (aliased_import name: (dotted_name) @import.source)) @import

(import_from_statement
  module_name: (_) @import.source
  name: [(dotted_name) @import.name (aliased_import name: (dotted_name) @import.name)]) @import
(import_from_statement
  module_name: (_) @import.source
  (wildcard_import) @import.name) @import

(call function: (identifier) @call.name) @call
(call function: (attribute attribute: (identifier) @call.name)) @call

(comment) @comment
