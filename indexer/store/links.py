"""Links between nodes (imports, calls, docs naming code) and what they are resolved
from: each file's imports and uses of names."""

from __future__ import annotations

from collections import Counter

from ..uses import unpack as unpack_uses
from .counts import Counts


class Links(Counts):
    def replace_links(self, paths, links) -> None:
        """Links owned by `paths` become `links` [(path, src, dst, rel)]. Inside begin()/commit()."""
        paths = list(paths)
        edges = 0
        for i in range(0, len(paths), 900):
            chunk = paths[i : i + 900]
            edges -= self.db.execute(f"DELETE FROM links WHERE path IN ({','.join('?' * len(chunk))})", chunk).rowcount
        edges += self.db.executemany("INSERT INTO links VALUES(?,?,?,?)", links).rowcount
        self._tally(self._kept_counts(), Counter(edges=edges))

    def links_from_file(self, path: str) -> list[tuple[str, str, int]]:
        """(target file, rel, how many) of the resolved links one file owns, counted
        here: a hub's thousands of rows need not become Python tuples."""
        return self.db.execute(
            "SELECT CASE WHEN instr(dst, '#') THEN substr(dst, 1, instr(dst, '#') - 1) ELSE dst END, rel, count(*) "
            "FROM links WHERE path=? GROUP BY 1, 2",
            (path,),
        ).fetchall()

    def links_into_file(self, path: str) -> list[tuple[str, str, int]]:
        """(owner file, rel, how many) of the resolved links into one file or its symbols."""
        return self.db.execute(
            "SELECT path, rel, count(*) FROM links WHERE dst=? OR (dst >= ? AND dst < ?) GROUP BY 1, 2",
            (path, path + "#", path + "$"),
        ).fetchall()

    def owners_of_links_to(self, ids) -> set[str]:
        return {r[0] for r in self._in("SELECT DISTINCT path FROM links WHERE dst IN ({})", ids)}

    def importers_of(self, paths) -> set[str]:
        return {
            r[0] for r in self._in("SELECT DISTINCT path FROM links WHERE rel='code.imports' AND dst IN ({})", paths)
        }

    def files_joined_to(self, ids) -> set[str]:
        """Files whose own node a link joins to one of `ids` the way a frame speaking
        for the file shows it: any link from one of them to the file (an import, a
        doc naming it), or the file's import of one."""
        ids = list(ids)
        into = self._in("SELECT dst FROM links WHERE src IN ({}) AND instr(dst, '#') = 0", ids)
        out = self._in("SELECT src FROM links WHERE dst IN ({}) AND rel = 'code.imports'", ids)
        return {r[0] for r in into + out}

    def sections_naming_no_code(self, ids) -> set[str]:
        """Those of `ids` that are doc sections without a `doc.documents` link."""
        return {
            r[0]
            for r in self._in(
                "SELECT id FROM nodes n WHERE id IN ({}) AND kind='section' AND NOT EXISTS "
                "(SELECT 1 FROM links l WHERE l.src=n.id AND l.rel='doc.documents')",
                ids,
            )
        }

    def hubs(self, ids, most: int) -> set[str]:
        """Those of `ids` that more than `most` links lead into, counted in the index."""
        return {
            r[0]
            for r in self._in(
                "SELECT dst FROM links WHERE dst IN ({}) GROUP BY dst HAVING count(*) > ?", ids, after=(most,)
            )
        }

    def all_edges(self):
        """Structural edges and resolved links alike."""
        return self.db.execute("SELECT src, dst, rel FROM edges UNION ALL SELECT src, dst, rel FROM links").fetchall()

    def imports_of(self, paths) -> list[tuple[str, str, int, str]]:
        return self._in("SELECT path, target, line, names FROM imports WHERE path IN ({})", paths)

    def paths_importing_like(self, stem: str) -> set[str]:
        """Files with an import whose text mentions `stem` (it may resolve to a new file)."""
        return {r[0] for r in self.db.execute("SELECT DISTINCT path FROM imports WHERE instr(target, ?) > 0", (stem,))}

    def uses_of(self, paths) -> list[tuple[str, str, str, str | None]]:
        """(path, user id, name, kind) of every use of a name in `paths`, each once."""
        rows = self._in("SELECT n.path, u.data FROM nodes n JOIN uses u ON u.file=n.rowid WHERE n.id IN ({})", paths)
        return [use for path, data in rows for use in unpack_uses(path, data)]

    def names_used_in(self, paths) -> set[str]:
        """The names the files `paths` use, each once."""
        return {
            r[0]
            for r in self._in(
                "SELECT DISTINCT u.name FROM nodes n JOIN used u ON u.file=n.rowid WHERE n.id IN ({})", paths
            )
        }

    def paths_referring_to(self, names) -> set[str]:
        return {
            r[0]
            for r in self._in(
                "SELECT DISTINCT n.path FROM used u JOIN nodes n ON n.rowid=u.file WHERE u.name IN ({})", names
            )
        }
