# A chain of relu/neg blocks: every block matched, replacement names numbered in order.
import torch
from torch.fx import symbolic_trace, replace_pattern

class Chain(torch.nn.Module):
    def forward(self, x):
        for _ in range(12):
            x = torch.neg(torch.relu(x))
        return x

def pattern(x):
    return torch.neg(torch.relu(x))

def replacement(x):
    return torch.sigmoid(x) * 2

gm = symbolic_trace(Chain())
matches = replace_pattern(gm, pattern, replacement)
print(len(matches))
print(matches[0])
print(matches[-1])
print(gm.code)
