"""Checks that folders written by libfx's fx_graph_module_to_folder import and run under real
PyTorch 1.13 (CI has no PyTorch, so this is run by hand after changing to-folder.c):

    FX_TO_FOLDER_OUT=/tmp/fx-folders /tmp/build/tests/core/test-to-folder
    cd tests/conformance && /usr/bin/python3 check_to_folder.py /tmp/fx-folders

For each folder (one per GraphModule that test-to-folder.c builds: safe, nested), imports the
package, instantiates the class (which loads state_dict.pt with torch.load), checks its
state_dict against the file, and runs forward next to the same GraphModule built with torch
(gen_to_folder.py's builders) given the same weights: outputs must match.
"""
import importlib
import sys

import torch

import gen_to_folder


def check(root, name):
    mod = importlib.import_module(name)
    ours = mod.MyModel()
    saved = torch.load(f"{root}/{name}/state_dict.pt")
    sd = ours.state_dict()
    for k, v in sd.items():
        assert k in saved, f"{name}: {k} missing from state_dict.pt"
        assert torch.equal(v, saved[k]), f"{name}: {k} differs"
    ref = getattr(gen_to_folder, "build_" + name)()
    missing, unexpected = ref.load_state_dict(saved, strict=False)
    assert not missing, f"{name}: torch's GraphModule misses {missing}"
    ours.eval()
    ref.eval()
    inputs = gen_to_folder.INPUTS[name]()
    with torch.no_grad():
        a = ours(*inputs)
        b = ref(*inputs)
    assert torch.allclose(a, b), f"{name}: outputs differ\n{a}\n{b}"
    print(f"ok {name}: {type(ours).__name__} loads {len(sd)} tensors and forward matches torch "
          f"(output {tuple(a.shape)})")


def main():
    root = sys.argv[1]
    sys.path.insert(0, root)
    names = ["safe", "nested"]
    failed = 0
    for name in names:
        try:
            check(root, name)
        except Exception as e:  # report every folder
            failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}")
    print(f"{len(names) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
