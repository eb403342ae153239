# `fx run trace_vgg.py VARIANT`: traces a variant of vgg.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.vgg

# (torchvision.models.vgg the attribute may be a factory function of the same name)
vgg = sys.modules["torchvision.models.vgg"]
import cases

cases.run(vgg, sys.argv[1])
