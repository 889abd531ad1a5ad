"""A training loop as a learner pastes it (``import torch``, a schedule, clipping, the
curve fit of 0-d parameters that the examples use), run on the engine with ``ag.as_torch()``
and under PyTorch: the same printed numbers, to float32 tolerance."""
import contextlib
import io
import re

import pytest

import ag_jupyter as ag

pytest.importorskip("torch")

# stands in for "Learning PyTorch with Examples" (the polynomial of 0-d parameters, its
# SGD with momentum) and the "Optimizing Model Parameters" step of "Learn the Basics"
# (zero_grad, backward, step), with a learning-rate schedule and clipping added
PROGRAM = '''
import math
import torch
from torch.optim.lr_scheduler import {schedule}

x = torch.linspace(-math.pi, math.pi, 200, dtype=torch.{dtype})
y = torch.sin(x)
a, b, c, d = (torch.nn.Parameter(torch.tensor(v, dtype=torch.{dtype})) for v in (0.1, 0.2, -0.1, 0.05))
optimizer = torch.optim.{optimizer}([a, b, c, d], {optimizer_args})
scheduler = {schedule}(optimizer, {schedule_args})
for t in range(60):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_([a, b, c, d], max_norm=5.0)
    optimizer.step()
    scheduler.step()
    if t % 10 == 9:
        print(t, loss.item(), norm.item(), scheduler.get_last_lr()[0])
print(f"y = {{a.item()}} + {{b.item()}} x + {{c.item()}} x^2 + {{d.item()}} x^3")
'''

RUNS = [
    dict(optimizer="SGD", optimizer_args="lr=1e-3, momentum=0.9", schedule="StepLR",
         schedule_args="step_size=20, gamma=0.5"),
    dict(optimizer="RMSprop", optimizer_args="lr=1e-2, momentum=0.5", schedule="OneCycleLR",
         schedule_args="max_lr=0.05, total_steps=60"),
    dict(optimizer="AdamW", optimizer_args="lr=0.05", schedule="CosineAnnealingLR", schedule_args="T_max=60"),
    dict(optimizer="Adagrad", optimizer_args="lr=0.2", schedule="ExponentialLR", schedule_args="gamma=0.98"),
]


def printed(source: str) -> list[float]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source, {})
    return [float(n) for n in re.findall(r"-?\d+\.?\d*(?:e-?\d+)?", out.getvalue())]


# float64 holds the arithmetic to 1e-9; in float32 the two libraries' sums round apart by
# an ulp and 60 steps of a clipped, momentum-driven fit grow that to ~1e-3 (RMSprop)
TOLERANCE = {"float64": dict(rel=1e-9, abs=1e-12), "float32": dict(rel=5e-3, abs=1e-5)}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("run", RUNS, ids=lambda run: run["optimizer"])
def test_the_loop_prints_pytorchs_numbers_on_the_engine(run, dtype):
    source = PROGRAM.format(**run, dtype=dtype)
    theirs = printed(source)
    with ag.as_torch():
        ours = printed(source)
    assert len(ours) == len(theirs) > 20
    assert ours == pytest.approx(theirs, **TOLERANCE[dtype])
    assert ours[-4:] != [0.1, 0.2, -0.1, 0.05]  # the parameters moved
