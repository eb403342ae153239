def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, sorted(kw.items()))
print(f(1, c=3))
print(f(1, 5, 6, 7, c=3, e=9, d=0))
print(f(a=1, c=2))
def g(x, y, /, z, *, w):
    return x, y, z, w
print(g(1, 2, 3, w=4))
print(g(1, 2, z=3, w=4))
def h(*args, **kwargs):
    return args, kwargs
print(h())
print(h(*[1, 2], *(3,), **{"a": 1}, b=2))
def defaults(x=[]):
    x.append(1)
    return x
print(defaults(), defaults())
def kwonly(*, a=1, b):
    return a, b
print(kwonly(b=2))
args = (1, 2)
kwargs = {"c": 5}
print(f(*args, **kwargs))
print((lambda *a, **k: (a, k))(1, x=2))
