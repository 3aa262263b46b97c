"""The graph as ranking walks it: neighbours, hop distances and a structural prior,
read from the store's indexed edge tables; and every other read ranking makes
(repo_graph/ranking/reads.py declares them), so ranking knows no other indexer module.

Nothing is loaded into memory up front, so a provider is ready as soon as the
database is open and memory does not grow with the number of edges (the Linux
kernel has millions). The one whole-graph computation, the PageRank prior, runs on
compact numpy arrays when the index changes.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable

from . import subjects
from .names import dotted
from .parse import speaks_for_file
from .postings import RECORD_BYTES
from .resolve import is_release_notes
from .sections import doc_format, translated_from
from .store import MODULE_FRAGMENT, NodeRow
from .terms import terms as cut_terms
from .walk import is_vendored

__all__ = ["CodeGraph", "NodeRow"]

PAGERANK_DAMPING = 0.85  # both walks: the global prior and the anchors' neighbourhood
PAGERANK_ITERATIONS = 60
PAGERANK_TOLERANCE = 1e-9
NEIGHBOURHOOD_ITERATIONS = 50  # the anchors' walk: networkx's pagerank bounds, as before
NEIGHBOURHOOD_TOLERANCE = 1e-6
MAX_FRONTIER = 2000  # a hop expansion stops growing past this many nodes (a huge file, a hub)
_EDGES = "SELECT {a}, rel FROM edges WHERE {b} IN ({q}) UNION ALL SELECT {a}, rel FROM links WHERE {b} IN ({q})"
# One node's incoming edges as _EDGES reads them, in two parts: the structural ones,
# then the links in the order their index on dst holds them (by rowid).
_STRUCTURAL_IN = "SELECT src, rel FROM edges WHERE dst=?"
_LINKS_IN = "SELECT rowid, src, rel FROM links WHERE dst=? AND rowid>? ORDER BY rowid LIMIT ?"


class CodeGraph:
    """The index as ranking reads it (repo_graph.ranking.reads.IndexReads). Most reads
    are the store's own; the path facts (release notes, vendored, translations, tests)
    are the indexer's rules, applied here so ranking need not know them."""

    def __init__(self, store):
        self.store = store

    # -- the store's own reads -------------------------------------------------------
    def corpus_stats(self) -> tuple[int, float]:
        return self.store.corpus_stats()

    def file_corpus(self) -> tuple[int, float]:
        n_nodes, avg_len = self.store.corpus_stats()
        n_files = self.store.file_count()
        return n_files, (n_nodes * avg_len / n_files if n_files else 1.0)

    def file_lengths(self, paths: Iterable[str]) -> dict[str, float]:
        return self.store.file_lengths(paths)

    def term_stats(self, terms: Iterable[str]) -> dict[str, tuple[int, int]]:
        return self.store.term_stats(terms)

    def term_postings(self, term: str, files: list[int] | None = None):
        return self.store.term_postings(term, files)

    def term_files(self, term: str):
        """(file rowids, nodes of each with `term`) arrays, read from the term index
        (postings_term covers term, file, size), not from the postings rows."""
        import numpy as np

        rows = self.store.db.execute("SELECT file, size FROM postings WHERE term=? ORDER BY file", (term,)).fetchall()
        pairs = np.array(rows, dtype=np.int64).reshape(-1, 2)
        return pairs[:, 0], pairs[:, 1] // RECORD_BYTES

    def said_stats(self) -> tuple[int, float]:
        return self.store.said_stats()

    def said_postings(self, terms: Iterable[str]) -> list[tuple[str, str, float, float]]:
        return self.store.said_postings(terms)

    def rowids_of_ids(self, ids: Iterable[str]) -> dict[str, int]:
        return self.store.rowids_of_ids(ids)

    def ids_of_rowids(self, rowids: Iterable[int]) -> dict[int, str]:
        return self.store.ids_of_rowids(rowids)

    def nodes_by_rowid(self, rowids: Iterable[int]) -> dict[int, NodeRow]:
        return self.store.nodes_by_rowid(rowids)

    def nodes_by_id(self, ids: Iterable[str]) -> dict[str, NodeRow]:
        return self.store.nodes_by_id(ids)

    def find_by_name(self, name: str, limit: int) -> list[NodeRow]:
        return self.store.find_by_name(name, limit=limit)

    def top_nodes_in_files(self, paths: Iterable[str], per_file: int) -> list[NodeRow]:
        return self.store.top_nodes_in_files(paths, per_file)

    def top_rows_in_files(self, paths: Iterable[str], per_file: int) -> list[tuple[int, NodeRow]]:
        return self.store.top_rows_in_files(paths, per_file)

    def prior_nodes(self, limit: int) -> list[NodeRow]:
        return self.store.prior_nodes(limit)

    def generated_files(self, rowids: Iterable[int]) -> list[int]:
        return self.store.generated_files(rowids)

    def sections_naming_no_code(self, ids: Iterable[str]) -> set[str]:
        return self.store.sections_naming_no_code(ids)

    def recent_changes(self, paths: Iterable[str]) -> dict[str, float]:
        return self.store.recent_changes(paths)

    def co_changed(self, path: str) -> list[tuple[str, float]]:
        return self.store.co_changed(path)

    def links_from_file(self, path: str) -> list[tuple[str, str, int]]:
        return self.store.links_from_file(path)

    def links_into_file(self, path: str) -> list[tuple[str, str, int]]:
        return self.store.links_into_file(path)

    def paths_named(self, name: str, limit: int) -> list[str]:
        return self.store.paths_named(name, limit)

    def files_joined_to(self, ids: Iterable[str]) -> set[str]:
        return self.store.files_joined_to(ids)

    # -- path facts and words, by the indexer's rules -----------------------------------
    @staticmethod
    def query_terms(text: str) -> list[str]:
        return cut_terms(text)

    @staticmethod
    def spelled(name: str) -> str:
        return dotted(name)

    is_release_notes = staticmethod(is_release_notes)
    is_vendored = staticmethod(is_vendored)
    is_test = staticmethod(subjects.is_test)

    @staticmethod
    def is_doc(path: str) -> bool:
        return doc_format(path) is not None

    def translations(self, paths) -> set[int]:
        """Those of `paths` (file rowid -> path) that translate a doc the index holds."""
        originals = {f: translated_from(p) for f, p in paths.items()}
        present = self.store.nodes_by_id(o for o in originals.values() if o)
        return {f for f, original in originals.items() if original in present}

    def has_history(self) -> bool:
        return bool(self.store.get_meta("history_head"))

    def same_subject(self, path: str, min_subject: int) -> tuple[list[str], list[str]]:
        """(its tests, or what it tests; its namesakes in other folders), by file name:
        none for a subject shorter than `min_subject` (`io`, `a`)."""
        subject, named_as_test = subjects.test_subject(path)
        twins: list[str] = []
        namesakes: list[str] = []
        if len(subject) < min_subject:
            return twins, namesakes
        for other in self.store.paths_with_stems(subjects.stems_about(subject)):
            if other == path:
                continue
            found = subjects.test_subject(other)
            if found == (subject, not named_as_test):
                twins.append(other)
            elif found == (subject, named_as_test):
                namesakes.append(other)
        return twins, namesakes

    def files_in_directory(self, directory: str) -> list[str]:
        """The files directly in `directory` ("" for the root)."""
        if not directory:
            return self.store.paths_in_root()
        return [p for p in self.store.paths_under(directory + "/") if "/" not in p[len(directory) + 1 :]]

    def speaking_for_files(self, nodes) -> set[str]:
        """Ids of those of `nodes` whose frame speaks for its file (parse.speaks_for_file)."""
        near = list(nodes)
        top_level = {n.path for n in near if n.parent == n.path and n.sym_kind != "module"}
        with_module = {n.path for n in self.store.nodes_by_id(f"{p}#{MODULE_FRAGMENT}" for p in top_level).values()}
        return {n.id for n in near if speaks_for_file(n, n.path in with_module)}

    def _query(self, ids: list[str], outgoing: bool) -> list[tuple[str, str, str]]:
        """(node, rel, neighbour) for ids, chunked under SQLite's variable limit."""
        a, b = ("dst", "src") if outgoing else ("src", "dst")
        out = []
        for i in range(0, len(ids), 400):
            chunk = ids[i : i + 400]
            q = ",".join("?" * len(chunk))
            sql = _EDGES.format(a=f"{b}, {a}", b=b, q=q)
            out += self.store.db.execute(sql, chunk + chunk).fetchall()
        return out

    def __contains__(self, node_id: str) -> bool:
        return self.store.db.execute("SELECT 1 FROM nodes WHERE id=?", (node_id,)).fetchone() is not None

    def out_edges(self, node_id: str) -> list[tuple[str, str]]:
        """(rel, target) for each relation leaving node_id."""
        return [(rel, dst) for _, dst, rel in self._query([node_id], outgoing=True)]

    def in_edges(self, node_id: str) -> list[tuple[str, str]]:
        """(rel, source) for each relation entering node_id."""
        return [(rel, src) for _, src, rel in self._query([node_id], outgoing=False)]

    def in_edges_upto(self, node_id: str, most: int) -> tuple[list[tuple[str, str]], int | None]:
        """in_edges(node_id), in its order, but of the links into it only the first
        `most`: (rows, the rowid of the last link read when more remain, else None).
        A frame names 24 relations; a kernel function called from 100,000 places
        should not cost reading them all (`in_links_from` gives the few that matter
        from the rest)."""
        structural = [(rel, src) for src, rel in self.store.db.execute(_STRUCTURAL_IN, (node_id,))]
        rows = self.store.db.execute(_LINKS_IN, (node_id, -1, most + 1)).fetchall()
        more = len(rows) > most
        rows = rows[:most]
        return structural + [(rel, src) for _, src, rel in rows], (rows[-1][0] if more else None)

    def in_links_from(self, node_id: str, sources: Iterable[str], after: int) -> list[tuple[str, str]]:
        """(rel, source) of the links into node_id from any of `sources` past link
        rowid `after`, in in_edges' order (a link's rowid, as links_dst keeps them)."""
        sources, rows = list(sources), []
        for i in range(0, len(sources), 400):
            chunk = sources[i : i + 400]
            sql = f"SELECT rowid, src, rel FROM links WHERE dst=? AND rowid>? AND src IN ({','.join('?' * len(chunk))})"
            rows += self.store.db.execute(sql, (node_id, after, *chunk)).fetchall()
        return [(rel, src) for _, src, rel in sorted(rows)]

    def out_edges_of(self, node_ids: list[str]) -> list[tuple[str, str]]:
        """(rel, target) for each relation leaving any of node_ids, in one read."""
        return [(rel, dst) for _, dst, rel in self._query(node_ids, outgoing=True)] if node_ids else []

    def has_edge(self, src: str, dst: str, rel: str) -> bool:
        return (rel, dst) in self.out_edges(src)

    def hops(self, seeds, max_hops: int = 2, hub_links: int | None = None) -> dict[str, int]:
        """Undirected hop distance from the nearest seed, up to max_hops (G3). With
        `hub_links`, a node more than that many links lead into (a header the whole
        tree includes, a logging call) is reached but its users are not: they are near
        everything, so near nothing, and reading them costs seconds on the kernel."""
        dist = {s: 0 for s in seeds}
        frontier = list(dist)
        for depth in range(1, max_hops + 1):
            if not frontier or len(dist) > MAX_FRONTIER:
                break
            nxt = []
            hubs = self.store.hubs(frontier, hub_links) if hub_links is not None else ()
            users = [n for n in frontier if n not in hubs]
            for _, other, _ in self._query(frontier, True) + self._query(users, False):
                if other not in dist:
                    dist[other] = depth
                    nxt.append(other)
            frontier = nxt
        return dist

    def neighbourhood(self, seeds: dict[str, float], around: dict[str, int]) -> dict[str, float]:
        """Personalized PageRank over the subgraph of `around` (nodes a few hops from
        the anchors), restarting at `seeds` with their weights: how much of the anchors'
        attention reaches each node along imports, calls, containment and docs, either
        way. Scaled so the best non-seed node is 1.

        networkx holds the subgraph and makes its Google matrix (dense, numpy: a few
        hundred nodes); numpy iterates, as `prior` does with its sparse step.
        `nx.pagerank` would give the same ranks but imports scipy on first use,
        0.3-0.5 s of a serve's first anchored answer."""
        import networkx as nx
        import numpy as np

        nodes = set(around) | set(seeds)
        if len(nodes) < 2:
            return {}
        g = nx.Graph()
        ids = sorted(nodes)
        g.add_nodes_from(ids)
        g.add_edges_from((a, b) for a, b, _ in self._query(ids, outgoing=True) if b in nodes and a != b)
        if g.number_of_edges() == 0:
            return {}
        personal = {n: w for n, w in seeds.items() if n in g and w > 0}
        if not personal:
            return {}
        google = nx.google_matrix(g, alpha=PAGERANK_DAMPING, personalization=personal, nodelist=ids)
        rank = np.full(len(ids), 1.0 / len(ids))
        for _ in range(NEIGHBOURHOOD_ITERATIONS):
            previous = rank
            rank = rank @ google
            if np.abs(rank - previous).sum() < NEIGHBOURHOOD_TOLERANCE * len(ids):
                break
        else:
            return {}  # no convergence: no walk, rather than a half-made one
        others = [r for n, r in zip(ids, rank) if n not in seeds]
        best = max(others) if others else 0.0
        return {n: float(r) / best for n, r in zip(ids, rank) if n not in seeds} if best > 0 else {}

    def prior(self) -> dict[str, float]:
        """PageRank over code.calls, code.references, code.imports and doc.documents
        (like a repository map: what much else leans on ranks high), scaled to [0, 1].
        Nodes become integers and edges two compact arrays; numpy does the iteration
        (each step one weighted bincount over the edges: scipy's sparse matrices would
        cost an `index` run 0.1 s of import for the same product), so millions of
        links (the kernel) cost megabytes, not Python objects."""
        import numpy as np

        index: dict[str, int] = {}
        src = array("i")  # 4 bytes an edge, not a Python int object (the kernel has ~8M)
        dst = array("i")
        rows = self.store.db.execute(
            "SELECT src, dst FROM links WHERE rel IN ('code.calls','code.references','code.imports','doc.documents')"
        )
        for a, b in rows:
            src.append(index.setdefault(a, len(index)))
            dst.append(index.setdefault(b, len(index)))
        n = len(index)
        if n == 0:
            return {}
        s = np.frombuffer(src, dtype=np.int32)
        d = np.frombuffer(dst, dtype=np.int32)
        del src, dst
        out_degree = np.bincount(s, minlength=n).astype(np.float64)  # a repeated edge counts each time
        dangling = out_degree == 0
        share = 1.0 / out_degree[s]  # what each edge carries of its source's rank: row-stochastic
        rank = np.full(n, 1.0 / n)
        for _ in range(PAGERANK_ITERATIONS):
            previous = rank
            flow = np.bincount(d, weights=rank[s] * share, minlength=n)
            rank = PAGERANK_DAMPING * (flow + rank[dangling].sum() / n) + (1 - PAGERANK_DAMPING) / n
            if np.abs(rank - previous).sum() < PAGERANK_TOLERANCE * n:
                break
        floor, top = rank.min(), rank.max()
        span = math.log(top / floor) if top > floor else 1.0
        scaled = np.log(rank / floor) / span if top > floor else np.zeros(n)
        return {node: float(scaled[i]) for node, i in index.items()}
