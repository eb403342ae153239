# `fx run trace_mnasnet.py VARIANT`: traces a variant of mnasnet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.mnasnet

# (torchvision.models.mnasnet the attribute may be a factory function of the same name)
mnasnet = sys.modules["torchvision.models.mnasnet"]
import cases

cases.run(mnasnet, sys.argv[1])
