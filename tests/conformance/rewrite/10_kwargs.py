# Keyword arguments: same keys needed, their order does not matter, values must match.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    s0 = torch.sum(a, dim=0, keepdim=True)
    s1 = torch.sum(a, dim=1, keepdim=True)
    s2 = torch.sum(a, keepdim=True, dim=1)
    s3 = torch.sum(a, 1, keepdim=True)
    return s0 + s1 + s2 + s3

def pattern(x):
    return torch.sum(x, dim=1, keepdim=True)

def replacement(x):
    return torch.mean(x, dim=1, keepdim=True)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
