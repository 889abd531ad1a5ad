"""Tracing: the engine's observer, turning what happens into a trace document.

``trace`` records ag_jupyter code (``with ag.trace() as tr:``); ``from_torch``
and ``trace_torch`` build the same document from PyTorch graphs (PyTorch is
imported only when they are called); ``trace_graph`` documents an ag_jupyter
graph built before any trace, without running its backward. The document's format is
``trace.schema.json`` (see ``schema.py``).

This layer may import the engine; the engine never imports it.
"""
from .document import VERSION
from .existing import trace_graph
from .torch_import import from_torch
from .torch_trace import trace_torch
from .tracer import trace

__all__ = ["VERSION", "from_torch", "trace", "trace_graph", "trace_torch"]
