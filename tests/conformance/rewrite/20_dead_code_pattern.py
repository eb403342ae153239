# A pattern with an unused placeholder is refused (dead code).
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return torch.relu(a) + b

def pattern(x, y):
    return torch.relu(x)

def replacement(x, y):
    return torch.sigmoid(x)

gm = symbolic_trace(f)
try:
    replace_pattern(gm, pattern, replacement)
except AssertionError as e:
    print('AssertionError', e)
print(gm.code)
