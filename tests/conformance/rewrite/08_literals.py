# Literal arguments must be equal: x + 1 matches only the + 1.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    return (a + 1) * (a + 2) + (a + 1)

def pattern(x):
    return x + 1

def replacement(x):
    return torch.add(x, 10)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
