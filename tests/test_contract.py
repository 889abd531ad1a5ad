"""The Python side of the widget's model contract comes from contract.json (the file
the front end imports too): a setting added there is a trait, a show() option and a
page setting where it says so, and nowhere else needs a copy."""
import json
from pathlib import Path

import pytest

anywidget = pytest.importorskip("anywidget")
import traitlets  # noqa: E402

import ag_jupyter as ag  # noqa: E402
from ag_jupyter.widgets import GraphWidget, contract, page  # noqa: E402
from ag_jupyter.widgets.show import VIEW_OPTIONS  # noqa: E402

CONTRACT = json.loads((Path(contract.__file__).with_name("contract.json")).read_text())


def test_the_synced_traits_are_the_contracts():
    synced = set(GraphWidget.class_traits(sync=True)) - set(anywidget.AnyWidget.class_traits(sync=True))
    assert synced == {t["name"] for t in CONTRACT["traits"]}
    widget = GraphWidget()
    for t in CONTRACT["traits"]:
        assert getattr(widget, t["name"]) == t["default"], t["name"]
        assert GraphWidget.class_traits()[t["name"]].help == t["doc"]


def test_show_options_and_page_settings_are_the_ones_the_contract_marks():
    assert VIEW_OPTIONS == tuple(t["name"] for t in CONTRACT["traits"] if t["option"])
    assert page.VIEW_TRAITS == tuple(t["name"] for t in CONTRACT["traits"] if t["page"])
    with pytest.raises(TypeError, match="the options are speed, direction"):
        ag.show(ag.tensor(1.0, requires_grad=True) * 2, colour="red")


def test_a_document_of_another_major_version_is_refused_with_what_to_do():
    with ag.trace() as tr:
        (ag.tensor(1.0, requires_grad=True) * 2).backward()
    doc = tr.to_dict()
    assert doc["version"].split(".")[0] == str(CONTRACT["document"]["major"])
    GraphWidget(trace=doc)  # this version draws
    doc = {**doc, "version": "2.0"}  # a copy: the document the trace built stays valid
    with pytest.raises(traitlets.TraitError, match="version 2.0 trace document; this ag_jupyter reads version 1.x"):
        GraphWidget(trace=doc)
    with pytest.raises(traitlets.TraitError, match="make the document again"):
        ag.show(doc)


def test_one_rule_per_option_for_the_widget_and_the_magics():
    widget = GraphWidget()
    for name, bad in (("direction", "XY"), ("speed", float("inf")), ("max_nodes", -1)):
        with pytest.raises(traitlets.TraitError) as raised:
            setattr(widget, name, bad)
        with pytest.raises(ValueError) as direct:
            contract.check_option(name, bad)
        assert str(raised.value) == str(direct.value)
