import time


class Timer:
    def __init__(self, label, log):
        self.label = label
        self.log = log
        self.elapsed = None

    def __enter__(self):
        self.start = time.perf_counter()
        self.log.append(f"enter {self.label}")
        return self

    def __exit__(self, exc_type, exc, tb):
        self.elapsed = time.perf_counter() - self.start
        self.log.append(f"exit {self.label} ({'error: ' + exc_type.__name__ if exc_type else 'ok'})")
        return exc_type is ZeroDivisionError


class section:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def __enter__(self):
        self.log.append(f"begin {self.name}")
        return self.name.upper()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, KeyError):
            self.log.append(f"handled {exc!r}")
        self.log.append(f"end {self.name}")
        return exc_type is not None and issubclass(exc_type, KeyError)


log = []
with Timer("outer", log) as t:
    with section("load", log) as tag:
        log.append(f"tag={tag}")
        total = sum(i * i for i in range(1000))
    with section("parse", log):
        {}["nope"]
    with Timer("inner", log):
        1 / 0
    log.append("after inner")

print(total, t.elapsed >= 0, isinstance(t.elapsed, float))
print("\n".join(log))

try:
    with Timer("fails", log):
        raise ValueError("not swallowed")
except ValueError as e:
    print("propagated:", e, "|", log[-1])

with Timer("a", log) as a, Timer("b", log) as b:
    pass
print(log[-4:], a.label + b.label)
