# `fx run trace_alexnet.py VARIANT`: traces a variant of alexnet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import alexnet
import cases

cases.run(alexnet, sys.argv[1])
