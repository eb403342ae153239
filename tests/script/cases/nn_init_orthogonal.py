import torch, torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.orthogonal_(w))
print(nn.init.orthogonal_(torch.empty(4, 2), gain=2.0))
print(nn.init.orthogonal_(torch.empty(2, 2, 2)))
l = nn.Linear(3, 3)
nn.init.orthogonal_(l.weight)
print(l.weight)
try:
    nn.init.orthogonal_(torch.empty(3))
except ValueError as e:
    print(e)
