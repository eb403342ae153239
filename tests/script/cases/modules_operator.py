import operator
from operator import itemgetter, attrgetter, methodcaller
from functools import reduce

print(operator.add(1, 2), operator.sub(5, 3), operator.mul(3, 4), operator.truediv(7, 2), operator.floordiv(7, 2))
print(operator.mod(7, 3), operator.pow(2, 10), operator.neg(5), operator.pos(-5), operator.abs(-3), operator.invert(5))
print(operator.lshift(1, 4), operator.rshift(256, 2), operator.and_(12, 10), operator.or_(12, 10), operator.xor(12, 10))
print(operator.not_(0), operator.truth([]), operator.truth([1]), operator.eq(1, 1.0), operator.ne(1, 2))
print(operator.lt(1, 2), operator.le(2, 2), operator.gt(1, 2), operator.ge(3, 2))
print(operator.add("a", "b"), operator.add([1], [2]), operator.mul("ab", 3), operator.concat([1], [2, 3]))
print(operator.getitem([10, 20, 30], 1), operator.getitem({"a": 1}, "a"), operator.getitem((1, 2, 3), slice(1, None)))
l = [1, 2, 3]
operator.setitem(l, 0, 9)
operator.delitem(l, 1)
print(l, operator.contains(l, 9), operator.contains("abc", "d"), operator.countOf([1, 1, 2], 1), operator.indexOf([5, 6], 6))
print(operator.is_(None, None), operator.is_not(l, l), operator.index(7))
print(reduce(operator.add, [1, 2, 3, 4]), reduce(operator.mul, range(1, 6), 1))
x = [1]
y = operator.iadd(x, [2])
print(x, y is x, operator.iadd(1, 2), operator.imul("a", 3))
print(itemgetter(1)([4, 5, 6]), itemgetter(0, 2)("abc"), itemgetter("k")({"k": 42}))
pairs = [(1, "b"), (0, "a"), (2, "c")]
print(sorted(pairs, key=itemgetter(0)), sorted(pairs, key=itemgetter(1), reverse=True))

class P:
    def __init__(self, name, inner=None):
        self.name = name
        self.inner = inner
    def greet(self, greeting, punct="!"):
        return greeting + ", " + self.name + punct

p = P("x", P("y"))
print(attrgetter("name")(p), attrgetter("inner.name")(p), attrgetter("name", "inner.name")(p))
print(methodcaller("greet", "hi")(p), methodcaller("greet", "yo", punct="?")(p), methodcaller("upper")("abc"))
print(list(map(operator.neg, [1, -2, 3])), list(map(operator.mul, [1, 2], [3, 4])))
print(operator.length_hint([1, 2, 3]), operator.length_hint(iter([]), 5))
print(operator.__add__(1, 2), operator.__getitem__([1, 2], 0))
for bad in [lambda: operator.add(1, "a"), lambda: operator.concat(1, 2), lambda: operator.indexOf([1], 2),
            lambda: itemgetter(5)([1]), lambda: attrgetter("nope")(p), lambda: operator.neg("a")]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__ + ":", e)
print(type(operator.add).__name__, type(operator.lshift).__name__)
class V:
    def __init__(self, v): self.v = v
    def __add__(self, o): return V(self.v + o.v)
    def __lt__(self, o): return self.v < o.v
    def __getitem__(self, k): return k * 2
    def __neg__(self): return V(-self.v)
print(operator.add(V(1), V(2)).v)
print(operator.lt(V(1), V(2)))
print(operator.getitem(V(1), 21))
print(operator.neg(V(3)).v)
print(operator.eq([1, [2]], [1, [2]]))
print({operator.add: 1}[operator.add])
