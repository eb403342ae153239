#!/usr/bin/python3
"""gen_seeds.py: records what PyTorch 1.13 prints for every code example of the seeds (the
torch.fx manual in ../shared/seeds/), extracted into seeds/NNN_name.py. test-seeds.c runs the
same scripts under `fx run` and compares with these goldens.

For each seeds/NAME.py: run `/usr/bin/python3 -u NAME.py` with seeds/ as the working
directory, an empty standard input and PYTHONHASHSEED=0; write goldens/seeds/NAME.out (stdout
and stderr merged, in their real order) and goldens/seeds/NAME.exit (the exit status, only
when it is not 0).

The output is normalised before it is written, and test-seeds.c normalises fx's output the
same way before comparing (tests/common/run-script.c, fx_test_normalise_output):
  1. the absolute path of seeds/ followed by '/' is removed (tracebacks and pdb name the
     script by its absolute path);
  2. every object address `0x` + hex digits becomes `0xADDR`;
  3. tracebacks keep only the frames of the script itself: in a block that starts with the
     line "Traceback (most recent call last):", a frame is a line '  File "F", line N, in X'
     plus the lines under it that start with four spaces (source line, carets); frames whose
     F is not the script's bare file name (PyTorch's own files, the standard library, FX
     Editor's embedded modules) are dropped. The block ends at the first line that does not
     start with two spaces: the exception line, which is kept, as is everything after it.

Usage: tests/conformance/gen_seeds.py [NAME.py ...]   (default: every seeds/*.py)
PYTHON overrides the interpreter.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, 'seeds')
GOLDENS = os.path.join(HERE, 'goldens', 'seeds')
PYTHON = os.environ.get('PYTHON', '/usr/bin/python3')
TIMEOUT_SECONDS = 600

ADDRESS = re.compile(r'0x[0-9a-fA-F]+')
FRAME = re.compile(r'  File "(.*)", line \d+, in ')


def filter_tracebacks(text, script):
    out = []
    in_traceback = False
    keep_frame = True
    for line in text.split('\n'):
        if line == 'Traceback (most recent call last):':
            in_traceback = True
            keep_frame = True
            out.append(line)
            continue
        if in_traceback:
            if line.startswith('    '):
                if keep_frame:
                    out.append(line)
                continue
            if line.startswith('  '):
                m = FRAME.match(line)
                keep_frame = m is not None and m.group(1) == script
                if keep_frame:
                    out.append(line)
                continue
            in_traceback = False
        out.append(line)
    return '\n'.join(out)


def normalise(text, directory, script):
    text = text.replace(directory + '/', '')
    text = ADDRESS.sub('0xADDR', text)
    return filter_tracebacks(text, script)


def record(script):
    name = script[:-3]
    env = dict(os.environ, PYTHONHASHSEED='0')
    try:
        proc = subprocess.run([PYTHON, '-u', script], cwd=SEEDS, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        sys.exit(f'{script}: no result after {TIMEOUT_SECONDS} s')
    text = normalise(proc.stdout.decode('utf-8'), SEEDS, script)
    with open(os.path.join(GOLDENS, name + '.out'), 'w', encoding='utf-8') as f:
        f.write(text)
    exit_path = os.path.join(GOLDENS, name + '.exit')
    if proc.returncode != 0:
        with open(exit_path, 'w') as f:
            f.write(f'{proc.returncode}\n')
    elif os.path.exists(exit_path):
        os.remove(exit_path)
    print(f'{script}: exit {proc.returncode}, {len(text.splitlines())} lines')


def main():
    os.makedirs(GOLDENS, exist_ok=True)
    scripts = [os.path.basename(a) for a in sys.argv[1:]]
    if not scripts:
        scripts = sorted(f for f in os.listdir(SEEDS) if f.endswith('.py'))
    for script in scripts:
        record(script)


if __name__ == '__main__':
    main()
