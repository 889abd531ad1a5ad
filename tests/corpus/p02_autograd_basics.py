"""Stands in for: "Learn the Basics", Automatic differentiation with torch.autograd; the blitz's
"A gentle introduction to torch.autograd".

A tiny logistic model: requires_grad, grad_fn, backward, .grad, no_grad, detach, retain_graph."""
import torch

torch.manual_seed(0)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print("Gradient function for z =", z.grad_fn.name())
print("Gradient function for loss =", loss.grad_fn.name())
print("loss", loss.item())
loss.backward()
print(w.grad)
print(b.grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z_det = (torch.matmul(x, w) + b).detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"Second call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"Call after zeroing gradients\n{inp.grad}")
a = torch.tensor([2., 3.], requires_grad=True)
c = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - c ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad, -2 * c == c.grad)
