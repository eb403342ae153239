s = "Hello, World"
print(s[0], s[-1], s[::2], s[7:], s[:5], s[::-1])
print(len(s), s.lower(), s.upper(), s.split(", "), "-".join(["a", "b"]))
print("ab" * 3, "a" + "b", "x" in s, s.find("o"), s.count("l"))
print(s.replace("l", "L", 2), s.startswith("He"), s.endswith("d"), "  pad ".strip())
print("%d items, %s, %.2f, %r" % (3, "x", 1.5, "q"))
print("{} and {}".format(1, 2), "{0}{1}{0}".format("a", "b"), "{x}".format(x=5))
print('single', "double", """triple""", r"raw\n", "tab\tx", "nl\\n")
print("é", len("é"), "日本", len("日本"), "\u00e9" == "é")
print(str(12), str(1.5), str(None), repr("a'b"), repr('a"b'), repr("\n"))
print(ord("a"), chr(98), "abc" < "abd", "Z" < "a")
print("a,b,,c".split(","), "a b  c".split(), "x".center(5, "*"), "7".zfill(3))
try:
    s[100]
except IndexError as e:
    print("IndexError:", e)
try:
    s[0] = "h"
except TypeError as e:
    print("TypeError:", e)
try:
    "a" + 1
except TypeError as e:
    print("TypeError:", e)
