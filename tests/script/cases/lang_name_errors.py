def f():
    return undefined_var
try:
    f()
except NameError as e:
    print("NameError:", e)
class A:
    def m(self):
        return self.missing
try:
    A().m()
except AttributeError as e:
    print("AttributeError:", e)
try:
    None.foo
except AttributeError as e:
    print("AttributeError:", e)
try:
    (1).bar
except AttributeError as e:
    print("AttributeError:", e)
try:
    A.nothing
except AttributeError as e:
    print("AttributeError:", e)
try:
    len(5)
except TypeError as e:
    print("TypeError:", e)
try:
    nothing = None
    nothing[0]
except TypeError as e:
    print("TypeError:", e)
try:
    five = 5
    five[0]
except TypeError as e:
    print("TypeError:", e)
try:
    for x in 5: pass
except TypeError as e:
    print("TypeError:", e)
try:
    -"a"
except TypeError as e:
    print("TypeError:", e)
try:
    [] + ()
except TypeError as e:
    print("TypeError:", e)
try:
    {}[[]]
except TypeError as e:
    print("TypeError:", e)
print(undefined_at_module)
