"""torch.fx 1.13's side of bench-rewrite: replace_pattern on a chain of relu -> neg -> sigmoid
blocks (pattern neg(relu(x)), replacement tanh(x) + x), the graph built with the Graph API.
Prints one line per size: N matches seconds (CPU time, best of 3), or N RecursionError when
1.13 cannot finish."""
import sys
import time

import torch
import torch.fx


def pattern(x):
    return torch.neg(torch.relu(x))


def replacement(x):
    return torch.tanh(x) + x


def chain(n_blocks):
    g = torch.fx.Graph()
    x = g.placeholder('x')
    for _ in range(n_blocks):
        x = g.call_function(torch.sigmoid, (g.call_function(torch.neg, (g.call_function(torch.relu, (x,)),)),))
    g.output(x)
    return torch.fx.GraphModule(torch.nn.Module(), g)


for n in (int(a) for a in sys.argv[1:]):
    best = None
    matches = 0
    try:
        for _ in range(3 if n <= 1200 else 1):
            gm = chain(n // 3)
            t0 = time.process_time()
            matches = len(torch.fx.replace_pattern(gm, pattern, replacement))
            t = time.process_time() - t0
            best = t if best is None else min(best, t)
        print(n, matches, best, flush=True)
    except RecursionError:
        print(n, 'RecursionError', flush=True)
