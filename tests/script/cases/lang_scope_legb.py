x = "global"
def outer():
    x = "enclosing"
    def inner():
        return x
    return inner()
print(outer())
def shadow():
    len = lambda s: 42
    return len("abc")
print(shadow(), len("abc"))
def reads_global():
    return x
print(reads_global())
y = 1
def local_before_assign():
    try:
        print(y)
    except UnboundLocalError as e:
        print(type(e).__name__, e)
    y = 2
local_before_assign()
def comp_scope():
    n = 10
    return [n + i for i in range(3)]
print(comp_scope())
class K:
    a = 5
    b = [a * 2]
    def m(self):
        return a
print(K.b)
a = "module a"
print(K().m())
