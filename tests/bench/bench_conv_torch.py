"""PyTorch's side of bench-conv.c: times each distinct ResNet-18 conv layer at batch 1 with
torch.nn.functional.conv2d (no autograd) and prints "name milliseconds" lines, best of
several runs like the C side. Usage: bench_conv_torch.py [threads] [min_seconds]"""
import sys
import time

import torch
import torch.nn.functional as F

# (name, in, out, hw, kernel, stride, pad) — keep in sync with bench-conv.c
LAYERS = [
    ("conv1", 3, 64, 224, 7, 2, 3),
    ("layer1", 64, 64, 56, 3, 1, 1),
    ("layer2.0.c1", 64, 128, 56, 3, 2, 1),
    ("layer2", 128, 128, 28, 3, 1, 1),
    ("layer2.ds", 64, 128, 56, 1, 2, 0),
    ("layer3.0.c1", 128, 256, 28, 3, 2, 1),
    ("layer3", 256, 256, 14, 3, 1, 1),
    ("layer3.ds", 128, 256, 28, 1, 2, 0),
    ("layer4.0.c1", 256, 512, 14, 3, 2, 1),
    ("layer4", 512, 512, 7, 3, 1, 1),
    ("layer4.ds", 256, 512, 14, 1, 2, 0),
]


def best(fn, min_seconds, min_reps=5):
    for _ in range(3):  # warm-up, as on the C side
        fn()
    best_t = float("inf")
    start = time.perf_counter()
    reps = 0
    while reps < min_reps or time.perf_counter() - start < min_seconds:
        t0 = time.perf_counter()
        fn()
        best_t = min(best_t, time.perf_counter() - t0)
        reps += 1
    return best_t


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    min_seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.3
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    with torch.no_grad():
        for name, c, o, hw, k, s, p in LAYERS:
            x = torch.rand(1, c, hw, hw) * 2 - 1
            w = torch.rand(o, c, k, k) * 2 - 1
            t = best(lambda: F.conv2d(x, w, None, s, p), min_seconds)
            print(f"{name} {t * 1e3:.4f}", flush=True)


if __name__ == "__main__":
    main()
