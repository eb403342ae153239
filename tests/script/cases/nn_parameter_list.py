import torch, torch.nn as nn
m = nn.Module()
for f in [lambda: m.get_extra_state(), lambda: m.set_extra_state(1)]:
  try: f()
  except Exception as e: print(type(e).__name__, e)
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(2,3)])
print(pl); print(nn.ParameterList([nn.Parameter(torch.ones(2))])); print(nn.ParameterList())
pl.append(torch.ones(1, dtype=torch.float64)); print(len(pl), pl[2], [n for n,_ in pl.named_parameters()])
class M(nn.Module):
  def __init__(s):
    super().__init__(); s.ps = nn.ParameterList([nn.Parameter(torch.ones(1)) for _ in range(2)])
print(M(), list(M().state_dict().keys()), pl[0:1])
pl[0] = torch.zeros(1); print(type(pl[0]))
try: pl[5]
except IndexError as e: print(e)
for p in pl: print(p.shape)
