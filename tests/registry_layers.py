"""Registry cases of issue 30's layers, activations and losses (op_registry.py gathers them)."""
from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from registry_tools import (
    Case,
    _accepts_degenerate,
    away_from,
    degenerate_shapes,
    functional,
    nonzero,
    small_shapes,
    unary,
    values,
)

LAYER_CASES: list = []

# ----- issue 30: the layers, activations and losses a course uses ------------------------

def _with_settings(elements=values, **choices):
    """A unary draw plus one value drawn for each named setting."""
    def draw(data, degenerate=False):
        shape = data.draw(degenerate_shapes if degenerate else small_shapes)
        return [data.draw(elements(shape))], {k: data.draw(st.sampled_from(v)) for k, v in choices.items()}
    return _accepts_degenerate(draw)


def _pair_of_losses(first=values, second=values, kink=None):
    """An input and a target of one shape, a reduction, and no difference within 0.05 of
    ``kink`` (where smooth L1 and Huber switch branches)."""
    def draw(data):
        shape = data.draw(small_shapes)
        a, t = data.draw(first(shape)), data.draw(second(shape))
        assume(kink is None or not np.any(np.abs(np.abs(a - t) - kink) < 0.05))
        return [a, t], {"reduction": data.draw(st.sampled_from(["mean", "sum", "none"]))}
    return draw


def _probabilities(shape):
    return values(shape, 0.05, 0.95)


def _unit(shape):
    return values(shape, 0.0, 1.0)


LAYER_CASES += [
    Case("gelu", _with_settings(approximate=["none", "tanh"]),
         lambda m, a, approximate: functional(m).gelu(a, approximate=approximate), ("Gelu", "GeluBackward")),
    Case("leaky_relu", _with_settings(nonzero, negative_slope=[0.01, 0.2]),
         lambda m, a, negative_slope: functional(m).leaky_relu(a, negative_slope), ("LeakyRelu",)),
    Case("silu", unary(lambda s: values(s, -6, 6)), lambda m, a: functional(m).silu(a), ("Silu",)),
    Case("elu", _with_settings(nonzero, alpha=[1.0, 0.5]), lambda m, a, alpha: functional(m).elu(a, alpha),
         ("Elu",)),
    Case("softplus", _with_settings(lambda s: away_from(s, [1.5, 3.0], 0.1), beta=[1.0, 2.0]),  # kinks: 3 / beta
         lambda m, a, beta: functional(m).softplus(a, beta, 3.0), ("Softplus",)),
    Case("binary_cross_entropy", _pair_of_losses(_probabilities, _unit),
         lambda m, p, t, reduction: functional(m).binary_cross_entropy(p, t, reduction=reduction),
         ("BinaryCrossEntropy",)),
    Case("binary_cross_entropy_with_logits", _pair_of_losses(second=_unit),
         lambda m, x, t, reduction: functional(m).binary_cross_entropy_with_logits(x, t, reduction=reduction),
         ("BinaryCrossEntropyWithLogits",)),
    Case("smooth_l1_loss", _pair_of_losses(kink=0.5),
         lambda m, a, t, reduction: functional(m).smooth_l1_loss(a, t, reduction=reduction, beta=0.5),
         ("SmoothL1Loss",)),
    Case("huber_loss", _pair_of_losses(kink=0.7),
         lambda m, a, t, reduction: functional(m).huber_loss(a, t, reduction=reduction, delta=0.7),
         ("HuberLoss",)),
]


def _spread_out(arrays, dims):
    """No group standardized over is nearly constant (its 1/std would swamp the differences)."""
    assume(np.all(np.var(arrays, axis=dims) > 0.1))
    return arrays


def _batch_norm(data):
    n, c = data.draw(st.integers(2, 4)), data.draw(st.integers(1, 3))
    shape = data.draw(st.sampled_from([(n, c), (n, c, 2)]))
    x = _spread_out(data.draw(values(shape)), (0,) + tuple(range(2, len(shape))))
    return [x, data.draw(values((c,))), data.draw(values((c,)))], {
        "training": data.draw(st.booleans()), "mean": data.draw(values((c,))),
        "var": data.draw(values((c,), 0.2, 3.0))}


def _run_batch_norm(m, x, w, b, training, mean, var):
    stats = (None, None) if training else (m.as_tensor(mean), m.as_tensor(var))
    if m.__name__ == "torch" and w is not None:
        # PyTorch 2.13's CPU backward reads a strided weight as if contiguous: the input's
        # gradient of channel 1 used the holder's [0, 1] (0), not w[1] (a wrong oracle)
        w = w.contiguous()
    return functional(m).batch_norm(x, *stats, w, b, training=training)


def _layer_norm(data):
    lead = data.draw(st.sampled_from([(), (2,), (2, 2)]))
    normalized = data.draw(st.sampled_from([(3,), (2, 2)]))
    x = _spread_out(data.draw(values(lead + normalized)), tuple(range(len(lead), len(lead) + len(normalized))))
    return [x, data.draw(values(normalized)), data.draw(values(normalized))], {"normalized_shape": normalized}


LAYER_CASES += [
    Case("batch_norm", _batch_norm, _run_batch_norm, ("NativeBatchNorm",), tolerance=1e-4),
    Case("layer_norm", _layer_norm, lambda m, x, w, b, normalized_shape: functional(m).layer_norm(
        x, normalized_shape, w, b), ("NativeLayerNorm",), tolerance=1e-4),
]


def _embedding(data):
    rows, width = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 3))
    shape = data.draw(st.sampled_from([(3,), (2, 2)]))
    # the padding row's gradient is 0 by definition, which differences cannot see: when
    # there is one (the last row), no index picks it (tests/test_nn_layers_against_torch.py does)
    padding = data.draw(st.sampled_from([None, -1])) if rows > 1 else None
    top = rows - 1 if padding is None else rows - 2
    indices = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(0, top)))
    return [data.draw(values((rows, width)))], {"indices": indices, "padding_idx": padding}


LAYER_CASES += [
    Case("embedding", _embedding, lambda m, w, indices, padding_idx: functional(m).embedding(
        m.as_tensor(indices), w, padding_idx), ("Embedding",)),
]


def _in_place(name: str, **settings):
    """``F.NAME(a * 1, inplace=True)``: written into a non-leaf, as a model's activation is."""
    def run(m, a, **drawn):
        return getattr(functional(m), name)(a * 1, inplace=True, **settings, **drawn)
    return run


LAYER_CASES += [
    Case("leaky_relu_", _with_settings(nonzero, negative_slope=[0.01, 0.2]), _in_place("leaky_relu"),
         ("LeakyReluInPlace",)),
    Case("elu_", _with_settings(nonzero, alpha=[1.0, 0.5]), _in_place("elu"), ("EluInPlace",)),
]


def _logits_with_weights(data):
    n, c = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    return [data.draw(values((n, c))), data.draw(values((n, c), 0.0, 1.0))], {
        "reduction": data.draw(st.sampled_from(["mean", "sum", "none"])), "weight": data.draw(values((c,), 0.2, 2.0)),
        "pos_weight": data.draw(values((c,), 0.2, 3.0))}


LAYER_CASES += [
    Case("binary_cross_entropy_with_logits_weighted", _logits_with_weights,
         lambda m, x, t, reduction, weight, pos_weight: functional(m).binary_cross_entropy_with_logits(
             x, t, weight=m.as_tensor(weight).to(t.dtype), pos_weight=m.as_tensor(pos_weight).to(t.dtype),
             reduction=reduction),
         ("BinaryCrossEntropyWithLogits",)),
]
