; Swift imports: `import Foundation`, `import struct Foo.Bar`. @import.path is the module path.
(import_declaration
  (identifier) @import.path) @import
