l = [1, 2]
l2 = l
l += [3]
print(l, l2, l is l2)
t = (1, 2)
t2 = t
t += (3,)
print(t, t2, t is t2)
s = "ab"
s += "c"
s *= 2
print(s)
print([1] + [2], (1,) + (2,), "a" + "b", [0] * 3, 3 * "ab", (None,) * 2)
print([1, 2] == [1, 2], [1, 2] == (1, 2), (1, 2) < (1, 2, 0), [3] > [2, 9])
print({"a": 1} == {"a": 1}, {1, 2} == {2, 1}, {1, 2} < {1, 2, 3}, {1} | {2}, {1, 2} & {2}, {1, 2} - {1}, {1, 2} ^ {2, 3})
print(3 in [1, 2, 3], "a" in {"a": 1}, 1 in {1: 2}.values(), (1, 2) in [(1, 2)])
print(1 < 2.5, 2 == 2.0, 3 >= 3.0, -1 < -0.5, 10 ** 15 == 1e15)
nan = float("nan")
print(nan == nan, nan != nan, nan < 1, [nan] == [nan], nan in [nan])
print(0.0 == -0.0, 1 / 3 * 3 == 1, round(0.1 + 0.2, 10) == 0.3)
print(sorted([(2, "b"), (1, "z"), (2, "a")]), sorted(["b", "A", "a"]), sorted([3, 1.5, 2]))
print(min([3, 1, 2]), max("abc"), max([1, 2], [1, 3]), min((5, "x"), (5, "a")))
d = {"x": 1}
d2 = d
d |= {"y": 2}
print(d, d2 is d, {"a": 1} | {"b": 2})
print(divmod(-7, 2), -7 // 2 * 2 + -7 % 2, 7.0 // -2, 2 ** 62 // -3)
print(5 // 0.5, 5 % 0.75, -5 % 0.75, 1e308 * 10, -1e308 * 10)
try:
    [1] * "a"
except TypeError as e:
    print("TypeError:", e)
try:
    {1} + {2}
except TypeError as e:
    print("TypeError:", e)
try:
    None + 1
except TypeError as e:
    print("TypeError:", e)
try:
    "a" * 1.5
except TypeError as e:
    print("TypeError:", e)
try:
    {} < {}
except TypeError as e:
    print("TypeError:", e)
