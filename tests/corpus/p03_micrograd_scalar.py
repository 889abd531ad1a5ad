"""Stands in for: Karpathy, "The spelled-out intro to neural networks and backpropagation"
(micrograd), where the lecture checks its engine against torch on scalars.

Scalar expressions in float64, a neuron with tanh, gradients of every leaf."""
import torch

x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()
w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())

a = torch.tensor(-4.0, dtype=torch.float64, requires_grad=True)
bb = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
c = a + bb
d = a * bb + bb ** 3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (bb + a).relu()
d = d + 3 * d + (bb - a).relu()
e = c - d
f = e ** 2
g = f / 2.0
g = g + 10.0 / f
print(f"{g.data.item():.4f}")
g.backward()
print(f"{a.grad.item():.4f}", f"{bb.grad.item():.4f}")
