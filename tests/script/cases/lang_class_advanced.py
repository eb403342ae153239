class Meta:
    registry = []
    def __init_subclass__(cls, **kw):
        super().__init_subclass__()
        Meta.registry.append(cls.__name__)
class P1(Meta): pass
class P2(Meta): pass
print(Meta.registry)
class Node:
    __slots__ = ()
print(Node.__name__)
class Outer:
    class Inner:
        val = 3
    def get(self):
        return self.Inner.val
print(Outer().get(), Outer.Inner.__qualname__)
class WithNew:
    def __new__(cls, x):
        obj = super().__new__(cls)
        obj.created = x
        return obj
    def __init__(self, x):
        self.inited = x * 2
w = WithNew(4)
print(w.created, w.inited)
class Cnt:
    n = 0
    def bump(self):
        self.n += 1
        return self.n
c = Cnt()
print(c.bump(), c.bump(), Cnt.n)
class Eq:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
print(Eq(1) == Eq(1), Eq(1) in [Eq(2), Eq(1)], [Eq(3)].index(Eq(3)))
print(type(Eq) is type, type(Eq(1)) is Eq, Eq.__module__)
class Desc:
    def __get__(self, obj, owner):
        return "desc" if obj is not None else "class-desc"
class HasDesc:
    d = Desc()
print(HasDesc().d, HasDesc.d)
def method(self):
    return "added"
HasDesc.m = method
print(HasDesc().m())
