# Seed 002, the `f(x, flag)` example without its failing line (004 runs that one).
# Completion: the imports and the last line, which prints the trace.
import torch
from torch import fx

def f(x, flag):
    if flag: return x
    else: return x*2

fx.symbolic_trace(f, concrete_args={'flag': True})
print(fx.symbolic_trace(f, concrete_args={'flag': True}).code)
