# torch.fx.interpreter for FX Editor's front end: Interpreter runs a GraphModule's graph node by
# node through overridable methods; Transformer re-traces it into a new GraphModule. Behaviour
# and messages follow torch.fx 1.13; the implementation is FX Editor's own.
from torch.fx._ir import Graph, Node, GraphModule, map_arg, map_aggregate
from torch.fx.proxy import Proxy
from torch.fx._symbolic_trace import Tracer

__all__ = ['Interpreter', 'Transformer']


class Interpreter:
    """Executes the graph of `module` one node at a time. run() calls run_node() for every
    node, which dispatches on the node's op to placeholder(), get_attr(), call_function(),
    call_method(), call_module() or output(); subclasses override any of them.

    With garbage_collect_values, a value leaves `env` right after the node that uses it last
    has run; without it, `env` keeps every intermediate value for inspection."""

    def __init__(self, module, garbage_collect_values=True):
        assert isinstance(module, GraphModule)
        self.module = module
        self.submodules = dict(self.module.named_modules())
        self.env = {}
        self.garbage_collect_values = garbage_collect_values
        if self.garbage_collect_values:
            # Walking backwards, the first user seen of a value is its last user.
            last_user_of = {}
            users_last_uses = {}

            def note_use(value_node, user):
                if value_node not in last_user_of:
                    last_user_of[value_node] = user
                    users_last_uses.setdefault(user, []).append(value_node)

            for node in reversed(self.module.graph.nodes):
                def note_use_by_node(value_node):
                    note_use(value_node, node)
                map_arg(node.args, note_use_by_node)
                map_arg(node.kwargs, note_use_by_node)
            self.user_to_last_uses = users_last_uses

    def run(self, *args, initial_env=None, enable_io_processing=True):
        """Runs the graph on `args` (its placeholders' values, in order) and returns what its
        output node returns. `initial_env` maps nodes to values given in advance: those
        nodes are not run."""
        self.env = initial_env if initial_env else {}
        graph = self.module.graph
        if enable_io_processing:
            process_inputs = getattr(graph, 'process_inputs', None)
            if process_inputs is not None:
                args = process_inputs(*args)
        self.args_iter = iter(args)
        collect = self.garbage_collect_values
        last_uses = self.user_to_last_uses if collect else None
        for node in graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                where = f"While executing {node.format_node()}"
                if e.args:
                    message = f"{e.args[0]}\n\n{where}"
                else:
                    message = str(where)
                message += f"\nOriginal traceback:\n{node.stack_trace}"
                e.args = (message,) + e.args[1:]
                if isinstance(e, KeyError):
                    raise RuntimeError(*e.args)
                raise
            if collect:
                for value_node in last_uses.get(node, ()):
                    del self.env[value_node]
            if node.op == 'output':
                result = self.env[node]
                if enable_io_processing:
                    process_outputs = getattr(graph, 'process_outputs', None)
                    if process_outputs is not None:
                        return process_outputs(result)
                return result

    def boxed_run(self, args_list):
        """run() on the values of `args_list`, which is emptied first so that the caller's
        list does not keep the inputs alive."""
        args_iter = list(args_list)
        args_list.clear()
        return self.run(*args_iter)

    def run_node(self, n):
        """Runs node `n`: fetches its arguments' values and calls the method named after its
        op."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        assert isinstance(args, tuple)
        assert isinstance(kwargs, dict)
        return getattr(self, n.op)(n.target, args, kwargs)

    def placeholder(self, target, args, kwargs):
        """The next value given to run() (all the rest for a `*args` placeholder), else the
        placeholder's default value."""
        assert isinstance(target, str)
        if target.startswith('*'):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration:
            if len(args) > 0:
                return args[0]
            raise RuntimeError(f'Expected positional argument for parameter {target}, but one '
                               f'was not passed in!')

    def get_attr(self, target, args, kwargs):
        """The attribute `target` (a dotted path) of the module hierarchy."""
        assert isinstance(target, str)
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        assert not isinstance(target, str)
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *args_tail = args
        assert isinstance(target, str)
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target, args, kwargs):
        assert isinstance(target, str)
        submod = self.fetch_attr(target)
        return submod(*args, **kwargs)

    def output(self, target, args, kwargs):
        """The value the output node returns."""
        return args[0]

    def fetch_attr(self, target):
        """Follows the dotted path `target` from the module being run."""
        atoms = target.split('.')
        value = self.module
        for i, atom in enumerate(atoms):
            if not hasattr(value, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(atoms[:i])}")
            value = getattr(value, atom)
        return value

    def fetch_args_kwargs_from_env(self, n):
        """`n`'s args and kwargs with every node replaced by its value in `env`."""
        args = self.map_nodes_to_values(n.args, n)
        assert isinstance(args, tuple)
        kwargs = self.map_nodes_to_values(n.kwargs, n)
        assert isinstance(kwargs, dict)
        return args, kwargs

    def map_nodes_to_values(self, args, n):
        """`args` with every node replaced by its value in `env`; `n` (whose arguments these
        are) only names the culprit when a value is missing."""
        env = self.env
        if type(env) is dict:
            # The common case, without a Python call per node; a missing value is reported
            # by the checked lookup, as if it had been used from the start.
            try:
                return map_arg(args, env.__getitem__)
            except KeyError:
                pass
        return _map_nodes_checked(env, args, n)


def _map_nodes_checked(env, args, n):
    def load_arg(n_arg):
        if n_arg not in env:
            raise RuntimeError(f'Node {n} referenced nonexistent value {n_arg}! Run '
                               f'Graph.lint() to diagnose such issues')
        return env[n_arg]
    return map_arg(args, load_arg)


class _TransformerTracer(Tracer):
    """The tracer of a Transformer's proxies: appends to its new graph and keeps every module
    call as a call_module node."""

    def __init__(self, graph):
        super().__init__()
        self.graph = graph

    def is_leaf_module(self, m, module_qualified_name):
        return True


class Transformer(Interpreter):
    """An Interpreter that runs the graph on Proxies: what the overridable methods return is
    recorded into a new graph, and transform() returns it as a new GraphModule. Needs no
    inputs."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = Graph()
        codegen = getattr(module.graph, '_codegen', None)
        if codegen is not None and hasattr(self.new_graph, 'set_codegen'):
            self.new_graph.set_codegen(codegen)
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target, args, kwargs):
        """A placeholder of the new graph, with the same default value if any."""
        assert isinstance(target, str)
        if args:
            node = self.new_graph.placeholder(target, default_value=next(iter(args)))
        else:
            node = self.new_graph.placeholder(target)
        return Proxy(node, self.tracer)

    def get_attr(self, target, args, kwargs):
        """A get_attr node of the new graph."""
        assert isinstance(target, str)
        return Proxy(self.new_graph.get_attr(target), self.tracer)

    def call_module(self, target, args, kwargs):
        assert isinstance(target, str)
        submod = self.fetch_attr(target)
        return self.tracer.call_module(submod, submod.forward, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy('call_function', target, args, kwargs)

    def transform(self):
        """Runs the graph symbolically and returns the new GraphModule (sharing the original
        module's attributes)."""
        result = super().run(enable_io_processing=False)
        if result is not None:
            def strip_proxy(a):
                return a.node if isinstance(a, Proxy) else a
            self.new_graph.output(map_aggregate(result, strip_proxy))
        return GraphModule(self.module, self.new_graph)
