; Scala. Conventions: see src/parse/languages.ts. `object` is a class; packages are not symbols.

; ---- types (bases first: the last matching pattern sets the kind)
(type_definition name: (type_identifier) @name) @definition.type
(class_definition name: (identifier) @name extend: (extends_clause type: [(type_identifier) @base (generic_type type: (_) @base) (compound_type [(type_identifier) @base (generic_type type: (_) @base)])])) @definition.class
(object_definition name: (identifier) @name extend: (extends_clause type: [(type_identifier) @base (generic_type type: (_) @base) (compound_type [(type_identifier) @base (generic_type type: (_) @base)])])) @definition.class
(trait_definition name: (identifier) @name extend: (extends_clause type: [(type_identifier) @base (generic_type type: (_) @base) (compound_type [(type_identifier) @base (generic_type type: (_) @base)])])) @definition.trait
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait

; ---- functions
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function

; ---- imports: `import a.b._` is source `a.b` with name `*`; `{X, Y => Z}` gives names X, Y
(import_declaration path: (_) @import.source .) @import
(import_declaration path: (_) @import.source (import_selectors [(identifier) @import.name (renamed_identifier name: (identifier) @import.name)])) @import
(import_declaration path: (_) @import.source (wildcard) @import.name) @import

; ---- calls
(call_expression function: (identifier) @call.name) @call
(call_expression function: (field_expression field: (identifier) @call.name)) @call
(call_expression function: (generic_function function: [(identifier) @call.name (field_expression field: (identifier) @call.name)])) @call
(instance_expression . (identifier) @call.name) @call

(comment) @comment
