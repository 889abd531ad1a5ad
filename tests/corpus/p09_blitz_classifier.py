"""Stands in for: the 60-minute blitz, "Training a Classifier" (a small CNN on images through a
DataLoader, CrossEntropyLoss, SGD with momentum, accuracy on a test set), on made-up 3x16x16
images instead of CIFAR-10.

TensorDataset/DataLoader, a conv net with max-pool, the epoch loop, torch.max for predictions."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)
images = torch.randn(96, 3, 16, 16)
labels = (images[:, 0].mean(dim=(1, 2)) > 0).long() + 2 * (images[:, 1].mean(dim=(1, 2)) > 0).long()
trainset = TensorDataset(images[:64], labels[:64])
testset = TensorDataset(images[64:], labels[64:])
trainloader = DataLoader(trainset, batch_size=8, shuffle=False)
testloader = DataLoader(testset, batch_size=8, shuffle=False)
classes = ("plane", "car", "bird", "cat")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 8, 3)
        self.fc1 = nn.Linear(8 * 2 * 2, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for epoch in range(3):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, targets = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 4 == 3:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 4:.4f}")
            running_loss = 0.0
correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        inputs, targets = data
        outputs = net(inputs)
        _, predicted = torch.max(outputs.data, 1)
        total += targets.size(0)
        correct += (predicted == targets).sum().item()
print(f"Accuracy of the network on the {total} test images: {100 * correct // total} %")
print(" ".join(f"{classes[j]:5s}" for j in predicted[:4]))
