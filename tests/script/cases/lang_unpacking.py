a, b = 1, 2
a, b = b, a
print(a, b)
(c, d), e = (3, 4), 5
print(c, d, e)
first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "abc"
print(init, last)
h, *mid, t = range(5)
print(h, mid, t)
x, *y = [1]
print(x, y)
[p, q] = "pq"
print(p, q)
for i, (k, v) in enumerate({"a": 1, "b": 2}.items()):
    print(i, k, v)
print([*range(3), *"ab"], (*[1], 2), {**{"a": 1}, "b": 2}, {*[1, 1, 2]})
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, c = [1, 2]
except ValueError as e:
    print("ValueError:", e)
try:
    a, *b, c = [1]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b = 5
except TypeError as e:
    print("TypeError:", e)
m = n = [0]
m.append(1)
print(n)
t = 1,
print(t, len(t))
