def f():
    try:
        return 1
    finally:
        return 2
print(f())
def g():
    try:
        raise ValueError("lost")
    finally:
        return "finally wins"
print(g())
def h():
    for i in range(3):
        try:
            return i
        finally:
            if i == 0:
                continue
print(h())
def k():
    try:
        pass
    except Exception:
        print("no")
    else:
        raise KeyError("from else")
    finally:
        print("fin k")
try:
    k()
except KeyError as e:
    print("KeyError", e)
def nested():
    try:
        try:
            raise TypeError("inner")
        except ValueError:
            print("wrong handler")
        finally:
            print("inner finally")
    except TypeError as e:
        print("outer caught", e)
nested()
try:
    raise ValueError("v")
except:
    print("bare except")
def exc_var():
    try:
        raise ValueError("v")
    except ValueError as err:
        pass
    return "err" in dir()
print(exc_var())
try:
    try:
        raise ValueError("a")
    finally:
        print("cleanup runs")
except ValueError as e:
    print("propagated", e)
