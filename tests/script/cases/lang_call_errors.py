def f(a, b, c=3, *, d):
    pass
def g(x, /, y):
    pass
def h():
    pass
class C:
    def m(self, x):
        pass
five, text = 5, "abc"
tests = [
    lambda: f(1),
    lambda: f(1, 2),
    lambda: f(1, 2, 3, 4, d=1),
    lambda: f(1, 2, d=1, e=5),
    lambda: f(1, 2, a=1, d=1),
    lambda: g(x=1, y=2),
    lambda: h(1),
    lambda: h(a=1),
    lambda: C().m(),
    lambda: C().m(1, 2),
    lambda: C.m(1),
    lambda: f(),
    lambda: (lambda: 0)(1),
    lambda: f(*1),
    lambda: f(**1),
    lambda: f(1, 2, **{"d": 1, "c": 2}, c=3),
    lambda: five(),
    lambda: text(),
]
for t in tests:
    try:
        t()
    except TypeError as e:
        print("TypeError:", e)
