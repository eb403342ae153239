import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 1), nn.BatchNorm1d(1))
sd = m.state_dict()
print(type(sd))
print(sd)
print(m.state_dict(keep_vars=True)['0.weight'])
print(list(m.state_dict(prefix='model.').keys()))
d = {}
m.state_dict(destination=d, prefix='x.')
print(list(d))
try:
    m.load_state_dict(3)
except TypeError as e:
    print(e)
try:
    m.load_state_dict({'0.weight': 3})
except RuntimeError as e:
    print(e)
try:
    m.train(1)
except ValueError as e:
    print(e)
try:
    m.to(torch.int64)
except TypeError as e:
    print(e)
m2 = copy = None
import copy
m2 = copy.copy(m)
print(m2[0] is m[0], m2 is m)
m3 = copy.deepcopy(m)
print(m3[0] is m[0], m3)
print(isinstance(m3[0].weight, nn.Parameter), m3[0].weight.requires_grad)
