"""The in-memory graph: node ids and small attributes, edges with their relation.

This is the read interface ranking uses; source text never lives here.
"""

from __future__ import annotations

from collections import deque

import networkx as nx


class CodeGraph:
    def __init__(self):
        self.g = nx.MultiDiGraph()

    def add_node(self, node_id: str, kind: str, path: str) -> None:
        self.g.add_node(node_id, kind=kind, path=path)

    def add_edge(self, src: str, dst: str, rel: str) -> None:
        if src in self.g and dst in self.g:
            self.g.add_edge(src, dst, key=rel)

    def remove_edge(self, src: str, dst: str, rel: str) -> None:
        if self.g.has_edge(src, dst, key=rel):
            self.g.remove_edge(src, dst, key=rel)

    def remove_nodes(self, ids) -> None:
        self.g.remove_nodes_from(ids)

    def __contains__(self, node_id: str) -> bool:
        return node_id in self.g

    def __len__(self) -> int:
        return self.g.number_of_nodes()

    def edge_count(self) -> int:
        return self.g.number_of_edges()

    def out_edges(self, node_id: str) -> list[tuple[str, str]]:
        """(rel, target) for each edge leaving node_id."""
        if node_id not in self.g:
            return []
        return [(rel, dst) for _, dst, rel in self.g.out_edges(node_id, keys=True)]

    def in_edges(self, node_id: str) -> list[tuple[str, str]]:
        """(rel, source) for each edge entering node_id."""
        if node_id not in self.g:
            return []
        return [(rel, src) for src, _, rel in self.g.in_edges(node_id, keys=True)]

    def hops(self, seeds, max_hops: int = 2) -> dict[str, int]:
        """Undirected hop distance from the nearest seed, up to max_hops (G3)."""
        dist = {s: 0 for s in seeds if s in self.g}
        queue = deque(dist)
        while queue:
            node = queue.popleft()
            d = dist[node]
            if d >= max_hops:
                continue
            for nxt in (*self.g.successors(node), *self.g.predecessors(node)):
                if nxt not in dist:
                    dist[nxt] = d + 1
                    queue.append(nxt)
        return dist

    def degree(self, node_id: str) -> int:
        return self.g.degree(node_id) if node_id in self.g else 0
