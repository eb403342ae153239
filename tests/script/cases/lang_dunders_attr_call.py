class Lazy:
    def __init__(self):
        self.real = 1
    def __getattr__(self, name):
        if name.startswith("x"):
            return name.upper()
        raise AttributeError(f"no {name}")
l = Lazy()
print(l.real, l.xyz)
try:
    l.other
except AttributeError as e:
    print("AttributeError:", e)
print(getattr(l, "nope", "default"), hasattr(l, "xa"), hasattr(l, "q"))
class Logged:
    def __setattr__(self, name, value):
        print("set", name, value)
        object.__setattr__(self, name, value)
g = Logged()
g.a = 5
print(g.a)
class Adder:
    def __init__(self, n):
        self.n = n
    def __call__(self, x, *, twice=False):
        return (x + self.n) * (2 if twice else 1)
add = Adder(3)
print(add(4), add(4, twice=True), callable(add), callable(5))
class Str:
    def __str__(self):
        return "str!"
    def __repr__(self):
        return "repr!"
s = Str()
print(s, str(s), repr(s), [s], f"{s}", f"{s!r}")
class NoRepr:
    pass
print(repr(NoRepr()).startswith("<__main__.NoRepr object at 0x"))
