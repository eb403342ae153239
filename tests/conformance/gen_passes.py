#!/usr/bin/python3
"""gen_passes.py: records what PyTorch 1.13 gives for the graph passes libfx re-makes
(core/rewrite/passes.h): Conv+BatchNorm fusion (torch.fx.experimental.optimization.fuse),
Graph.eliminate_dead_code and constant folding (torch.fx.experimental.const_fold).

1. Every passes/NAME.py runs under /usr/bin/python3 (cwd passes/, PYTHONHASHSEED=0); its
   output (stdout and stderr merged, object addresses made 0xADDR) goes to
   goldens/passes/NAME.out. test-passes.c runs the same scripts under `fx run`.
2. For the models of passes/models/pass_models.py, the generated code after each pass goes to
   goldens/passes/c_MODEL_PASS.code, for tests/core/test-passes.c, which traces the same
   models with fx_trace_file() and runs the C passes:
     fuse: fuse(model).code;  dce: symbolic_trace(model), graph.eliminate_dead_code(),
     recompile(), .code;  fold: split_const_subgraphs(model).code. Fold goldens also get
     c_MODEL_fold.check: the folded module's outputs on a fixed input allclose to the
     model's (True/False).

Usage: tests/conformance/gen_passes.py     PYTHON overrides the interpreter for step 1.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, 'passes')
MODELS = os.path.join(SCRIPTS, 'models')
GOLDENS = os.path.join(HERE, 'goldens', 'passes')
PYTHON = os.environ.get('PYTHON', '/usr/bin/python3')
ADDRESS = re.compile(r'0x[0-9a-fA-F]+')


def record_script(script):
    env = dict(os.environ, PYTHONHASHSEED='0')
    proc = subprocess.run([PYTHON, '-u', script], cwd=SCRIPTS, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    text = ADDRESS.sub('0xADDR', proc.stdout.decode('utf-8').replace(SCRIPTS + '/', ''))
    with open(os.path.join(GOLDENS, script[:-3] + '.out'), 'w', encoding='utf-8') as f:
        f.write(text)
    print(f'{script}: exit {proc.returncode}, {len(text.splitlines())} lines')
    if proc.returncode != 0:
        sys.exit(f'{script} failed under torch')


def write(name, text):
    with open(os.path.join(GOLDENS, name), 'w', encoding='utf-8') as f:
        f.write(text)
    print(name)


def record_models():
    import torch
    import torch.fx as fx
    from torch.fx.experimental.optimization import fuse
    from torch.fx.experimental.const_fold import split_const_subgraphs
    sys.path.insert(0, MODELS)
    import pass_models as pm

    for name in ['resnet', 'conv_bn']:
        write(f'c_{name}_fuse.code', fuse(getattr(pm, name)).code)
    gm = fx.symbolic_trace(pm.dead)
    changed = gm.graph.eliminate_dead_code()
    gm.recompile()
    write('c_dead_dce.code', gm.code)
    write('c_dead_dce.changed', f'{changed}\n')
    torch.manual_seed(4)
    inputs = {'folding': (torch.randn(3, 4), torch.randn(3, 4)), 'fold_one': (torch.randn(3, 4),)}
    for name in ['folding', 'fold_one']:
        model = getattr(pm, name)
        folded = split_const_subgraphs(model)
        write(f'c_{name}_fold.code', folded.code)
        got, want = folded(*inputs[name]), model(*inputs[name])
        if isinstance(want, tuple):
            ok = all(torch.allclose(g, w) for g, w in zip(got, want))
        else:
            ok = torch.allclose(got, want)
        write(f'c_{name}_fold.check', f'{ok}\n')


def main():
    os.makedirs(GOLDENS, exist_ok=True)
    for script in sorted(f for f in os.listdir(SCRIPTS) if f.endswith('.py')):
        record_script(script)
    record_models()


if __name__ == '__main__':
    main()
