import copy, torch
import torch.nn as nn
torch.manual_seed(0)
t = torch.ones(2, requires_grad=True)
t2 = copy.deepcopy(t)
print(t2, t2 is t, copy.copy(t) is t)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
m2 = copy.deepcopy(m)
print(m2)
print(m2[0].weight is m[0].weight, torch.equal(m2[0].weight, m[0].weight))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.k = [1, 2]
    def forward(self, x):
        return self.fc(x)
n = Net()
n2 = copy.deepcopy(n)
print(n2, n2.k, n2.k is n.k, type(n2.fc.weight).__name__)
print(n2(torch.ones(1, 2)).shape)
