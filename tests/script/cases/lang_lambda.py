sq = lambda x: x * x
print(sq(5), (lambda: "no args")(), (lambda a, b=2: a + b)(1))
print(sorted([(1, "b"), (2, "a")], key=lambda p: p[1]))
print(list(filter(lambda x: x % 2, range(7))))
compose = lambda f, g: lambda x: f(g(x))
print(compose(sq, lambda x: x + 1)(3))
print((lambda *a, **k: (a, sorted(k)))(1, 2, z=3, y=4))
print(sq.__name__, (lambda: 0).__name__)
adders = {name: (lambda n: lambda x: x + n)(n) for name, n in [("one", 1), ("two", 2)]}
print(adders["one"](10), adders["two"](10))
print((lambda x: (yield x)) is not None)
f = lambda: undefined_name
try:
    f()
except NameError as e:
    print("NameError:", e)
