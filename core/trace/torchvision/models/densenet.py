# DenseNet-BC (Huang et al., "Densely Connected Convolutional Networks") with the module
# layout, attribute names and forward of torchvision 0.14's, so that torch.fx traces both
# alike.
from collections import OrderedDict
from typing import List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class _DenseLayer(nn.Module):
    def __init__(self, num_input_features: int, growth_rate: int, bn_size: int,
                 drop_rate: float, memory_efficient: bool = False) -> None:
        super().__init__()
        bottleneck = bn_size * growth_rate
        self.norm1 = nn.BatchNorm2d(num_input_features)
        self.relu1 = nn.ReLU(inplace=True)
        self.conv1 = nn.Conv2d(num_input_features, bottleneck, kernel_size=1, stride=1,
                               bias=False)
        self.norm2 = nn.BatchNorm2d(bottleneck)
        self.relu2 = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(bottleneck, growth_rate, kernel_size=3, stride=1, padding=1,
                               bias=False)
        self.drop_rate = float(drop_rate)
        self.memory_efficient = memory_efficient

    def bn_function(self, inputs: List[Tensor]) -> Tensor:
        concated_features = torch.cat(inputs, 1)
        return self.conv1(self.relu1(self.norm1(concated_features)))

    def any_requires_grad(self, inputs: List[Tensor]) -> bool:
        for t in inputs:
            if t.requires_grad:
                return True
        return False

    def call_checkpoint_bottleneck(self, inputs: List[Tensor]) -> Tensor:
        import torch.utils.checkpoint as checkpoint

        def closure(*args):
            return self.bn_function(args)
        return checkpoint.checkpoint(closure, *inputs)

    def forward(self, input: Tensor) -> Tensor:
        prev_features = [input] if isinstance(input, Tensor) else input
        if self.memory_efficient and self.any_requires_grad(prev_features):
            bottleneck_output = self.call_checkpoint_bottleneck(prev_features)
        else:
            bottleneck_output = self.bn_function(prev_features)
        new_features = self.conv2(self.relu2(self.norm2(bottleneck_output)))
        if self.drop_rate > 0:
            new_features = F.dropout(new_features, p=self.drop_rate, training=self.training)
        return new_features


class _DenseBlock(nn.ModuleDict):
    _version = 2

    def __init__(self, num_layers: int, num_input_features: int, bn_size: int,
                 growth_rate: int, drop_rate: float, memory_efficient: bool = False) -> None:
        super().__init__()
        for i in range(num_layers):
            self.add_module(f"denselayer{i + 1}",
                            _DenseLayer(num_input_features + i * growth_rate,
                                        growth_rate=growth_rate, bn_size=bn_size,
                                        drop_rate=drop_rate,
                                        memory_efficient=memory_efficient))

    def forward(self, init_features: Tensor) -> Tensor:
        features = [init_features]
        for _, layer in self.items():
            features.append(layer(features))
        return torch.cat(features, 1)


class _Transition(nn.Sequential):
    def __init__(self, num_input_features: int, num_output_features: int) -> None:
        super().__init__()
        self.norm = nn.BatchNorm2d(num_input_features)
        self.relu = nn.ReLU(inplace=True)
        self.conv = nn.Conv2d(num_input_features, num_output_features, kernel_size=1,
                              stride=1, bias=False)
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)


class DenseNet(nn.Module):
    def __init__(self, growth_rate: int = 32,
                 block_config: Tuple[int, int, int, int] = (6, 12, 24, 16),
                 num_init_features: int = 64, bn_size: int = 4, drop_rate: float = 0,
                 num_classes: int = 1000, memory_efficient: bool = False) -> None:
        super().__init__()
        self.features = nn.Sequential(OrderedDict([
            ("conv0", nn.Conv2d(3, num_init_features, kernel_size=7, stride=2, padding=3,
                                bias=False)),
            ("norm0", nn.BatchNorm2d(num_init_features)),
            ("relu0", nn.ReLU(inplace=True)),
            ("pool0", nn.MaxPool2d(kernel_size=3, stride=2, padding=1)),
        ]))
        channels = num_init_features
        last = len(block_config) - 1
        for i, num_layers in enumerate(block_config):
            block = _DenseBlock(num_layers=num_layers, num_input_features=channels,
                                bn_size=bn_size, growth_rate=growth_rate,
                                drop_rate=drop_rate, memory_efficient=memory_efficient)
            self.features.add_module(f"denseblock{i + 1}", block)
            channels += num_layers * growth_rate
            if i != last:
                self.features.add_module(
                    f"transition{i + 1}",
                    _Transition(num_input_features=channels, num_output_features=channels // 2))
                channels //= 2
        self.features.add_module("norm5", nn.BatchNorm2d(channels))
        self.classifier = nn.Linear(channels, num_classes)

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                nn.init.constant_(m.bias, 0)

    def forward(self, x: Tensor) -> Tensor:
        features = self.features(x)
        out = F.relu(features, inplace=True)
        out = F.adaptive_avg_pool2d(out, (1, 1))
        out = torch.flatten(out, 1)
        return self.classifier(out)


def densenet121(**kwargs) -> DenseNet:
    return DenseNet(32, (6, 12, 24, 16), 64, **kwargs)


def densenet161(**kwargs) -> DenseNet:
    return DenseNet(48, (6, 12, 36, 24), 96, **kwargs)
