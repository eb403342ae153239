"""torch.fx 1.13's side of bench-ir: the same chain graph built, linted, dead-code eliminated
and turned into code. Prints one line per size: N build lint dce code (seconds)."""
import operator
import sys
import time

import torch.fx

for n in (int(a) for a in sys.argv[1:]):
    t0 = time.perf_counter()
    g = torch.fx.Graph()
    prev = g.placeholder("x")
    for i in range(n):
        node = g.call_function(operator.add, (prev, i))
        if i % 10 == 0:
            g.call_function(operator.mul, (node, 2))   # dead branch, for DCE
        prev = node
    g.output(prev)
    t1 = time.perf_counter()
    g.lint()
    t2 = time.perf_counter()
    g.eliminate_dead_code()
    t3 = time.perf_counter()
    g.python_code("self")
    t4 = time.perf_counter()
    print(n, t1 - t0, t2 - t1, t3 - t2, t4 - t3, flush=True)
