import functools
from functools import partial, reduce, wraps, lru_cache, cmp_to_key, total_ordering
import operator

def power(base, exp, mod=None):
    r = base ** exp
    return r % mod if mod else r

square = partial(power, exp=2)
cube = partial(power, 3)
print(square(5), cube(2), cube(exp=3), partial(square, mod=7)(5))
print(square.func is power, square.args, square.keywords, cube.args)
print(repr(partial(int, base=2))[:30], partial(int, "101", base=2)())
p2 = partial(partial(power, 2), 5)
print(p2(), p2.args, p2.func is power, type(square).__name__, isinstance(square, partial))
print(reduce(operator.add, [1, 2, 3]), reduce(lambda a, b: a * b, [1, 2, 3, 4], 10), reduce(max, [3], 0))
try:
    reduce(operator.add, [])
except TypeError as e:
    print("TypeError:", e)

def deco(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        """wrapper doc"""
        return f(*args, **kwargs) + 1
    return wrapper

@deco
def g(x):
    """g's doc"""
    return x * 2

print(g(3), g.__wrapped__(3))

@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

@functools.lru_cache
def ident(x):
    return x

@functools.cache
def twice(x):
    return 2 * x

print(fib(30), ident(4), twice(21))
fib.cache_clear()

def cmp(a, b):
    return (a > b) - (a < b)

print(sorted([3, 1, 2], key=cmp_to_key(cmp)), sorted(["bb", "a", "ccc"], key=cmp_to_key(lambda a, b: len(b) - len(a))))

@total_ordering
class V:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
    def __lt__(self, o):
        return self.v < o.v

print(V(1) < V(2), V(1) <= V(1), V(3) > V(2), V(2) >= V(3), V(1) == V(1))
from functools import cached_property
class A:
    def __init__(self):
        self.n = 0
    @cached_property
    def val(self):
        self.n += 1
        print("computing")
        return 42
a = A()
print(a.val, a.val, a.n, 'val' in a.__dict__)
print(type(A.val).__name__)
