class M:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return f"M({self.v})"
    def __matmul__(self, o):
        return M(self.v * o.v)
    def __rshift__(self, n):
        return M(self.v >> n)
    def __lshift__(self, n):
        return M(self.v << n)
    def __and__(self, o):
        return "and"
    def __rand__(self, o):
        return "rand"
    def __or__(self, o):
        return "or"
    def __xor__(self, o):
        return "xor"
    def __truediv__(self, o):
        return "div"
    def __rtruediv__(self, o):
        return "rdiv"
    def __floordiv__(self, o):
        return "floordiv"
    def __mod__(self, o):
        return "mod"
    def __rmod__(self, o):
        return "rmod"
    def __pow__(self, o):
        return "pow"
    def __rpow__(self, o):
        return "rpow"
    def __rsub__(self, o):
        return "rsub"
    def __pos__(self):
        return "pos"
    def __invert__(self):
        return "invert"
a, b = M(3), M(4)
print(a @ b, a >> 1, a << 2, a & 1, 1 & a, a | 1, a ^ 1, a / 2, 2 / a)
print(a // 2, a % 2, 5 % a, a ** 2, 2 ** a, 7 - a, +a, ~a)
class Add:
    def __init__(self, v):
        self.v = v
    def __add__(self, o):
        return Add(self.v + (o.v if isinstance(o, Add) else o))
    def __radd__(self, o):
        return Add(o + self.v)
    def __repr__(self):
        return f"Add({self.v})"
x = Add(1)
y = x
x += 5
print(x, y, x is y, sum([Add(1), Add(2)]), sum([Add(1)], Add(10)))
class Fallback:
    def __lt__(self, o):
        return "lt called"
print(5 > Fallback(), Fallback() < 5)
class Sized:
    def __len__(self):
        return 0
class Truthy:
    def __bool__(self):
        return True
    def __len__(self):
        return 0
print(bool(Sized()), bool(Truthy()), not Sized(), "yes" if Truthy() else "no")
class IterOnly:
    def __iter__(self):
        return iter([1, 2, 3])
print(2 in IterOnly(), 5 in IterOnly())
class NoEq:
    pass
n = NoEq()
print(n == n, n == NoEq(), n != NoEq(), n in [n], n in [NoEq()])
class NI:
    def __eq__(self, o):
        return NotImplemented
print(NI() == NI(), NI() != 1)
try:
    a - b
except TypeError as e:
    print("TypeError:", e)
try:
    a < b
except TypeError as e:
    print("TypeError:", e)
try:
    -a
except TypeError as e:
    print("TypeError:", e)
try:
    M(1) + 1
except TypeError as e:
    print("TypeError:", e)
