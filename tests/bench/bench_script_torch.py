"""The CPython side of bench-script.c, run by /usr/bin/python3 in the same run.
Usage: bench_script_torch.py micro
       bench_script_torch.py resnet MODELS_DIR THREADS
Prints one `name seconds [extra]` line per measurement, best of several runs like the C side.
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


# The clocks of bench-script.c: wall time for multi-threaded kernels, CPU time otherwise.
clock = time.perf_counter


def best(fn, reps):
    fn()   # warm-up
    t = float("inf")
    for _ in range(reps):
        t0 = clock()
        fn()
        t = min(t, clock() - t0)
    return t


def micro():
    global clock
    clock = time.thread_time
    sys.path.insert(0, HERE)
    import bench_micro
    for name, fn, n in bench_micro.WORKLOADS:
        result = []
        t = best(lambda: result.append(fn(n)), 3)
        print(name, t, result[-1])


# Time spent inside leaf layers, nn.init and tensor ops (the same places bench-script.c
# times in libfx); nested calls count once.
class KernelClock:
    def __init__(self):
        self.depth = 0
        self.inside = 0.0
        self.calls = 0
        self.now = clock

    def wrap(self, fn):
        clock = self

        def timed(*args, **kwargs):
            clock.calls += 1
            clock.depth += 1
            t0 = clock.now()
            try:
                return fn(*args, **kwargs)
            finally:
                clock.depth -= 1
                if clock.depth == 0:
                    clock.inside += clock.now() - t0
        return timed


def resnet(models_dir, threads):
    global clock
    clock = time.process_time if threads == 1 else time.perf_counter
    import torch
    import torch.nn as nn
    torch.set_num_threads(threads)
    sys.path.insert(0, models_dir)
    try:
        import resnet as models   # core/trace/torchvision/models/resnet.py, as FxScript runs it
    except ImportError:
        import torchvision.models.resnet as models

    torch.manual_seed(0)
    x = torch.randn(1, 3, 224, 224)
    model = models.resnet50().eval()

    def forward():
        with torch.no_grad():
            model(x)

    print("construct", best(models.resnet50, 2))
    print("forward", best(forward, 5))
    model18 = models.resnet18().eval()

    def forward18():
        with torch.no_grad():
            model18(x)

    print("forward_resnet18", best(forward18, 5))

    kclock = KernelClock()
    for cls in (nn.Conv2d, nn.BatchNorm2d, nn.ReLU, nn.MaxPool2d, nn.AdaptiveAvgPool2d,
                nn.Linear):
        cls.__init__ = kclock.wrap(cls.__init__)
        cls.forward = kclock.wrap(cls.forward)
    for name in ("kaiming_normal_", "constant_"):
        setattr(nn.init, name, kclock.wrap(getattr(nn.init, name)))
    torch.flatten = kclock.wrap(torch.flatten)
    torch.Tensor.__iadd__ = kclock.wrap(torch.Tensor.__iadd__)

    models.resnet50()
    kclock.inside = kclock.calls = 0
    t0 = clock()
    model = models.resnet50().eval()
    print("construct_instrumented", clock() - t0, kclock.inside, kclock.calls)
    forward()
    times = []
    for _ in range(3):
        kclock.inside = kclock.calls = 0
        t0 = clock()
        forward()
        times.append((clock() - t0, kclock.inside, kclock.calls))
    t, inside, calls = min(times)
    print("forward_instrumented", t, inside, calls)


if __name__ == "__main__":
    if sys.argv[1] == "micro":
        micro()
    else:
        resnet(sys.argv[2], int(sys.argv[3]))
