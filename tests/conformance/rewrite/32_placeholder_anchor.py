# A pattern returning one of its placeholders next to a computed value.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    r = torch.relu(b)
    return a + r

def pattern(x, y):
    return x, torch.relu(y)

def replacement(x, y):
    return x, torch.sigmoid(y)

gm = symbolic_trace(f)
try:
    print(replace_pattern(gm, pattern, replacement))
except Exception as e:
    print(type(e).__name__, e)
print(gm.code)
