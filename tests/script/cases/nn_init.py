import math
import torch, torch.nn as nn
from torch.nn import init
torch.manual_seed(42)
w = nn.Parameter(torch.empty(3, 5))
print(init.kaiming_uniform_(w, a=math.sqrt(5)))
print(init.kaiming_normal_(w, nonlinearity='linear'))
print(init.kaiming_normal_(w, a=0.1, mode='fan_out', nonlinearity='leaky_relu'))
print(init.xavier_uniform_(w, gain=init.calculate_gain('tanh')))
print(init.xavier_normal_(w))
print(init.uniform_(w, a=-0.1, b=0.1))
print(init.normal_(w, std=0.5))
print(init.constant_(w, 3))
print(init.ones_(torch.empty(2)), init.zeros_(torch.empty(2, dtype=torch.int64)))
print(init.eye_(torch.empty(2, 3)))
print(init.trunc_normal_(torch.empty(2, 3), mean=1.0, std=2.0, a=-1.0, b=1.5))
print(init.trunc_normal_(torch.empty(4), std=0.02))
for nl in ['linear', 'conv2d', 'sigmoid', 'tanh', 'relu', 'leaky_relu', 'selu']:
    print(nl, init.calculate_gain(nl))
for bad in [lambda: init.calculate_gain('foo'), lambda: init.kaiming_uniform_(torch.empty(3)),
            lambda: init.kaiming_uniform_(w, mode='fan_x'), lambda: init.eye_(torch.empty(2, 2, 2)),
            lambda: init.calculate_gain('leaky_relu', 'x')]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
print(init._calculate_correct_fan(torch.empty(6, 2, 3), 'fan_out'))
