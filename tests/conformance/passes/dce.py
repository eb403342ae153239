# Graph.eliminate_dead_code as 1.13 does it: unused pure nodes go (last to first, so chains
# go too), in-place ops are not impure, torch._assert and placeholders stay; the return value
# says whether anything changed.
import torch
import torch.fx as fx


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x, unused):
        a = x + 1
        b = a * 2          # a chain nobody reads
        c = torch.relu(b)
        x.add_(1)          # in place, result unused
        torch._assert(x.sum() > -1000, "big")
        self.lin(x)        # unused module call
        return x - 1


gm = fx.symbolic_trace(M())
print(gm.graph)
print(gm.graph.eliminate_dead_code())
gm.recompile()
print(gm.code)
print(gm.graph.eliminate_dead_code())

g = fx.Graph()
x = g.placeholder('x')
y = g.call_function(torch.sin, (x,))
g.call_function(torch.cos, (y,))
g.output(x)
print(g.eliminate_dead_code())
print(g)
