# `fx run trace_alexnet.py VARIANT`: traces a variant of alexnet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.alexnet

# (torchvision.models.alexnet the attribute may be a factory function of the same name)
alexnet = sys.modules["torchvision.models.alexnet"]
import cases

cases.run(alexnet, sys.argv[1])
