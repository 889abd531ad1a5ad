"""Stands in for: "What is torch.nn really?" (logistic regression on digit images written from
scratch, then refactored step by step: F.cross_entropy, nn.Module, nn.Linear, optim, Dataset,
DataLoader, validation, a CNN with avg pooling), on scikit-learn's 8x8 digits instead of MNIST.

Each refactoring step keeps the same numbers: the loss after each stage is printed."""
import math

import numpy as np
import torch
import torch.nn.functional as F
from sklearn.datasets import load_digits
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

digits = load_digits()
x = (digits.data / 16.0).astype(np.float32)
y = digits.target.astype(np.int64)
x_train, y_train, x_valid, y_valid = map(torch.tensor, (x[:1200], y[:1200], x[1200:], y[1200:]))
n, c = x_train.shape
print(x_train.shape, y_train.min(), y_train.max())

torch.manual_seed(5)
weights = torch.randn(64, 10) / math.sqrt(64)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs = 64
xb, yb = x_train[0:bs], y_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)
print(f"{nll(preds, yb).item():.5f}", accuracy(preds, yb).item())
lr = 0.5
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb, yb = x_train[i * bs: i * bs + bs], y_train[i * bs: i * bs + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{nll(model(xb), yb).item():.5f}", f"{accuracy(model(xb), yb).item():.4f}")
print(f"{F.cross_entropy(xb @ weights + bias, yb).item():.5f}")


class DigitLogistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(64, 10)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = DigitLogistic()
    return model, optim.SGD(model.parameters(), lr=lr)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.5f}")


train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=bs)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=bs * 2)
model, opt = get_model()
fit(2, model, F.cross_entropy, opt, train_dl, valid_dl)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


cnn = nn.Sequential(
    Lambda(lambda x: x.view(-1, 1, 8, 8)),
    nn.Conv2d(1, 8, kernel_size=3, stride=1, padding=1), nn.ReLU(),
    nn.Conv2d(8, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
opt = optim.SGD(cnn.parameters(), lr=0.1, momentum=0.9)
fit(2, cnn, F.cross_entropy, opt, train_dl, valid_dl)
