# `fx run trace_densenet.py VARIANT`: traces a variant of densenet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.densenet

# (torchvision.models.densenet the attribute may be a factory function of the same name)
densenet = sys.modules["torchvision.models.densenet"]
import cases

cases.run(densenet, sys.argv[1])
