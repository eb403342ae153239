import torch
import torch.nn as nn
import torch.nn.functional as F

class MyLinear(nn.Linear):
    def __init__(self, a, b):
        super().__init__(a, b, bias=False)
        self.scale = 2.0
    def forward(self, x):
        return super().forward(x) * self.scale

class MyConv(nn.Conv2d):
    def extra_repr(self):
        return 'custom=' + str(self.out_channels)

torch.manual_seed(1)
m = MyLinear(3, 2)
print(m)
print(m(torch.ones(1, 3)).detach())
print(MyConv(1, 2, 3))
print(MyConv(1, 2, 3).weight.shape)

class WithBuf(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('running', torch.zeros(3))
        self.register_buffer('tmp', torch.ones(2), persistent=False)
        self.w = nn.Parameter(torch.ones(2, 2))
        self.register_parameter('nothing', None)
        self.sub = nn.Linear(2, 2)
        self.plain = [1, 2]
    def forward(self, x, *, scale=1.0):
        return (x @ self.w) * scale + self.running[:2]

w = WithBuf()
print(w)
print(list(w.state_dict().keys()))
print([n for n, _ in w.named_buffers()])
print([n for n, _ in w.named_parameters()])
print(w(torch.ones(1, 2), scale=3.0).detach())
print(w.nothing, w.plain, w.training)
w.training = False
print(w.training)
del w.sub
print(w)
try:
    w.sub
except AttributeError as e:
    print(e)
w.running = torch.full((3,), 5.0)
print(w.running)
w.w = None
print(list(w.named_parameters()))
print(w.state_dict())

class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = WithBuf()
        self.b = nn.ModuleList([nn.Linear(2, 3), nn.Linear(3, 1)])
    def forward(self, x):
        return x

o = Outer()
sd = o.state_dict()
print(list(sd.keys()))
o2 = Outer()
print(o2.load_state_dict(sd))
sd['b.0.weight'] = torch.zeros(3, 3)
del sd['a.w']
sd['a.extra'] = torch.ones(1)
sd['zzz.q'] = torch.ones(1)
try:
    o2.load_state_dict(sd)
except RuntimeError as e:
    print(e)
print(o2.load_state_dict({'b.1.bias': torch.tensor([7.0])}, strict=False))
print(o2.b[1].bias)
names = []
o.apply(lambda mod: names.append(type(mod).__name__))
print(names)
o.double()
print(o.b[0].weight.dtype, o.a.running.dtype)
o.to(torch.float32)
print(o.b[0].weight.dtype)
print(o.to('cpu') is o, o.cpu() is o)
print(o.requires_grad_(False).b[0].weight.requires_grad)
print(isinstance(o, nn.Module), isinstance(o.b, nn.ModuleList), isinstance(o.b[0].weight, nn.Parameter))
print(o.get_parameter('b.0.bias').shape, o.get_buffer('a.running').shape)
try:
    o.get_buffer('a.w')
except AttributeError as e:
    print(e)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2))
torch.manual_seed(0)
t = torch.empty(3, 4)
nn.init.xavier_uniform_(t)
print(t)
nn.init.trunc_normal_(t, std=0.02)
print(t)
nn.init.kaiming_uniform_(t, a=1)
print(t)
nn.init.normal_(t, 0, 0.01); print(t)
nn.init.zeros_(t); print(t)
nn.init.eye_(t); print(t)
p = nn.Parameter(torch.zeros(2))
print(p, p.requires_grad, nn.Parameter(torch.ones(1), requires_grad=False))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 2)))
