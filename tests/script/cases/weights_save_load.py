# torch.save / torch.load round trips: tensors, state dicts (OrderedDict), plain dicts and
# nested checkpoints come back with their types, values, dtypes and Parameter flags.
import collections
import os

import torch
import torch.nn as nn

# files in the temporary directory, named after the process (scripts have no tempfile)
tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "fx_weights_%d_" % os.getpid())
made = []


def path(name):
    made.append(tmp + name)
    return tmp + name


torch.manual_seed(0)
t = torch.arange(6.).reshape(2, 3)
torch.save(t, path("t.pt"))
back = torch.load(path("t.pt"))
print(type(back).__name__, back, torch.equal(back, t))

torch.save(t.t(), path("tt.pt"))
print(torch.load(path("tt.pt")))

ints = torch.tensor([[1, 2], [3, 4]], dtype=torch.int64)
torch.save({"i": ints, "b": ints > 2, "d": t.double()}, path("dict.pt"))
d = torch.load(path("dict.pt"))
print(type(d).__name__, list(d), d["i"].dtype, d["b"], d["d"].dtype)

m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2), nn.ReLU())
sd = m.state_dict()
torch.save(sd, path("sd.pt"))
sd2 = torch.load(path("sd.pt"))
print(type(sd2).__name__, list(sd2.keys()))
print(all(torch.equal(sd[k], sd2[k]) for k in sd))
print(sd2["1.num_batches_tracked"], sd2["1.running_var"])

ck = {"epoch": 7, "lr": 0.125, "tags": ["a", "b"], "best": None, "flags": (True, False),
      "model": m.state_dict(), "od": collections.OrderedDict(x=1, y=2)}
torch.save(ck, path("ck.pt"))
ck2 = torch.load(path("ck.pt"))
print(ck2["epoch"], ck2["lr"], ck2["tags"], ck2["best"], ck2["flags"], ck2["od"])
print(type(ck2["model"]).__name__, type(ck2["od"]).__name__)

p = nn.Parameter(torch.ones(2))
torch.save([p, p], path("params.pt"))
lst = torch.load(path("params.pt"))
print(type(lst).__name__, lst[0].requires_grad, lst[0] is lst[1])

m2 = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2), nn.ReLU())
print(m2.load_state_dict(torch.load(path("sd.pt"))))
print(torch.equal(m2[0].weight, m[0].weight))

try:
    torch.save(t, tmp + "no/such/dir/x.pt")
except RuntimeError as e:
    print("RuntimeError", str(e).replace(tmp, "TMP_"))
try:
    torch.load(tmp + "missing.pt")
except FileNotFoundError as e:
    print("FileNotFoundError", str(e).replace(tmp, "TMP_"))

for name in sorted(set(made)):
    os.remove(name)
