import copy

class A:
    def __init__(self):
        self.x = [1, [2, 3]]
        self.name = "a"

a = A()
b = copy.copy(a)
c = copy.deepcopy(a)
print(b.x is a.x, c.x is a.x, c.x == a.x, c.x[1] is a.x[1], type(c).__name__, c.name)
l = [1, [2]]
l.append(l)
m = copy.deepcopy(l)
print(m[2] is m, m[1] is l[1], m[1] == l[1])
print(copy.copy((1, 2)), copy.deepcopy({'a': [1]}), copy.copy([1, 2]), copy.copy({1, 2}), copy.deepcopy((1, [2])))
t = (1, 2)
print(copy.deepcopy(t) is t, copy.copy(t) is t)
d = {'k': [1]}
d2 = copy.copy(d)
d2['k'].append(2)
print(d, d2 is d)

class Hooks:
    def __init__(self, v):
        self.v = v
    def __copy__(self):
        print("copy hook")
        return Hooks(self.v)
    def __deepcopy__(self, memo):
        print("deepcopy hook", type(memo).__name__)
        return Hooks(copy.deepcopy(self.v, memo))

h = Hooks([1])
h2 = copy.copy(h)
h3 = copy.deepcopy(h)
print(h2.v is h.v, h3.v is h.v, h3.v)

class State:
    def __init__(self):
        self.a = 1
        self.b = [2]
    def __getstate__(self):
        return {'a': self.a * 10, 'b': self.b}
    def __setstate__(self, st):
        self.a = st['a']
        self.b = st['b']

s = copy.deepcopy(State())
print(s.a, s.b)
shared = [1]
pair = [shared, shared]
pc = copy.deepcopy(pair)
print(pc[0] is pc[1], pc[0] is shared)

class M:
    def f(self):
        return self.v
m1 = M()
m1.v = 5
bm = copy.deepcopy(m1.f)
print(bm(), copy.deepcopy(len) is len, copy.deepcopy(M) is M)
from collections import OrderedDict, deque, defaultdict
od = OrderedDict(a=[1])
od2 = copy.deepcopy(od)
print(od2, od2['a'] is od['a'], copy.copy(od)['a'] is od['a'])
dq = copy.deepcopy(deque([[1]], maxlen=4))
print(dq)
dd = copy.deepcopy(defaultdict(list, {'x': [1]}))
dd['y'].append(3)
print(dd)
