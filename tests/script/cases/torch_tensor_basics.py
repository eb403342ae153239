import torch
t = torch.tensor([[1.,2.],[3.,4.]])
print(t == 1, t != 2, t == t)
print(t.dtype == torch.float32, t.dtype != torch.float64, torch.float == torch.float32, torch.float is torch.float32)
print(t.device == torch.device('cpu'), torch.device('cpu') == 'cpu', torch.device('cuda:0') != torch.device('cuda', 0), str(t.device), t.device.type)
d = {torch.float32: 'f', torch.int64: 'l', torch.device('cpu'): 'c'}
print(d[torch.float], d[torch.long], d[torch.device('cpu')])
print({t: 1}[t])
print(t.tolist(), torch.tensor(True).tolist(), torch.tensor([1, 2]).tolist(), t[0, 1].item(), t.T.tolist())
print(isinstance(t, torch.Tensor), isinstance(3, torch.Tensor), isinstance(t.shape, torch.Size), isinstance(t.shape, tuple), isinstance(torch.float32, torch.dtype))
print(torch.float32.is_floating_point, torch.int32.is_floating_point, torch.uint8.is_signed)
x = torch.zeros(3)
print(x.requires_grad, x.requires_grad_(), x.requires_grad, x.is_leaf, x.grad)
x.requires_grad = False
print(x.requires_grad, x.data, x.detach(), x.clone())
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(e)
print(int(torch.tensor(3.7)), float(torch.tensor(2)), int(torch.tensor([5])), [10, 20, 30][torch.tensor(1)], bool(torch.tensor(0.0)), bool(torch.tensor([1])))
print(len(t), list(reversed(torch.arange(3))), [r.tolist() for r in t])
print(t.size(), t.size(1), t.size(-1), t.dim(), t.ndim, t.numel(), t.nelement(), t.element_size(), torch.ones(2, 3, dtype=torch.float64).element_size())
print(t.to(torch.int64), t.to('cpu'), t.type(torch.IntTensor) if hasattr(torch, 'IntTensor') and False else t.type('torch.LongTensor'), t.long(), t.int().dtype, t.half().dtype, t.bool())
print(t.cpu() is t, t.contiguous() is t, t.t().is_contiguous(), t.t().contiguous().is_contiguous(), t.stride(), t.t().stride(), t.stride(1))
print(torch.numel(t), torch.is_tensor(t), torch.is_tensor([1]), torch.is_floating_point(t), torch.get_default_dtype())
torch.set_default_dtype(torch.float32)
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor(), torch.Tensor(torch.Size([2])).shape, torch.as_tensor([1, 2]), torch.as_tensor(t) is t, torch.FloatTensor([1]), torch.LongTensor([1, 2]), torch.as_tensor([1, 2], dtype=torch.float64))
print(f"{torch.tensor(2.5):.3f}", "{:>6}".format(torch.tensor(3)), f"{t}")
print(t.mT, torch.ones(2, 3, 4).mT.shape)
print(2 in torch.tensor([1, 2, 3]), 5 in torch.tensor([1, 2]))
for row in torch.arange(6).reshape(3, 2):
    print(row, row.shape)
print(torch.Size([2, 3]).numel(), torch.Size([2, 3])[1:], torch.Size([2, 3]) + (4,), (1,) + torch.Size([2]), type(torch.Size([2, 3]) + (4,)), torch.Size([2, 3]) == (2, 3), torch.Size([2,3])[-1], len(torch.Size([4, 5, 6])), list(torch.Size([7, 8])))
a, b = t.shape
print(a, b, t.shape[0], t.shape[-1], t.shape[:1], tuple(t.shape), t.layout, torch.strided, torch.contiguous_format)
