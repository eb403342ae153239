# symbolic_trace of roots with *args, **kwargs and keyword-only parameters: 1.13 makes each
# a placeholder (`*args` → node `_args`) and the generated forward keeps the signature.
import torch
import torch.fx


class StarArgs(torch.nn.Module):
    def forward(self, x, *args, **kwargs):
        return x + args[0] + kwargs['y']


def star_rest(x, *rest, k=3, **kw):
    return x * k


def only_star(*args):
    return args[0] + args[1]


def keyword_only(x, *, k):
    return x * k


def show(root):
    gm = torch.fx.symbolic_trace(root)
    print(gm.code)
    print(gm.graph)
    for node in gm.graph.nodes:
        print(node.op, repr(node.name), repr(node.target) if isinstance(node.target, str)
              else node.target.__name__, node.args)
    return gm


gm = show(StarArgs())
print(gm(torch.ones(2), torch.full((2,), 2.0), y=torch.full((2,), 4.0)))
gm = show(star_rest)
print(gm(torch.ones(2), 5, 7, z=1))
gm = show(only_star)
print(gm(torch.ones(2), torch.ones(2)))
gm = show(keyword_only)
print(gm(torch.ones(2), 3))
