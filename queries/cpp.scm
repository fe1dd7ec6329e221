; C++. Conventions: see src/parse/languages.ts. Namespaces are not symbols; an
; out-of-line `A::f` definition attaches to A through @receiver (the qualified
; declarator, from which the extractor drops the trailing name).

; ---- types (only with a body)
(class_specifier name: [(type_identifier) (template_type)] @name body: (_)) @definition.class
(struct_specifier name: [(type_identifier) (template_type)] @name body: (_)) @definition.struct
(union_specifier name: [(type_identifier) (template_type)] @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
; A typedef of an existing type, or an alias, names a type (a typedef with a
; struct/class/enum body is that type, below).
(type_definition
  type: [(primitive_type) (sized_type_specifier) (type_identifier) (qualified_identifier) (template_type) (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (class_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.class
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum

(class_specifier
  name: (_) @name
  (base_class_clause [(type_identifier) @base (qualified_identifier) @base (template_type name: (_) @base)])) @definition.class
(struct_specifier
  name: (_) @name
  (base_class_clause [(type_identifier) @base (qualified_identifier) @base (template_type name: (_) @base)])) @definition.struct

; ---- functions and in-class method declarations
(function_definition declarator: [(function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
              (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)))
              (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))]) @definition.function
(declaration declarator: [(function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name)
              (pointer_declarator declarator: (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name)))
              (reference_declarator (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name))]) @definition.function
(field_declaration declarator: [(function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
              (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)))
              (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))]) @definition.method

; ---- out-of-line members: `void A::f()`, `ns::A::B::~B()`
(function_definition declarator: [(function_declarator declarator: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @receiver)
              (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @receiver))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @receiver)))
              (reference_declarator (function_declarator declarator: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name) @receiver))]) @definition.method
(function_definition declarator: [(function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @receiver)
              (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @receiver))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @receiver)))
              (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @receiver))]) @definition.method
(function_definition declarator: [(function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) @receiver)
              (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) @receiver))
              (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) @receiver)))
              (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))) @receiver))]) @definition.method

; ---- imports
(preproc_include path: (_) @import.source) @import

; ---- calls (qualified / templated callees are reduced to their last simple name)
(call_expression
  function: [(identifier) (qualified_identifier) (template_function)] @call.name
  (#not-match? @call.name "^(static|dynamic|const|reinterpret)_cast"))  @call
(call_expression function: (field_expression field: [(field_identifier) (template_method)] @call.name)) @call
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @call.name) @call

(comment) @comment
