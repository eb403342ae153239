global top
top = 1
def annotated(x: int, *args: str, y: "float" = 2.0, **kw: dict) -> bool:
    return True
print(annotated.__annotations__ if hasattr(annotated, "__annotations__") else None)
print(annotated(1))
def defaults_once(acc={}):
    acc[len(acc)] = 1
    return len(acc)
print(defaults_once(), defaults_once(), defaults_once({}))
def returns_star():
    rest = [2, 3]
    return 1, *rest
print(returns_star())
x = [1, 2, 3]
x[1:2] = [7, 8, 9]
print(x)
x[::2] = [0] * len(x[::2])
print(x)
a = b = c = 5
a += 1
print(a, b, c)
i = 0
data = {}
data["k"] = data.get("k", 0) + 1
print(data)
nested = {"a": {"b": [10, {"c": "deep"}]}}
print(nested["a"]["b"][1]["c"], nested["a"]["b"][-2])
nested["a"]["b"][0] += 5
print(nested)
s = 'quote " inside' + "and ' other" + f'{"mixed"}' + f"{'m2'!r}"
print(s)
print(f"{'{'}{'}'}", f"{{{1}}}", f"{x[0]}{x[-1]:>3}")
matrix = [[1, 2], [3, 4]]
matrix[0][1], matrix[1][0] = matrix[1][0], matrix[0][1]
print(matrix)
k, v = max({"a": 3, "b": 7}.items(), key=lambda kv: kv[1])
print(k, v)
if __name__ == "__main__":
    print("main guard")
d = {"x": 1, "y": 2}
try:
    for key in d:
        d["z" + key] = 0
except RuntimeError as e:
    print("RuntimeError:", e)
print(*enumerate("ab", start=1), sep=";")
w = (
    1
    + 2
    # comment inside parens
    + 3
)
print(w)
print("implicit"
      " joined")
lst = [
    "trailing",
    "comma",
]
print(lst, len(lst))
