class V:
    def __init__(self, *c):
        self.c = c
    def __repr__(self):
        return "V" + repr(self.c)
    def __add__(self, o):
        if isinstance(o, V):
            return V(*[a + b for a, b in zip(self.c, o.c)])
        return NotImplemented
    def __radd__(self, o):
        return V(*[o + a for a in self.c])
    def __mul__(self, k):
        return V(*[a * k for a in self.c])
    __rmul__ = __mul__
    def __neg__(self):
        return V(*[-a for a in self.c])
    def __eq__(self, o):
        return isinstance(o, V) and self.c == o.c
    def __hash__(self):
        return hash(self.c)
    def __lt__(self, o):
        return self.c < o.c
    def __abs__(self):
        return sum(a * a for a in self.c)
    def __iadd__(self, o):
        self.c = tuple(a + o for a in self.c)
        return self
v = V(1, 2)
print(v + V(3, 4), 10 + v, v * 3, 3 * v, -v, abs(v))
print(v == V(1, 2), v != V(1, 2), v == 5, len({v, V(1, 2), V(0)}))
print(sorted([V(3), V(1), V(2)]))
print(V(1) < V(2), V(2) > V(1))
w = v
v += 1
print(v, w is v)
try:
    v + "s"
except TypeError as e:
    print("TypeError:", e)
try:
    V(1) <= V(2)
except TypeError as e:
    print("TypeError:", e)
class Cmp:
    def __eq__(self, o):
        return True
print(Cmp() == 1, Cmp() != 1, 1 == Cmp())
try:
    hash(Cmp())
except TypeError as e:
    print("TypeError:", e)
