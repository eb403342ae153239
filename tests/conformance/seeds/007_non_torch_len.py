# Seed 002 (001 and 000 without the imports), "Non-torch Functions". Complete as printed.
# Ends in the documented RuntimeError about `len`.
import torch
import torch.fx
from math import sqrt

def normalize(x):
    """
    Normalize `x` by the size of the batch dimension
    """
    return x / sqrt(len(x))

# It's valid Python code
normalize(torch.rand(3, 4))

traced = torch.fx.symbolic_trace(normalize)
