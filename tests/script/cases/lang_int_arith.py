print(7 // 2, -7 // 2, 7 // -2, -7 // -2)
print(7 % 3, -7 % 3, 7 % -3, -7 % -3)
print(divmod(7, 3), divmod(-7, 3), divmod(7, -3))
print(7 / 2, -7 / 2, 6 / 3, 1 / 3)
print(2 ** 10, 2 ** -1, (-2) ** 3, -2 ** 2, 2 ** 0, 0 ** 0)
print(10 ** 18, 2 ** 62, -(2 ** 62) * 2)
print(7 & 3, 7 | 8, 7 ^ 2, ~7, 1 << 10, 1024 >> 3, -16 >> 2)
print(abs(-5), -(-5), +5, int(3.9), int(-3.9), round(2.5), round(3.5), round(-0.5))
print(True + True, True * 3, False - 1, 3 * True)
print(int("  42  "), int("-17"), int("0x1f", 16), int("101", 2), int("z", 36))
print(hex(255), oct(8), bin(5), hex(-1))
try:
    1 // 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    1 % 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    1 << -1
except ValueError as e:
    print("ValueError:", e)
x = 10
x //= 3; print(x)
x **= 3; print(x)
x %= 7; print(x)
x <<= 2; print(x)
x ^= 0xff; print(x)
print(sum(range(101)), 3 * 4 + 2 ** 3 - 10 // 3 % 2)
print(isinstance(7 // 2, int), type(7 / 7).__name__, type(2 ** -1).__name__)
