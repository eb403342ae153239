def make_counter(start=0, step=1):
    count = start

    def increment():
        nonlocal count
        count += step
        return count

    def reset(value=start):
        nonlocal count
        count = value

    def peek():
        return count

    increment.reset = reset
    increment.peek = peek
    return increment


c = make_counter()
print(c(), c(), c.peek())
c.reset(10)
print(c(), c.peek())
d = make_counter(100, step=-5)
print([d() for _ in range(3)], c.peek())


def memoize(fn):
    cache = {}
    calls = {"hits": 0, "misses": 0}

    def wrapper(*args):
        if args in cache:
            calls["hits"] += 1
        else:
            calls["misses"] += 1
            cache[args] = fn(*args)
        return cache[args]

    wrapper.stats = lambda: dict(calls)
    return wrapper


@memoize
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), fib.stats())

adders = [lambda x, i=i: x + i for i in range(4)]
late = [lambda x: x + i for i in range(4)]
print([f(10) for f in adders], [f(10) for f in late])


def outer():
    messages = []

    def log(msg):
        messages.append(msg)

    def level1():
        x = "one"

        def level2():
            log(f"level2 sees {x}")
            return len(messages)
        return level2
    fn = level1()
    return fn(), fn(), messages


print(outer())


def accumulate():
    total = 0
    history = []
    while True:
        def add(v):
            nonlocal total
            total += v
            history.append(total)
            return total
        return add, history


add, hist = accumulate()
for v in (5, 10, -3):
    add(v)
print(hist, add.__closure__ is not None, len(add.__closure__))
