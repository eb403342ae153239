# Tracing a GraphModule again whose code calls a wrap()ped function: the generated code's
# torch.fx._symbolic_trace.wrap("...") line registers that global of the code, so the second
# trace records the call (meta is_wrapped) instead of tracing through it.
import torch
import torch.fx


def my_scale(x, k):
    return x * k


torch.fx.wrap('my_scale')


def f(x):
    return my_scale(x, 2) + 1


gm = torch.fx.symbolic_trace(f)
print(gm.code)
gm2 = torch.fx.symbolic_trace(gm)
print(gm2.code)
print([(n.name, n.meta.get('is_wrapped')) for n in gm2.graph.nodes])
print(gm2(torch.ones(2)))
gm3 = torch.fx.symbolic_trace(gm2)
print(gm3.code)
