from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass, FrozenInstanceError
import dataclasses
from typing import List, ClassVar

@dataclass
class A:
    x: int
    y: int = 3
    z: list = field(default_factory=list)
    count: ClassVar[int] = 0

print(A(1), A(1, 2, [3]) == A(1, 2, [3]), A(1) != A(2), fields(A)[0].name, [f.name for f in fields(A(1))])
print(asdict(A(1)), astuple(A(1)), replace(A(1), y=5), is_dataclass(A), is_dataclass(A(1)), is_dataclass(3))
print(A.y, A.count, A(1).z is not A(1).z)
for bad in [lambda: A(), lambda: A(1, 2, 3, 4), lambda: A(1, q=2), lambda: A(1, x=2)]:
    try:
        bad()
    except TypeError as e:
        print("TypeError:", e)

@dataclass(frozen=True)
class F:
    a: int = 0

f = F(1)
try:
    f.a = 2
except FrozenInstanceError as e:
    print(type(e).__name__, e, isinstance(e, AttributeError))
print(hash(f) == hash((1,)), F(1) == F(1), A.__hash__)
try:
    @dataclass
    class B:
        x: int = 1
        y: int
except TypeError as e:
    print("TypeError:", e)
try:
    @dataclass
    class C:
        x: list = []
except ValueError as e:
    print("ValueError:", e)

@dataclass(order=True)
class O:
    a: int
    b: str = 'x'

print(O(1) < O(2), sorted([O(3), O(1, 'b'), O(1, 'a')]))

@dataclass
class P(A):
    w: int = 9
    def __post_init__(self):
        print('post', self.w)

print(P(1))

@dataclass
class Cfg:
    name: str
    layers: List[int] = field(default_factory=lambda: [64, 128])
    dropout: float = 0.1
    hidden: int = field(default=32, repr=False)
    inner: A = None

c = Cfg("net", inner=A(7))
print(c, c.hidden, asdict(c))

@dataclass(eq=False)
class NoEq:
    v: int

print(NoEq(1) == NoEq(1), fields(A)[1].default, fields(A)[2].default is dataclasses.MISSING)
