"""Stands in for: Karpathy's makemore, part 1 (a bigram model of names: counts in an integer
tensor, normalized rows, sampling with torch.multinomial from a seeded torch.Generator, the
negative log likelihood; then the same model as a one-layer net on one-hot inputs).

int32 counts with index +=, keepdims=True, multinomial, F.one_hot, W.data += -lr * W.grad."""
import torch
import torch.nn.functional as F
from names import WORDS

chars = sorted(set("".join(WORDS)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for w in WORDS:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N[0, :8], N.sum().item())
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))
log_likelihood = 0.0
n = 0
for w in WORDS:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]])
        n += 1
nll = -log_likelihood
print(f"{nll.item():.4f}", f"{(nll / n).item():.4f}")

xs, ys = [], []
for w in WORDS:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((V, V), generator=g, requires_grad=True)
for k in range(30):
    xenc = F.one_hot(xs, num_classes=V).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    if k % 10 == 0:
        print(k, f"{loss.item():.4f}")
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
print(f"{loss.item():.4f}")
