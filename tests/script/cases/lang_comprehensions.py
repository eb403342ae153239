print([x * 2 for x in range(5)])
print([x for x in range(10) if x % 3 == 0])
print([(i, j) for i in range(3) for j in range(i)])
print([[i * j for j in range(3)] for i in range(3)])
print({x: x * x for x in range(4)})
print({k: v for k, v in zip("abc", [1, 2, 3]) if v != 2})
print(sorted({x % 3 for x in range(10)}))
print(sum(x for x in range(5)), max(len(w) for w in ["a", "abc", "ab"]))
print([x for x in range(20) if x % 2 if x % 3])
words = ["apple", "Bob", "cat"]
print([w.upper() for w in words if w[0].islower()])
x = "outer"
print([x for x in range(2)], x)
matrix = [[1, 2, 3], [4, 5, 6]]
print([row[i] for i in range(3) for row in matrix])
print([[row[i] for row in matrix] for i in range(3)])
print([a + b for a, b in [(1, 2), (3, 4)]])
print([y for y in [1, None, 2] if y is not None])
print(list(map(lambda t: t[0], [(1, 2), (3, 4)])))
