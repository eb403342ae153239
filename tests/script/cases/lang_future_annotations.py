# from __future__ import annotations: annotations are kept as source strings (forward references work).
from __future__ import annotations
from dataclasses import dataclass, field
from typing import Optional

def f(x: Undefined_Name = 1) -> Foo:
    return x
print(f(), f.__annotations__, annotations is not None)

class Node:
    def __init__(self, value: int, children: list[Node] | None = None) -> None:
        self.value = value
        self.children = children or []
    def add(self, child: Node) -> Node:
        self.children.append(child)
        return self
    def depth(self) -> int:
        return 1 + max((c.depth() for c in self.children), default=0)

root = Node(1).add(Node(2).add(Node(3))).add(Node(4))
print(root.depth(), Node.add.__annotations__)

@dataclass
class Cfg:
    name: str
    size: int = 3
    parent: Optional[Cfg] = None
    tags: list[str] = field(default_factory=list)
print(Cfg("a"), Cfg.__annotations__)
x: SomethingUndefined = 5
print(x, __annotations__)
