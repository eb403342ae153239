# bench_micro.py: pure-interpreter workloads — loops, calls, attribute access, list, dict and
# string operations, no tensors. bench-script.c times each function under FxScript and, through
# bench_script_torch.py, under CPython; the returned checksums must agree.


def loops(n):
    total = 0
    i = 0
    while i < n:
        if i % 3 == 0:
            total += i * 2
        elif i % 3 == 1:
            total -= i
        else:
            total ^= i
        i += 1
    for j in range(n):
        total = (total + j) & 0xFFFFFF
    return total


def _add(a, b, scale=1):
    return (a + b) * scale


def _varargs(*args, **kwargs):
    return len(args) + len(kwargs)


def calls(n):
    total = 0
    f = _add
    for i in range(n):
        total = f(total, i) & 0xFFFF
        total += f(i, 1, scale=2)
        total += _varargs(i, i, k=i)
        total += (lambda v: v + 1)(i)
    return total


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def norm1(self):
        return abs(self.x) + abs(self.y)

    @property
    def sum(self):
        return self.x + self.y


class Point3(Point):
    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z

    def norm1(self):
        return super().norm1() + abs(self.z)


def attributes(n):
    total = 0
    p = Point3(1, -2, 3)
    for i in range(n):
        p.x = i
        p.y = p.x - 7
        total += p.norm1() + p.sum + p.z
        if i % 64 == 0:
            p = Point3(i, i, -i)
    return total


def lists(n):
    total = 0
    for r in range(n // 100):
        xs = []
        for i in range(100):
            xs.append((i * 7919 + r) % 101)
        ys = [v * 2 for v in xs if v % 2]
        xs.sort()
        total += xs[0] + xs[-1] + len(ys) + sum(xs[10:20]) + ys.count(4)
        xs.reverse()
        total += xs.index(xs[5]) + len(xs + ys)
        while xs:
            total += xs.pop()
    return total


def dicts(n):
    total = 0
    d = {}
    for i in range(n):
        d[i % 1000] = d.get(i % 1000, 0) + i
        key = "k" + str(i % 50)
        if key in d:
            total += d[key]
        d[key] = i
    for k, v in d.items():
        if isinstance(k, int):
            total += v
    total += len({k: v for k, v in d.items() if v % 2})
    return total & 0xFFFFFFFF


def strings(n):
    total = 0
    for i in range(n):
        s = f"item {i}: {i * 3}"
        parts = s.split(":")
        total += len(parts[0].strip()) + len(s.upper()) + ("3" in s)
        total += len("-".join([parts[1], str(i)]))
    return total


# (name, function, size): sizes give CPython 3.11 roughly 10-30 ms each on an idle core.
WORKLOADS = [
    ("loops", loops, 100000),
    ("calls", calls, 30000),
    ("attributes", attributes, 40000),
    ("lists", lists, 60000),
    ("dicts", dicts, 50000),
    ("strings", strings, 30000),
]
