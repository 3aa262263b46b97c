; Scala imports: `import com.example.http.Client`, `import scala.concurrent.duration._`,
; `import com.example.http.{Request, Response}`. The declaration's `path:` parts are
; joined with dots (extract.py's @import.parts); a wildcard or selectors leave the
; package's path.
(import_declaration) @import.parts @import
