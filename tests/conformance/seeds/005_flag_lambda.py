# Seed 001, the `f(x, flag)` example without its failing line (004 runs that one).
# Completion: the imports and the last line, which prints the trace.
import torch
from torch import fx

def f(x, flag):
    if flag: return x
    else: return x*2

def g(flag):
    return lambda x: f(x, flag)

new_f = g(flag=True)
fx.symbolic_trace(new_f)
print(fx.symbolic_trace(new_f).code)
