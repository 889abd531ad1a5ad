"""A gradient as the sum over paths: every way a tensor reaches the output, from the document.

``∂L/∂x`` is the sum, over the paths from ``x`` to ``L``, of the product of the local
derivatives along each path. The document holds what that needs: its edges (the paths)
and, on each backward step of a scalar op, ``local`` (the derivative of the op's output
with respect to one input). An op that uses ``x`` twice (``x * x``) is one step of a
path whose local derivative is the sum of both (``2 + 2`` at x = 2), as a learner writes
``d(x²)/dx = 2x``; so ``y = x*x + 3*x`` at x = 2 has two paths, 4 and 3, summing to 7.

For tensors that are not scalars the local derivative is a Jacobian, not a number:
each path is listed with the gradient its last op sent ``x`` (the sum of the paths
through that op), and the meeting nodes say where the backward adds the branches.
``js/src/model/paths.js`` computes the same from the same document in the browser.
"""
from __future__ import annotations

LISTED = 20  # paths listed in full; the rest are counted


def name_of(node: dict) -> str:
    """A node as the learner knows it: its label, else the expression that made it."""
    return node.get("label") or node.get("expr") or node["id"]


def _pass_events(doc: dict, pass_index: int | None) -> tuple[int, list]:
    passes = [p for p in doc.get("passes") or [] if p.get("backward")]
    if not passes:
        raise ValueError("the graph has no backward pass: run .backward() first")
    chosen = passes[-1] if pass_index is None else next((p for p in passes if p["index"] == pass_index), None)
    if chosen is None:
        raise ValueError(f"pass {pass_index} has no backward (passes with one: {[p['index'] for p in passes]})")
    return chosen["index"], doc["events"][chosen["first_event"]:chosen["last_event"] + 1]


def _scalar(summary) -> float | None:
    if not summary or summary.get("shape") not in ([], [1]) or not summary.get("values"):
        return None
    value = summary["values"][0]
    return value if isinstance(value, (int, float)) else float(value)


def paths(doc: dict, node_id: str, pass_index: int | None = None, listed: int = LISTED) -> dict:
    """The paths from ``node_id`` to the root of a backward pass (the last one by default):
    each path's nodes (names), its steps' local derivatives and their product, the sum,
    and what backward computed for ``∂L/∂x``."""
    nodes = {n["id"]: n for n in doc["nodes"]}
    if node_id not in nodes or nodes[node_id]["kind"] != "tensor":
        raise ValueError(f"{node_id!r} is not a tensor of this graph")
    index, events = _pass_events(doc, pass_index)
    begin = next(e for e in events if e["type"] == "backward_begin")
    root = begin["roots"][0]
    steps = {}
    for event in events:
        if event["type"] == "backward_step":
            steps.setdefault(event["node"], event)
    consumers: dict = {}  # tensor id -> {op id: [args]}, for ops that ran backward in this pass
    output_of = {}
    for edge in doc["edges"]:
        src, dst = edge["src"], edge["dst"]
        if nodes[src]["kind"] == "tensor" and dst in steps:
            consumers.setdefault(src, {}).setdefault(dst, []).append(edge["arg"])
        elif nodes[src]["kind"] == "op":
            output_of[src] = dst
    counts: dict = {}

    def count(tensor: str) -> int:  # paths from tensor to root, memoized (a DAG)
        if tensor == root:
            return 1
        if tensor not in counts:
            counts[tensor] = 0  # no cycles in a graph; guards a malformed document
            counts[tensor] = sum(count(output_of[op]) for op in consumers.get(tensor, {}) if op in output_of)
        return counts[tensor]

    total_paths = count(node_id)
    found: list = []

    def walk(tensor: str, hops: list) -> None:
        if len(found) >= listed:
            return
        if tensor == root:
            found.append(list(hops))
            return
        for op, args in consumers.get(tensor, {}).items():
            out = output_of.get(op)
            if out is not None and count(out):
                hops.append((tensor, op, args))
                walk(out, hops)
                hops.pop()

    walk(node_id, [])
    scalar = all(_scalar(steps[op].get("grad_output")) is not None for op in steps)
    listed_paths = [_path(hops, root, nodes, steps, scalar) for hops in found]
    received = [g["grad"] for e in steps.values() for g in e["grad_inputs"] if g.get("node") == node_id]
    backward_sum = sum(_scalar(g) or 0.0 for g in received) if scalar and received else None
    meetings = [{"node": t, "name": name_of(nodes[t]), "branches": c}
                for t, c in _meetings(node_id, root, consumers, output_of, count)]
    result = {"node": node_id, "name": name_of(nodes[node_id]), "root": root, "root_name": name_of(nodes[root]),
              "pass": index, "count": total_paths, "paths": listed_paths, "scalar": scalar,
              "meetings": meetings, "backward": backward_sum}
    if scalar and total_paths == len(listed_paths):
        result["sum"] = sum(p["product"] for p in listed_paths)
    return result


def _path(hops: list, root: str, nodes: dict, steps: dict, scalar: bool) -> dict:
    names = [name_of(nodes[tensor]) for tensor, _, _ in hops] + [name_of(nodes[root])]
    path = {"nodes": [tensor for tensor, _, _ in hops] + [root],
            "ops": [op for _, op, _ in hops], "names": names,
            "op_names": [nodes[op]["op"] for _, op, _ in hops]}
    if not scalar:
        tensor, op, args = hops[0]
        sent = [g["grad"] for g in steps[op]["grad_inputs"] if g.get("arg") in args]
        path["last_gradient"] = sent[0] if len(sent) == 1 else None
        return path
    locals_, product = [], 1.0
    for _, op, args in hops:
        parts = [g.get("local") for g in steps[op]["grad_inputs"] if g.get("arg") in args]
        received = _scalar(steps[op].get("grad_output"))
        if any(p is None for p in parts):  # no local where the op received 0: the path adds 0
            local = None if received == 0 else float("nan")
        else:
            local = float(sum(parts))
        locals_.append({"op": op, "parts": parts, "local": local})
        product = 0.0 if local is None else product * local
    path["locals"] = locals_
    path["product"] = product
    return path


def _meetings(start: str, root: str, consumers: dict, output_of: dict, count) -> list:
    """The tensors between ``start`` and the root where paths from ``start`` meet: more
    than one of their consumers leads on to the root, so backward adds the branches there."""
    seen, order, todo = set(), [], [start]
    while todo:
        tensor = todo.pop()
        if tensor in seen or tensor == root:
            continue
        seen.add(tensor)
        onward = [output_of[op] for op in consumers.get(tensor, {}) if op in output_of and count(output_of[op])]
        uses = sum(len(args) for op, args in consumers.get(tensor, {}).items()
                   if op in output_of and count(output_of[op]))
        if uses > 1:
            order.append((tensor, uses))
        todo.extend(onward)
    return order
