x = 1
del x
try:
    x
except NameError as e:
    print("NameError:", e)
lst = [0, 1, 2, 3, 4, 5]
del lst[0]
del lst[1:3]
print(lst)
del lst[::2]
print(lst)
d = {"a": 1, "b": 2, "c": 3}
del d["b"]
print(d)
try:
    del d["zz"]
except KeyError as e:
    print("KeyError:", e)
class O: pass
o = O()
o.a = 1
del o.a
try:
    del o.a
except AttributeError as e:
    print("AttributeError:", e)
a, b = 1, 2
del a, b
def f():
    v = 1
    del v
    try:
        return v
    except UnboundLocalError as e:
        return str(e)
print(f())
try:
    del undefined_thing
except NameError as e:
    print("NameError:", e)
