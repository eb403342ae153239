import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as cp
from torch import Tensor
from typing import List

class Layer(nn.Module):
    def __init__(self, memory_efficient=False):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.memory_efficient = memory_efficient

    def bn_function(self, inputs: List[Tensor]) -> Tensor:
        return self.lin(torch.cat(inputs, 1)[:, :3])

    @torch.jit.unused
    def call_checkpoint_bottleneck(self, input: List[Tensor]) -> Tensor:
        def closure(*inputs):
            return self.bn_function(inputs)
        return cp.checkpoint(closure, *input)

    @torch.jit._overload_method  # noqa: F811
    def forward(self, input: List[Tensor]) -> Tensor:  # noqa: F811
        pass

    @torch.jit._overload_method  # noqa: F811
    def forward(self, input: Tensor) -> Tensor:  # noqa: F811
        pass

    def forward(self, input):  # noqa: F811
        if isinstance(input, Tensor):
            prev = [input]
        else:
            prev = input
        if self.memory_efficient and not torch.jit.is_scripting():
            return self.call_checkpoint_bottleneck(prev)
        return self.bn_function(prev)

torch.manual_seed(0)
l = Layer(True)
x = torch.randn(2, 3).requires_grad_()
with torch.no_grad():
    print(l(x))
    l.memory_efficient = False
    print(l([x, x]))
print(torch.jit.is_scripting(), torch.jit.annotate(List[int], []), torch.equal(x, x.clone()), torch.equal(x, x[:1]))
