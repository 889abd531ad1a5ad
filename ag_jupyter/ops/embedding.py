"""Embedding lookup (``EmbeddingBackward0``: rows of a table picked by integer indices)
and ``one_hot``, the same choice written out as 0/1 columns (no gradient)."""
from __future__ import annotations

from ..autograd.function import Op
from ..backend import array_module, require_same_device
from ..dtypes import of_array


def check_indices(indices, rows: int) -> None:
    """PyTorch's errors: indices must be int32/int64 and inside the table."""
    if indices.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got ag.{of_array(indices).tensor_type} instead (while "
                           f"checking arguments for embedding)")
    if indices.size and (int(indices.min()) < 0 or int(indices.max()) >= rows):
        raise IndexError("index out of range in self")


class Embedding(Op):
    """``weight[indices]``: one row of the table per index. Its gradient adds each
    incoming row back into the row it came from (an index used twice gets both), except
    the ``padding_idx`` row, which never learns."""

    __slots__ = ("indices", "rows", "padding_idx", "scale", "dtype")
    node_name = "EmbeddingBackward0"
    symbol = "embedding"
    formula = (r"u_{i} = w_{t_i}:\quad \frac{\partial L}{\partial w_r} = "
               r"\textstyle\sum_{i:\ t_i = r} \frac{\partial L}{\partial u_i}")
    formula_args = ("w", "t")

    def forward(self, weight, indices, padding_idx, scale_grad_by_freq):
        table, picks = weight._data, indices._data
        require_same_device(table, picks)
        if table.ndim != 2:
            raise RuntimeError(f"'weight' must be 2-D, got a tensor of shape {list(table.shape)}")
        check_indices(picks, table.shape[0])
        self.indices, self.rows, self.padding_idx = picks, table.shape[0], padding_idx
        self.dtype = table.dtype
        self.scale = None
        if scale_grad_by_freq:  # each row's gradient divided by how often the batch used it
            xp = array_module(picks)
            counts = xp.bincount(picks.reshape(-1), minlength=self.rows)
            self.scale = (1.0 / counts[picks]).astype(table.dtype)[..., None]
        return table[picks]

    def backward(self, F, grad):
        if self.scale is not None:
            grad = grad * F.constant(self.scale)
        if self.padding_idx is not None:
            keep = (self.indices != self.padding_idx)[..., None].astype(self.dtype)
            grad = grad * F.constant(keep)
        return (F.index_add(grad, self.indices, (self.rows, grad.shape[-1])),)


def one_hot(indices, num_classes: int):
    """An int64 array with a 1 at ``[..., indices[...]]``; ``num_classes=-1`` is one more
    than the largest index."""
    if indices.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp = array_module(indices)
    if num_classes == -1:
        if indices.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(indices.max()) + 1
    if indices.size:
        if int(indices.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        if int(indices.max()) >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return (indices[..., None] == xp.arange(num_classes)).astype(indices.dtype)
