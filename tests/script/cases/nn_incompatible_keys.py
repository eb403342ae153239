# load_state_dict's _IncompatibleKeys as the namedtuple it is: _asdict, _fields, tuple
# comparisons, count/index, unpacking.
import torch
import torch.nn as nn

net = nn.Linear(2, 3)
sd = net.state_dict()
r = net.load_state_dict(sd)
print(r)
print(r._asdict())
print(r._fields)
print(tuple(r), r == ([], []), r == ((), ()), r != ([], []))
sd2 = dict(sd)
del sd2["bias"]
sd2["extra"] = torch.zeros(1)
r = net.load_state_dict(sd2, strict=False)
print(r)
print(r._asdict())
print(r._asdict()["missing_keys"], list(r), len(r), r[1])
m, u = r
print(m, u, r.count([]), r.index(["extra"]))
print(isinstance(r, tuple), type(r).__name__)
