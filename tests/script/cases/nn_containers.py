import copy
import torch
import torch.nn as nn

class Block(nn.Module):
    expansion = 4
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(n):
            self.layers.append(nn.Linear(2, 2))
        self.act = nn.ReLU()
        self.n = n
    @property
    def depth(self):
        return len(self.layers)
    def extra_repr(self):
        return f'n={self.n}'
    def forward(self, x):
        for l in self.layers:
            x = self.act(l(x))
        return x

torch.manual_seed(3)
b = Block(2)
print(b)
print(b.depth, b.expansion, Block.expansion, hasattr(b, 'layers'), hasattr(b, 'zzz'), getattr(b, 'zzz', 5))
print(b(torch.ones(1, 2)).detach())
print(sorted(vars(b).keys()) == sorted(b.__dict__.keys()), 'n' in b.__dict__)
b2 = copy.deepcopy(b)
print(b2)
print(b2.layers[0].weight is b.layers[0].weight, torch.allclose(b2.layers[0].weight, b.layers[0].weight))
b2.layers[0].weight.data.fill_(1.0)
print(b.layers[0].weight.detach()[0])
print(b == b, b != b2, hash(b) == hash(b))
class NoFwd(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1)
n = NoFwd()
try:
    n(1)
except NotImplementedError as e:
    print(type(e).__name__, e)
class Empty(nn.Module):
    def forward(self):
        return 42
print(Empty(), Empty()())
class K(nn.Module):
    def forward(self, a, b=2, *rest, c=3, **kw):
        return (a, b, rest, c, kw)
print(K()(1), K()(1, 5, 6, 7, c=0, z=1))
s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(s(torch.ones(4, 2)).shape)
print(s[-1], s[:2], list(s)[1])
s2 = s + nn.Sequential(nn.Tanh())
print(s2)
s3 = nn.Sequential(nn.ReLU()) * 2
print(s3)
try:
    s[5]
except IndexError as e:
    print(e)
ml = nn.ModuleList()
print(ml, len(ml))
try:
    ml[0]
except IndexError as e:
    print(e)
try:
    nn.ModuleList(3)
except TypeError as e:
    print(e)
md = nn.ModuleDict([('a', nn.ReLU()), ('b', nn.Tanh())])
print(md.pop('a'), md)
print(list(iter(md)), list(md.values()))
md.update({'c': nn.Sigmoid()})
md.clear()
print(md)
net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Dropout(0.5), nn.Linear(8, 2))
print(net)
net.eval()
print(net(torch.ones(1, 1, 4, 4)).shape)
for name, mod in net.named_modules(prefix='root'):
    print(name, type(mod).__name__)
print([n for n, _ in net.named_parameters(prefix='p', recurse=True)][:3])
print(list(net.named_parameters(recurse=False)))
print(len(list(net.modules())), len(list(net.children())))
shared = nn.Linear(1, 1)
tw = nn.Sequential(shared, shared)
print(len(list(tw.parameters())), list(tw.state_dict().keys()), [n for n, _ in tw.named_modules()])
print([n for n, _ in tw.named_modules(remove_duplicate=False)])
