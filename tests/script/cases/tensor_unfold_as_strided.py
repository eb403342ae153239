# Tensor.unfold and torch.as_strided: views (shapes, strides, values, _base) and their errors.
import torch
a = torch.arange(12.).reshape(3, 4)
u = a.unfold(1, 2, 1)
print(u.shape, u.stride(), u._base is a.view(-1)._base, u)
print(a.unfold(0, 2, 1).shape, a.unfold(-1, 3, 2), a.unfold(1, 4, 4).shape, a.unfold(1, 0, 1).shape)
s = torch.tensor(5.)
print(s.unfold(0, 1, 1), s.unfold(0, 0, 1).shape)
for args in [(1, 5, 1), (1, 2, 0), (1, -1, 1), (2, 1, 1)]:
    try:
        a.unfold(*args)
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
x = torch.arange(10.)
print(torch.as_strided(x, (3, 3), (1, 2)), x.as_strided((2, 2), (3, 1), 1), x.as_strided((2,), (1,), 8)._base is x)
try:
    x.as_strided((3, 3), (1, 2), 5)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.as_strided((3,), (1, 2))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.as_strided((3,), (-1,))
except RuntimeError as e:
    print("RuntimeError", e)
x = torch.arange(10.)
for args in [((-1, 2), (1, 1)), ((2,), (1,), -1)]:
    try:
        print(x.as_strided(*args))
    except RuntimeError as e:
        print("RuntimeError", e)
y = x[2:]
print(y.as_strided((2,), (1,)), y.as_strided((2,), (1,), 0))
print(torch.as_strided(x, [2, 2], [2, 1]).stride(), x.unfold(0, 3, 3).shape)
