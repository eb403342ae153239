import warnings

def f():
    warnings.warn("hello")

f()
f()
warnings.warn("dep", DeprecationWarning)
warnings.warn("pending", PendingDeprecationWarning)

def g():
    warnings.warn("lvl2", stacklevel=2)

g()
warnings.warn("rt", RuntimeWarning)
warnings.warn(UserWarning("inst"))
warnings.warn("fut", category=FutureWarning)
for i in range(3):
    warnings.warn("loop")
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("recorded")
    warnings.warn("recorded")
    print(len(w), w[0].category.__name__, str(w[0].message), w[0].lineno)
warnings.warn("after catch")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    warnings.warn("hidden")
warnings.simplefilter("error")
try:
    warnings.warn("boom")
except UserWarning as e:
    print("caught", repr(e))
try:
    warnings.warn("rt-err", RuntimeWarning)
except RuntimeWarning as e:
    print("caught", repr(e))
warnings.resetwarnings()
warnings.filterwarnings("ignore", message="skip.*")
warnings.warn("skip me")
warnings.warn("show me")
warnings.filterwarnings("ignore", category=RuntimeWarning)
warnings.warn("rt hidden", RuntimeWarning)
warnings.simplefilter("always", UserWarning)
warnings.warn("again")
warnings.warn("again")
try:
    warnings.warn("x", category=int)
except TypeError as e:
    print("TypeError:", e)
print("done")
