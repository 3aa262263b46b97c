; Scala imports name a path in parts (`import com.example.http.{Request, Response}` is
; four `path:` children), which one capture cannot join: no import edges for Scala
; yet. Its directory is its package, so names there still resolve without them.
