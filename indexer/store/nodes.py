"""The nodes (files, symbols, doc sections), their priors, and the term postings
and corpus figures lexical scoring reads."""

from __future__ import annotations

from ..names import named_in_part
from ..postings import records as posting_records
from ..postings import unpack as unpack_postings
from .connection import Connection, _prefix_range
from .rows import _NODE_SELECT, GENERATED, MODULE_FRAGMENT, NodeRow, node_row

_PRIOR = "coalesce((SELECT prior FROM priors WHERE priors.id = nodes.id), 0)"  # a node row's prior, in SQL
OVERVIEW_POOL = 20  # prior_nodes looks among this many times its limit first


class Nodes(Connection):
    def _nodes(self, where: str, args=()) -> list[tuple[int, NodeRow]]:
        rows = self.db.execute(f"SELECT rowid,{_NODE_SELECT} FROM nodes {where}", args).fetchall()
        return [(r[0], node_row(r[1:])) for r in rows]

    def node(self, node_id: str) -> NodeRow | None:
        found = self._nodes("WHERE id=?", (node_id,))
        return found[0][1] if found else None

    def nodes_by_rowid(self, rowids) -> dict[int, NodeRow]:
        rowids = list(rowids)
        out: dict[int, NodeRow] = {}
        for i in range(0, len(rowids), 900):
            chunk = rowids[i : i + 900]
            out.update(self._nodes(f"WHERE rowid IN ({','.join('?' * len(chunk))})", chunk))
        return out

    def nodes_by_id(self, ids) -> dict[str, NodeRow]:
        ids = list(ids)
        out: dict[str, NodeRow] = {}
        for i in range(0, len(ids), 900):
            chunk = ids[i : i + 900]
            for _, node in self._nodes(f"WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                out[node.id] = node
        return out

    def nodes_in_file(self, path: str) -> list[NodeRow]:
        return [n for _, n in self._nodes("WHERE path=? ORDER BY start_line", (path,))]

    def children(self, node_id: str) -> list[NodeRow]:
        return [n for _, n in self._nodes("WHERE parent=? ORDER BY start_line", (node_id,))]

    def find_by_name(self, name: str, limit: int = 50) -> list[NodeRow]:
        """Symbols whose name, qualified name or title is `name` (bare-name anchors,
        names a question writes). Failing that, for a dotted name, symbols it names in
        part: the tail of a qualified name (`Protection.EncryptedCookie`), or a qualified
        name behind the directories and file it lives in, as namespaces spell them out
        (`Slim.Http.Headers`, `com.google.gson.Gson`, `packing.pack`). Looked up by the
        indexed name (the whole text, or its last dotted part), so a kernel-sized index
        answers as fast as a small one."""
        last = name.rsplit(".", 1)[-1]
        rows = [n for _, n in self._nodes("WHERE name IN (?, ?) AND kind!='file' ORDER BY rowid", (name, last))]
        exact = [n for n in rows if name in (n.name, n.title, n.id.partition("#")[2])]
        if exact or last == name:
            return exact[:limit]
        parts = name.split(".")
        return [n for n in rows if named_in_part(parts, n.path, n.id.partition("#")[2].split("."))][:limit]

    def all_files_under(self, prefix: str, limit: int):
        return self.db.execute(
            "SELECT id, kind, path FROM nodes WHERE kind='file' AND path >= ? AND path < ? LIMIT ?",
            (*_prefix_range(prefix), limit),
        ).fetchall()

    def symbol_names(self, name: str | None = None, modules_in: tuple[str, ...] = ()):
        """(name, path, qualified name) of every symbol but modules and test blocks (a
        test titled "parse" defines no `parse`), or of those called `name` (through the
        name index): what references resolve against. `modules_in`: the languages whose
        module definitions are targets too (not a file's header). Rows stream from the
        cursor: all of them at once would be millions of tuples on the kernel."""
        where, args = ("name=? AND ", [name]) if name is not None else ("", [])
        modules = ""
        if modules_in:
            modules = (
                " OR (sym_kind='module' AND substr(id, length(path) + 2) != ? AND path IN "
                f"(SELECT path FROM files WHERE language IN ({','.join('?' * len(modules_in))})))"
            )
            args += [MODULE_FRAGMENT, *modules_in]
        return self.db.execute(
            f"SELECT name, path, substr(id, length(path) + 2) FROM nodes WHERE {where}kind='symbol' "
            f"AND (sym_kind NOT IN ('module', 'test'){modules}) ORDER BY rowid",
            args,
        )

    def generated_files(self, rowids) -> list[int]:
        """Those of the file nodes `rowids` that a tool generated (indexer/parse.py)."""
        return [
            r[0]
            for r in self._in("SELECT rowid FROM nodes WHERE rowid IN ({}) AND sym_kind=?", rowids, after=(GENERATED,))
        ]

    def ids_of_rowids(self, rowids) -> dict[int, str]:
        return dict(self._in("SELECT rowid, id FROM nodes WHERE rowid IN ({})", rowids))

    def rowids_of_ids(self, ids) -> dict[str, int]:
        return dict(self._in("SELECT id, rowid FROM nodes WHERE id IN ({})", ids))

    def rare_names(self, names, at_most: int) -> set[str]:
        """Those of `names` defined at most `at_most` times (absent ones included)."""
        counts = dict(
            self._in("SELECT name, count(*) FROM nodes WHERE kind='symbol' AND name IN ({}) GROUP BY name", names)
        )
        return {n for n in names if counts.get(n, 0) <= at_most}

    def top_nodes_in_files(self, paths, per_file: int) -> list[NodeRow]:
        """The most central served nodes of each file (module headers first)."""
        return [n for _, n in self.top_rows_in_files(paths, per_file)]

    def top_rows_in_files(self, paths, per_file: int) -> list[tuple[int, NodeRow]]:
        """(rowid, node) of each file's most central served nodes (module headers first)."""
        out = []
        for path in paths:
            out += self._nodes(
                f"WHERE path=? AND kind!='file' ORDER BY sym_kind='module' DESC, {_PRIOR} DESC, start_line LIMIT ?",
                (path, per_file),
            )
        return out

    def set_priors(self, prior: dict[str, float]) -> None:
        """Replace every node's prior. A node re-indexed since keeps its id, so its prior
        stands until the next recomputation. Inside begin()/commit()."""
        self.db.execute("DROP INDEX IF EXISTS priors_prior")  # one sorted build, not a random insert per node
        self.db.execute("DELETE FROM priors")
        self.db.executemany("INSERT INTO priors VALUES(?,?)", sorted((k, v) for k, v in prior.items() if v > 0))
        self.db.execute("CREATE INDEX priors_prior ON priors(prior)")

    def priors(self, ids) -> dict[str, float]:
        """{id: prior} of those of `ids` with a prior above zero."""
        return dict(self._in("SELECT id, prior FROM priors WHERE id IN ({})", ids))

    def prior_nodes(self, limit: int) -> list[NodeRow]:
        """A repository overview when a question matches nothing: top-level docs
        first, then documented, shallow symbols, by prior. Sorting every node takes
        seconds on the kernel (12-25 s), so the documented among the best
        `OVERVIEW_POOL` x `limit` by prior are tried first: when they fill the page,
        no node outside them could have made it."""
        order = (
            "ORDER BY (kind='section' AND path NOT LIKE '%/%') DESC, (doc!='' OR kind='section') DESC, "
            f"{_PRIOR} DESC, length(path)-length(replace(path,'/','')) ASC, parent LIKE '%#%' ASC, path, start_line LIMIT ?"
        )
        floor = self.db.execute(
            "SELECT prior FROM priors ORDER BY prior DESC LIMIT 1 OFFSET ?", (limit * OVERVIEW_POOL - 1,)
        ).fetchone()
        if floor is not None:
            found = self._nodes(
                "WHERE kind!='file' AND ((doc!='' OR kind='section') AND id IN (SELECT id FROM priors WHERE prior >= ?) "
                f"OR kind='section' AND path IN (SELECT path FROM files WHERE instr(path, '/')=0)) {order}",
                (floor[0], limit),
            )
            if len(found) == limit:
                return [n for _, n in found]
        return [n for _, n in self._nodes(f"WHERE kind!='file' {order}", (limit,))]

    def term_stats(self, terms) -> dict[str, tuple[int, int]]:
        """term -> (files, nodes) that have it, from the term index alone: what a query
        needs to order its terms and to decide how much of a common one to read."""
        return {
            term: (files, posting_records(size))
            for term, files, size in self._in(
                "SELECT term, count(*), sum(size) FROM postings WHERE term IN ({}) GROUP BY term", terms
            )
        }

    def term_postings(self, term: str, files=None):
        """(node rowids, file rowids, tf, length) arrays of every node with `term`, or
        of those in `files` (file node rowids) only."""
        if files is None:
            rows = self.db.execute("SELECT file, data FROM postings WHERE term=?", (term,)).fetchall()
        else:
            rows = self._in("SELECT file, data FROM postings WHERE term=? AND file IN ({})", files, (term,))
        return unpack_postings(rows)

    def file_lengths(self, paths) -> dict[str, float]:
        """path -> the summed length of its scored nodes: a file's length as one document."""
        return dict(
            self._in("SELECT path, sum(length) FROM nodes WHERE path IN ({}) AND kind != 'file' GROUP BY path", paths)
        )

    def corpus_stats(self) -> tuple[int, float]:
        """(number of scored nodes, their average length), kept up to date by every
        write (a count over millions of nodes per query would cost a second)."""
        n, total = self.db.execute("SELECT nodes, length FROM corpus").fetchone()
        return int(n), (total / n if n else 1.0)
