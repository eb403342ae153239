print(True and 5, False or [], not 0, True + 1, True / 2, -True, ~True)
print(isinstance(True, int), issubclass(bool, int), type(True + True).__name__)
print(int(True), float(False), str(True), repr(False), bool("False"))
print(1 if 0.0 else 2, [] == False, 0 == False, None == False, bool([[]]))
print(max(True, 2), min(False, -1), sum([True, True, False]), sorted([True, False, 0, 1]))
print(True & False, True | False, True ^ True, 5 & True, hash(True) == hash(1))
print({True: "t", 1: "one"})
x = 0
x += True
print(x, type(x).__name__)
