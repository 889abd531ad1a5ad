"""Stands in for: d2l, "Multilayer Perceptrons" (a concise MLP, init_weights applied with
net.apply, dropout in train mode only, weight decay through the optimizer, CrossEntropyLoss with
reduction='none', evaluation accuracy), on made-up 64-feature data.

nn.init.normal_, net.apply, nn.Dropout, model.train()/eval(), per-sample losses, weight_decay."""
import torch
from torch import nn

torch.manual_seed(3)
X = torch.randn(256, 64)
w_true = torch.randn(64, 10)
y = (X @ w_true).argmax(dim=1)
net = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
        nn.init.zeros_(m.bias)


net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.5, weight_decay=1e-3)


def accuracy(y_hat, y):
    cmp = y_hat.argmax(axis=1).type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


for epoch in range(4):
    net.train()
    for i in range(0, 256, 32):
        Xb, yb = X[i:i + 32], y[i:i + 32]
        l = loss(net(Xb), yb)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
    net.eval()
    with torch.no_grad():
        y_hat = net(X)
        print(epoch, f"{loss(y_hat, y).mean().item():.5f}", accuracy(y_hat, y) / len(y))
print(f"{net[1].weight.norm().item():.5f}", f"{net[4].bias.abs().sum().item():.6f}")
drop = nn.Dropout(0.5)
drop.eval()
print(torch.equal(drop(X[:2]), X[:2]))
