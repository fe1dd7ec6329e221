; PHP. Conventions: see src/parse/languages.ts. Namespaces are not symbols; `use Trait;`
; inside a class adds the trait to the bases.

; ---- types
(class_declaration name: (name) @name) @definition.class
(class_declaration name: (name) @name (base_clause [(name) (qualified_name)] @base)) @definition.class
(class_declaration name: (name) @name (class_interface_clause [(name) (qualified_name)] @base)) @definition.class
(class_declaration name: (name) @name body: (declaration_list (use_declaration [(name) (qualified_name)] @base))) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(interface_declaration name: (name) @name (base_clause [(name) (qualified_name)] @base)) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(enum_declaration name: (name) @name (class_interface_clause [(name) (qualified_name)] @base)) @definition.enum

; ---- functions and methods
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method

; ---- imports
(namespace_use_declaration (namespace_use_clause . [(qualified_name) (name)] @import.source)) @import
(namespace_use_declaration
  (namespace_name) @import.source
  body: (namespace_use_group (namespace_use_clause . [(name) (qualified_name)] @import.name))) @import
(require_expression [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)]) @import
(require_expression (binary_expression right: [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)])) @import
(require_once_expression [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)]) @import
(require_once_expression (binary_expression right: [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)])) @import
(include_expression [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)]) @import
(include_expression (binary_expression right: [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)])) @import
(include_once_expression [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)]) @import
(include_once_expression (binary_expression right: [(string (string_content) @import.source) (encapsed_string (string_content) @import.source)])) @import

; ---- calls
(function_call_expression function: [(name) (qualified_name)] @call.name) @call
(member_call_expression name: (name) @call.name) @call
(nullsafe_member_call_expression name: (name) @call.name) @call
(scoped_call_expression name: (name) @call.name) @call
(object_creation_expression
  [(name) (qualified_name)] @call.name
  (#not-any-of? @call.name "static" "self" "parent")) @call

(comment) @comment
