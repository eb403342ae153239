from dataclasses import dataclass, field, asdict, replace
from typing import List, Optional
import torch
import torch.nn as nn


@dataclass
class ModelConfig:
    name: str
    in_features: int = 4
    hidden: List[int] = field(default_factory=lambda: [8, 8])
    out_features: int = 2
    activation: str = "relu"
    dropout: Optional[float] = None

    def __post_init__(self):
        if self.in_features <= 0:
            raise ValueError(f"in_features must be positive, got {self.in_features}")

    @property
    def depth(self) -> int:
        return len(self.hidden) + 1


ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh, "gelu": nn.GELU}


def build_model(cfg: ModelConfig) -> nn.Module:
    layers = []
    sizes = [cfg.in_features, *cfg.hidden]
    for a, b in zip(sizes, sizes[1:]):
        layers.append(nn.Linear(a, b))
        layers.append(ACTIVATIONS[cfg.activation]())
        if cfg.dropout:
            layers.append(nn.Dropout(cfg.dropout))
    layers.append(nn.Linear(sizes[-1], cfg.out_features))
    return nn.Sequential(*layers)


base = ModelConfig("small")
print(base)
print(asdict(base))
wide = replace(base, name="wide", hidden=[32], activation="tanh", dropout=0.1)
print(wide.depth, base.depth, wide == base, base == ModelConfig("small"))

for cfg in (base, wide):
    model = build_model(cfg)
    n_params = sum(p.numel() for p in model.parameters())
    kinds = [type(m).__name__ for m in model]
    print(f"{cfg.name:<6} params={n_params:>5} layers={kinds}")
    model.eval()
    with torch.no_grad():
        out = model(torch.zeros(3, cfg.in_features))
    print(out.shape)

try:
    ModelConfig("bad", in_features=0)
except ValueError as e:
    print("error:", e)

try:
    build_model(replace(base, activation="swish"))
except KeyError as e:
    print("unknown activation", e)
