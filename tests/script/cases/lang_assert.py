assert True
assert 1 == 1, "not shown"
try:
    assert 1 == 2, "math is broken"
except AssertionError as e:
    print("AssertionError:", e, e.args)
try:
    assert []
except AssertionError as e:
    print("empty message:", repr(e))
def check(x):
    assert isinstance(x, int), f"expected int, got {type(x).__name__}"
    return x
print(check(3))
check("s")
