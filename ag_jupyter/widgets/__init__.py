"""The Jupyter view: ``GraphWidget`` draws a trace document and steps through it."""
from .graph_widget import GraphWidget

__all__ = ["GraphWidget"]
