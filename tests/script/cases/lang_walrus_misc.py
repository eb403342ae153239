data = [1, 5, 9, 2]
if (n := len(data)) > 3:
    print("long", n)
print([y for x in data if (y := x * 2) > 4])
i = 0
while (i := i + 1) < 4:
    print("i", i)
print(..., Ellipsis is ..., type(...).__name__)
def doc():
    """docstring here"""
    return 1
print(doc.__doc__, doc())
x: int = 5
y: "list[int]"
print(x, __annotations__ if "__annotations__" in dir() else None)
pass; print("semicolons"); z = 3
print(z)
print(type(None).__name__, None.__class__.__name__)
if True: print("one-line if")
for q in range(2): print("one-line for", q)
