"""Stands in for: "Learn the Basics", Build the Neural Network + Optimizing Model Parameters +
Save and Load the Model (a Flatten-Linear-ReLU stack, train_loop/test_loop over DataLoaders,
state_dict saved and loaded into a fresh model), on made-up 1x8x8 images instead of FashionMNIST.

nn.Flatten, nn.Sequential, nn.Softmax + argmax, model.train/eval, torch.save/torch.load."""
import os
import tempfile

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print(f"Using {device} device")
torch.manual_seed(21)
images = torch.rand(200, 1, 8, 8)
targets = (images.sum(dim=(1, 2, 3)) * 10).long() % 5
train_dataloader = DataLoader(TensorDataset(images[:160], targets[:160]), batch_size=32)
test_dataloader = DataLoader(TensorDataset(images[160:], targets[160:]), batch_size=32)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8 * 8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 5))

    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)


model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 8, 8, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * 32 + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
for t in range(3):
    print(f"Epoch {t + 1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
path = os.path.join(tempfile.mkdtemp(), "model_weights.pth")
torch.save(model.state_dict(), path)
fresh = NeuralNetwork()
fresh.load_state_dict(torch.load(path, weights_only=True))
fresh.eval()
test_loop(test_dataloader, fresh, loss_fn)
