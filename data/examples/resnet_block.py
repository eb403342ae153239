"""A small ResNet in torchvision's style: the example model FX Editor opens first.

Trace it with `fx trace data/examples/resnet_block.py --module TinyResNet`, or open it in
FX Editor and pick TinyResNet.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv3x3(in_planes, out_planes, stride=1):
    """3x3 convolution with padding"""
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        out = self.relu(out)
        return out


class TinyResNet(nn.Module):
    def __init__(self, num_classes=10, width=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = nn.Sequential(BasicBlock(width, width), BasicBlock(width, width))
        downsample = nn.Sequential(
            nn.Conv2d(width, 2 * width, kernel_size=1, stride=2, bias=False),
            nn.BatchNorm2d(2 * width),
        )
        self.layer2 = nn.Sequential(
            BasicBlock(width, 2 * width, stride=2, downsample=downsample),
            BasicBlock(2 * width, 2 * width),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(2 * width, num_classes)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc(x), dim=1)


model = TinyResNet()

if __name__ == "__main__":
    import torch.fx

    torch.manual_seed(0)
    traced = torch.fx.symbolic_trace(model)
    print(traced.code)
    print(traced(torch.randn(2, 3, 32, 32)).shape)
