# torch.fx.experimental.const_fold for FX Editor's front end: split_const_subgraphs moves the
# subgraphs whose inputs are all get_attr (or constants) into a const_subgraph_module run once,
# on the first call, and reads its results through one attribute, giving 1.13's graph. Unlike
# 1.13 it does not go through split_module, so the const_subgraph_module's own node names may
# differ; the main graph and the numbers are 1.13's. libfx's C form is
# fx_pass_fold_constants (core/rewrite/passes.h), which folds at once.
import copy
import operator
import torch
import torch.fx

__all__ = ['FoldedGraphModule', 'split_const_subgraphs', 'get_unique_attr_name_in_module']

_FOLDED_ATTRS = '_FX_CONST_FOLDED_ATTRS'


class FoldedGraphModule(torch.fx.GraphModule):
    """A GraphModule whose constant subgraph (const_subgraph_module) runs on the first call
    and whose results become the attribute fx_const_folded_attrs_name."""

    def __init__(self, root, graph, const_subgraph=None, fx_const_folded_attrs_name=None,
                 device_for_folded_attrs="cuda"):
        super().__init__(root, graph)
        self.const_subgraph_module = (None if const_subgraph is None
                                      else torch.fx.GraphModule(root, const_subgraph))
        self.has_folding_been_run = False
        self.fx_const_folded_attrs_name = fx_const_folded_attrs_name
        self.device_for_folded_attrs = device_for_folded_attrs

    def __call__(self, *args, **kwargs):
        if not self.has_folding_been_run:
            self.run_folding()
        return super().__call__(*args)

    def run_folding(self):
        if self.const_subgraph_module is None or self.fx_const_folded_attrs_name is None:
            return
        assert not self.has_folding_been_run
        self.has_folding_been_run = True
        folded = self.const_subgraph_module()

        def as_param(value):
            if isinstance(value, int):
                value = torch.Tensor([value]).to(device=self.device_for_folded_attrs)
            grad = value.requires_grad if isinstance(value, torch.Tensor) else False
            return torch.nn.Parameter(value, requires_grad=grad)

        if isinstance(folded, tuple):
            params = torch.nn.ParameterList([as_param(v) for v in folded])
        else:
            params = as_param(folded)
        setattr(self, self.fx_const_folded_attrs_name, params)


def get_unique_attr_name_in_module(mod_traced, name):
    """name made an identifier not yet taken on mod_traced ("x", "x_1", "x_2", ...)."""
    # characters that cannot be in an identifier become '_' (a run of them, one '_')
    cleaned = []
    for ch in name:
        ok = ch == '_' or ('0' <= ch <= '9') or ('a' <= ch <= 'z') or ('A' <= ch <= 'Z')
        if ok:
            cleaned.append(ch)
        elif not cleaned or cleaned[-1] != '\0':
            cleaned.append('\0')
    name = ''.join('_' if ch == '\0' else ch for ch in cleaned)
    if name[0].isdigit():
        name = '_' + name
    while hasattr(mod_traced, name):
        base, sep, digits = name.rpartition('_')
        if sep and digits and digits.isdigit():
            name = '%s_%d' % (base, int(digits) + 1)
        else:
            name = name + '_1'
    return name

def _constant_nodes(graph, skip_folding_node_fn):
    # get_attr nodes, and nodes all of whose inputs are constant, unless skipped or impure
    constant = set()
    for node in graph.nodes:
        if node.op in ('placeholder', 'output'):
            continue
        if node.op != 'get_attr' and not all(n in constant for n in node.all_input_nodes):
            continue
        if skip_folding_node_fn is not None and skip_folding_node_fn(node):
            continue
        if node.is_impure():
            continue
        constant.add(node)
    return constant


def _lookup(module, target):
    value = module
    for atom in target.split('.'):
        value = getattr(value, atom)
    return value


def split_const_subgraphs(module, skip_folding_node_fn=None, device_for_folded_attrs="cpu"):
    """A FoldedGraphModule of module (traced first unless it is a GraphModule) whose
    constant subgraphs run once, on the first call."""
    traced = module if isinstance(module, torch.fx.GraphModule) else torch.fx.symbolic_trace(module)
    graph = copy.deepcopy(traced.graph)
    constant = _constant_nodes(graph, skip_folding_node_fn)
    if all(n.op == 'get_attr' for n in constant):
        return FoldedGraphModule(traced, traced.graph)

    # what the rest reads from the constant part, in order of first use
    outputs, kept_attrs = [], []
    for node in graph.nodes:
        if node in constant:
            continue
        for inp in node.all_input_nodes:
            if inp not in constant:
                continue
            if inp.op == 'get_attr':
                if inp not in kept_attrs:
                    kept_attrs.append(inp)
            elif inp not in outputs:
                outputs.append(inp)
    order = {n: i for i, n in enumerate(graph.nodes)}
    kept_attrs.sort(key=lambda n: order[n])

    # the constant subgraph, reading the attributes itself
    const_graph = torch.fx.Graph()
    env = {}
    for node in graph.nodes:
        if node in constant:
            env[node] = const_graph.node_copy(node, lambda n: env[n])
    const_graph.output(tuple(env[n] for n in outputs) if len(outputs) > 1 else env[outputs[0]])

    # the main graph: kept get_attrs after the placeholders, then the folded attributes
    anchor = None
    for node in graph.nodes:
        if node.op == 'placeholder':
            anchor = node
    for node in kept_attrs:
        if anchor is None:
            first = next(iter(graph.nodes))
            if first is not node:
                first.prepend(node)
        elif anchor.next is not node:
            anchor.append(node)
        anchor = node
    name = get_unique_attr_name_in_module(traced, _FOLDED_ATTRS)
    with graph.inserting_before(anchor.next if anchor is not None else next(iter(graph.nodes))):
        attrs = graph.get_attr(name)
        if len(outputs) > 1:
            reads = [graph.call_function(operator.getitem, (attrs, i)) for i in range(len(outputs))]
        else:
            reads = [attrs]
    for node, read in zip(outputs, reads):
        node.replace_all_uses_with(read)
    for node in reversed(list(graph.nodes)):
        if node in constant and len(node.users) == 0:
            graph.erase_node(node)

    # 1.13's root holds an empty placeholder for the folded attributes until run_folding
    # (the const_subgraph_module copies its attributes from the same root)
    root = {}
    for node in list(graph.nodes) + list(const_graph.nodes):
        if node.op in ('get_attr', 'call_module') and node.target != name:
            root[node.target] = _lookup(traced, node.target)
    root[name] = torch.nn.ParameterList() if len(outputs) > 1 else torch.nn.Parameter()
    return FoldedGraphModule(_Root(traced, root), graph, const_graph, name,
                             device_for_folded_attrs)


class _Root(torch.nn.Module):
    # What the FoldedGraphModule copies its attributes from: the traced module's, plus the
    # placeholder for the folded ones (the traced module itself is left as it was).
    def __init__(self, traced, attrs):
        super().__init__()
        for target, value in attrs.items():
            parent = self
            atoms = target.split('.')
            for atom in atoms[:-1]:
                if not hasattr(parent, atom):
                    setattr(parent, atom, torch.nn.Module())
                parent = getattr(parent, atom)
            setattr(parent, atoms[-1], value)
        self.training = traced.training
