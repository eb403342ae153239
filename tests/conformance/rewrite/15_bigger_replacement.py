# A one-node pattern replaced by several nodes, names taken where free.
import torch
import torch.nn.functional as F
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return F.relu(a) + F.relu(b) * F.relu(a + b)

def pattern(x):
    return F.relu(x)

def replacement(x):
    return (x > 0) * x

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
