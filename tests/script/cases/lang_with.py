class Ctx:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress
    def __enter__(self):
        print("enter", self.name)
        return self.name.upper()
    def __exit__(self, et, ev, tb):
        print("exit", self.name, et.__name__ if et else None, ev)
        return self.suppress
with Ctx("a") as v:
    print("body", v)
with Ctx("b", suppress=True):
    raise ValueError("swallowed")
print("after b")
try:
    with Ctx("c"):
        raise KeyError("kept")
except KeyError as e:
    print("caught", e)
with Ctx("x") as x, Ctx("y") as y:
    print(x, y)
def early():
    with Ctx("r"):
        return "returned"
print(early())
for i in range(2):
    with Ctx(str(i)):
        if i == 0:
            continue
        break
try:
    with 5:
        pass
except TypeError as e:
    print("TypeError:", e)
