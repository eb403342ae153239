# A Tracer subclass overriding call_module three ways: a user module kept as a call_module
# node, a torch.nn leaf traced through its forward, the rest left to Tracer.call_module; a
# create_node override records which module call each node was made in.
# tests/core/test-trace-hooks.c expects the same from the C call_module hook.
import torch
import torch.fx
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.lin(x))


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block()
        self.b = Block()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(self.b(self.a(x))) + 1


class CallTracer(torch.fx.Tracer):
    def __init__(self):
        super().__init__()
        self.stack = []
        self.calls = []

    def call_module(self, m, forward, args, kwargs):
        path = self.path_of_module(m)
        self.calls.append(f'{type(m).__name__}:{path}')
        self.stack.append(path)
        try:
            if path == 'a':
                return self.create_proxy('call_module', path, args, kwargs)
            if path == 'fc':
                return forward(*args, **kwargs)
            return super().call_module(m, forward, args, kwargs)
        finally:
            self.stack.pop()

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        node = super().create_node(kind, target, args, kwargs, name, type_expr)
        node.meta['scope'] = self.stack[-1] if self.stack else ''
        return node


tracer = CallTracer()
graph = tracer.trace(Stack())
gm = torch.fx.GraphModule(tracer.root, graph, 'Stack')
print(repr(gm.code))
print(' '.join(tracer.calls))
print(' '.join(f'{n.name}@{n.meta["scope"]}' for n in graph.nodes))
x = torch.ones(2, 4)
print(torch.allclose(gm(x), tracer.root(x)))
