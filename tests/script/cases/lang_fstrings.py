name = "fx"
n = 42
pi = 3.14159
print(f"hello {name}!")
print(f"{n:5d}|{n:<5}|{n:^5}|{n:>5}|{n:05d}|{n:x}|{n:#o}|{n:b}")
print(f"{pi:.2f} {pi:10.3f} {pi:e} {pi:.0f} {1e20:g} {0.5:%}")
print(f"{name!r} {name!s} {name:>6} {name:*^8}")
width, prec = 10, 3
print(f"[{pi:{width}.{prec}f}]")
print(f"{n=} {pi=:.1f} {name = }")
print(f"{{literal}} {'nested'} {[1, 2][0]} {dict(a=1)['a']}")
print(f"{n + 1} {n * 2:,} {1234567:,} {1234567.891:,.2f}")
print(f"{'a' if n > 0 else 'b'}")
print(f"{3:+d} {-3:+d} {3: d}")
print(f"{True} {None} {[1, 'a']} {(1,)}")
print(f"multi" f"part {n}" "plain")
print(F"{n}" rf"\d{n}")
x = 7
print(f"""{x}
{x * 2}""")
