"""Time torch.fx.symbolic_trace of ResNet-50 (tests/conformance/models/resnet.py): the same
script runs under `fx run` and under CPython with PyTorch 1.13; run under /usr/bin/python3
with the fx binary as argument, it runs both and prints the ratio:

    /usr/bin/python3 tests/bench/bench_trace.py build/app/fx    # both, and fx / torch.fx
    fx run tests/bench/bench_trace.py                          # one side: `trace SECONDS NODES`
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(os.path.dirname(HERE), "conformance", "models")
REPEATS = 5


def measure():
    sys.path.insert(0, MODELS)
    import torch
    import torch.fx
    import resnet
    torch.manual_seed(0)
    model = resnet.resnet50()
    best = None
    for _ in range(REPEATS + 1):   # the first run warms up
        t0 = time.perf_counter()
        gm = torch.fx.symbolic_trace(model)
        t = time.perf_counter() - t0
        best = t if best is None else min(best, t)
    print("trace", best, len(gm.graph.nodes))


def compare(fx):
    import subprocess   # CPython only; fx runs measure()
    here = os.path.abspath(__file__)
    results = {}
    for side, argv in (("torch.fx", [sys.executable, here]), ("fx", [fx, "run", here])):
        out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
        _, seconds, nodes = out.split()
        results[side] = float(seconds)
        print(f"symbolic_trace(resnet50), {nodes} nodes, best of {REPEATS}: "
              f"{side:8} {float(seconds) * 1e3:8.1f} ms")
    print(f"fx / torch.fx: {results['fx'] / results['torch.fx']:.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        compare(sys.argv[1])
    else:
        measure()
