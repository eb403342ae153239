class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, key):
        super().__init__(f"missing {key}")
        self.key = key
try:
    raise NotFound("k")
except AppError as e:
    print(type(e).__name__, e, e.key, e.args)
class WithStr(Exception):
    def __str__(self):
        return "custom str"
try:
    raise WithStr(1, 2)
except Exception as e:
    print(e, e.args, repr(e))
print(issubclass(NotFound, Exception), issubclass(NotFound, BaseException))
print(repr(ValueError("a", 1)), str(ValueError()), str(KeyError("k")))
try:
    try:
        raise ValueError("inner")
    except ValueError:
        raise
except ValueError as e:
    print("reraised", e)
def check():
    try:
        raise AppError("first")
    except AppError as e:
        return e
err = check()
print(type(err).__name__, err)
try:
    raise err
except AppError as e2:
    print(e2 is err)
try:
    raise 5
except TypeError as e:
    print("TypeError:", e)
class NotExc: pass
try:
    raise NotExc()
except TypeError as e:
    print("TypeError:", e)
try:
    raise AppError
except AppError as e:
    print(repr(e))
