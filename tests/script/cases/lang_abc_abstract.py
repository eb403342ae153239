# abc.ABC refuses to instantiate classes with abstract methods, properties and staticmethods left.
from abc import ABC, abstractmethod
from dataclasses import dataclass
import torch
import torch.nn as nn

class Base(nn.Module, ABC):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
    @abstractmethod
    def head(self, x): ...
    def forward(self, x):
        return self.head(self.lin(x))

class Impl(Base):
    def head(self, x):
        return x.sum(-1)

m = Impl(3)
print(m(torch.ones(2, 3)).shape, isinstance(m, Base), isinstance(m, ABC))
try:
    Base(3)
except TypeError as e:
    print(e)

@dataclass
class Cfg(ABC):
    n: int
    @abstractmethod
    def run(self): ...
    @property
    @abstractmethod
    def name(self): ...
    @staticmethod
    @abstractmethod
    def make(): ...

@dataclass
class Real(Cfg):
    def run(self): return self.n * 2
    @property
    def name(self): return "real"
    @staticmethod
    def make(): return Real(1)
print(Real(4).run(), Real(4), Real.make().name)
try:
    Cfg(1)
except TypeError as e:
    print(e)
class Partial(Cfg):
    def run(self): return 0
try:
    Partial(1)
except TypeError as e:
    print(e)
