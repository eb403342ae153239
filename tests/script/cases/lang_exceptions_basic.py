def risky(n):
    if n == 0:
        raise ValueError("zero")
    if n == 1:
        raise KeyError("one")
    return n
for n in range(3):
    try:
        r = risky(n)
    except ValueError as e:
        print("value", e, e.args)
    except (KeyError, IndexError) as e:
        print("lookup", repr(e), str(e))
    else:
        print("ok", r)
    finally:
        print("finally", n)
try:
    {}["k"]
except LookupError as e:
    print(type(e).__name__, e)
try:
    [][1]
except Exception as e:
    print(type(e).__name__, e)
try:
    1 / 0
except ZeroDivisionError as e:
    print(e)
try:
    int("x")
except ValueError as e:
    print(e)
def f():
    try:
        return "try"
    finally:
        print("cleanup")
print(f())
def g():
    for i in range(3):
        try:
            if i == 1:
                continue
            if i == 2:
                break
        finally:
            print("fin", i)
g()
try:
    raise TypeError
except TypeError as e:
    print(repr(e), e.args)
e = None
try:
    raise RuntimeError("x")
except RuntimeError as e:
    pass
try:
    print(e)
except NameError as err:
    print("NameError:", err)
