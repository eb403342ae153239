import torch
import torch.nn.functional as F
from torch import nn

# grad modes
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())

@torch.no_grad()
def f(x):
    return torch.is_grad_enabled(), x * 2

print(f(3), torch.is_grad_enabled())


torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled())
print(torch.is_inference_mode_enabled())

class M:
    @torch.no_grad()
    def g(self, y):
        return y + 1, torch.is_grad_enabled()
print(M().g(1))

try:
    with torch.no_grad():
        raise ValueError("inside")
except ValueError as e:
    print("caught", e, torch.is_grad_enabled())

# functional
x = torch.tensor([[-1.0, 0.5], [2.0, -3.0]])
print(F.relu(x))
print(F.relu is torch.nn.functional.relu, torch.relu is not F.relu)
print(F.softmax(x, dim=1))
print(F.linear(x, torch.eye(2), torch.ones(2)))
print(F.gelu(x))
print(F.leaky_relu(x, 0.1), F.hardtanh(x), F.relu6(x * 4))
print(torch.sigmoid(x), torch.tanh(x), torch.exp(torch.zeros(2)))
print(F.pad(x, (1, 1)), F.dropout(x, training=False))
print(torch.cat([x, x]).shape, torch.stack([x, x], dim=2).shape, torch.flatten(x))
print(torch.sum(x), x.sum(dim=0), x.mean(), x.max(), x.argmax(), torch.max(x, dim=1))
print(torch.allclose(x, x.clone()), torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.matmul(x, x), x.view(4), x.reshape(1, 4), x.permute(1, 0), x.unsqueeze(0).shape, x.squeeze().shape)
print(torch._assert(True, "fine"))
try:
    torch._assert(False, "boom")
except AssertionError as e:
    print("AssertionError", e)
