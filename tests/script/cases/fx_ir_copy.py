# copy.copy / copy.deepcopy of a GraphModule and the owning_module they leave.
import torch, torch.fx, copy
torch.manual_seed(0)
m = torch.nn.Module()
m.lin = torch.nn.Linear(2, 2)
m.register_buffer('b', torch.ones(2))
g = torch.fx.Graph()
x = g.placeholder('x')
y = g.call_module('lin', (x,))
z = g.call_function(torch.add, (y, g.get_attr('b')))
g.output(z)
gm = torch.fx.GraphModule(m, g, 'Named')
c1 = copy.copy(gm)
c2 = copy.deepcopy(gm)
print(type(c1).__name__, type(c2).__name__, c1.lin is gm.lin, c2.lin is gm.lin, c1.graph is gm.graph, c2.graph is gm.graph)
inp = torch.ones(1, 2)
print(torch.allclose(c1(inp), gm(inp)), torch.allclose(c2(inp), gm(inp)))
print(c2)
n2 = [n.name for n in c2.graph.nodes]
print(n2, c2.graph.owning_module is c2, gm.graph.owning_module)
try:
    with g.inserting_before(list(c2.graph.nodes)[0]):
        pass
except AssertionError as e:
    print(e)
