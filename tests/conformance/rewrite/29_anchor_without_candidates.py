# Two anchors, one of which matches nothing: 1.13 drops it and then fails (KeyError).
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    return torch.relu(a) + torch.cos(a)

def pattern(x):
    return torch.relu(x), torch.sin(x)

def replacement(x):
    return torch.tanh(x), torch.tanh(x)

gm = symbolic_trace(f)
try:
    print(replace_pattern(gm, pattern, replacement))
except KeyError as e:
    print('KeyError', e)
print(gm.code)
