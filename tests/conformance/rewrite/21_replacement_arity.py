# A replacement with other placeholders or outputs than the pattern's: AssertionError.
import torch
from torch.fx import symbolic_trace, replace_pattern

def f(a, b):
    return torch.relu(a) + b

def pattern(x):
    return torch.relu(x)

gm = symbolic_trace(f)
try:
    replace_pattern(gm, pattern, lambda x, y: torch.sigmoid(x))
except AssertionError as e:
    print('AssertionError', repr(e))
print(gm.code)
gm = symbolic_trace(f)
try:
    replace_pattern(gm, pattern, lambda x: (torch.sigmoid(x), torch.tanh(x)))
except AssertionError as e:
    print('AssertionError', repr(e))
print(gm.code)
