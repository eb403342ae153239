# torch.fx._symbolic_trace for FX Editor's front end: the Tracer (leaf modules, parameter
# proxies, tensor constants, concrete_args), wrap() and symbolic_trace(). Behaviour and
# messages follow torch.fx 1.13; the implementation is FX Editor's own.
import math
import builtins
import warnings
import torch
from torch.fx._ir import Graph, GraphModule, map_aggregate
from torch.fx.proxy import TracerBase, Proxy, Attribute, ParameterProxy, TraceError
from torch.fx import _glue

__all__ = ['Tracer', 'symbolic_trace', 'wrap', 'PH', 'PHBase', 'is_fx_tracing']

# (globals dict, name) pairs registered by wrap() at module scope.
_wrapped_globals = []
_tracing = [False]


def is_fx_tracing():
    return _tracing[0]


class PHBase:
    """The placeholder marker of concrete_args: this input stays a graph input."""

    def __repr__(self):
        return "PH"


PH = PHBase()


def _find_proxy(*values):
    found = []

    def note(x):
        if isinstance(x, Proxy):
            found.append(x)
    map_aggregate(values, note)
    return found[-1] if found else None


def _wrap_function(original):
    """A stand-in for `original` that records a call_function node when a Proxy is among its
    arguments and otherwise just calls it."""
    def wrapped(*args, **kwargs):
        proxy = _find_proxy(args, kwargs)
        if proxy is not None:
            result = proxy.tracer.create_proxy('call_function', original, args, kwargs)
            result.node.meta['is_wrapped'] = True
            return result
        return original(*args, **kwargs)
    wrapped.__name__ = getattr(original, '__name__', 'wrapped')
    wrapped.__wrapped__ = original
    return wrapped


class _Patcher:
    """Replaces dict entries and class attributes for the time of a trace, then restores
    them in reverse order (so that patching twice unwinds correctly)."""
    _MISSING = object()

    def __init__(self):
        self.undo = []
        self.visited = set()

    def patch(self, namespace, name, replacement, deduplicate=True):
        replacement.__fx_already_patched = deduplicate
        if name not in namespace and hasattr(builtins, name):
            self.undo.append((namespace, name, self._MISSING, False))
        elif getattr(namespace[name], '__fx_already_patched', False):
            return
        else:
            self.undo.append((namespace, name, namespace[name], False))
        namespace[name] = replacement

    def patch_method(self, cls, name, replacement, deduplicate=True):
        if deduplicate:   # the trace's own wrappers are natives, which take no attributes
            replacement.__fx_already_patched = True
        original = getattr(cls, name)
        if getattr(original, '__fx_already_patched', False):
            return
        self.undo.append((cls, name, original, True))
        setattr(cls, name, replacement)

    def visit_once(self, thing):
        key = id(thing)
        if key in self.visited:
            return False
        self.visited.add(key)
        return True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        # pops each (owner, name, original, is_attr) and puts the original back (C, tracer.c)
        _glue.patch_undo(self.undo, self._MISSING)
        self.visited.clear()
        return False


def _patch_wrapped_functions(patcher):
    for namespace, name in _wrapped_globals:
        if name not in namespace and hasattr(builtins, name):
            original = getattr(builtins, name)
        else:
            original = namespace[name]
        patcher.patch(namespace, name, _wrap_function(original))


# id(original) → (original, its _wrap_function stand-in): the stand-ins hold nothing but the
# original, so every trace can reuse them instead of making ~50 for `math` each time.
_autowrap_stand_ins = {}


def _autowrap_check(patcher, namespace, function_ids):
    if patcher.visit_once(namespace):
        # each public callable whose id is in function_ids gets its stand-in, as
        # patcher.patch(namespace, name, stand_in) would put it (C, tracer.c)
        _glue.autowrap_patch(patcher.undo, namespace, function_ids, _autowrap_stand_ins,
                             _wrap_function)


def _assert_is_none(value, msg):
    assert value is None, msg


class Tracer(TracerBase):
    """Runs a module's forward (or a function) on Proxies and records a Graph."""

    def __init__(self, autowrap_modules=(math,), autowrap_functions=(),
                 param_shapes_constant=False):
        super().__init__()
        # ids of the modules' public callables and of the functions (C, tracer.c)
        self._autowrap_function_ids = _glue.autowrap_ids(autowrap_modules, autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths = None

    # create_arg(a): proxies, plain values and their containers in C (tracer.c); the rest
    # (parameters, buffers, modules, namedtuples, tensor constants) in _create_arg_py.
    create_arg = _glue.create_arg

    def _create_arg_py(self, a):
        if isinstance(a, torch.nn.Parameter):
            for name, param in self.root.named_parameters():
                if a is param:
                    return self.create_node('get_attr', name, (), {})
            raise NameError('parameter is not a member of this module')
        elif isinstance(a, torch.Tensor):
            for name, buf in self.root.named_buffers():
                if a is buf:
                    return self.create_node('get_attr', name, (), {})
        elif isinstance(a, torch.nn.Module):
            for name, mod in self.root.named_modules():
                if a is mod:
                    return self.create_node('get_attr', name, (), {})
        if isinstance(a, tuple) and hasattr(a, '_fields'):
            args = tuple([self.create_arg(item) for item in a])
            return self.create_node('call_function', a.__class__, args, {})
        if isinstance(a, torch.Tensor):
            known = self.tensor_attrs.get(id(a))
            qualname = known[1] if known is not None else None
            if not qualname:
                i = 0
                while True:
                    qualname = f'_tensor_constant{i}'
                    if not hasattr(self.root, qualname):
                        break
                    i += 1
                self.tensor_attrs[id(a)] = (a, qualname)
                setattr(self.root, qualname, a)
            return self.create_node('get_attr', qualname, (), {})
        return super().create_arg(a)

    def is_leaf_module(self, m, module_qualified_name):
        return ((m.__module__.startswith('torch.nn') or m.__module__.startswith('torch.ao.nn'))
                and not isinstance(m, torch.nn.Sequential))

    def path_of_module(self, mod):
        if self.submodule_paths:
            path = self.submodule_paths.get(id(mod))
            if path is None:
                raise NameError('module is not installed as a submodule')
            return path[1]
        for name, module in self.root.named_modules():
            if mod is module:
                return name
        raise NameError('module is not installed as a submodule')

    def call_module(self, m, forward, args, kwargs):
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy('call_module', module_qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        def cached_proxy(collection):
            for name, value in collection:
                if attr_val is value:
                    if name not in parameter_proxy_cache:
                        factory = None
                        if self.param_shapes_constant:
                            def factory(node):
                                return ParameterProxy(self, node, name, attr_val)
                        parameter_proxy_cache[name] = self.create_proxy(
                            'get_attr', name, (), {}, proxy_factory_fn=factory)
                    return parameter_proxy_cache[name]
            return None

        if isinstance(attr_val, torch.nn.Parameter):
            proxy = cached_proxy(self.root.named_parameters())
            if proxy is not None:
                return proxy
        if self.proxy_buffer_attributes and isinstance(attr_val, torch.Tensor):
            proxy = cached_proxy(self.root.named_buffers())
            if proxy is not None:
                return proxy
        return attr_val

    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        params = _glue.signature(root_fn)
        args = []
        if is_module:
            if not params or params[0][1] != 'positional':
                raise RuntimeError("``self`` argument cannot be part of *args expansion!")
            params = params[1:]
            args.append(self.root)
        # 1.13's order (co_varnames'): positional, keyword-only, then *args and **kwargs
        order = {'positional': 0, 'keyword_only': 1, 'var_positional': 2, 'var_keyword': 3}
        params = sorted(params, key=lambda p: order[p[1]])
        names = [p[0] for p in params if p[1] in ('positional', 'keyword_only')]
        if isinstance(concrete_args, tuple):
            if len(names) != len(concrete_args):
                raise RuntimeError(f'Tracing expected {len(names)} arguments but got '
                                   f'{len(concrete_args)} concrete arguments')
            concrete_args = {name: value for name, value in zip(names, concrete_args)}

        def placeholder_for(param):
            name, kind, has_default, default, annotation = param
            if concrete_args is not None and name in concrete_args:
                return self._concrete_placeholder(param, concrete_args[name])
            if kind == 'var_positional':
                return self.create_proxy('placeholder', '*' + name, (), {})
            if kind == 'var_keyword':
                return self.create_proxy('placeholder', '**' + name, (), {})
            return self.create_proxy('placeholder', name, (default,) if has_default else (), {},
                                     type_expr=annotation)

        args.extend([placeholder_for(param) for param in params])
        if all(param[1] == 'positional' for param in params):
            return root_fn, args

        # Like 1.13, which rewrites the code object so that keyword-only parameters become
        # positional and *args / **kwargs each receive one placeholder's Proxy.
        def call_flat(*call_args):
            return _glue.call_flat(root_fn, call_args)
        return call_flat, args

    def _concrete_placeholder(self, param, concrete):
        name, kind, has_default, default, annotation = param
        count = [0]

        def replace(x):
            count[0] += 1
            out = self.create_proxy('placeholder', f'{name}_{count[0]}',
                                    (default,) if has_default else (), {})
            if x is PH:
                return out
            if type(x) == bool or (type(x) in (int, float, str) and type(x) != torch.Tensor):
                torch._assert(out == x, f'{name} has been specialized to have value {x} but '
                                        f'got another value')
            elif x is None:
                self.create_proxy('call_function', _assert_is_none,
                                  (out, f'{name} has been specialized to have value None but '
                                        f'got another value'), {})
            else:
                warnings.warn(f'Was not able to add assertion to guarantee correct input {name} '
                              f'to specialized function. It is up to the user to make sure that '
                              f'your inputs match the inputs you specialized the function with.')
            return x

        if isinstance(concrete, (list, tuple)):
            return type(concrete)([replace(x) for x in concrete])
        if isinstance(concrete, dict):
            return {k: replace(v) for k, v in concrete.items()}
        return replace(concrete)

    def trace(self, root, concrete_args=None):
        was_tracing = _tracing[0]
        _tracing[0] = True
        try:
            if isinstance(root, torch.nn.Module):
                self.root = root
                assert hasattr(type(root), self.traced_func_name), (
                    f'traced_func_name={self.traced_func_name} doesn\'t exist in '
                    f'{type(root).__name__}')
                fn = getattr(type(root), self.traced_func_name)
                if not hasattr(fn, '__globals__'):
                    # a builtin layer's forward is C: its Python twin is what gets traced
                    from torch.fx._nn_forward import python_forward
                    fn = python_forward(type(root)) or fn
            else:
                self.root = torch.nn.Module()
                fn = root
            self.graph = Graph(tracer_cls=getattr(self, '__class__', None))
            # id(tensor) → (tensor, qualified name) of plain tensor attributes (1.13's
            # collect_tensor_attrs) and id(module) → (module, qualified name), in one walk (C)
            self.tensor_attrs = {}
            paths = {}
            _glue.scan_modules(self.root, self.tensor_attrs, paths)
            if isinstance(root, torch.nn.Module):
                self.submodule_paths = paths
            fn_globals = fn.__globals__
            return_type = getattr(fn, '__annotations__', {}).get('return')
            fn, args = self.create_args_for_root(fn, isinstance(root, torch.nn.Module),
                                                 concrete_args)
            parameter_proxy_cache = {}
            original_getattr = torch.nn.Module.__getattr__
            original_call = torch.nn.Module.__call__
            patcher = _Patcher()
            autowrap_ids = self._autowrap_function_ids

            def autowrap_check(namespace):
                _autowrap_check(patcher, namespace, autowrap_ids)

            # Natives (core/trace/tracer.c) doing what 1.13's wrappers do: __getattr__ then
            # self.getattr; __call__ through self.call_module (path_of_module,
            # is_leaf_module, create_proxy), each hook a script subclass overrides called.
            module_getattr_wrapper = _glue.module_getattr_wrapper(self, original_getattr,
                                                                  parameter_proxy_cache)
            module_call_wrapper = _glue.module_call_wrapper(self, original_call, autowrap_check,
                                                            self.submodule_paths or {})

            with patcher:
                patcher.patch_method(torch.nn.Module, '__getattr__', module_getattr_wrapper,
                                     deduplicate=False)
                patcher.patch_method(torch.nn.Module, '__call__', module_call_wrapper,
                                     deduplicate=False)
                _patch_wrapped_functions(patcher)
                _autowrap_check(patcher, fn_globals, self._autowrap_function_ids)
                for module in self._autowrap_search:
                    _autowrap_check(patcher, module.__dict__, self._autowrap_function_ids)
                result = fn(*args)
                self.create_node('output', 'output', (self.create_arg(result),), {},
                                 type_expr=return_type)
            self.submodule_paths = None
        finally:
            _tracing[0] = was_tracing
        return self.graph


def wrap(fn_or_name):
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise RuntimeError('Unsupported type for global function! Must be either a callable or '
                           'string name')
    if callable(fn_or_name):
        fn_name = fn_or_name.__name__
    else:
        fn_name = fn_or_name
    namespace, function_name = _glue.caller_globals()
    if function_name != '<module>':
        raise NotImplementedError('wrap must be called at the top level of a module')
    _wrapped_globals.append((namespace, fn_name))
    return fn_or_name


_assert_is_none = wrap(_assert_is_none)


def symbolic_trace(root, concrete_args=None):
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, torch.nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)


_glue.tracer_setup(Proxy, Attribute, Tracer, Graph, torch.nn.Sequential)
