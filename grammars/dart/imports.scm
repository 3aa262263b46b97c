; Dart: import 'src/backoff.dart'; part 'src/a.dart'; ('package:' URIs name other packages).
(import_specification
  (configurable_uri (uri (string_literal) @import.path))) @import

(part_directive
  (uri (string_literal) @import.path)) @import
