# printf-style % formatting: conversions, flags, width/precision, mappings and errors.
tests = [('%05f', float('inf')), ('%05d', -3), ('%-5d|', 3), ('%+.3d', 5), ('%#o', 8), ('%#x', -255), ('%#X', 255), ('%x', 3.0), ('%d', '3'), ('%i', '3'),
         ('%u', 3.7), ('%d', float('inf')), ('%d', float('nan')), ('%f', '1'), ('%c', 'ab'), ('%c', 1.0), ('%c', 0x110000), ('%.2s', 'abc'), ('%5.1r', 'abc'),
         ('%a', 'é'), ('%s %s', (1,)), ('%s', (1, 2)), ('%s', ()), ('%(a)s', 1), ('%(a)s %(b)d', {'a': 1, 'b': 2}), ('%(c)s', {'a': 1}), ('%', ()), ('%z', 1),
         ('abc %y', 1), ('%*d', (5, 3)), ('%*d', ('a', 3)), ('%-*d|', (-5, 3)), ('%.*f', (2, 3.14159)), ('hello', 5), ('hello', []), ('hello', {}), ('%s', [1]),
         ('%e', 12345.678), ('%g', 1e-5), ('%#g', 1.0), ('%10.3e|', -1.5), ('%010.2f', -1.5), ('% d', 5), ('%+d', True), ('%s', True), ('%d', True),
         ('%.0f', 2.5), ('%r', 1.0), ('%(a)s %s', {'a': 1}), ('%.3x', 5), ('%#.3x', 5), ('%#08x', 255), ('%ld', 4), ('%-5s|', 'é'), ('%s', None),
         ('%.1g', 0.05), ('%G', 1e20), ('%F', float('nan')), ('%x', True), ('%c', 65), ('%s%s', 1), ('%d%%', 50), ('%s', (None,)), ('%r %r', ('a', "b'c")),
         ('%5s|%-5s|', ('ab', 'cd')), ('%.3f', 2/3), ('%10.4f|', 3.14159265), ('%-10.2e|', 12345.6789), ('%+.2f', 0.0), ('%+.2f', -0.0), ('%i', -7),
         ('%o', -8), ('%X', 48879), ('%.2e', 0), ('%g', 100000.0), ('%g', 1000000.0), ('%.10g', 1/3), ('%s', 1.5), ('%s', 1e16), ('%(x)05.1f', {'x': 2.25}),
         ('%c%c', ('h', 105)), ('%%%s%%', 'x'), ('%.0e', 5.5), ('%#.0f', 1.0), ('%s', 'é'), ('%3c|', 'é'), ('%d items', 3), ('%s', {'a': 1})]
for f, a in tests:
    try:
        print(repr(f), repr(a), '->', repr(f % a))
    except Exception as e:
        print(repr(f), repr(a), '!!', type(e).__name__, e)
class P:
    def __repr__(self): return "P()"
    def __str__(self): return "p-str"
print("%s %r" % (P(), P()))
print("[%s]" % ", ".join("%d" % i for i in range(3)))
x = 3
print("x=%d, y=%.2f, name=%s" % (x, x / 7, "abc"))
for f, a in [('%5%|', (1,)), ('%-5%|', (1,)), ('%(a)5%|', {'a': 1}), ('%.3s|', None), ('%5.2f%%', 12.345), ('%(a)d', {'a': 1.5}), ('%x', -0), ('%05s|', 'ab'), ('%+s', 'x'), ('%-3c|', 'é'), ('%s', ((1, 2),)), ('%s %s', [1, 2])]:
    try:
        print(repr(f), repr(a), '->', repr(f % a))
    except Exception as e:
        print(repr(f), repr(a), '!!', type(e).__name__, e)
print("a".splitlines(True), "a\nb".splitlines(keepends=0))
for bad in [1.5, "x"]:
    try:
        "a".splitlines(bad)
    except Exception as e:
        print(type(e).__name__, e)
for f,a in [('%z', ()), ('%5z', ()), ('%%', ()), ('%5%', ())]:
    try: print(repr(f % a))
    except Exception as e: print(type(e).__name__, e)
print("hello" % range(3))
print("%s" % range(2))
try:
    print("x" % 5)
except TypeError as e:
    print(e)
