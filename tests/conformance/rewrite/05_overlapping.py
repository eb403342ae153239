# Overlapping candidates: relu(relu(x)) on a chain of five relus; the first match wins.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(x):
    for _ in range(5):
        x = torch.relu(x)
    return x

def pattern(x):
    return torch.relu(torch.relu(x))

def replacement(x):
    return torch.tanh(x)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
