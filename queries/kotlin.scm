; Kotlin. Conventions: see src/parse/languages.ts. Packages are not symbols; companion
; objects are transparent (their functions belong to the class); `object` is a class.
; Specific kinds come after the generic class pattern: the last matching pattern wins.

; ---- types
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(class_declaration
  (type_identifier) @name
  (delegation_specifier [(user_type (type_identifier) @base) (constructor_invocation (user_type (type_identifier) @base))])) @definition.class
(object_declaration
  (type_identifier) @name
  (delegation_specifier [(user_type (type_identifier) @base) (constructor_invocation (user_type (type_identifier) @base))])) @definition.class
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum
(type_alias (type_identifier) @name) @definition.type

; ---- functions
(function_declaration (simple_identifier) @name) @definition.function

; ---- imports: `import a.b.*` is source `a.b` with name `*`
(import_header (identifier) @import.source) @import
(import_header (identifier) @import.source (wildcard_import) @import.name) @import

; ---- calls
(call_expression . (simple_identifier) @call.name) @call
(call_expression . (navigation_expression (navigation_suffix (simple_identifier) @call.name) .)) @call

[(line_comment) (multiline_comment)] @comment
