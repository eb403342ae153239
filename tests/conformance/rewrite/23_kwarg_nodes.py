# Nodes passed by keyword match node to node; args are compared flattened.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    x = torch.add(a, other=b)
    y = torch.add(a, b)
    z = torch.cat([a, b], 0)
    w = torch.cat((b, a), dim=0)
    return x, y, z, w

gm = symbolic_trace(f)
print(replace_pattern(gm, lambda p, q: torch.add(p, other=q), lambda p, q: torch.sub(p, q)))
print(replace_pattern(gm, lambda p, q: torch.cat([p, q], 0), lambda p, q: torch.stack([p, q])))
print(gm.code)
