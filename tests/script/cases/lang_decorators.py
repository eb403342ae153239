def trace(fn):
    def wrapper(*args, **kwargs):
        print("call", fn.__name__, args, kwargs)
        return fn(*args, **kwargs)
    return wrapper
@trace
def add(a, b=0):
    return a + b
print(add(1, b=2))
def repeat(n):
    def deco(fn):
        def wrapper(*a):
            return [fn(*a) for _ in range(n)]
        return wrapper
    return deco
@repeat(3)
def hello(x):
    return "hi " + x
print(hello("bob"))
def register(registry):
    def deco(cls):
        registry[cls.__name__] = cls
        return cls
    return deco
REG = {}
@register(REG)
class Model:
    pass
print(list(REG), REG["Model"] is Model)
def first(fn):
    fn.tag = "first"
    return fn
def second(fn):
    fn.tag2 = "second"
    return fn
@first
@second
def tagged():
    pass
print(tagged.tag, tagged.tag2)
class Memo:
    def __init__(self, fn):
        self.fn = fn
        self.cache = {}
    def __call__(self, n):
        if n not in self.cache:
            self.cache[n] = self.fn(n)
        return self.cache[n]
@Memo
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(60), len(fib.cache))
