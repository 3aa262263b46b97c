"""A digest of everything an index holds, to tell two indexes of the same tree apart.

Run it on the database of one index, then on another's (a change to the indexer, a
progressive index against a one-pass one), and compare the lines:

    python benchmarks/index_dump.py CACHE/NAME-KEY.sqlite3            # one digest per table
    python benchmarks/index_dump.py DB --diff OTHER_DB                # and which tables differ

Rowids are not compared as numbers: a posting's, a use's file rowid is written as the
id of the node it points to, so two indexes that wrote the same rows in another order
compare equal. What a run stamps with its own time (a file's `indexed_at`, the meta
`indexed_at`) and what differs between caches (`database`) is left out; everything else
(nodes, links, postings, uses, imports, files, priors, corpus totals, kept counts, the
meta the next run reads) is in.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys

SKIPPED_META = {"indexed_at"}  # the moment of the run
NODE_COLUMNS = "id,path,kind,sym_kind,name,title,start_line,end_line,digest,content_digest,parent,signature,doc,length,bytes,head_end"


def _rows(db: sqlite3.Connection, sql: str):
    return sorted(repr(tuple(r)) for r in db.execute(sql))


def tables(path: str) -> dict[str, list[str]]:
    """Canonical rows per table: sorted reprs, rowids as node ids."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {
        "files": _rows(
            db,
            "SELECT path,size,mtime_ns,inode,digest,language,status,valid_from,warnings,stem,ctime_ns FROM files",
        ),
        "nodes": _rows(db, f"SELECT {NODE_COLUMNS} FROM nodes"),
        "postings": _rows(
            db, "SELECT p.term, n.id, p.size, hex(p.data) FROM postings p JOIN nodes n ON n.rowid=p.file"
        ),
        "uses": _rows(db, "SELECT n.id, hex(u.data) FROM uses u JOIN nodes n ON n.rowid=u.file"),
        "used": _rows(db, "SELECT u.name, n.id FROM used u JOIN nodes n ON n.rowid=u.file"),
        "imports": _rows(db, "SELECT * FROM imports"),
        "links": _rows(db, "SELECT * FROM links"),
        "priors": _rows(db, "SELECT * FROM priors"),
        "corpus": _rows(db, "SELECT * FROM corpus"),
        "dirs": _rows(db, "SELECT * FROM dirs"),
        "meta": sorted(repr(r) for r in db.execute("SELECT key, value FROM meta") if r[0] not in SKIPPED_META),
        "history": _rows(db, "SELECT 'cochange', * FROM cochange")
        + _rows(db, "SELECT 'recent', * FROM recent")
        + _rows(db, "SELECT 'said', s.term, d.path, s.n FROM said s JOIN said_files d ON d.id=s.file"),
    }
    # Node rowids: a file's nodes are consecutive (postings and uses hold offsets from its
    # file node), in the same order; which file comes first is the order tasks finished in.
    by_file: dict[str, list[str]] = {}
    last = None
    for node_id, path in db.execute("SELECT id, path FROM nodes ORDER BY rowid"):
        if path != last and path in by_file:
            by_file[path].append("<not consecutive>")
        by_file.setdefault(path, []).append(node_id)
        last = path
    out["node_order"] = sorted(repr((path, ids)) for path, ids in by_file.items())
    db.close()
    return out


def digests(found: dict[str, list[str]]) -> dict[str, str]:
    return {
        name: f"{len(rows)} rows sha256:{hashlib.sha256(chr(10).join(rows).encode()).hexdigest()[:16]}"
        for name, rows in found.items()
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("database")
    ap.add_argument("--diff", metavar="OTHER", help="a second database: name the tables that differ, and a few rows")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    one = tables(args.database)
    if args.diff is None:
        d = digests(one)
        sys.stdout.write(
            json.dumps(d, indent=1) + "\n" if args.json else "".join(f"{k:<11} {v}\n" for k, v in d.items())
        )
        return 0
    two = tables(args.diff)
    differ = 0
    for name in one:
        if one[name] == two[name]:
            sys.stdout.write(f"{name:<11} same ({len(one[name])} rows)\n")
            continue
        differ += 1
        a, b = set(one[name]), set(two[name])
        sys.stdout.write(f"{name:<11} DIFFERS: {len(a - b)} rows only in the first, {len(b - a)} only in the second\n")
        for row in sorted(a - b)[:3]:
            sys.stdout.write(f"  - {row[:300]}\n")
        for row in sorted(b - a)[:3]:
            sys.stdout.write(f"  + {row[:300]}\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
