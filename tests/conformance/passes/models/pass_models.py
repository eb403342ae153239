# Models that tests/core/test-passes.c traces with fx_trace_file() and runs libfx's C passes
# on; gen_passes.py records what torch 1.13 gives for the same models.
import torch
import torch.nn as nn
from torchvision.models import resnet18


def _randomise_stats(model):
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)) and m.track_running_stats:
            n = m.num_features
            m.running_mean = torch.rand(n) * 0.2 - 0.1
            m.running_var = torch.rand(n) + 0.5
            m.weight = nn.Parameter(torch.rand(n) + 0.5)
            m.bias = nn.Parameter(torch.rand(n) - 0.5)
    return model.eval()


torch.manual_seed(0)
resnet = _randomise_stats(resnet18())


class ConvBn(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(3, 4, 3)
        self.b1 = nn.BatchNorm1d(4)
        self.c2 = nn.Conv2d(3, 5, 3, bias=False)
        self.b2 = nn.BatchNorm2d(5)
        self.c3 = nn.Conv2d(3, 5, 1)
        self.b3 = nn.BatchNorm2d(5)
        self.c4 = nn.Conv2d(3, 5, 1)
        self.b4 = nn.BatchNorm2d(5, track_running_stats=False)

    def forward(self, x, y):
        a = self.b1(self.c1(x))
        b = self.b2(self.c2(y))
        c3 = self.c3(y)
        c = self.b3(c3) + c3
        d = self.b4(self.c4(y))
        return a.sum() + b.sum() + c.sum() + d.sum()


torch.manual_seed(1)
conv_bn = _randomise_stats(ConvBn())


class Dead(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, unused):
        a = x + 1
        b = a * 2
        torch.relu(b)
        x.add_(1)
        torch._assert(x.sum() > -1000, "big")
        self.lin(x)
        return x - 1


dead = Dead()


class Folding(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 4))
        self.c = nn.Parameter(torch.randn(4))
        self.d = nn.Parameter(torch.randn(4))
        self.lin = nn.Linear(4, 4)
        self.register_buffer('s', torch.tensor(2.0))

    def forward(self, x, y):
        a = torch.relu(x)
        w2 = self.w.t() * self.s
        z = a @ w2 + self.d
        z = self.lin(z) + self.c + self.lin(self.c)
        return z, w2


torch.manual_seed(2)
folding = Folding()


class FoldOne(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 4))

    def forward(self, x):
        return x @ self.w.t()


torch.manual_seed(3)
fold_one = FoldOne()
