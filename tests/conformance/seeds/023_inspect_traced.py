# Seed 002, "Debugging the Transformation": printing a traced module, its graph and its
# table. Completion: the imports.
import torch
import torch.fx
from torch.fx import symbolic_trace

# Sample Module
class M(torch.nn.Module):
    def forward(self, x, y):
        return x + y

# Create an instance of `M`
m = M()

# Symbolically trace an instance of `M` (returns a GraphModule). In
# this example, we'll only be discussing how to inspect a
# GraphModule, so we aren't showing any sample transforms for the
# sake of brevity.
traced = symbolic_trace(m)

# Print the code produced by tracing the module.
print(traced)
# The generated `forward` function is:
"""
def forward(self, x, y):
    add_1 = x + y;  x = y = None
    return add_1
"""

# Print the internal Graph.
print(traced.graph)
# This print-out returns:
"""
graph(x, y):
    %add_1 : [#users=1] = call_function[target=<built-in function add>](args = (%x, %y), kwargs = {})
    return add_1
"""

# Print a tabular representation of the internal Graph.
traced.graph.print_tabular()
# This gives us:
"""
opcode         name    target                   args      kwargs
-------------  ------  -----------------------  --------  --------
placeholder    x       x                        ()        {}
placeholder    y       y                        ()        {}
call_function  add_1   <built-in function add>  (x, y)    {}
"""
