# run_fuse_models.py: models with Conv2d -> BatchNorm2d (-> add) (-> ReLU) chains for test-run.c's fusion
# tests: each is traced with fx_trace_file() and run by the plan (fused) and by the script.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.models


def randomize_bn(model):
    """Running stats and affine parameters away from their defaults, so that a BatchNorm
    the fused step skipped or got wrong shows in the result."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                if m.running_mean is not None:
                    m.running_mean.uniform_(-0.5, 0.5)
                    m.running_var.uniform_(0.5, 2.0)
                if m.weight is not None:
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.uniform_(-0.5, 0.5)
    return model


class Spellings(nn.Module):
    """Every ReLU spelling after a conv -> bn pair, conv bias, stride, groups, affine=False,
    a pair without ReLU, and a reflect-padded conv (never fused)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 8, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1, groups=2, bias=False)
        self.bn2 = nn.BatchNorm2d(8, affine=False)
        self.conv3 = nn.Conv2d(8, 8, 1)
        self.bn3 = nn.BatchNorm2d(8)
        self.conv4 = nn.Conv2d(8, 8, 3, padding='same', bias=False)
        self.bn4 = nn.BatchNorm2d(8)
        self.conv5 = nn.Conv2d(8, 8, 3, padding=1, padding_mode='reflect')
        self.bn5 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)), inplace=True)
        x = torch.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x)).relu()
        x = self.bn4(self.conv4(x)) + x
        return self.relu(self.bn5(self.conv5(x)))


class SecondUser(nn.Module):
    """The conv output is also used after the BatchNorm: nothing to fuse."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        c = self.conv(x)
        return F.relu(self.bn(c)) + c


class Train(SecondUser):
    """A chain whose BatchNorm is in training mode: batch statistics, never fused."""

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class Residuals(nn.Module):
    """Each spelling of a residual add after a conv -> bn pair (with and without a ReLU after
    it); then adds that must not ride along: in place into the residual, a broadcast
    residual (found when compiling, run node by node) and a constant."""

    def __init__(self):
        super().__init__()
        for i in range(1, 10):
            setattr(self, f"conv{i}", nn.Conv2d(8, 8, 3, padding=1, bias=(i % 2 == 0)))
            setattr(self, f"bn{i}", nn.BatchNorm2d(8))

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)) + x)
        x = torch.relu(x + self.bn2(self.conv2(x)))
        x = torch.add(self.bn3(self.conv3(x)), x).relu_()
        y = self.bn4(self.conv4(x))
        y += x
        x = y
        x = self.bn5(self.conv5(x)).add(x)
        x = self.bn6(self.conv6(x)).add_(x).relu()
        x = x.add_(self.bn7(self.conv7(x)))
        r = x.mean((2, 3), keepdim=True)
        x = self.bn8(self.conv8(x)) + r
        return self.bn9(self.conv9(x)) + 1.0


class Padded(nn.Module):
    """Chains that feed only chains (their values' planes of 10x10 padded to whole cache
    lines), and one read by an add."""

    def __init__(self):
        super().__init__()
        for i in range(1, 4):
            setattr(self, f"conv{i}", nn.Conv2d(8, 8, 3, padding=1))
            setattr(self, f"bn{i}", nn.BatchNorm2d(8))

    def forward(self, x):
        y1 = F.relu(self.bn1(self.conv1(x)))
        y2 = F.relu(self.bn2(self.conv2(y1)))
        y3 = F.relu(self.bn3(self.conv3(y2)) + y2)
        return y3 + x


class Pools(nn.Module):
    """Chains that end in a MaxPool2d: ResNet's stem and pool (pooled as the stem's rows are
    made), pools of the plain path (another conv, another pool, ceil_mode), and one that
    returns indices (its chain then runs node by node)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
        self.conv3 = nn.Conv2d(16, 16, 3, padding=1)
        self.conv4 = nn.Conv2d(16, 16, 3, padding=1)
        for i in range(1, 5):
            setattr(self, f"bn{i}", nn.BatchNorm2d(16))
        self.pool1 = nn.MaxPool2d(3, 2, 1)
        self.pool2 = nn.MaxPool2d(2)
        self.pool3 = nn.MaxPool2d(3, 2, 1, ceil_mode=True)
        self.pool4 = nn.MaxPool2d(2, return_indices=True)

    def forward(self, x):
        x = self.pool1(torch.relu(self.bn1(self.conv1(x))))
        x = self.pool2(self.bn2(self.conv2(x)))
        x = self.pool3(F.relu(self.bn3(self.conv3(x))))
        y, idx = self.pool4(F.relu(self.bn4(self.conv4(x))))
        return y + idx.float()


class Pair(nn.Module):
    """A bottleneck's end: conv3 -> bn3, then the downsample's conv -> bn, the add and the
    ReLU, run as one step (positions in whole vectors, stride 1: tile by tile)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv3 = nn.Conv2d(16, 32, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(32)
        self.downsample = nn.Sequential(nn.Conv2d(8, 32, 1, bias=False), nn.BatchNorm2d(32))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn3(self.conv3(out))
        out += self.downsample(x)
        return F.relu(out)


torch.manual_seed(2)
spellings = randomize_bn(Spellings()).eval()
second_user = randomize_bn(SecondUser()).eval()
train = randomize_bn(Train()).train()
residuals = randomize_bn(Residuals()).eval()
resnet18 = randomize_bn(torchvision.models.resnet18()).eval()
padded = randomize_bn(Padded()).eval()
pools = randomize_bn(Pools()).eval()
pair = randomize_bn(Pair()).eval()
