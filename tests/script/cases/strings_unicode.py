# str methods and formatting on non-ASCII text: code point indexes, Unicode whitespace, case, predicates.
s = "ñandú über café"
print(s.find("ü"), s.find("é", -3), s.rfind("a", 0, 5), s.index("c", 2), s.count("a", -6), s[s.find("ü"):])
print(s.startswith("über", 6), s.endswith("caf", 0, -1), s.split("ü"), s.rsplit(" ", 1), s.partition("ú"))
print("\u3000a\u3000b\u2003".split(), "\u3000a\u3000b\u2003".rsplit(None, 1), "\u3000a b\u3000".strip(), "éaé".strip("é"), "ñxñ".lstrip("ñ"))
print("ab".center(6, "é"), "ab".ljust(4, "日"), "日本".zfill(4), s.title(), s.upper(), s.swapcase(), "ÉCOLE".lower(), "ǆemal".capitalize())
print("日本語".replace("", "|"), "a日b日c".split("日", 1), "x日y".rpartition("日"), "日日日".count("日"), "日本".find("", 1), "日本".find("", 3))
print("{:日^7}".format("ab"), "%-4s|%4s" % ("é", "日"), "{:.2}".format("日本語"), "%.1s" % "日本")
print("Ⅷ".isnumeric(), "٣".isdecimal(), "٣".isdigit(), "ⅷ".isalpha(), "ǅ".istitle(), "ǅ".isupper(), "ǅ".islower(), "é".isidentifier(), "日本".isidentifier(), "a·b".isidentifier())
print(repr("x\x85y\u2028z".splitlines()), "a\r\n\r\nb".splitlines(True))
print("ßa ﬁx straße".title(), "ßa".capitalize(), "ﬁ".upper(), "İx".lower(), len("İ".lower()), "ǆ".title(), "ǆ".upper(), "ǅ".lower(), "ΣΑΣ".lower(), "σ".upper())
print("ΣΑΣ ΟΔΟΣ.".lower(), "ΣΑ".lower(), "Σ".lower(), "aΣb".lower())
