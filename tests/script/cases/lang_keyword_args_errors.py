class Pt:
    def __init__(self, x, y=0):
        self.x, self.y = x, y
def show(*, sep):
    return sep
cases = [
    lambda: Pt(),
    lambda: Pt(1, 2, 3),
    lambda: Pt(1, z=3),
    lambda: Pt(1, x=2),
    lambda: show("a"),
    lambda: show(),
    lambda: show(sep=1, end=2),
    lambda: (lambda a, b: 0)(1),
    lambda: (lambda a, b, c: 0)(1),
    lambda: (lambda *, a, b: 0)(),
    lambda: print(bad_kw=1),
    lambda: len(),
    lambda: len(1, 2),
    lambda: isinstance(1),
    lambda: Pt(*[1], **{"y": 2, "x": 3}),
]
for c in cases:
    try:
        c()
    except TypeError as e:
        print("TypeError:", e)
