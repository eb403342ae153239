# Two pattern placeholders cannot match one node: a + a is not x + y, but x + x matches it.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return (a + a) * (a + b)

def p_distinct(x, y):
    return x + y

def p_same(x):
    return x + x

def r_same(x):
    return x * 2

gm = symbolic_trace(f)
print(replace_pattern(gm, p_same, r_same))
print(gm.code)
gm = symbolic_trace(f)
print(replace_pattern(gm, p_distinct, lambda x, y: torch.sub(x, y)))
print(gm.code)
