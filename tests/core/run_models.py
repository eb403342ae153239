# run_models.py: models that tests/core/test-run.c traces with fx_trace_file() and also runs
# through the script path (symbolic_trace + GraphModule call) to compare the results.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    """ResNet's BasicBlock with an identity shortcut."""

    def __init__(self, c=4):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + x)


class Head(nn.Module):
    """get_attr of a parameter, flatten, Linear, and a call_method with kwargs."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(4))
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        x = x.mean(dim=(2, 3)) * self.scale
        return F.softmax(self.fc(x), dim=-1)


class Leaf(nn.Module):
    def forward(self, x):
        return x * 3


class WithLeaf(nn.Module):
    def __init__(self):
        super().__init__()
        self.leaf = Leaf()

    def forward(self, x):
        return self.leaf(x) + 1


torch.manual_seed(0)
block = Block().eval()
head = Head()
with_leaf = WithLeaf()


def chain(x):
    for i in range(20):
        x = x + 1.5
        x = x * x if i % 5 == 0 else x - 0.25
    return x


def split(x):
    c = torch.chunk(x, 2, dim=1)
    a = c[0]
    return (a.relu(), c[1] * 2), {'s': a.sum(dim=1, keepdim=True), 'n': x.shape[0]}


def kw(x, y, scale=2.0):
    return torch.sum(x * scale + y, dim=1, keepdim=True)


def inplace(x):
    y = x.clone()
    y.add_(1)
    torch.relu_(y)
    z = F.relu(x - 1, inplace=True)
    return y + z


def matmul(x, w):
    return torch.relu(x @ w)
