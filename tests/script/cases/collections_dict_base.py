# collections' mappings are dicts: isinstance / issubclass / __mro__, subclasses of them,
# and state dicts that model code checks with isinstance(sd, dict)
from collections import Counter, OrderedDict, defaultdict

import torch

od = OrderedDict(b=2, a=1)
print(isinstance(od, dict), issubclass(OrderedDict, dict), OrderedDict.__mro__)
print(isinstance(defaultdict(int), dict), isinstance(Counter("abca"), dict))
print(issubclass(defaultdict, dict), issubclass(Counter, dict), issubclass(dict, OrderedDict))


class Ordered(OrderedDict):
    def total(self):
        return sum(self.values())


m = Ordered(x=3, y=4)
print(type(m).__mro__)
print(m, m.total(), isinstance(m, dict), isinstance(m, OrderedDict))
m.move_to_end("x")
print(list(m), {**m, "z": 5}, m == {"y": 4, "x": 3})

dd = defaultdict(list)
dd["k"].append(1)
print(dd, dict(dd))

sd = torch.nn.Linear(2, 3).state_dict()
print(type(sd).__name__, isinstance(sd, dict), list(sd.keys()))


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


print(flatten({"a": OrderedDict(b=1, c=OrderedDict(d=2)), "e": 3}))
