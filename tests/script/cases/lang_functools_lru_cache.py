# functools.lru_cache / cache: real caching with LRU eviction, cache_info(), cache_clear(), methods.
import functools
from functools import lru_cache, cache

@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(90), fib.cache_info())

@lru_cache(maxsize=2)
def sq(x, *, scale=1):
    print("computing", x, scale)
    return x * x * scale
for a in [1, 2, 1, 3, 2, 1]:
    sq(a)
sq(2, scale=3); sq(2, scale=3)
print(sq.cache_info(), sq.__name__, sq.__wrapped__.__name__)
sq.cache_clear()
print(sq.cache_info())

@cache
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(20), fact.cache_info().misses)

class C:
    def __init__(self, k): self.k = k
    @lru_cache
    def get(self, x):
        return self.k * x
c = C(3)
print(c.get(2), c.get(2), C.get.cache_info().hits)

@functools.lru_cache(typed=True)
def t(x): return type(x).__name__
print(t(1), t(1.0), t.cache_info().currsize, t.cache_parameters())
try:
    lru_cache("x")
except TypeError as e:
    print(e)
