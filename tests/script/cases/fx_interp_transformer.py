# torch.fx.Transformer: re-tracing a graph through Proxies into a new GraphModule, with ops
# swapped, modules kept as call_module, attributes as get_attr and defaults kept.
import operator
import torch
import torch.fx
from torch.fx import Transformer, Proxy


class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.lin(x).relu()


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.w = torch.nn.Parameter(torch.ones(3))

    def forward(self, x, bias=1.5):
        a = self.sub(x) + self.w
        b = torch.mul(a, 2) - bias
        c = torch.sigmoid(b).neg()
        return c, a.sum(dim=-1, keepdim=True)


torch.manual_seed(0)
m = M()
gm = torch.fx.symbolic_trace(m)
print(gm.code)

# The identity transform: the same code, the same results.
same = Transformer(gm).transform()
print(same.code)
x = torch.randn(2, 3)
with torch.no_grad():
    r1 = gm(x)
    r2 = same(x)
    print(torch.equal(r1[0], r2[0]), torch.equal(r1[1], r2[1]))
print(same.sub.lin is gm.sub.lin, same.w is gm.w)


class AddToMulSigmoidToTanh(Transformer):
    def call_function(self, target, args, kwargs):
        if target == operator.add:
            return super().call_function(operator.mul, args, kwargs)
        if target == torch.sigmoid:
            return torch.tanh(*args, **kwargs)
        return super().call_function(target, args, kwargs)

    def call_method(self, target, args, kwargs):
        if target == 'neg':
            return args[0] * -1
        return super().call_method(target, args, kwargs)

    def call_module(self, target, args, kwargs):
        print('module', target, [type(a).__name__ for a in args])
        return super().call_module(target, args, kwargs)

    def placeholder(self, target, args, kwargs):
        p = super().placeholder(target, args, kwargs)
        print('placeholder', target, args, type(p).__name__, p.node.op)
        return p

    def get_attr(self, target, args, kwargs):
        p = super().get_attr(target, args, kwargs)
        print('get_attr', target, p.node.name)
        return p


t = AddToMulSigmoidToTanh(gm)
print(type(t.tracer).__mro__[1].__name__, t.tracer.root is gm, t.new_graph is t.tracer.graph)
swapped = t.transform()
print(swapped.code)
print(swapped.graph)
with torch.no_grad():
    got = swapped(x)
    a = m.sub(x) * m.w
    want = (torch.tanh(a * 2 - 1.5) * -1, a.sum(dim=-1, keepdim=True))
    print(torch.allclose(got[0], want[0]), torch.allclose(got[1], want[1]))
    print(torch.allclose(swapped(x, 0.0)[0], torch.tanh(a * 2) * -1))
print(gm.code == swapped.code, type(swapped).__name__)
print([n.name for n in t.env])


# A Transformer that inserts nodes by returning new proxies and returns a single value.
def f(x, y):
    return torch.relu(x) + y

class DoubleRelu(Transformer):
    def call_function(self, target, args, kwargs):
        out = super().call_function(target, args, kwargs)
        if target == torch.relu:
            return out * 2
        return out

fg = torch.fx.symbolic_trace(f)
dr = DoubleRelu(fg).transform()
print(dr.code)
print(dr(torch.tensor([-1.0, 3.0]), torch.tensor([1.0, 1.0])))
dr.graph.lint()
