class Point:
    """A point."""
    dims = 2
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
p = Point(3, 4)
print(p, p.norm2(), Point.dims, p.dims)
print(Point.__name__, Point.__doc__, Point.__qualname__)
p.dims = 3
print(p.dims, Point.dims)
Point.dims = 5
print(Point(0, 0).dims)
print(type(p).__name__, isinstance(p, Point), isinstance(3, Point))
m = p.norm2
print(m())
print(Point.norm2(p))
print(hasattr(p, "x"), hasattr(p, "z"), getattr(p, "z", "missing"))
setattr(p, "z", 9)
print(p.z)
del p.z
print(hasattr(p, "z"))
try:
    p.nothing
except AttributeError as e:
    print(e)
class Empty:
    pass
e = Empty()
e.v = 1
print(e.v, str(type(e)) == "<class '__main__.Empty'>")
