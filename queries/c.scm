; C (.c, .h). Conventions: see src/parse/languages.ts.

; ---- types (only with a body: `struct S x;` is a use, not a definition)
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
; A typedef of an existing type names a type (a typedef with a struct/union/enum body is
; that struct/union/enum, below).
(type_definition
  type: [(primitive_type) (sized_type_specifier) (type_identifier) (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: (type_identifier) @name) @definition.type
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum

; ---- functions (prototypes are dropped when the file also defines the function)
(function_definition declarator: [(function_declarator declarator: (identifier) @name)
              (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function
(declaration declarator: [(function_declarator declarator: (identifier) @name)
              (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function

; ---- imports
(preproc_include path: (_) @import.source) @import

; ---- calls
(call_expression function: (identifier) @call.name) @call
(call_expression function: (field_expression field: (field_identifier) @call.name)) @call

(comment) @comment
