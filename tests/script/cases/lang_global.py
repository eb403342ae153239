total = 0
def add(n):
    global total
    total += n
add(3); add(4)
print(total)
def make():
    global created
    created = "yes"
make()
print(created)
CONST = 10
def use_const():
    return CONST * 2
print(use_const())
CONST = 20
print(use_const())
def g():
    global total
    del total
g()
try:
    print(total)
except NameError as e:
    print(e)
