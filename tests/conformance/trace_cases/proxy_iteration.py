# Proxies where Python wants an iterable or a tensor list: `a, b = proxy` unpacks into
# getitem nodes (1.13 reads the caller's UNPACK_SEQUENCE), a for loop over a proxy is a
# TraceError, and torch.cat / torch.stack given a proxy instead of a tuple fail in the
# argument parser before __torch_function__ (the TypeError of `torch.cat((x,) + args)`).
# (`torch.add(*proxy)` is left out: 1.13 on Python 3.11 fails there with an IndexError of
# its bytecode lookup, not with behaviour of its own.)
import torch
import torch.fx


def unpack(x):
    a, b = x
    return a + b


def unpack_three(x):
    a, b, c = x
    return torch.cat((a, b, c))


def loop(x):
    out = x
    for item in x:
        out = out + item
    return out


def starred(x):
    a, *rest = x
    return a


def cat_rest(x, *args):
    return torch.cat((x,) + args)


def stack_proxy(x):
    return torch.stack(x)


def cat_list(x, y):
    return torch.cat([x, y], dim=1)


for fn in (unpack, unpack_three, loop, starred, cat_rest, stack_proxy, cat_list):
    try:
        gm = torch.fx.symbolic_trace(fn)
        print(fn.__name__, 'traced')
        print(gm.code)
    except Exception as e:
        print(fn.__name__, type(e).__name__, e)
