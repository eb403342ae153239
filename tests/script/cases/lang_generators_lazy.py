# Generators run lazily: each next() resumes the function where it stopped.
def noisy():
    print("start")
    yield 1
    print("between")
    yield 2
    print("end")
g = noisy()
print("created")
print(next(g))
print("got first")
for v in g:
    print("loop", v)
def with_finally():
    try:
        yield 1
        yield 2
    finally:
        print("gen cleanup")
for x in with_finally():
    print(x)
