# torch.fx for FX Editor's front end: the names scripts reach as torch.fx.X. The IR classes
# are libfx's own (C); tracing is written in Python next to this file.
from torch.fx._ir import Graph, Node, GraphModule, map_arg
from torch.fx.proxy import Proxy, Attribute, TraceError, GraphAppendingTracer
from torch.fx._symbolic_trace import symbolic_trace, Tracer, wrap, PH, PHBase, is_fx_tracing
from torch.fx.interpreter import Interpreter, Transformer
# 1.13's torch.fx imports these submodules, so scripts reach them as attributes
# (torch.fx.graph.map_arg, torch.fx.node.Node).
from torch.fx import graph, node, graph_module
from torch.fx.subgraph_rewriter import replace_pattern
from torch.fx import subgraph_rewriter
