# list and tuple methods, sort (key, reverse, stability, user __lt__) and their errors.
def show(f):
    try:
        r = f()
        print(repr(r))
    except Exception as e:
        print(type(e).__name__ + ":", e)

l = [3, 1, 2]
l.append(4); print(l)
l.extend([5, 6]); l.extend((7,)); l.extend(range(8, 10)); l.extend("ab"); print(l)
l.extend(l); print(len(l))
l = [1, 2, 3]
l.insert(0, 0); l.insert(100, 9); l.insert(-1, 8); l.insert(-100, -1); print(l)
print(l.pop(), l.pop(0), l.pop(-2), l)
l.remove(8); print(l)
print(l.index(2), l.index(2, 1), l.index(2, -2), l.count(2), [1, 1, 2, 1].count(1))
l.reverse(); print(l)
c = l.copy(); c.append(99); print(l, c)
c.clear(); print(c)
words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len, reverse=True), sorted(words, reverse=True))
pairs = [(1, "b"), (0, "z"), (1, "a"), (0, "y")]
pairs.sort(key=lambda p: p[0]); print(pairs)
pairs.sort(key=lambda p: p[0], reverse=True); print(pairs)
nums = [5, 2.5, -1, 3, 0, 2.5, True]
nums.sort(); print(nums)
big = list(range(1000, 0, -1)); big.sort(); print(big[:5], big[-3:])
fl = [3.5, float("inf"), -0.5, 1e300]; fl.sort(reverse=True); print(fl)

class V:
    def __init__(self, v): self.v = v
    def __lt__(self, o): return self.v < o.v
    def __repr__(self): return "V(%d)" % self.v
    def __eq__(self, o): return isinstance(o, V) and self.v == o.v
vs = [V(3), V(1), V(2), V(1)]
vs.sort(); print(vs)
print(vs.index(V(2)), vs.count(V(1)), V(3) in vs)
vs.remove(V(1)); print(vs)
calls = []
def key(x):
    calls.append(x)
    return -x
print(sorted([1, 2, 3], key=key, reverse=True), calls)
show(lambda: [].append())
show(lambda: [].insert(1))
show(lambda: [].pop(1, 2))
show(lambda: [].pop())
show(lambda: [1].pop(5))
show(lambda: [].remove(1))
show(lambda: [].index(1))
show(lambda: ["a"].index("b"))
show(lambda: [].count())
show(lambda: [].sort(1))
show(lambda: [].sort(k=1))
show(lambda: [].extend(1))
show(lambda: [].index(1, 2, 3, 4))
show(lambda: [3, 'a'].sort())
show(lambda: sorted([1, 'a']))
show(lambda: [].insert('a', 1))
show(lambda: [].pop('a'))
show(lambda: list.append(1, 2))
show(lambda: [].copy(1))
show(lambda: [1, 2].sort(reverse=1.5))
show(lambda: [V(1), 3].sort())
show(lambda: [2, 1].sort(key=lambda x: 1 / 0))
def bad():
    l = [3, 2, 1]
    def k(x):
        l.append(x)
        return x
    l.sort(key=k)
    return l
show(bad)
t = (1, 2, 3, 2)
print(t.index(2), t.count(2), t.index(2, 2))
show(lambda: t.index(5))
show(lambda: ().count())
for f in [lambda: [1].index(1, None), lambda: (1,).index(1, 0, "x"), lambda: [1,2,1].index(1, 1), lambda: [1].index(1, -5, 10)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
