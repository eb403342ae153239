# The returned node may have users outside the match; they move to the replacement.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a):
    m = torch.matmul(a, a)
    r = torch.relu(m)
    return r + torch.sum(r) + torch.mean(m)

def pattern(x):
    return torch.relu(torch.matmul(x, x))

def replacement(x):
    return torch.clamp(torch.mm(x, x), min=0)

gm = symbolic_trace(f)
print(replace_pattern(gm, pattern, replacement))
print(gm.code)
def pattern2(x):
    return torch.relu(x)
gm = symbolic_trace(f)
print(replace_pattern(gm, pattern2, lambda x: torch.clamp(x, min=0)))
print(gm.code)
