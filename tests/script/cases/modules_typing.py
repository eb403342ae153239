import typing
from typing import (Any, Optional, List, Dict, Tuple, Union, Callable, Sequence, Iterable, Iterator, Type,
                    TypeVar, cast, TYPE_CHECKING, Set, Literal)

T = TypeVar("T")
print(List, List[int], Optional[int], Union[int, None], Union[int, str, None], Dict[str, List[int]])
print(Callable[[int], str], Tuple[int, ...], Tuple[int, str], Any, T, Type[int], Literal['a', 1])
print(Sequence[int], Iterable, Callable, Optional, Union[int], Union[int, Union[str, float]], Callable[..., int])
print(Set[str], Iterator[int], typing.Optional[typing.List[int]])
print(TYPE_CHECKING, cast(int, "x"), cast("List[int]", [1]))

def f(x: List[int], y: Optional[Dict[str, Any]] = None) -> Tuple[int, ...]:
    return tuple(x)

print(f([1, 2]))

class Box(typing.Generic[T]):
    def __init__(self, v: T):
        self.v = v

print(Box(3).v)
try:
    List()
except TypeError as e:
    print("TypeError:", e)
from typing import get_origin, get_args
print(get_origin(List[int]), get_args(Dict[str, int]), get_origin(Optional[int]), get_args(Optional[int]))
print(get_args(Callable[[int, str], float]), get_args(Tuple[int, ...]), get_origin(int), get_args(int), get_origin(List))
print(get_args(Union[int, str, None]), get_origin(Union[int, str]))
