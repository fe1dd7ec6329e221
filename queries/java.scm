; Java. Conventions: see src/parse/languages.ts. Packages are not symbols.

; ---- types
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(class_declaration
  name: (identifier) @name
  superclass: (superclass [(type_identifier) @base (scoped_type_identifier) @base (generic_type . (_) @base)])) @definition.class
(class_declaration
  name: (identifier) @name
  interfaces: (super_interfaces (type_list [(type_identifier) @base (scoped_type_identifier) @base (generic_type . (_) @base)]))) @definition.class
(record_declaration
  name: (identifier) @name
  interfaces: (super_interfaces (type_list [(type_identifier) @base (scoped_type_identifier) @base (generic_type . (_) @base)]))) @definition.class
(enum_declaration
  name: (identifier) @name
  interfaces: (super_interfaces (type_list [(type_identifier) @base (scoped_type_identifier) @base (generic_type . (_) @base)]))) @definition.enum
(interface_declaration
  name: (identifier) @name
  (extends_interfaces (type_list [(type_identifier) @base (scoped_type_identifier) @base (generic_type . (_) @base)]))) @definition.interface

; ---- methods
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(compact_constructor_declaration name: (identifier) @name) @definition.method

; ---- imports: `import a.b.*;` is source `a.b` with name `*`
(import_declaration (scoped_identifier) @import.source) @import
(import_declaration (scoped_identifier) @import.source (asterisk) @import.name) @import

; ---- calls
(method_invocation name: (identifier) @call.name) @call
(object_creation_expression type: [(type_identifier) @call.name (scoped_type_identifier (type_identifier) @call.name .) (generic_type . [(type_identifier) @call.name (scoped_type_identifier (type_identifier) @call.name .)])]) @call

[(line_comment) (block_comment)] @comment
