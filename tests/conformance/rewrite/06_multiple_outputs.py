# A pattern with two outputs sharing a placeholder.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    r = torch.relu(a)
    s = torch.sigmoid(a)
    t = torch.relu(b)
    u = torch.sigmoid(b)
    return r + s + t * u

def pattern(x):
    return torch.relu(x), torch.sigmoid(x)

def replacement(x):
    y = torch.tanh(x)
    return y, torch.neg(y)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
print(gm.graph)
