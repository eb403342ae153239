def count(n):
    i = 0
    while i < n:
        yield i
        i += 1
print(list(count(4)))
for v in count(3):
    print("v", v)
def evens(it):
    for x in it:
        if x % 2 == 0:
            yield x
print(list(evens(range(10))), sum(evens(range(10))))
g = count(2)
print(next(g), next(g))
try:
    next(g)
except StopIteration:
    print("stop")
print(next(g, "default"))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
out = []
for f in fib():
    if f > 50:
        break
    out.append(f)
print(out)
def gen_return():
    yield 1
    return "done"
print(list(gen_return()))
def delegate():
    yield 0
    yield from count(3)
    yield from [10, 20]
print(list(delegate()))
print(type(count(1)).__name__)
gx = (x * x for x in range(4))
print(list(gx), list(gx))
def walk(tree):
    yield tree[0]
    for child in tree[1]:
        yield from walk(child)
print(list(walk(("a", [("b", [("c", [])]), ("d", [])]))))
