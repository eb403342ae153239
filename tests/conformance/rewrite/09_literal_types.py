# Literals must have the same type as well: 2 is not 2.0, True is not 1.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    return a * 2 + a * 2.0 + a.cumsum(1) + a.cumsum(True)

def p_int(x):
    return x * 2

def p_cumsum(x):
    return x.cumsum(1)

gm = symbolic_trace(f)
print(replace_pattern(gm, p_int, lambda x: x + x))
print(replace_pattern(gm, p_cumsum, lambda x: x.cumprod(1)))
print(gm.code)
