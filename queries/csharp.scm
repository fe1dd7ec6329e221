; C#. Conventions: see src/parse/languages.ts. Namespaces are not symbols.

; ---- types
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(class_declaration name: (identifier) @name (base_list [(identifier) @base (qualified_name) @base (generic_name (identifier) @base)])) @definition.class
(record_declaration name: (identifier) @name (base_list [(identifier) @base (qualified_name) @base (generic_name (identifier) @base)])) @definition.class
(struct_declaration name: (identifier) @name (base_list [(identifier) @base (qualified_name) @base (generic_name (identifier) @base)])) @definition.struct
(interface_declaration name: (identifier) @name (base_list [(identifier) @base (qualified_name) @base (generic_name (identifier) @base)])) @definition.interface

; ---- methods (local functions nest inside their method)
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function

; ---- imports
(using_directive [(identifier) (qualified_name)] @import.source .) @import

; ---- calls
(invocation_expression function: [(identifier) @call.name (generic_name (identifier) @call.name)]) @call
(invocation_expression function: (member_access_expression name: [(identifier) @call.name (generic_name (identifier) @call.name)])) @call
(invocation_expression function: (conditional_access_expression (member_binding_expression name: [(identifier) @call.name (generic_name (identifier) @call.name)]) .)) @call
(object_creation_expression type: [(identifier) @call.name (qualified_name) @call.name (generic_name (identifier) @call.name)]) @call

(comment) @comment
