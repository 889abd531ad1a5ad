"""A small layered layout for the static picture: which column and row each node gets.

Pure Python on plain ids and edges (no drawing, no Jupyter), in the Sugiyama
spirit but kept short, because the static SVG only has to be readable:

1. **Order.** Nodes come in creation order (the document's create events). In a
   trace document every edge goes from an earlier node to a later one (an input
   exists before the op that reads it; an op before its output), so creation
   order is a topological order; an edge that goes backwards (possible only
   after collapsing nodes into groups) is ignored by the layering.
2. **Layers.** Longest path from the sources: a node sits one layer after its
   deepest input. A source (a leaf) is then pulled forward to just before its
   first consumer, so a constant used late does not sit far to the left.
3. **Long edges.** An edge that skips layers gets one dummy node in each layer it
   passes (Sugiyama's construction): the dummies take part in the row ordering
   like nodes, so the edge is later drawn through the empty slots they hold and
   never through a node of a layer it crosses.
4. **Rows.** Within a layer, nodes start in creation order and are then sorted
   by the barycenter (the mean relative row) of their neighbours, sweeping down
   then up a few times: the classic crossing-reduction heuristic.

>>> layered(["a", "b", "op", "c"], [("a", "op"), ("b", "op"), ("op", "c")])
{'a': (0, 0), 'b': (0, 1), 'op': (1, 0), 'c': (2, 0)}
"""
from __future__ import annotations

SWEEPS = 4  # barycenter sweeps, each one down and one up; more rarely changes a small graph


def layered(order: list, edges: list) -> dict:
    """``{node id: (layer, row)}`` for nodes in creation ``order`` joined by ``(src, dst)`` edges."""
    cells, _ = layered_routes(order, edges)
    return {node: cells[node] for node in order}


def layered_routes(order: list, edges: list) -> tuple:
    """``(cells, routes)``: ``cells`` maps every node *and dummy* to ``(layer, row)``;
    ``routes`` maps each edge ``(src, dst)`` that skips layers to its dummies, in order.

    >>> cells, routes = layered_routes(["a", "b", "c"], [("a", "b"), ("b", "c"), ("a", "c")])
    >>> routes[("a", "c")], cells[routes[("a", "c")][0]][0]
    ([('dummy', 0)], 1)
    """
    rank = {node: index for index, node in enumerate(order)}
    preds: dict = {node: [] for node in order}
    succs: dict = {node: [] for node in order}
    for src, dst in edges:
        if src in rank and dst in rank and rank[src] < rank[dst] and dst not in succs[src]:
            succs[src].append(dst)
            preds[dst].append(src)

    layer: dict = {}
    for node in order:  # creation order is topological (see the module doc)
        layer[node] = max((layer[p] + 1 for p in preds[node]), default=0)
    for node in reversed(order):  # successors are later, so they are placed already
        if not preds[node] and succs[node]:
            layer[node] = max(0, min(layer[s] for s in succs[node]) - 1)

    # the virtual graph: every edge spans one layer, through dummies where it skips
    v_preds: dict = {node: [] for node in order}
    v_succs: dict = {node: [] for node in order}
    routes: dict = {}
    for src in order:
        for dst in succs[src]:
            chain = [src]
            for k in range(layer[src] + 1, layer[dst]):
                dummy = ("dummy", len(layer) - len(order))
                layer[dummy] = k
                v_preds[dummy], v_succs[dummy] = [], []
                chain.append(dummy)
            chain.append(dst)
            if len(chain) > 2:
                routes[(src, dst)] = chain[1:-1]
            for a, b in zip(chain, chain[1:]):
                v_succs[a].append(b)
                v_preds[b].append(a)

    layers: dict = {}
    for node in layer:  # real nodes in creation order, then the dummies
        layers.setdefault(layer[node], []).append(node)
    depth = max(layers, default=-1) + 1
    rows = [layers.get(k, []) for k in range(depth)]
    where: dict = {}  # node -> relative row in its layer, kept up to date as layers are re-sorted
    for nodes in rows:
        _note_rows(nodes, where)
    for _ in range(SWEEPS):
        for k in range(1, depth):
            rows[k] = _by_barycenter(rows[k], v_preds, where)
        for k in range(depth - 2, -1, -1):
            rows[k] = _by_barycenter(rows[k], v_succs, where)
    cells = {node: (k, row) for k, nodes in enumerate(rows) for row, node in enumerate(nodes)}
    return cells, routes


def _note_rows(nodes: list, where: dict) -> None:
    """Relative rows (row / layer size): long edges reach layers of different sizes."""
    size = len(nodes)
    for row, node in enumerate(nodes):
        where[node] = (row + 0.5) / size


def _by_barycenter(nodes: list, neighbours: dict, where: dict) -> list:
    """``nodes`` sorted by the mean relative row of their neighbours (in any layer)."""
    keyed = []
    for row, node in enumerate(nodes):
        around = [where[n] for n in neighbours[node]]
        keyed.append((sum(around) / len(around) if around else where[node], row, node))
    keyed.sort()  # ties keep their current order (row is the second key)
    ordered = [node for _, _, node in keyed]
    _note_rows(ordered, where)
    return ordered
