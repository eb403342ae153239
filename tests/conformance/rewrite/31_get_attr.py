# get_attr nodes match by attribute name; a replacement module's attribute that is not a
# submodule cannot be brought over (1.13's RuntimeError).
import torch
from torch.fx import symbolic_trace, replace_pattern

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3, 3))
        self.other = torch.nn.Parameter(torch.ones(3, 3))

    def forward(self, x):
        return torch.matmul(x, self.weight) + torch.matmul(x, self.other)

class P(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3, 3))

    def forward(self, x):
        return torch.matmul(x, self.weight)

def replacement(x, w):
    return torch.mm(x, w)

gm = symbolic_trace(M())
print(replace_pattern(gm, P(), lambda x: torch.neg(x)))
print(gm.code)
gm = symbolic_trace(M())
try:
    replace_pattern(gm, P(), P())
except RuntimeError as e:
    print('RuntimeError', e)
print(gm.code)
