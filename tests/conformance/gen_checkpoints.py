"""Checkpoint fixtures for libfx's reader and writer of torch.save files (core/ir/checkpoint.c),
written by real PyTorch 1.13, plus a manifest of what each holds. Run with /usr/bin/python3:

    cd tests/conformance && /usr/bin/python3 gen_checkpoints.py

writes goldens/checkpoints/*.pt and goldens/checkpoints/manifest.json (each file < 4 KB).
test-checkpoint.c loads every fixture and compares it entry by entry with the manifest (dtype,
shape, stride, storage offset, which entries share a storage, requires_grad, values), and
checks that re-saving basic.pt with fx_checkpoint_save gives byte for byte the pickle and
storage records that torch wrote.

The other direction — torch.load reading a file that libfx wrote — cannot run in CI (no
PyTorch there), so a file written by libfx is committed, goldens/checkpoints/fx_written.pt,
and test-checkpoint.c checks that fx_checkpoint_save still writes exactly its records. After a
change to the writer, regenerate it and check it with real torch:

    FX_WRITE_CHECKPOINT_FIXTURE=$PWD/goldens/checkpoints/fx_written.pt \
        /tmp/build/tests/core/test-checkpoint -p /checkpoint/torch-fixtures
    /usr/bin/python3 gen_checkpoints.py --check-fx

--check-fx loads fx_written.pt (fx's re-save of basic.pt) with torch.load and compares it with
torch's own basic.pt: keys, types (Parameter or Tensor), dtypes, shapes, strides, offsets,
storage sharing, requires_grad and values.
"""
import collections
import json
import os
import sys
import zipfile

import torch

OUT = "goldens/checkpoints"


def basic():
    """Every dtype, views sharing a storage, non-contiguous strides, 0-d and empty tensors,
    a Parameter and one tensor object stored twice."""
    sd = collections.OrderedDict()
    w = torch.nn.Parameter(torch.arange(6, dtype=torch.float32).reshape(2, 3) / 4)
    sd["w"] = w
    base = torch.arange(10, dtype=torch.int64) - 3
    sd["slice"] = base[2:5]
    sd["transposed"] = base.view(2, 5).t()
    sd["scalar"] = torch.tensor(3.25, dtype=torch.float64)
    sd["half"] = torch.tensor([1.5, -2.0, 65504.0], dtype=torch.float16)
    sd["flags"] = torch.tensor([True, False, True])
    sd["bytes"] = torch.tensor([0, 7, 255], dtype=torch.uint8)
    sd["chars"] = torch.tensor([-128, 0, 127], dtype=torch.int8)
    sd["shorts"] = torch.tensor([[-300], [400]], dtype=torch.int16)
    sd["ints"] = torch.tensor([2 ** 31 - 1, -2 ** 31], dtype=torch.int32)
    sd["empty"] = torch.zeros(0, 3)
    sd["expanded"] = torch.tensor([1.0, 2.0, 3.0]).expand(2, 3)
    sd["big_offset"] = torch.arange(300, dtype=torch.float32)[260:]
    sd["tied"] = w
    return sd


def module_state_dict():
    """What model.state_dict() gives: detached tensors and the _metadata attribute."""
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    return m.state_dict()


def grad_protocol4():
    """A plain dict, a (non-Parameter) tensor that requires grad, pickle protocol 4."""
    return {"g": torch.ones(2, 2, requires_grad=True), "h": torch.arange(4, dtype=torch.int32)}


def nested():
    return {"epoch": 3, "lr": 0.125, "name": "run", "shape": (2, 3), "flags": [True, None],
            "model": collections.OrderedDict(x=torch.ones(2))}


def bad_global():
    return {"act": torch.nn.ReLU()}


FIXTURES = [
    ("basic", basic, {}),
    ("state_dict", module_state_dict, {}),
    ("grad_protocol4", grad_protocol4, {"pickle_protocol": 4}),
    ("nested", nested, {}),
    ("bad_global", bad_global, {}),
]


def describe(sd):
    """Manifest entries for a dict of tensors, storages numbered in order of first use."""
    storages = {}
    entries = []
    for key, t in sd.items():
        ptr = t.storage().data_ptr() if t.numel() else ("empty", key)
        group = storages.setdefault(ptr, len(storages))
        entries.append({
            "key": key,
            "dtype": str(t.dtype).replace("torch.", ""),
            "shape": list(t.shape),
            "stride": list(t.stride()),
            "offset": t.storage_offset(),
            "storage": group,
            "requires_grad": t.requires_grad,
            "parameter": isinstance(t, torch.nn.Parameter),
            "values": t.detach().reshape(-1).tolist(),
        })
    return entries


def records(path):
    """Record name (without the archive folder) → bytes."""
    with zipfile.ZipFile(path) as z:
        return {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}


def check_fx():
    ours = torch.load(os.path.join(OUT, "fx_written.pt"))
    theirs = torch.load(os.path.join(OUT, "basic.pt"))
    assert list(ours.keys()) == list(theirs.keys()), (list(ours.keys()), list(theirs.keys()))
    assert describe(ours) == describe(theirs)
    for k in ours:
        assert type(ours[k]) is type(theirs[k]), k
        assert torch.equal(ours[k], theirs[k]), k
    assert ours["w"] is ours["tied"]
    assert records(os.path.join(OUT, "fx_written.pt")) == records(os.path.join(OUT, "basic.pt"))
    print("torch.load reads fx_written.pt: %d entries identical to torch's own basic.pt "
          "(and the same records byte for byte)" % len(ours))


def main():
    if "--check-fx" in sys.argv:
        check_fx()
        return
    os.makedirs(OUT, exist_ok=True)
    manifest = {"torch_version": torch.__version__, "files": []}
    for name, make, kwargs in FIXTURES:
        obj = make()
        path = os.path.join(OUT, name + ".pt")
        torch.save(obj, path, **kwargs)
        entry = {"file": name + ".pt"}
        if name == "nested":
            entry["epoch"] = obj["epoch"]
            entry["model"] = describe(obj["model"])
        elif name == "bad_global":
            entry["error"] = "unsupported global 'torch.nn.modules.activation.ReLU'"
        else:
            entry["entries"] = describe(obj)
        manifest["files"].append(entry)
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("%d fixtures" % len(FIXTURES))


if __name__ == "__main__":
    main()
