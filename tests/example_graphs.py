"""The graphs several tests share, built by the engine as a learner's cell builds them."""
import ag_jupyter as ag

# The README's example, as a learner types it in a cell (under %%autograd, or run here).
README_CELL = """\
a = ag.tensor(2.0, requires_grad=True)
b = ag.tensor(-3.0, requires_grad=True)
c = ag.tensor(10.0, requires_grad=True)
d = ag.tensor(4.0, requires_grad=True)
e = a * b + ag.log(d) * c
e.backward()
"""


def readme_example():
    """The README's ``e = a*b + log(d)*c`` (a=2, b=-3, c=10, d=4) traced with its backward:
    ``(trace, {name: tensor})``."""
    names: dict = {}
    with ag.trace() as tr:
        exec(README_CELL, {"ag": ag}, names)  # noqa: S102 - the cell, as a learner runs it
    return tr, names
