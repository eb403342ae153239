"""Tracing speed against torch.fx in the same run: symbolic_trace of ResNet-50 (the bundled
torchvision-style model, core/trace/torchvision/models/resnet.py; also Tracer.trace alone,
without building the GraphModule) and of chains of 1 000 to 10 000 adds (linear in fx;
torch.fx's naming is superlinear). The same script runs under
`fx run` and under CPython with PyTorch 1.13:

    /usr/bin/python3 tests/bench/bench_trace.py build/app/fx    # both sides, with ratios
    fx run tests/bench/bench_trace.py                          # one side: `NAME SECONDS NODES`
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "core", "trace", "torchvision",
                      "models")
REPEATS = 5
# ResNet-50 takes about a millisecond here: the best of more runs filters out the noise of a
# shared machine (both sides get the same number)
RESNET_REPEATS = 30
CHAINS = (1000, 2000, 5000, 10000)


def best_time(fn, repeats=REPEATS):
    best = None
    result = None
    for _ in range(repeats + 1):   # the first run warms up
        # the result before is freed after the timed part, not while `result` is rebound in
        # it (CPython leaves most of a GraphModule to its cycle collector, which runs outside
        # it too; fx frees when the last reference goes)
        previous = result
        t0 = time.perf_counter()
        result = fn()
        t = time.perf_counter() - t0
        previous = None
        best = t if best is None else min(best, t)
    return best, result


def chain(n):
    def f(x):
        for _ in range(n):
            x = x + 1
        return x
    return f


def measure():
    sys.path.insert(0, MODELS)
    import torch
    import torch.fx
    import resnet
    torch.manual_seed(0)
    model = resnet.resnet50()
    seconds, gm = best_time(lambda: torch.fx.symbolic_trace(model), RESNET_REPEATS)
    print("resnet50", seconds, len(gm.graph.nodes))
    # Tracer.trace alone: symbolic_trace minus building the GraphModule (code generation)
    seconds, graph = best_time(lambda: torch.fx.Tracer().trace(model), RESNET_REPEATS)
    print("resnet50/trace", seconds, len(graph.nodes))
    for n in CHAINS:
        f = chain(n)
        seconds, gm = best_time(lambda: torch.fx.symbolic_trace(f))
        print(f"chain{n}", seconds, len(gm.graph.nodes))


def compare(fx):
    import subprocess   # CPython only; fx runs measure()
    here = os.path.abspath(__file__)
    results = {}
    for side, argv in (("torch.fx", [sys.executable, here]), ("fx", [fx, "run", here])):
        out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            name, seconds, nodes = line.split()
            results.setdefault(name, {})[side] = (float(seconds), int(nodes))
    print(f"symbolic_trace, best of {RESNET_REPEATS} (resnet) / {REPEATS} (chains)"
          "     torch.fx          fx   [torch.fx / fx]")
    for name, sides in results.items():
        t_torch, nodes = sides["torch.fx"]
        t_fx, _ = sides["fx"]
        print(f"{name:14} {nodes:6} nodes  {t_torch * 1e3:9.1f} ms {t_fx * 1e3:9.1f} ms"
              f"   [{t_torch / t_fx:.1f}x]")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        try:
            import torch.fx  # noqa: F401
        except ImportError:
            print("torch.fx not available (/usr/bin/python3 with PyTorch 1.13): no comparison")
            sys.exit(0)
        compare(sys.argv[1])
    else:
        measure()
