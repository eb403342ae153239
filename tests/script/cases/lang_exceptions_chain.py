class ParseError(Exception):
    pass
def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise ParseError(f"bad input {s!r}") from e
try:
    parse("zz")
except ParseError as e:
    print(e, type(e.__cause__).__name__, e.__cause__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise KeyError("during")
except KeyError as e:
    print(repr(e), type(e.__context__).__name__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise KeyError("quiet") from None
except KeyError as e:
    print(e.__cause__, e.__suppress_context__)
parse("12")
print(parse("7"))
def level3():
    raise ValueError("deep")
def level2():
    level3()
def level1():
    try:
        level2()
    except ValueError as e:
        raise RuntimeError("wrapped") from e
level1()
