count = 0
def bump():
    nonlocal count
    count += 1
