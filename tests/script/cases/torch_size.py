import torch
s = torch.Size([2, 3, 4])
print(s * 2, 2 * s, s[::-1], s[::2], max(s), s.numel(), s[-2:], s[5:], s + s, repr(s[1:2]))
print(str(s), f"{s}", s.__class__.__name__, tuple(s) == s, s != (2, 3, 4), s == [2, 3, 4], s < (3,), hash(s) == hash((2, 3, 4)))
try:
    s + [4]
except TypeError as e:
    print(e)
print(torch.Size([torch.tensor(3)]), torch.Size(range(3)), torch.Size(s))
