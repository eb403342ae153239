# Fusing relu(a) and sigmoid(neg(relu(a))) would form a cycle: not a match.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    r = torch.relu(a)
    n = torch.neg(r)
    s = torch.sigmoid(n)
    r2 = torch.relu(b)
    s2 = torch.sigmoid(a)
    return r + s + r2 + s2

def pattern(x, y):
    return torch.relu(x), torch.sigmoid(y)

def replacement(x, y):
    return torch.tanh(x), torch.tanh(y)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
