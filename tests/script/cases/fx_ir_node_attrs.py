# Node objects belong to their graph: attributes a script sets on a node (ShapeProp's
# node.shape) stay for the graph's lifetime, and g.nodes gives the same objects each time.
import operator
import torch
import torch.fx


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 3)

    def forward(self, x):
        y = self.linear(x + 1)
        return torch.relu(y).sum(dim=-1)


gm = torch.fx.symbolic_trace(M())


def tag_nodes(graph):
    for i, node in enumerate(graph.nodes):
        node.index = i
        node.kind = node.op.upper()


tag_nodes(gm.graph)
for node in gm.graph.nodes:
    print(node.name, node.index, node.kind, hasattr(node, 'shape'))

# identity: the same Node objects every time, through every path
first = list(gm.graph.nodes)
second = list(gm.graph.nodes)
print(all(a is b for a, b in zip(first, second)), len(first) == len(second))
add = first[1]
print(add.args[0] is first[0], list(first[0].users)[0] is add, add.next is first[2])
print(add.prev is first[0], add.graph is gm.graph, first[0].all_input_nodes == [])
print(id(add) == id(list(gm.graph.nodes)[1]))
seen = {}
for node in gm.graph.nodes:
    seen[node] = node.name
print([seen[n] for n in gm.graph.nodes])

# values computed per node, ShapeProp style, read back afterwards
env = {}
modules = dict(gm.named_modules())
for node in gm.graph.nodes:
    if node.op == 'placeholder':
        result = torch.ones(2, 4)
    elif node.op == 'call_function':
        result = node.target(*torch.fx.node.map_arg(node.args, lambda n: env[n.name]),
                             **torch.fx.node.map_arg(node.kwargs, lambda n: env[n.name]))
    elif node.op == 'call_method':
        self_obj, *rest = torch.fx.node.map_arg(node.args, lambda n: env[n.name])
        result = getattr(self_obj, node.target)(*rest, **node.kwargs)
    elif node.op == 'call_module':
        result = modules[node.target](*torch.fx.node.map_arg(node.args, lambda n: env[n.name]))
    else:
        result = None
    if isinstance(result, torch.Tensor):
        node.shape = result.shape
        node.dtype = result.dtype
    env[node.name] = result
for node in gm.graph.nodes:
    print(node.name, getattr(node, 'shape', None), getattr(node, 'dtype', None))

# attributes can be replaced and deleted
node = first[0]
node.index = 'changed'
print(list(gm.graph.nodes)[0].index)
del node.index
print(hasattr(list(gm.graph.nodes)[0], 'index'))
try:
    list(gm.graph.nodes)[0].index
except AttributeError as e:
    print('AttributeError:', e)

# the graph and the module keep theirs too
gm.graph.pass_name = 'tagging'
gm.note = 'hello'
print(gm.graph.pass_name, gm.note)

# a graph built by hand; erased nodes keep their attributes while someone holds them
g = torch.fx.Graph()
x = g.placeholder('x')
a = g.call_function(operator.add, (x, 1))
b = g.call_function(operator.mul, (a, 2))
g.output(b)
a.color = 'red'
b.color = 'blue'
del a, b
print([getattr(n, 'color', '-') for n in g.nodes])
dead = g.create_node('call_function', operator.neg, (x,))
dead.color = 'grey'
g.erase_node(dead)
print(dead.color, dead.name, len(g.nodes))
del dead

# node attributes that refer back to the graph and to nodes (reference cycles)
for n in g.nodes:
    n.owner = g
    n.me = n
    n.others = list(g.nodes)
print(all(n.owner is g and n.me is n for n in g.nodes))
print([n.name for n in list(g.nodes)[1].others])

# renaming a node: a plain attribute in 1.13; the generated code renames clashes
g2 = torch.fx.Graph()
x = g2.placeholder('x')
r = g2.call_function(torch.relu, (x,))
s = g2.call_function(operator.add, (r, 1))
n = g2.call_function(len, (x,))
g2.output((s, n))
r.name = 'activated'
s.name = 'x'
print([n.name for n in g2.nodes])
print(g2)
print(g2.python_code('self').src)
t = g2.create_node('call_function', torch.relu, (x,), name='activated')
u = g2.create_node('call_function', torch.relu, (x,), name='relu')
print(t.name, u.name)
print(n.format_node())

# print_tabular shows builtins as Python does
g3 = torch.fx.Graph()
x = g3.placeholder('x')
n = g3.call_function(len, (x,))
m = g3.call_function(operator.add, (n, 1))
k = g3.call_function(getattr, (x, 'shape'))
g3.output((m, k))
g3.print_tabular()
