# `fx run trace_resnet.py VARIANT`: traces a variant of resnet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.resnet

# (torchvision.models.resnet the attribute may be a factory function of the same name)
resnet = sys.modules["torchvision.models.resnet"]
import cases

cases.run(resnet, sys.argv[1])
