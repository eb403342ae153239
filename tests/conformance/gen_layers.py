"""Goldens for libfx's builtin layers (core/ops/layers.c): for each constructor call, what
PyTorch 1.13 builds — repr, parameters/buffers in registration order, state_dict keys, dtypes,
shapes and values after torch.manual_seed(0), the attributes the module keeps — or the error it
raises; and forward outputs on small seeded inputs. Also the constructor signatures, so that
the layer schemas can be checked against inspect.signature.

Run with /usr/bin/python3:   cd tests/conformance && /usr/bin/python3 gen_layers.py
Writes goldens/layers.json.

Encoding: values as in golden_encode.py, plus {"module": {"layer": name, "args": [...],
"kwargs": {...}}} for a layer built in place (arguments of containers); it is built when the
argument is decoded, so its random draws come in Python's evaluation order.

A case: {"id", "layer", "args", "kwargs", "seed": 0, then either "error": {type, message} or
  "repr", "params": [[name, is_set]], "buffers": [[name, is_set, persistent]],
  "children": [[name, is_set]], "state": [[key, dtype, shape, data | null, requires_grad]],
  "attributes": [[name, value]], "forwards": [forward...]}.
A forward: {"args", "kwargs", "train": bool, "seed": optional (manual_seed right before the
  call), "expect" | "error", "state": buffers' [[key, data]] after the call (when any)}.
The module is built once per case and its forwards run in order on it.
"""
import collections
import inspect
import json
import os
import sys

# Some messages print Python sets of strings; their order depends on string hashing.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED="0"))

import torch
import torch.nn as nn

from golden_encode import encode, encode_tensor

MAX_VALUES = 256       # parameter values are recorded for tensors up to this many elements


class M:
    """A layer built as an argument (of Sequential, ModuleList, ...)."""

    def __init__(self, layer, *args, **kwargs):
        self.layer, self.args, self.kwargs = layer, args, kwargs

    def build(self):
        return getattr(nn, self.layer)(*[build(a) for a in self.args],
                                       **{k: build(v) for k, v in self.kwargs.items()})


def build(v):
    if isinstance(v, M):
        return v.build()
    if isinstance(v, list):
        return [build(x) for x in v]
    if isinstance(v, tuple) and type(v) is tuple:
        return tuple(build(x) for x in v)
    if isinstance(v, collections.OrderedDict):
        return collections.OrderedDict((k, build(x)) for k, x in v.items())
    if isinstance(v, dict):
        return {k: build(x) for k, x in v.items()}
    return v


def enc(v):
    if isinstance(v, M):
        return {"module": {"layer": v.layer, "args": [enc(a) for a in v.args],
                           "kwargs": {k: enc(x) for k, x in v.kwargs.items()}}}
    if isinstance(v, list):
        return {"list": [enc(x) for x in v]}
    if isinstance(v, tuple) and type(v) is tuple:
        return {"tuple": [enc(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[enc(k), enc(x)] for k, x in v.items()]}
    return encode(v)


def R(*shape, seed=1, dtype=torch.float32, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=torch.float64) * scale).to(dtype)


def I(*shape, high=5, seed=1):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, high, shape, generator=g)


class F:
    """One forward call: F(x, ..., train=True, seed=None, kw=...)."""

    def __init__(self, *args, train=True, seed=None, **kwargs):
        self.args, self.kwargs, self.train, self.seed = args, kwargs, train, seed


def error_of(e):
    return {"type": type(e).__name__, "message": str(e).split("\n")[0]}


def state_values(m):
    return [[k, encode_tensor(v)["tensor"]["data"]] for k, v in m.state_dict().items()
            if k in dict(m.named_buffers())]


CASES = []


def case(case_id, layer, args=(), kwargs=None, forwards=()):
    kwargs = kwargs or {}
    c = {"id": case_id, "layer": layer, "args": [enc(a) for a in args],
         "kwargs": {k: enc(v) for k, v in kwargs.items()}, "seed": 0}
    torch.manual_seed(0)
    try:
        m = getattr(nn, layer)(*[build(a) for a in args],
                               **{k: build(v) for k, v in kwargs.items()})
    except Exception as e:
        c["error"] = error_of(e)
        CASES.append(c)
        return
    c["repr"] = repr(m)
    c["params"] = [[k, v is not None] for k, v in m._parameters.items()]
    c["buffers"] = [[k, v is not None, k not in m._non_persistent_buffers_set]
                    for k, v in m._buffers.items()]
    c["children"] = [[k, v is not None] for k, v in m._modules.items()]
    params = dict(m.named_parameters())
    state = []
    for k, v in m.state_dict().items():
        data = encode_tensor(v)["tensor"]["data"] if v.numel() <= MAX_VALUES else None
        state.append([k, str(v.dtype).replace("torch.", ""), list(v.shape), data,
                      k in params and params[k].requires_grad])
    c["state"] = state
    c["attributes"] = [[k, encode(v)] for k, v in m.__dict__.items()
                       if not k.startswith("_") and k != "training"]
    fws = []
    for f in forwards:
        fw = {"args": [enc(a) for a in f.args], "kwargs": {k: enc(v) for k, v in f.kwargs.items()},
              "train": f.train}
        m.train(f.train)
        if f.seed is not None:
            fw["seed"] = f.seed
            torch.manual_seed(f.seed)
        # inputs are cloned: in-place layers must not change the recorded arguments
        args = [a.clone() if isinstance(a, torch.Tensor) else a for a in f.args]
        try:
            with torch.no_grad():
                out = m(*args, **f.kwargs)
            fw["expect"] = encode(out)
        except Exception as e:
            fw["error"] = error_of(e)
        if len(m._buffers) or any(len(x._buffers) for x in m.modules()):
            fw["state"] = state_values(m)
        fws.append(fw)
    c["forwards"] = fws
    CASES.append(c)


X4 = R(2, 4)
IMG = R(1, 3, 5, 5, seed=2)

# ---- linear ----
case("linear", "Linear", (4, 5), forwards=[F(X4), F(R(4, seed=3)), F(R(2, 3, 4, seed=4)),
                                            F(R(2, 3, seed=5)), F()])
case("linear_nobias", "Linear", (3, 2), {"bias": False}, forwards=[F(R(5, 3))])
case("linear_kw", "Linear", (), {"in_features": 2, "out_features": 3})
case("linear_f64", "Linear", (4, 3), {"dtype": torch.float64},
     forwards=[F(R(2, 4, dtype=torch.float64))])
case("linear_zero_in", "Linear", (0, 3))
case("linear_bias_int", "Linear", (2, 2, 0))
case("linear_missing", "Linear", (4,))
case("linear_too_many", "Linear", (1, 2, 3, 4, 5, 6))
case("linear_bad_kw", "Linear", (4, 5), {"foo": 1})
case("linear_twice", "Linear", (4,), {"in_features": 3})
case("linear_float", "Linear", (4.0, 5))
case("linear_str", "Linear", (4, "a"))
case("linear_negative", "Linear", (-1, 5))
case("linear_forward_args", "Linear", (2, 2), forwards=[F(input=R(3, 2)), F(R(2), R(2)),
                                                     F(R(2), x=1), F("a")])
case("linear_cpu", "Linear", (2, 1), {"device": "cpu"})
case("bilinear", "Bilinear", (2, 3, 4), forwards=[F(R(5, 2), R(5, 3, seed=2))])
case("bilinear_nobias", "Bilinear", (3, 2, 2), {"bias": False},
     forwards=[F(R(2, 4, 3), R(2, 4, 2, seed=3))])
case("identity", "Identity", (), forwards=[F(X4), F()])
case("identity_args", "Identity", (1, 2), {"a": 3}, forwards=[F(R(3))])

# ---- shape ----
case("flatten", "Flatten", (), forwards=[F(R(2, 3, 4, 5))])
case("flatten_args", "Flatten", (0, -1), forwards=[F(R(2, 3, 4))])
case("flatten_kw", "Flatten", (), {"start_dim": 2}, forwards=[F(R(2, 3, 4, 5)), F(R(2, 3))])
case("unflatten", "Unflatten", (1, (2, 3)), forwards=[F(R(4, 6))])
case("unflatten_list", "Unflatten", (-1, [2, 2]), forwards=[F(R(3, 4))])
case("unflatten_size", "Unflatten", (1, torch.Size([3, 2])), forwards=[F(R(2, 6, 2))])
case("unflatten_int", "Unflatten", (1, 3))
case("unflatten_bad_elem", "Unflatten", (1, (2, "a")))

# ---- convolutions ----
case("conv1d", "Conv1d", (2, 3, 3), forwards=[F(R(1, 2, 6))])
case("conv1d_args", "Conv1d", (2, 4, 3), {"stride": 2, "padding": 1, "bias": False},
     forwards=[F(R(2, 2, 8))])
case("conv2d", "Conv2d", (3, 4, 3), forwards=[F(IMG), F(R(3, 5, 5, seed=3)),
                                               F(R(1, 2, 5, 5, seed=4))])
case("conv2d_resnet_stem", "Conv2d", (3, 64, 7), {"stride": 2, "padding": 3, "bias": False})
case("conv2d_tuples", "Conv2d", (4, 4, (3, 1)),
     {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 1), "groups": 2},
     forwards=[F(R(1, 4, 5, 4))])
case("conv2d_same", "Conv2d", (2, 2, 3), {"padding": "same"}, forwards=[F(R(1, 2, 4, 4))])
case("conv2d_same_even", "Conv2d", (2, 2, 4), {"padding": "same", "dilation": 1},
     forwards=[F(R(1, 2, 5, 5))])
case("conv2d_valid", "Conv2d", (2, 2, 3), {"padding": "valid"}, forwards=[F(R(1, 2, 4, 4))])
case("conv2d_reflect", "Conv2d", (2, 2, 3), {"padding": 1, "padding_mode": "reflect"},
     forwards=[F(R(1, 2, 4, 4))])
case("conv2d_circular", "Conv2d", (2, 2, 3), {"padding": (1, 2), "padding_mode": "circular"},
     forwards=[F(R(1, 2, 4, 4))])
case("conv2d_replicate_dilated", "Conv2d", (1, 2, 2),
     {"padding": 1, "padding_mode": "replicate", "dilation": 2}, forwards=[F(R(1, 1, 4, 4))])
case("conv2d_list_kernel", "Conv2d", (2, 2, [1, 2]))
case("conv2d_groups_bad", "Conv2d", (3, 4, 3), {"groups": 2})
case("conv2d_groups_out_bad", "Conv2d", (4, 3, 3), {"groups": 2})
case("conv2d_groups_zero", "Conv2d", (3, 6, 3), {"groups": 0})
case("conv2d_padding_mode_bad", "Conv2d", (3, 4, 3), {"padding_mode": "foo"})
case("conv2d_same_strided", "Conv2d", (3, 4, 3), {"padding": "same", "stride": 2})
case("conv2d_padding_str_bad", "Conv2d", (3, 4, 3), {"padding": "foo"})
case("conv2d_f64", "Conv2d", (1, 2, 2), {"dtype": torch.float64},
     forwards=[F(R(1, 1, 3, 3, dtype=torch.float64))])
case("conv_transpose2d_unbatched", "ConvTranspose2d", (2, 1, 2), {"stride": 2},
     forwards=[F(R(2, 3, 3)), F(R(2, 3, 3), output_size=[7, 7]), F(R(2, 3, 3), output_size=[7])])
case("conv_transpose2d", "ConvTranspose2d", (3, 4, 3), forwards=[F(R(1, 3, 4, 4))])
case("conv_transpose2d_args", "ConvTranspose2d", (4, 2, 3),
     {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "bias": False},
     forwards=[F(R(1, 4, 3, 3)), F(R(1, 4, 3, 3), output_size=[5, 5]),
               F(R(1, 4, 3, 3), output_size=[9, 9])])
case("conv_transpose2d_reflect", "ConvTranspose2d", (3, 4, 3), {"padding_mode": "reflect"})

# ---- normalisation ----
case("batch_norm1d", "BatchNorm1d", (3,),
     forwards=[F(R(4, 3)), F(R(4, 3, 5, seed=2)), F(R(2, 3, seed=3), train=False),
               F(R(2, 3, 4, 4, seed=4))])
case("batch_norm1d_no_affine", "BatchNorm1d", (3,), {"affine": False}, forwards=[F(R(4, 3))])
case("batch_norm1d_cma", "BatchNorm1d", (2,), {"momentum": None},
     forwards=[F(R(4, 2)), F(R(4, 2, seed=2))])
case("batch_norm2d", "BatchNorm2d", (3,),
     forwards=[F(R(2, 3, 4, 4)), F(R(2, 3, 2, 2, seed=2), train=False), F(R(3, 4, 4, seed=3))])
case("batch_norm2d_args", "BatchNorm2d", (3,),
     {"eps": 1e-3, "momentum": 0.2, "track_running_stats": False},
     forwards=[F(R(2, 3, 2, 2)), F(R(2, 3, 2, 2, seed=2), train=False)])
case("batch_norm2d_resnet", "BatchNorm2d", (64,))
case("layer_norm", "LayerNorm", (4,), forwards=[F(R(2, 3, 4))])
case("layer_norm_list", "LayerNorm", ([2, 4],), forwards=[F(R(3, 2, 4))])
case("layer_norm_no_affine", "LayerNorm", ((3, 4),), {"eps": 1e-6, "elementwise_affine": False},
     forwards=[F(R(2, 3, 4)), F(R(2, 4, 3, seed=2))])
case("group_norm", "GroupNorm", (2, 4), forwards=[F(R(2, 4, 3, 3))])
case("group_norm_no_affine", "GroupNorm", (1, 4), {"affine": False}, forwards=[F(R(2, 4, 2))])
case("group_norm_bad", "GroupNorm", (3, 4))
case("batch_norm2d_f64", "BatchNorm2d", (2,), {"dtype": torch.float64},
     forwards=[F(R(2, 2, 2, 2, dtype=torch.float64))])
case("layer_norm_size", "LayerNorm", (torch.Size([2, 3]),), forwards=[F(R(2, 2, 3))])
case("instance_norm2d", "InstanceNorm2d", (3,),
     forwards=[F(R(2, 3, 4, 4)), F(R(3, 4, 4, seed=2)), F(R(3, 4, seed=3))])
case("instance_norm2d_stats", "InstanceNorm2d", (3,), {"affine": True, "track_running_stats": True},
     forwards=[F(R(2, 3, 4, 4)), F(R(2, 3, 4, 4, seed=2), train=False),
               F(R(2, 2, 4, 4, seed=3))])

# ---- dropout ----
case("dropout", "Dropout", (), forwards=[F(R(4, 5), seed=3), F(R(4, 5), train=False)])
case("dropout_p", "Dropout", (0.2,), forwards=[F(R(3, 4), seed=4)])
case("dropout_inplace", "Dropout", (), {"p": 0.0, "inplace": True}, forwards=[F(R(3))])
case("dropout_int", "Dropout", (1,), forwards=[F(R(2, 3), seed=1)])
case("dropout_bad", "Dropout", (1.5,))
case("dropout_negative", "Dropout", (-0.1,))
case("dropout2d", "Dropout2d", (), forwards=[F(R(2, 3, 2, 2), seed=5), F(R(2, 3, 2, 2), train=False)])

# ---- activations ----
A = R(3, 4, scale=3.0)
case("relu", "ReLU", (), forwards=[F(A)])
case("relu_inplace", "ReLU", (), {"inplace": True}, forwards=[F(A)])
case("relu_positional", "ReLU", (True,))
case("relu_too_many", "ReLU", (1, 2))
case("relu6", "ReLU6", (), forwards=[F(R(3, 4, scale=6.0))])
case("relu6_inplace", "ReLU6", (True,))
case("gelu", "GELU", (), forwards=[F(A)])
case("gelu_tanh", "GELU", (), {"approximate": "tanh"}, forwards=[F(A)])
case("silu", "SiLU", (), forwards=[F(A)])
case("sigmoid", "Sigmoid", (), forwards=[F(A)])
case("sigmoid_arg", "Sigmoid", (1,))
case("tanh", "Tanh", (), forwards=[F(A)])
case("leaky_relu", "LeakyReLU", (), forwards=[F(A)])
case("leaky_relu_args", "LeakyReLU", (0.2,), {"inplace": True}, forwards=[F(A)])
case("leaky_relu_int", "LeakyReLU", (1,))
case("elu", "ELU", (), forwards=[F(A)])
case("elu_alpha", "ELU", (), {"alpha": 0.5}, forwards=[F(A)])
case("hardtanh", "Hardtanh", (), forwards=[F(A)])
case("hardtanh_args", "Hardtanh", (-2.0, 2.0), forwards=[F(A)])
case("hardtanh_kw", "Hardtanh", (), {"min_val": 0.0, "max_val": 1.0, "inplace": True})
case("hardswish", "Hardswish", (), forwards=[F(A)])
case("hardswish_inplace", "Hardswish", (), {"inplace": True})
case("hardtanh_deprecated", "Hardtanh", (), {"min_value": -0.5, "max_value": 0.5},
     forwards=[F(A)])
case("gelu_bad", "GELU", ("foo",), forwards=[F(A)])
case("hardsigmoid", "Hardsigmoid", (), forwards=[F(A)])
case("softplus", "Softplus", (), forwards=[F(A)])
case("softplus_args", "Softplus", (), {"beta": 2, "threshold": 1.5}, forwards=[F(A)])
case("softmax", "Softmax", (), {"dim": 1}, forwards=[F(A)])
case("softmax_none", "Softmax", (), forwards=[F(R(2, 3, 4))])
case("softmax_neg", "Softmax", (-1,), forwards=[F(R(2, 3))])
case("log_softmax", "LogSoftmax", (), {"dim": 1}, forwards=[F(A)])
case("softmax_bad_dim", "Softmax", (5,), forwards=[F(A)])

# ---- pooling ----
P = R(1, 2, 6, 6, seed=7)
case("max_pool2d", "MaxPool2d", (3,), forwards=[F(P)])
case("max_pool2d_args", "MaxPool2d", (3,), {"stride": 2, "padding": 1}, forwards=[F(P)])
case("max_pool2d_tuple", "MaxPool2d", ((2, 2),), forwards=[F(P)])
case("max_pool2d_indices", "MaxPool2d", (2,), {"return_indices": True}, forwards=[F(P)])
case("max_pool2d_positional", "MaxPool2d", (3, 2, 1, 1, False, True), forwards=[F(P)])
case("avg_pool2d", "AvgPool2d", (2,), forwards=[F(P)])
case("avg_pool2d_args", "AvgPool2d", (3,), {"stride": 2, "padding": 1, "count_include_pad": False},
     forwards=[F(P)])
case("avg_pool2d_divisor", "AvgPool2d", (2,), {"divisor_override": 3}, forwards=[F(P)])
case("adaptive_avg_pool2d", "AdaptiveAvgPool2d", ((1, 1),), forwards=[F(P)])
case("adaptive_avg_pool2d_int", "AdaptiveAvgPool2d", (4,), forwards=[F(P)])
case("adaptive_avg_pool2d_none", "AdaptiveAvgPool2d", ((None, 2),), forwards=[F(P)])
case("adaptive_max_pool2d", "AdaptiveMaxPool2d", ((2, 2),), forwards=[F(P)])
case("adaptive_max_pool2d_indices", "AdaptiveMaxPool2d", (1,), {"return_indices": True},
     forwards=[F(P)])

# ---- embedding ----
case("embedding", "Embedding", (10, 3), forwards=[F(I(2, 3, high=10))])
case("embedding_padding", "Embedding", (5, 2), {"padding_idx": 0}, forwards=[F(I(4, high=5))])
case("embedding_padding_neg", "Embedding", (5, 2), {"padding_idx": -1})
case("embedding_flags", "Embedding", (5, 2),
     {"max_norm": 1.0, "norm_type": 1.0, "scale_grad_by_freq": True, "sparse": True})
case("embedding_padding_bad", "Embedding", (5, 2), {"padding_idx": 5})
case("embedding_padding_bad_neg", "Embedding", (5, 2), {"padding_idx": -6})
case("embedding_weight_bad", "Embedding", (3, 2), {"_weight": torch.zeros(2, 2)})
case("embedding_weight", "Embedding", (2, 2), {"_weight": torch.tensor([[1.0, 2.0], [3.0, 4.0]])},
     forwards=[F(torch.tensor([1, 0, 1]))])

# ---- vision ----
U = R(1, 2, 3, 3, seed=8)
case("upsample", "Upsample", (), {"scale_factor": 2}, forwards=[F(U)])
case("upsample_size", "Upsample", (), {"size": (4, 5), "mode": "bilinear", "align_corners": False},
     forwards=[F(U)])
case("upsample_tuple", "Upsample", (None, (2, 3)), forwards=[F(U)])
case("upsample_align", "Upsample", (None, 2.5, "bilinear", True), forwards=[F(U)])
case("upsample_list", "Upsample", (), {"scale_factor": [2, 2]})
case("upsample_zero", "Upsample", (), {"size": 4, "scale_factor": 0}, forwards=[F(U)])
case("pixel_shuffle", "PixelShuffle", (2,), forwards=[F(R(1, 8, 2, 2))])
case("channel_shuffle", "ChannelShuffle", (2,), forwards=[F(R(1, 4, 2, 2))])
case("zero_pad2d", "ZeroPad2d", (1,), forwards=[F(R(1, 2, 2))])
case("zero_pad2d_tuple", "ZeroPad2d", ((1, 0, 2, 0),), forwards=[F(R(1, 1, 2, 2))])
case("constant_pad2d", "ConstantPad2d", (1, 3.5), forwards=[F(R(1, 2, 2))])
case("constant_pad2d_int", "ConstantPad2d", ((1, 1, 0, 0), 2), forwards=[F(R(1, 2, 2))])

# ---- containers ----
case("sequential_empty", "Sequential", (), forwards=[F(X4)])
case("sequential", "Sequential", (M("Linear", 4, 3), M("ReLU"), M("Linear", 3, 2)),
     forwards=[F(X4)])
case("sequential_dict", "Sequential",
     (collections.OrderedDict([("fc", M("Linear", 2, 2)), ("act", M("Tanh"))]),),
     forwards=[F(R(3, 2))])
case("sequential_nested", "Sequential",
     (M("Conv2d", 3, 2, 3, padding=1), M("BatchNorm2d", 2), M("ReLU", inplace=True),
      M("Sequential", M("Flatten"), M("Linear", 50, 2))),
     forwards=[F(IMG)])
case("sequential_bad", "Sequential", (1,))
case("sequential_kw", "Sequential", (), {"a": 1})
case("module_list_empty", "ModuleList", ())
case("module_list_none", "ModuleList", ([M("ReLU"), None],))
case("module_list_bad", "ModuleList", (3,))
case("module_list_int_item", "ModuleList", ([M("ReLU"), 3],))
case("module_list", "ModuleList", ([M("Linear", 2, 2), M("ReLU")],), forwards=[F(X4)])
case("module_dict_empty", "ModuleDict", ())
case("module_dict_pairs", "ModuleDict", ([("x", M("ReLU")), ("y", M("Linear", 1, 1))],))
case("module_dict_bad_pair", "ModuleDict", ([("x", M("ReLU"), 1)],))
case("module_dict_dotted", "ModuleDict", ({"a.b": M("ReLU")},))
case("sequential_dict_nonstr", "Sequential", (collections.OrderedDict([(1, M("ReLU"))]),))
case("module_dict", "ModuleDict", ({"a": M("Linear", 2, 2), "b": M("ReLU")},), forwards=[F(X4)])

# ---- signatures ----
LAYERS = sorted({c["layer"] for c in CASES} | {"ConstantPad2d"})
signatures = []
for name in LAYERS:
    cls = getattr(nn, name)
    params = []
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            params.append([p.name, "*" if p.kind == p.VAR_POSITIONAL else "**"])
        elif p.default is p.empty:
            params.append([p.name])
        else:
            params.append([p.name, "=", encode(p.default)])
    signatures.append({"layer": name, "module": cls.__module__,
                       "init": cls.__init__.__qualname__.split(".")[0],
                       "forward": cls.forward.__qualname__.split(".")[0], "params": params})

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "goldens", "layers.json"), "w") as f:
    json.dump({"torch_version": torch.__version__, "signatures": signatures, "cases": CASES}, f,
              indent=0, allow_nan=False)
    f.write("\n")
print(f"{len(CASES)} cases, {sum(len(c.get('forwards', [])) for c in CASES)} forwards")
