# A replacement returning its input removes the pattern: relu(relu(x)) -> relu(x) -> x.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return torch.relu(torch.relu(a)), torch.neg(torch.neg(b)) + 1

gm = symbolic_trace(f)
print(replace_pattern(gm, lambda x: torch.neg(torch.neg(x)), lambda x: x))
print(replace_pattern(gm, lambda x: torch.relu(torch.relu(x)), lambda x: torch.relu(x)))
print(gm.code)
print(gm.graph)
