"""The README example as a learner writes it in marimo (no magics): ag.show(tr, names=globals())."""
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import ag_jupyter as ag
    return ag, mo


@app.cell
def _(ag):
    with ag.trace() as tr:
        a = ag.tensor(2.0, requires_grad=True)
        b = ag.tensor(-3.0, requires_grad=True)
        c = ag.tensor(10.0, requires_grad=True)
        d = ag.tensor(4.0, requires_grad=True)
        e = a * b + ag.log(d) * c
        e.backward()
    return a, b, c, d, e, tr


@app.cell
def _(ag, mo, tr):
    graph = mo.ui.anywidget(ag.show(tr, names=globals()))
    graph  # noqa: B018 - a marimo cell shows its last expression
    return (graph,)


if __name__ == "__main__":
    app.run()
