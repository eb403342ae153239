# contextlib for FX Editor's front end: contextmanager, nullcontext, suppress, closing,
# redirect-free ExitStack. Behaviour as CPython 3.11's; the implementation is FX Editor's own.

__all__ = ['contextmanager', 'nullcontext', 'suppress', 'closing', 'ExitStack',
           'AbstractContextManager', 'ContextDecorator']


class AbstractContextManager:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return None


class ContextDecorator:
    """Lets a context manager also decorate a function: the call runs inside `with self`."""

    def _recreate_cm(self):
        return self

    def __call__(self, func):
        def inner(*args, **kwds):
            with self._recreate_cm():
                return func(*args, **kwds)
        inner.__name__ = getattr(func, '__name__', 'inner')
        inner.__wrapped__ = func
        return inner


class _GeneratorContextManager(ContextDecorator, AbstractContextManager):
    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)
        self.func, self.args, self.kwds = func, args, kwds

    def _recreate_cm(self):
        return self.__class__(self.func, self.args, self.kwds)

    def __enter__(self):
        del self.args, self.kwds, self.func
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            else:
                raise RuntimeError("generator didn't stop")
        if value is None:
            value = typ()
        try:
            self.gen.throw(typ, value, traceback)
        except StopIteration as exc:
            return exc is not value
        except RuntimeError as exc:
            if exc is value:
                return False
            if isinstance(value, StopIteration) and exc.__cause__ is value:
                return False
            raise
        except BaseException as exc:
            if exc is not value:
                raise
            return False
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)
    helper.__name__ = getattr(func, '__name__', 'helper')
    helper.__wrapped__ = func
    return helper


class nullcontext(AbstractContextManager):
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        pass


class suppress(AbstractContextManager):
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        pass

    def __exit__(self, exctype, excinst, exctb):
        return exctype is not None and issubclass(exctype, self._exceptions)


class closing(AbstractContextManager):
    def __init__(self, thing):
        self.thing = thing

    def __enter__(self):
        return self.thing

    def __exit__(self, *exc_info):
        self.thing.close()


class ExitStack(AbstractContextManager):
    """Callbacks and context managers unwound in reverse order when the block ends."""

    def __init__(self):
        self._exit_callbacks = []

    def enter_context(self, cm):
        result = type(cm).__enter__(cm)
        self._exit_callbacks.append((True, cm))
        return result

    def callback(self, callback, *args, **kwds):
        self._exit_callbacks.append((False, lambda: callback(*args, **kwds)))
        return callback

    def push(self, exit):
        self._exit_callbacks.append((True, exit))
        return exit

    def pop_all(self):
        new_stack = ExitStack()
        new_stack._exit_callbacks = self._exit_callbacks
        self._exit_callbacks = []
        return new_stack

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, *exc_details):
        received_exc = exc_details[0] is not None
        suppressed = False
        pending = None
        while self._exit_callbacks:
            is_cm, cb = self._exit_callbacks.pop()
            try:
                if is_cm:
                    exit_fn = cb.__exit__ if hasattr(cb, '__exit__') else cb
                    if exit_fn(*exc_details):
                        suppressed = True
                        pending = None
                        exc_details = (None, None, None)
                else:
                    cb()
            except BaseException as exc:
                pending = exc
                exc_details = (type(exc), exc, None)
        if pending is not None:
            raise pending
        return received_exc and suppressed
