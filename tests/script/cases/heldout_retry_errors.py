class ServiceError(Exception):
    """Base class for all errors of the fake service."""

    def __init__(self, message, *, code=None):
        super().__init__(message)
        self.code = code

    def __str__(self):
        base = super().__str__()
        return f"[{self.code}] {base}" if self.code is not None else base


class TransientError(ServiceError):
    pass


class RateLimited(TransientError):
    def __init__(self, retry_after):
        super().__init__(f"rate limited, retry after {retry_after}s", code=429)
        self.retry_after = retry_after


class FatalError(ServiceError):
    pass


def retry(times, exceptions=(TransientError,)):
    def wrap(fn):
        def inner(*args, **kwargs):
            last = None
            for attempt in range(1, times + 1):
                try:
                    return fn(*args, attempt=attempt, **kwargs)
                except exceptions as e:
                    print(f"  attempt {attempt} failed: {type(e).__name__}: {e}")
                    last = e
            raise FatalError(f"gave up after {times} attempts", code=500) from last
        inner.__name__ = fn.__name__
        return inner
    return wrap


@retry(3)
def flaky(succeed_on, attempt=0):
    if attempt < succeed_on:
        if attempt % 2:
            raise RateLimited(retry_after=attempt * 2)
        raise TransientError("connection reset", code=503)
    return f"ok on attempt {attempt}"


print(flaky(2))
try:
    flaky(5)
except FatalError as e:
    print("fatal:", e, "| caused by:", repr(e.__cause__))
    print(isinstance(e.__cause__, ServiceError), e.__cause__.retry_after)

errors = [RateLimited(1), TransientError("x"), FatalError("boom", code=1), ValueError("v")]
for err in errors:
    try:
        raise err
    except TransientError as e:
        kind = "transient"
    except ServiceError as e:
        kind = "service"
    except Exception as e:
        kind = "other"
    finally:
        pass
    print(f"{type(err).__name__:<15}{kind:<10}{[c.__name__ for c in type(err).__mro__[:-2]]}")

try:
    try:
        {}["missing"]
    except KeyError:
        raise ServiceError("lookup failed")
except ServiceError as e:
    print(type(e.__context__).__name__, e.__context__, e.args, e.code)
