import torch
import torch.nn as nn

SPEC = [
    {"type": "conv", "out": 4, "kernel": 3, "padding": 1},
    {"type": "bn"},
    {"type": "act", "fn": "relu"},
    {"type": "pool", "size": 2},
    {"type": "conv", "out": 8, "kernel": 3, "stride": 2},
    {"type": "act", "fn": "leaky_relu", "slope": 0.1},
    {"type": "flatten"},
    {"type": "linear", "out": 5},
]


class SpecNet(nn.Module):
    def __init__(self, spec, in_channels=1, image_size=8):
        super().__init__()
        self.layers = nn.ModuleList()
        c, hw, features = in_channels, image_size, None
        for i, layer in enumerate(spec):
            kind = layer["type"]
            if kind == "conv":
                stride, pad = layer.get("stride", 1), layer.get("padding", 0)
                self.layers.append(nn.Conv2d(c, layer["out"], layer["kernel"], stride=stride, padding=pad))
                c = layer["out"]
                hw = (hw + 2 * pad - layer["kernel"]) // stride + 1
            elif kind == "bn":
                self.layers.append(nn.BatchNorm2d(c))
            elif kind == "act":
                fn = layer["fn"]
                self.layers.append(nn.LeakyReLU(layer["slope"]) if fn == "leaky_relu" else nn.ReLU())
            elif kind == "pool":
                self.layers.append(nn.MaxPool2d(layer["size"]))
                hw //= layer["size"]
            elif kind == "flatten":
                self.layers.append(nn.Flatten())
                features = c * hw * hw
            elif kind == "linear":
                self.layers.append(nn.Linear(features, layer["out"]))
                features = layer["out"]
            else:
                raise ValueError(f"layer {i}: unknown type {kind!r}")

    def forward(self, x):
        shapes = []
        for layer in self.layers:
            x = layer(x)
            shapes.append(tuple(x.shape))
        return x, shapes


net = SpecNet(SPEC)
net.eval()
x = torch.linspace(-1, 1, 2 * 64).reshape(2, 1, 8, 8)
out, shapes = net(x)
for layer, shape in zip(net.layers, shapes):
    print(f"{layer.__class__.__name__:<12} -> {shape}")
print(out.shape, len(list(net.parameters())))
print(net.layers[2], net.layers[5])
print([name for name, _ in net.named_parameters()][:4])
try:
    SpecNet([{"type": "dropout"}])
except ValueError as e:
    print(e)
