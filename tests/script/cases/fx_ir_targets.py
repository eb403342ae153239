# call_function targets that are script callables: user functions, builtins, a lambda, a
# class; how print(graph) and GraphModule.code name them, and running the code.
import torch, torch.fx, operator

def scale(t, f=2.0):
    return t * f

class Helper:
    @staticmethod
    def shift(t):
        return t + 1

bump = lambda t: t - 3

g = torch.fx.Graph()
x = g.placeholder('x')
a = g.call_function(scale, (x,), {'f': 3.0})
b = g.call_function(Helper.shift, (a,))
c = g.call_function(bump, (b,))
d = g.call_function(scale, (c,))
n = g.call_function(len, (d,))
s = g.call_function(getattr, (d, 'shape'))
i = g.call_function(int, (n,))
t = g.call_function(tuple, ([i, n],))
g.output((d, t, s))
print(g)
gm = torch.fx.GraphModule(torch.nn.Module(), g)
print(gm.code)
out = gm(torch.tensor([1.0, 2.0]))
print(out)
