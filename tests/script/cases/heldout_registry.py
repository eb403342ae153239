import torch.nn as nn

MODEL_REGISTRY = {}


def register_model(name=None, *, aliases=()):
    def decorator(cls):
        key = name or cls.__name__.lower()
        if key in MODEL_REGISTRY:
            raise KeyError(f"duplicate model name {key!r}")
        MODEL_REGISTRY[key] = cls
        for alias in aliases:
            MODEL_REGISTRY[alias] = cls
        cls.registry_name = key
        return cls
    return decorator


@register_model()
class MLP(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(width, width), nn.ReLU())

    def forward(self, x):
        return self.net(x)


@register_model("conv", aliases=("cnn", "convnet"))
class ConvNet(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        self.conv = nn.Conv2d(channels, 8, kernel_size=3, padding=1)

    def forward(self, x):
        return self.conv(x).relu()


def create(name, **kwargs):
    try:
        cls = MODEL_REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(MODEL_REGISTRY))
        raise ValueError(f"unknown model {name!r}; known: {known}") from None
    return cls(**kwargs)


print(sorted(MODEL_REGISTRY))
print({k: v.__name__ for k, v in MODEL_REGISTRY.items()})
m = create("cnn", channels=1)
print(type(m).__name__, m.registry_name, m.conv)
print(create("mlp", width=2))
try:
    create("transformer")
except ValueError as e:
    print(e, e.__cause__, e.__suppress_context__)
try:
    @register_model("mlp")
    class Other(nn.Module):
        pass
except KeyError as e:
    print("KeyError:", e)
