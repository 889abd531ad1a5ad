"""The Jupyter view: ``GraphWidget`` draws a trace document and steps through it;
``show`` makes one for a trace, a document or a tensor; ``static_svg`` is its
picture for places where no widget runs. Imports anywidget (so ``ag_jupyter``
imports this package only on request)."""
from .graph_widget import GraphWidget
from .show import show
from .static_svg import static_svg

__all__ = ["GraphWidget", "show", "static_svg"]
