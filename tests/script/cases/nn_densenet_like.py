import torch, torch.nn as nn
from collections import OrderedDict
s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
s._modules = OrderedDict([('a', nn.Tanh()), ('b', nn.ReLU())])
print(s, s.a, len(s))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(OrderedDict([('conv0', nn.Conv2d(1, 2, 3)), ('norm0', nn.BatchNorm2d(2))]))
        for i in range(2):
            self.features.add_module('block%d' % (i + 1), nn.ReLU())
        self.features.add_module('norm5', nn.BatchNorm2d(2))
        self.classifier = nn.Linear(2, 3)
    def forward(self, x):
        f = self.features(x)
        out = nn.functional.relu(f, inplace=True)
        out = nn.functional.adaptive_avg_pool2d(out, (1, 1))
        out = torch.flatten(out, 1)
        return self.classifier(out)
torch.manual_seed(0)
n = Net()
print(n)
print(n(torch.randn(1, 1, 5, 5)).detach())
print(list(n.state_dict())[:5])
