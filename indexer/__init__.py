"""From bytes on disk to a graph of files, symbols and doc sections, persisted in
SQLite. Knows nothing of the wire protocol or of ranking."""
