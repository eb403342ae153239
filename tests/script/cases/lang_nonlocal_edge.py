def outer():
    x = 0
    def a():
        nonlocal x
        x += 1
    def b():
        return x
    a(); a()
    return b()
print(outer())
def counter_pair():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    def get():
        return n
    return inc, get
inc, get = counter_pair()
inc(); inc()
print(get())
def deep():
    v = "d"
    def l1():
        def l2():
            def l3():
                return v
            return l3()
        return l2()
    return l1()
print(deep())
def param_cell(p):
    def inner():
        return p * 2
    p = p + 1
    return inner()
print(param_cell(5))
def loop_closures():
    fns = []
    for i in range(3):
        def make(j=i):
            return lambda: j
        fns.append(make())
    return [f() for f in fns]
print(loop_closures())
def unbound_free():
    def inner():
        return later
    try:
        inner()
    except NameError as e:
        print("NameError:", e)
    later = 1
    return inner()
print(unbound_free())
def class_in_func():
    k = 7
    class C:
        val = k
        def m(self):
            return k + 1
    return C.val, C().m()
print(class_in_func())
