# Method calls with arguments (transpose, reshape) next to functions of the same name.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    t = a.transpose(0, 1).reshape(-1, 2)
    u = torch.transpose(a, 0, 1).reshape(-1, 2)
    v = a.transpose(1, 0).reshape(-1, 2)
    return t, u, v

def pattern(x):
    return x.transpose(0, 1).reshape(-1, 2)

def replacement(x):
    return x.t().contiguous().view(-1, 2)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
