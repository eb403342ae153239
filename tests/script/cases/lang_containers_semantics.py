a = [1, 2, 3]
b = a
b.append(4)
print(a, a is b, a == [1, 2, 3, 4])
c = a[:]
c.append(5)
print(a, c)
nested = [[0] * 2] * 2
nested[0][0] = 9
print(nested)
d = {}
d[(1, 2)] = "tuple key"
d[1] = "int"
d[1.0] = "float same key"
d[True] = "bool same key"
print(d)
print({1, 1.0, True}, len({"a", "a"}))
print([1, 2] * 2, (1,) * 3, [0] * 0)
t = (1, [2])
t[1].append(3)
print(t)
try:
    t[0] = 5
except TypeError as e:
    print("TypeError:", e)
try:
    hash([1])
except TypeError as e:
    print("TypeError:", e)
try:
    {[1]: 2}
except TypeError as e:
    print("TypeError:", e)
print(list(range(10))[::-3], list(range(5))[-2:], "abcdef"[1:-1:2])
x = [5, 3, 8]
x.sort()
print(x, sorted(x, reverse=True), x.index(8), x.pop(), x)
print({"b": 1, "a": 2}, list({"b": 1, "a": 2}), dict(a=1) == {"a": 1})
