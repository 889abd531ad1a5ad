"""The trace document's JSON Schema (``trace.schema.json``) and checks against it.

``validate`` needs the ``jsonschema`` package (a test dependency); ``problems``
checks what a schema cannot say: that ids are unique, that edges and events point
at nodes that exist, and that every node has exactly one create event.
"""
from __future__ import annotations

import json
from pathlib import Path

SCHEMA_PATH = Path(__file__).with_name("trace.schema.json")
_schema: dict | None = None


def load() -> dict:
    """The schema, as a dict."""
    global _schema
    if _schema is None:
        _schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return _schema


def validate(document: dict) -> None:
    """Raise if ``document`` breaks the schema or refers to nodes it does not have."""
    try:
        import jsonschema  # noqa: PLC0415 - optional
    except ImportError as error:
        raise ImportError("validating a trace document needs jsonschema: pip install jsonschema") from error
    jsonschema.Draft202012Validator(load()).validate(document)
    found = problems(document)
    if found:
        raise ValueError("inconsistent trace document: " + "; ".join(found[:10]))


def problems(document: dict) -> list:
    """What is inconsistent in a document that the schema accepts (empty: nothing)."""
    found = []
    ids = [n["id"] for n in document["nodes"]]
    known = set(ids)
    if len(known) != len(ids):
        found.append("node ids are not unique")
    for edge in document["edges"]:
        if edge["src"] not in known or edge["dst"] not in known:
            found.append(f"edge {edge} points at a missing node")
    created: dict = {}
    for index, event in enumerate(document["events"]):
        refs = [event.get("node")] + list(event.get("roots", ()))
        refs += [g["node"] for g in event.get("grad_inputs", ())]
        refs += list(event.get("grad_none", ())) + list(event.get("nodes", ()))
        for ref in refs:
            if ref is not None and ref not in known:
                found.append(f"event {index} ({event['type']}) points at missing node {ref}")
        if event["type"] == "create":
            created[event["node"]] = created.get(event["node"], 0) + 1
    for node_id in ids:
        if created.get(node_id) != 1:
            found.append(f"node {node_id} has {created.get(node_id, 0)} create events, not 1")
    for node in document["nodes"]:
        for saved in node.get("saved", ()):
            if saved["node"] is not None and saved["node"] not in known:
                found.append(f"{node['id']} saved a missing node {saved['node']}")
    last = -1
    for p in document["passes"]:
        if p["first_event"] != last + 1 or p["last_event"] < p["first_event"]:
            found.append(f"pass {p['index']} does not continue where the last ended")
        last = p["last_event"]
    if document["events"] and last != len(document["events"]) - 1:
        found.append("the passes do not cover every event")
    return found
