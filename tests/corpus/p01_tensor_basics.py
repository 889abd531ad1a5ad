"""Stands in for: PyTorch "Learn the Basics", Tensors; the 60-minute blitz, Tensors.

Making tensors from data, shapes and dtypes, arithmetic, indexing, joining, in-place ops."""
import torch

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
print(x_data.dtype, x_data.shape)
x_ones = torch.ones_like(x_data)
print(x_ones)
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(x_rand)
shape = (2, 3)
print(torch.rand(shape))
print(torch.ones(shape))
print(torch.zeros(shape))
tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1.shape)
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
print(y1, y2)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
print(z1.sum(), z2.mean())
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
tensor.add_(5)
print(tensor)
n = torch.ones(5).numpy()
print(n)
print(torch.arange(12).reshape(3, 4)[1:, ::2])
print(torch.stack([torch.arange(3), torch.arange(3) * 2]).t())
