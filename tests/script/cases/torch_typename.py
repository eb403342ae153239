import torch
from torch import nn
class Foo:
    class Bar:
        pass
print(torch.typename(torch.ones(1)), torch.typename(torch.ones(1, dtype=torch.int64)), torch.typename(3), torch.typename(Foo()), torch.typename(Foo.Bar), torch.typename(nn.Linear(1, 1)), torch.typename(nn.Linear), torch.typename(len))
torch.set_printoptions(precision=4)
torch.set_printoptions(profile="default")
print(torch.tensor([1.23456789]))
