# Seed 002, "Debugging the Transformation": a transform to step into. Completion: the
# imports and `traced` of the preceding example (023).
import torch
import torch.fx
from torch import fx
from torch.fx import symbolic_trace

class M(torch.nn.Module):
    def forward(self, x, y):
        return x + y

traced = symbolic_trace(M())

# Sample user-defined function
def transform_graph(module: torch.nn.Module, tracer_class : type = fx.Tracer) -> torch.nn.Module:
    # Get the Graph from our traced Module
    g = tracer_class().trace(module)

    """
    Transformations on `g` go here
    """

    return fx.GraphModule(module, g)

# Transform the Graph
transformed = transform_graph(traced)

# Print the new code after our transforms. Check to see if it was
# what we expected
print(transformed)
