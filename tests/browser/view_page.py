"""The built widget on js/bench/view.html (a fake anywidget model, no JupyterLab)."""
import json


def open_view(page, site, fixture, step=0, theme="light", **model):
    """``fixture``: a fixture's name, or a path under the repository root (a document a test wrote)."""
    source = f"doc=../../{fixture}" if fixture.endswith(".json") else f"fixture={fixture}"
    query = f"?{source}&step={step}&theme={theme}&model={json.dumps(model)}"
    page.goto(site + query)
    page.wait_for_function("window.viewReady === true", timeout=30_000)
    page.wait_for_selector(".ag-graph g.ag-node", state="attached")


def counter(page):
    return page.text_content(".ag-step-counter")


def ignore_favicon(errors):
    return [e for e in errors if "Failed to load resource" not in e]


def open_document(page, site, doc, name, step=0, theme="light", **model):
    """Write trace document ``doc`` under test-artifacts/docs/ and open it in the view."""
    from conftest import ARTIFACTS, ROOT

    path = ARTIFACTS / "docs" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    open_view(page, site, str(path.relative_to(ROOT)), step=step, theme=theme, **model)
