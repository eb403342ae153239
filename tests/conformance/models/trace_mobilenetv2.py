# `fx run trace_mobilenetv2.py VARIANT`: traces a variant of mobilenetv2.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import torchvision.models.mobilenetv2

# (torchvision.models.mobilenetv2 the attribute may be a factory function of the same name)
mobilenetv2 = sys.modules["torchvision.models.mobilenetv2"]
import cases

cases.run(mobilenetv2, sys.argv[1])
