class Temp:
    def __init__(self):
        self._c = 0
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273:
            raise ValueError("too cold")
        self._c = v
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
t = Temp()
t.celsius = 100
print(t.celsius, t.fahrenheit)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError:", e)
try:
    t.fahrenheit = 5
except AttributeError as e:
    print("AttributeError:", e)
class Counter:
    count = 0
    def __init__(self):
        Counter.count += 1
    @classmethod
    def make(cls):
        return cls()
    @staticmethod
    def twice(x):
        return 2 * x
Counter(); Counter.make(); Counter().make()
print(Counter.count, Counter.twice(4), Counter().twice(5))
class Sub(Counter):
    pass
print(type(Sub.make()).__name__)
