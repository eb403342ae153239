# The docstring's second example: the replacement takes both placeholders, uses one.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b, c):
    return torch.neg(a) + torch.relu(b) + torch.neg(c) + torch.relu(a)

def pattern(x, y):
    return torch.neg(x) + torch.relu(y)

def replacement(x, y):
    return torch.relu(x)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
print(gm.graph)
