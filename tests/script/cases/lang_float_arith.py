print(0.1 + 0.2, 1.5 * 2, 7.0 // 2, -7.0 // 2, 7.5 % 2, -7.5 % 2)
print(1e300 * 1e10, -1e300 * 1e10, 2.0 ** 0.5, 10 ** -2)
print(float("inf"), float("-inf"), float("nan") != float("nan"))
print(1.0, 100.0, 1e16, 1.5e-7, 123456789.123, 0.1 * 3, 1 / 7)
print(round(3.14159, 2), round(2.675, 2), round(1e15 + 0.5), round(0.5))
print(int(2.9e9), float(3), 3 == 3.0, 0.0 == -0.0, -0.0)
print(divmod(7.5, 2), 5 / 2 * 2, 2 ** 3.0, 4 ** 0.5)
print(abs(-2.5), max(1, 2.5), min(-1.0, 3))
try:
    1.0 / 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    1.0 % 0.0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    0.0 ** -1
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
print((-8) ** 2.0, 8 ** (1 / 3), (-2.0) ** 3, 2 ** 0.5 * 2 ** 0.5)
print(float("1.5"), float(" -2e3 "), str(1.0), repr(0.1), str(1e-5))
print(1.7976931348623157e308, 5e-324, 2.5e-10)
print(hash(1.0) == hash(1), 7 // 2.0, 3.0 % -2)
