# torch.fx.subgraph_rewriter for FX Editor's front end: replace_pattern with 1.13's behaviour
# and newer torch.fx's replace_pattern_with_filters. Matching and rewriting are libfx's
# (core/rewrite/, reached through torch.fx._rewrite); this file only traces the callables,
# recompiles and brings over the replacement's submodules.
import collections
import copy
import torch
from torch.fx._ir import GraphModule
from torch.fx._symbolic_trace import symbolic_trace
from torch.fx import _rewrite

__all__ = ['Match', 'replace_pattern', 'replace_pattern_with_filters']

# Match(anchor, nodes_map): the pattern's anchor node, and pattern node -> what it matched.
Match = collections.namedtuple('Match', ['anchor', 'nodes_map'])


class InternalMatch:
    """What a match filter receives (newer torch.fx's InternalMatch)."""

    def __init__(self, anchors, nodes_map, placeholder_nodes, returning_nodes):
        self.anchors = anchors
        self.nodes_map = nodes_map
        self.placeholder_nodes = placeholder_nodes
        self.returning_nodes = returning_nodes

    def __repr__(self):
        return (f'InternalMatch(anchors={self.anchors!r}, nodes_map={self.nodes_map!r}, '
                f'placeholder_nodes={self.placeholder_nodes!r}, '
                f'returning_nodes={self.returning_nodes!r})')


def _submodule_or_none(module, target):
    try:
        return module.get_submodule(target)
    except AttributeError:
        return None


def _bring_submodules(gm, replacement):
    # After a rewrite by an nn.Module replacement, every module or attribute the graph names
    # must exist in gm: the ones gm lacks come (deep-copied) from the replacement.
    gm.delete_all_unused_submodules()
    if isinstance(replacement, GraphModule):
        replacement.graph.lint()
    for node in gm.graph.nodes:
        if node.op not in ('call_module', 'get_attr'):
            continue
        if _submodule_or_none(gm, node.target) is not None:
            continue
        if _submodule_or_none(replacement, node.target) is None:
            raise RuntimeError('Attempted to create a "', node.op,
                               '" node during subgraph rewriting '
                               f'with target {node.target}, but '
                               'the referenced submodule does not '
                               'exist in either the original '
                               'GraphModule `gm` or the replacement'
                               ' GraphModule `replacement`')
        gm.add_submodule(node.target, copy.deepcopy(getattr(replacement, node.target)))
    gm.graph.lint()


def _rewrite_module(gm, pattern, replacement, match_filters):
    graph = gm.graph
    pattern_graph = symbolic_trace(pattern).graph
    replacement_graph = symbolic_trace(replacement).graph
    accept = None
    if match_filters:
        def accept(anchor, nodes_map, placeholder_nodes, returning_nodes):
            internal = InternalMatch([anchor], nodes_map, placeholder_nodes, returning_nodes)
            for keep in match_filters:
                if not keep(internal, graph, pattern_graph):
                    return False
            return True
    found = _rewrite.replace(graph, pattern_graph, replacement_graph, accept)
    gm.recompile()
    if isinstance(replacement, torch.nn.Module):
        _bring_submodules(gm, replacement)
    return [Match(anchor=m[0], nodes_map=m[1]) for m in found]


def replace_pattern(gm, pattern, replacement):
    """Replaces every non-overlapping match of `pattern` in gm.graph by `replacement`
    (callables or GraphModules, traced) and returns the list of Matches."""
    return _rewrite_module(gm, pattern, replacement, None)


def replace_pattern_with_filters(gm, pattern, replacement, match_filters):
    """replace_pattern, replacing only the matches for which every
    match_filter(match, original_graph, pattern_graph) is true."""
    return _rewrite_module(gm, pattern, replacement, list(match_filters or []))
