# Seed 002, "Writing Transformations" (note): modifying a GraphModule in place.
# Typo fixed: the docs' `-> nn.Module):` has one `)` too many (a SyntaxError even in CPython).
# Completion: `nn`, and the last lines, which apply the transform.
from torch import nn
import torch
import torch.fx

def transform(m : nn.Module) -> nn.Module:
    gm : torch.fx.GraphModule = torch.fx.symbolic_trace(m)

    # Modify gm.graph
    # <...>

    # Recompile the forward() method of `gm` from its Graph
    gm.recompile()

    return gm

class M(nn.Module):
    def forward(self, x):
        return torch.relu(x) + 1

print(transform(M()).code)
