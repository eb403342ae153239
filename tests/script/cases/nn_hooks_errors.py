import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(2, 2)
seen = []
h1 = lin.register_forward_pre_hook(lambda m, inp: seen.append(('pre', type(m).__name__, len(inp))))
h2 = lin.register_forward_hook(lambda m, inp, out: out * 0)
print(lin(torch.ones(1, 2)).detach(), seen)
h2.remove()
print(lin(torch.ones(1, 2)).detach())
h1.remove()
print(len(seen))
def double_input(m, inp):
    return inp[0] * 2
lin.register_forward_pre_hook(double_input)
print(lin(torch.ones(1, 2)).detach())

for bad in [lambda: nn.Linear(2), lambda: nn.Linear(2, 3, 4, 5, 6, 7), lambda: nn.Conv2d(2, 3),
            lambda: nn.Linear(in_features=2, out_features=3, foo=1), lambda: nn.Dropout(2.0),
            lambda: nn.Sequential(nn.ReLU(), 3), lambda: nn.ModuleDict({'a': 1}),
            lambda: nn.Parameter(3), lambda: nn.Conv2d(3, 4, 3, groups=2),
            lambda: nn.Linear(2, 2)(torch.ones(3, 3)), lambda: nn.Sequential(a=1)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
