; Rust. Conventions: see src/parse/languages.ts. `impl` blocks are scopes that attach
; their functions to the implemented type; `impl Trait for T` adds Trait to T's bases.

; ---- types
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.trait
(trait_item
  name: (type_identifier) @name
  bounds: (trait_bounds [(type_identifier) @base (scoped_type_identifier) @base (generic_type type: (_) @base)])) @definition.trait
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module

; ---- impl scopes
(impl_item
  type: [(type_identifier) @name
         (generic_type type: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
         (scoped_type_identifier name: (type_identifier) @name)]) @definition.impl
(impl_item
  trait: [(type_identifier) @base (scoped_type_identifier) @base (generic_type type: (_) @base)]
  type: [(type_identifier) @name
         (generic_type type: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
         (scoped_type_identifier name: (type_identifier) @name)]) @definition.impl

; ---- functions
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

; ---- imports: `use a::{b, c}` is source `a` with names; `mod x;` is source `x`
(use_declaration argument: [(identifier) (scoped_identifier) (crate) (self) (super)] @import.source) @import
(use_declaration argument: (use_as_clause path: (_) @import.source)) @import
(use_declaration argument: (use_wildcard (_) @import.source "*" @import.name)) @import
(use_declaration
  argument: (scoped_use_list
    path: (_) @import.source
    list: (use_list [(identifier) (scoped_identifier) (self) (use_as_clause path: (_))] @import.name))) @import
(mod_item name: (identifier) @import.source !body) @import

; ---- calls (macros are not calls)
(call_expression function: (identifier) @call.name) @call
(call_expression function: (scoped_identifier name: (identifier) @call.name)) @call
(call_expression function: (field_expression field: (field_identifier) @call.name)) @call
(call_expression function: (generic_function function: [(identifier) @call.name (scoped_identifier name: (identifier) @call.name) (field_expression field: (field_identifier) @call.name)])) @call

[(line_comment) (block_comment)] @comment
