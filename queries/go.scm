; Go. Conventions: see src/parse/languages.ts. Methods attach to their receiver type.

; ---- types (embedded fields / interfaces are bases; struct and interface patterns come
; later, so they win over the plain named type for the same name)
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list
    (field_declaration
      !name
      type: [(type_identifier) @base (qualified_type) @base (pointer_type [(type_identifier) (qualified_type)] @base) (generic_type type: (_) @base)])))) @definition.struct
(type_spec
  name: (type_identifier) @name
  type: (interface_type (type_elem . [(type_identifier) @base (qualified_type) @base (generic_type type: (_) @base)] .))) @definition.interface

; ---- functions and methods
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @receiver
             (pointer_type (type_identifier) @receiver)
             (generic_type type: (type_identifier) @receiver)
             (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.method
(method_elem name: (field_identifier) @name) @definition.method

; ---- imports
(import_spec path: (_) @import.source) @import

; ---- calls
(call_expression function: (identifier) @call.name) @call
(call_expression function: (selector_expression field: (field_identifier) @call.name)) @call
(call_expression function: (index_expression operand: (identifier) @call.name)) @call
(call_expression function: (index_expression operand: (selector_expression field: (field_identifier) @call.name))) @call

(comment) @comment
