"""Stands in for: d2l, "Learning Rate Scheduling" and the gradient clipping of its RNN chapter;
PyTorch's optim docs (StepLR, MultiStepLR, CosineAnnealingLR, OneCycleLR, ReduceLROnPlateau),
with AdamW and Adagrad.

scheduler.step() after optimizer.step(), get_last_lr(), clip_grad_norm_ returning the total norm."""
import math

import torch
from torch import nn, optim
from torch.optim import lr_scheduler

torch.manual_seed(4)
X = torch.randn(64, 8)
y = torch.sin(X.sum(dim=1, keepdim=True))


def make():
    return nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))


def train(net, optimizer, scheduler=None, epochs=12, clip=None, plateau=False):
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = loss_fn(net(X), y)
        loss.backward()
        if clip is not None:
            total = nn.utils.clip_grad_norm_(net.parameters(), clip)
            print(f"  norm {total.item():.5f}")
        optimizer.step()
        if scheduler is not None:
            scheduler.step(loss.item()) if plateau else scheduler.step()
        lr = optimizer.param_groups[0]["lr"]
        print(f"{epoch} loss {loss.item():.5f} lr {lr:.6f}")


net = make()
opt = optim.SGD(net.parameters(), lr=0.5)
train(net, opt, lr_scheduler.StepLR(opt, step_size=4, gamma=0.5))
net = make()
opt = optim.SGD(net.parameters(), lr=0.3, momentum=0.9)
train(net, opt, lr_scheduler.MultiStepLR(opt, milestones=[3, 7], gamma=0.1), clip=1.0)
net = make()
opt = optim.AdamW(net.parameters(), lr=0.05, weight_decay=0.1)
train(net, opt, lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.001))
net = make()
opt = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=12)
train(net, opt, sched)
print([f"{v:.6f}" for v in sched.get_last_lr()])
net = make()
opt = optim.Adagrad(net.parameters(), lr=0.5)
train(net, opt, lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1), plateau=True)
net = make()
opt = optim.SGD(net.parameters(), lr=1.0)
train(net, opt, lr_scheduler.LambdaLR(opt, lambda epoch: 1 / math.sqrt(epoch + 1)), epochs=5)
net = make()
opt = optim.RMSprop(net.parameters(), lr=0.01, momentum=0.5)
train(net, opt, lr_scheduler.ExponentialLR(opt, gamma=0.9), epochs=5)
for p in net.parameters():
    p.grad = torch.ones_like(p) * 3
nn.utils.clip_grad_value_(net.parameters(), clip_value=0.5)
print([p.grad.max().item() for p in net.parameters()])
