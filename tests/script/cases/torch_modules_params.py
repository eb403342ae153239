import torch
from torch import Tensor, nn
import torch.nn.functional as F
from torch.nn import functional as F2

print(F is F2, torch.nn.functional is F, torch.nn.functional.relu is F.relu)
print(torch.random.manual_seed is torch.manual_seed or True, torch._C._nn.linear is F.linear)

def g(x: Tensor) -> Tensor:
    return x.relu()

print(g(torch.tensor([-1., 1.])))

p = nn.Parameter(torch.ones(2))
print(p)
print(isinstance(p, torch.Tensor), isinstance(p, nn.Parameter), type(p))
with torch.no_grad():
    print(p + 1, p * p, torch.relu(p), p.sum(), F.linear(torch.ones(1, 2), p.view(1, 2)))
print(p.requires_grad, p.shape, p.dtype, p.data, p.detach())
lin = nn.Linear(2, 3)
print(lin.weight.shape, type(lin.weight).__name__, lin(torch.ones(4, 2)).shape)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
    def forward(self, x):
        x = F.relu(self.fc(x))
        return torch.flatten(x, 1).softmax(dim=-1)

torch.manual_seed(0)
net = Net()
out = net(torch.randn(3, 4)).detach()
print(out.shape, out.sum(dim=1))
with torch.no_grad():
    print(net(torch.zeros(1, 4)).requires_grad)
print([n for n, _ in net.named_parameters()], sum(q.numel() for q in net.parameters()))
x = torch.arange(12).reshape(3, 4)
print(x[0], x[:, 1], x[1:, ::2], x[-1, -1], x[x > 5])
x[0, 0] = 100
x[1] = torch.tensor([7, 7, 7, 7])
print(x)
print(torch.tensor([[1, 2], [3, 4]]).tolist(), torch.zeros(2, 0).tolist(), torch.tensor([]).tolist())
