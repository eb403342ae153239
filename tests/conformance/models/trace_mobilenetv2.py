# `fx run trace_mobilenetv2.py VARIANT`: traces a variant of mobilenetv2.py (see cases.py) and prints what
# goldens/models/VARIANT.* hold; test-models.c compares the two.
import sys

import mobilenetv2
import cases

cases.run(mobilenetv2, sys.argv[1])
