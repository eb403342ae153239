class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
print(list(Countdown(3)))
for v in Countdown(2):
    print("v", v)
it = iter([1, 2, 3])
print(next(it), list(it), next(it, "end"))
print(list(zip(Countdown(3), "abc")), list(enumerate(Countdown(2), 1)))
print(sum(Countdown(4)), max(Countdown(3)), sorted(Countdown(3)), 2 in Countdown(3))
a, b = Countdown(2)
print(a, b)
print([*Countdown(2)], dict(zip("ab", Countdown(2))))
class OnlyGetitem:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * 10
print(list(OnlyGetitem()), 20 in OnlyGetitem())
try:
    iter(5)
except TypeError as e:
    print("TypeError:", e)
try:
    next([1])
except TypeError as e:
    print("TypeError:", e)
class BadIter:
    def __iter__(self):
        return 5
try:
    iter(BadIter())
except TypeError as e:
    print("TypeError:", e)
