# torch.fx 1.13 cannot trace a factory function given a Proxy as a size or number: PyTorch's
# argument parser looks for __torch_function__ only among tensor arguments, so the call fails
# with a TypeError naming the Proxy, and nothing is recorded. Functions and methods that take
# the Proxy as a tensor are traced.
import torch
import torch.fx as fx

exact = {
    'zeros_size': lambda x: torch.zeros(x.size(0)),
    'ones_shape': lambda x: torch.ones(x.shape),
    'ones_size': lambda x: torch.ones(x.size()),
    'empty': lambda x: torch.empty(x.size(0)),
    'arange': lambda x: torch.arange(x.size(0)),
    'arange_start': lambda x: torch.arange(0, x.size(0)),
    'eye': lambda x: torch.eye(x.size(0)),
    'linspace': lambda x: torch.linspace(0, 1, x.size(0)),
    'zeros_item': lambda x: torch.zeros(x.shape[0].item()),
}
# PyTorch words these differently (its overloads and its list parsing); the type is the same
typed = {
    'zeros_tuple': lambda x: torch.zeros((x.size(0), 2)),
    'zeros_two': lambda x: torch.zeros(x.size(0), 2),
    'full': lambda x: torch.full((x.size(0),), 1.0),
    'randn_two': lambda x: torch.randn(x.shape[0], 3),
}
traced = {
    'zeros_like': lambda x: torch.zeros_like(x),
    'full_like': lambda x: torch.full_like(x, 2.0),
    'new_zeros': lambda x: x.new_zeros((2, 3)),
    'cat': lambda x: torch.cat([x, x]),
    'add_size': lambda x: torch.add(x, x.size(0)),
}
for group, cases in (('exact', exact), ('typed', typed), ('traced', traced)):
    for name, f in cases.items():
        class M(torch.nn.Module):
            def forward(self, x):
                return f(x)
        try:
            gm = fx.symbolic_trace(M())
            print(group, name, 'traced:', gm.code.strip().splitlines()[-2].strip())
        except TypeError as e:
            print(group, name, 'TypeError' + (': ' + str(e).splitlines()[0] if group == 'exact' else ''))
