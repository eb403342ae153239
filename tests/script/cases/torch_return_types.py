import torch
x = torch.tensor([[1., 5.], [3., 2.]])
r = torch.max(x, 1)
print(r.values, r.indices, r[0], type(r))
v, i = x.sort(dim=1)
print(v, i, x.topk(1).indices, torch.min(x, dim=0).values, x.aminmax())
print(isinstance(r, tuple), len(r))
import torch
print(torch.promote_types(torch.int32, torch.float32), torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.bool, torch.int64))
print(torch.return_types.max, isinstance(torch.max(torch.ones(2, 2), 1), torch.return_types.max), torch.ones(1).is_pinned(), torch.ones(1).is_shared())
