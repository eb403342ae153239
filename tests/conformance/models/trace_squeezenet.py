# `fx run trace_squeezenet.py VARIANT`: traces a variant of squeezenet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.squeezenet

# (torchvision.models.squeezenet the attribute may be a factory function of the same name)
squeezenet = sys.modules["torchvision.models.squeezenet"]
import cases

cases.run(squeezenet, sys.argv[1])
