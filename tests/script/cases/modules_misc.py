import time
import os
import os.path
import string
import abc
import numbers
import sys

t0 = time.perf_counter()
t1 = time.time()
time.sleep(0.01)
dt = time.perf_counter() - t0
print(dt >= 0.005, dt < 5, t1 > 1.6e9, type(time.perf_counter_ns()).__name__, time.monotonic() > 0)
try:
    time.sleep(-1)
except ValueError as e:
    print("ValueError:", e)
print(os.path.join("a", "b", "c.txt"), os.path.join("/x", "/y", "z"), os.path.join("a/", "b"), os.path.join("a", ""))
print(os.path.basename("/a/b/c.py"), os.path.dirname("/a/b/c.py"), os.path.dirname("c.py"), os.path.basename("a/"))
print(os.path.splitext("x/y.tar.gz"), os.path.splitext(".bashrc"), os.path.split("/a/b"), os.path.split("/a"))
print(os.path.exists("/"), os.path.exists("/nonexistent/zzz"), os.path.isdir("/"), os.path.isfile("/"), os.path.isabs("/a"))
print(os.getenv("FX_SURELY_UNSET_VAR"), os.getenv("FX_SURELY_UNSET_VAR", "dflt"), os.environ.get("FX_SURELY_UNSET_VAR", 1))
print(os.sep, os.name, "HOME" in os.environ, os.path is os.path)
print(string.ascii_letters, string.digits, string.ascii_uppercase, string.punctuation, string.hexdigits)
print(repr(string.whitespace), len(string.printable))

class Base(abc.ABC):
    @abc.abstractmethod
    def f(self):
        ...

class Impl(Base):
    def f(self):
        return 42

print(Impl().f(), isinstance(Impl(), Base), issubclass(Impl, abc.ABC))
