"""Stands in for: Karpathy's makemore, part 4 ("becoming a backprop ninja": every gradient of a
two-layer net with batch norm written by hand and compared against autograd with a cmp helper).

Manual gradients with sum(keepdim), broadcasting, one-hot via F.one_hot, torch.allclose,
(dt - t.grad).abs().max(), retain_grad on intermediates."""
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n, n_in, n_hidden, vocab = 16, 12, 20, 7
X = torch.randn((n, n_in), generator=g)
Y = torch.randint(0, vocab, (n,), generator=g)
W1 = torch.randn((n_in, n_hidden), generator=g) * 0.3
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab), generator=g) * 0.1
b2 = torch.randn(vocab, generator=g) * 0.1
bngain = torch.randn((1, n_hidden), generator=g) * 0.1 + 1.0
bnbias = torch.randn((1, n_hidden), generator=g) * 0.1
parameters = [W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True

hprebn = X @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff ** 2
bnvar = 1 / (n - 1) * bndiff2.sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Y].mean()
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h,
          hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani]:
    t.retain_grad()
loss.backward()
print(f"{loss.item():.6f}")


def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad, rtol=1e-4, atol=1e-6)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f"{s:15s} | approximate: {str(app):5s} | maxdiff below 1e-5: {maxdiff < 1e-5} | exact-ish {ex or app}")


dlogits = F.softmax(logits, 1)
dlogits[range(n), Y] -= 1
dlogits /= n
cmp("logits", dlogits, logits)
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
cmp("h", dh, h)
cmp("W2", dW2, W2)
cmp("b2", db2, b2)
dhpreact = (1.0 - h ** 2) * dh
cmp("hpreact", dhpreact, hpreact)
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnbias = dhpreact.sum(0, keepdim=True)
cmp("bngain", dbngain, bngain)
cmp("bnbias", dbnbias, bnbias)
dhprebn = bngain * bnvar_inv / n * (n * dhpreact - dhpreact.sum(0) - n / (n - 1) * bnraw * (dhpreact * bnraw).sum(0))
cmp("hprebn", dhprebn, hprebn)
dW1 = X.T @ dhprebn
db1 = dhprebn.sum(0)
cmp("W1", dW1, W1)
cmp("b1", db1, b1)
onehot = F.one_hot(Y, num_classes=vocab).float()
print(f"{((F.softmax(logits, 1) - onehot) / n - dlogits).abs().max().item():.2e}")
print(f"{F.cross_entropy(logits, Y).item():.6f}")
