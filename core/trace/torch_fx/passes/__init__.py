# torch.fx.passes for FX Editor's front end: the graph passes written in Python (so far
# shape_prop).
from torch.fx.passes import shape_prop
