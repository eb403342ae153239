x = 5
print(1 < x < 10, 1 < x > 10, 5 <= x <= 5, 1 == 1 != 2)
calls = []
def v(n):
    calls.append(n)
    return n
print(v(1) < v(0) < v(3), calls)
calls.clear()
print(v(1) < v(2) < v(3), calls)
print(1 < 2 < 3 < 4 < 3)
a = [1, 2]
b = a
print(a is b, a is not b, a == [1, 2], [1, 2] is a)
print(2 in a, 3 not in a, "b" in "abc", "ab" in "xaby")
print(None is None, (1, 2) < (1, 3), [1, 2] < [1, 2, 0], "abc" < "abd")
print(1 == 1.0, True == 1, 0 == False, 1 < 1.5)
try:
    1 < "a"
except TypeError as e:
    print("TypeError:", e)
try:
    [1] < (1,)
except TypeError as e:
    print("TypeError:", e)
print(not 1 == 2, not (1 < 2 < 3))
