# Seed 002, "Use the to_folder Function From GraphModule". Completion: the imports and a
# module `M` before the example (the one of 021); the last lines use the reloaded module.
# The example writes the folder `foo` into the working directory (tests/conformance/seeds).
import torch
import torch.fx
from torch.fx import symbolic_trace

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.x = torch.nn.Parameter(torch.arange(6.0).reshape(2, 3))

    def forward(self, y):
        return self.x + y

m = symbolic_trace(M())
m.to_folder("foo", "Bar")
from foo import Bar
y = Bar()

print(y)
with torch.no_grad():
    print(y(torch.ones(2, 3)))
