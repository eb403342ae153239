class Shared:
    items = []
    count = 0
    def add(self, x):
        self.items.append(x)
        self.count += 1
a, b = Shared(), Shared()
a.add(1); b.add(2)
print(Shared.items, a.count, b.count, Shared.count)
print(sorted(k for k in vars(a)), "count" in Shared.__dict__)
class Slotless:
    x = 1
    def get(self):
        return self.x
s = Slotless()
print(s.get())
s.x = 5
print(s.get(), Slotless.x)
del s.x
print(s.get())
class Chain:
    def set(self, v):
        self.v = v
        return self
print(Chain().set(3).set(4).v)
print(Shared.add.__qualname__ if hasattr(Shared.add, "__qualname__") else "Shared.add")
class Dyn: pass
for name in ["alpha", "beta"]:
    setattr(Dyn, name, len(name))
print(Dyn.alpha, Dyn().beta)
