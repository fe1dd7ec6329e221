; Ruby. Conventions: see src/parse/languages.ts. `def` inside a module is a method;
; `class << self` is transparent; `include Mod` adds Mod to the bases.

; ---- types
(class name: (constant) @name) @definition.class
(class name: (scope_resolution scope: (_) @receiver name: (constant) @name)) @definition.class
(class name: (_) @name superclass: (superclass [(constant) (scope_resolution)] @base)) @definition.class
(module name: (constant) @name) @definition.module
(module name: (scope_resolution scope: (_) @receiver name: (constant) @name)) @definition.module

(class
  name: (_) @name
  body: (body_statement
    (call
      !receiver
      method: (identifier) @_include
      arguments: (argument_list [(constant) (scope_resolution)] @base))
    (#any-of? @_include "include" "prepend" "extend"))) @definition.class
(module
  name: (_) @name
  body: (body_statement
    (call
      !receiver
      method: (identifier) @_include
      arguments: (argument_list [(constant) (scope_resolution)] @base))
    (#any-of? @_include "include" "prepend" "extend"))) @definition.module

; ---- methods
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

; ---- imports
(call
  !receiver
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import.source))
  (#any-of? @_require "require" "require_relative" "load" "autoload")) @import

; ---- calls (`Foo.new` calls Foo)
(call !receiver method: (identifier) @call.name) @call
(call receiver: (_) method: (identifier) @call.name (#not-eq? @call.name "new")) @call
(call receiver: [(constant) (scope_resolution)] @call.name method: (identifier) @_new (#eq? @_new "new")) @call

(comment) @comment
