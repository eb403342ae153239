# Seed 002, "Print the Generated Code". Completion: a module `M` whose trace is the one the
# text shows (a parameter `x` added to the input) and `traced` before the example; the
# last lines compare both modules as the text suggests.
import torch
import torch.fx

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.x = torch.nn.Parameter(torch.arange(6.0).reshape(2, 3))

    def forward(self, y):
        return self.x + y

traced = torch.fx.symbolic_trace(M())

# Assume that `traced` is a GraphModule that has undergone some
# number of transforms

# Copy this code for later
print(traced)
# Print the code generated from symbolic tracing. This outputs:
"""
def forward(self, y):
    x = self.x
    add_1 = x + y;  x = y = None
    return add_1
"""

# Subclass the original Module
class SubclassM(M):
    def __init__(self):
        super().__init__()

    # Paste the generated `forward` function (the one we printed and
    # copied above) here
    def forward(self, y):
        x = self.x
        add_1 = x + y;  x = y = None
        return add_1

# Create an instance of the original, untraced Module. Then, create an
# instance of the Module with the copied `forward` function. We can
# now compare the output of both the original and the traced version.
pre_trace = M()
post_trace = SubclassM()

y = torch.ones(2, 3)
with torch.no_grad():
    print(pre_trace(y))
    print(torch.allclose(pre_trace(y), post_trace(y)))
