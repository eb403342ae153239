from collections import namedtuple, OrderedDict, defaultdict, deque, Counter
import collections

P = namedtuple('P', 'x y', defaults=[0])
p = P(1, 2)
print(p, P(1), p.x, p.y, p[0], p[-1], len(p), list(p), tuple(p), p == (1, 2), hash(p) == hash((1, 2)))
print(p._asdict(), P._fields, P._field_defaults, p._replace(x=5), P._make([3, 4]), type(p).__name__)
a, b = p
print(a, b, p + (3,), p[:1], P.__name__)
Point3 = namedtuple("Point3", ["x", "y", "z"])
print(Point3(1, 2, 3), Point3(x=1, z=3, y=2), Point3._fields)
R = namedtuple("R", "a, b c", rename=False)
print(R(1, 2, 3))
for bad in [lambda: P(), lambda: P(1, 2, 3), lambda: P(1, z=2), lambda: P(1, x=2),
            lambda: namedtuple('Q', '_a'), lambda: namedtuple('Q', 'a a'), lambda: namedtuple('Q', '1a'),
            lambda: namedtuple('Q', 'class'), lambda: p._replace(z=3), lambda: setattr(p, 'x', 3)]:
    try:
        bad()
    except (TypeError, ValueError, AttributeError) as e:
        print(type(e).__name__ + ":", e)

class Pt(namedtuple("Pt", "x y")):
    def norm2(self):
        return self.x ** 2 + self.y ** 2

q = Pt(3, 4)
print(q.norm2(), q.x, q[1], isinstance(q, Pt))

d = defaultdict(list)
d['a'].append(1)
d['a'].append(2)
d['b']
print(d, defaultdict(None), defaultdict(int, a=1), d['a'], len(d), 'a' in d, 'z' in d, sorted(d))
c = defaultdict(int)
for ch in "hello":
    c[ch] += 1
print(c, dict(c.items()), c.get('z'), c.default_factory)
try:
    defaultdict(None)['x']
except KeyError as e:
    print("KeyError", e)

od = OrderedDict([('a', 1), ('b', 2)])
od['c'] = 3
print(od, OrderedDict(), list(od), list(od.keys()), list(od.values()), list(od.items()))
od.move_to_end('a')
print(od, od.popitem(), od.popitem(last=False), od)
od2 = OrderedDict(x=1)
od2.update({'y': 2}, z=3)
print(od2, od2.get('y'), od2.pop('x'), od2.setdefault('w', 9), od2, len(od2))
print(OrderedDict([(1, 1), (2, 2)]) == OrderedDict([(2, 2), (1, 1)]), OrderedDict(a=1) == {'a': 1})
for k, v in od2.items():
    print(k, v)
del od2['y']
print(od2, list(reversed(od2)))

cnt = Counter('abracadabra')
print(cnt, cnt.most_common(2), Counter(), cnt['zz'], 'zz' in cnt, cnt['a'])
cnt.update('aaz')
print(cnt.most_common(3), sorted(cnt.elements())[:6], Counter([1, 1, 2]) + Counter([2, 3]))
print(Counter({'x': 3, 'y': 1}), Counter(a=2, b=5).total())

q = deque([1, 2, 3], maxlen=3)
q.append(4)
print(q, q.maxlen, deque())
q.appendleft(0)
print(q, q.popleft(), q.pop(), q, len(q))
dq = deque()
dq.extend([1, 2, 3])
dq.extendleft([0, -1])
dq.rotate(2)
print(dq, list(dq), dq[0], dq[-1], 2 in dq, dq.count(2))
dq.rotate(-1)
dq.reverse()
print(dq)
for i in range(1000):
    dq.appendleft(i)
print(len(dq), dq[0], dq[-1])
for bad in [lambda: deque().pop(), lambda: deque().popleft(), lambda: deque([1])[5]]:
    try:
        bad()
    except IndexError as e:
        print("IndexError:", e)
print(isinstance(od, OrderedDict), isinstance(d, defaultdict), collections.OrderedDict is OrderedDict)
