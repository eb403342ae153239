# The errors symbolic tracing raises, type and message as 1.13 words them. (Where they point
# in the user's source is checked by the seeds' tracebacks, e.g. 004_flag_fails.)
import torch
import torch.fx


def show(what, e):
    print(what, f'{type(e).__name__}: {e}')


class ControlFlow(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class Len(torch.nn.Module):
    def forward(self, x):
        return x * len(x)


class DictKey(torch.nn.Module):
    def forward(self, x):
        return torch.fx.Tracer().create_arg({x: 1})


class Stray(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stray = [torch.nn.ReLU()]

    def forward(self, x):
        return self.stray[0](x)


class Odd:
    pass


class OddArg(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x) + torch.fx.Tracer().create_arg(Odd())


class Flag(torch.nn.Module):
    def forward(self, x, flag):
        return x if flag else -x


def wrap_inside():
    torch.fx.wrap('len')


CASES = [
    ('control flow', lambda: torch.fx.symbolic_trace(ControlFlow())),
    ('len', lambda: torch.fx.symbolic_trace(Len())),
    ('dict key', lambda: torch.fx.symbolic_trace(DictKey())),
    ('stray module', lambda: torch.fx.symbolic_trace(Stray())),
    ('odd argument', lambda: torch.fx.Tracer().create_arg(Odd())),
    ('concrete count', lambda: torch.fx.symbolic_trace(Flag(), concrete_args=(True,))),
    ('wrap inside', wrap_inside),
    ('wrap type', lambda: torch.fx.wrap(3)),
]
gm = torch.fx.symbolic_trace(Flag(), concrete_args={'flag': True})
print(gm.code)
CASES.append(('specialized', lambda: gm(torch.ones(2), False)))
for what, fn in CASES:
    try:
        fn()
        print(what, 'no error')
    except Exception as e:
        show(what, e)
