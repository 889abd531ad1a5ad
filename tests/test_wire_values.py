"""The widget sends small float summaries' entries as binary parts (widgets/wire_values.py):
``unpacked(packed(doc))`` is the document, the same numbers bit for bit, and ``doc`` itself
is left as it was."""
import json
import math
from array import array

import ag_jupyter as ag
from ag_jupyter import nn
from ag_jupyter.widgets.wire_values import packed, unpacked


def _document() -> dict:
    """A traced MLP step with momentum SGD (update events), then float64, NaN, inf and
    integer tensors."""
    ag.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    optimizer = ag.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    with ag.trace() as tr:
        for _ in range(2):
            optimizer.zero_grad()
            loss = model(ag.randn(5, 3)).pow(2).mean()
            loss.backward()
            optimizer.step()
        z = ag.tensor([1.0, float("nan"), 2.0], dtype=ag.float64, requires_grad=True)
        (z * z).sum().backward()
        w = ag.tensor([1.0, float("inf")], requires_grad=True)
        (w * 3).sum().backward()
        v = ag.tensor([1.0, 2.0], dtype=ag.float64, requires_grad=True)
        (v.exp() * ag.tensor([1, 2, 3])[:2]).sum().backward()
    return tr.to_dict()


def _sent(document: dict) -> tuple[dict, dict]:
    """The packed document as JSON text read back, and its binary parts."""
    wire = packed(document)
    parts = {name: wire.pop(name) for name in ("values32", "values64") if name in wire}
    return json.loads(json.dumps(wire, allow_nan=False)), parts


def test_the_document_comes_back_number_for_number():
    document = _document()
    before = json.dumps(document)
    wire, parts = _sent(document)
    assert set(parts) == {"values32", "values64"} and wire["wire"] == 2
    steps = [e for e in wire["events"] if isinstance(e, dict) and e["type"] == "backward_step"]
    assert steps and not any("formula" in e for e in steps)  # each its node's: put back from the node
    assert json.dumps(unpacked(wire, parts), sort_keys=True) == json.dumps(json.loads(before), sort_keys=True)
    assert json.dumps(document) == before  # packing copies what it changes


def test_an_empty_tensor_comes_back_with_its_empty_values():
    """A float64 tensor with no entries, the only float64 summary: there is no float64 entry
    to send, so no values64 part, and its summary must not be read back as one whose binary
    parts were dropped (shape, no values)."""
    with ag.trace() as tr:
        empty = ag.zeros(0, dtype=ag.float64, requires_grad=True) * 2
        (ag.tensor([1.0, 2.0], requires_grad=True) * 3).sum().backward()
    document = tr.to_dict()
    wire, parts = _sent(document)
    assert wire["wire"] == 2 and "values64" not in parts
    assert json.dumps(unpacked(wire, parts), sort_keys=True) == json.dumps(document, sort_keys=True)
    values = [n["value"] for n in unpacked(wire, parts)["nodes"] if n.get("shape") == [0]]
    assert [v["values"] for v in values] == [[], []] and empty.shape == (0,)


def test_repeated_structure_travels_once():
    """Lines and op formulas as indices into tables of each once, create events as their
    node's id, no event's pass (its pass's range says it), edges as triples."""
    document = _document()
    wire, _ = _sent(document)
    assert all(isinstance(n["line"], int) for n in wire["nodes"] if "line" in n)
    lines = [item["line"] for item in document["nodes"] + document["events"] if item.get("line")]
    assert len(wire["lines"]) == len({json.dumps(line, sort_keys=True) for line in lines}) < len(lines)
    ops = [n for n in wire["nodes"] if n["kind"] == "op"]
    assert all(isinstance(n["formula"], int) for n in ops)
    assert len(wire["formulas"]) == len({n["formula"] for n in document["nodes"] if n["kind"] == "op"}) < len(ops)
    creates = [e for e in wire["events"] if isinstance(e, str)]
    assert len(creates) == sum(1 for e in document["events"] if e["type"] == "create")
    assert not any("pass" in e for e in wire["events"] if isinstance(e, dict))
    assert wire["edges"] == [[e["src"], e["dst"], e["arg"]] for e in document["edges"]]


def test_events_keep_a_pass_the_passes_do_not_give():
    document = _document()
    document["events"][3]["pass"] = 7  # not what its pass's range says
    wire, parts = _sent(document)
    assert all(isinstance(e, dict) and "pass" in e for e in wire["events"])
    assert unpacked(wire, parts)["events"] == json.loads(json.dumps(document["events"]))


def test_float_entries_travel_as_binary_and_a_shared_summary_once():
    document = _document()
    wire, parts = _sent(document)
    text = json.dumps(wire)
    assert '"values": [' in text  # what stays JSON: the integer tensor, the NaN and inf summaries
    for summary in _small_summaries(wire):
        assert summary.get("dtype") not in ("float32", "float64") or summary["nan"] or summary["inf"], summary
    distinct = {id(s): s for s in _small_summaries(document)
                if s["dtype"] == "float32" and not s["nan"] and not s["inf"]}
    assert len(parts["values32"]) == 4 * sum(len(s["values"]) for s in distinct.values())
    assert len(distinct) < len([s for s in _small_summaries(document) if s["dtype"] == "float32"])  # shared ones


def test_float32_entries_are_the_float32_bits():
    wire, parts = _sent(_document())
    entries = array("f", parts["values32"]).tolist()
    assert entries and all(math.isfinite(e) for e in entries)
    plain = unpacked(wire, parts)
    for summary in _small_summaries(plain):
        if summary["dtype"] == "float32":
            assert all(v == float(array("f", [v])[0]) for v in summary["values"] if isinstance(v, float))


def test_a_plain_document_is_left_as_it_is():
    document = json.loads(json.dumps(_document()))
    assert unpacked(document, {}) is document
    assert "wire" not in document


def _small_summaries(document: dict):
    for node in document["nodes"]:
        for key in ("value", "grad"):
            if isinstance(node.get(key), dict) and "values" in node[key]:
                yield node[key]
    for event in document["events"]:
        if isinstance(event, str):  # a create event in the wire form: its node's id
            continue
        found = [event.get("grad_output"), event.get("grad")]  # grad: an accumulate event's
        found += [g.get(k) for g in event.get("grad_inputs", ()) for k in ("grad", "total")]
        found += list((event.get("values") or {}).values()) if event["type"] == "update" else []
        yield from (s for s in found if isinstance(s, dict) and "values" in s)


def test_a_summary_whose_values_do_not_fill_its_shape_and_a_document_of_another_form_go_as_json():
    odd = {"shape": [3], "dtype": "float32", "values": [1.0, 2.0], "nan": 0, "inf": 0}
    document = {"nodes": [{"id": "t0", "kind": "tensor", "value": odd}], "events": [], "edges": []}
    wire = packed(document)
    assert wire["nodes"][0]["value"] is odd and "values32" not in wire
    other = {"nodes": [{"label": "no id"}]}  # the widget shows what it can of any dict of lists
    assert packed(other) is other


def test_a_state_whose_binary_parts_were_dropped_keeps_shapes_and_shows_no_number():
    document = _document()
    wire, parts = _sent(document)
    plain = unpacked(wire, {"values64": parts["values64"]})  # values32 lost on the way
    float32 = [s for s in _small_summaries(plain) if s["dtype"] == "float32"]
    assert float32 and all("values" not in s or s["nan"] or s["inf"] for s in float32)
    assert any("values" in s for s in _small_summaries(plain) if s["dtype"] == "float64")
