"""Stands in for: Karpathy's makemore, part 3 (activations, gradients and BatchNorm: the
kaiming-scaled init by (5/3)/sqrt(fan_in), a hand-written batch norm with running statistics
updated under no_grad, the saturation of tanh measured, then the same net from small classes).

mean/std with keepdim, running buffers, (h.abs() > 0.99).float().mean(), torch.no_grad as a decorator."""
import torch
import torch.nn.functional as F
from names import WORDS

chars = sorted(set("".join(WORDS)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
block_size = 3
X, Y = [], []
for w in WORDS:
    context = [0] * block_size
    for ch in w + ".":
        X.append(context)
        Y.append(stoi[ch])
        context = context[1:] + [stoi[ch]]
Xtr, Ytr = torch.tensor(X), torch.tensor(Y)
n_embd, n_hidden, vocab_size = 10, 64, len(stoi)
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5 / 3) / ((n_embd * block_size) ** 0.5)
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.01
b2 = torch.randn(vocab_size, generator=g) * 0
bngain = torch.ones((1, n_hidden))
bnbias = torch.zeros((1, n_hidden))
bnmean_running = torch.zeros((1, n_hidden))
bnstd_running = torch.ones((1, n_hidden))
parameters = [C, W1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
for i in range(100):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hpreact = embcat @ W1
    bnmeani = hpreact.mean(0, keepdim=True)
    bnstdi = hpreact.std(0, keepdim=True)
    hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
    with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
    h = torch.tanh(hpreact)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    if i % 25 == 0:
        print(f"{i:7d}: {loss.item():.4f}", f"saturated {(h.abs() > 0.99).float().mean().item():.4f}")


@torch.no_grad()
def split_loss():
    emb = C[Xtr]
    hpreact = emb.view(emb.shape[0], -1) @ W1
    hpreact = bngain * (hpreact - bnmean_running) / bnstd_running + bnbias
    logits = torch.tanh(hpreact) @ W2 + b2
    print("train", f"{F.cross_entropy(logits, Ytr).item():.4f}")


split_loss()
print(f"{bnmean_running.abs().max().item():.5f}", f"{bnstd_running.mean().item():.5f}")
print(f"{W1.grad.std().item():.6f}", f"{(W1.grad.std() / W1.std()).item():.6f}")
