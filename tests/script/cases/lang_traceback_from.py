def load(key):
    table = {"a": 1}
    try:
        return table[key]
    except KeyError as e:
        raise LookupError(f"cannot load {key}") from e
load("a")
load("b")
