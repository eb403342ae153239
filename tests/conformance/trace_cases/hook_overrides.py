# Script subclasses of torch.fx.Tracer overriding its hooks see every call 1.13 makes to
# them (the C fast paths of libfx step aside), and the graph follows what they return.
import operator
import torch
import torch.fx


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.w = torch.nn.Parameter(torch.ones(3))

    def forward(self, x):
        return self.lin(x) * self.w


class Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.seq = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(3, 2))

    def forward(self, x, y):
        z = self.inner(x) + y[0]
        z = z - 1
        return self.seq(-z), {'k': y[1] * 2}


def run(tracer_cls, root=None):
    calls = []
    tracer = tracer_cls(calls)
    graph = tracer.trace(root if root is not None else Outer())
    print(tracer_cls.__name__)
    for line in calls:
        print('  ', line)
    print(graph)


class LeafAll(torch.fx.Tracer):
    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def is_leaf_module(self, m, qualname):
        self.calls.append(f'is_leaf_module {type(m).__name__} {qualname!r}')
        return type(m).__name__ == 'Inner' or super().is_leaf_module(m, qualname)


class CallModule(torch.fx.Tracer):
    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def call_module(self, m, forward, args, kwargs):
        self.calls.append(f'call_module {type(m).__name__} {len(args)} {sorted(kwargs)}')
        return super().call_module(m, forward, args, kwargs)

    def path_of_module(self, mod):
        path = super().path_of_module(mod)
        self.calls.append(f'path_of_module {path!r}')
        return path


class Creates(torch.fx.Tracer):
    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None,
                     proxy_factory_fn=None):
        shown = target if isinstance(target, str) else getattr(target, '__name__', '?')
        self.calls.append(f'create_proxy {kind} {shown} {len(args)}')
        return super().create_proxy(kind, target, args, kwargs, name, type_expr,
                                    proxy_factory_fn)

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        self.calls.append(f'create_node {node.name}')
        return node

    def create_arg(self, a):
        if isinstance(a, int) and not isinstance(a, bool):
            self.calls.append(f'create_arg int {a}')
            return a * 10    # the graph shows it
        return super().create_arg(a)


class Getattr(torch.fx.Tracer):
    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        self.calls.append(f'getattr {attr} {type(attr_val).__name__}')
        return super().getattr(attr, attr_val, parameter_proxy_cache)


class TaggedProxy(torch.fx.Proxy):
    pass


class ProxyHook(torch.fx.Tracer):
    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def proxy(self, node):
        self.calls.append(f'proxy {node.name}')
        return TaggedProxy(node, self)


for cls in (LeafAll, CallModule, Creates, Getattr, ProxyHook):
    run(cls)


class Flow(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class Keys(torch.nn.Module):
    def forward(self, x):
        return {**x}


class Answers(torch.fx.Tracer):
    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def to_bool(self, obj):
        self.calls.append(f'to_bool {obj.node.name}')
        return True

    def keys(self, obj):
        self.calls.append(f'keys {obj.node.name}')
        return ['a']


# (Tracer.iter is left out: 1.13's Proxy.__iter__ reads the caller's bytecode in a way
# Python 3.11 breaks, so /usr/bin/python3 cannot record it.)
for root in (Flow(), Keys()):
    try:
        run(Answers, root)
    except Exception as e:
        print(type(root).__name__, type(e).__name__, e)
