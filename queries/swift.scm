; Swift. Conventions: see src/parse/languages.ts. `extension T` is a scope that attaches
; its members to T (and its conformances to T's bases when T is in the same file).

; ---- types (the bases pattern comes first: the last matching pattern sets the kind)
(class_declaration
  name: (type_identifier) @name
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base))) @definition.class
(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(typealias_declaration name: (type_identifier) @name) @definition.type
(protocol_declaration name: (type_identifier) @name) @definition.interface
(protocol_declaration
  name: (type_identifier) @name
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base))) @definition.interface
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name)) @definition.impl
(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @name)
  (inheritance_specifier inherits_from: (user_type (type_identifier) @base))) @definition.impl

; ---- functions
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.method
(deinit_declaration "deinit" @name) @definition.method

; ---- imports
(import_declaration (identifier) @import.source) @import

; ---- calls (`a[i]` is also a call_expression here: require `(...)` or a trailing closure)
(call_expression . (simple_identifier) @call.name (call_suffix (value_arguments "("))) @call
(call_expression . (simple_identifier) @call.name (call_suffix . (lambda_literal))) @call
(call_expression
  . (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @call.name))
  (call_suffix (value_arguments "("))) @call
(call_expression
  . (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @call.name))
  (call_suffix . (lambda_literal))) @call

[(comment) (multiline_comment)] @comment
