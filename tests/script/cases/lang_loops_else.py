for i in range(3):
    pass
else:
    print("for completed", i)
for i in range(10):
    if i == 4:
        break
else:
    print("not printed")
print("broke at", i)
n = 0
while n < 3:
    n += 1
else:
    print("while completed", n)
while True:
    n -= 1
    if n == 0:
        break
else:
    print("not printed")
print("n", n)
for i in range(5):
    if i % 2:
        continue
    print("even", i)
def find(items, target):
    for idx, it in enumerate(items):
        if it == target:
            break
    else:
        return -1
    return idx
print(find("abc", "c"), find("abc", "z"))
for x in []:
    print("never")
else:
    print("empty else")
total = 0
for i in range(3):
    for j in range(3):
        if j == 2:
            break
        total += j
    else:
        total += 100
print(total)
i = 10
while i:
    i -= 3
    if i < 0:
        break
print(i)
