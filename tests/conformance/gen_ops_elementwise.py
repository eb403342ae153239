"""Goldens for the pointwise ops (core/ops/ops-elementwise.c): unary math, activations,
binary arithmetic with broadcasting and type promotion, comparisons and logic, where, clamp,
isclose, fill, in-place forms and the Python operators on tensors and plain numbers.
Run from tests/conformance with /usr/bin/python3; writes goldens/ops/elementwise.json."""
import operator
import warnings

import torch
import torch.nn.functional as F

from golden_encode import Cases, encode, make_input

warnings.filterwarnings("ignore")  # F.sigmoid/F.tanh deprecation, uint8 where condition
cases = Cases()


def call(case_id, op, fn, args, kwargs=None, views=None, **kw):
    """args: Python values; tensors are encoded through make_input (views[i] applies).
    Tensors are cloned first so that in-place ops cannot leak into later cases."""
    kwargs = kwargs or {}
    views = views or {}
    enc_args, real_args = [], []
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor):
            e, v = make_input(a.clone(), views.get(i))
            enc_args.append(e)
            real_args.append(v)
        else:
            enc_args.append(encode(a))
            real_args.append(a)
    enc_kwargs = {}
    real_kwargs = {}
    for k, v in kwargs.items():
        if isinstance(v, torch.Tensor):
            e, rv = make_input(v.clone())
            enc_kwargs[k] = e
            real_kwargs[k] = rv
        else:
            enc_kwargs[k] = encode(v)
            real_kwargs[k] = v
    cases.add(case_id, op, fn, enc_args, enc_kwargs, lambda: fn(*real_args, **real_kwargs), **kw)


def method(name):
    return lambda self, *a, **k: getattr(self, name)(*a, **k)


def r(*shape, lo=-64, hi=65):
    """Random values k/16: short in JSON and exactly representable."""
    return torch.randint(lo, hi, shape) / 16.


torch.manual_seed(0)
nan, inf = float("nan"), float("inf")
T, P, SL, EX = "t", "permute", "slice", "expand"

x = r(2, 4)
x3 = r(2, 2, 4)
xd = r(2, 4).double()
xh = r(2, 4).half()
xi = torch.randint(-5, 6, (2, 4))
xi32 = torch.randint(-50, 50, (2, 4), dtype=torch.int32)
xu8 = torch.randint(0, 250, (2, 4), dtype=torch.uint8)
xi8 = torch.tensor([[1, -2, -128, 127], [5, -7, 0, 3], [100, -100, 64, -1]], dtype=torch.int8)
xb = torch.tensor([[True, False, True, False], [False, False, True, True]])
pos = torch.rand(2, 4) + 0.25          # log, sqrt, ...
unit = torch.rand(2, 4) * 1.8 - 0.9    # asin, acos
special = torch.tensor([-0.0, nan, -1.0, 2.0, inf, -inf, 0.5, -3.5])
s = torch.tensor(2.5)
si = torch.tensor(3)
empty = torch.zeros(0, 3)
big = r(8, 12)
bigt = r(12, 8)

# ------------------------------------------------------------------ unary math
unary = [
    # name, input for floats, has torch.X_ / Tensor.X_
    ("neg", x), ("negative", x), ("abs", x), ("absolute", x), ("exp", x), ("exp2", x),
    ("expm1", x), ("log", pos), ("log2", pos), ("log10", pos), ("log1p", pos),
    ("sqrt", pos), ("rsqrt", pos), ("reciprocal", pos), ("square", x), ("sin", x), ("cos", x),
    ("tan", unit), ("asin", unit), ("arcsin", unit), ("acos", unit), ("arccos", unit),
    ("atan", x), ("arctan", x), ("sinh", x), ("cosh", x), ("tanh", x), ("erf", x),
    ("sigmoid", x), ("floor", x * 1.3), ("ceil", x * 1.3), ("trunc", x * 1.3),
    ("frac", x * 1.3), ("sign", x), ("logical_not", xb.float() * x),
]
xi_s, xb_s = xi[:2, :3], xb[:2, :3]
aliases = {"negative", "absolute", "arcsin", "arccos", "arctan"}
with_bool = {"neg", "abs", "exp", "sqrt", "square", "sin", "floor", "sign", "logical_not", "frac"}
for name, inp in unary:
    fn = getattr(torch, name)
    small = inp[:2, :3]
    call(f"{name}_f32", f"torch.{name}", fn, [inp])
    call(f"{name}_method_t", f"Tensor.{name}", method(name), [small], views={0: [[T]]})
    call(f"{name}_inplace", f"Tensor.{name}_", method(name + "_"), [small])
    if name not in aliases:
        call(f"{name}_f64", f"torch.{name}", fn, [small.double()])
        call(f"{name}_int", f"torch.{name}", fn, [xi_s])
        call(f"{name}_half", f"torch.{name}", fn, [small.half()], rtol=1e-3, atol=1e-3)
        call(f"{name}_inplace_int", f"Tensor.{name}_", method(name + "_"), [xi_s])
        call(f"{name}_special", f"torch.{name}", fn, [special])
    if name in with_bool:
        call(f"{name}_bool", f"torch.{name}", fn, [xb_s])
    if hasattr(torch, name + "_"):
        call(f"torch_{name}_", f"torch.{name}_", getattr(torch, name + "_"), [inp[:1, :2]])

for name in ["isnan", "isinf", "isfinite"]:
    call(f"{name}_f32", f"torch.{name}", getattr(torch, name), [special])
    call(f"{name}_int", f"torch.{name}", getattr(torch, name), [xi])
    call(f"{name}_half", f"torch.{name}", getattr(torch, name), [special.half()])
    call(f"{name}_method", f"Tensor.{name}", method(name), [special.double()])

call("bitwise_not_int", "torch.bitwise_not", torch.bitwise_not, [xi])
call("bitwise_not_bool", "torch.bitwise_not", torch.bitwise_not, [xb])
call("bitwise_not_uint8", "torch.bitwise_not", torch.bitwise_not, [xu8])
call("bitwise_not_float", "torch.bitwise_not", torch.bitwise_not, [x])
call("bitwise_not_inplace_bool", "Tensor.bitwise_not_", method("bitwise_not_"), [xb])
call("neg_int8", "torch.neg", torch.neg, [xi8])
call("neg_uint8", "torch.neg", torch.neg, [xu8])
call("abs_int8", "torch.abs", torch.abs, [xi8])
call("square_int32", "torch.square", torch.square, [xi32])
call("exp_uint8", "torch.exp", torch.exp, [torch.tensor([0, 1, 2], dtype=torch.uint8)])
call("positive", "torch.positive", torch.positive, [xi])
call("positive_bool", "torch.positive", torch.positive, [xb])
call("positive_method", "Tensor.positive", method("positive"), [x])
call("exp_0d", "torch.exp", torch.exp, [s])
call("exp_empty", "torch.exp", torch.exp, [empty])
call("exp_out", "torch.exp", torch.exp, [x], {"out": torch.zeros(2, 4)})
call("exp_out_int", "torch.exp", torch.exp, [x], {"out": torch.zeros(3, 4, dtype=torch.long)})
call("sin_permute", "torch.sin", torch.sin, [x3], views={0: [[P, [2, 0, 1]]]})
call("sqrt_slice", "torch.sqrt", torch.sqrt, [pos], views={0: [[SL, 1, 0, 4, 2]]})
call("tanh_expand", "torch.tanh", torch.tanh, [r(1, 4)], views={0: [[EX, [3, 4]]]})
call("sigmoid_big", "torch.sigmoid", torch.sigmoid, [big])
call("exp_big_t", "torch.exp", torch.exp, [bigt], views={0: [[T]]})
call("abs_inplace_view", "Tensor.abs_", method("abs_"), [x], views={0: [[T]]})
call("exp_inplace_expanded", "Tensor.exp_", method("exp_"), [r(1, 4)], views={0: [[EX, [3, 4]]]})

# round
call("round_f32", "torch.round", torch.round, [torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, 3.7, -3.2])])
call("round_decimals", "torch.round", torch.round, [torch.tensor([1.25, 1.35, -2.675, 0.125])], {"decimals": 2})
call("round_decimals_neg", "torch.round", torch.round, [torch.tensor([125., 135., -250., 1234.])], {"decimals": -1})
call("round_decimals_0", "torch.round", torch.round, [torch.tensor([0.5, 1.5])], {"decimals": 0})
call("round_int", "torch.round", torch.round, [xi])
call("round_int_decimals", "torch.round", torch.round, [xi], {"decimals": 1})
call("round_int_decimals_0", "torch.round", torch.round, [xi], {"decimals": 0})
call("round_f64_decimals", "torch.round", torch.round, [xd], {"decimals": 1})
call("round_positional", "torch.round", torch.round, [x, 2])
call("round_method", "Tensor.round", method("round"), [x * 1.1], {"decimals": 1})
call("round_method_inplace", "Tensor.round_", method("round_"), [x * 1.1])
call("round_half_decimals_0", "torch.round", torch.round, [xh], {"decimals": 0})
call("round_bool_decimals_0", "torch.round", torch.round, [xb], {"decimals": 0})
call("round_half", "torch.round", torch.round, [xh])

# ------------------------------------------------------------------ activations
acts = [
    ("relu", "torch.nn.functional.relu", F.relu, {}),
    ("relu6", "torch.nn.functional.relu6", F.relu6, {}),
    ("silu", "torch.nn.functional.silu", F.silu, {}),
    ("hardswish", "torch.nn.functional.hardswish", F.hardswish, {}),
    ("hardsigmoid", "torch.nn.functional.hardsigmoid", F.hardsigmoid, {}),
    ("hardtanh", "torch.nn.functional.hardtanh", F.hardtanh, {}),
    ("hardtanh_kw", "torch.nn.functional.hardtanh", F.hardtanh, {"min_val": -0.5, "max_val": 2}),
    ("leaky_relu", "torch.nn.functional.leaky_relu", F.leaky_relu, {}),
    ("leaky_relu_kw", "torch.nn.functional.leaky_relu", F.leaky_relu, {"negative_slope": 0.2}),
    ("elu", "torch.nn.functional.elu", F.elu, {}),
    ("elu_kw", "torch.nn.functional.elu", F.elu, {"alpha": 0.5}),
    ("gelu", "torch._C._nn.gelu", F.gelu, {}),
    ("gelu_tanh", "torch._C._nn.gelu", F.gelu, {"approximate": "tanh"}),
    ("softplus", "torch._C._nn.softplus", F.softplus, {}),
    ("softplus_kw", "torch._C._nn.softplus", F.softplus, {"beta": 2, "threshold": 1.5}),
    ("F_sigmoid", "torch.nn.functional.sigmoid", F.sigmoid, {}),
    ("F_tanh", "torch.nn.functional.tanh", F.tanh, {}),
]
xa = r(2, 5, lo=-100, hi=101)
for name, op, fn, kw in acts:
    call(f"{name}_f32", op, fn, [xa], kw)
    call(f"{name}_special", op, fn, [special], kw)
    if kw:
        continue
    call(f"{name}_f64", op, fn, [xa[:, :3].double()], kw)
    call(f"{name}_int", op, fn, [xi_s], kw)
    call(f"{name}_view", op, fn, [x3], kw, views={0: [[P, [1, 2, 0]]]})
    if "inplace" in fn.__code__.co_varnames if hasattr(fn, "__code__") else False:
        call(f"{name}_inplace_t", op, fn, [x], dict(kw, inplace=True), views={0: [[T]]})
call("relu_bool", "torch.nn.functional.relu", F.relu, [xb])
call("relu_uint8", "torch.nn.functional.relu", F.relu, [xu8])
call("relu6_bool", "torch.nn.functional.relu6", F.relu6, [xb])
call("relu_half", "torch.nn.functional.relu", F.relu, [xh])
call("hardtanh_uint8_neg", "torch.nn.functional.hardtanh", F.hardtanh, [xu8])
call("hardtanh_uint8_pos", "torch.nn.functional.hardtanh", F.hardtanh, [xu8], {"min_val": 2, "max_val": 100})
call("hardtanh_swapped", "torch.nn.functional.hardtanh", F.hardtanh, [x, 2.0, 1.0])
call("hardtanh_int32", "torch.nn.functional.hardtanh", F.hardtanh, [xi32], {"min_val": -10, "max_val": 10})
call("gelu_bad", "torch._C._nn.gelu", F.gelu, [x], {"approximate": "fast"})
call("gelu_positional", "torch._C._nn.gelu", F.gelu, [x, "tanh"])
call("gelu_half", "torch._C._nn.gelu", F.gelu, [xh])
call("silu_big", "torch.nn.functional.silu", F.silu, [big])
call("relu_positional_inplace", "torch.nn.functional.relu", F.relu, [x, True])
call("torch_relu", "torch.relu", torch.relu, [x])
call("torch_relu_int", "torch.relu", torch.relu, [xi32])
call("torch_relu_", "torch.relu_", torch.relu_, [x])
call("F_relu_", "torch.nn.functional.relu_", F.relu_, [x])
call("tensor_relu", "Tensor.relu", method("relu"), [x])
call("tensor_relu_", "Tensor.relu_", method("relu_"), [x], views={0: [[T]]})
call("tensor_relu_bool", "Tensor.relu", method("relu"), [xb])
call("F_elu_", "torch._C._nn.elu_", F.elu_, [x], {"alpha": 2.0})
call("F_leaky_relu_", "torch._C._nn.leaky_relu_", F.leaky_relu_, [x, 0.3])
call("F_hardtanh_", "torch._C._nn.hardtanh_", F.hardtanh_, [x, -0.5, 0.5])
call("relu_0d", "torch.nn.functional.relu", F.relu, [torch.tensor(-1.5)])
call("relu_empty", "torch.nn.functional.relu", F.relu, [empty])

# ------------------------------------------------------------------ binary: promotion
samples = {
    "bool": torch.tensor([True, False, True]),
    "uint8": torch.tensor([1, 200, 7], dtype=torch.uint8),
    "int8": torch.tensor([1, -2, 100], dtype=torch.int8),
    "int16": torch.tensor([300, -2, 7], dtype=torch.int16),
    "int32": torch.tensor([1, -2, 7], dtype=torch.int32),
    "int64": torch.tensor([1, -2, 7]),
    "float16": torch.tensor([1.5, -2.0, 0.25], dtype=torch.float16),
    "float32": torch.tensor([1.5, -2.0, 0.25]),
    "float64": torch.tensor([1.5, -2.0, 0.25], dtype=torch.float64),
}
names = list(samples)
for i, a in enumerate(names):
    for b in names[i:]:
        call(f"add_{a}_{b}", "torch.add", torch.add, [samples[a], samples[b]])
for a in names:
    call(f"mul_{a}_wrapped_float", "torch.mul", torch.mul, [samples[a], 2.5])
    call(f"mul_{a}_wrapped_int", "torch.mul", torch.mul, [samples[a], 3])
    call(f"add_{a}_0d_f64", "torch.add", torch.add, [samples[a], torch.tensor(0.5, dtype=torch.float64)])
    call(f"add_{a}_0d_i64", "torch.add", torch.add, [samples[a], torch.tensor(3)])
    call(f"div_{a}_{a}", "torch.div", torch.div, [samples[a], samples[a]])
for a in ["bool", "uint8", "int32", "float32"]:
    call(f"mul_{a}_wrapped_bool", "torch.mul", torch.mul, [samples[a], True])
    call(f"eq_{a}_scalar", "torch.eq", torch.eq, [samples[a], 1])
call("add_0d_0d", "torch.add", torch.add, [torch.tensor(1, dtype=torch.int8), torch.tensor(2.5, dtype=torch.float64)])
call("add_0d_int_to_uint8", "torch.add", torch.add, [torch.tensor(300), torch.tensor([1, 2], dtype=torch.uint8)])
call("add_0d_float_to_int8", "torch.add", torch.add, [torch.tensor(3.5), torch.tensor([1], dtype=torch.int8)])
call("add_int32_wrapped_big", "torch.add", torch.add, [samples["int32"], 2 ** 40])
call("add_uint8_wrapped_neg", "torch.add", torch.add, [samples["uint8"], -1])
call("eq_uint8_wrapped_neg", "torch.eq", torch.eq, [torch.tensor([255, 1], dtype=torch.uint8), -1])
call("lt_uint8_wrapped_neg", "torch.lt", torch.lt, [torch.tensor([255, 1], dtype=torch.uint8), -1])
call("add_half_wrapped", "torch.add", torch.add, [samples["float16"], 0.1])
call("add_half_overflow", "torch.add", torch.add, [samples["float16"], 70000.0])
call("add_float_huge", "torch.add", torch.add, [samples["float32"], 1e40])
call("mul_int8_overflow", "torch.mul", torch.mul, [samples["int8"], 3])

# ------------------------------------------------------------------ binary: arithmetic
call("add_broadcast", "torch.add", torch.add, [r(3, 1), r(1, 4)])
call("add_broadcast3", "torch.add", torch.add, [r(2, 1, 4), r(3, 1)])
call("add_broadcast_0d", "torch.add", torch.add, [x, s])
call("add_broadcast_empty", "torch.add", torch.add, [empty, r(3)])
call("add_shape_error", "torch.add", torch.add, [r(2, 3), r(3, 2)])
call("add_shape_error3", "torch.add", torch.add, [r(2, 3, 4), r(5, 4)])
call("add_alpha", "torch.add", torch.add, [x, xd.float()], {"alpha": 2.5})
call("add_alpha_int", "torch.add", torch.add, [xi, xi], {"alpha": 3})
call("add_alpha_float_on_int", "torch.add", torch.add, [xi, xi], {"alpha": 2.5})
call("add_alpha_bool_on_float", "torch.add", torch.add, [x, x], {"alpha": True})
call("add_alpha_bool_on_bool", "torch.add", torch.add, [xb, xb], {"alpha": True})
call("add_alpha_int_on_bool", "torch.add", torch.add, [xb, xb], {"alpha": 2})
call("add_alpha_float_on_bool", "torch.add", torch.add, [xb, xb], {"alpha": 2.5})
call("add_number_first", "torch.add", torch.add, [2, xi])
call("add_numbers", "torch.add", torch.add, [2, 3])
call("add_deprecated_alpha", "torch.add", torch.add, [x, 2, x3[0]])
call("add_out", "torch.add", torch.add, [x, 1], {"out": torch.zeros(2, 4)})
call("add_big", "torch.add", torch.add, [big, big * 0.5])
call("add_big_t", "torch.add", torch.add, [big, bigt], views={1: [[T]]})
call("add_big_row", "torch.add", torch.add, [big, big[0]])
call("add_mixed_big", "torch.add", torch.add, [big, torch.randint(-9, 9, (8, 12))])
call("add_views", "torch.add", torch.add, [x3, r(4, 3, 4)], views={0: [[P, [2, 1, 0]]], 1: [[SL, 1, 0, 3, 2], ["transpose", 0, 2]]})
call("add_expand", "torch.add", torch.add, [r(1, 4), x], views={0: [[EX, [2, 4]]]})
call("tensor_add", "Tensor.add", method("add"), [x, 1.5])
call("tensor_add_alpha", "Tensor.add", method("add"), [x, x], {"alpha": -1})
call("tensor_add_", "Tensor.add_", method("add_"), [x, r(4)])
call("tensor_add_int_float", "Tensor.add_", method("add_"), [xi, 2.5])
call("tensor_add_bool_int", "Tensor.add_", method("add_"), [xb, 1])
call("tensor_add_f32_f64", "Tensor.add_", method("add_"), [x, xd])
call("tensor_add_bcast_out", "Tensor.add_", method("add_"), [r(3), r(2, 3)])
call("tensor_add_bcast_out2", "Tensor.add_", method("add_"), [r(2, 3), r(4, 2, 3)])
call("tensor_add_self", "Tensor.add_", method("add_"), [x, x])
call("tensor_add_t_view", "Tensor.add_", method("add_"), [x, r(4, 2)], views={0: [[T]]})
call("sub", "torch.sub", torch.sub, [x, xd.float()])
call("sub_alpha", "torch.sub", torch.sub, [x, 1.0], {"alpha": 2})
call("sub_bools", "torch.sub", torch.sub, [xb, xb])
call("sub_bool_int", "torch.sub", torch.sub, [xi, True])
call("sub_number_first", "torch.sub", torch.sub, [2, xi])
call("sub_bool_number_first", "torch.sub", torch.sub, [True, xi])
call("tensor_sub_", "Tensor.sub_", method("sub_"), [xi, xi], {"alpha": 2})
call("tensor_sub_alpha_float", "Tensor.sub_", method("sub_"), [xi, xi], {"alpha": 0.5})
call("subtract", "torch.subtract", torch.subtract, [x, 1.0, 2])
call("tensor_subtract_", "Tensor.subtract_", method("subtract_"), [x, x3[1]])
call("mul", "torch.mul", torch.mul, [x, x3])
call("mul_bool", "torch.mul", torch.mul, [xb, xb])
call("mul_number_first", "torch.mul", torch.mul, [2.5, xi])
call("multiply", "torch.multiply", torch.multiply, [xi, 3])
call("tensor_mul_", "Tensor.mul_", method("mul_"), [x, xi])
call("tensor_mul_int_float", "Tensor.mul_", method("mul_"), [xi, x])
call("div", "torch.div", torch.div, [x, pos])
call("div_int", "torch.div", torch.div, [xi, 2])
call("div_int_zero", "torch.div", torch.div, [xi, 0])
call("div_float_zero", "torch.div", torch.div, [x, 0.])
call("div_trunc", "torch.div", torch.div, [x * 3, 0.7], {"rounding_mode": "trunc"})
call("div_floor", "torch.div", torch.div, [x * 3, -0.7], {"rounding_mode": "floor"})
call("div_trunc_int", "torch.div", torch.div, [xi, torch.tensor([3, -3, 2, -2])], {"rounding_mode": "trunc"})
call("div_floor_int", "torch.div", torch.div, [xi, torch.tensor([3, -3, 2, -2])], {"rounding_mode": "floor"})
call("div_floor_int_scalar", "torch.div", torch.div, [xi, -2], {"rounding_mode": "floor"})
call("div_none_mode", "torch.div", torch.div, [xi, 2], {"rounding_mode": None})
call("div_bad_mode", "torch.div", torch.div, [x, 2], {"rounding_mode": "round"})
call("div_trunc_bool", "torch.div", torch.div, [xb, xb], {"rounding_mode": "trunc"})
call("div_floor_int_zero", "torch.div", torch.div, [xi, 0], {"rounding_mode": "floor"})
call("div_floor_float_zero", "torch.div", torch.div, [torch.tensor([1., -1., 0.]), 0.], {"rounding_mode": "floor"})
call("div_number_first", "torch.div", torch.div, [1, xi + 6])
call("divide", "torch.divide", torch.divide, [x, 4])
call("divide_mode", "torch.divide", torch.divide, [xi, 4], {"rounding_mode": "floor"})
call("true_divide", "torch.true_divide", torch.true_divide, [xi, 4])
call("tensor_div", "Tensor.div", method("div"), [xi, 3], {"rounding_mode": "trunc"})
call("tensor_div_", "Tensor.div_", method("div_"), [x, 2])
call("tensor_div_int", "Tensor.div_", method("div_"), [xi, 2])
call("tensor_div_int_floor", "Tensor.div_", method("div_"), [xi, 2], {"rounding_mode": "floor"})
call("tensor_divide_", "Tensor.divide_", method("divide_"), [x, x + 10])
call("tensor_true_divide_", "Tensor.true_divide_", method("true_divide_"), [x, 3])
call("floor_divide", "torch.floor_divide", torch.floor_divide, [x * 3, 0.7])
call("floor_divide_int", "torch.floor_divide", torch.floor_divide, [xi, torch.tensor([3, -3, 2, -2])])
call("floor_divide_int_zero", "torch.floor_divide", torch.floor_divide, [xi, torch.tensor([0])])
call("floor_divide_number_first", "torch.floor_divide", torch.floor_divide, [7, xi + 6])
call("floor_divide_uint8", "torch.floor_divide", torch.floor_divide, [xu8, torch.tensor(7, dtype=torch.uint8)])
call("floor_divide_int8_min", "torch.floor_divide", torch.floor_divide, [xi8, -1])
call("tensor_floor_divide_", "Tensor.floor_divide_", method("floor_divide_"), [xi, 2])
call("remainder", "torch.remainder", torch.remainder, [x * 3, 0.7])
call("remainder_neg", "torch.remainder", torch.remainder, [x * 3, -0.7])
call("remainder_int", "torch.remainder", torch.remainder, [xi, torch.tensor([3, -3, 2, -2])])
call("remainder_int_zero", "torch.remainder", torch.remainder, [xi, 0])
call("remainder_float_zero", "torch.remainder", torch.remainder, [x, 0.])
call("remainder_number_first", "torch.remainder", torch.remainder, [-5., xi + 6])
call("remainder_number_first_int", "torch.remainder", torch.remainder, [5, xi + 6])
call("remainder_bool", "torch.remainder", torch.remainder, [xb, xb])
call("remainder_half", "torch.remainder", torch.remainder, [xh, 0.75], rtol=1e-3, atol=1e-3)
call("tensor_remainder_", "Tensor.remainder_", method("remainder_"), [xi, 3])
call("fmod", "torch.fmod", torch.fmod, [x * 3, -0.7])
call("fmod_int", "torch.fmod", torch.fmod, [xi, torch.tensor([3, -3, 2, -2])])
call("fmod_int_zero", "torch.fmod", torch.fmod, [xi, 0])
call("tensor_fmod", "Tensor.fmod", method("fmod"), [xi, -2])
call("pow_2", "torch.pow", torch.pow, [special, 2])
call("pow_3", "torch.pow", torch.pow, [special, 3])
call("pow_half", "torch.pow", torch.pow, [special, 0.5])
call("pow_mhalf", "torch.pow", torch.pow, [special, -0.5])
call("pow_m1", "torch.pow", torch.pow, [special, -1])
call("pow_m2", "torch.pow", torch.pow, [special, -2])
call("pow_0", "torch.pow", torch.pow, [special, 0])
call("pow_1", "torch.pow", torch.pow, [special, 1])
call("pow_float", "torch.pow", torch.pow, [pos, 1.7])
call("pow_f64", "torch.pow", torch.pow, [pos.double(), -1.3])
call("pow_int", "torch.pow", torch.pow, [xi, 3])
call("pow_int_neg", "torch.pow", torch.pow, [xi, -1])
call("pow_bool_neg", "torch.pow", torch.pow, [xb, -1])
call("pow_bool_2", "torch.pow", torch.pow, [xb, 2])
call("pow_bool_bool", "torch.pow", torch.pow, [xb, xb])
call("pow_int_float", "torch.pow", torch.pow, [xi, 2.0])
call("pow_int_float_neg", "torch.pow", torch.pow, [xi + 6, -1.0])
call("pow_int8_wrap", "torch.pow", torch.pow, [torch.tensor([3, -3, 2], dtype=torch.int8), 5])
call("pow_tensor", "torch.pow", torch.pow, [pos, x])
call("pow_tensor_int", "torch.pow", torch.pow, [torch.tensor([-2, -1, 0, 1, 3, 2]), torch.tensor([-1, -1, -1, -1, -1, 10])])
call("pow_int32_int64", "torch.pow", torch.pow, [torch.tensor([2], dtype=torch.int32), torch.tensor([31])])
call("pow_scalar_base", "torch.pow", torch.pow, [2, xi + 5])
call("pow_scalar_base_float", "torch.pow", torch.pow, [2.5, xi])
call("pow_scalar_base_one", "torch.pow", torch.pow, [1, torch.tensor([nan, 2.0])])
call("pow_float16", "torch.pow", torch.pow, [xh, 2], rtol=1e-3, atol=1e-3)
call("pow_0d", "torch.pow", torch.pow, [s, si])
call("tensor_pow", "Tensor.pow", method("pow"), [x, 2])
call("tensor_pow_", "Tensor.pow_", method("pow_"), [pos, 0.5])
call("tensor_pow_int_float", "Tensor.pow_", method("pow_"), [xi, 0.5])
call("tensor_pow_bool_int", "Tensor.pow_", method("pow_"), [xb, 2])
call("tensor_pow_int_tensor_float", "Tensor.pow_", method("pow_"), [xi, torch.tensor(0.5)])
call("pow_out_dtype", "torch.pow", torch.pow, [xi, 0.5], {"out": torch.zeros(2, 4, dtype=torch.long)})
call("add_out_dtype", "torch.add", torch.add, [xi, 0.5], {"out": torch.zeros(2, 4, dtype=torch.long)})
call("eq_out_long", "torch.eq", torch.eq, [xi, 2], {"out": torch.zeros(2, 4, dtype=torch.long)})
call("square_inplace_bool", "Tensor.square_", method("square_"), [xb])
call("maximum", "torch.maximum", torch.maximum, [special, torch.zeros(8)])
call("maximum_mixed", "torch.maximum", torch.maximum, [xi, x])
call("maximum_bcast", "torch.maximum", torch.maximum, [x3, r(4)])
call("maximum_bool", "torch.maximum", torch.maximum, [xb, xb.t().t()])
call("maximum_number", "torch.maximum", torch.maximum, [x, 2])
call("minimum", "torch.minimum", torch.minimum, [special, torch.zeros(8)])
call("minimum_int", "torch.minimum", torch.minimum, [xi, xi32])
call("tensor_maximum", "Tensor.maximum", method("maximum"), [x, torch.tensor(0.5)])

# ------------------------------------------------------------------ comparison and logic
for name in ["greater", "less", "greater_equal", "less_equal", "not_equal"]:
    call(f"{name}", f"torch.{name}", getattr(torch, name), [x, r(2, 4)])
    call(f"tensor_{name}_", f"Tensor.{name}_", method(name + "_"), [xi, 0])
for name in ["eq", "ne", "lt", "le", "gt", "ge"]:
    fn = getattr(torch, name)
    call(f"{name}", f"torch.{name}", fn, [x, r(2, 4)])
    call(f"{name}_scalar", f"torch.{name}", fn, [xi, 1])
    call(f"{name}_mixed", f"torch.{name}", fn, [xi, x])
    call(f"{name}_nan", f"torch.{name}", fn, [special, special])
    call(f"tensor_{name}", f"Tensor.{name}", method(name), [x, 0.5])
    call(f"tensor_{name}_", f"Tensor.{name}_", method(name + "_"), [xi, 0])
call("eq_bcast", "torch.eq", torch.eq, [r(3, 1), r(4)])
call("eq_out_float", "torch.eq", torch.eq, [x, x], {"out": torch.zeros(2, 4)})
call("eq_number_first", "torch.eq", torch.eq, [1, xi])
call("eq_inplace_float_on_int", "Tensor.eq_", method("eq_"), [xi, 2.5])
call("lt_inplace_bool", "Tensor.lt_", method("lt_"), [xb, x])
for name in ["logical_and", "logical_or", "logical_xor"]:
    fn = getattr(torch, name)
    call(f"{name}", f"torch.{name}", fn, [xb, xb.flip(0)])
    call(f"{name}_mixed", f"torch.{name}", fn, [xi, x])
    call(f"{name}_nan", f"torch.{name}", fn, [special, torch.ones(8)])
    call(f"{name}_number", f"torch.{name}", fn, [xi, 0])
    call(f"tensor_{name}", f"Tensor.{name}", method(name), [x, xi])
    call(f"tensor_{name}_", f"Tensor.{name}_", method(name + "_"), [xi, x])
for name in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
    fn = getattr(torch, name)
    call(f"{name}", f"torch.{name}", fn, [xi, xi.flip(1)])
    call(f"{name}_bool", f"torch.{name}", fn, [xb, xb.flip(0)])
    call(f"{name}_scalar", f"torch.{name}", fn, [xi32, 6])
    call(f"{name}_bool_scalar", f"torch.{name}", fn, [xb, True])
    call(f"{name}_number_first", f"torch.{name}", fn, [6, xi])
    call(f"{name}_float", f"torch.{name}", fn, [x, x])
    call(f"{name}_float_scalar", f"torch.{name}", fn, [xi, 3.0])
    call(f"tensor_{name}_", f"Tensor.{name}_", method(name + "_"), [xu8, 15])

call("where", "torch.where", torch.where, [xb, x, xd.float()])
call("where_promote", "torch.where", torch.where, [xb, xi, x.double()])
call("where_scalar_other", "torch.where", torch.where, [xb, xi, 2.5])
call("where_scalar_self", "torch.where", torch.where, [xb, 1, x])
call("where_scalars", "torch.where", torch.where, [xb, 1, 2.5])
call("where_int_scalars", "torch.where", torch.where, [xb, 2, 3])
call("where_bool_scalars", "torch.where", torch.where, [xb, True, False])
call("where_int32_scalar", "torch.where", torch.where, [xb, xi32, 2])
call("where_half", "torch.where", torch.where, [xb, 2., xh])
call("where_bcast", "torch.where", torch.where, [xb[:, :1], r(1, 4), r(2, 1)])
call("where_bcast_error", "torch.where", torch.where, [xb[0, :2], x, xi])
call("where_cond_int", "torch.where", torch.where, [xi, x, x])
call("where_cond_uint8", "torch.where", torch.where, [xb.to(torch.uint8), x, 0.])
call("where_one_arg", "torch.where", torch.where, [xb])
call("where_one_arg_float", "torch.where", torch.where, [x3])
call("where_one_arg_0d", "torch.where", torch.where, [torch.tensor(True)])
call("where_kwargs", "torch.where", torch.where, [xb], {"input": x, "other": xi})
call("tensor_where", "Tensor.where", method("where"), [x, xb, xd.float()])
call("tensor_where_scalar", "Tensor.where", method("where"), [x, xb, 0.])

call("isclose", "torch.isclose", torch.isclose, [torch.tensor([1., 2., nan, inf, -inf, 1e-9]), torch.tensor([1.00001, 2.1, nan, inf, inf, 0.])])
call("isclose_equal_nan", "torch.isclose", torch.isclose, [special, special], {"equal_nan": True})
call("isclose_tol", "torch.isclose", torch.isclose, [x, x + 0.01], {"rtol": 0, "atol": 0.02})
call("isclose_positional", "torch.isclose", torch.isclose, [x, x + 0.01, 0.1, 0.0, True])
call("isclose_int", "torch.isclose", torch.isclose, [torch.tensor([100, 100, 5]), torch.tensor([101, 102, 5])], {"rtol": 0.01})
call("isclose_bool", "torch.isclose", torch.isclose, [xb, xb.flip(0)])
call("isclose_dtype_mismatch", "torch.isclose", torch.isclose, [xi, x])
call("isclose_rtol_neg", "torch.isclose", torch.isclose, [x, x], {"rtol": -1})
call("isclose_atol_neg", "torch.isclose", torch.isclose, [x, x], {"atol": -0.5})
call("isclose_bcast", "torch.isclose", torch.isclose, [r(2, 1), r(3)])
call("isclose_f64", "torch.isclose", torch.isclose, [xd, xd + 1e-9])
call("tensor_isclose", "Tensor.isclose", method("isclose"), [x, x * 1.000001])
call("allclose_true", "torch.allclose", torch.allclose, [x, x + 1e-9])
call("allclose_false", "torch.allclose", torch.allclose, [x, x + 1e-3])
call("allclose_nan", "torch.allclose", torch.allclose, [special, special])
call("allclose_nan_equal", "torch.allclose", torch.allclose, [special, special], {"equal_nan": True})
call("allclose_shape", "torch.allclose", torch.allclose, [r(2), r(3)])
call("allclose_dtype", "torch.allclose", torch.allclose, [xi, x])
call("tensor_allclose", "Tensor.allclose", method("allclose"), [x, x], {"atol": 0.0})

# ------------------------------------------------------------------ clamp
call("clamp", "torch.clamp", torch.clamp, [x, -1.5, 2])
call("clamp_min_only", "torch.clamp", torch.clamp, [x], {"min": 0})
call("clamp_max_only", "torch.clamp", torch.clamp, [x], {"max": 0.5})
call("clamp_none_min", "torch.clamp", torch.clamp, [x, None, 1])
call("clamp_neither", "torch.clamp", torch.clamp, [x])
call("clamp_swapped", "torch.clamp", torch.clamp, [x, 2, 1])
call("clamp_nan_bound", "torch.clamp", torch.clamp, [x, nan, 1])
call("clamp_special", "torch.clamp", torch.clamp, [special, -0.5, 0.5])
call("clamp_int", "torch.clamp", torch.clamp, [xi, -2, 3])
call("clamp_int_float", "torch.clamp", torch.clamp, [xi, 0.5])
call("clamp_bool", "torch.clamp", torch.clamp, [xb, 0, 1])
call("clamp_uint8", "torch.clamp", torch.clamp, [xu8, 10, 100])
call("clamp_half", "torch.clamp", torch.clamp, [xh, 0, 1])
call("clamp_tensor", "torch.clamp", torch.clamp, [x, r(4) - 1, r(2, 1) + 1])
call("clamp_tensor_min", "torch.clamp", torch.clamp, [x], {"min": torch.zeros(1)})
call("clamp_tensor_max", "torch.clamp", torch.clamp, [special], {"max": torch.zeros(8)})
call("clamp_tensor_nan", "torch.clamp", torch.clamp, [x], {"min": torch.tensor(nan)})
call("clamp_tensor_promote", "torch.clamp", torch.clamp, [xi], {"min": torch.tensor(0.5), "max": torch.tensor(2)})
call("clamp_tensor_bcast", "torch.clamp", torch.clamp, [r(3), torch.zeros(1), torch.ones(2, 1)])
call("clamp_tensor_bad_shape", "torch.clamp", torch.clamp, [r(6), torch.zeros(2)])
call("clamp_tensor_half", "torch.clamp", torch.clamp, [xh, torch.tensor(0.).half()])
call("clamp_mixed_kinds", "torch.clamp", torch.clamp, [x], {"min": torch.tensor([0.5]), "max": 2})
call("clip", "torch.clip", torch.clip, [x, -1, 1])
call("clamp_min", "torch.clamp_min", torch.clamp_min, [x, 0.25])
call("clamp_min_tensor", "torch.clamp_min", torch.clamp_min, [x, r(4)])
call("clamp_max", "torch.clamp_max", torch.clamp_max, [xi, 1])
call("clamp_out", "torch.clamp", torch.clamp, [x, 0, 1], {"out": torch.zeros(2, 4)})
call("tensor_clamp", "Tensor.clamp", method("clamp"), [x], {"min": -1})
call("tensor_clamp_", "Tensor.clamp_", method("clamp_"), [x, -1, 1])
call("tensor_clamp_int_float", "Tensor.clamp_", method("clamp_"), [xi, 0.5])
call("tensor_clamp_bool", "Tensor.clamp_", method("clamp_"), [xb, 0, 1])
call("tensor_clamp_tensor_int_float", "Tensor.clamp_", method("clamp_"), [xi], {"min": torch.tensor(0.5)})
call("tensor_clamp_tensor_bcast_out", "Tensor.clamp_", method("clamp_"), [r(3)], {"min": torch.zeros(2, 3)})
call("tensor_clip_", "Tensor.clip_", method("clip_"), [x, None, 0])
call("tensor_clamp_min_", "Tensor.clamp_min_", method("clamp_min_"), [x, 0])
call("tensor_clamp_max", "Tensor.clamp_max", method("clamp_max"), [x, torch.tensor(0.)])
call("torch_clamp_", "torch.clamp_", torch.clamp_, [x, 0, 1])

# ------------------------------------------------------------------ fill, zero, copy
call("fill_float", "Tensor.fill_", method("fill_"), [x, 2])
call("fill_int_float", "Tensor.fill_", method("fill_"), [xi, 2.7])
call("fill_bool", "Tensor.fill_", method("fill_"), [xb, 2])
call("fill_bool_value", "Tensor.fill_", method("fill_"), [x, True])
call("fill_tensor", "Tensor.fill_", method("fill_"), [x, torch.tensor(3.5)])
call("fill_tensor_1d", "Tensor.fill_", method("fill_"), [x, torch.tensor([1., 2.])])
call("fill_view", "Tensor.fill_", method("fill_"), [x3, -1.5], views={0: [[SL, 2, 1, 4, 2]]})
call("fill_expanded", "Tensor.fill_", method("fill_"), [torch.zeros(1, 3)], views={0: [[EX, [4, 3]]]})
call("fill_half", "Tensor.fill_", method("fill_"), [xh, 0.1])
call("torch_fill_", "torch.fill_", torch.fill_, [xi, 7])
call("zero", "Tensor.zero_", method("zero_"), [x])
call("zero_view", "Tensor.zero_", method("zero_"), [x], views={0: [[T]]})
call("torch_zero_", "torch.zero_", torch.zero_, [xi])
call("copy", "Tensor.copy_", method("copy_"), [x, xi])
call("copy_bcast", "Tensor.copy_", method("copy_"), [x, r(4)])
call("copy_bad_shape", "Tensor.copy_", method("copy_"), [x, r(2)])
call("copy_number", "Tensor.copy_", method("copy_"), [x, 1.5])
call("copy_t", "Tensor.copy_", method("copy_"), [x, r(4, 2)], views={1: [[T]]})

# ------------------------------------------------------------------ in-place overlap errors
call("inplace_internal_overlap", "Tensor.add_", method("add_"), [torch.ones(3), 1], views={0: [[EX, [3, 3]]]})
call("inplace_internal_overlap_unary", "Tensor.neg_", method("neg_"), [torch.ones(3)], views={0: [[EX, [3, 3]]]})

# ------------------------------------------------------------------ Python operators
ops = [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
       ("truediv", operator.truediv), ("floordiv", operator.floordiv), ("mod", operator.mod),
       ("pow", operator.pow), ("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt),
       ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge)]
pairs = [(7, 3), (-7, 3), (7, -3), (7, 2.5), (-7.5, 2), (True, True), (2, -2), (3, 3.0)]
for name, fn in ops:
    for a, b in pairs:
        call(f"op_{name}_{a}_{b}", f"operator.{name}", fn, [a, b])
    call(f"op_{name}_tensor", f"operator.{name}", fn, [x + 3, pos])
    call(f"op_{name}_tensor_number", f"operator.{name}", fn, [xi, 3])
    call(f"op_{name}_number_tensor", f"operator.{name}", fn, [3, xi + 6])
    call(f"op_{name}_float_int_tensor", f"operator.{name}", fn, [2.5, xi + 6])
for name, fn in [("and_", operator.and_), ("or_", operator.or_), ("xor", operator.xor)]:
    call(f"op_{name}_ints", f"operator.{name}", fn, [12, 10])
    call(f"op_{name}_bools", f"operator.{name}", fn, [True, False])
    call(f"op_{name}_bool_int", f"operator.{name}", fn, [True, 3])
    call(f"op_{name}_float", f"operator.{name}", fn, [1.0, 1])
    call(f"op_{name}_tensor", f"operator.{name}", fn, [xb, xb.flip(1)])
    call(f"op_{name}_tensor_int", f"operator.{name}", fn, [xi, 1])
    call(f"op_{name}_bool_tensor", f"operator.{name}", fn, [True, xb])
    call(f"op_{name}_float_tensor", f"operator.{name}", fn, [x, x])
call("op_truediv_zero", "operator.truediv", operator.truediv, [1, 0])
call("op_truediv_float_zero", "operator.truediv", operator.truediv, [1.0, 0])
call("op_floordiv_zero", "operator.floordiv", operator.floordiv, [1, 0])
call("op_floordiv_float_zero", "operator.floordiv", operator.floordiv, [1.0, 0.0])
call("op_mod_zero", "operator.mod", operator.mod, [1, 0])
call("op_mod_float_zero", "operator.mod", operator.mod, [1.0, 0])
call("op_pow_zero_neg", "operator.pow", operator.pow, [0, -1])
call("op_pow_neg_exp", "operator.pow", operator.pow, [2, -2])
call("op_pow_big", "operator.pow", operator.pow, [3, 39])
call("op_pow_float_overflow", "operator.pow", operator.pow, [10.0, 400])
call("op_mod_neg_zero", "operator.mod", operator.mod, [-0.0, 1])
call("op_mod_float_sign", "operator.mod", operator.mod, [7.5, -2])
call("op_floordiv_float", "operator.floordiv", operator.floordiv, [7.5, -2])
call("op_truediv_tensor_zero", "operator.truediv", operator.truediv, [xi, 0])
call("op_floordiv_tensor_zero", "operator.floordiv", operator.floordiv, [xi, 0])
call("op_add_tuples", "operator.add", operator.add, [(1, 2), (3,)])
call("op_add_size_tuple", "operator.add", operator.add, [torch.Size([2, 3]), (4,)])
call("op_add_tuple_size", "operator.add", operator.add, [(4,), torch.Size([2, 3])])
call("op_add_lists", "operator.add", operator.add, [[1], [2, 3]])
call("op_add_strs", "operator.add", operator.add, ["ab", "cd"])
call("op_add_int_str", "operator.add", operator.add, [1, "a"])
call("op_add_tuple_list", "operator.add", operator.add, [(1,), [2]])
call("op_mul_list_int", "operator.mul", operator.mul, [[1, 2], 3])
call("op_mul_int_tuple", "operator.mul", operator.mul, [2, (1, None)])
call("op_mul_str", "operator.mul", operator.mul, ["ab", 2])
call("op_eq_tuples", "operator.eq", operator.eq, [(1, 2), (1, 2.0)])
call("op_eq_none", "operator.eq", operator.eq, [None, None])
call("op_ne_str", "operator.ne", operator.ne, ["a", "b"])
call("op_eq_tensor_none", "operator.eq", operator.eq, [x, None])
call("op_lt_tuples", "operator.lt", operator.lt, [(1, 2), (1, 3)])
call("op_lt_strs", "operator.lt", operator.lt, ["abc", "abd"])
call("op_lt_none", "operator.lt", operator.lt, [None, 1])
call("op_ge_lists", "operator.ge", operator.ge, [[1, 2, 3], [1, 2]])
call("op_lt_int_float_exact", "operator.lt", operator.lt, [2 ** 53 + 1, float(2 ** 53)])
call("op_eq_int_float_exact", "operator.eq", operator.eq, [2 ** 53 + 1, float(2 ** 53)])
call("op_lt_nan", "operator.lt", operator.lt, [1, nan])
call("op_neg", "operator.neg", operator.neg, [5])
call("op_neg_bool", "operator.neg", operator.neg, [True])
call("op_neg_float", "operator.neg", operator.neg, [2.5])
call("op_neg_tensor", "operator.neg", operator.neg, [x])
call("op_neg_bool_tensor", "operator.neg", operator.neg, [xb])
call("op_neg_str", "operator.neg", operator.neg, ["a"])
call("op_pos", "operator.pos", operator.pos, [True])
call("op_pos_tensor", "operator.pos", operator.pos, [xi])
call("op_pos_bool_tensor", "operator.pos", operator.pos, [xb])
call("op_abs", "operator.abs", operator.abs, [-3])
call("op_abs_float", "operator.abs", operator.abs, [-2.5])
call("op_abs_tensor", "operator.abs", operator.abs, [x])
call("op_abs_none", "operator.abs", operator.abs, [None])
call("op_invert", "operator.invert", operator.invert, [5])
call("op_invert_bool", "operator.invert", operator.invert, [True])
call("op_invert_float", "operator.invert", operator.invert, [1.5])
call("op_invert_tensor", "operator.invert", operator.invert, [xb])
call("op_invert_int_tensor", "operator.invert", operator.invert, [xi])
call("op_invert_float_tensor", "operator.invert", operator.invert, [x])
call("op_add_arity", "operator.add", operator.add, [1])
call("op_neg_kwargs", "operator.neg", operator.neg, [], {"a": 1})
for name, fn in [("iadd", operator.iadd), ("isub", operator.isub), ("imul", operator.imul),
                 ("itruediv", operator.itruediv)]:
    call(f"op_{name}_ints", f"operator.{name}", fn, [7, 2])
    call(f"op_{name}_floats", f"operator.{name}", fn, [7.5, 2])
    call(f"op_{name}_tensor", f"operator.{name}", fn, [x, 2])
    call(f"op_{name}_tensor_tensor", f"operator.{name}", fn, [x, pos])
    call(f"op_{name}_int_tensor", f"operator.{name}", fn, [xi, 2])
    call(f"op_{name}_number_tensor", f"operator.{name}", fn, [2, x])
    call(f"op_{name}_bcast", f"operator.{name}", fn, [r(3), r(2, 3)])
call("op_iadd_list", "operator.iadd", operator.iadd, [[1], [2]])
call("op_iadd_tuple", "operator.iadd", operator.iadd, [(1,), (2,)])
call("op_itruediv_zero", "operator.itruediv", operator.itruediv, [1, 0])

# atan2 / lerp / nan_to_num (ops-more.c)
call("atan2", "torch.atan2", torch.atan2, [r(2, 4), r(2, 4)])
call("atan2_bcast", "torch.atan2", torch.atan2, [r(3, 1), r(4)])
call("atan2_int", "torch.atan2", torch.atan2, [torch.tensor([1, -2, 0]), torch.tensor([3, 4, 0])])
call("arctan2", "torch.arctan2", torch.arctan2, [r(3), r(3).double()])
call("m_atan2", "Tensor.atan2", method("atan2"), [r(3), r(3)])
call("lerp", "torch.lerp", torch.lerp, [r(2, 4), r(2, 4), 0.3])
call("lerp_high", "torch.lerp", torch.lerp, [r(2, 4), r(4), 0.75])
call("lerp_dtype_err", "torch.lerp", torch.lerp, [r(2), r(2).double(), 0.5])
call("m_lerp", "Tensor.lerp", method("lerp"), [r(3).double(), r(3).double(), 2.0])
nt = torch.tensor([1., nan, inf, -inf, -2.5])
call("nan_to_num", "torch.nan_to_num", torch.nan_to_num, [nt])
call("nan_to_num_args", "torch.nan_to_num", torch.nan_to_num, [nt, 1.0, 100.0, -100.0])
call("nan_to_num_kw", "torch.nan_to_num", torch.nan_to_num, [nt.double()], {"posinf": 7.0})
call("nan_to_num_int", "torch.nan_to_num", torch.nan_to_num, [torch.tensor([1, 2])])
call("m_nan_to_num", "Tensor.nan_to_num", method("nan_to_num"), [nt], {"nan": -1.0})
call("logaddexp", "torch.logaddexp", torch.logaddexp, [r(2, 4) * 20, r(4)])
call("logaddexp_inf", "torch.logaddexp", torch.logaddexp, [torch.tensor([-inf, inf, 1.]),
                                                            torch.tensor([-inf, inf, -inf])])
call("logaddexp_long_err", "torch.logaddexp", torch.logaddexp, [torch.tensor([1]), torch.tensor([2])])
call("m_logaddexp", "Tensor.logaddexp", method("logaddexp"), [r(3).double(), r(3)])
call("hypot", "torch.hypot", torch.hypot, [r(2, 4), r(2, 1)])
call("hypot_long_err", "torch.hypot", torch.hypot, [torch.tensor([1]), torch.tensor([2])])
call("m_hypot", "Tensor.hypot", method("hypot"), [r(3), r(3)])

cases.write("goldens/ops/elementwise.json")
print(len(cases.cases), "cases")
