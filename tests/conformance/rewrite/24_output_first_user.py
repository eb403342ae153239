# Parallel branches returned together: each replacement goes before the output.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b, c):
    return torch.exp(torch.relu(a)), torch.exp(torch.relu(b)), torch.exp(torch.relu(c))

def pattern(x):
    return torch.exp(torch.relu(x))

def replacement(x):
    y = torch.relu(x)
    return torch.exp(y) - 1

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
print(gm.graph)
