class A:
    def __init__(self):
        print("A init")
        self.a = 1
    def f(self):
        return "A.f"
    @classmethod
    def make(cls):
        return cls.__name__
class B(A):
    def __init__(self):
        print("B init")
        super(B, self).__init__()
    def f(self):
        return "B>" + super(B, self).f()
    @classmethod
    def make(cls):
        return "B:" + super().make()
class C(B):
    def f(self):
        return "C>" + super().f()
c = C()
print(c.a, c.f(), C.make(), B.make())
class Mixin:
    def __init__(self, **kw):
        print("Mixin", sorted(kw))
        super().__init__()
class Base:
    def __init__(self):
        print("Base")
class Both(Mixin, Base):
    def __init__(self):
        super().__init__(x=1)
Both()
class WithClassRef:
    def who(self):
        return __class__.__name__
print(WithClassRef().who())
def outside(self):
    return super().f()
try:
    class D(A):
        g = outside
    D().g()
except RuntimeError as e:
    print("RuntimeError:", e)
