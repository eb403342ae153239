# A small model whose weights PyTorch itself saved (weights_tiny.pt, by
# tests/conformance/gen_numerics.py): torch.load, load_state_dict and the output they give.
# test-cli.c also runs `fx exec weights_tiny.py --module Tiny --weights weights_tiny.pt`.
import torch
import torch.nn as nn


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.fc = nn.Linear(3 * 4 * 4, 5)

    def forward(self, x):
        return self.fc(torch.flatten(torch.relu(self.bn(self.conv(x))), 1))


if __name__ == "__main__":
    sd = torch.load("weights_tiny.pt")
    print(type(sd).__name__, list(sd.keys()))
    print(sd["bn.running_mean"], sd["bn.num_batches_tracked"])
    print(sd["fc.bias"].dtype, sd["fc.bias"].shape, sd["fc.bias"].requires_grad)
    m = Tiny()
    print(m.load_state_dict(sd))
    m.eval()
    x = torch.linspace(-1, 1, 2 * 2 * 4 * 4).reshape(2, 2, 4, 4)
    with torch.no_grad():
        print(m(x))
