# OrderedDict's keys, values and items views print as odict_keys, odict_values, odict_items
# (state dicts are OrderedDicts) and still work as views.
from collections import OrderedDict, defaultdict, Counter
import torch
o = OrderedDict(a=1, b=2)
print(o.keys(), o.values(), o.items(), list(o.keys()), 'a' in o.keys(), len(o.values()))
print(o.keys() == {'a', 'b'}, o.keys() & {'a'})
print(defaultdict(int, a=1).keys(), Counter('ab').items(), dict(a=1).keys())
print(torch.nn.Linear(1, 1).state_dict().keys())
