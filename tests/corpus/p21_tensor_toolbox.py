"""Stands in for: the tensor manipulations that d2l's "Data Manipulation" and "Linear Algebra"
sections and the makemore lectures lean on (reductions with keepdim, cumsum, argmax, topk, sort,
gather, masked_fill, where, einsum, bmm, outer products, norms, dot, allclose, // and %).

Each result is printed, so every number is compared with PyTorch's."""
import torch

x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print(x.sum(axis=0), x.sum(axis=1, keepdims=True), x.mean(), x.cumsum(axis=0))
print(x / x.sum(axis=1, keepdims=True))
print(torch.dot(torch.ones(4), x[1]), torch.mv(x, torch.ones(4)), torch.mm(x, x.T))
print(torch.norm(x), x.abs().sum(), torch.exp(x[0]), x.log1p()[1], x.log10()[2])
print(x.prod(dim=1), x.max(dim=1).values, x.argmax(dim=0), x.argsort(dim=1, descending=True))
vals, idx = torch.topk(x.flatten(), 3)
print(vals, idx)
s, si = torch.sort(torch.tensor([3.0, -1.0, 2.0, 0.5]))
print(s, si)
print(x.gather(1, torch.tensor([[0], [2], [3]])), torch.where(x > 5, x, torch.zeros_like(x)))
print(x.masked_fill(x % 3 == 0, -1.0), x // 5, x % 5, torch.clip(x, 2, 7))
print(torch.einsum("ij,kj->ik", x, x), torch.einsum("i,j->ij", x[0], x[1]))
a = torch.ones(2, 3, 4)
b = torch.ones(2, 4, 5)
print(torch.bmm(a, b).shape, torch.outer(torch.arange(3.0), torch.arange(2.0)))
print(torch.allclose(x, x + 1e-9), torch.cat((x, x), dim=0).shape, torch.stack((x, x)).shape)
print(x.split(2, dim=1)[1], x.chunk(3)[2], x.repeat(1, 2).shape, x.flip(0)[0])
print(torch.tril(torch.ones(3, 3)), torch.triu(x, diagonal=1))
y = torch.tensor([1.5, -2.25, 0.0])
print(y.sign(), y.floor(), y.ceil(), y.round(), y.clamp(min=-1), y.sigmoid(), y.abs().sqrt())
print(torch.logsumexp(x, dim=1), x.amax(dim=1), x.var(dim=0), x.std(dim=1, unbiased=False))
print(x.unsqueeze(0).shape, x.view(-1).shape, x.T.contiguous().view(2, 6), x.numel(), x.dim())
print(torch.zeros(2, 3).new_zeros(4).shape, x.new_ones((1, 2)), x.index_select(1, torch.tensor([0, 3])))
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
z = (w.cumsum(0) * torch.tensor([1.0, 2.0, 3.0])).prod() + w.logsumexp(0) + (w ** 2).amax()
z.backward()
print(f"{z.item():.5f}", w.grad)
