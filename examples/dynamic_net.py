"""DynamicNet: a different graph on every forward pass, with one layer shared.

The PyTorch tutorials' example of define-by-run: ``forward`` runs the middle
layer a random number of times (0 to 3), reusing the same weights each time, so
its gradient is the sum over every use, and a step that used it zero times leaves
its ``.grad`` at ``None``. After training, the weights go to one ``.npz`` file with
``ag.save`` and come back with ``ag.load`` into a model with a different forward:
a state_dict holds weights, not code.

    python examples/dynamic_net.py
    python examples/dynamic_net.py --steps 200 --save /tmp/dynamic_net.npz
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile

if __package__ in (None, ""):  # run as a script from a checkout: make ag_jupyter importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ag_jupyter as ag  # noqa: E402
from ag_jupyter import nn  # noqa: E402


class DynamicNet(nn.Module):
    def __init__(self, d_in: int, hidden: int, d_out: int) -> None:
        super().__init__()
        self.input_linear = nn.Linear(d_in, hidden)
        self.middle_linear = nn.Linear(hidden, hidden)
        self.output_linear = nn.Linear(hidden, d_out)
        self.last_repeats = 0

    def forward(self, x, repeats: int | None = None):
        """``repeats`` fixes how often the middle layer runs; by default it is random, 0..3."""
        h = self.input_linear(x).clamp(min=0)
        self.last_repeats = random.randint(0, 3) if repeats is None else repeats
        for _ in range(self.last_repeats):
            h = self.middle_linear(h).clamp(min=0)
        return self.output_linear(h)


class TwoMiddleNet(nn.Module):
    """The same layers under the same names, but a fixed forward: the middle layer twice,
    and a ReLU module instead of clamp. It can load DynamicNet's state_dict."""

    def __init__(self, d_in: int, hidden: int, d_out: int) -> None:
        super().__init__()
        self.input_linear = nn.Linear(d_in, hidden)
        self.middle_linear = nn.Linear(hidden, hidden)
        self.output_linear = nn.Linear(hidden, d_out)
        self.relu = nn.ReLU()

    def forward(self, x):
        h = self.relu(self.input_linear(x))
        h = self.relu(self.middle_linear(h))
        h = self.relu(self.middle_linear(h))
        return self.output_linear(h)


def train(steps: int = 500, n: int = 64, d_in: int = 1000, hidden: int = 100, d_out: int = 10,
          lr: float = 1e-4, seed: int = 0, report_every: int = 100) -> tuple:
    """The tutorial's loop: random data, summed squared error, SGD with momentum.
    Returns the model, the data, the loss of every step, and for each step that skipped
    the middle layer whether its weight's grad was None (it always is)."""
    ag.manual_seed(seed)
    random.seed(seed)
    x, y = ag.randn(n, d_in), ag.randn(n, d_out)
    model = DynamicNet(d_in, hidden, d_out)
    criterion = nn.MSELoss(reduction="sum")
    optimizer = ag.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    losses, unused = [], []
    for t in range(steps):
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        if model.last_repeats == 0:
            # An unused branch gets no gradient at all: None, not zeros.
            unused.append(model.middle_linear.weight.grad is None)
        optimizer.step()
        losses.append(loss.item())
        if report_every and (t % report_every == report_every - 1 or t == 0):
            print(f"step {t + 1:4d}  loss {losses[-1]:12.4f}  (middle layer used {model.last_repeats}x)")
    return model, x, y, losses, unused


def round_trip(model: DynamicNet, x, path: str) -> float:
    """Save the weights, load them into a TwoMiddleNet, and return the largest difference
    between its output and DynamicNet's with the middle layer used twice (0.0 expected)."""
    ag.save(model.state_dict(), path)
    restored = TwoMiddleNet(model.input_linear.in_features, model.middle_linear.in_features,
                            model.output_linear.out_features)
    print(restored.load_state_dict(ag.load(path)))
    with ag.no_grad():
        return (restored(x) - model(x, repeats=2)).abs().max().item()


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description="Train the tutorials' DynamicNet with ag_jupyter.")
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="where to write the weights (.npz); "
                        "default: a temporary file")
    args = parser.parse_args(argv)
    model, x, _, losses, unused = train(args.steps, seed=args.seed)
    print(f"loss: {losses[0]:.2f} at the first step, {losses[-1]:.2f} at the last")
    print(f"the middle layer was skipped in {len(unused)} steps; its weight.grad was None after "
          f"{sum(unused)} of them")
    if args.save is not None:
        difference = round_trip(model, x, args.save)
        print(f"weights saved to {args.save}")
    else:
        with tempfile.TemporaryDirectory() as folder:
            difference = round_trip(model, x, os.path.join(folder, "dynamic_net.npz"))
    print(f"TwoMiddleNet with the loaded weights matches DynamicNet(repeats=2): "
          f"largest difference {difference:.3g}")
    return {"model": model, "losses": losses, "unused_grad_none": unused, "difference": difference}


if __name__ == "__main__":
    main()
