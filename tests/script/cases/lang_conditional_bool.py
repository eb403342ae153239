print(1 if True else 2, "a" if "" else "b", [] or "empty", 0 and 1, 2 and 3, None or 0)
print(not [], not [0], bool(""), bool(" "), bool(0.0), bool({}), bool(()), bool(None))
def t(name, v):
    print("eval", name)
    return v
print(t("a", 0) and t("b", 1))
print(t("a", 1) or t("b", 1))
print(t("a", 1) and t("b", 0) or t("c", 2))
x = 5
print("big" if x > 3 else "small" if x > 1 else "tiny")
r = 0 if x is None else x * 2
print(r)
if x > 10:
    print("gt10")
elif x > 4:
    print("gt4")
else:
    print("else")
if []:
    print("no")
elif not None:
    print("none is falsy")
