"""Stands in for: d2l, "Probability and Statistics" (a fair die rolled with
torch.distributions.multinomial.Multinomial, relative frequencies converging), Karpathy's makemore
sampling loop (the next token drawn from a Categorical over the softmax of the last logits),
makemore part 3's histogram of tanh activations, and the attention block of makemore.py's
Transformer written with nn.MultiheadAttention (causal mask, batch_first, key padding), with d2l's
LazyLinear head and an optimizer made before the first call; F.pad and out= on the way.

Every draw comes from torch.manual_seed's generator."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical
from torch.distributions.multinomial import Multinomial

torch.manual_seed(23)
fair_probs = torch.ones(6) / 6
print("one roll", Multinomial(1, fair_probs).sample())
counts = Multinomial(1000, fair_probs).sample()
print("frequencies", counts / 1000)
rolls = Multinomial(10, fair_probs).sample((200,))
cumulative = rolls.cumsum(dim=0)
estimates = cumulative / cumulative.sum(dim=1, keepdim=True)
print("after 200 groups", estimates[-1], estimates.shape)
print("log-probability of the counts", Multinomial(1000, fair_probs).log_prob(counts).item())

vocab, block, width = 10, 6, 16


class TinyTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(block, width)
        self.norm = nn.LayerNorm(width)
        self.attention = nn.MultiheadAttention(width, 4, batch_first=True)
        self.head = nn.LazyLinear(vocab)

    def forward(self, idx, padding=None):
        steps = idx.shape[1]
        x = self.tokens(idx) + self.positions(torch.arange(steps))
        h = self.norm(x)
        causal = torch.triu(torch.ones(steps, steps), diagonal=1).bool()
        attended, weights = self.attention(h, h, h, attn_mask=causal, key_padding_mask=padding)
        return self.head(x + attended), weights


model = TinyTransformer()
print(model.head)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)  # before the lazy head knows its size
data = torch.randint(0, vocab, (64, block + 1))
data[:, 1::2] = (data[:, 0::2][:, :block // 2] + 1) % vocab  # every second token follows from the one before
inputs, targets = data[:, :-1], data[:, 1:]
for step in range(30):
    logits, _ = model(inputs)
    loss = F.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")
print(model.head, model.head.weight.shape)
print("attention in_proj_weight grad norm", model.attention.in_proj_weight.grad.norm().item())

with torch.no_grad():
    logits, weights = model(inputs[:2])
    print("attention of sample 0, last query", weights[0, -1])
    padded = torch.zeros(2, block, dtype=torch.bool)
    padded[1, 2] = True
    _, weights = model(inputs[:2], padding=padded)
    print("with key 2 of sample 1 masked", weights[1, -1])
    activations = torch.tanh(model.norm(model.tokens.weight) * 3)
    hist, edges = torch.histogram(activations, bins=8, range=(-1.0, 1.0))
    print("tanh histogram", hist, edges)
    print("saturated", (activations.abs() > 0.97).float().mean().item(), torch.histc(activations, bins=4, min=-1, max=1))

context = inputs[:1].clone()
drawn = []
for _ in range(8):
    with torch.no_grad():
        logits, _ = model(context)
    probs = F.softmax(logits[:, -1, :], dim=-1)
    next_token = Categorical(probs=probs).sample()
    drawn.append(next_token.item())
    print("drawn", next_token.item(), "log p", Categorical(logits=logits[:, -1, :]).log_prob(next_token).item())
    context = torch.cat([context[:, 1:], next_token.view(1, 1)], dim=1)
print("sampled", drawn)
print("padded context", F.pad(context, (2, 0), value=0))
print("reflected", F.pad(context.float().view(1, 1, -1), (2, 2), mode="reflect"))
total = torch.empty(0)
torch.add(probs, probs, out=total)
print("out=", total.sum().item(), total.shape)
