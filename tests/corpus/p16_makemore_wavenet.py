"""Stands in for: Karpathy's makemore, part 5 (a WaveNet-like hierarchy: an Embedding, a module
that flattens consecutive characters, Linear + BatchNorm1d + Tanh blocks in nn.Sequential, the
last layer scaled down at init, training with a learning-rate step, eval mode for the loss).

nn.Embedding, view on 3-d, BatchNorm1d on (N, C) after a transpose-free flatten, model.eval()."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from names import WORDS

chars = sorted(set("".join(WORDS)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
vocab_size = len(stoi)
block_size = 4
X, Y = [], []
for w in WORDS:
    context = [0] * block_size
    for ch in w + ".":
        X.append(context)
        Y.append(stoi[ch])
        context = context[1:] + [stoi[ch]]
Xtr, Ytr = torch.tensor(X), torch.tensor(Y)


class FlattenConsecutive(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        B, T, C = x.shape
        x = x.view(B, T // self.n, C * self.n)
        if x.shape[1] == 1:
            x = x.squeeze(1)
        return x


class Transposed(nn.Module):
    """BatchNorm1d over the channel of a (B, T, C) activation, as the lecture's own layer does."""

    def __init__(self, dim):
        super().__init__()
        self.bn = nn.BatchNorm1d(dim)

    def forward(self, x):
        if x.ndim == 3:
            return self.bn(x.transpose(1, 2)).transpose(1, 2).contiguous()
        return self.bn(x)


torch.manual_seed(42)
n_embd, n_hidden = 8, 32
model = nn.Sequential(
    nn.Embedding(vocab_size, n_embd),
    FlattenConsecutive(2), nn.Linear(n_embd * 2, n_hidden, bias=False), Transposed(n_hidden), nn.Tanh(),
    FlattenConsecutive(2), nn.Linear(n_hidden * 2, n_hidden, bias=False), Transposed(n_hidden), nn.Tanh(),
    nn.Linear(n_hidden, vocab_size),
)
with torch.no_grad():
    model[-1].weight *= 0.1
print(sum(p.nelement() for p in model.parameters()))
g = torch.Generator().manual_seed(7)
for i in range(120):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    logits = model(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in model.parameters():
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 80 else 0.01
    for p in model.parameters():
        p.data += -lr * p.grad
    if i % 40 == 0:
        print(f"{i:4d} {loss.item():.4f}")
model.eval()
with torch.no_grad():
    print(f"train {F.cross_entropy(model(Xtr), Ytr).item():.4f}")
bn = model[3].bn
print(f"{bn.running_mean.abs().mean().item():.5f}", f"{bn.running_var.mean().item():.5f}", bn.num_batches_tracked.item())
