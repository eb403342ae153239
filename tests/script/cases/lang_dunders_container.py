class Seq:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(range(self.n))[i]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("Seq index out of range")
        return i * i
    def __contains__(self, v):
        return v == "magic"
s = Seq(4)
print(len(s), s[2], s[-1], s[1:3])
print(list(s))
print([x for x in s])
print("magic" in s, 4 in s)
try:
    s[10]
except IndexError as e:
    print("IndexError:", e)
class Store:
    def __init__(self):
        self.d = {}
    def __setitem__(self, k, v):
        self.d[k] = v
    def __getitem__(self, k):
        return self.d[k]
    def __delitem__(self, k):
        del self.d[k]
    def __iter__(self):
        return iter(sorted(self.d))
    def __bool__(self):
        return bool(self.d)
st = Store()
print(bool(st))
st["b"] = 2; st["a"] = 1
print(st["a"], list(st), bool(st))
del st["a"]
print(list(st))
a, = Store.__iter__(st)
print(a)
