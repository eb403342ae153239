print("before")
values = [1, 2,
          3
def f():
    return values
