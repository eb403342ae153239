# x * x matches a * a but not a * b.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return a * a + a * b + b * b

def pattern(x):
    return x * x

def replacement(x):
    return torch.square(x)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
