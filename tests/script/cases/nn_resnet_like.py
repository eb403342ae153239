import torch
import torch.nn as nn
from collections import OrderedDict

class BasicBlock(nn.Module):
    expansion = 1
    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(8, 8), BasicBlock(8, 8))
        self.layer2 = nn.Sequential(BasicBlock(8, 16, 2, nn.Sequential(nn.Conv2d(8, 16, 1, stride=2, bias=False), nn.BatchNorm2d(16))))
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, 10)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.conv1(x)
        x = self.layer2(self.layer1(x))
        x = self.pool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)

torch.manual_seed(0)
net = Net()
print(net)
print(list(net.state_dict().keys()))
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print([(n, p.shape) for n, p in net.named_parameters()][:5])
print(sum(p.numel() for p in net.parameters()))
print([n for n, b in net.named_buffers()][:4])
x = torch.randn(2, 3, 8, 8)
y = net(x)
print(y.shape)
print(y[0, :4].detach())
net.eval()
print(net.training, net.layer1[0].bn1.training)
print(net(x)[0, :4].detach())
print(net.layer1[0])
print(net.layer1[-1].conv2.weight.shape, len(net.layer1))
print(net.fc.weight.detach()[0, :3])
print(net.get_submodule('layer2.0.downsample.0'))
print(net.layer2[0].stride, net.fc.in_features, net.conv1.kernel_size, net.conv1.stride, net.conv1.padding)
s = nn.Sequential(OrderedDict([('a', nn.ReLU()), ('b', nn.Tanh())]))
print(s, s.a, s[1], len(s), s[0:1])
s.append(nn.Sigmoid())
print(s)
del s[0]
print(s)
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
ml.append(nn.ReLU())
ml.insert(1, nn.Identity())
ml.extend([nn.Tanh()])
print(ml, len(ml), ml[1:3])
for m in ml[::2]:
    print(type(m).__name__)
md = nn.ModuleDict({'x': nn.ReLU(), 'y': nn.Linear(1, 1)})
md['z'] = nn.Flatten()
print(md, list(md.keys()), 'x' in md, len(md))
for k, v in md.items():
    print(k, v)
print(nn.Flatten(), nn.Unflatten(1, (2, 2)), nn.Identity(3, a=4), nn.Dropout(0.2), nn.Embedding(10, 3))
print(nn.BatchNorm1d(3), nn.LayerNorm([4, 5]), nn.GroupNorm(2, 4), nn.MaxPool2d(2), nn.AvgPool2d(3, 2), nn.Upsample(scale_factor=2))
