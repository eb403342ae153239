# fuse's pattern rules: Conv1d/BatchNorm1d and bias-less Conv2d fuse; a conv whose output has
# other users, a BatchNorm without running stats and a module in training mode do not.
import sys
import torch
import torch.nn as nn
from torch.fx.experimental.optimization import fuse

sys.path.insert(0, 'models')
from pass_models import conv_bn as net   # Conv1d+BN1d, bias-less Conv2d+BN2d, c3 shared, b4 stat-less

fused = fuse(net)
print(fused.code)
print(fused)
print(fused.c2.bias is not None, net.c2.bias is None, fused.c1 is net.c1)
x = torch.randn(2, 3, 10)
y = torch.randn(2, 3, 8, 8)
print(torch.allclose(fused(x, y), net(x, y), rtol=1e-4, atol=1e-3))

# inplace=True fuses into the model's own modules
same = fuse(net, inplace=True)
print(net.c1 is same.c1, hasattr(net, 'b1'))

net.train()
try:
    fuse(net)
except AssertionError as e:
    print('AssertionError:', e)
