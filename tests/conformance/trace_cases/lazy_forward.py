# A GraphModule's forward as every way of reaching it sees it (fx compiles it on first use):
# through the class, after the graph changed without recompile(), retraced, deep-copied.
import copy
import torch
import torch.fx


@torch.fx.wrap
def twice(x):
    return x * 2


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())

    def forward(self, x):
        return twice(self.seq(x)).relu() + 1


torch.manual_seed(0)
gm = torch.fx.symbolic_trace(M())
x = torch.randn(2, 3)
print(type(type(gm).__dict__['forward']).__name__, type(gm).forward.__name__)
print(gm.forward.__name__, callable(gm.forward))
before = gm(x)
# the graph changes but recompile() is not called: code and forward stay as they were
for n in gm.graph.nodes:
    if n.op == 'call_method' and n.target == 'relu':
        n.target = 'sigmoid'
print(gm.code)
print(torch.equal(gm.forward(x), before))
gm.recompile()
print(gm.code)
print(torch.equal(gm.forward(x), before))
print(torch.fx.symbolic_trace(torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.ReLU()))).code)
print(copy.deepcopy(gm).code)
gm2 = torch.fx.GraphModule(gm, gm.graph, 'Renamed')
gm2.forward = lambda x: x + 100
print(type(gm2).__name__, gm2(torch.zeros(1)))
del gm2.forward
print(torch.equal(gm2(x), gm(x)))
try:
    gm(torch.zeros(2, 5))
except RuntimeError as e:
    print('RuntimeError:', e)
