# torch.fx.GraphModule from a Module or a dict root: attribute copying, code, running, editing.
import torch, torch.fx, operator
torch.manual_seed(0)

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)
        self.layer1 = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(2, 2))
        self.register_buffer('scale', torch.tensor([2.0, 3.0]))
        self.unused = torch.nn.Linear(5, 5)

net = Net()
g = torch.fx.Graph()
x = g.placeholder('x')
l = g.call_module('linear', (x,))
s = g.call_module('layer1.0', (l,))
t = g.call_module('layer1.1', (s,))
sc = g.get_attr('scale')
m = g.call_function(operator.mul, (t, sc))
w = g.call_function(torch.neg, (m,))
n = g.call_function(len, (w,))
sz = g.call_method('size', (w, -1))
g.output({'out': w, 'n': n, 'sz': sz})
gm = torch.fx.GraphModule(net, g)
print(gm)
print(gm.code)
inp = torch.ones(4, 3)
out = gm(inp)
print(out['n'], out['sz'], out['out'].shape)
ref = torch.neg(net.layer1(net.linear(inp)) * net.scale)
print(torch.allclose(out['out'], ref))
print(isinstance(gm, torch.nn.Module), type(gm).__name__)
print(gm.graph is g, g.owning_module is gm)
print(hasattr(gm, 'unused'), getattr(gm.layer1, '1') is net.layer1[1], gm.scale)
print(sorted(dict(gm.named_parameters()).keys()))
print(sorted(dict(gm.named_buffers()).keys()))
g.lint()
# edit: replace mul by add, recompile
with g.inserting_after(m):
    a = g.call_function(operator.add, (t, sc))
m.replace_all_uses_with(a)
g.erase_node(m)
gm.recompile()
print(gm.code)
print(torch.allclose(gm(inp)['out'], torch.neg(net.layer1(net.linear(inp)) + net.scale)))
for node in g.nodes:
    if node.op == 'call_function' and node.target is len:
        node.replace_all_uses_with(sz)
        g.erase_node(node)
print([nd.name for nd in g.nodes])
print(g)
gm.graph = g
print(gm.code)
gm.print_readable()
g = torch.fx.Graph()
x = g.placeholder('x')
y = g.placeholder('y', default_value=2.0)
w = g.get_attr('sub.w')
l = g.call_module('lin', (x,))
a = g.call_function(torch.add, (l, w), {'alpha': 2})
b = g.call_function(operator.mul, (a, y))
g.output(b)
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2)
gm = torch.fx.GraphModule({'sub.w': torch.ones(2), 'lin': lin}, g, 'Foo')
print(gm)
print(type(gm).__name__, type(gm).__qualname__, isinstance(gm, torch.fx.GraphModule))
inp = torch.tensor([[1.0, 2.0]])
print(torch.allclose(gm(inp), (lin(inp) + 2 * torch.ones(2)) * 2.0))
print(torch.allclose(gm(inp, y=3.0), (lin(inp) + 2 * torch.ones(2)) * 3.0))
print(torch.allclose(gm.forward(inp, 3.0), (lin(inp) + 2 * torch.ones(2)) * 3.0))
print(gm.sub.w, gm.lin is lin)
try:
    torch.fx.GraphModule({}, g)
except RuntimeError as e:
    print(e)
try:
    torch.fx.GraphModule(3, g)
except RuntimeError as e:
    print(e)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
try:
    torch.fx.GraphModule(M(), g)
except AttributeError as e:
    print(e)
pc = gm.recompile()
print(pc.src == gm.code)
gm.print_readable()
m = M()
m.eval()
g2 = torch.fx.Graph()
xx = g2.placeholder('x')
g2.output(g2.call_module('lin', (xx,)))
gm2 = torch.fx.GraphModule(m, g2)
print(gm2.training, gm2)
