"""Goldens for real models: each variant of models/cases.py is built from our model files in
models/ and from torchvision 0.14 with the same seed; both must trace to the same gm.code and
print_tabular and hold the same parameters (which proves the model files faithful). Writes
goldens/models/NAME.code, NAME.tabular, NAME.out (output on a fixed input, for a few) or
NAME.error (the last line of torch.fx's error), and goldens/models/index, one "NAME SCRIPT"
line per variant, for test-models.c. Object addresses in print_tabular become 0xADDRESS, as
test-models.c does to fx's output. Run with /usr/bin/python3 (PyTorch 1.13):

    cd tests/conformance && /usr/bin/python3 gen_models.py [NAME...]
"""
import contextlib
import importlib
import io
import os
import re
import sys

import torch
import torchvision.models

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "models"))
# Our torchvision-style model files ship with libfx as `torchvision.models` (core/trace/);
# here they are imported by file name, next to the real torchvision they are checked against.
sys.path.insert(0, os.path.join(HERE, "..", "..", "core", "trace", "torchvision", "models"))
import cases  # noqa: E402

OUT_DIR = os.path.join(HERE, "goldens", "models")
TORCHVISION_MODULES = {"alexnet", "densenet", "mnasnet", "mobilenetv2", "resnet", "squeezenet",
                       "vgg"}


def captured(fn, *args):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args)
    return re.sub(r" at 0x[0-9a-f]+>", " at 0xADDRESS>", buf.getvalue())


def same_parameters(ours, theirs):
    a, b = ours.state_dict(), theirs.state_dict()
    return list(a) == list(b) and all(torch.equal(a[k], b[k]) for k in a)


def generate(name):
    module_name, factory, kwargs, shape = cases.VARIANTS[name]
    ours = cases.build(importlib.import_module(module_name), name)
    gm, error = cases.trace(ours)
    # torchvision's counterpart, when there is one (lenet.py's tutorial nets have none)
    gm_tv = error_tv = None
    if module_name in TORCHVISION_MODULES:
        torch.manual_seed(0)
        theirs = getattr(torchvision.models, factory)(**kwargs)
        assert same_parameters(ours, theirs), f"{name}: parameters differ from torchvision's"
        gm_tv, error_tv = cases.trace(theirs)
        assert error == error_tv, f"{name}: {error!r} but torchvision's {error_tv!r}"
    for old in os.listdir(OUT_DIR):
        if old.startswith(name + "."):
            os.remove(os.path.join(OUT_DIR, old))
    files = {}
    if error is not None:
        files["error"] = error + "\n"
    else:
        files["code"] = captured(cases.print_code, gm)
        files["tabular"] = captured(cases.print_tabular, gm)
        if gm_tv is not None:
            assert files["code"] == captured(cases.print_code, gm_tv), \
                f"{name}: gm.code differs"
            assert files["tabular"] == captured(cases.print_tabular, gm_tv), \
                f"{name}: print_tabular differs"
        if shape is not None:
            # the generator is where cases.run leaves it: right after building the model
            torch.manual_seed(0)
            cases.build(importlib.import_module(module_name), name)
            files["out"] = captured(cases.print_output, gm, name)
    for ext, text in files.items():
        with open(os.path.join(OUT_DIR, f"{name}.{ext}"), "w") as f:
            f.write(text)
    print(f"{name}: {', '.join(files)}")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    for name in sys.argv[1:] or sorted(cases.VARIANTS):
        generate(name)
    with open(os.path.join(OUT_DIR, "index"), "w") as f:
        for name, variant in sorted(cases.VARIANTS.items()):
            f.write(f"{name} trace_{variant[0]}.py\n")


if __name__ == "__main__":
    main()
