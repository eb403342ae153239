import torch
t = torch.ones(2)
print(len(dir(t)) > 100, 'relu' in dir(torch), 'shape' in dir(t), 'Tensor' in dir(torch))
print(vars(torch.backends.cudnn).get('enabled') if False else torch.backends.cudnn.enabled)
torch.backends.cudnn.benchmark = True
print(torch.backends.cudnn.benchmark)
x = torch.Size([1, 2])
print(x.count(1), x.index(2), hash(x) == hash((1, 2)), x * 2 if False else 0, sorted(x, reverse=True))
print(torch.tensor([1, 2]).__repr__(), torch.Tensor.__repr__(torch.zeros(1)), repr(torch.Size([3])))
print(getattr(t, 'grad', 'missing'), hasattr(t, 'foo'))
t.foo = 1
print(t.foo, getattr(t, 'foo'), hasattr(t, 'bar'))
t.requires_grad = True
print(t.requires_grad, t)
try:
    t.bar
except AttributeError as e:
    print(e)
try:
    t.shape = (3,)
except AttributeError as e:
    print("AttributeError")
