# A diamond pattern: one input feeding two branches joined again.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    y = torch.sin(a) * torch.cos(a)
    z = torch.sin(b) * torch.cos(a)
    w = torch.sin(y) * torch.cos(y)
    return y + z + w

def pattern(x):
    return torch.sin(x) * torch.cos(x)

def replacement(x):
    return torch.sin(2 * x) / 2

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
