# Pattern and replacement given as GraphModules (re-traced, as 1.13 does).
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    return torch.sigmoid(a) * a + torch.sigmoid(a + 1) * (a + 1)

def pattern(x):
    return torch.sigmoid(x) * x

def replacement(x):
    return torch.nn.functional.silu(x)

gm = symbolic_trace(f)
print(replace_pattern(gm, symbolic_trace(pattern), symbolic_trace(replacement)))
print(gm.code)
