"""What git history says (indexer/history.py): co-changes, recent changes, and the
terms of each file's commit messages."""

from __future__ import annotations

from .connection import Connection
from .schema import _HISTORY_SCHEMA


class History(Connection):
    def set_history(self, pairs, recent, words) -> None:
        """What git history says (indexer/history.py), replacing what it said before:
        co-change counts {(a, b): n}, recent changes {path: n} and the terms of each
        file's commit messages {path: Counter}. Inside begin()/commit()."""
        self._execute_script(_HISTORY_SCHEMA)
        self.db.executemany(
            "INSERT INTO cochange VALUES(?,?,?)",
            ((x, y, n) for (a, b), n in pairs.items() for x, y in ((a, b), (b, a))),
        )
        self.db.execute("DELETE FROM recent")
        self.db.executemany("INSERT INTO recent VALUES(?,?)", recent.items())
        files = list(words.items())
        lengths = [sum(said.values()) for _, said in files]
        self.db.executemany(
            "INSERT INTO said_files VALUES(?,?,?)",
            ((i, path, n) for i, ((path, _), n) in enumerate(zip(files, lengths))),
        )
        self.db.executemany(
            "INSERT INTO said VALUES(?,?,?)",
            ((term, i, n) for i, (_, said) in enumerate(files) for term, n in said.items()),
        )
        self.set_meta("said_stats", f"{len(files)} {sum(lengths) / len(files) if files else 1.0}")

    def said_stats(self) -> tuple[int, float]:
        """(files with a commit message, their messages' average length in terms), kept
        when the history is read: every query asks (a count over its rows would cost
        milliseconds on a long history)."""
        n, mean = (self.get_meta("said_stats") or "0 1.0").split()
        return int(n), float(mean)

    def said_postings(self, terms) -> list[tuple[str, str, float, float]]:
        """(term, path, weight, length of the path's messages) for the files indexed now
        whose commit messages hold one of `terms`."""
        return self._in(
            "SELECT s.term, d.path, s.n, d.n FROM said s JOIN said_files d ON d.id=s.file "
            "JOIN files f ON f.path=d.path WHERE s.term IN ({}) AND f.status='ok'",
            terms,
        )

    def recent_changes(self, paths) -> dict[str, float]:
        """{path: its recent changes} for those of `paths` that have any."""
        return dict(self._in("SELECT path, n FROM recent WHERE path IN ({})", paths))

    def co_changed(self, path: str) -> list[tuple[str, float]]:
        """(other path, commits that changed both, weighed by age) for one file, the other indexed now."""
        return self.db.execute(
            "SELECT c.b, c.n FROM cochange c JOIN files f ON f.path=c.b WHERE c.a=? AND f.status='ok'", (path,)
        ).fetchall()
