import torch
from torch.nn.modules.module import Module
from torch.nn.modules.container import Sequential, ModuleList
from torch.nn.modules.batchnorm import BatchNorm2d
import torch.nn.modules.conv as conv
import torch.nn as nn
print(Module is nn.Module, Sequential, ModuleList, BatchNorm2d, conv.Conv2d is nn.Conv2d)
print(nn.modules.linear.Linear)
print(torch.nn.Linear(1, 1))
from torch.nn import Module, Linear, functional as F
import torch.nn.functional as F2
import torch.nn.init as init
from torch import nn
from torch.nn.parameter import Parameter
from torch.nn.modules import Conv2d
print(Module, Linear, F is F2, Parameter, Conv2d, nn.init is init, nn.functional is F)
print(nn.Module.__module__, nn.Linear.__module__, nn.Sequential.__qualname__, nn.Parameter.__module__)
print(nn.Linear.__mro__)
print(issubclass(nn.Linear, nn.Module), issubclass(nn.Parameter, torch.Tensor))
