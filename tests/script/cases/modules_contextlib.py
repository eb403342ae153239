# contextlib: contextmanager (as a with-block and as a decorator), suppress, nullcontext,
# closing, ExitStack, and the error of a generator that never yields.
from contextlib import contextmanager, suppress, nullcontext, ExitStack, closing


@contextmanager
def timer(name, log):
    start = 0
    log.append(f"enter {name}")
    try:
        yield name.upper()
    finally:
        log.append(f"exit {name}")

log = []
with timer("a", log) as n:
    print("inside", n)
print(log)
try:
    with timer("b", log):
        raise ValueError("boom")
except ValueError as e:
    print("caught", e, log)

@contextmanager
def swallow():
    try:
        yield
    except KeyError as e:
        print("swallowed", repr(e))

with swallow():
    raise KeyError("k")
print("after")
with suppress(ZeroDivisionError):
    1 / 0
print("suppressed")
with nullcontext(5) as v:
    print(v)

class R:
    def close(self): print("closed")
with closing(R()):
    print("using")

with ExitStack() as stack:
    stack.callback(print, "cb1")
    stack.enter_context(timer("c", log))
    stack.callback(print, "cb2")
    print("body")
print(log[-2:])

@timer("deco", log)
def f(x):
    return x * 2
print(f(4), log[-2:])

@contextmanager
def noyield():
    if False:
        yield
try:
    with noyield():
        pass
except RuntimeError as e:
    print("RuntimeError", e)
