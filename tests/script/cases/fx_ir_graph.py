# Graph and Node of torch.fx built by hand: printing, code, editing, copying.
import torch, torch.fx, operator
from torch.fx.node import map_aggregate

g = torch.fx.Graph()
x = g.placeholder('x', type_expr=torch.Tensor)
y = g.placeholder('y', type_expr=int, default_value=None)
a = g.call_function(operator.add, (x, y))
b = g.call_method('view', (a, [-1, 2]), type_expr=torch.Tensor)
c = g.call_function(operator.getitem, (b, (slice(None, 2), 0)))
d = g.create_node('call_function', torch.cat, ([a, c],), {'dim': 0}, name='joined')
o = g.output(d, type_expr=torch.Tensor)
print(g)
print(g.python_code('self').src)
print(x.type, y.type, a.type, b.type)
print(d.args, d.kwargs, d.all_input_nodes)
print(list(a.users), a.users)
print(x.prev.name == '', o.next.name == '', x.prev.op)
a.meta['val'] = 3
print(a.meta, a.stack_trace)
a.stack_trace = 'File "x.py", line 3, in f\n    return x + y\n'
print(a.meta['stack_trace'] == a.stack_trace)
print(d.format_node())
print(o.format_node())

# node_copy / graph_copy
g2 = torch.fx.Graph()
env = {}
for n in g.nodes:
    if n.op == 'output':
        g2.output(torch.fx.map_arg(n.args[0], lambda v: env[v]))
    else:
        env[n] = g2.node_copy(n, lambda v: env[v])
print(g2)
g3 = torch.fx.Graph()
vm = {}
rv = g3.graph_copy(g, vm)
print(rv, len(vm), [k.name + '->' + v.name for k, v in vm.items()])
g3.output(rv)
print(g3)
g4 = torch.fx.Graph()
rv, old = g4.graph_copy(g, {}, return_output_node=True)
print(rv, old, old is o)

# insertion points without with
ip = g.inserting_before(a)
z = g.call_function(torch.neg, (x,))
ip.__exit__(None, None, None)
w = g.call_function(torch.sin, (z,))
print([n.name for n in g.nodes])
with g.inserting_after(x):
    q1 = g.call_function(torch.cos, (x,))
    q2 = g.call_function(torch.tan, (x,))
print([n.name for n in g.nodes])
with g.inserting_before(None):
    g.placeholder('first')
with g.inserting_after(None):
    g.call_function(torch.exp, (x,))
print([n.name for n in g.nodes])
print(g.eliminate_dead_code())
print([n.name for n in g.nodes])
b.update_arg(1, [2, -1])
b.update_kwarg('foo', x)
print(b.args, b.kwargs, list(x.users))
b.kwargs = {}
b.args = (a, 4)
print(b.format_node(), list(x.users))
d.replace_input_with(a, x)
print(d.format_node())
a.prepend(b)
print([n.name for n in g.nodes])
try:
    g.lint()
except Exception as e:
    print(type(e).__name__, e)
a.append(b)
g.lint()
n2 = a.replace_all_uses_with(x, lambda u: u.op != 'output')
print(n2)
print(map_aggregate([1, (2, 3), {'k': a}], lambda v: v if isinstance(v, torch.fx.Node) else v * 10))
try:
    g.erase_node(x)
except RuntimeError as e:
    print(e)
print(len(g.nodes), [n.name for n in reversed(g.nodes)])
for n in g.nodes:
    if n.op == 'call_function' and not n.users:
        g.erase_node(n)
print([n.name for n in g.nodes])
for n in list(g.nodes):
    if n.op == "call_function" and n.target is torch.cat:
        n.target = operator.add
        n.args = (n.args[0][0], n.args[0][1])
        n.kwargs = {}
g.print_tabular()
