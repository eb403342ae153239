# str % tensor, hash(tensor), and how registry functions print and name themselves.
import operator
import math
import torch
import torch.nn.functional as F

t = torch.tensor(1.5)
print("%s" % t, "%r" % (torch.tensor([1.0, 2.0]),), "value=%s!" % torch.tensor([1, 2]))
print(hash(t) == id(t), {t: 1}[t])

def shown(f):
    text = repr(f)
    return text.split(" at 0x")[0] if " at 0x" in text else text

for f in [torch.relu, torch.add, torch.cat, F.relu, F.gelu, F.softmax, F.linear, F.max_pool2d,
          operator.add, operator.getitem, math.sqrt, len, getattr, F.layer_norm]:
    print(shown(f), f.__module__, f.__name__, f.__qualname__)
print(operator.add, str(operator.mul))
print(type(operator.add).__name__)
