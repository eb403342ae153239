# torch.fx.proxy for FX Editor's front end: Proxy values that record what a traced program does
# with them as graph nodes, and the tracer base every tracer builds on. Behaviour and messages
# follow torch.fx 1.13; the implementation is FX Editor's own.
import operator
import torch
from torch.fx._ir import Graph, Node, map_aggregate
from torch.fx import _glue
from torch.fx import _functional_args

__all__ = ['TracerBase', 'GraphAppendingTracer', 'TraceError', 'Proxy', 'Attribute',
           'ParameterProxy']

# Python operators as torch.fx records them: name in `operator` → reflected form exists.
_BINARY_OPERATORS = ['add', 'sub', 'mul', 'floordiv', 'truediv', 'mod', 'pow', 'lshift',
                     'rshift', 'and_', 'or_', 'xor', 'getitem', 'matmul']
_COMPARISONS = ['eq', 'ne', 'lt', 'gt', 'le', 'ge']
_UNARY_OPERATORS = ['pos', 'neg', 'invert']

# What a node argument may hold as is (1.13's BaseArgumentTypes that libfx has).
_BASE_TYPES = (str, int, float, bool, torch.dtype, torch.Tensor, torch.device)


class TraceError(ValueError):
    pass


class TracerBase:
    """What every tracer has: a graph to append to and the hooks that turn values into
    graph arguments and proxies."""
    graph = None
    record_stack_traces = False
    check_mutable_operations = False
    trace_asserts = False
    proxy_buffer_attributes = False
    traced_func_name = "forward"
    # a C tracer's hooks (core/trace/tracer.h), set by fx_tracer_trace_file
    _fx_c_tracer = None

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        node = self.graph.create_node(kind, target, args, kwargs, name, type_expr)
        if self._fx_c_tracer is not None:
            _glue.c_node_created(self, node)
        return node

    def proxy(self, node):
        return Proxy(node, self)

    # create_proxy(kind, target, args, kwargs, name=None, type_expr=None,
    # proxy_factory_fn=None): create_arg of args and kwargs (a tuple and a dict, asserted),
    # create_node, then proxy(node) or proxy_factory_fn(node) — in C (core/trace/tracer.c),
    # calling each of those hooks a subclass overrides.
    create_proxy = _glue.create_proxy

    def create_arg(self, a):
        if not isinstance(a, Proxy) and hasattr(a, '__fx_create_arg__'):
            return a.__fx_create_arg__(self)
        if isinstance(a, tuple) and hasattr(a, '_fields'):
            return type(a)(*[self.create_arg(item) for item in a])
        if isinstance(a, tuple):
            return tuple([self.create_arg(item) for item in a])
        if isinstance(a, list):
            return [self.create_arg(item) for item in a]
        if isinstance(a, dict):
            lowered = {}
            for key, value in a.items():
                key = self.create_arg(key)

                def refuse_node(part):
                    if isinstance(part, Node):
                        raise RuntimeError("Keys for dictionaries used as an argument cannot "
                                           "contain a Node. Got key: {k}")
                map_aggregate(key, refuse_node)
                lowered[key] = self.create_arg(value)
            return lowered
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop),
                         self.create_arg(a.step))
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, _BASE_TYPES) or a is None or a is ...:
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj):
        if self._fx_c_tracer is not None:
            answer = _glue.c_hook('to_bool', self, obj)
            if answer is not None:
                return answer
        raise TraceError('symbolically traced variables cannot be used as inputs to control flow')

    def iter(self, obj):
        if self._fx_c_tracer is not None:
            count = _glue.c_hook('iter', self, obj)
            if count is not None:
                return iter([obj[i] for i in range(count)])
        raise TraceError('Proxy object cannot be iterated. This can be attempted when the Proxy '
                         'is used in a loop or as a *args or **kwargs function argument. See the '
                         'torch.fx docs on pytorch.org for a more detailed explanation of what '
                         'types of control flow can be traced, and check out the Proxy docstring '
                         'for help troubleshooting Proxy iteration errors')

    def keys(self, obj):
        if self._fx_c_tracer is not None:
            keys = _glue.c_hook('keys', self, obj)
            if keys is not None:
                return keys
        return Attribute(obj, 'keys')()


class GraphAppendingTracer(TracerBase):
    """The tracer of proxies made around a bare Node: appends to that node's graph."""
    def __init__(self, graph):
        self.graph = graph


def assert_fn(x):
    assert x


class Proxy:
    """A value of the traced program: every use becomes a node of the tracer's graph."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return f'Proxy({self.node.name})'

    # __getattr__(self, k) → Attribute(self, k) (C): not a node yet, since most attribute
    # reads are method calls, recorded as call_method.
    __getattr__ = _glue.proxy_getattr

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy('call_method', '__call__', (self,) + args, kwargs)

    def __iter__(self):
        return self.tracer.iter(self)

    def __fx_unpack__(self, count):
        # `a, b = proxy`: the interpreter says how many values the target wants.
        return [self[i] for i in range(count)]

    def __bool__(self):
        return self.tracer.to_bool(self)

    def keys(self):
        return self.tracer.keys(self)

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want "
                           "this call to be recorded, please call torch.fx.wrap('len') at "
                           "module scope")

    @classmethod
    def __torch_function__(cls, orig_method, types, args=None, kwargs=None):
        args = args if args else ()
        kwargs = kwargs if kwargs else {}
        tracers = {}

        def note_tracer(a):
            if isinstance(a, cls):
                tracers[a.tracer] = None
        map_aggregate(args, note_tracer)
        map_aggregate(kwargs, note_tracer)
        if len(tracers) > 1:
            raise RuntimeError(f'Found multiple different tracers {list(tracers.keys())} while '
                               f'trying to trace operations {orig_method}')
        tracer = list(tracers.keys())[0]
        orig_method, args, kwargs = _functional_args.normalize(orig_method, args, kwargs)
        if _glue.is_tensor_method(orig_method):
            return tracer.create_proxy('call_method', orig_method.__name__, args, kwargs)
        return tracer.create_proxy('call_function', orig_method, args, kwargs)


# `tensor OP proxy` with a real tensor on the left: 1.13 reaches the Proxy through the
# Tensor's own operator method and __torch_function__, so it records that Tensor method.
_TENSOR_OPERATOR_METHODS = {
    'add': 'add', 'sub': 'sub', 'mul': 'mul', 'truediv': 'div', 'floordiv': '__floordiv__',
    'mod': 'remainder', 'pow': 'pow', 'matmul': 'matmul', 'and_': '__and__', 'or_': '__or__',
    'xor': '__xor__', 'lshift': '__lshift__', 'rshift': '__rshift__'}

# The operator methods are natives (core/trace/tracer.c): `proxy OP x` records
# tracer.create_proxy('call_function', operator.OP, (proxy, x), {}), the reflected ones
# operator.OP(lhs, proxy) — or lhs's Tensor method when lhs is a real tensor.
for _name in _BINARY_OPERATORS + _COMPARISONS + _UNARY_OPERATORS:
    setattr(Proxy, '__' + _name.strip('_') + '__', _glue.proxy_operator(getattr(operator, _name)))
for _name in _BINARY_OPERATORS:
    if _name != 'getitem':
        setattr(Proxy, '__r' + _name.strip('_') + '__',
                _glue.proxy_operator(getattr(operator, _name), _TENSOR_OPERATOR_METHODS[_name]))


class Attribute(Proxy):
    """`proxy.name`: becomes call_method when called, getattr when used as a value."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy('call_function', getattr,
                                                  (self.root, self.attr), {}).node
        return self._node

    # __call__(self, *args, **kwargs): call_method self.attr on (self.root,) + args (C)
    __call__ = _glue.attribute_call


class ParameterProxy(Proxy):
    """A parameter's proxy whose shape queries answer from the real parameter."""

    def __init__(self, tracer, node, name, param):
        super().__init__(node, tracer)
        assert isinstance(param, torch.nn.Parameter)
        self.param = param
        self.name = name

    def __repr__(self):
        return f'ParameterProxy({self.name})'

    @property
    def shape(self):
        return self.param.shape

    def size(self, *dim):
        return self.param.size(*dim)

    def dim(self):
        return self.param.dim()

    @property
    def ndim(self):
        return self.param.ndim

    def numel(self):
        return self.param.numel()

    def nelement(self):
        return self.param.nelement()
