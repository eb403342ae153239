# Errors of Graph and GraphModule construction, as 1.13 raises them.
import torch, torch.fx, operator
g = torch.fx.Graph()
x = g.placeholder('x')
for f in [lambda: g.call_function(3, (x,)), lambda: g.call_module(3, (x,)), lambda: g.create_node('bad', 'x'),
          lambda: g.call_function(operator.add, 5), lambda: torch.fx.GraphModule(torch.nn.Module(), 5)]:
    try:
        f()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
g2 = torch.fx.Graph()
y = g2.placeholder('y')
try:
    g.erase_node(y)
    print("erased")
except Exception as e:
    print(type(e).__name__, e)
print(list(g2.nodes), y.graph is g2)
