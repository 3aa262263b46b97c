; Dart: import 'src/backoff.dart'; export 'src/client.dart'; part 'src/a.dart';
; import 'package:http/http.dart' (a package's lib/, resolved by indexer/resolve.py).
(import_specification
  (configurable_uri (uri (string_literal) @import.path))) @import

(part_directive
  (uri (string_literal) @import.path)) @import

(library_export
  (configurable_uri (uri (string_literal) @import.path))) @import
