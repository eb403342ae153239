# MNASNet B1 (Tan et al., "MnasNet: Platform-Aware Neural Architecture Search for Mobile")
# with the module layout, attribute names and forward of torchvision 0.14's, so that
# torch.fx traces both alike.
from typing import List

import torch
import torch.nn as nn
from torch import Tensor

# TensorFlow's batch-norm decay 0.9997 in PyTorch's momentum convention.
_BN_MOMENTUM = 1 - 0.9997


class _InvertedResidual(nn.Module):
    def __init__(self, in_ch: int, out_ch: int, kernel_size: int, stride: int,
                 expansion_factor: int, bn_momentum: float = 0.1) -> None:
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"stride must be 1 or 2, not {stride}")
        if kernel_size not in (3, 5):
            raise ValueError(f"kernel_size must be 3 or 5, not {kernel_size}")
        mid_ch = in_ch * expansion_factor
        self.apply_residual = in_ch == out_ch and stride == 1
        self.layers = nn.Sequential(
            nn.Conv2d(in_ch, mid_ch, 1, bias=False),
            nn.BatchNorm2d(mid_ch, momentum=bn_momentum),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_ch, mid_ch, kernel_size, padding=kernel_size // 2, stride=stride,
                      groups=mid_ch, bias=False),
            nn.BatchNorm2d(mid_ch, momentum=bn_momentum),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_ch, out_ch, 1, bias=False),
            nn.BatchNorm2d(out_ch, momentum=bn_momentum),
        )

    def forward(self, input: Tensor) -> Tensor:
        if self.apply_residual:
            return self.layers(input) + input
        return self.layers(input)


def _stack(in_ch: int, out_ch: int, kernel_size: int, stride: int, exp_factor: int,
           repeats: int, bn_momentum: float) -> nn.Sequential:
    if repeats < 1:
        raise ValueError(f"a stack needs at least one block, not {repeats}")
    blocks = [_InvertedResidual(in_ch, out_ch, kernel_size, stride, exp_factor,
                                bn_momentum=bn_momentum)]
    blocks += [_InvertedResidual(out_ch, out_ch, kernel_size, 1, exp_factor,
                                 bn_momentum=bn_momentum) for _ in range(1, repeats)]
    return nn.Sequential(*blocks)


def _round_to_multiple_of(val: float, divisor: int, round_up_bias: float = 0.9) -> int:
    if not 0.0 < round_up_bias < 1.0:
        raise ValueError(f"round_up_bias must lie in (0, 1), not {round_up_bias}")
    rounded = max(divisor, int(val + divisor / 2) // divisor * divisor)
    return rounded if rounded >= round_up_bias * val else rounded + divisor


def _get_depths(alpha: float) -> List[int]:
    return [_round_to_multiple_of(d * alpha, 8) for d in (32, 16, 24, 40, 80, 96, 192, 320)]


class MNASNet(torch.nn.Module):
    _version = 2

    def __init__(self, alpha: float, num_classes: int = 1000, dropout: float = 0.2) -> None:
        super().__init__()
        if alpha <= 0.0:
            raise ValueError(f"alpha must be positive, not {alpha}")
        self.alpha = alpha
        self.num_classes = num_classes
        d = _get_depths(alpha)
        m = _BN_MOMENTUM
        self.layers = nn.Sequential(
            nn.Conv2d(3, d[0], 3, padding=1, stride=2, bias=False),
            nn.BatchNorm2d(d[0], momentum=m),
            nn.ReLU(inplace=True),
            nn.Conv2d(d[0], d[0], 3, padding=1, stride=1, groups=d[0], bias=False),
            nn.BatchNorm2d(d[0], momentum=m),
            nn.ReLU(inplace=True),
            nn.Conv2d(d[0], d[1], 1, padding=0, stride=1, bias=False),
            nn.BatchNorm2d(d[1], momentum=m),
            _stack(d[1], d[2], 3, 2, 3, 3, m),
            _stack(d[2], d[3], 5, 2, 3, 3, m),
            _stack(d[3], d[4], 5, 2, 6, 3, m),
            _stack(d[4], d[5], 3, 1, 6, 2, m),
            _stack(d[5], d[6], 5, 2, 6, 4, m),
            _stack(d[6], d[7], 3, 1, 6, 1, m),
            nn.Conv2d(d[7], 1280, 1, padding=0, stride=1, bias=False),
            nn.BatchNorm2d(1280, momentum=m),
            nn.ReLU(inplace=True),
        )
        self.classifier = nn.Sequential(nn.Dropout(p=dropout, inplace=True),
                                        nn.Linear(1280, num_classes))
        for mod in self.modules():
            if isinstance(mod, nn.Conv2d):
                nn.init.kaiming_normal_(mod.weight, mode="fan_out", nonlinearity="relu")
                if mod.bias is not None:
                    nn.init.zeros_(mod.bias)
            elif isinstance(mod, nn.BatchNorm2d):
                nn.init.ones_(mod.weight)
                nn.init.zeros_(mod.bias)
            elif isinstance(mod, nn.Linear):
                nn.init.kaiming_uniform_(mod.weight, mode="fan_out", nonlinearity="sigmoid")
                nn.init.zeros_(mod.bias)

    def forward(self, x: Tensor) -> Tensor:
        x = self.layers(x)
        x = x.mean([2, 3])
        return self.classifier(x)


def mnasnet0_5(**kwargs) -> MNASNet:
    return MNASNet(0.5, **kwargs)


def mnasnet1_0(**kwargs) -> MNASNet:
    return MNASNet(1.0, **kwargs)
