import torch, torch.nn as nn
from collections import OrderedDict
pd = nn.ParameterDict({'b': nn.Parameter(torch.ones(2)), 'a': torch.zeros(1, 2)})
print(pd); print(pd['a']); print(list(pd.keys()), len(pd), 'a' in pd)
pd['c'] = torch.ones(3); print([n for n, _ in pd.named_parameters()])
for k in pd: print(k)
print(list(pd.items())[0][0], pd.get('zz'), pd.pop('c').shape, list(pd.values())[0].shape)
pd.update({'d': torch.ones(1)}); print(pd)
print(nn.ParameterDict())
print(nn.ParameterDict(OrderedDict([('z', nn.Parameter(torch.ones(1))), ('y', nn.Parameter(torch.ones(1, dtype=torch.float64)))])))
try:
    pd[1]
except TypeError as e:
    print(e)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(2))})
print(M(), list(M().state_dict()))
pd.clear(); print(pd, len(pd))
