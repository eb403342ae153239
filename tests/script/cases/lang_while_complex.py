def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print([collatz(n) for n in range(1, 12)])
def primes(limit):
    out = []
    n = 2
    while len(out) < limit:
        d = 2
        while d * d <= n:
            if n % d == 0:
                break
            d += 1
        else:
            out.append(n)
        n += 1
    return out
print(primes(15))
i, total = 0, 0
while True:
    i += 1
    if i % 2:
        continue
    total += i
    if i >= 10:
        break
print(i, total)
stack = [1, [2, [3, [4]]]]
flat = []
while stack:
    item = stack.pop()
    if isinstance(item, list):
        stack.extend(reversed(item))
    else:
        flat.append(item)
print(flat)
