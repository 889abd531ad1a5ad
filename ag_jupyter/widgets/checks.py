"""Check it yourself, from Python or from the page: ``_.nudge("a")``, ``_.step_downhill(0.01)``,
``_.paths("x")``, ``_.apply_step(0.01)`` on the widget of a ``%%autograd`` cell.

``CellChecks`` ties a cell's trace (its document and the recorder's ids) to its replay
tape (``tracing/replay.py``): it finds the learner's tensors by the names on the graph
and hands ``tracing/checks.py`` their tape entries. ``CheckMethods`` is what the widget
adds: the methods above, and the answer to the page's ``{"type": "check", ...}``
message (sent back as ``{"type": "check_result", "request": n, ...}``).
"""
from __future__ import annotations

import math

import numpy

from ..autograd.grad_mode import no_grad
from ..tracing import checks
from ..tracing.paths import paths
from ..tracing.replay import ReplayRefused

UNCHANGED = "the kernel's tensors are unchanged: _.apply_step(lr) applies this step to them"


def node_id(doc: dict, name: str) -> str:
    """The id of the tensor called ``name`` on the graph (its label, or its id)."""
    for node in doc["nodes"]:
        if node["kind"] == "tensor" and name in (node["id"], node.get("label")):
            return node["id"]
    labels = sorted(n["label"] for n in doc["nodes"] if n["kind"] == "tensor" and n.get("label"))
    raise KeyError(f"no tensor named {name!r} on this graph (its names: {', '.join(labels) or 'none'})")


class CellChecks:
    """A cell's trace and tape, and the tensors they share, found by the names on the graph."""

    def __init__(self, trace, tape):
        self.trace = trace
        self.tape = tape

    def leaf(self, node_id: str):
        """The leaf tensor of a node and its tape entry."""
        for ref, known in self.trace.recorder.leaves.values():
            if known == node_id:
                tensor = ref()
                if tensor is None:
                    break
                index = self.tape.leaf_of(tensor)
                if index is None:
                    raise ValueError(f"{node_id} is not an input of any recorded op")
                return tensor, index
        raise ValueError(f"{node_id} is not a leaf the kernel still holds: only a leaf can be nudged")

    def root(self, doc: dict) -> tuple[str, int]:
        """The output of the last backward pass (else the last recorded op's) and its tape step."""
        begins = [e for e in doc["events"] if e["type"] == "backward_begin"]
        made = {out_id: seq for seq, (_, out_id) in self.trace.recorder.ops.items()}
        if begins:
            root_id = begins[-1]["roots"][0]
            step = self.tape.by_seq.get(made.get(root_id))
            if step is None:
                raise ValueError("the output of the backward pass was not computed in this cell: nothing to replay")
            return root_id, step
        if not self.tape.by_seq:
            raise ValueError("no recorded output to replay (the cell computed nothing that requires grad)")
        seq = max(self.tape.by_seq, key=self.tape.by_seq.get)
        return self.trace.recorder.ops[seq][1], self.tape.by_seq[seq]

    def gradient(self, doc: dict, node_id: str, tensor):
        """The gradient the last backward pass sent the leaf, as the graph shows it (the sum of
        its steps' contributions: a ``.grad`` that accumulated earlier passes is not this graph's
        slope); where the document keeps no entries, the kernel's ``.grad``."""
        begins = [k for k, e in enumerate(doc["events"]) if e["type"] == "backward_begin"]
        sent = [g["grad"] for e in doc["events"][begins[-1]:] if e["type"] == "backward_step"
                for g in e["grad_inputs"] if g.get("node") == node_id] if begins else []
        if sent and all(s and s.get("values") is not None for s in sent):
            arrays = [numpy.asarray([float(v) for v in s["values"]], dtype=numpy.float64).reshape(s["shape"])
                      for s in sent]
            return sum(arrays[1:], arrays[0])
        if tensor.grad is not None:
            return checks.to_host(tensor.grad._data)
        return None

    def nudge(self, doc: dict, name: str, h=None, index=None) -> dict:
        found = node_id(doc, name)
        tensor, leaf = self.leaf(found)
        grad = self.gradient(doc, found, tensor)
        if grad is None:
            raise ValueError(f"{name} has no gradient to check: run .backward() first")
        root_id, root = self.root(doc)
        result = checks.nudge(self.tape, root, leaf, grad, h, _index(index))
        return {"what": "nudge", "node": found, "root": root_id, **result}

    def params(self, doc: dict) -> list:
        """(node id, tensor, tape leaf, gradient) of each leaf that requires grad and has one."""
        found = []
        for ref, node_id in list(self.trace.recorder.leaves.values()):
            tensor = ref()
            if tensor is None or not tensor.requires_grad:
                continue
            leaf = self.tape.leaf_of(tensor)
            grad = self.gradient(doc, node_id, tensor)
            if leaf is not None and grad is not None:
                found.append((node_id, tensor, leaf, grad))
        return found

    def downhill(self, doc: dict, lr: float) -> dict:
        root_id, root = self.root(doc)
        params = self.params(doc)
        result = checks.downhill(self.tape, root, {leaf: grad for _, _, leaf, grad in params}, lr)
        moved = [{"node": node_id, "old": checks.to_host(self.tape.recorded_value(leaf)).tolist(),
                  "new": (checks.to_host(self.tape.recorded_value(leaf)) - result["lr"] * grad).tolist()}
                 for node_id, _, leaf, grad in params]
        return {"what": "downhill", "root": root_id, "moved": moved, "kernel": UNCHANGED, **result}

    def apply_step(self, doc: dict, lr: float) -> list:
        """Move the kernel's leaves by ``-lr * grad`` (the step ``downhill`` showed)."""
        lr = float(lr)
        if not math.isfinite(lr):
            raise ValueError(f"lr must be a finite number, got {lr!r}")
        changed = []
        with no_grad():
            for node_id, tensor, _, grad in self.params(doc):
                tensor.data -= lr * checks.to_host(grad).astype(checks.to_host(tensor._data).dtype)
                changed.append(node_id)
        return changed


def _index(index):
    if index is None or isinstance(index, int):
        return index
    return tuple(int(i) for i in index)


class CheckMethods:
    """The checks a ``GraphWidget`` offers; ``self.checks`` is a ``CellChecks`` (or None)."""

    checks: CellChecks | None = None

    def _cell_checks(self) -> CellChecks:
        if self.checks is None:
            raise ValueError("checks replay the recorded graph, which only a %%autograd cell keeps: "
                             "run the cell under %%autograd")
        return self.checks

    def nudge(self, name: str, h: float | None = None, index=None) -> dict:
        """Nudge the leaf ``name`` by ``h`` (default ~1e-3 of its scale), re-run the recorded
        graph at x+h and x-h, and compare the slope with its gradient (one entry: ``index``)."""
        return self._cell_checks().nudge(self.trace, name, h, index)

    def step_downhill(self, lr: float = 0.01) -> dict:
        """Replay the graph with every leaf that requires grad moved by ``-lr * grad``;
        the kernel's tensors are not changed (``apply_step`` changes them)."""
        return self._cell_checks().downhill(self.trace, lr)

    def apply_step(self, lr: float = 0.01) -> list:
        """Move the kernel's leaves that require grad by ``-lr * grad``; returns their node ids."""
        return self._cell_checks().apply_step(self.trace, lr)

    def paths(self, name: str) -> dict:
        """Every path from the tensor ``name`` to the output, with its local derivatives and
        their product, and the sum (``∂L/∂name``) backward computed."""
        return paths(self.trace, node_id(self.trace, name))

    def _answer_check(self, content: dict) -> None:
        request = content.get("request")
        try:
            what = content.get("what")
            if what == "nudge":
                result = self.nudge(content["node"], content.get("h"), content.get("index"))
            elif what == "downhill":
                result = self.step_downhill(content.get("lr", 0.01))
            elif what == "apply_step":
                result = {"what": "apply_step", "changed": self.apply_step(content.get("lr", 0.01))}
            else:
                raise ValueError(f"unknown check {what!r}")
        except (ReplayRefused, ValueError, KeyError, TypeError) as error:
            refused = isinstance(error, ReplayRefused)
            message = str(error.args[0]) if isinstance(error, KeyError) else str(error)
            self.send({"type": "check_result", "request": request, "refused": refused, "error": message})
            return
        self.send({"type": "check_result", "request": request, "result": result})
