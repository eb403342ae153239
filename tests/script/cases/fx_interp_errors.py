# torch.fx.Interpreter's errors as 1.13 raises them: missing inputs, exceptions of a node
# re-raised with the node named, KeyError turned into RuntimeError, missing targets and values.
import operator
import torch
import torch.fx
from torch.fx import Interpreter, Transformer


def f(x, y):
    return torch.relu(x) + y

gm = torch.fx.symbolic_trace(f)
for args in [(), (torch.ones(1),)]:
    try:
        Interpreter(gm).run(*args)
    except RuntimeError as e:
        print(type(e).__name__, e.args)


class Failing(Interpreter):
    def __init__(self, module, exc):
        super().__init__(module)
        self.exc = exc

    def call_function(self, target, args, kwargs):
        if target == operator.add:
            raise self.exc
        return super().call_function(target, args, kwargs)


for exc in [ValueError('boom', 3), ValueError(), KeyError('missing'), TypeError(7),
            AssertionError('a\nb')]:
    try:
        Failing(gm, exc).run(torch.ones(2), torch.ones(2))
    except Exception as e:
        print(type(e).__name__, e.args, e is exc)
        print(str(e))

# A get_attr of a target the module does not have.
g = torch.fx.Graph()
g.output(g.get_attr('a.b'))
root = torch.nn.Module()
root.a = torch.nn.Module()
root.a.b = torch.ones(1)
bad = torch.fx.GraphModule(root, g)
print(Interpreter(bad).run())
bad.a = torch.nn.Module()
try:
    Interpreter(bad).run()
except RuntimeError as e:
    print(e)
i = Interpreter(gm)
for target in ['nope', 'training', 'training.x']:
    try:
        print(i.fetch_attr(target))
    except RuntimeError as e:
        print(e)

# A node whose input value is not in env.
nodes = list(gm.graph.nodes)
i = Interpreter(gm)
try:
    i.map_nodes_to_values((nodes[0],), nodes[2])
except RuntimeError as e:
    print(e)
try:
    i.fetch_args_kwargs_from_env(nodes[3])
except RuntimeError as e:
    print(e)

# The wrong kind of module, and a Transformer missing nothing.
try:
    Interpreter(torch.nn.Linear(2, 2))
except AssertionError as e:
    print('AssertionError', e.args)
print(Transformer(gm).transform().code)

# An exception raised by the called function itself.
g2 = torch.fx.Graph()
s = g2.placeholder('s')
g2.output(g2.call_function(int, (s,), {'base': 10}))
gg = torch.fx.GraphModule(torch.nn.Module(), g2)
print(Interpreter(gg).run('12'))
try:
    Interpreter(gg).run('abc')
except ValueError as e:
    print('ValueError', e)


# A Transformer whose call_function raises.
class Bad(Transformer):
    def call_function(self, target, args, kwargs):
        raise NotImplementedError('no functions')

try:
    Bad(gm).transform()
except NotImplementedError as e:
    print(e)
