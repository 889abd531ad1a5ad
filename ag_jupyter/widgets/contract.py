"""The model contract between ``GraphWidget`` and the front end, read from ``contract.json``.

The JSON file is the one place a widget setting is declared: this module makes the
synced traitlets from it, the JS bundle imports it for its defaults, ``ag.show``
and ``%%autograd`` take the settings it marks ``option``, written pages keep those it
marks ``page``. A new setting is one entry there plus its use.

>>> [t["name"] for t in TRAITS][:3]
['trace', 'step', 'playing']
>>> check_document_version({"version": "1.1"})
>>> check_document_version({"version": "2.0"})
Traceback (most recent call last):
...
ValueError: this is a version 2.0 trace document; this ag_jupyter reads version 1.x: ...
"""
from __future__ import annotations

import json
import math
import pathlib

import traitlets

CONTRACT = json.loads((pathlib.Path(__file__).with_name("contract.json")).read_text(encoding="utf-8"))
TRAITS: list = CONTRACT["traits"]
DEFAULTS: dict = {t["name"]: t["default"] for t in TRAITS}
OPTIONS: tuple = tuple(t["name"] for t in TRAITS if t["option"])
PAGE_TRAITS: tuple = tuple(t["name"] for t in TRAITS if t["page"])
DOCUMENT_MAJOR: int = CONTRACT["document"]["major"]

_MAKERS = {
    "object": lambda d, h: traitlets.Dict(d, help=h),
    "int": lambda d, h: traitlets.Int(d, help=h),
    "number": lambda d, h: traitlets.Float(d, help=h),
    "bool": lambda d, h: traitlets.Bool(d, help=h),
    "str": lambda d, h: traitlets.Unicode(d, help=h),
    "str_list": lambda d, h: traitlets.List(traitlets.Unicode(), d, help=h),
}


def synced_traits() -> dict:
    """``{name: traitlet}`` for every trait of the contract, tagged ``sync=True``."""
    return {t["name"]: _MAKERS[t["type"]](t["default"], t["doc"]).tag(sync=True) for t in TRAITS}


def check_document_version(document: dict) -> None:
    """A document of another major version cannot be drawn right: say so, with what to do."""
    version = str(document.get("version", f"{DOCUMENT_MAJOR}.0"))
    major = version.split(".", 1)[0]
    if major != str(DOCUMENT_MAJOR):
        raise ValueError(f"this is a version {version} trace document; this ag_jupyter reads version "
                         f"{DOCUMENT_MAJOR}.x: make the document again with this ag_jupyter "
                         f"(ag.trace / ag.from_torch), or install the ag_jupyter that wrote it")


def check_option(name: str, value):
    """A view setting's value, normalised (``"tb"`` -> ``"TB"``), or a ValueError that says
    what is allowed. The widget's validators and the magics' options both call this."""
    if name == "direction":
        text = str(value).upper()
        if text not in ("LR", "TB"):
            raise ValueError(f"direction must be LR or TB, not {value!r}")
        return text
    if name == "speed":
        if not (value > 0 and math.isfinite(value)):
            raise ValueError(f"speed is events per second and must be a finite number > 0, "
                             f"not {value!r} (try 4)")
        return value
    if name == "max_nodes":
        if value < 0:
            raise ValueError(f"max_nodes must be >= 0 (0 = no limit), not {value!r}")
        return value
    return value
