# Random graphs (a fixed LCG, so that every interpreter builds the same ones) rewritten with
# single- and multi-output patterns: match order, overlaps, containment and cycles at once.
# (1.13 can leave a graph that fails lint after a multi-output rewrite; so does fx, alike.)
import operator
import torch
import torch.fx
from torch.fx import replace_pattern

state = [20221125]

def rand(n):
    state[0] = (state[0] * 1103515245 + 12345) % 2147483648
    return (state[0] >> 8) % n

UNARY = [torch.relu, torch.neg, torch.sigmoid, torch.tanh]

def random_graph(size):
    g = torch.fx.Graph()
    nodes = [g.placeholder('a'), g.placeholder('b')]
    for _ in range(size):
        a = nodes[len(nodes) - 1 - rand(min(len(nodes), 4))]
        b = nodes[rand(len(nodes))]
        if a.op != 'placeholder' and isinstance(a.args[-1], torch.fx.Node) and rand(2):
            b = a.args[-1]
        kind = rand(10)
        if kind < 6:
            node = g.call_function(UNARY[rand(4)], (a,))
        elif kind < 8:
            node = g.call_function([operator.add, operator.mul][rand(2)], (a, b if rand(4) else a))
        else:
            node = g.call_function(operator.mul, (a, 2 + rand(2)))
        nodes.append(node)
    sinks = [n for n in nodes[2:] if len(n.users) == 0]
    g.output(tuple(sinks) if len(sinks) > 1 else sinks[0])
    return g

RULES = [
    (lambda x: torch.neg(torch.relu(x)), lambda x: torch.tanh(x)),
    (lambda x: (torch.relu(x), torch.sigmoid(x)), lambda x: (torch.tanh(x), torch.neg(x))),
    (lambda x, y: (torch.relu(x), torch.sigmoid(y)), lambda x, y: (torch.tanh(x), torch.tanh(y))),
    (lambda x, y: x * y + y, lambda x, y: x - y),
    (lambda x: x * 2, lambda x: x + x),
    (lambda x, y: (x + y, x * y), lambda x, y: (x - y, torch.neg(x))),
]

for i in range(27):
    size = 6 + rand(30) if i < 24 else 100 + rand(100)
    saved = state[0]
    for r, (pattern, replacement) in enumerate(RULES):
        state[0] = saved
        gm = torch.fx.GraphModule(torch.nn.Module(), random_graph(size))
        try:
            matches = replace_pattern(gm, pattern, replacement)
        except KeyError as e:
            print(f'graph {i} rule {r}: KeyError {e}')
            continue
        print(f'graph {i} rule {r}: {len(matches)} matches')
        for m in matches:
            print(' ', list(m.nodes_map.items()))
        print(gm.code.strip())
        try:
            gm.graph.lint()
        except RuntimeError as e:   # 1.13 can insert a replacement before its inputs
            print('lint:', e)
