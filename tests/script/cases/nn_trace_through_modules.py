# Tracing through builtin layers inside a model, a subclass of one, a concrete output_size,
# padding modes, keyword calls, and that ordinary calls (real tensors, other objects with
# __torch_function__, a default Tracer) are unchanged.
import torch
nn = torch.nn

class T(torch.fx.Tracer):
    def is_leaf_module(self, m, q):
        return False

def show(root, **kw):
    try:
        g = T().trace(root, **kw)
        print(type(root).__name__)
        print(g)
        return g
    except Exception as e:
        print(type(root).__name__, 'raised', type(e).__name__, e)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding='same', padding_mode='circular', bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flat = nn.Flatten()
        self.fc = nn.Linear(4, 3)
        self.act = nn.ReLU6()

    def forward(self, x):
        y = self.conv(x)
        y = self.pool(y)
        return self.act(self.fc(self.flat(y)))

torch.manual_seed(0)
net = Net()
g = show(net)
gm = torch.fx.GraphModule(net, g)
x = torch.randn(1, 2, 5, 5)
print(torch.allclose(gm(x), net(x)))
print(gm.code)

class MyLinear(nn.Linear):
    pass

show(MyLinear(3, 2))
show(nn.ConvTranspose2d(2, 3, 3, stride=2), concrete_args={'output_size': None})
show(nn.Conv1d(2, 3, 3, padding=2, padding_mode='circular'))
show(nn.Conv2d(2, 3, (3, 2), padding='same', dilation=2, padding_mode='replicate'))

class InstOk(nn.InstanceNorm2d):
    def _check_input_dim(self, input):
        pass
    def _get_no_batch_dim(self):
        return 7
show(InstOk(3, affine=True))

class KwUse(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)
        self.d = nn.Dropout(0.1)
    def forward(self, x):
        return self.d(input=self.l(input=x))
show(KwUse())

# default tracer: layers stay leaves
print(torch.fx.symbolic_trace(nn.Sequential(nn.Linear(2, 2), nn.ReLU())).graph)

# non-Proxy objects with __torch_function__
class Box:
    def __init__(self, t):
        self.t = t
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print('torch_function', func is torch.nn.functional.relu, len(args), kwargs)
        return 'boxed'
print(nn.ReLU()(Box(torch.ones(2))))
print(nn.Linear(2, 2)(torch.ones(1, 2)).shape)
try:
    nn.Linear(2, 2)(3)
except TypeError as e:
    print('TypeError', e)
