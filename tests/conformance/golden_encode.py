"""Shared encoding of values into the golden JSON files that libfx's tests read.

Run only by the golden generators (with PyTorch 1.13 under /usr/bin/python3); CI reads the
committed JSON and never needs PyTorch.

Value encoding (JSON):
  None, true/false, ints, floats       as JSON (floats always carry a '.' or exponent)
  non-finite float                     {"float": "nan" | "inf" | "-inf"}
  str                                  {"str": "..."}
  tuple / list                         {"tuple": [v, ...]} / {"list": [v, ...]}
  named tuple (torch.return_types.X)   {"tuple": [...], "type": "torch.return_types.max"}
  torch.Size                           {"size": [2, 3]}
  dict                                 {"dict": [[k, v], ...]}
  slice                                {"slice": [start, stop, step]}
  Ellipsis                             {"ellipsis": true}
  dtype                                {"dtype": "float32"}
  tensor                               {"tensor": {"dtype": "float32", "shape": [2, 3],
                                         "data": [flat row-major values; non-finite as
                                                  "nan"/"inf"/"-inf"],
                                         "view": optional list of steps applied after
                                                 building the contiguous tensor, to make
                                                 non-contiguous inputs:
                                                 ["t"], ["permute", [1, 0, 2]],
                                                 ["transpose", 0, 1],
                                                 ["slice", dim, start, stop, step],
                                                 ["expand", [4, 3]]},
                                         "requires_grad": optional bool}
A case:
  {"id": "...", "op": "torch.add" | "Tensor.add" | "operator.add" | ...,
   "args": [...], "kwargs": {name: v},
   "expect": v, "rtol": 1e-5, "atol": 1e-6            (tolerances optional)
   or "error": {"type": "RuntimeError", "message": "..."}}
   "seed": optional int: torch.manual_seed(seed) is called right before the op.
"""
import json
import math

import torch


def _float(x):
    if math.isnan(x):
        return {"float": "nan"}
    if math.isinf(x):
        return {"float": "inf" if x > 0 else "-inf"}
    return float(x)


def _flat(t):
    out = []
    for x in t.reshape(-1).tolist():
        if isinstance(x, float) and not math.isfinite(x):
            out.append("nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))
        else:
            out.append(x)
    return out


def dtype_name(d):
    return str(d).replace("torch.", "")


def encode_tensor(t, view=None):
    src = t.detach().contiguous()
    enc = {"dtype": dtype_name(t.dtype), "shape": list(t.shape), "data": _flat(src)}
    if view:
        enc["view"] = view
    if t.requires_grad:
        enc["requires_grad"] = True
    return {"tensor": enc}


def encode(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return _float(v)
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, torch.Tensor):
        return encode_tensor(v)
    if isinstance(v, torch.dtype):
        return {"dtype": dtype_name(v)}
    if isinstance(v, torch.Size):
        return {"size": list(v)}
    if isinstance(v, slice):
        return {"slice": [encode(v.start), encode(v.stop), encode(v.step)]}
    if v is Ellipsis:
        return {"ellipsis": True}
    if isinstance(v, tuple):
        enc = {"tuple": [encode(x) for x in v]}
        tname = type(v).__module__ + "." + type(v).__name__
        if type(v) is not tuple:
            enc["type"] = tname
        return enc
    if isinstance(v, list):
        return {"list": [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[encode(k), encode(x)] for k, x in v.items()]}
    raise TypeError(f"cannot encode {type(v)}")


def make_input(t, view=None):
    """A tensor argument: encodes the contiguous base, and applies `view` steps (see module
    doc) so the op sees the same non-contiguous tensor that libfx will build."""
    base = t.contiguous()
    enc = encode_tensor(base, view)
    v = base
    for step in view or []:
        name = step[0]
        if name == "t":
            v = v.t()
        elif name == "permute":
            v = v.permute(*step[1])
        elif name == "transpose":
            v = v.transpose(step[1], step[2])
        elif name == "slice":
            dim, start, stop, step_ = step[1:]
            idx = [slice(None)] * v.dim()
            idx[dim] = slice(start, stop, step_)
            v = v[tuple(idx)]
        elif name == "expand":
            v = v.expand(*step[1])
        else:
            raise ValueError(name)
    return enc, v


class Cases:
    """Collects cases; `add` runs the op under PyTorch and records what it returned or raised."""

    def __init__(self):
        self.cases = []

    def add(self, case_id, op, fn, args_enc, kwargs_enc, call, rtol=None, atol=None, seed=None):
        case = {"id": case_id, "op": op, "args": args_enc, "kwargs": kwargs_enc}
        if seed is not None:
            case["seed"] = seed
            torch.manual_seed(seed)
        try:
            result = call()
            case["expect"] = encode(result)
            if rtol is not None:
                case["rtol"] = rtol
            if atol is not None:
                case["atol"] = atol
        except Exception as e:  # the error PyTorch raises is the golden
            case["error"] = {"type": type(e).__name__, "message": str(e).split("\n")[0]}
        self.cases.append(case)

    def write(self, path):
        with open(path, "w") as f:
            json.dump({"torch_version": torch.__version__, "cases": self.cases}, f, indent=0,
                      allow_nan=False)
            f.write("\n")
