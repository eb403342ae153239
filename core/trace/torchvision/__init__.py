# torchvision for FX Editor's front end: only `torchvision.models`, with FX Editor's own model
# files written in torchvision 0.14's layout (same classes, attribute names and forward), so
# scripts such as the torch.fx manual's `models.resnet18()` examples run and trace alike.
__version__ = '0.14.1a0'

from torchvision import models
