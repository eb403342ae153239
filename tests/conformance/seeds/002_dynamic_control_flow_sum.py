# Seed 002, "Dynamic Control Flow". Completion: the imports. Ends in the documented TraceError.
import torch
import torch.fx

def func_to_trace(x):
    if x.sum() > 0:
        return torch.relu(x)
    else:
        return torch.neg(x)

traced = torch.fx.symbolic_trace(func_to_trace)
