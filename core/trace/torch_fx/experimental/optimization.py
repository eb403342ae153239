# torch.fx.experimental.optimization for FX Editor's front end: Conv+BatchNorm fusion (the
# classic FX tutorial's fuse), remove_dropout and extract_subgraph, with torch 1.13's
# behaviour. libfx's C form of fuse is fx_pass_fuse_conv_bn (core/rewrite/passes.h).
import copy
import torch
import torch.fx as fx
import torch.nn as nn

__all__ = ['fuse', 'remove_dropout', 'extract_subgraph', 'matches_module_pattern',
           'replace_node_module', 'fuse_conv_bn_eval', 'fuse_conv_bn_weights']

# Conv → BatchNorm pairs of the same dimension, tried in this order.
_FUSIBLE = [(nn.Conv1d, nn.BatchNorm1d), (nn.Conv2d, nn.BatchNorm2d)]
if hasattr(nn, 'Conv3d') and hasattr(nn, 'BatchNorm3d'):
    _FUSIBLE.append((nn.Conv3d, nn.BatchNorm3d))


def _parent_name(target):
    # 'a.b.c' -> ('a.b', 'c'); 'c' -> ('', 'c')
    head, dot, last = target.rpartition('.')
    return head, last


def matches_module_pattern(pattern, node, modules):
    """Whether node and its first argument call modules of exactly the pattern's types
    (first argument first)."""
    if len(node.args) == 0:
        return False
    for expected, current in zip(pattern, (node.args[0], node)):
        if not isinstance(current, fx.Node) or current.op != 'call_module':
            return False
        if not isinstance(current.target, str) or current.target not in modules:
            return False
        if type(modules[current.target]) is not expected:
            return False
    return True


def replace_node_module(node, modules, new_module):
    """Installs new_module at node's target path (and in the modules dict)."""
    assert isinstance(node.target, str)
    parent, name = _parent_name(node.target)
    modules[node.target] = new_module
    setattr(modules[parent], name, new_module)


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    # A missing conv bias or BatchNorm affine parameter acts as zeros / ones / zeros.
    if conv_b is None:
        conv_b = torch.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = torch.ones_like(bn_rm)
    if bn_b is None:
        bn_b = torch.zeros_like(bn_rm)
    inv_std = torch.rsqrt(bn_rv + bn_eps)
    # one scale per output channel: dim 0 of the weight (dim 1 when transposed)
    trailing = [1] * (len(conv_w.shape) - 2)
    shape = [1, -1] + trailing if transpose else [-1, 1] + trailing
    weight = conv_w * (bn_w * inv_std).reshape(shape)
    bias = (conv_b - bn_rm) * inv_std * bn_w + bn_b
    return torch.nn.Parameter(weight), torch.nn.Parameter(bias)


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A copy of conv that computes bn(conv(x)) for an eval-mode BatchNorm."""
    assert not (conv.training or bn.training), "Fusion only for eval!"
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight,
        bn.bias, transpose)
    return fused


def fuse(model, inplace=False):
    """Folds each eval-mode BatchNorm into the convolution feeding it (when nothing else
    reads the convolution's output). Works on a deep copy of model unless inplace."""
    if not inplace:
        model = copy.deepcopy(model)
    traced = fx.symbolic_trace(model)
    modules = dict(traced.named_modules())
    graph = copy.deepcopy(traced.graph)
    for pattern in _FUSIBLE:
        for node in graph.nodes:
            if not matches_module_pattern(pattern, node, modules):
                continue
            conv_node = node.args[0]
            if len(conv_node.users) > 1:
                continue
            bn = modules[node.target]
            if not bn.track_running_stats:
                continue
            fused = fuse_conv_bn_eval(modules[conv_node.target], bn)
            replace_node_module(conv_node, modules, fused)
            node.replace_all_uses_with(conv_node)
            graph.erase_node(node)
    return fx.GraphModule(traced, graph)


def remove_dropout(model):
    """The traced model without its nn.Dropout layers."""
    traced = fx.symbolic_trace(model)

    class DropoutRemover(fx.Transformer):
        def call_module(self, target, args, kwargs):
            if isinstance(self.submodules[target], nn.Dropout):
                assert len(args) == 1
                return args[0]
            return super().call_module(target, args, kwargs)

    return DropoutRemover(traced).transform()


def extract_subgraph(orig_module, nodes, inputs, outputs):
    """A GraphModule running nodes, with inputs as placeholders and outputs returned."""
    graph = fx.Graph()
    env = {}
    for inp in inputs:
        env[inp] = graph.placeholder(inp.name)
    for node in nodes:
        env[node] = graph.node_copy(node, lambda n: env[n])
    graph.output([env[out] for out in outputs])
    graph.lint()
    return fx.GraphModule(orig_module, graph)
