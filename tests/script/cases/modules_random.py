import random

random.seed(42)
print(random.random(), random.randint(1, 10), random.choice([1, 2, 3]), random.getrandbits(40))
print(random.uniform(1, 2), random.gauss(0, 1), random.gauss(0, 1), random.randrange(10), random.randrange(0, 100, 7))
l = list(range(10))
random.shuffle(l)
print(l)
print(random.sample(range(100), 5), random.sample([1, 2, 3, 4, 5, 6, 7, 8], 3), random.sample(range(10000), 7))
random.seed("hello")
print(random.random())
random.seed(-5)
print(random.random())
random.seed(2 ** 40 + 3)
print(random.random(), random.getrandbits(1), random.getrandbits(32), random.getrandbits(63))
print(random.normalvariate(0, 1), random.choices([1, 2, 3], k=4), random.choices("abc", weights=[1, 0, 5], k=5))
random.seed(0)
print([random.randint(0, 3) for _ in range(10)], random.randrange(-5, 5), random.randrange(10, 0, -3))
r = random.Random(123)
print(r.random(), r.randint(5, 9))
r2 = random.Random()
r2.seed(123)
print(r2.random())
random.seed(7)
print(random.choice("xyz"), random.random())
for bad in [lambda: random.choice([]), lambda: random.randrange(0), lambda: random.sample([1], 2),
            lambda: random.randint(5, 1)]:
    try:
        bad()
    except (IndexError, ValueError) as e:
        print(type(e).__name__ + ":", e)
