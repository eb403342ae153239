# Python subclasses of dict: construction, __missing__, attribute-style configs, dict's own
# methods called on them (and on OrderedDict), what __mro__ / __bases__ show, copies
import copy
from collections import OrderedDict


class Defaulting(dict):
    def __missing__(self, key):
        return 0


d = Defaulting(x=1)
print(d["x"], d["y"], "y" in d, len(d), d, type(d).__name__)
print(Defaulting.__mro__, Defaulting.__bases__, Defaulting.__base__)
print(isinstance(d, dict), issubclass(Defaulting, dict), type(d) is dict, d == {"x": 1})


class AttrDict(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)

    def __setattr__(self, name, value):
        self[name] = value


cfg = AttrDict(lr=0.1, layers=[64, 128])
cfg.depth = 18
print(cfg.lr, cfg.depth, cfg, sorted(cfg), dict(cfg), {**cfg, "extra": 1})
try:
    cfg.momentum
except AttributeError as e:
    print("AttributeError", e)
print(type(cfg.copy()).__name__, copy.deepcopy(cfg), type(copy.copy(cfg)).__name__)


class Scaled(dict):
    def __init__(self, *args, **kwargs):
        dict.__init__(self, *args, **kwargs)
        self.writes = 0

    def __setitem__(self, key, value):
        self.writes += 1
        super().__setitem__(key, value * 10)


s = Scaled([("a", 1)], b=2)
s["c"] = 3
print(s, s.writes, list(s.items()), list(reversed(s)), s.get("z", "none"), s.pop("a"), s)
print(dict.keys(s), dict.get(s, "c"), dict.__contains__(s, "b"))
print(Defaulting.fromkeys("pq", 0), type(Defaulting.fromkeys("pq")).__name__)
fk = Scaled.fromkeys("pq", 1)   # through __init__ and __setitem__
print(fk, fk.writes, type(fk).__name__)

od = OrderedDict(k=1)
print(list(dict.keys(od)), dict.get(od, "k"), dict.items(od))
plain = {"a": 1}
dict.__init__(plain, b=2)
print(plain)
for bad in (lambda: dict.__init__(plain, 1, 2), lambda: dict.keys([1])):
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)
