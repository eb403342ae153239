# Seeds 001 and 002 (and 000), the `f(x, flag)` example up to its `# Fails!` line.
# Completion: the imports. Ends in the TraceError the comment announces.
import torch
from torch import fx

def f(x, flag):
    if flag: return x
    else: return x*2

fx.symbolic_trace(f) # Fails!
