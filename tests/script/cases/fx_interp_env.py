# torch.fx.Interpreter: the values env keeps, when they are freed, initial_env, defaults, *args
# placeholders, get_attr/call_module/call_method dispatch and overriding run_node.
import operator
import torch
import torch.fx
from torch.fx import Interpreter


class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((3,), 2.0))

    def forward(self, x):
        return x * self.scale


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.register_buffer('offset', torch.arange(3.0))

    def forward(self, x, y, k=10):
        a = self.sub(x)
        b = a + self.offset
        c = torch.add(b, y, alpha=2)
        d = c.clamp(min=0.5).sum(dim=0)
        return {'out': d + k, 'pair': (a, [b])}


gm = torch.fx.symbolic_trace(M())
print(gm.code)
x = torch.tensor([[1.0, -2.0, 3.0], [0.0, 1.0, -1.0]])
y = torch.ones(2, 3)
with torch.no_grad():
    interp = Interpreter(gm)
    print(interp.run(x, y))
    print(interp.env)
    print(sorted(interp.submodules.keys()))
    print({user.name: [n.name for n in uses] for user, uses in interp.user_to_last_uses.items()})

    keep = Interpreter(gm, garbage_collect_values=False)
    print(keep.run(x, y, 1))
    print([n.name for n in keep.env])
    print(hasattr(keep, 'user_to_last_uses'))
    for n in gm.graph.nodes:
        if n.op == 'get_attr':
            print(n.name, keep.env[n])
    print(keep.fetch_attr('sub.scale'))
    print(keep.fetch_attr('offset'))
    print(keep.env[list(gm.graph.nodes)[2]])

    # Pre-computed values: nodes in initial_env are not run.
    nodes = list(gm.graph.nodes)
    by_name = {n.name: n for n in nodes}
    env = {by_name['x']: x, by_name['y']: y, by_name['k']: 0,
           by_name['sub_scale']: torch.zeros(3)}
    print(Interpreter(gm).run(initial_env=env))
    print(len(env))
    print(Interpreter(gm).run(x, y, enable_io_processing=False)['out'])

    args, kwargs = keep.fetch_args_kwargs_from_env(by_name['add_1'])
    print(args, kwargs)
    print(keep.map_nodes_to_values((by_name['x'], [by_name['k'], 3], {'a': by_name['y']}),
                                   by_name['add']))


# A graph built by hand with a *args placeholder and a default value.
g = torch.fx.Graph()
a = g.placeholder('a')
b = g.placeholder('b', default_value=5)
rest = g.placeholder('*rest')
s = g.call_function(operator.add, (a, b))
t = g.call_function(len, (rest,))
g.output((s, t, rest))
hand = torch.fx.GraphModule(torch.nn.Module(), g)
print(Interpreter(hand).run(1))
print(Interpreter(hand).run(1, 2))
print(Interpreter(hand).run(1, 2, 3, 4))


class Tracing(Interpreter):
    def run_node(self, n):
        result = super().run_node(n)
        print('ran', n.op, n.name, type(result).__name__ if n.op != 'output' else isinstance(result, dict))
        return result

    def placeholder(self, target, args, kwargs):
        value = super().placeholder(target, args, kwargs)
        print('placeholder', target, args, value)
        return value

    def call_module(self, target, args, kwargs):
        print('call_module', target, kwargs)
        return super().call_module(target, args, kwargs)

    def get_attr(self, target, args, kwargs):
        print('get_attr', target)
        return super().get_attr(target, args, kwargs)

    def call_method(self, target, args, kwargs):
        print('call_method', target, len(args), kwargs)
        return super().call_method(target, args, kwargs)

    def output(self, target, args, kwargs):
        print('output', target, isinstance(args[0], dict))
        return super().output(target, args, kwargs)


with torch.no_grad():
    print(Tracing(gm).run(x, y)['out'])


# Interpreter on a plain function's graph; each run starts afresh.
def f(x):
    return torch.relu(x) - x.neg()

fg = torch.fx.symbolic_trace(f)
i = Interpreter(fg)
print(i.run(torch.tensor([-1.0, 2.0])))
print(i.run(torch.tensor([3.0])))
print(i.env)
print(i.module is fg)
