# A pattern whose anchor matches no node: 1.13 raises KeyError (the pattern's placeholder).
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(x, y):
    return torch.relu(x) + y

def pattern(x):
    return torch.sin(x)

def replacement(x):
    return torch.cos(x)

gm = symbolic_trace(f)
try:
    print(replace_pattern(gm, pattern, replacement))
except KeyError as e:
    print('KeyError', e)
print(gm.code)
