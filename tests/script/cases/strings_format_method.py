# str.format / format_map: numbering, attributes, indexes, conversions, nested specs, errors.
class Pt:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __repr__(self):
        return f"Pt({self.x}, {self.y})"
    def __str__(self):
        return "pt"
    def __format__(self, spec):
        return "Pt<" + spec + ">"

class Plain:
    def __repr__(self):
        return "Plain()"

p = Pt(1, 2)
print("{} {} {}".format(1, "a", 2.5))
print("{0} {1} {0}".format("x", "y"))
print("{a}-{b}".format(a=1, b="two"))
print("{0.x},{0.y}".format(p), "{p.x}".format(p=p))
print("{0[1]} {0[0]} {d[k]} {d[key with space]}".format([10, 20], d={"k": 5, "key with space": 6}))
print("{!r} {!s} {!a} {}".format("é", p, "é", p))
print("{:>8} {:<8}| {:^8} {:x<4}".format("r", "l", "c", 7))
print("{:{}{}}".format(3.14159, ">", 10), "{:{w}.{p}f}".format(2.71828, w=9, p=2), "{0:{1}}".format("ab", 5))
print("{{}} {{{}}} }}{{".format(9))
print("{:}".format(5), "{0!r:>6}".format("a"), "{:%}".format(0.25), "{:,}".format(10**9))
print("{}".format(Plain()), "{:}".format(Plain()), "{:abc}".format(p))
print("{0}{1}".format(*"ab"), "{x}{y}".format(**{"x": 1, "y": 2}))
print("{} {}".format([1, 2], (3,)), "{}".format(None), "{}".format(True), "{:d}".format(True), "{:5}|".format(True))
print("{0[0][1]}".format([[1, 2]]), "{0.x}".format(p), "{[a]}".format({"a": 9}))
print("{x:{fill}^{w}}".format(x="mid", fill="*", w=9))
print("%s" % "{}".format(1), "a{}b".format(""))
print("{:.3}".format("abcdef"), "{:.3}".format(3.14159), "{:10.3}|".format(1234.5))
print("{name}: {value:.2f}".format_map({"name": "pi", "value": 3.14159}))
def show(fmt, *a, **k):
    try:
        print(repr(fmt.format(*a, **k)))
    except Exception as e:
        print(type(e).__name__ + ":", e)
for f, a in [("{", ()), ("}", ()), ("{0", ()), ("{a", ()), ("{0:{1}}", (1,)), ("{0!x}", (1,)), ("{0!rr}", (1,)), ("{}{0}", (1,)),
             ("{0}{}", (1, 2)), ("{x}", ()), ("{1}", (1,)), ("{0.}", (1,)), ("{0]}", (1,)), ("{:{:{}}}", (1, 2, 3)), ("{0:}}", (1,)),
             ("{0[0]x}", ([1],)), ("{!r:}", (1,)), ("{0.nope}", (1,)), ("{0[5]}", ([1],)), ("{0[k]}", ({},)), ("{:d}", ("a",)),
             ("{:s}", (1,)), ("{0:x}", (1.5,)), ("{:>5}", (None,)), ("x}y", ()), ("{0!}", (1,)), ("{!}", (1,))]:
    show(f, *a)
try:
    print("{0}".format_map({}))
except Exception as e:
    print(type(e).__name__ + ":", e)
try:
    print("{k}".format_map({}))
except Exception as e:
    print(type(e).__name__ + ":", e)
print(format(p, "q"), format(Plain(), ""), f"{p!r:>10}", f"{p}", f"{p:zz}")
try:
    format(Plain(), "x")
except Exception as e:
    print(type(e).__name__ + ":", e)
