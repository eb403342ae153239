# object builtins: isinstance, getattr & co, type(), property, staticmethod, classmethod, super
class A:
    cls_attr = 1
    def __init__(self):
        self.x = 10
    @property
    def p(self):
        "the p doc"
        return self.x * 2
    @p.setter
    def p(self, v):
        self.x = v
    @staticmethod
    def s(a, b):
        return a + b
    @classmethod
    def c(cls, v):
        return cls.__name__, v

class B(A):
    def __init__(self):
        super().__init__()
        self.y = 5
    @classmethod
    def c(cls, v):
        return ('B',) + super().c(v)

a, b = A(), B()
print(isinstance(a, A), isinstance(b, A), isinstance(a, B), isinstance(1, (str, (int,))), isinstance(True, int))
print(issubclass(B, A), issubclass(A, B), issubclass(bool, (str, int)), issubclass(B, object), isinstance(A, type))
print(isinstance(None, object), isinstance(1.0, (int, float)), isinstance([], list), isinstance({}, (list, tuple)))
print(getattr(a, 'x'), getattr(a, 'nope', 'dflt'), hasattr(a, 'x'), hasattr(a, 'nope'), hasattr(a, 'p'))
setattr(a, 'z', 3)
print(a.z, vars(a))
delattr(a, 'z')
print(hasattr(a, 'z'), a.p)
a.p = 7
print(a.x, a.p, A.p.__doc__, A.s(1, 2), a.s(3, 4), A.c(1), b.c(2), B.c(3))
print(type(a) is A, type(1), type('s'), type(None), type(b).__name__, type(A), type(len))
C = type('C', (A,), {'k': 42, 'm': lambda self: self.k + 1})
print(C.__name__, C().m(), C().x, isinstance(C(), A), C.__mro__ == (C, A, object))
D = type('D', (), {})
print(D.__name__, D.__bases__, D.__module__)
print(callable(len), callable(A), callable(a), callable(a.s), callable(1), callable(lambda: 0))
print(hash(1) == hash(1.0), hash('a') == hash('a'), hash((1, 2)) == hash((1, 2)), hash(True), hash(-1), hash(-2))
print(repr('a\nb'), repr([1, 'x']), ascii('héllo\u2603\U0001F600'), ascii([1, 'é']), repr(1.5), repr(None))
print(format(3.14159, '.2f'), format(42), format(42, 'x'), format('ab', '>5'), format(7, '05d'))
print(id(a) == id(a), id(a) != id(b), id(None) == id(None))
prop = property(lambda self: 1)
print(type(prop).__name__, prop.fset, prop.fget is not None)
sm = staticmethod(len)
cm = classmethod(len)
print(sm.__func__ is len, cm.__func__ is len)

class WithGet:
    def __init__(self):
        self._v = 0
    def get_v(self):
        return self._v
    def set_v(self, v):
        self._v = v * 2
    def del_v(self):
        self._v = -1
    v = property(get_v, set_v, del_v, 'doc of v')

w = WithGet()
w.v = 4
print(w.v, WithGet.v.__doc__)
del w.v
print(w.v)
print(sorted(k for k in dir(a) if not k.startswith('_')), 'x' in dir(a), 'cls_attr' in dir(A))
def f(p, q=2):
    r = p + q
    return sorted(locals().items())
print(f(1))
print(sorted(k for k in globals() if not k.startswith('__'))[:5], globals()['A'] is A)
print(NotImplemented, Ellipsis, ... is Ellipsis, object() is not object(), type(object()).__name__)
print('sep', 'end', sep='|', end='!\n')
print('a', 'b', sep=None, end=None)
print()
print(*[1, 2, 3], sep=', ')
import sys
print('to stdout', file=sys.stdout)
print('flushed', flush=True)
class Sink:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
sink = Sink()
print('x', 1, sep='-', end='.', file=sink)
print(sink.parts)
print(__import__('math').sqrt(16.0), __import__('math').pi > 3)
