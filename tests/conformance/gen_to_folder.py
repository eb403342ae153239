"""Goldens for fx_graph_module_to_folder (core/ir/to-folder.c): the module.py that torch.fx 1.13's
GraphModule.to_folder writes for GraphModules whose children all have "safe" reprs (Linear,
Conv, BatchNorm), built here with the Graph API exactly as test-to-folder.c builds them in C.
Run with /usr/bin/python3:   cd tests/conformance && /usr/bin/python3 gen_to_folder.py

The folder is written as the relative path "FOLDER"; the test puts its own folder's path there.
check_to_folder.py imports these builders to run folders written by libfx against torch.
"""
import json
import operator
import os
import tempfile

import torch
import torch.fx


def build_safe():
    """Conv2d → BatchNorm2d, Linear → relu, a buffer times a parameter, a method call."""
    root = torch.nn.Module()
    root.conv = torch.nn.Conv2d(1, 2, 3, stride=2)
    root.bn = torch.nn.BatchNorm2d(2)
    root.lin = torch.nn.Linear(3, 4)
    root.register_buffer("buf", torch.ones(4))
    root.p = torch.nn.Parameter(torch.zeros(4))
    g = torch.fx.Graph()
    x = g.placeholder("x")
    y = g.placeholder("y")
    conv = g.call_module("conv", (y,))
    bn = g.call_module("bn", (conv,))
    lin = g.call_module("lin", (x,))
    relu = g.call_function(torch.relu, (lin,))
    p = g.get_attr("p")
    buf = g.get_attr("buf")
    mul = g.call_function(operator.mul, (buf, p))
    add = g.call_function(operator.add, (relu, mul))
    s = g.call_method("sum", (bn,))
    add_1 = g.call_function(operator.add, (add, s))
    g.output(add_1)
    return torch.fx.GraphModule(root, g)


def build_nested():
    """Layers inside plain containers (1.13 would pickle those), a layer without a safe repr,
    a parameter of a plain submodule."""
    root = torch.nn.Module()
    root.layer1 = torch.nn.Sequential(torch.nn.Conv2d(2, 2, 3, padding=1), torch.nn.ReLU())
    root.pool = torch.nn.MaxPool2d(2)
    root.block = torch.nn.Module()
    root.block.scale = torch.nn.Parameter(torch.ones(1))
    g = torch.fx.Graph()
    x = g.placeholder("x")
    c = g.call_module("layer1.0", (x,))
    r = g.call_module("layer1.1", (c,))
    pl = g.call_module("pool", (r,))
    sc = g.get_attr("block.scale")
    mul = g.call_function(operator.mul, (pl, sc))
    g.output(mul)
    return torch.fx.GraphModule(root, g)


INPUTS = {
    "safe": lambda: (torch.arange(6.0).reshape(2, 3) / 5, torch.arange(50.0).reshape(2, 1, 5, 5) / 50),
    "nested": lambda: (torch.arange(72.0).reshape(1, 2, 6, 6) / 72 - 0.5,),
}


def main():
    cases = []
    here = os.getcwd()
    for name, build in [("safe", build_safe)]:
        gm = build()
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            try:
                gm.to_folder("FOLDER", "MyModel")
                with open("FOLDER/module.py") as f:
                    module_py = f.read()
                with open("FOLDER/__init__.py") as f:
                    init_py = f.read()
            finally:
                os.chdir(here)
        cases.append({"id": name, "module_py": module_py, "init_py": init_py,
                      "state_dict": list(gm.state_dict().keys())})
    with open("goldens/to_folder.json", "w") as f:
        json.dump({"torch_version": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    print("%d cases" % len(cases))


if __name__ == "__main__":
    main()
