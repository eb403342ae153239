# `fx run trace_lenet.py VARIANT`: traces a variant of lenet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import lenet
import cases

cases.run(lenet, sys.argv[1])
