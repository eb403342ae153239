# fx ints are 64-bit: this case stays inside the int64 range, where Python agrees.
big = 2 ** 62
print(big, big + (big - 1), -big - big)
print(9223372036854775807, -9223372036854775807 - 1)
print(3037000499 * 3037000499)
print(int("9223372036854775807"), 123456789 * 987654321)
print((2 ** 40) // 3, (2 ** 40) % 1000, -(2 ** 40) // 7)
