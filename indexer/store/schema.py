"""Every table of the index, in one place: what `Connection` creates on a new or
outdated file, and the lookup indexes a bulk load drops and rebuilds. The methods that
read and write each family live beside it in this package (files.py, nodes.py,
links.py, history.py; meta and the kept counts: connection.py, counts.py)."""

SCHEMA_VERSION = 13
# Lookup indexes that a bulk load drops and rebuilds once at the end (sorted builds
# are far cheaper than millions of random inserts).
_BULK_INDEXES = {
    "postings_term": "CREATE INDEX IF NOT EXISTS postings_term ON postings(term, file, size)",  # covers term_stats
    "postings_file": "CREATE INDEX IF NOT EXISTS postings_file ON postings(file)",
    "used_name": "CREATE INDEX IF NOT EXISTS used_name ON used(name)",
    "links_src": "CREATE INDEX IF NOT EXISTS links_src ON links(src)",
    "nodes_name": "CREATE INDEX IF NOT EXISTS nodes_name ON nodes(name)",
    "links_dst": "CREATE INDEX IF NOT EXISTS links_dst ON links(dst)",
    "nodes_parent": "CREATE INDEX IF NOT EXISTS nodes_parent ON nodes(parent)",
}

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE files(
  path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, inode INTEGER,
  digest TEXT, language TEXT, status TEXT, indexed_at TEXT, valid_from TEXT, warnings TEXT,
  stem TEXT,  -- the file name to its first dot, lowercased: a file's tests and namesakes by index
  ctime_ns INTEGER);
CREATE INDEX files_stem ON files(stem);
CREATE TABLE nodes(
  rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, path TEXT NOT NULL,
  kind TEXT NOT NULL, sym_kind TEXT, name TEXT, title TEXT,
  start_line INTEGER, end_line INTEGER, digest TEXT, content_digest TEXT,
  parent TEXT, signature TEXT, doc TEXT, length REAL, bytes INTEGER, head_end INTEGER);
-- PageRank of the nodes above zero (indexer/graph.py), by id: a table of its own, so a
-- recomputation writes these few bytes a node instead of rewriting every node row.
CREATE TABLE priors(id TEXT PRIMARY KEY, prior REAL NOT NULL) WITHOUT ROWID;
CREATE INDEX priors_prior ON priors(prior);  -- the overview walks the best first
CREATE INDEX nodes_path ON nodes(path);
-- A file defines each of its nodes, and a node contains those whose parent it is: read
-- from the nodes through their indexes (path, parent, id), never stored twice.
CREATE VIEW edges(path, src, dst, rel) AS
  SELECT path, path, id, 'code.defines' FROM nodes WHERE kind!='file'
  UNION ALL SELECT path, parent, id, 'repo-graph:contains' FROM nodes WHERE kind!='file' AND parent!=path;
CREATE TABLE postings(term TEXT NOT NULL, file INTEGER NOT NULL, size INTEGER NOT NULL, data BLOB NOT NULL);  -- indexer/postings.py
CREATE TABLE corpus(id INTEGER PRIMARY KEY CHECK (id = 1), nodes INTEGER NOT NULL, length REAL NOT NULL);
INSERT INTO corpus VALUES(1, 0, 0.0);
-- A file's uses of names, keyed like postings by its file node's rowid: one packed row
-- per file (indexer/uses.py), and one row per name it uses, for "who uses this name".
CREATE TABLE uses(file INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE used(name TEXT NOT NULL, file INTEGER NOT NULL);
CREATE INDEX used_file ON used(file);
CREATE TABLE imports(path TEXT NOT NULL, target TEXT NOT NULL, line INTEGER, names TEXT);
CREATE INDEX imports_path ON imports(path);
CREATE TABLE links(path TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL, rel TEXT NOT NULL);
CREATE INDEX links_path ON links(path);
CREATE TABLE recent(path TEXT PRIMARY KEY, n REAL NOT NULL);  -- indexer/history.py: changes, the older counting less
"""
# What git history says (indexer/history.py) of pairs, both ways, and of each file: the
# terms of its commits' messages (`said`: term, the file's row in `said_files`, count;
# keyed by term, a third of the size with paths in it) and how many terms in all. Made
# anew each time it is read, so an index from before co-changes were weighed by age
# (INTEGER), or before messages were read, takes the new form.
_HISTORY_SCHEMA = """
DROP TABLE IF EXISTS cochange;
CREATE TABLE cochange(a TEXT NOT NULL, b TEXT NOT NULL, n REAL NOT NULL);
CREATE INDEX cochange_a ON cochange(a);
DROP TABLE IF EXISTS said;
DROP TABLE IF EXISTS said_files;
CREATE TABLE said_files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, n REAL NOT NULL);
CREATE TABLE said(term TEXT NOT NULL, file INTEGER NOT NULL, n REAL NOT NULL, PRIMARY KEY (term, file)) WITHOUT ROWID;
"""
# Every directory that has held an indexed file, by its own name lowercased: "the files
# under a directory called `printer`" without scanning every path. A directory emptied
# since stays (it then holds nothing). Created on open when an index predates it.
_DIRS_SCHEMA = """
CREATE TABLE IF NOT EXISTS dirs(path TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dirs_name ON dirs(name);
"""
