# A GraphModule's conv -> bn -> relu chains whose values only chains read (fx pads their
# 10x10 planes to whole cache lines): the same result as the module, a contiguous output.
# Then the conv of a chain inside a submodule is replaced by a module that calls view(),
# which needs the strides PyTorch's tensor would have.
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F


class ViewFirst(nn.Module):
    def forward(self, x):
        return x.view(x.size(0), -1).view(x.shape)


class Padded(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8))
        self.block2 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8))
        self.conv3 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn3 = nn.BatchNorm2d(8)

    def forward(self, x):
        y1 = F.relu(self.block1(x))
        y2 = F.relu(self.block2(y1))
        y3 = F.relu(self.bn3(self.conv3(y2)) + y2)
        return y3 + x


torch.manual_seed(0)
m = Padded().eval()
gm = torch.fx.symbolic_trace(m)
x = torch.randn(2, 8, 10, 10)
with torch.no_grad():
    a = gm(x)
    print(torch.allclose(a, m(x), rtol=1e-4, atol=1e-5), a.is_contiguous(), a.stride())
    setattr(gm.block2, '0', ViewFirst())
    m.block2[0] = ViewFirst()
    b = gm(x)
    print(torch.allclose(b, m(x), rtol=1e-4, atol=1e-5), b.is_contiguous(), b.shape)
