# Module.state_dict's key order (parameters, then buffers such as running_mean and
# num_batches_tracked, then children) and load_state_dict's results and strict errors.
import torch
import torch.nn as nn
import torchvision

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.register_buffer("scale", torch.ones(1))
        self.register_buffer("cache", torch.zeros(1), persistent=False)
        self.gain = nn.Parameter(torch.full((2,), 0.5))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.fc = nn.Linear(4, 2)


net = Net()
sd = net.state_dict()
print(type(sd).__name__)
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype)

print(net.load_state_dict(sd))
r = net.load_state_dict(sd, strict=False)
print(r, r.missing_keys, r.unexpected_keys)

bad = dict(sd)
del bad["fc.bias"]
del bad["block.bn.running_mean"]
bad["block.extra"] = torch.zeros(1)
bad["head.weight"] = torch.zeros(1)
bad["block.bn.weight"] = torch.zeros(5)
try:
    net.load_state_dict(bad)
except RuntimeError as e:
    print(e)
print(net.load_state_dict({k: v for k, v in bad.items() if k != "block.bn.weight"}, strict=False))

# num_batches_tracked may be absent from a state dict: it then loads as 0
no_counter = {k: v for k, v in sd.items() if not k.endswith("num_batches_tracked")}
print(net.load_state_dict(no_counter))

m = torchvision.models.resnet18(num_classes=10)
sd = torchvision.models.resnet18().state_dict()
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd = m.state_dict()
sd.pop("layer4.1.bn2.running_var")
sd["layer1.0.foo"] = torch.zeros(1)
sd["bias"] = torch.zeros(1)
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
