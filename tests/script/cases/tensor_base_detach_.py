# Tensor._base (the tensor a view shares its storage with, through views of views) and
# detach_() (in place; refused for views).
import torch

a = torch.arange(6.)
b = a.view(2, 3)
print(a._base, b._base is a, b[0]._base is a, b.t()._base is a, b.T._base is a)
views = {
    "view_as": lambda t: t.view_as(t), "permute": lambda t: t.permute(1, 0),
    "unbind": lambda t: t.unbind(0)[1], "chunk": lambda t: t.chunk(2)[0],
    "narrow": lambda t: t.narrow(1, 0, 2), "select": lambda t: t.select(0, 1),
    "diagonal": lambda t: t.diagonal(), "squeeze": lambda t: t.squeeze(),
    "flatten": lambda t: t.flatten(), "reshape": lambda t: t.reshape(-1),
    "index": lambda t: t[:, 1],
    "ellipsis": lambda t: t[...], "none": lambda t: t[None], "mT": lambda t: t.mT,
    "movedim": lambda t: t.movedim(0, 1), "unflatten": lambda t: t.unflatten(1, (3, 1)),
    "split": lambda t: t.split(1)[1], "swapaxes": lambda t: t.swapaxes(0, 1),
    "expand_as": lambda t: t[0].expand_as(t), "unsqueeze": lambda t: t.unsqueeze(0),
}
not_views = {
    "detach": lambda t: t.detach(), "data": lambda t: t.data, "clone": lambda t: t.clone(),
    "bool_idx": lambda t: t[t > 2], "int_list": lambda t: t[[0, 1]],
    "contiguous_T": lambda t: t.T.contiguous(), "view_dtype": lambda t: t.view(torch.int32),
    "add": lambda t: t + 1, "to_same": lambda t: t.to(torch.float32),
}
for k, f in views.items():
    print(k, f(b)._base is a)
for k, f in not_views.items():
    v = f(b)
    print(k, "a" if v._base is a else v._base)

d = b.detach()
print(d._base, d.requires_grad)
w = torch.ones(3, requires_grad=True)
y = w * 2
print(y.requires_grad, y.grad_fn is not None, y.is_leaf)
z = y.detach_()
print(z is y, y.requires_grad, y.grad_fn, y.is_leaf)
e = torch.zeros(4)
print(e.detach_() is e, e.requires_grad)
for v in (w.view(3), b, a[1:]):
    try:
        v.detach_()
        print("detached")
    except RuntimeError as ex:
        print("RuntimeError:", ex)
print(torch.tensor([1., 2.])._base)
