"""Registry cases of issue 30's convolution and pooling (op_registry.py gathers them): ops
over sliding windows, drawn with valid geometry (stride, padding, dilation, groups, ceil_mode)."""
from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st
from registry_tools import Case, distinct, functional, values


def _conv(dims):
    """Input, weight and maybe bias of a convolution with drawn stride, padding, dilation, groups."""
    def draw(data):
        groups = data.draw(st.sampled_from([1, 1, 2]))
        n, per_group, out_per_group = (data.draw(st.integers(1, 2)) for _ in range(3))
        kernel = tuple(data.draw(st.integers(1, 3)) for _ in range(dims))
        dilation = data.draw(st.sampled_from([1, 2]))
        stride = data.draw(st.sampled_from([1, 2]))
        padding = data.draw(st.sampled_from([0, 1] + (["same", "valid"] if stride == 1 else [])))
        size = tuple(dilation * (k - 1) + 1 + data.draw(st.integers(0, 2)) for k in kernel)
        arrays = [data.draw(values((n, groups * per_group) + size)),
                  data.draw(values((groups * out_per_group, per_group) + kernel))]
        if data.draw(st.booleans()):
            arrays.append(data.draw(values((groups * out_per_group,))))
        return arrays, {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    return draw


def _pool(elements=values, dilation=True):
    def draw(data):
        kernel = (data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3)))
        stride = data.draw(st.sampled_from([None, 1, 2, (2, 1)]))
        padding = data.draw(st.sampled_from([0, (k // 2 for k in kernel)]))
        padding = tuple(padding) if not isinstance(padding, int) else padding
        params = {"kernel_size": kernel, "stride": stride, "padding": padding,
                  "ceil_mode": data.draw(st.booleans())}
        if dilation:
            params["dilation"] = data.draw(st.sampled_from([1, (1, 2)]))
        shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 2)),
                 data.draw(st.integers(3, 5)), data.draw(st.integers(3, 6)))
        pads = (padding,) * 2 if isinstance(padding, int) else padding
        dilations = (1, 1) if params.get("dilation", 1) == 1 else params["dilation"]
        assume(all(s + 2 * p >= d * (k - 1) + 1 for s, p, d, k in zip(shape[2:], pads, dilations, kernel)))
        return [data.draw(elements(shape[1:] if data.draw(st.booleans()) else shape))], params
    return draw


def _avg_pool(data):
    arrays, params = _pool(dilation=False)(data)
    params["count_include_pad"] = data.draw(st.booleans())
    params["divisor_override"] = data.draw(st.sampled_from([None, None, 3]))
    return arrays, params


def _adaptive(data):
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 5)), data.draw(st.integers(1, 6)))
    size = data.draw(st.sampled_from([2, (3, None), (None, 1), (4, 5), (2, 3)]))
    return [data.draw(values(shape if data.draw(st.booleans()) else (2,) + shape))], {"output_size": size}


def _unfold(data):
    arrays, params = _pool(dilation=True)(data)
    params.pop("ceil_mode")
    params["stride"] = params["stride"] or 1
    (x,) = arrays
    return [x if x.ndim == 4 else x[None]], params


def _fold(data):
    kernel, stride, padding = (2, data.draw(st.integers(1, 3))), data.draw(st.sampled_from([1, 2])), \
        data.draw(st.sampled_from([0, 1]))
    size = (data.draw(st.integers(2, 4)), data.draw(st.integers(3, 5)))
    blocks = [(s + 2 * padding - k) // stride + 1 for s, k in zip(size, kernel)]
    channels = data.draw(st.integers(1, 2))
    x = data.draw(values((data.draw(st.integers(1, 2)), channels * kernel[0] * kernel[1], blocks[0] * blocks[1])))
    return [x], {"output_size": size, "kernel_size": kernel, "stride": stride, "padding": padding}


def _conv_run(name):
    def run(m, x, w, b=None, **params):
        return getattr(functional(m), name)(x, w, b, **params)
    return run


# A bias of another dtype than the input: PyTorch casts it or refuses it by the kernel it picks
# (string padding, batch size, MKLDNN); the engine always refuses it (design.md, convolution)
MIXED_BIAS_REFUSED = {"mixed_bias_refused": True}

WINDOW_CASES = [
    Case("conv2d", _conv(2), _conv_run("conv2d"), ("Convolution",), extra=MIXED_BIAS_REFUSED),
    Case("conv1d", _conv(1), _conv_run("conv1d"), ("Convolution",), extra=MIXED_BIAS_REFUSED),
    Case("max_pool2d", _pool(distinct), lambda m, x, **p: functional(m).max_pool2d(x, **p), ("MaxPool2d",)),
    Case("max_pool1d", lambda data: ([data.draw(distinct((2, 2, data.draw(st.integers(3, 6)))))],
                                     {"kernel_size": data.draw(st.integers(1, 3)), "stride": 2}),
         lambda m, x, **p: functional(m).max_pool1d(x, **p), ("MaxPool2d",)),
    Case("avg_pool2d", _avg_pool, lambda m, x, **p: functional(m).avg_pool2d(x, **p), ("AvgPool2d",)),
    Case("adaptive_avg_pool2d", _adaptive, lambda m, x, output_size: functional(m).adaptive_avg_pool2d(
        x, output_size), ("AdaptiveAvgPool2d",)),
    Case("im2col", _unfold, lambda m, x, **p: functional(m).unfold(x, **p), ("Im2Col",)),
    Case("col2im", _fold, lambda m, x, **p: functional(m).fold(x, **p), ("Col2Im",)),
]
