# Two outputs computed from one inner node; the graph uses them in a different order.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    c = torch.cos(a)
    s = torch.sin(c)
    e = torch.exp(c)
    return e - s, torch.sin(a)

def pattern(x):
    c = torch.cos(x)
    return torch.sin(c), torch.exp(c)

def replacement(x):
    return torch.tan(x), torch.abs(x)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
