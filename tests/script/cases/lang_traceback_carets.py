def attr(o):
    return o.missing_attribute
def index(d):
    return d["key"] + 1
def call(f):
    return f(1)(2)
def arith(a, b):
    return (a + 1) * (b - 1) / (a - a)
for fn, arg in [(attr, 5), (index, {}), (call, lambda x: x), (arith, 3)]:
    try:
        fn(*([arg] if fn is not arith else [arg, arg]))
    except Exception as e:
        print(type(e).__name__, e)
arith(2,
      5)
