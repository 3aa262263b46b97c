"""Answers that pick their nodes from the graph rather than from a question: a
symbol by name, id or uri, and what is joined to a file or symbol by one kind of
edge (its callers, its imports, the docs naming it). Names resolve through
anchors.py only; the order among the nodes found is the ranking's, from the
anchor. Knows nothing of the wire."""

from __future__ import annotations

from dataclasses import dataclass

from indexer.store import NodeRow

from . import anchors, ranking
from .protocol import messages as m


@dataclass(frozen=True)
class Relation:
    """One kind of `related` question: which edges, which way, at which level."""

    rels: tuple[str, ...]
    incoming: bool  # True: the nodes whose edges lead into the anchor
    file_level: bool = False  # imports are the file's: a symbol asks for its file's
    outgoing_too: bool = False  # both ways (a doc documents code; code is documented by a doc)


RELATIONS = {
    "callers": Relation((m.REL_CALLS,), incoming=True),
    "callees": Relation((m.REL_CALLS,), incoming=False),
    "references": Relation((m.REL_REFERENCES, m.REL_CALLS), incoming=True),
    "imports": Relation((m.REL_IMPORTS,), incoming=False, file_level=True),
    "importers": Relation((m.REL_IMPORTS,), incoming=True, file_level=True),
    "members": Relation((m.REL_CONTAINS,), incoming=False),
    "documents": Relation((m.REL_DOCUMENTS,), incoming=True, outgoing_too=True),
}
# Every edge a symbol has, for get_symbol's neighbours.
NEIGHBOUR_RELATIONS = ("callers", "callees", "references", "members", "documents")


def resolve(index, text: str) -> list[NodeRow]:
    """The nodes a name, id, path or uri names (anchors.py decides what is inside the
    repository), each file standing as the node that speaks for it (its header)."""
    resolved = anchors.resolve(index, text)
    for node_id in resolved.node_ids:
        index.ensure_fresh(index.split_id(node_id)[0])  # asked about by name: checked against disk now
    found = index.store.nodes_by_id(resolved.node_ids)
    nodes = [found[i] for i in resolved.node_ids if i in found]
    return list({n.id: n for n in _speaking(index, nodes)}.values())


def _speaking(index, nodes: list[NodeRow]) -> list[NodeRow]:
    """A file node is no frame: its header (or most central node) stands for it."""
    files = [n.path for n in nodes if n.kind == "file"]
    heads = {n.path: n for n in index.store.top_nodes_in_files(files, 1)} if files else {}
    return [heads.get(n.path) if n.kind == "file" else n for n in nodes if n.kind != "file" or n.path in heads]


def related_ids(index, anchor_nodes: list[NodeRow], relation: str) -> set[str]:
    """Ids of the nodes joined to the anchor nodes by `relation` (a key of RELATIONS)."""
    how = RELATIONS[relation]
    ends: set[str] = set()
    for node in anchor_nodes:
        if how.file_level or node.sym_kind == "module":
            ends.add(node.path)  # a file's imports and importers hang on the file
        if not how.file_level:
            ends.add(node.id)
    if relation == "members":
        found = {n.id for end in ends if "#" not in end for n in index.store.nodes_in_file(end) if n.parent == end}
    else:
        found = set()
    graph = index.graph
    for end in ends:
        edges = []
        if how.incoming or how.outgoing_too:
            edges += graph.in_edges(end)
        if not how.incoming or how.outgoing_too:
            edges += graph.out_edges(end)
        found.update(other for rel, other in edges if rel in how.rels)
    return found - ends - {n.id for n in anchor_nodes}


def neighbour_ids(index, anchor_nodes: list[NodeRow]) -> set[str]:
    """Every node one edge from the anchor nodes, of the kinds get_symbol shows."""
    return set().union(*(related_ids(index, anchor_nodes, r) for r in NEIGHBOUR_RELATIONS))


def ranked(index, seeds: list[NodeRow], ids: set[str]) -> list[tuple[NodeRow, float]]:
    """The nodes of `ids` (a file standing as its header) best first, as the ranking
    orders them from the seeds as anchors; any it leaves out follow, by the
    structural prior (what much else leans on first)."""
    store = index.store
    found = store.nodes_by_id(ids)
    nodes = list({n.id: n for n in _speaking(index, list(found.values()))}.values())
    wanted = {n.id for n in nodes}
    with store.snapshot():
        order = ranking.rank(index, "", {s.id for s in seeds}, keep=lambda node: node.id in wanted)
    out = [(c.node, c.score) for c in order if c.node.id in wanted]
    placed = {n.id for n, _ in out}
    rest = [n for n in nodes if n.id not in placed]
    prior = store.priors([n.id for n in rest]) if rest else {}
    rest.sort(key=lambda n: (-prior.get(n.id, 0.0), n.path, n.start_line))
    return out + [(n, 0.0) for n in rest]
