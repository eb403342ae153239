# A classic: conv followed by batch norm and relu in a small network, replaced by a module.
import torch
from torch.fx import symbolic_trace, replace_pattern

class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(3)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(3)
        self.head = torch.nn.Conv2d(3, 1, 1)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return self.head(y)

class Fused(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 3, padding=1)
        self.fused_act = torch.nn.Hardtanh()

    def forward(self, x):
        return self.fused_act(self.conv(x))

gm = symbolic_trace(Net())
print(replace_pattern(gm, Block(), Fused()))
print(gm.code)
print([name for name, _ in gm.named_children()])
