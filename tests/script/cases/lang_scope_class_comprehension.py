class Table:
    factor = 3
    rows = [i for i in range(3)]
    try:
        scaled = [i * factor for i in range(3)]
    except NameError as e:
        scaled = str(e)
print(Table.rows, Table.scaled)
def func_scope():
    factor = 2
    return [i * factor for i in range(3)]
print(func_scope())
x = 10
def reads_then_comp():
    return [x + i for i in range(2)]
print(reads_then_comp())
def gen_in_func():
    base = 100
    return list(b + base for b in range(2))
print(gen_in_func())
def nested_comp():
    return [[i + j for j in range(i)] for i in range(3)]
print(nested_comp())
v = "module"
def shadow_in_comp():
    return [v for v in range(2)], v
print(shadow_in_comp())
