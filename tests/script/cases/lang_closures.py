def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = counter()
print(c(), c(), c())
c2 = counter()
print(c2(), c())
funcs = [lambda: i for i in range(3)]
print([f() for f in funcs])
funcs = [lambda i=i: i for i in range(3)]
print([f() for f in funcs])
def make_adders():
    return [(lambda x, n=n: x + n) for n in range(3)]
print([f(10) for f in make_adders()])
def outer():
    v = 1
    def mid():
        def inner():
            nonlocal v
            v += 10
            return v
        return inner
    f = mid()
    f()
    return v, f()
print(outer())
def late():
    fs = []
    for k in range(3):
        def f():
            return k
        fs.append(f)
    return [f() for f in fs]
print(late())
