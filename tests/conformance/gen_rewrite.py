#!/usr/bin/python3
"""gen_rewrite.py: records what PyTorch 1.13's subgraph rewriter prints for each case script
rewrite/NAME.py (replace_pattern's matches, the rewritten gm.code and graph, its errors).
test-rewrite.c runs the same scripts under `fx run` and compares with these goldens.

Each rewrite/NAME.py is recorded exactly as gen_seeds.py records a seed (same interpreter,
environment and normalisation), into goldens/rewrite/NAME.out (+ NAME.exit when not 0).

Usage: tests/conformance/gen_rewrite.py [NAME.py ...]   (default: every rewrite/*.py)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_seeds  # noqa: E402

# gen_seeds.record works on its module's directories: point them at the rewrite cases.
gen_seeds.SEEDS = os.path.join(HERE, 'rewrite')
gen_seeds.GOLDENS = os.path.join(HERE, 'goldens', 'rewrite')

if __name__ == '__main__':
    gen_seeds.main()
