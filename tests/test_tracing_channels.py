"""A 4-D (N, C, H, W) tensor's summary carries its first sample's channels as heat maps
(document 1.3): bounded (16 channels of at most 16x16), one scale for all, and the numbers
the engine computed, against PyTorch's convolution."""
from __future__ import annotations

import numpy
import pytest
from test_tracing_summary import decode_preview

import ag_jupyter as ag
from ag_jupyter import nn
from ag_jupyter.tracing import schema
from ag_jupyter.tracing.summary import summarize, to_json


def channel_maps(channels: dict) -> numpy.ndarray:
    """(shown, rows, cols): the stacked heat maps decoded as the front end decodes them."""
    stacked = decode_preview({**channels, "rows": channels["shown"] * channels["rows"]})
    return stacked.reshape(channels["shown"], channels["rows"], channels["cols"])


@pytest.mark.parametrize("shape, shown, side, step", [
    ((2, 3, 6, 6), 3, (6, 6), [1, 1]),  # every channel, every pixel
    ((1, 40, 40, 20), 16, (14, 10), [3, 2]),  # 16 of 40 channels, every third row, every other column
    ((3, 2, 5, 33), 2, (5, 11), [1, 3]),
])
def test_channels_of_sample_0_are_bounded_and_exact_to_the_byte(shape, shown, side, step):
    x = numpy.random.default_rng(0).standard_normal(shape).astype(numpy.float32)
    channels = to_json(summarize(x))["channels"]
    assert (channels["channels"], channels["shown"], channels["step"]) == (shape[1], shown, step)
    assert (channels["rows"], channels["cols"]) == side
    expected = x[0, :16, ::step[0], ::step[1]].astype(numpy.float64)
    assert (channels["lo"], channels["hi"]) == pytest.approx((expected.min(), expected.max()), rel=1e-6)
    quantum = (channels["hi"] - channels["lo"]) / channels["top"]
    numpy.testing.assert_allclose(channel_maps(channels), expected, atol=quantum / 2 + 1e-6)


def test_only_4d_tensors_above_64_elements_get_channels():
    assert "channels" not in to_json(summarize(numpy.zeros((4, 5, 6))))
    assert "channels" not in summarize(numpy.zeros((1, 2, 4, 4)))  # 32 numbers: all kept as values
    assert "channels" not in to_json(summarize(numpy.zeros((0, 3, 8, 8))))


def test_nonfinite_channels_are_coded_as_in_a_preview():
    x = numpy.ones((1, 2, 8, 8))
    x[0, 1, 2, 3], x[0, 0, 0, 0] = numpy.nan, numpy.inf
    maps = channel_maps(to_json(summarize(x))["channels"])
    assert numpy.isnan(maps[1, 2, 3]) and maps[0, 0, 0] == numpy.inf and maps[1, 0, 0] == 1.0


def test_a_traced_conv_step_carries_channel_maps_of_pytorchs_numbers():
    torch = pytest.importorskip("torch")
    ag.manual_seed(0)
    conv = nn.Conv2d(1, 4, kernel_size=3, padding=1)
    images = ag.randn(2, 1, 8, 8)
    with ag.trace() as traced:
        conv(images).relu().sum().backward()
    document = traced.to_dict()
    schema.validate(document)
    assert document["version"] == "1.5"
    expected = torch.nn.functional.conv2d(torch.tensor(images.numpy()), torch.tensor(conv.weight.detach().numpy()),
                                          torch.tensor(conv.bias.detach().numpy()), padding=1)[0].numpy()
    (made,) = [n for n in document["nodes"] if n.get("shape") == [2, 4, 8, 8] and n["kind"] == "tensor"][:1]
    channels = made["value"]["channels"]
    quantum = (channels["hi"] - channels["lo"]) / channels["top"]
    numpy.testing.assert_allclose(channel_maps(channels), expected, atol=quantum / 2 + 1e-5)
    # the conv's constants, for the op box and the step panel
    (op,) = [n for n in document["nodes"] if n.get("op") == "ConvolutionBackward0"]
    assert {c["name"]: c["value"] for c in op["consts"]} == {"kernel_size": "(3, 3)", "stride": "(1, 1)",
                                                              "padding": "(1, 1)"}
