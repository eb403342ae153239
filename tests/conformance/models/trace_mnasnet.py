# `fx run trace_mnasnet.py VARIANT`: traces a variant of mnasnet.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import mnasnet
import cases

cases.run(mnasnet, sys.argv[1])
