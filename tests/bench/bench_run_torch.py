"""PyTorch's side of bench-run.c, measured in the same run: per-node cost of a chain of N
tiny adds through torch.fx.Interpreter and through the compiled GraphModule, and ResNet-18 /
ResNet-50 forward at batch 1, 224x224, eager under no_grad: best time and the peak RSS the
forward adds.
Usage: bench_run_torch.py THREADS MIN_SECONDS CHAIN_LEN
         then reads commands on stdin, one per line, and answers each with "name value"
         lines: "chain" (both chain timings), "MODEL SECONDS" (the best forward of MODEL over
         SECONDS, in ms; bench-run.c alternates these with its own, so that both sides are
         timed in the same minutes of a machine whose speed drifts), "quit".
       bench_run_torch.py --peak MODEL   (in a fresh process, as bench-run.c measures it)"""
import ctypes
import operator
import sys
import time

import torch
import torch.fx
import torchvision.models

from bench_conv_torch import best  # best-of-N timing with warm-up, as on the C side


def status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def peak_reset():
    # Freed heap back to the system, then VmHWM reset to the current RSS (Linux >= 4.0):
    # VmHWM - VmRSS afterwards is what the code in between added at its peak (as bench-run.c).
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return status_kb("VmRSS")


def chain(n):
    g = torch.fx.Graph()
    x = g.placeholder("x")
    for _ in range(n):
        x = g.call_function(operator.add, (x, 1.0))
    g.output(x)
    return torch.fx.GraphModule(torch.nn.Module(), g)


def main():
    if sys.argv[1] == "--peak":
        peak(sys.argv[2])
        return
    threads = int(sys.argv[1])
    min_seconds = float(sys.argv[2])
    n = int(sys.argv[3])
    torch.set_num_threads(threads)
    models = {}
    torch.manual_seed(0)
    x = torch.randn(1, 3, 224, 224)
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "chain":
            gm = chain(n)
            one = torch.ones(1)
            interp = torch.fx.Interpreter(gm)
            t = best(lambda: interp.run(one), min_seconds)
            print(f"chain_interpreter {t / n * 1e6:.4f}", flush=True)
            t = best(lambda: gm(one), min_seconds)
            print(f"chain_graph_module {t / n * 1e6:.4f}", flush=True)
            continue
        name, seconds = words[0], float(words[1])
        if name not in models:
            models[name] = getattr(torchvision.models, name)().eval()
        model = models[name]
        with torch.no_grad():
            t = best(lambda: model(x), seconds, 3)
        print(f"{name} {t * 1e3:.3f}", flush=True)


def peak(name):
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        base = peak_reset()
        model(x)
        print(f"peak {status_kb('VmHWM') - base}", flush=True)


if __name__ == "__main__":
    main()
