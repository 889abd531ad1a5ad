"""``MultiheadAttention`` and ``F.multi_head_attention_forward``, composed of the engine's ops as
PyTorch's own Python composes them (one projection into queries, keys and values, scaled
``bmm``, ``softmax``, ``bmm``, the output projection), so the graph draws every step and backward
needs nothing of its own. Parameter names are PyTorch's (``in_proj_weight``, ``in_proj_bias``,
``out_proj.weight``, ``out_proj.bias``), so a PyTorch state dict loads as it is."""
from __future__ import annotations

import math

from .. import creation
from ..ops.activation import softmax
from ..ops.linalg import baddbmm, bmm
from ..tensor import Tensor
from . import functional as F
from . import init
from .linear import Linear
from .module import Module
from .parameter import Parameter


class NonDynamicallyQuantizableLinear(Linear):
    """PyTorch's name for the output projection (a ``Linear``), kept so repr and state dicts match."""


def _float_mask(mask: Tensor | None, name: str, dtype) -> Tensor | None:
    """A boolean mask (True: may not attend) as 0 / -inf in ``dtype``; a float mask as it is."""
    if mask is None:
        return None
    kind = mask._data.dtype.kind
    if kind == "b":
        return creation.zeros(tuple(mask.shape), dtype=dtype, device=mask.device).masked_fill(mask, -math.inf)
    if kind != "f":
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask


def _projections(query, key, value, weight, bias):
    """Queries, keys and values: one product for self-attention (``query is key is value``), as PyTorch."""
    if query is key and key is value:
        return F.linear(query, weight, bias).chunk(3, dim=-1)
    weights = weight.chunk(3)
    biases = bias.chunk(3) if bias is not None else (None,) * 3
    return tuple(F.linear(x, w, b) for x, w, b in zip((query, key, value), weights, biases))


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    """True for a batch ((L, N, E) inputs), False for one sequence ((L, E)), in PyTorch's words."""
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise AssertionError(f"For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise AssertionError(f"For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.ndim}-D tensor instead")
        if attn_mask is not None and attn_mask.ndim not in (2, 3):
            raise AssertionError(f"For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.ndim}-D tensor instead")
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                                 f"but found {key_padding_mask.ndim}-D tensor instead")
        if attn_mask is not None and attn_mask.ndim == 3 and attn_mask.shape[0] != num_heads:
            raise AssertionError(f"Expected `attn_mask` shape to be {(num_heads, query.shape[0], key.shape[0])} "
                                 f"but got {tuple(attn_mask.shape)}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.ndim}-D query tensor")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Attention over (L, N, E) inputs (or (L, E)): ``(output, weights)``; weights (N, L, S),
    (N, heads, L, S) with ``average_attn_weights=False``, or None without ``need_weights``."""
    if bias_k is not None or bias_v is not None or add_zero_attn or use_separate_proj_weight or \
            static_k is not None or static_v is not None:
        raise NotImplementedError("multi_head_attention_forward: add_bias_kv, add_zero_attn, separate key/value "
                                  "sizes (kdim, vdim) and static keys are not implemented in ag_jupyter")
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        same_kv, same_qk = key is value, query is key
        query = query.unsqueeze(1)
        key = query if same_qk else key.unsqueeze(1)
        value = key if same_kv else value.unsqueeze(1)
        key_padding_mask = key_padding_mask.unsqueeze(0) if key_padding_mask is not None else None
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    head_dim = embed_dim // num_heads
    key_padding_mask = _float_mask(key_padding_mask, "key_padding_mask", query.dtype)
    attn_mask = _float_mask(attn_mask, "attn_mask", query.dtype)
    if attn_mask is not None:
        expected = (tgt_len, src_len) if attn_mask.ndim == 2 else (bsz * num_heads, tgt_len, src_len)
        if tuple(attn_mask.shape) != expected:
            raise RuntimeError(f"The shape of the {attn_mask.ndim}D attn_mask is {tuple(attn_mask.shape)}, but "
                               f"should be {expected}.")
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.ndim == 2 else attn_mask
    q, k, v = _projections(query, key, value, in_proj_weight, in_proj_bias)
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.reshape(src_len, bsz * num_heads, head_dim).transpose(0, 1)
    v = v.reshape(src_len, bsz * num_heads, head_dim).transpose(0, 1)
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                                 f"{tuple(key_padding_mask.shape)}")
        padding = key_padding_mask.reshape(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
        padding = padding.reshape(bsz * num_heads, 1, src_len)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    scaled = q * math.sqrt(1.0 / float(head_dim))
    scores = bmm(scaled, k.transpose(-2, -1)) if attn_mask is None else \
        baddbmm(attn_mask, scaled, k.transpose(-2, -1))
    weights = softmax(scores, -1)
    if training and dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p)
    output = bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    output = F.linear(output, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, embed_dim)
    if need_weights:
        weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            weights = weights.squeeze(0)
    else:
        weights = None
    return (output if batched else output.squeeze(1)), weights


class MultiheadAttention(Module):
    """Attention of ``num_heads`` heads over ``embed_dim`` features: queries attend to keys and
    average the values by the weights they give them.

    >>> import ag_jupyter as ag
    >>> attention = ag.nn.MultiheadAttention(8, 2, batch_first=True)
    >>> x = ag.randn(3, 5, 8)
    >>> output, weights = attention(x, x, x)
    >>> output.shape, weights.shape
    (ag.Size([3, 5, 8]), ag.Size([3, 5, 5]))
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise NotImplementedError("MultiheadAttention: add_bias_kv, add_zero_attn and kdim/vdim other than "
                                      "embed_dim are not implemented in ag_jupyter")
        super().__init__()
        self.embed_dim, self.kdim, self.vdim = embed_dim, embed_dim, embed_dim
        self._qkv_same_embed_dim = True
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.in_proj_weight = Parameter(creation.empty((3 * embed_dim, embed_dim), dtype=dtype, device=device))
        self.register_parameter("q_proj_weight", None)
        self.register_parameter("k_proj_weight", None)
        self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(creation.empty((3 * embed_dim,), dtype=dtype, device=device))
        else:
            self.register_parameter("in_proj_bias", None)
        # made (and so drawn) before the projection's own initialization, as in PyTorch
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = False
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        init.xavier_uniform_(self.in_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None,
                need_weights: bool = True, attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False):
        if self.batch_first and query.ndim == 3:
            # seen sequence-first, keeping which of them are one and the same tensor (self-attention)
            same_kv, same_qk = key is value, query is key
            query = query.transpose(1, 0)
            key = query if same_qk else key.transpose(1, 0)
            value = key if same_kv else value.transpose(1, 0)
        output, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            None, None, False, self.dropout, self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and query.ndim == 3:
            output = output.transpose(1, 0)
        return output, weights
