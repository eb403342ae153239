# safetensors.torch.save_file / load_file. The safetensors package is not in Debian: under
# CPython this case falls back to the small reader and writer below (the format written by
# hand), under fx the bundled module runs — both must read and write the same files.
import os

import torch

try:
    from safetensors.torch import load_file, save_file
except ImportError:
    import json
    import struct

    NAMES = {torch.float32: "F32", torch.float64: "F64", torch.int64: "I64", torch.bool: "BOOL"}
    TYPES = {v: k for k, v in NAMES.items()}

    def save_file(tensors, filename, metadata=None):
        header, blobs, offset = {}, [], 0
        if metadata is not None:
            header["__metadata__"] = metadata
        for name, t in tensors.items():
            data = t.contiguous().numpy().tobytes()
            header[name] = {"dtype": NAMES[t.dtype], "shape": list(t.shape),
                            "data_offsets": [offset, offset + len(data)]}
            blobs.append(data)
            offset += len(data)
        text = json.dumps(header, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 8)
        with open(filename, "wb") as f:
            f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))

    def load_file(filename, device="cpu"):
        with open(filename, "rb") as f:
            raw = f.read()
        n = struct.unpack("<Q", raw[:8])[0]
        header = json.loads(raw[8:8 + n])
        header.pop("__metadata__", None)
        out = {}
        for name in sorted(header):
            info = header[name]
            a, b = info["data_offsets"]
            dtype = TYPES[info["dtype"]]
            if b > a:
                t = torch.frombuffer(bytearray(raw[8 + n + a:8 + n + b]), dtype=dtype)
            else:
                t = torch.empty(0, dtype=dtype)
            out[name] = t.reshape(info["shape"]).clone()
        return out

f = os.path.join(os.environ.get("TMPDIR", "/tmp"), "fx_weights_%d.safetensors" % os.getpid())
torch.manual_seed(0)
tensors = {"z.weight": torch.randn(2, 3), "a.bias": torch.arange(3, dtype=torch.int64),
           "mask": torch.tensor([True, False]), "d": torch.randn(2).double(),
           "t": torch.arange(6.).reshape(2, 3).t(), "empty": torch.zeros(0, 2)}
save_file(tensors, f, metadata={"format": "pt"})
back = load_file(f)
print(type(back).__name__, list(back))
for k, v in back.items():
    print(k, v.dtype, tuple(v.shape), torch.equal(v, tensors[k]))

# a file written by gen_numerics.py's own writer, read here
gold = load_file("../../conformance/goldens/numerics/tiny.safetensors")
print(list(gold), gold["output"].shape, gold["output"].dtype)

# a model's weights through safetensors
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
save_file(m.state_dict(), f)
m2 = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
print(m2.load_state_dict(load_file(f)))
print(torch.equal(m2[0].weight, m[0].weight))
os.remove(f)
