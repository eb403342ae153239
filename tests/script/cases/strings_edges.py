# Edge cases of str methods, % and format(): argument errors, signs, zero padding, bools.
tests = [lambda: str.maketrans(), lambda: str.maketrans(1, 2, 3, 4), lambda: str.maketrans("ab", "c"), lambda: "{k}".format_map(1), lambda: "{0}".format_map({}),
         lambda: "abc".expandtabs(1, 2), lambda: "a".removeprefix(1), lambda: "a".center(-5), lambda: "a".zfill(-1), lambda: "a".replace("a", "b", -1),
         lambda: "a b c".split(None, True), lambda: "abc".split(maxsplit=1.0), lambda: str.join(",", ["a"]), lambda: str.format("{}", 1), lambda: "x".startswith(("",)),
         lambda: "abc".find("c", None, None), lambda: "abc".count("", None), lambda: "aaa".rfind("a", -1), lambda: "aaa".rindex("a", 0, 2), lambda: "a".ljust(3, ""),
         lambda: "%s" % (), lambda: "%.3d" % -5, lambda: "{:=^7}".format(-3), lambda: "{:=7}".format(-3), lambda: "{:0=7}".format(-3.5), lambda: "{:07}".format("ab"),
         lambda: format(-0.0, "+"), lambda: format(0.0, " "), lambda: format(-1e-320, "e"), lambda: "{:,}".format(-1234.5678), lambda: "{:_}".format(1234567.125),
         lambda: "{:,.0f}".format(1e10), lambda: "{:.0%}".format(0.005), lambda: "{:.1%}".format(-0.0), lambda: "{:z.1%}".format(-0.0), lambda: "{:#.3g}".format(0.0001),
         lambda: "{:g}".format(1e-5), lambda: "{:.2g}".format(123), lambda: "{:n}".format(1e6), lambda: "{:.3n}".format(1234.0), lambda: "{:>+10.2e}".format(12345),
         lambda: "{:x}".format(True), lambda: "{:c}".format(True), lambda: "{:%}".format(True), lambda: "{:.2}".format(True)]
for t in tests:
    try:
        print(repr(t()))
    except Exception as e:
        print(type(e).__name__, e)
