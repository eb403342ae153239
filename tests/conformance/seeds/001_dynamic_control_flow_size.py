# Seed 001 (and 000), "Dynamic Control Flow". Completion: the imports. `x.size[0]` is the
# docs' own slip (x.size is a method) but tracing fails with the documented TraceError anyway.
import torch
import torch.fx

def func_to_trace(x):
    dim0 = x.size[0]
    if dim0 == 3:
        return torch.relu(x)
    else:
        return torch.neg(x)

traced = torch.fx.symbolic_trace(func_to_trace)
