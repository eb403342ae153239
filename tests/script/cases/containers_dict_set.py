# dict, set and frozenset methods and their errors.
def show(f):
    try:
        r = f()
        print(repr(r))
    except Exception as e:
        print(type(e).__name__ + ":", e)

d = {"a": 1, "b": 2}
print(list(d.keys()), list(d.values()), list(d.items()), d.keys(), d.values(), d.items())
print(d.get("a"), d.get("z"), d.get("z", 0), "a" in d.keys())
print(d.pop("a"), d.pop("z", None), d)
d.update({"c": 3}); d.update([("d", 4)], e=5); d.update(f=6); d.update(d); print(d)
print(d.setdefault("c", 99), d.setdefault("g"), d.setdefault("h", []), d)
print(d.popitem(), d.popitem(), d)
e = d.copy(); e["zz"] = 0; print(d, e)
e.clear(); print(e, len(e))
print(dict.fromkeys("abc"), dict.fromkeys([1, 2], 0), {}.fromkeys((3,), "x"))
class M:
    def keys(self): return ["p", "q"]
    def __getitem__(self, k): return k * 2
x = {}; x.update(M()); print(x)
print(d.__contains__("b"), d.__getitem__("b"))
counts = {}
for w in "the cat the dog the end".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
show(lambda: {}.get())
show(lambda: {}.pop())
show(lambda: {}.pop(1))
show(lambda: {}.popitem())
show(lambda: {}.setdefault())
show(lambda: {}.update(1))
show(lambda: {}.update([1]))
show(lambda: {}.update([(1, 2, 3)]))
show(lambda: {}.update(1, 2))
show(lambda: {}.keys(1))
show(lambda: dict.fromkeys())
show(lambda: {}.get([]))
show(lambda: {}.get(1, 2, 3))
show(lambda: {}.copy(1))
show(lambda: {}.pop("k"))

s = {1, 2, 3}
s.add(4); s.add(2); s.discard(1); s.discard(100); s.remove(3); print(s)
print(s.pop(), s)
s.update([7, 8], (9,)); print(sorted(s))
a, b = {1, 2, 3}, {2, 3, 4}
print(a.union(b), a.union([5], (6,)), a.intersection(b), a.intersection([2], [2, 3]), a.difference(b), a.difference([1], [2]))
print(a.symmetric_difference(b), a.issubset({1, 2, 3, 4}), a.issubset([1]), a.issuperset([1, 2]), a.isdisjoint([7]), a.isdisjoint(b))
print(a | b, a & b, a - b, a ^ b)
c = a.copy(); c.intersection_update(b); print(c, a)
c = a.copy(); c.difference_update([1]); print(c)
c = a.copy(); c.symmetric_difference_update([3, 9]); print(c)
c.clear(); print(c)
f = frozenset([1, 2])
print(f.union([3]), f.copy() is f, f.intersection({2}), type(f.union([3])).__name__, f.issubset(a))
show(lambda: set().remove(1))
show(lambda: set().pop())
show(lambda: set().add())
show(lambda: set().union(1))
show(lambda: set().issubset(1))
show(lambda: frozenset().add(1))
show(lambda: set().add([]))
show(lambda: set.add(frozenset(), 1))
