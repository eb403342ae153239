#!/usr/bin/python3
"""gen_trace_cases.py: records what PyTorch 1.13 prints for the tracer cases in trace_cases/
(goldens/trace_cases/NAME.out, stdout and stderr merged, object addresses made 0xADDR);
test-trace-cases.c runs the same scripts under `fx run` and compares.

Debian's Python is 3.11, where 1.13's _patch_function (which rebuilds the code object of a
root with *args / **kwargs / keyword-only parameters) passes CodeType the arguments of
Python <= 3.10 and fails with "code() argument 13 must be str, not int". The cases run with
that one function replaced by the same rewrite through CodeType.replace, i.e. what 1.13 does
on the Pythons it supports; everything else is 1.13's own.

Usage: tests/conformance/gen_trace_cases.py [NAME.py ...]   (default: every trace_cases/*.py)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, 'trace_cases')
GOLDENS = os.path.join(HERE, 'goldens', 'trace_cases')
PYTHON = os.environ.get('PYTHON', '/usr/bin/python3')


def run_case(script):
    """In the child: fix _patch_function for Python 3.11, then run the case as __main__."""
    import inspect
    import runpy
    from types import FunctionType
    import torch.fx._symbolic_trace as st

    def patch_function(fn, nargs):
        co = fn.__code__
        flags = co.co_flags & ~(inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
        code = co.replace(co_argcount=nargs, co_posonlyargcount=0, co_kwonlyargcount=0,
                          co_flags=flags)
        return FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__,
                            fn.__closure__)
    st._patch_function = patch_function
    runpy.run_path(script, run_name='__main__')


def record(script):
    name = script[:-3]
    proc = subprocess.run([PYTHON, '-u', os.path.abspath(__file__), '--run', script],
                          cwd=CASES, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    text = re.sub(r'0x[0-9a-fA-F]+', '0xADDR', proc.stdout.decode('utf-8'))
    if proc.returncode != 0:
        sys.exit(f'{script}: exit {proc.returncode}\n{text}')
    with open(os.path.join(GOLDENS, name + '.out'), 'w', encoding='utf-8') as f:
        f.write(text)
    print(f'{script}: {len(text.splitlines())} lines')


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--run':
        run_case(sys.argv[2])
        return
    os.makedirs(GOLDENS, exist_ok=True)
    scripts = [os.path.basename(a) for a in sys.argv[1:]]
    if not scripts:
        scripts = sorted(f for f in os.listdir(CASES) if f.endswith('.py'))
    for script in scripts:
        record(script)


if __name__ == '__main__':
    main()
