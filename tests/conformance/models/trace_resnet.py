# `fx run trace_resnet.py VARIANT`: traces a variant of resnet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import resnet
import cases

cases.run(resnet, sys.argv[1])
