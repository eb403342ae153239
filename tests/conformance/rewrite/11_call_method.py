# call_method patterns: x.relu() and x.view(-1).
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    u = a.relu().view(-1)
    v = b.relu().view(2, -1)
    w = torch.relu(a).view(-1)
    return u, v, w

def pattern(x):
    return x.relu().view(-1)

def replacement(x):
    return x.flatten().clamp(min=0)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
