"""``jupyter nbconvert --to ag_html``: a notebook's HTML export whose graphs step offline.

Registered through the ``nbconvert.exporters`` entry point, which also lists it in
JupyterLab's File → Save and Export Notebook As menu. See ``exporter.py``.
"""
from .exporter import SteppableHTMLExporter

__all__ = ["SteppableHTMLExporter"]
