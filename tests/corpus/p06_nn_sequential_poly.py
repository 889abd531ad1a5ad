"""Stands in for: "Learning PyTorch with Examples", the nn and optim sections (a polynomial
fit with nn.Sequential, nn.Linear, nn.Flatten, MSELoss(reduction='sum'), then optim.RMSprop).

Feature expansion with unsqueeze/pow, a manual update over model.parameters(), then an optimizer."""
import math

import torch

torch.manual_seed(1)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
learning_rate = 1e-6
for t in range(200):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 49:
        print(t, f"{loss.item():.4f}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f"y = {linear_layer.bias.item():.5f} + {linear_layer.weight[:, 0].item():.5f} x"
      f" + {linear_layer.weight[:, 1].item():.5f} x^2 + {linear_layer.weight[:, 2].item():.5f} x^3")

model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(200):
    loss = loss_fn(model(xx), y)
    if t % 50 == 49:
        print(t, f"{loss.item():.4f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print([f"{v:.5f}" for v in model[0].weight.flatten().tolist()])
