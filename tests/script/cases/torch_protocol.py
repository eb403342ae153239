import torch, math
t = torch.tensor([3.0, -1.5, 2.0])
print(abs(t), math.sqrt(torch.tensor(4.0)), -t, t ** 2, 2 ** t, t // 2, t % 2, ~torch.tensor([True, False]))
print(sorted(torch.tensor([3, 1, 2])), max(torch.tensor([3, 1, 2])), sum([torch.ones(2), torch.ones(2)]), min(t))
x = torch.ones(2, 3)
print(x.view(*x.shape).shape, x.new_zeros(x.shape), x.shape == torch.Size([2, 3]), {x.shape: 1}, [*x.shape], x.size() == (2, 3))
print(torch.Tensor.relu(torch.tensor([-1.0, 1.0])), torch.Tensor.add(torch.ones(1), 1), getattr(torch, 'relu')(torch.tensor(-1.0)), getattr(torch.Tensor, 'sum')(x))
print(hasattr(torch, 'nn'), hasattr(torch, 'cuda'), hasattr(torch.Tensor, 'view'), callable(torch.Tensor.view), torch.Tensor.__name__, torch.Tensor.__module__, torch.Size.__name__, torch.dtype.__module__)
print(t.add_(1), t, t.mul_(2), t.zero_(), t)
print(torch.tensor([1, 2]).float().mean(), torch.tensor([1, 2]).double().sum().item(), type(torch.tensor([1, 2]).sum().item()), type(torch.tensor(1.5).item()))
print(torch.zeros(2, 3).T.shape, torch.zeros(2, 3).t().shape, torch.zeros(5).ndim, torch.zeros(5).dim())
print(x.device, str(x.device), x.is_cuda, x.is_leaf, x.grad_fn, x.layout, x.names)
import torch
print(reversed(torch.arange(3)), list(reversed(torch.arange(3))), reversed(torch.tensor(5)), reversed(torch.arange(4).reshape(2,2)))
