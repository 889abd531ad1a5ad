"""Registry cases of issue 30's last names (op_registry.py gathers them): ``F.pad`` in each
mode, adaptive max pooling, multi-head attention and the distributions' ``log_prob`` (composed
of registered ops, here so the GPU test runs them on CuPy too)."""
from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from registry_tools import Case, distinct, functional, values


def _pad(mode):
    def draw(data):
        dims = data.draw(st.integers(1, 3 if mode == "constant" else 2))
        shape = tuple(data.draw(st.integers(2, 4)) for _ in range(dims + data.draw(st.integers(1, 2))))
        pads = []
        for k in range(dims):
            size = shape[-1 - k]
            most = {"reflect": size - 1, "circular": size}.get(mode, 3)
            # PyTorch's circular padding reads uninitialized memory for some crops (negative pads):
            # those are checked by hand in test_padding_against_torch.py
            least = 0 if mode == "circular" else -1
            pads += [data.draw(st.integers(least, most)), data.draw(st.integers(least, most))]
            assume(size + pads[-1] + pads[-2] >= 1)  # an empty result: its errors are tested by hand
        params = {"pad": tuple(pads), "mode": mode}
        if mode == "constant":
            params["value"] = data.draw(st.sampled_from([None, 0.0, 1.5]))
        return [data.draw(values(shape))], params
    return draw


def _run_pad(m, x, pad, mode, value=None):
    return functional(m).pad(x, pad, mode=mode, value=value)


def _adaptive_max(data):
    batch = (data.draw(st.integers(1, 2)),) if data.draw(st.booleans()) else ()
    shape = batch + (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 5)), data.draw(st.integers(1, 6)))
    size = data.draw(st.sampled_from([1, 2, (3, None), (None, 1), (4, 5), (2, 3)]))
    return [data.draw(distinct(shape))], {"output_size": size}


def _attention(data):
    heads = data.draw(st.sampled_from([1, 2]))
    embed = heads * data.draw(st.integers(1, 2))
    target, source, batch = (data.draw(st.integers(1, 3)) for _ in range(3))
    arrays = [data.draw(values((target, batch, embed))), data.draw(values((source, batch, embed))),
              data.draw(values((3 * embed, embed), -1, 1)), data.draw(values((3 * embed,), -1, 1)),
              data.draw(values((embed, embed), -1, 1)), data.draw(values((embed,), -1, 1))]
    mask = data.draw(st.sampled_from(["none", "padding", "causal"]))
    return arrays, {"heads": heads, "mask": mask, "average": data.draw(st.booleans())}


def _run_attention(m, query, key, in_weight, in_bias, out_weight, out_bias, heads, mask, average):
    target, batch, embed = query.shape
    source = key.shape[0]
    keywords = {}
    if mask == "padding" and source > 1:  # the last key of the first sequence is padding
        padding = np.zeros((batch, source), bool)
        padding[0, -1] = True
        keywords["key_padding_mask"] = m.as_tensor(padding)
    if mask == "causal":  # query i sees keys 0..i (and the rest when there are fewer queries)
        keywords["attn_mask"] = m.as_tensor(np.triu(np.ones((target, source), bool), 1 + max(source - target, 0)))
    # the engine's is ag.nn.attention's (nn.functional cannot import it back: attention uses F.linear)
    forward = functional(m).multi_head_attention_forward if getattr(m, "__name__", "") == "torch" else \
        m.nn.attention.multi_head_attention_forward
    output, weights = forward(
        query, key, key * 2, embed, heads, in_weight, in_bias, None, None, False, 0.0, out_weight, out_bias,
        training=False, average_attn_weights=average, **keywords)
    return output.sum(-1, keepdim=True) * 0.5 + weights.sum(-1).reshape(output.shape[1], -1, 1).mean()


def _categories(data):
    rows, count = data.draw(st.integers(1, 3)), data.draw(st.integers(2, 4))
    index = data.draw(st.lists(st.integers(0, count - 1), min_size=rows, max_size=rows))
    return [data.draw(values((rows, count)))], {"index": np.array(index)}


def _run_categorical(m, logits, index):
    return m.distributions.Categorical(logits=logits).log_prob(m.as_tensor(index)) + \
        m.distributions.Categorical(probs=logits.exp()).entropy()


def _run_multinomial(m, logits, index):
    counts = np.zeros(tuple(logits.shape))
    counts[np.arange(len(index)), index] = 2.0
    return m.distributions.Multinomial(2, logits=logits).log_prob(m.as_tensor(counts))


ROUND2_CASES = [
    Case("pad_constant", _pad("constant"), _run_pad, ("Pad",)),
    Case("pad_reflect", _pad("reflect"), _run_pad, ("Pad",)),
    Case("pad_replicate", _pad("replicate"), _run_pad, ("Pad",)),
    # PyTorch composes circular padding (its last node CopySlices); the engine draws one node
    Case("pad_circular", _pad("circular"), _run_pad, ("Pad",), extra={"own_node_names": True}),
    Case("adaptive_max_pool2d", _adaptive_max, lambda m, x, output_size: functional(m).adaptive_max_pool2d(
        x, output_size), ("AdaptiveMaxPool2d",)),
    Case("multi_head_attention", _attention, _run_attention, (), extra={"own_node_names": True}),
    Case("categorical_log_prob_entropy", _categories, _run_categorical, ()),
    Case("multinomial_log_prob", _categories, _run_multinomial, ()),
]
