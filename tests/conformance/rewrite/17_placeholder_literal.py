# A placeholder matches a literal argument, which the replacement then receives.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return torch.add(a, 3) + torch.add(a, b)

def pattern(x, y):
    return torch.add(x, y)

def replacement(x, y):
    return torch.mul(x, y)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
