"""Stands in for: Karpathy's makemore, part 2 (an MLP language model after Bengio et al.: an
embedding table C indexed by a block of 3 characters, a tanh hidden layer, F.cross_entropy,
minibatches drawn with torch.randint from a generator, a learning-rate step, sampling).

C[X] indexing, view, randint(0, n, (32,), generator=g), cross_entropy, multinomial, a train/dev split."""
import random

import torch
import torch.nn.functional as F
from names import WORDS

chars = sorted(set("".join(WORDS)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


random.seed(42)
words = WORDS[:]
random.shuffle(words)
n1 = int(0.8 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:])
print(Xtr.shape, Ytr.shape, Xdev.shape)
g = torch.Generator().manual_seed(2147483647)
V = len(stoi)
C = torch.randn((V, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * 0.2
b1 = torch.randn(200, generator=g)
W2 = torch.randn((200, V), generator=g) * 0.01
b2 = torch.randn(V, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
for i in range(200):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 100 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 50 == 0:
        print(i, f"{loss.item():.4f}")
emb = C[Xdev]
h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
logits = h @ W2 + b2
print(f"dev {F.cross_entropy(logits, Ydev).item():.4f}")
g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(4):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        probs = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print("".join(itos[i] for i in out))
