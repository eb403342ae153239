# fuse (torch.fx.experimental.optimization) on ResNet-18 in eval mode with non-trivial
# BatchNorm statistics: the fused GraphModule's code and module tree, and its outputs next
# to the original model's on a fixed input.
import torch
import torch.nn as nn
from torch.fx.experimental.optimization import fuse
from torchvision.models import resnet18

torch.manual_seed(0)
model = resnet18()
for m in model.modules():
    if isinstance(m, nn.BatchNorm2d):
        n = m.num_features
        m.running_mean = torch.rand(n) * 0.2 - 0.1
        m.running_var = torch.rand(n) + 0.5
        m.weight = nn.Parameter(torch.rand(n) + 0.5)
        m.bias = nn.Parameter(torch.rand(n) - 0.5)
model.eval()

fused = fuse(model)
print(fused.code)
print(fused)
print(type(fused).__name__, len(list(fused.modules())), len(list(model.modules())))
print(sorted(n for n, _ in fused.named_parameters())[:6])

x = torch.randn(2, 3, 64, 64)
with torch.no_grad():
    expected = model(x)
    got = fused(x)
print(got.shape, torch.allclose(got, expected, rtol=1e-4, atol=1e-4))
print((got - expected).abs().max().item() < 1e-3)
print(fused.conv1.bias is not None, fused.conv1.weight.requires_grad)
