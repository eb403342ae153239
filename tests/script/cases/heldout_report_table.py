rows = [
    ("resnet18", 11_689_512, 69.758, 1.8),
    ("mobilenet_v2", 3_504_872, 71.878, 0.3),
    ("vgg16", 138_357_544, 71.592, 15.5),
    ("densenet121", 7_978_856, 74.434, 2.9),
]
headers = ("model", "params", "top-1 %", "GFLOPs")
widths = [max(len(headers[0]), *(len(r[0]) for r in rows)), 13, 8, 7]

line = "+".join("-" * (w + 2) for w in widths)
print(f"+{line}+")
print("| " + " | ".join(f"{h:^{w}}" for h, w in zip(headers, widths)) + " |")
print(f"+{line.replace('-', '=')}+")
for name, params, acc, flops in rows:
    print(f"| {name:<{widths[0]}} | {params:>{widths[1]},} | {acc:>{widths[2]}.2f} | {flops:>{widths[3]}.1f} |")
print(f"+{line}+")

total = sum(r[1] for r in rows)
best = max(rows, key=lambda r: r[2])
print(f"total params: {total:,} ({total / 1e6:.1f}M), best: {best[0]!r} at {best[2]:.1f}%")
for name, params, *_ in rows:
    share = params / total
    bar = "#" * round(share * 40)
    print(f"{name:>14} {share:6.1%} {bar}")
print(f"{'left':<10}|{'center':^10}|{'right':>10}|")
print(f"{42:08.3f} {-7:+d} {255:#x} {255:#o} {5:b} {1234567.891:_.2f} {0.000123:e} {3.0:g}")
print("{0:*<8}{1:*>8}".format("ab", "cd"), "%-6s|%6.2f|%03d" % ("x", 3.14159, 7))
value, unit = 2.5e-3, "s"
print(f"{value=}, {unit!r}, {value * 1000:.1f} ms")
