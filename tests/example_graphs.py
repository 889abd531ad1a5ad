"""The graphs several tests share, built by the engine as a learner's cell builds them."""
import ag_jupyter as ag


def readme_example():
    """The README's ``e = a*b + log(d)*c`` (a=2, b=-3, c=10, d=4) traced with its backward:
    ``(trace, {name: tensor})``."""
    with ag.trace() as tr:
        a = ag.tensor(2.0, requires_grad=True)
        b = ag.tensor(-3.0, requires_grad=True)
        c = ag.tensor(10.0, requires_grad=True)
        d = ag.tensor(4.0, requires_grad=True)
        e = a * b + ag.log(d) * c
        e.backward()
    return tr, dict(a=a, b=b, c=c, d=d, e=e)
