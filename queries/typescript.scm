; TypeScript (.ts, .mts, .cts; tsx.scm is the same query for .tsx). Conventions: see src/parse/languages.ts.

; ---- types
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(class_declaration
  name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @base))) @definition.class
(class_declaration
  name: (type_identifier) @name
  (class_heritage
    (implements_clause [(type_identifier) @base (nested_type_identifier) @base (generic_type name: (_) @base)]))) @definition.class
(abstract_class_declaration
  name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @base))) @definition.class
(abstract_class_declaration
  name: (type_identifier) @name
  (class_heritage
    (implements_clause [(type_identifier) @base (nested_type_identifier) @base (generic_type name: (_) @base)]))) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(interface_declaration
  name: (type_identifier) @name
  (extends_type_clause type: [(type_identifier) @base (nested_type_identifier) @base (generic_type name: (_) @base)])) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module
(module name: (string (string_fragment) @name)) @definition.module

; ---- functions and methods
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_body (abstract_method_signature name: (_) @name) @definition.method)
(class_body (method_signature name: (_) @name) @definition.method)
(interface_body (method_signature name: (_) @name) @definition.method)
(class_body (method_definition name: (_) @name) @definition.method)
(class_body
  (public_field_definition
    name: (_) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.method)
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; `exports.f = function () {}` / `module.exports.f = () => {}`
(assignment_expression
  left: (member_expression
    object: [(identifier) (member_expression)] @_owner
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#match? @_owner "^(module\\.)?exports$")) @definition.function

; `Foo.prototype.f = function () {}` attaches f to Foo
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @receiver
      property: (property_identifier) @_proto)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @_proto "prototype")) @definition.method

; ---- imports
(import_statement source: (string (string_fragment) @import.source)) @import
(import_statement
  (import_clause (identifier) @import.name)
  source: (string (string_fragment) @import.source)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name)))
  source: (string (string_fragment) @import.source)) @import
(export_statement source: (string (string_fragment) @import.source)) @import
(export_statement
  (export_clause (export_specifier name: (_) @import.name))
  source: (string (string_fragment) @import.source)) @import
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @import.source))
  (#eq? @_require "require")) @import
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.source))) @import

; ---- calls
(call_expression function: (identifier) @call.name) @call
(call_expression function: (member_expression property: (property_identifier) @call.name)) @call
(new_expression constructor: (identifier) @call.name) @call
(new_expression constructor: (member_expression property: (property_identifier) @call.name)) @call

(comment) @comment
