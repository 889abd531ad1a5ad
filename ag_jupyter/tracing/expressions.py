"""Names for the tensors nobody named: what the learner sees instead of an internal id.

A tensor labelled after a variable (``e``) keeps its label. Any other tensor node
gets an ``expr``: the expression that made it, written as Python (``a*b``,
``log(d)*c``, ``relu(h)``, ``x*2``), from its op's symbol, its inputs' names and
the op's Python constants. A leaf with no name gets a role: its value if it is a
number, else ``weight``/``bias`` where a PyTorch graph's shape says so, ``param``
(requires grad) or ``input``. An unnamed scalar backward root is named by its
expression (``sum(y)``), as any tensor is: calling it ``loss`` would put a word on
screen the cell never wrote. A root no op made, a tensor root (``y.backward(G)``)
or one whose shortened expression names nothing (``(…)+(…)``) is the ``output``. Long
expressions are shortened with ``…`` so a name stays a name.

>>> nodes = [{"id": "t0", "kind": "tensor", "label": "x", "is_leaf": True, "requires_grad": True},
...          {"id": "op0", "kind": "op", "op": "MulBackward0", "symbol": "×", "consts": [{"arg": 1, "value": 2}]},
...          {"id": "t1", "kind": "tensor", "is_leaf": False, "requires_grad": True}]
>>> edges = [("t0", "op0", 0), ("op0", "t1", 0)]
>>> name_unlabelled(nodes, edges, roots=set())["t1"]
'x*2'
"""
from __future__ import annotations

MAX_LENGTH = 24
# symbol -> (Python operator, precedence); a higher precedence binds tighter
INFIX = {"+": ("+", 1), "−": ("-", 1), "×": ("*", 2), "÷": ("/", 2), "@": ("@", 2), "^": ("**", 3)}
FUNCTION_NAMES = {"Σ": "sum", "σ": "sigmoid", "√": "sqrt", "|·|": "abs", "‖·‖": "norm",
                  "log softmax": "log_softmax", "MSE": "mse_loss", "NLL": "nll_loss", "mse": "mse_loss",
                  "nll": "nll_loss", "∑grad": "grad"}
WEIGHT_CONSUMERS = {"TBackward0", "PermuteBackward0", "TransposeBackward0"}


def name_unlabelled(nodes: list, edges, roots: set) -> dict:
    """Set ``expr`` on every tensor node without a ``label``; return ``{id: expr}``.

    ``nodes`` must be in creation order (an op's inputs before it), as a trace's are;
    ``edges`` are ``(src, dst, arg)``, those to or from a node not in ``nodes`` ignored."""
    by_id = {n["id"]: n for n in nodes}
    inputs: dict = {}
    producer: dict = {}
    for src, dst, arg in edges:
        target = by_id.get(dst)
        if target is None or src not in by_id:
            continue
        if target["kind"] == "op":
            listed = inputs.get(dst)
            if listed is None:
                inputs[dst] = [(arg, src)]
            else:
                listed.append((arg, src))
        else:
            producer[dst] = by_id[src]
    consumers = None  # who takes each tensor in: only a leaf's role needs it, made when first asked
    written_for: dict = {}  # (symbol, op, operands) -> the expression: a loop's ops repeat their names
    names: dict = {}  # id -> (text, precedence); precedence 9: an atom
    written = {}
    for node in nodes:
        if node["kind"] != "tensor":
            continue
        node_id = node["id"]
        label = node.get("label")
        if label:
            names[node_id] = (label, 9)
            continue
        op = producer.get(node_id)
        if node_id in roots and (op is None or node.get("shape") != []):
            text = ("output", 9)
        elif op is None:
            if consumers is None:
                consumers = _consumers(inputs, by_id)
            text = (_leaf_role(node, consumers.get(node_id, ())), 9)
        else:
            text = _expression(op, inputs.get(op["id"], ()), names, written_for)
            if node_id in roots and not any(ch.isalpha() for ch in text[0]):
                text = ("output", 9)  # ``(…)+(…)`` names nothing the cell wrote
        names[node_id] = text
        node["expr"] = written[node_id] = text[0]
    return written


def _consumers(inputs: dict, by_id: dict) -> dict:
    """The op nodes each node is an input of (``inputs``: op id -> its ``(arg, src)``)."""
    consumers: dict = {}
    for op_id, listed in inputs.items():
        op = by_id[op_id]
        for _, src in listed:
            taken_by = consumers.get(src)
            if taken_by is None:
                consumers[src] = [op]
            else:
                taken_by.append(op)
    return consumers


def _leaf_role(node: dict, consumers) -> str:
    value = node.get("value") or {}
    values = value.get("values")
    if node.get("shape") == [] and isinstance(values, list) and len(values) == 1 and not node.get("requires_grad"):
        return _number(values[0])
    if not node.get("requires_grad"):
        return "input"
    if any(c.get("op") in WEIGHT_CONSUMERS for c in consumers):
        return "weight"
    if len(node.get("shape") or ()) == 1 and any(c.get("op", "").startswith(("Addmm", "Add")) for c in consumers):
        return "bias"
    return "param"


def _number(value) -> str:
    key = (value.__class__, value)  # 1 and 1.0 and True are one key to a dict: the type tells them apart
    text = _numbers.get(key)
    if text is None:
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
            text = str(int(value))
        else:
            text = f"{value:.4g}" if isinstance(value, float) else str(value)
        if len(_numbers) < 4096:  # formatting a float costs a microsecond; a loop's constants repeat
            _numbers[key] = text
    return text


_numbers: dict = {}


def _expression(op: dict, tensor_inputs, names: dict, written_for: dict) -> tuple:
    consts = op.get("consts")
    if not consts and len(tensor_inputs) == 1:  # most ops: one tensor in, no constant
        ordered = [names.get(tensor_inputs[0][1], _UNNAMED)]
    elif len(tensor_inputs) == 1 and len(consts) == 1 and "arg" in consts[0]:  # x*2, x + 0.5
        arg, src = tensor_inputs[0]
        const = consts[0]
        ordered = [names.get(src, _UNNAMED)]
        if const["arg"] != arg:
            value = const.get("value")
            constant = (_number(value) if isinstance(value, (int, float)) else "…", 9)
            ordered.insert(const["arg"] > arg, constant)
    else:
        args = {}
        for arg, src in tensor_inputs:
            args[arg] = names.get(src, _UNNAMED)
        for const in consts or ():
            if "arg" not in const:
                continue  # a setting by name (a convolution's stride...): not an operand
            value = const.get("value")
            args.setdefault(const["arg"], (_number(value) if isinstance(value, (int, float)) else "…", 9))
        ordered = [args[k] for k in sorted(args)] if len(args) > 1 else list(args.values())
    key = (op.get("symbol"), op.get("op"), *ordered)
    text = written_for.get(key)
    if text is None:
        text = written_for[key] = _written(op, ordered)
    return text


def _written(op: dict, ordered: list) -> tuple:
    """The expression of ``op`` on its operands' names ``(text, precedence)``, in order."""
    symbol = op.get("symbol") or op.get("op", "op")
    infix = INFIX.get(symbol)
    if infix is not None and len(ordered) == 2:
        operator, precedence = infix
        left = _wrapped(ordered[0], precedence, right=False, operator=operator)
        right = _wrapped(ordered[1], precedence, right=True, operator=operator)
        text = f"{left}{operator}{right}" if precedence > 1 else f"{left} {operator} {right}"
        return _short(text, f"{_atom_or_dots(ordered[0])}{operator}{_atom_or_dots(ordered[1])}"), precedence
    if symbol == "−" and len(ordered) == 1:
        return _short(f"-{_wrapped(ordered[0], 3, False, '-')}", "-(…)"), 3
    if symbol == "ᵀ" and ordered:
        return _short(f"{_wrapped(ordered[0], 9, False, '.')}.T", "(…).T"), 9
    if symbol.startswith("[·]") and ordered:
        return _short(f"{_wrapped(ordered[0], 9, False, '[')}[…]", "(…)[…]"), 9
    function = FUNCTION_NAMES.get(symbol) or (symbol if symbol.isidentifier() else
                                              op.get("op", "op").replace("Backward0", "").lower())
    inner = ", ".join(text for text, _ in ordered)
    return _short(f"{function}({inner})", f"{function}(…)"), 9


_UNNAMED = ("…", 9)


def _wrapped(name: tuple, outer: int, right: bool, operator: str) -> str:
    text, precedence = name
    tight = precedence > outer or (precedence == outer and not (right and operator in "-/@**"))
    return text if tight else f"({text})"


def _atom_or_dots(name: tuple) -> str:
    return name[0] if name[1] == 9 and len(name[0]) <= 8 else "(…)"


def _short(text: str, fallback: str) -> str:
    return text if len(text) <= MAX_LENGTH else fallback
