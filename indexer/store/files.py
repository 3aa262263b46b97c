"""The files table (what the index knows of each file on disk) and the writes that
put or remove everything one file contributes, every family's rows at once."""

from __future__ import annotations

import posixpath
from collections import Counter
from itertools import repeat
from operator import itemgetter

from .connection import _prefix_range
from .counts import Counts, _count_file
from .rows import (
    _NODE_VALUES,
    NODE_COLUMNS,
    NODE_KIND,
    NODE_LENGTH,
    NODE_PARENT,
    NODE_PATH,
    FileState,
    file_state,
    file_stem,
)

_STATE_COLUMNS = "path,size,mtime_ns,inode,digest,language,status,indexed_at,valid_from,ctime_ns"


class Files(Counts):
    def file_states(self) -> dict[str, FileState]:
        rows = self.db.execute(f"SELECT {_STATE_COLUMNS} FROM files").fetchall()
        return dict(zip(map(itemgetter(0), rows), map(file_state, rows)))

    def file_stats(self) -> list[tuple[str, int, int, int, int | None]]:
        """(path, size, mtime_ns, inode, ctime_ns) of every file, in the walker's
        WalkedFile order: what a refresh compares with the tree, as plain tuples (a
        third of the cost of whole states on the kernel's 55,000 files)."""
        return self.db.execute("SELECT path,size,mtime_ns,inode,ctime_ns FROM files").fetchall()

    def file_states_of(self, paths) -> dict[str, FileState]:
        """file_states() of `paths` only (those indexed)."""
        rows = self._in(f"SELECT {_STATE_COLUMNS} FROM files WHERE path IN ({{}})", paths)
        return dict(zip(map(itemgetter(0), rows), map(file_state, rows)))

    def file_state(self, path: str) -> FileState | None:
        r = self.db.execute(f"SELECT {_STATE_COLUMNS} FROM files WHERE path=?", (path,)).fetchone()
        return file_state(r) if r else None

    def file_count(self, status: str = "ok") -> int:
        return self.db.execute("SELECT count(*) FROM files WHERE status=?", (status,)).fetchone()[0]

    def indexed_files(self) -> dict[str, str | None]:
        return dict(self.db.execute("SELECT path, language FROM files WHERE status='ok'"))

    def touch_file(self, state: FileState) -> None:
        """Same bytes, new stat (a `touch`, a checkout that rewrote nothing)."""
        self.db.execute(
            "UPDATE files SET size=?, mtime_ns=?, inode=?, ctime_ns=? WHERE path=?",
            (state.size, state.mtime_ns, state.inode, state.ctime_ns, state.path),
        )

    def delete_file(self, path: str) -> list[str]:
        """Remove a file's rows; returns the ids of the nodes that went."""
        delta: Counter[str] = Counter()
        kept = self._kept_counts()
        if kept is not None:
            for status, language in self.db.execute("SELECT status, language FROM files WHERE path=?", (path,)):
                _count_file(delta, status, language, -1)
            for kind, n, contained in self.db.execute(
                "SELECT kind, count(*), total(instr(parent, '#') > 0 AND parent != path) FROM nodes WHERE path=? "
                "GROUP BY kind",
                (path,),
            ):
                delta[kind] -= n
                delta["edges"] -= int(contained) + (n if kind != "file" else 0)
        ids = [r[0] for r in self.db.execute("SELECT id FROM nodes WHERE path=?", (path,))]
        self.db.execute(
            "UPDATE corpus SET (nodes, length) = (SELECT corpus.nodes - count(*), corpus.length - coalesce(sum(nodes.length), 0) "
            "FROM nodes WHERE path=? AND kind!='file')",
            (path,),
        )
        row = self.db.execute("SELECT rowid FROM nodes WHERE id=?", (path,)).fetchone()
        if row is not None:
            for table in ("postings", "uses", "used"):  # keyed by the file node's rowid
                self.db.execute(f"DELETE FROM {table} WHERE file=?", row)
        for table in ("nodes", "imports", "links", "files"):
            gone = self.db.execute(f"DELETE FROM {table} WHERE path=?", (path,)).rowcount
            if table == "links":
                delta["edges"] -= gone
        self._tally(kept, delta)
        return ids

    def put_file(self, state: FileState, nodes, postings, uses, imports, warnings: str = "") -> None:
        """Write everything one file contributes; the caller has deleted its old rows.
        `uses`: (packed, names used), as indexer/uses.py makes them. Call between
        begin() and commit()."""
        self.put_files([(state, nodes, postings, uses, imports, warnings)])

    def put_files(self, batch) -> None:
        """put_file for many files at once: one statement per table, rowids assigned
        here (no round trip per node). Call between begin() and commit()."""
        next_rowid = (self.db.execute("SELECT max(rowid) FROM nodes").fetchone()[0] or 0) + 1
        files, node_rows, use_rows, import_rows = [], [], [], []
        posting_rows: list[tuple[str, int, int, bytes]] = []
        used_rows: list[tuple[str, int]] = []
        for state, nodes, postings, (uses, used), imports, warnings in batch:
            files.append(
                (
                    state.path,
                    state.size,
                    state.mtime_ns,
                    state.inode,
                    state.digest,
                    state.language,
                    state.status,
                    state.indexed_at,
                    state.valid_from,
                    warnings,
                    file_stem(state.path),
                    state.ctime_ns,
                )
            )
            first = next_rowid
            for node in nodes:
                node_rows.append((next_rowid, *node))
                next_rowid += 1
            # first: the file node; rows built in C
            posting_rows += zip(postings.keys(), repeat(first), map(len, postings.values()), postings.values())
            if uses:
                use_rows.append((first, uses))
                used_rows += zip(used, repeat(first))
            import_rows += [(state.path, *i) for i in imports]
        # Term order (stable: files stay in rowid order within a term): the term index grows at its
        # right edge, not at random, and a term's rows of one batch share pages.
        posting_rows.sort(key=itemgetter(0))
        scored = [row[NODE_LENGTH] for row in node_rows if row[NODE_KIND] != "file"]
        self.db.execute("UPDATE corpus SET nodes = nodes + ?, length = length + ?", (len(scored), sum(scored)))
        ex = self.db.executemany
        ex("INSERT INTO files VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", files)
        ex(f"INSERT INTO nodes(rowid,{','.join(NODE_COLUMNS)}) VALUES({_NODE_VALUES})", node_rows)
        ex("INSERT INTO postings VALUES(?,?,?,?)", posting_rows)
        ex("INSERT INTO uses VALUES(?,?)", use_rows)
        ex("INSERT INTO used VALUES(?,?)", used_rows)
        ex("INSERT INTO imports VALUES(?,?,?,?)", import_rows)
        self._add_dirs(f[0] for f in files)
        kept = self._kept_counts()
        if kept is not None:
            delta = Counter(row[NODE_KIND] for row in node_rows)
            for state, *_ in batch:
                _count_file(delta, state.status, state.language, 1)
            delta["edges"] += (
                len(node_rows)
                - delta["file"]
                + sum(
                    1
                    for row in node_rows
                    if row[NODE_PARENT] and "#" in row[NODE_PARENT] and row[NODE_PARENT] != row[NODE_PATH]
                )
            )
            self._tally(kept, delta)

    def paths_under(self, prefix: str) -> list[str]:
        """Indexed files whose path starts with `prefix` (a directory and a slash)."""
        return [
            r[0] for r in self.db.execute("SELECT path FROM files WHERE path >= ? AND path < ?", _prefix_range(prefix))
        ]

    def paths_in_root(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT path FROM files WHERE status='ok' AND instr(path, '/')=0")]

    def paths_with_stems(self, stems) -> list[str]:
        """Indexed files whose `file_stem` is one of `stems`: looked up, not scanned
        (a scan of the kernel's 55,000 paths took ~25 ms a query)."""
        return [r[0] for r in self._in("SELECT path FROM files WHERE stem IN ({}) AND status='ok'", stems)]

    def files_called(self, filename: str) -> list[str]:
        """Every file of that name, indexed or not (a Cargo.toml beside the code)."""
        rows = self.db.execute("SELECT path FROM files WHERE stem=?", (file_stem(filename),)).fetchall()
        return [path for (path,) in rows if posixpath.basename(path) == filename]

    def paths_named(self, name: str, limit: int) -> list[str]:
        """Indexed files called `name` (by `file_stem`) or under a directory called
        `name` anywhere, at most `limit`; case-insensitive, looked up (a scan of the
        kernel's paths took 20-55 ms)."""
        found = dict.fromkeys(self.paths_with_stems([file_stem(name)])[:limit])
        for (directory,) in self.db.execute("SELECT path FROM dirs WHERE name=?", (name.lower(),)).fetchall():
            if len(found) >= limit:
                break
            found.update(
                (r[0], None)
                for r in self.db.execute(
                    "SELECT path FROM files WHERE path >= ? AND path < ? AND status='ok' LIMIT ?",
                    (*_prefix_range(directory + "/"), limit - len(found)),
                )
            )
        return list(found)[:limit]
