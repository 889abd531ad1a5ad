"""Stands in for: d2l, "Convolutional Neural Networks (LeNet)" and "Batch Normalization" (the
original LeNet with sigmoid and average pooling, then with BatchNorm2d/BatchNorm1d after each
layer, trained with Adam; train and eval mode differ), on made-up 1x28x28 images.

nn.AvgPool2d, padding=2, BatchNorm2d/1d running statistics, optim.Adam, layer-by-layer shapes."""
import torch
from torch import nn

torch.manual_seed(9)
net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape: \t", X.shape)

# no bias before a batch norm: it would be subtracted right away, and its gradient is rounding
# noise that Adam, which divides by its size, turns into steps
bn_net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, bias=False), nn.BatchNorm2d(6), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5, bias=False), nn.BatchNorm2d(16), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(256, 120, bias=False), nn.BatchNorm1d(120), nn.Sigmoid(),
    nn.Linear(120, 10))
images = torch.rand(48, 1, 28, 28)
labels = (images[:, 0, :14].mean(dim=(1, 2)) * 40).long() % 10
optimizer = torch.optim.Adam(bn_net.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(3):
    bn_net.train()
    for i in range(0, 48, 16):
        optimizer.zero_grad()
        loss = loss_fn(bn_net(images[i:i + 16]), labels[i:i + 16])
        loss.backward()
        optimizer.step()
    bn_net.eval()
    with torch.no_grad():
        print(epoch, f"{loss.item():.5f}", f"{loss_fn(bn_net(images), labels).item():.5f}")
print(bn_net[1].running_mean, bn_net[1].running_var)
print(bn_net[1].weight.reshape((-1,)), bn_net[1].bias.reshape((-1,)))
print(list(bn_net.state_dict().keys())[:8])
