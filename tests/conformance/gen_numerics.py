"""Numerics goldens: what the bundled torchvision architectures compute, for test-numerics.c.
Run from tests/conformance with /usr/bin/python3 (PyTorch 1.13, torchvision):

    cd tests/conformance && /usr/bin/python3 gen_numerics.py

For each family it builds the model after torch.manual_seed(0), puts it in eval() mode, runs
one deterministic input — torch.linspace(-2, 2, numel).reshape(1, 3, 64, 64), what
`fx exec --input 'linspace(-2,2):1x3x64x64'` makes — and writes the output (all 1000 logits,
float32) to goldens/numerics/NAME.safetensors, with the model name and the input SPEC in its
__metadata__. test-numerics.c builds the same model under `fx run` with the same seed (libfx
draws its initial weights as torch does, draw for draw), saves its state dict, runs
`fx exec` with those weights and compares with allclose(rtol=1e-4, atol=1e-5).

It also writes ../script/cases/weights_tiny.pt — a small state dict saved by torch itself, read
by the script cases and by `fx exec` in test-cli.c — and goldens/numerics/tiny.safetensors,
the output torch computes with it.

The safetensors package is not in Debian, so this script writes and reads the format by hand
(8-byte little-endian header length, JSON header, raw data). `--check-fx FX` cross-checks
libfx's writer and its initialisation: it has `FX run` save resnet18's seeded state dict with
safetensors.torch.save_file, reads it with the reader below and compares every tensor with
torch's own.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import torch
import torchvision

OUT = "goldens/numerics"
SPEC_SHAPE = (1, 3, 64, 64)
SPEC = "linspace(-2,2):1x3x64x64"
FAMILIES = ["resnet18", "vgg11", "alexnet", "squeezenet1_0", "densenet121", "mnasnet0_5",
            "mobilenet_v2"]

DTYPES = {torch.float32: "F32", torch.float64: "F64", torch.int64: "I64", torch.int32: "I32",
          torch.bool: "BOOL", torch.uint8: "U8", torch.float16: "F16"}
TORCH_DTYPES = {v: k for k, v in DTYPES.items()}


def write_safetensors(path, tensors, metadata=None):
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name, t in tensors.items():
        data = t.contiguous().numpy().tobytes()
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    out = {}
    for name, info in header.items():
        a, b = info["data_offsets"]
        dtype = TORCH_DTYPES[info["dtype"]]
        t = torch.frombuffer(bytearray(data[a:b]), dtype=dtype) if b > a else \
            torch.empty(0, dtype=dtype)
        out[name] = t.reshape(info["shape"]).clone()
    return out, meta


def spec_input():
    n = 1
    for s in SPEC_SHAPE:
        n *= s
    return torch.linspace(-2, 2, n).reshape(SPEC_SHAPE)


def family(name):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().eval()
    with torch.no_grad():
        y = model(spec_input())
    path = os.path.join(OUT, name + ".safetensors")
    write_safetensors(path, {"output": y.float()},
                      {"model": name, "input": SPEC, "torch": torch.__version__})
    back, meta = read_safetensors(path)
    assert torch.equal(back["output"], y) and meta["input"] == SPEC
    print(name, tuple(y.shape), "%.6f" % float(y.std()))


def tiny():
    sys.path.insert(0, "../script/cases")
    from weights_tiny import Tiny
    torch.manual_seed(3)
    m = Tiny()
    # non-trivial running statistics, so that loading buffers matters
    m.train()
    with torch.no_grad():
        m(torch.randn(4, 2, 4, 4))
    m.eval()
    torch.save(m.state_dict(), "../script/cases/weights_tiny.pt")
    x = torch.linspace(-1, 1, 2 * 2 * 4 * 4).reshape(2, 2, 4, 4)
    with torch.no_grad():
        y = m(x)
    write_safetensors(os.path.join(OUT, "tiny.safetensors"), {"output": y},
                      {"input": "linspace(-1,1):2x2x4x4", "torch": torch.__version__})
    print("tiny", tuple(y.shape))


def check_fx(fx):
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "w.py")
        out = os.path.join(d, "w.safetensors")
        with open(script, "w") as f:
            f.write("import sys, torch, torchvision\n"
                    "from safetensors.torch import save_file\n"
                    "torch.manual_seed(0)\n"
                    "save_file(torchvision.models.resnet18().state_dict(), sys.argv[1])\n")
        subprocess.run([fx, "run", script, out], check=True)
        got, _ = read_safetensors(out)
    torch.manual_seed(0)
    want = torchvision.models.resnet18().state_dict()
    assert list(got) == list(want), (list(got)[:5], list(want)[:5])
    for k, v in want.items():
        assert got[k].dtype == v.dtype and got[k].shape == v.shape, k
        assert torch.allclose(got[k], v, rtol=1e-6, atol=1e-7), k
    print("fx's resnet18 state dict matches torch's:", len(want), "tensors")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check-fx":
        check_fx(sys.argv[2])
        sys.exit(0)
    os.makedirs(OUT, exist_ok=True)
    for name in FAMILIES:
        family(name)
    tiny()
