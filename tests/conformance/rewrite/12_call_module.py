# call_module patterns: modules match by target name; replacement submodules come along.
import torch
from torch.fx import symbolic_trace, replace_pattern

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.act = torch.nn.ReLU()

    def forward(self, x):
        return self.act(self.lin(x)) + self.lin(x)

class Pattern(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.act = torch.nn.ReLU()

    def forward(self, x):
        return self.act(self.lin(x))

class Replacement(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.gelu = torch.nn.GELU()

    def forward(self, x):
        return self.gelu(self.lin(x))

gm = symbolic_trace(M())
print(replace_pattern(gm, Pattern(), Replacement()))
print(gm.code)
print(gm)
