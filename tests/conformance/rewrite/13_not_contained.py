# An inner node of a candidate used outside it: that candidate is not a match.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    r = torch.relu(a)
    n = torch.neg(r)
    r2 = torch.relu(b)
    n2 = torch.neg(r2)
    return n + r + n2

def pattern(x):
    return torch.neg(torch.relu(x))

def replacement(x):
    return torch.abs(x)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
