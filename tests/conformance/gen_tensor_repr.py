"""Goldens for libfx's tensor printing: repr(t) of PyTorch 1.13 for many tensors (all dtypes,
0-d, empty, special values, every magnitude, wrapped rows, summarised tensors, views,
requires_grad). Run from tests/conformance with /usr/bin/python3; writes
goldens/tensor_repr.json as [{"id", "tensor": <golden_encode tensor>, "repr"}]."""
import json

import torch

from golden_encode import make_input

cases = []


def add(case_id, t, view=None):
    enc, v = make_input(t, view)
    if t.requires_grad:
        v = v.detach().requires_grad_(True)
        enc["tensor"]["requires_grad"] = True
    assert not any(c["id"] == case_id for c in cases), case_id
    cases.append({"id": case_id, "tensor": enc, "repr": repr(v)})


g = torch.Generator().manual_seed(1234)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)


nan, inf = float("nan"), float("inf")

# ---- 0-d ----
for i, x in enumerate([3.0, 1.5, -0.0, 0.0, nan, inf, -inf, 1e10, 1e-5, 123456.789, -2.5, 1e8,
                       1e9, 0.1, 1e-4]):
    add(f"scalar_f32_{i}", torch.tensor(x))
add("scalar_f64", torch.tensor(0.1, dtype=torch.float64))
add("scalar_f16", torch.tensor(0.1, dtype=torch.float16))
add("scalar_i64", torch.tensor(7))
add("scalar_i64_neg", torch.tensor(-3))
add("scalar_i32", torch.tensor(7, dtype=torch.int32))
add("scalar_u8", torch.tensor(200, dtype=torch.uint8))
add("scalar_bool", torch.tensor(True))
add("scalar_bool_false", torch.tensor(False))
add("scalar_requires_grad", torch.tensor(2.0, requires_grad=True))

# ---- 1-d, fixed values ----
fixed = {
    "simple": [1.5, 2.25],
    "intvals": [1.0, 2.0],
    "intvals_neg": [-1.0, 20.0, 300.0],
    "negzero": [-0.0, 1.0],
    "negzero_frac": [-0.0, 0.5],
    "zeros": [0.0, 0.0, 0.0],
    "allnan": [nan, nan],
    "nan_int": [1.0, nan, 3.0],
    "nan_frac": [1.5, nan, -inf, inf],
    "infs": [inf, -inf],
    "ratio_1000": [1.0, 1000.0],
    "ratio_1001": [1.0, 1001.0],
    "ratio_frac_1000": [0.5, 500.0],
    "ratio_frac_1001": [0.5, 500.5],
    "max_1e8": [1e8, 2.0],
    "max_1e8_frac": [1e8, 1e6 + 0.5],
    "max_above_1e8": [100000001.0],
    "max_above_1e8_frac": [100000000.5],
    "min_1e-4": [1e-4, 0.05],
    "min_below_1e-4": [9.9e-5, 0.05],
    "tiny": [1e-10, 2e-10],
    "huge": [1e30, -3e35],
    "mixed_sign": [-1.23456, 0.5, 100.25],
    "rounding": [0.00005, 0.00015, 0.99995, 2.5e-5],
    "round_up": [9.99996, 0.12345],
    "big_int": [123456789.0],
    "big_frac": [99999.5, 1.25],
    "sci_with_nan": [1e-8, nan, 1.0],
    "zero_and_small": [0.0, 1e-5],
    "single": [42.0],
    "single_frac": [0.3333],
    "neg_only": [-5.0, -0.25],
}
for name, vals in fixed.items():
    add(f"f32_{name}", torch.tensor(vals))
add("f64_frac", torch.tensor([0.1, 0.2, 1 / 3], dtype=torch.float64))
add("f64_int", torch.tensor([1.0, 2.0], dtype=torch.float64))
add("f64_sci", torch.tensor([1e-300, 1e300], dtype=torch.float64))
add("f16_frac", torch.tensor([0.1, 0.2, 65504.0], dtype=torch.float16))
add("f16_int", torch.tensor([1.0, -2.0], dtype=torch.float16))
add("f16_inf", torch.tensor([inf, 1.5], dtype=torch.float16))

# ---- integer and bool dtypes ----
for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]:
    name = str(dt).replace("torch.", "")
    add(f"{name}_small", torch.tensor([1, 2, 3], dtype=dt))
    add(f"{name}_2d", torch.tensor([[1, 100], [3, 4]], dtype=dt))
    add(f"{name}_empty", torch.zeros(0, dtype=dt))
add("int64_neg", torch.tensor([-1, 10, -100]))
add("int64_big", torch.tensor([2 ** 62, -2 ** 62]))
add("int64_long_row", torch.arange(50) * 1000)
add("int32_long_row", torch.arange(40, dtype=torch.int32) - 20)
add("bool_1d", torch.tensor([True, False]))
add("bool_all_true", torch.tensor([True, True]))
add("bool_2d", torch.tensor([[True, False, True], [False, False, True]]))
add("bool_long_row", torch.arange(30) % 3 == 0)
add("bool_empty", torch.zeros(0, dtype=torch.bool))

# ---- empty ----
add("empty_1d", torch.zeros(0))
add("empty_0x3", torch.zeros(0, 3))
add("empty_2x0", torch.zeros(2, 0))
add("empty_2x0x3", torch.zeros(2, 0, 3))
add("empty_f64", torch.zeros(0, dtype=torch.float64))
add("empty_0x3_i32", torch.zeros(0, 3, dtype=torch.int32))
add("empty_requires_grad", torch.zeros(0, requires_grad=True))

# ---- shapes ----
for shape in [(2, 3), (3, 1), (1, 3), (1, 1), (4, 5), (2, 3, 4), (2, 1, 2), (3, 2, 2, 2),
              (1, 1, 1, 1), (2, 2, 1, 2, 2), (6, 2)]:
    add("randn_" + "x".join(map(str, shape)), randn(*shape))
add("arange_2x3", torch.arange(6.0).reshape(2, 3))
add("int_3d", torch.arange(24).reshape(2, 3, 4))
add("bool_3d", torch.arange(12).reshape(2, 3, 2) % 2 == 0)

# ---- magnitudes ----
for k in range(-8, 12):
    add(f"mag_1e{k}", randn(5) * 10.0 ** k)
for k in [-5, -3, 0, 3, 5, 9]:
    add(f"mag_2d_1e{k}", randn(3, 3) * 10.0 ** k)
    add(f"mag_f64_1e{k}", randn(4, dtype=torch.float64) * 10.0 ** k)
add("mag_int_sci", torch.tensor([1.0, 1e5, 3e9]))

# ---- wrapping ----
add("wrap_arange30", torch.arange(30.0))
add("wrap_randn40", randn(40))
add("wrap_2d", randn(3, 25))
add("wrap_3d", randn(2, 2, 20))
add("wrap_sci", randn(30) * 1e-6)
add("wrap_f64", randn(20, dtype=torch.float64))
add("wrap_f64_2d", randn(2, 12, dtype=torch.float64))
add("wrap_exact_fit", torch.arange(11.0) + 0.5)
add("wrap_i64_2d", torch.arange(60).reshape(2, 30))
add("wrap_neg", -randn(26).abs())
add("wrap_requires_grad", randn(25).requires_grad_(True))
add("suffix_wrap_f64", torch.arange(11.5, 22.5, dtype=torch.float64))
add("suffix_wrap_2d_f64", (torch.arange(22, dtype=torch.float64) + 0.5).reshape(2, 11))
add("suffix_wrap_i32", torch.arange(20, dtype=torch.int32) * 100)
add("suffix_two", torch.arange(10.5, dtype=torch.float64).requires_grad_(True))

add("wrap_zeros", torch.zeros(30))
add("wrap_nan", torch.full((30,), nan))
add("wrap_ones", torch.ones(30))
add("wrap_zeros_int", torch.zeros(40, dtype=torch.int64))
add("wrap_bool_true", torch.ones(30, dtype=torch.bool))
add("wrap_half", torch.full((30,), 0.5))
add("wrap_inf", torch.tensor([inf, -inf] * 14))
add("zero_ten", torch.tensor([0.0, 10.0]))
add("negzero_ten", torch.tensor([-0.0, 10.0]))
add("negzero_sci", torch.tensor([1e-5, -0.0]))
add("negzero_2d", torch.tensor([[-0.0, 2.0], [3.0, -0.0]]))
for n in [17, 18, 19]:
    add(f"suffix_edge_i32_{n}", torch.zeros(n, dtype=torch.int32))
    add(f"suffix_edge_grad_{n}", torch.zeros(n + 1).requires_grad_(True))
add("suffix_two_multiline",
    (torch.arange(105.0, dtype=torch.float64) / 1000 - 0.05).reshape(1, 7, 3, 5).requires_grad_(True))
add("suffix_size_dtype_grad", torch.zeros(0, 3, dtype=torch.float64).requires_grad_(True))
add("suffix_edge_2d", torch.zeros(2, 18, dtype=torch.int32))

# ---- summarised ----
add("sum_1d_1001", torch.arange(1001.0))
add("sum_1d_1000", torch.arange(1000.0))
add("sum_1d_randn", randn(2000))
add("sum_2d", randn(40, 40))
add("sum_2d_wide", randn(2, 600))
add("sum_2d_tall", randn(600, 2))
add("sum_3d", randn(11, 10, 10))
add("sum_int", torch.arange(5000).reshape(50, 100))
add("sum_bool", torch.arange(1500) % 7 == 0)
add("sum_sci", randn(1200) * 1e-7)
add("sum_sci_edges", torch.cat([torch.tensor([1e-9]), torch.ones(1000), torch.tensor([5.0])]))
add("sum_f64", randn(30, 40, dtype=torch.float64))
add("sum_4d", randn(5, 5, 5, 10))

# ---- views ----
base = randn(4, 6)
add("view_t", base, [["t"]])
add("view_slice", base, [["slice", 1, 1, 6, 2]])
add("view_permute", randn(2, 3, 4), [["permute", [2, 0, 1]]])
add("view_expand", randn(1, 3), [["expand", [4, 3]]])
add("view_slice_rows", base, [["slice", 0, 1, 3, 1]])

# ---- random mixes ----
for i in range(12):
    shape = [int(s) for s in torch.randint(1, 5, (int(torch.randint(1, 4, (1,), generator=g)),),
                                           generator=g)]
    t = randn(*shape)
    if i % 3 == 1:
        t = torch.round(t * 10)
    if i % 4 == 2:
        t = t * 1e4
    add(f"mix_{i}", t)

with open("goldens/tensor_repr.json", "w") as f:
    json.dump({"torch_version": torch.__version__, "cases": cases}, f, indent=0, allow_nan=False)
    f.write("\n")
print(len(cases), "cases")
