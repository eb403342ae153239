import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    """Single-head scaled dot-product attention, written out by hand."""

    def __init__(self, dim, causal=False):
        super().__init__()
        self.dim = dim
        self.causal = causal
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)
        if self.causal:
            idx = torch.arange(t)
            mask = idx.unsqueeze(0) > idx.unsqueeze(1)
            scores = scores.masked_fill(mask, float("-inf"))
        weights = F.softmax(scores, dim=-1)
        return self.out(weights @ v), weights


class Block(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, causal=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x):
        h, w = self.attn(self.norm1(x))
        x = x + h
        x = x + self.mlp(self.norm2(x))
        return x, w


def init_constant(module):
    with torch.no_grad():
        for name, p in module.named_parameters():
            n = p.numel()
            p.copy_(torch.linspace(-0.5, 0.5, n).reshape(p.shape) * (1.0 if "weight" in name else 0.1))


block = Block(8, 16)
init_constant(block)
x = torch.arange(2 * 4 * 8, dtype=torch.float32).reshape(2, 4, 8) / 64.0
with torch.no_grad():
    y, w = block(x)
print(y.shape, w.shape)
print(w[0].sum(dim=-1))
upper = torch.arange(4).unsqueeze(0) > torch.arange(4).unsqueeze(1)
print(torch.allclose(w[0][upper], torch.zeros(6)))
print(round(y.abs().mean().item(), 4))
print(sum(p.numel() for p in block.parameters()))
for name, mod in block.named_children():
    print(f"{name:>6}: {type(mod).__name__}")
