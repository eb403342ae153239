class Animal:
    sound = "..."
    def __init__(self, name):
        self.name = name
    def speak(self):
        return f"{self.name} says {self.sound}"
class Dog(Animal):
    sound = "woof"
class Puppy(Dog):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age
    def speak(self):
        return super().speak() + f" ({self.age})"
print(Dog("rex").speak())
print(Puppy("bit", 1).speak())
print(issubclass(Puppy, Animal), issubclass(Animal, Puppy), isinstance(Puppy("a", 1), Dog))
print([c.__name__ for c in Puppy.__mro__])
print(Puppy.__bases__[0].__name__)
class A:
    def who(self):
        return "A"
class B(A):
    def who(self):
        return "B" + super().who()
class C(A):
    def who(self):
        return "C" + super().who()
class D(B, C):
    def who(self):
        return "D" + super().who()
print(D().who())
print([k.__name__ for k in D.__mro__])
class Base:
    def template(self):
        return self.hook()
    def hook(self):
        return "base"
class Derived(Base):
    def hook(self):
        return "derived"
print(Derived().template())
try:
    class Bad(B, A, C): pass
except TypeError as e:
    print("TypeError:", e)
