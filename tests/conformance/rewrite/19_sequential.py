# Two rewrites in a row: names keep counting up, the second sees the first's output.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    return torch.relu(torch.relu(a) + 1) + torch.relu(a)

gm = symbolic_trace(f)
print(replace_pattern(gm, lambda x: torch.relu(x), lambda x: torch.sigmoid(x)))
print(gm.code)
print(replace_pattern(gm, lambda x: torch.sigmoid(x) + 1, lambda x: torch.relu(x) - 1))
print(gm.code)
