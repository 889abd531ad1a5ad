"""Differentiable primitives, one ``Op`` class each, grouped by family."""
