"""Stands in for: Karpathy's "Let's build GPT" (the mathematical trick of self-attention:
a lower-triangular mask, masked_fill with -inf, softmax; one head of self-attention with
key/query/value Linear layers, a LayerNorm and a residual, trained a few steps with AdamW).

torch.tril, masked_fill(wei == 0, float('-inf')), F.softmax, nn.Embedding, nn.LayerNorm, AdamW."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1337)
B, T, C = 4, 8, 2
x = torch.randn(B, T, C)
xbow = torch.zeros((B, T, C))
for b in range(B):
    for t in range(T):
        xbow[b, t] = torch.mean(x[b, :t + 1], 0)
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow2 = wei @ x
print(torch.allclose(xbow, xbow2, atol=1e-6))
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)
print(wei[3])


class Head(nn.Module):
    def __init__(self, n_embd, head_size, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)


class TinyModel(nn.Module):
    def __init__(self, vocab_size=11, n_embd=16, block_size=8):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.ln = nn.LayerNorm(n_embd)
        self.sa_head = Head(n_embd, n_embd, block_size)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T))
        x = tok_emb + pos_emb
        x = x + self.sa_head(self.ln(x))
        logits = self.lm_head(x)
        if targets is None:
            return logits, None
        B, T, C = logits.shape
        return logits, F.cross_entropy(logits.view(B * T, C), targets.view(B * T))


model = TinyModel()
data = torch.tensor([i % 11 for i in range(200)])
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
for step in range(30):
    ix = torch.randint(len(data) - 8, (4,))
    xb = torch.stack([data[i:i + 8] for i in ix])
    yb = torch.stack([data[i + 1:i + 9] for i in ix])
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(step, f"{loss.item():.4f}")
print(f"{loss.item():.4f}", sum(p.numel() for p in model.parameters()))
