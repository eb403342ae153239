import torch
import torch.fx
import torch.nn as nn
class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.param = torch.nn.Parameter(torch.rand(3, 4))
        self.linear = torch.nn.Linear(4, 5)
        self.seq = nn.Sequential(nn.ReLU(), nn.Linear(5, 2))
    def forward(self, x):
        return self.seq(torch.topk(torch.sum(self.linear(x + self.linear.weight).relu(), dim=-1), 3).values.unsqueeze(-1).expand(-1, 5) if False else self.linear(x + self.param).clamp(min=0.0, max=1.0))
m = MyModule()
gm = torch.fx.symbolic_trace(m)
print(gm.graph)
print(gm.code)
print(gm)
x = torch.rand(3, 4)
print(torch.allclose(gm(x), m(x)))
