"""The graph as ranking walks it: neighbours, hop distances and a structural prior,
read from the store's indexed edge tables.

Nothing is loaded into memory up front, so a provider is ready as soon as the
database is open and memory does not grow with the number of edges (the Linux
kernel has millions). The one whole-graph computation, the PageRank prior, runs on
compact numpy arrays when the index changes.
"""

from __future__ import annotations

import math
from array import array

PAGERANK_DAMPING = 0.85  # both walks: the global prior and the anchors' neighbourhood
PAGERANK_ITERATIONS = 60
PAGERANK_TOLERANCE = 1e-9
NEIGHBOURHOOD_ITERATIONS = 50  # the anchors' walk: networkx's pagerank bounds, as before
NEIGHBOURHOOD_TOLERANCE = 1e-6
MAX_FRONTIER = 2000  # a hop expansion stops growing past this many nodes (a huge file, a hub)
_EDGES = "SELECT {a}, rel FROM edges WHERE {b} IN ({q}) UNION ALL SELECT {a}, rel FROM links WHERE {b} IN ({q})"


class CodeGraph:
    def __init__(self, store):
        self.store = store

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
