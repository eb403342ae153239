# dict views as sets, CPython's hashes of floats and tuples, huge ranges, number attributes,
# X | Y unions and int()'s argument count.
d = {"a": 1, "b": 2}
print(d.keys() & {"a"}, d.keys() & ["b", "z"], {"a"} & d.keys())
print({"a": 1}.keys() == {"a"}, {"a"} == {"a": 1}.keys(), d.keys() != {"a"})
print(d.items() & {("a", 1)}, sorted(d.items() | {("c", 3)}))
print(sorted(d.keys() | {"c"}), d.keys() - {"a"}, sorted(d.keys() ^ {"a", "z"}))
print(d.keys() <= {"a", "b", "c"}, d.keys() < {"a", "b"}, d.keys() >= {"a"})
print(d.items() == {("a", 1), ("b", 2)}, d.keys() == d.keys(), d.keys() == ["a", "b"])
ks = d.keys()
ks -= {"a"}
print(ks, type(ks).__name__)
try:
    d.keys() & 5
except TypeError as e:
    print("TypeError:", e)
try:
    {"x": [1]}.items() & {1}
except TypeError as e:
    print("TypeError:", e)

print(hash(1.5), hash(-2.25), hash(0.1), hash(1e300), hash(-1e-300), hash(2.0), hash(-1.0))
print(hash(float("inf")), hash(float("-inf")), hash(0.0), hash(-0.0))
print(hash((1, 2)), hash(()), hash((1.5, (2, 3))), hash(("a",)) == hash(("a",)), hash((-1,)))
print({(1, 2): "x"}[(1, 2)], hash(3) == hash(3.0), hash((3,)) == hash((3.0,)))

big = range(-9223372036854775807, 9223372036854775807, 4611686018427387904)
print(len(big), list(big), big[-1], big[1])
print(list(range(9223372036854775807, -9223372036854775807, -4611686018427387904)))
print(list(range(9223372036854775800, 9223372036854775807, 3)))
try:
    len(range(-9223372036854775807, 9223372036854775807))
except OverflowError as e:
    print("OverflowError:", e)

print((255).bit_length(), (-8).bit_length(), (0).bit_length(), True.bit_length())
print(slice(1, None, 2).indices(10), slice(-3, None).indices(5), slice(None, None, -1).indices(4))
print(slice(2, 100).indices(7), slice(-100, -1, 3).indices(7))
try:
    slice(1, 2).indices(-1)
except ValueError as e:
    print("ValueError:", e)
print((3).real, (3).imag, (3).conjugate(), (3).numerator, (3).denominator, True.real)
print((2.5).real, (2.5).imag, (2.5).conjugate(), (2.0).is_integer(), (2.5).is_integer())
print((1.5).hex(), (0.1).hex(), (-0.0).hex(), float("inf").hex(), (5e-324).hex(), (1e300).hex())
try:
    (3).bit_length(1)
except TypeError as e:
    print("TypeError:", e)

u = int | None
print(u, int | str | float, list[int] | None)
print(isinstance(3, int | str), isinstance(3.0, int | str), isinstance(None, u))
print(issubclass(bool, int | str), (int | str) == (str | int), int | int)
print(u.__args__)

def f(x: int | None = None) -> list | None:
    return x

class A:
    pass

print(f(3), f.__annotations__, A | None)

for args, kw in [((), {"base": 10}), (("5",), {"base": 10, "x": 1}), (("5",), {"x": 1}),
                 (("5", 10), {"base": 10}), (("5",), {"base": 10})]:
    try:
        print(int(*args, **kw))
    except TypeError as e:
        print("TypeError:", e)
a = {"x": [1], "y": 2}
b = {"x": [1], "y": 2, "z": 3}
print(a.items() <= b.items(), a.items() == b.items(), ("x", [1]) in a.items(), a.items() < b.items(), b.items() >= a.items())
print(a.keys() == {"x", "y"}, a.items() == {("y", 2)})
