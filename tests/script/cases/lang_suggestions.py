class P:
    def __init__(self):
        self.value = 1
try:
    P().valeu
except AttributeError as e:
    print(e)
def compute(value):
    total = 0
    return totl + value
compute(1)
