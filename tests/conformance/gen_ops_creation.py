"""Goldens for tensor factories, random ops and torch.nn.init, recorded from PyTorch 1.13.

Run from tests/conformance/ with /usr/bin/python3. Writes
  goldens/ops/creation.json   cases for the generic driver (tests/core/test-ops-golden.c);
                              random cases carry a "seed" so the driver reseeds first
  goldens/random.json         exact draw sequences for tests/core/test-random.c: after
                              torch.manual_seed(seed), a list of calls and the values each
                              returned (floats as Python reprs, which round-trip exactly)
"""
import json
import math
import os
import warnings

import torch
import torch.nn.init as init

from golden_encode import Cases, encode, make_input

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))


def E(v):
    return encode(v)


def base(shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


def creation_cases():
    c = Cases()
    f32, f64, i64 = torch.float32, torch.float64, torch.int64

    # ---- zeros / ones / empty / full
    c.add("zeros_varargs", "torch.zeros", None, [2, 3], {}, lambda: torch.zeros(2, 3))
    c.add("zeros_tuple", "torch.zeros", None, [E((2, 3))], {}, lambda: torch.zeros((2, 3)))
    c.add("zeros_list_int32", "torch.zeros", None, [E([4])], {"dtype": E(torch.int32)},
          lambda: torch.zeros([4], dtype=torch.int32))
    c.add("zeros_scalar", "torch.zeros", None, [E(())], {}, lambda: torch.zeros(()))
    c.add("zeros_empty_dim", "torch.zeros", None, [0, 3], {}, lambda: torch.zeros(0, 3))
    c.add("zeros_bool", "torch.zeros", None, [2], {"dtype": E(torch.bool)},
          lambda: torch.zeros(2, dtype=torch.bool))
    c.add("zeros_negative", "torch.zeros", None, [2, -1], {}, lambda: torch.zeros(2, -1))
    c.add("zeros_requires_grad", "torch.zeros", None, [2], {"requires_grad": True},
          lambda: torch.zeros(2, requires_grad=True))
    c.add("zeros_requires_grad_int", "torch.zeros", None, [2],
          {"dtype": E(i64), "requires_grad": True},
          lambda: torch.zeros(2, dtype=i64, requires_grad=True))
    c.add("ones_basic", "torch.ones", None, [3, 1], {}, lambda: torch.ones(3, 1))
    c.add("ones_int8", "torch.ones", None, [E((2, 2))], {"dtype": E(torch.int8)},
          lambda: torch.ones((2, 2), dtype=torch.int8))
    c.add("ones_f64_kw_size", "torch.ones", None, [], {"size": E((2,)), "dtype": E(f64)},
          lambda: torch.ones(size=(2,), dtype=f64))
    c.add("empty_zero_size", "torch.empty", None, [0], {}, lambda: torch.empty(0))
    c.add("full_int_infers_int64", "torch.full", None, [E((2,)), 3], {},
          lambda: torch.full((2,), 3))
    c.add("full_bool", "torch.full", None, [E((2,)), True], {}, lambda: torch.full((2,), True))
    c.add("full_float", "torch.full", None, [E((2, 2)), 3.5], {}, lambda: torch.full((2, 2), 3.5))
    c.add("full_int_as_f64", "torch.full", None, [E((2,)), 3], {"dtype": E(f64)},
          lambda: torch.full((2,), 3, dtype=f64))
    c.add("full_float_as_int32", "torch.full", None, [E((3,)), -3.7], {"dtype": E(torch.int32)},
          lambda: torch.full((3,), -3.7, dtype=torch.int32))
    c.add("full_scalar_shape", "torch.full", None, [E(()), 3.7], {}, lambda: torch.full((), 3.7))
    c.add("full_tensor_fill", "torch.full", None, [E((2,)), E(torch.tensor(3.0))], {},
          lambda: torch.full((2,), torch.tensor(3.0)))
    c.add("full_uint8_wraps", "torch.full", None, [E((2,)), -3], {"dtype": E(torch.uint8)},
          lambda: torch.full((2,), -3, dtype=torch.uint8))
    c.add("full_negative_dim", "torch.full", None, [E([2, -1]), 3.7], {},
          lambda: torch.full([2, -1], 3.7))
    c.add("full_overflow_int8", "torch.full", None, [E((2,)), 300], {"dtype": E(torch.int8)},
          lambda: torch.full((2,), 300, dtype=torch.int8))
    c.add("full_overflow_int32", "torch.full", None, [E((2,)), 1e10], {"dtype": E(torch.int32)},
          lambda: torch.full((2,), 1e10, dtype=torch.int32))
    c.add("full_nan_int", "torch.full", None, [E((1,)), E(float("nan"))],
          {"dtype": E(torch.int16)},
          lambda: torch.full((1,), float("nan"), dtype=torch.int16))
    c.add("full_overflow_float", "torch.full", None, [E((1,)), 1e40], {},
          lambda: torch.full((1,), 1e40))
    c.add("full_inf_float", "torch.full", None, [E((1,)), E(float("inf"))], {},
          lambda: torch.full((1,), float("inf")))

    # ---- eye
    c.add("eye_n", "torch.eye", None, [3], {}, lambda: torch.eye(3))
    c.add("eye_nm", "torch.eye", None, [2, 3], {}, lambda: torch.eye(2, 3))
    c.add("eye_int64", "torch.eye", None, [2], {"dtype": E(i64)}, lambda: torch.eye(2, dtype=i64))
    c.add("eye_bool_tall", "torch.eye", None, [3, 2], {"dtype": E(torch.bool)},
          lambda: torch.eye(3, 2, dtype=torch.bool))
    c.add("eye_zero", "torch.eye", None, [0], {}, lambda: torch.eye(0))
    c.add("eye_negative_n", "torch.eye", None, [-1], {}, lambda: torch.eye(-1))
    c.add("eye_negative_m", "torch.eye", None, [2, -3], {}, lambda: torch.eye(2, -3))

    # ---- arange
    c.add("arange_end", "torch.arange", None, [5], {}, lambda: torch.arange(5))
    c.add("arange_float_step", "torch.arange", None, [0, 1, 0.1], {},
          lambda: torch.arange(0, 1, 0.1))
    c.add("arange_half_steps", "torch.arange", None, [1, 2.5, 0.5], {},
          lambda: torch.arange(1, 2.5, 0.5))
    c.add("arange_float_start", "torch.arange", None, [1.0, 4], {},
          lambda: torch.arange(1.0, 4))
    c.add("arange_f64", "torch.arange", None, [5], {"dtype": E(f64)},
          lambda: torch.arange(5, dtype=f64))
    c.add("arange_int_dtype_float_args", "torch.arange", None, [0.5, 3], {"dtype": E(i64)},
          lambda: torch.arange(0.5, 3, dtype=i64))
    c.add("arange_int32", "torch.arange", None, [-3, 10, 4], {"dtype": E(torch.int32)},
          lambda: torch.arange(-3, 10, 4, dtype=torch.int32))
    c.add("arange_negative_step", "torch.arange", None, [5, 0, -1], {},
          lambda: torch.arange(5, 0, -1))
    c.add("arange_mixed", "torch.arange", None, [-3, 3, 2.5], {},
          lambda: torch.arange(-3, 3, 2.5))
    c.add("arange_big_ints", "torch.arange", None, [2 ** 53 + 1, 2 ** 53 + 4], {},
          lambda: torch.arange(2 ** 53 + 1, 2 ** 53 + 4))
    c.add("arange_empty_int", "torch.arange", None, [1, 1], {}, lambda: torch.arange(1, 1))
    c.add("arange_empty_float", "torch.arange", None, [0.5, 0.5, 1], {},
          lambda: torch.arange(0.5, 0.5, 1))
    c.add("arange_kw", "torch.arange", None, [], {"start": 2, "end": 9, "step": 3},
          lambda: torch.arange(start=2, end=9, step=3))
    # long runs: exercise the vector blocks and the scalar tail (test-creation compares exactly)
    for dt in (f32, f64):
        n = torch.dtype.__repr__(dt).split(".")[1]
        c.add(f"arange_long_{n}", "torch.arange", None, [-3.3, 70.7, 0.37], {"dtype": E(dt)},
              lambda dt=dt: torch.arange(-3.3, 70.7, 0.37, dtype=dt))
        c.add(f"arange_long2_{n}", "torch.arange", None, [1e6, 1e6 + 30, 0.3], {"dtype": E(dt)},
              lambda dt=dt: torch.arange(1e6, 1e6 + 30, 0.3, dtype=dt))
    c.add("arange_zero_step", "torch.arange", None, [0, 5, 0], {}, lambda: torch.arange(0, 5, 0))
    c.add("arange_bad_sign", "torch.arange", None, [5, 0], {}, lambda: torch.arange(5, 0))
    c.add("arange_bad_sign_neg", "torch.arange", None, [0, 5, -1], {},
          lambda: torch.arange(0, 5, -1))
    c.add("arange_inf", "torch.arange", None, [E(float("inf"))], {},
          lambda: torch.arange(float("inf")))
    c.add("arange_overflow", "torch.arange", None, [0, 1e20, 1e-5], {},
          lambda: torch.arange(0, 1e20, 1e-5))

    # ---- linspace
    c.add("linspace_basic", "torch.linspace", None, [0, 1, 5], {}, lambda: torch.linspace(0, 1, 5))
    c.add("linspace_one", "torch.linspace", None, [2, 7, 1], {}, lambda: torch.linspace(2, 7, 1))
    c.add("linspace_zero", "torch.linspace", None, [0, 1, 0], {}, lambda: torch.linspace(0, 1, 0))
    c.add("linspace_negative", "torch.linspace", None, [0, 1, -1], {},
          lambda: torch.linspace(0, 1, -1))
    c.add("linspace_int64", "torch.linspace", None, [0, 10, 5], {"dtype": E(i64)},
          lambda: torch.linspace(0, 10, 5, dtype=i64))
    c.add("linspace_int64_neg", "torch.linspace", None, [-1, 10, 7], {"dtype": E(i64)},
          lambda: torch.linspace(-1, 10, 7, dtype=i64))
    c.add("linspace_int32_long", "torch.linspace", None, [-100, 7, 45],
          {"dtype": E(torch.int32)}, lambda: torch.linspace(-100, 7, 45, dtype=torch.int32))
    c.add("linspace_kw_steps", "torch.linspace", None, [-1.5, 2.5], {"steps": 9},
          lambda: torch.linspace(-1.5, 2.5, steps=9))
    for dt in (f32, f64):
        n = torch.dtype.__repr__(dt).split(".")[1]
        c.add(f"linspace_long_{n}", "torch.linspace", None, [-3.3, 70.7, 77], {"dtype": E(dt)},
              lambda dt=dt: torch.linspace(-3.3, 70.7, 77, dtype=dt))
        c.add(f"linspace_long2_{n}", "torch.linspace", None, [0.1, 0.7, 101], {"dtype": E(dt)},
              lambda dt=dt: torch.linspace(0.1, 0.7, 101, dtype=dt))
        c.add(f"linspace_long3_{n}", "torch.linspace", None, [-3, 5.5, 45], {"dtype": E(dt)},
              lambda dt=dt: torch.linspace(-3, 5.5, 45, dtype=dt))

    # ---- torch.tensor
    data_cases = [
        ("ints", [1, 2, 3]), ("floats_2d", [[1.0, 2], [3, 4]]), ("bools", [True, False]),
        ("bool_int", [True, 2]), ("int_float", [1, 2.5]), ("empty", []), ("empty_2d", [[]]),
        ("empty_rows", [[], []]), ("int_scalar", 3), ("float_scalar", 3.5),
        ("tuple", (1, 2)), ("nested_tuple", ((1, 2), (3, 4))),
        ("inf_nan", [float("inf"), float("nan")]), ("huge_float", [1e300]),
        ("ragged", [[1, 2], [3]]), ("ragged_deep", [[[1], [2]], [[3], [4, 5]]]),
        ("not_a_sequence", [[1, 2], 3]), ("list_in_leaf", [1, [2, 3]]),
        ("float_list_in_leaf", [1.0, [2, 3]]), ("str_item", ["a"]), ("str", "a"),
        ("none", None), ("none_item", [1, None]), ("mixed_str", [1, "a"]),
    ]
    for name, data in data_cases:
        c.add(f"tensor_{name}", "torch.tensor", None, [E(data)], {},
              lambda data=data: torch.tensor(data))
    c.add("tensor_f64", "torch.tensor", None, [E([1, 2])], {"dtype": E(f64)},
          lambda: torch.tensor([1, 2], dtype=f64))
    c.add("tensor_trunc_int32", "torch.tensor", None, [E([1.7, -2.7])], {"dtype": E(torch.int32)},
          lambda: torch.tensor([1.7, -2.7], dtype=torch.int32))
    c.add("tensor_overflow_uint8", "torch.tensor", None, [E([300])], {"dtype": E(torch.uint8)},
          lambda: torch.tensor([300], dtype=torch.uint8))
    c.add("tensor_overflow_int8", "torch.tensor", None, [E([1e10])], {"dtype": E(torch.int8)},
          lambda: torch.tensor([1e10], dtype=torch.int8))
    c.add("tensor_nan_int32", "torch.tensor", None, [E([float("nan")])],
          {"dtype": E(torch.int32)}, lambda: torch.tensor([float("nan")], dtype=torch.int32))
    c.add("tensor_to_bool", "torch.tensor", None, [E([2.5, 0])], {"dtype": E(torch.bool)},
          lambda: torch.tensor([2.5, 0], dtype=torch.bool))
    c.add("tensor_of_0d_tensors", "torch.tensor", None,
          [E([torch.tensor(1.5), 2])], {}, lambda: torch.tensor([torch.tensor(1.5), 2]))
    c.add("tensor_of_f64_0d", "torch.tensor", None,
          [E([torch.tensor(2, dtype=f64), 3])], {},
          lambda: torch.tensor([torch.tensor(2, dtype=f64), 3]))
    c.add("tensor_of_1elem", "torch.tensor", None, [E([torch.tensor([1])])], {},
          lambda: torch.tensor([torch.tensor([1])]))
    c.add("tensor_of_2elem", "torch.tensor", None, [E([torch.tensor([1, 2])])], {},
          lambda: torch.tensor([torch.tensor([1, 2])]))
    c.add("tensor_copy", "torch.tensor", None, [E(torch.tensor([1, 2]))], {},
          lambda: torch.tensor(torch.tensor([1, 2])))
    c.add("tensor_requires_grad", "torch.tensor", None, [E([1.0, 2])], {"requires_grad": True},
          lambda: torch.tensor([1.0, 2], requires_grad=True))
    c.add("tensor_requires_grad_int", "torch.tensor", None, [E([1, 2])], {"requires_grad": True},
          lambda: torch.tensor([1, 2], requires_grad=True))

    # ---- *_like
    x = base((2, 3))
    xi = torch.tensor([[1, 2, 3], [4, 5, 6]])
    c.add("zeros_like", "torch.zeros_like", None, [make_input(x)[0]], {},
          lambda: torch.zeros_like(x))
    c.add("zeros_like_dtype", "torch.zeros_like", None, [make_input(x)[0]], {"dtype": E(i64)},
          lambda: torch.zeros_like(x, dtype=i64))
    enc, v = make_input(x, [["t"]])
    c.add("zeros_like_transposed", "torch.zeros_like", None, [enc], {},
          lambda v=v: torch.zeros_like(v))
    c.add("ones_like_int", "torch.ones_like", None, [make_input(xi)[0]], {},
          lambda: torch.ones_like(xi))
    c.add("full_like_int_trunc", "torch.full_like", None, [make_input(xi)[0], 2.7], {},
          lambda: torch.full_like(xi, 2.7))
    c.add("full_like_f64", "torch.full_like", None, [make_input(x)[0], 2.7], {"dtype": E(f64)},
          lambda: torch.full_like(x, 2.7, dtype=f64))
    c.add("full_like_overflow", "torch.full_like", None,
          [make_input(xi.to(torch.int8))[0], 300], {},
          lambda: torch.full_like(xi.to(torch.int8), 300))
    c.add("rand_like", "torch.rand_like", None, [make_input(x)[0]], {},
          lambda: torch.rand_like(x), seed=11)
    c.add("rand_like_transposed", "torch.rand_like", None, [enc], {},
          lambda v=v: torch.rand_like(v), seed=11)
    c.add("rand_like_int_error", "torch.rand_like", None, [make_input(xi)[0]], {},
          lambda: torch.rand_like(xi), seed=11)
    c.add("randn_like", "torch.randn_like", None, [make_input(x)[0]], {"dtype": E(f64)},
          lambda: torch.randn_like(x, dtype=f64), seed=12)
    big = base((4, 5))
    c.add("randn_like_20", "torch.randn_like", None, [make_input(big)[0]], {},
          lambda: torch.randn_like(big), seed=12)
    c.add("randint_like_high", "torch.randint_like", None, [make_input(x)[0], 5], {},
          lambda: torch.randint_like(x, 5), seed=13)
    c.add("randint_like_low_high", "torch.randint_like", None, [make_input(xi)[0], -3, 5], {},
          lambda: torch.randint_like(xi, -3, 5), seed=13)

    # ---- random factories
    for seed in (0, 7):
        for shape in ((3,), (2, 3), (17,)):
            for dt in (f32, f64):
                n = str(dt).split(".")[1]
                sid = f"{seed}_{'x'.join(map(str, shape))}_{n}"
                c.add(f"rand_{sid}", "torch.rand", None, list(shape), {"dtype": E(dt)},
                      lambda shape=shape, dt=dt: torch.rand(*shape, dtype=dt), seed=seed,
                      rtol=0, atol=0)
                c.add(f"randn_{sid}", "torch.randn", None, [E(shape)], {"dtype": E(dt)},
                      lambda shape=shape, dt=dt: torch.randn(shape, dtype=dt), seed=seed,
                      rtol=0, atol=0)
    c.add("randn_4x5", "torch.randn", None, [4, 5], {}, lambda: torch.randn(4, 5), seed=3,
          rtol=0, atol=0)
    c.add("rand_scalar", "torch.rand", None, [E(())], {}, lambda: torch.rand(()), seed=3)
    c.add("rand_long_error", "torch.rand", None, [3], {"dtype": E(i64)},
          lambda: torch.rand(3, dtype=i64), seed=3)
    c.add("randn_long_error", "torch.randn", None, [3], {"dtype": E(i64)},
          lambda: torch.randn(3, dtype=i64), seed=3)
    c.add("rand_negative", "torch.rand", None, [-1], {}, lambda: torch.rand(-1), seed=3)
    c.add("randint_low_high", "torch.randint", None, [3, 10, E((5,))], {},
          lambda: torch.randint(3, 10, (5,)), seed=5)
    c.add("randint_high", "torch.randint", None, [10, E((2, 3))], {},
          lambda: torch.randint(10, (2, 3)), seed=5)
    c.add("randint_float", "torch.randint", None, [3, 10, E((5,))], {"dtype": E(f32)},
          lambda: torch.randint(3, 10, (5,), dtype=f32), seed=5)
    c.add("randint_int8", "torch.randint", None, [-5, 5, E((6,))], {"dtype": E(torch.int8)},
          lambda: torch.randint(-5, 5, (6,), dtype=torch.int8), seed=5)
    c.add("randint_wide", "torch.randint", None, [-2 ** 40, 10, E((4,))], {},
          lambda: torch.randint(-2 ** 40, 10, (4,)), seed=5)
    c.add("randint_kw_size", "torch.randint", None, [0, 2], {"size": E((4,)),
                                                            "dtype": E(torch.bool)},
          lambda: torch.randint(0, 2, size=(4,), dtype=torch.bool), seed=5)
    c.add("randint_empty_range", "torch.randint", None, [5, 3, E((2,))], {},
          lambda: torch.randint(5, 3, (2,)), seed=5)
    c.add("randint_int8_bounds", "torch.randint", None, [-2 ** 40, 0, E((2,))],
          {"dtype": E(torch.int8)},
          lambda: torch.randint(-2 ** 40, 0, (2,), dtype=torch.int8), seed=5)
    c.add("randint_uint8_to", "torch.randint", None, [0, 300, E((2,))],
          {"dtype": E(torch.uint8)},
          lambda: torch.randint(0, 300, (2,), dtype=torch.uint8), seed=5)
    c.add("normal_size", "torch.normal", None, [2.0, 3.0, E((4,))], {},
          lambda: torch.normal(2.0, 3.0, (4,)), seed=6)
    c.add("normal_size_20", "torch.normal", None, [-1.0, 0.5], {"size": E((20,))},
          lambda: torch.normal(-1.0, 0.5, size=(20,)), seed=6)
    c.add("normal_negative_std", "torch.normal", None, [0.0, -1.0, E((2,))], {},
          lambda: torch.normal(0.0, -1.0, (2,)), seed=6)
    m = base((2, 3))
    c.add("normal_tensor_mean", "torch.normal", None, [make_input(m)[0], 0.5], {},
          lambda: torch.normal(m, 0.5), seed=6)
    pr = torch.tensor([0.1, 0.5, 0.9, 0.3] * 4)
    c.add("bernoulli_tensor", "torch.bernoulli", None, [make_input(pr)[0]], {},
          lambda: torch.bernoulli(pr), seed=8)
    c.add("bernoulli_tensor_f64", "torch.bernoulli", None, [make_input(pr.double())[0]], {},
          lambda: torch.bernoulli(pr.double()), seed=8)
    c.add("bernoulli_p", "torch.bernoulli", None, [make_input(pr)[0], 0.25], {},
          lambda: torch.bernoulli(pr, 0.25), seed=8)
    c.add("bernoulli_bad_p", "torch.bernoulli", None, [make_input(pr * 2)[0]], {},
          lambda: torch.bernoulli(pr * 2), seed=8)

    c.add("randperm_10", "torch.randperm", None, [10], {}, lambda: torch.randperm(10), seed=14)
    c.add("randperm_float", "torch.randperm", None, [7], {"dtype": E(f32)},
          lambda: torch.randperm(7, dtype=f32), seed=14)
    c.add("randperm_half", "torch.randperm", None, [20], {"dtype": E(torch.float16)},
          lambda: torch.randperm(20, dtype=torch.float16), seed=14)
    c.add("randperm_zero", "torch.randperm", None, [0], {}, lambda: torch.randperm(0), seed=14)
    c.add("randperm_negative", "torch.randperm", None, [-1], {}, lambda: torch.randperm(-1))
    c.add("randperm_int8_overflow", "torch.randperm", None, [300], {"dtype": E(torch.int8)},
          lambda: torch.randperm(300, dtype=torch.int8))
    c.add("randperm_bool", "torch.randperm", None, [3], {"dtype": E(torch.bool)},
          lambda: torch.randperm(3, dtype=torch.bool))
    c.add("method_bernoulli", "Tensor.bernoulli", None, [make_input(pr)[0]], {},
          lambda: pr.bernoulli(), seed=15)
    c.add("method_bernoulli_prob", "Tensor.bernoulli", None, [make_input(pr.double())[0], 0.7], {},
          lambda: pr.double().bernoulli(0.7), seed=15)

    # ---- Tensor.new_*
    c.add("new_zeros_varargs", "Tensor.new_zeros", None, [make_input(x.double())[0], 2, 3], {},
          lambda: x.double().new_zeros(2, 3))
    c.add("new_zeros_tuple", "Tensor.new_zeros", None, [make_input(xi)[0], E((3,))], {},
          lambda: xi.new_zeros((3,)))
    c.add("new_ones_dtype", "Tensor.new_ones", None, [make_input(x)[0], 2, 3],
          {"dtype": E(torch.int32)}, lambda: x.new_ones(2, 3, dtype=torch.int32))
    c.add("new_full_int", "Tensor.new_full", None, [make_input(xi)[0], E((2, 2)), 7.9], {},
          lambda: xi.new_full((2, 2), 7.9))
    c.add("new_tensor_keeps_dtype", "Tensor.new_tensor", None, [make_input(xi)[0], E([1.5])], {},
          lambda: xi.new_tensor([1.5]))
    c.add("new_tensor_dtype", "Tensor.new_tensor", None, [make_input(xi)[0], E([1.5, 2])],
          {"dtype": E(f64)}, lambda: xi.new_tensor([1.5, 2], dtype=f64))
    c.add("new_empty_zero", "Tensor.new_empty", None, [make_input(x)[0], E((0, 2))], {},
          lambda: x.new_empty((0, 2)))

    # ---- in-place random methods (the golden is the mutated tensor they return)
    def inplace(case_id, op, shape, call, args=(), kwargs=None, seed=21, view=None,
                dtype=f32):
        t = torch.zeros(*shape, dtype=dtype)
        enc, v = make_input(t, view)
        c.add("method_" + case_id, op, None, [enc] + [E(a) for a in args],
              {k: E(w) for k, w in (kwargs or {}).items()}, lambda: call(v), seed=seed,
              rtol=0, atol=0)

    inplace("normal_small", "Tensor.normal_", (5,), lambda t: t.normal_(2, 0.5), (2, 0.5))
    inplace("normal_20", "Tensor.normal_", (20,), lambda t: t.normal_(-1, 3), (-1, 3))
    inplace("normal_kw", "Tensor.normal_", (2, 3), lambda t: t.normal_(std=2.0), (),
            {"std": 2.0}, dtype=f64)
    inplace("normal_transposed", "Tensor.normal_", (4, 5), lambda t: t.normal_(), (),
            view=[["t"]])
    inplace("normal_sliced", "Tensor.normal_", (6, 4), lambda t: t.normal_(), (),
            view=[["slice", 0, 0, 6, 2]])
    inplace("uniform_range", "Tensor.uniform_", (7,), lambda t: t.uniform_(-1.5, 2.5),
            (-1.5, 2.5))
    inplace("uniform_f64", "Tensor.uniform_", (7,), lambda t: t.uniform_(-1.5, 2.5),
            (-1.5, 2.5), dtype=f64)
    inplace("uniform_transposed", "Tensor.uniform_", (3, 4), lambda t: t.uniform_(), (),
            view=[["t"]])
    inplace("uniform_reversed", "Tensor.uniform_", (3,), lambda t: t.uniform_(2, 1), (2, 1))
    inplace("uniform_int_error", "Tensor.uniform_", (3,), lambda t: t.uniform_(), (), dtype=i64)
    inplace("normal_int_error", "Tensor.normal_", (3,), lambda t: t.normal_(), (), dtype=i64)
    inplace("normal_negative_std", "Tensor.normal_", (3,), lambda t: t.normal_(0, -1), (0, -1))
    inplace("random_from_to", "Tensor.random_", (8,), lambda t: t.random_(-4, 4), (-4, 4),
            dtype=i64)
    inplace("random_to", "Tensor.random_", (8,), lambda t: t.random_(6), (6,))
    inplace("bernoulli_p", "Tensor.bernoulli_", (10,), lambda t: t.bernoulli_(0.3), (0.3,))
    inplace("bernoulli_bad_p", "Tensor.bernoulli_", (3,), lambda t: t.bernoulli_(1.5), (1.5,))

    # ---- torch.nn.init
    def init_case(case_id, op, shape, call, args=(), kwargs=None, seed=31):
        t = torch.zeros(*shape)
        c.add(case_id, op, None, [make_input(t)[0]] + [E(a) for a in args],
              {k: E(w) for k, w in (kwargs or {}).items()}, lambda: call(t), seed=seed)

    init_case("init_uniform", "torch.nn.init.uniform_", (3, 4),
              lambda t: init.uniform_(t, -0.5, 0.5), (-0.5, 0.5))
    init_case("init_normal", "torch.nn.init.normal_", (4, 5),
              lambda t: init.normal_(t, 0, 0.02), (0, 0.02))
    init_case("init_constant", "torch.nn.init.constant_", (2, 3),
              lambda t: init.constant_(t, 0.3), (0.3,))
    init_case("init_zeros", "torch.nn.init.zeros_", (2, 3), init.zeros_)
    init_case("init_ones", "torch.nn.init.ones_", (2, 3), init.ones_)
    init_case("init_eye", "torch.nn.init.eye_", (3, 4), init.eye_)
    init_case("init_eye_1d", "torch.nn.init.eye_", (3,), init.eye_)
    init_case("init_xavier_uniform", "torch.nn.init.xavier_uniform_", (4, 5),
              init.xavier_uniform_)
    init_case("init_xavier_normal_gain", "torch.nn.init.xavier_normal_", (4, 5),
              lambda t: init.xavier_normal_(t, gain=2.0), (), {"gain": 2.0})
    init_case("init_kaiming_uniform_conv", "torch.nn.init.kaiming_uniform_", (4, 3, 2, 2),
              lambda t: init.kaiming_uniform_(t, a=math.sqrt(5)), (), {"a": math.sqrt(5)})
    init_case("init_kaiming_uniform_default", "torch.nn.init.kaiming_uniform_", (5, 3),
              init.kaiming_uniform_)
    init_case("init_kaiming_normal_fan_out", "torch.nn.init.kaiming_normal_", (6, 2, 3),
              lambda t: init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"), (),
              {"mode": "fan_out", "nonlinearity": "relu"})
    init_case("init_kaiming_1d", "torch.nn.init.kaiming_uniform_", (3,), init.kaiming_uniform_)
    init_case("init_xavier_1d", "torch.nn.init.xavier_uniform_", (3,), init.xavier_uniform_)
    init_case("init_kaiming_bad_mode", "torch.nn.init.kaiming_uniform_", (3, 4),
              lambda t: init.kaiming_uniform_(t, mode="bad"), (), {"mode": "bad"})
    init_case("init_kaiming_bad_nonlinearity", "torch.nn.init.kaiming_uniform_", (3, 4),
              lambda t: init.kaiming_uniform_(t, nonlinearity="bad"), (),
              {"nonlinearity": "bad"})
    init_case("init_kaiming_empty", "torch.nn.init.kaiming_uniform_", (0, 4),
              init.kaiming_uniform_)
    for name, args in [("relu", ("relu",)), ("leaky", ("leaky_relu", 0.2)),
                       ("leaky_default", ("leaky_relu",)), ("tanh", ("tanh",)),
                       ("conv2d", ("conv2d",)), ("selu", ("selu",)), ("sigmoid", ("sigmoid",)),
                       ("bad", ("bad",)), ("bad_slope", ("leaky_relu", "x"))]:
        c.add(f"calculate_gain_{name}", "torch.nn.init.calculate_gain", None,
              [E(a) for a in args], {}, lambda args=args: init.calculate_gain(*args))
    return c


# ---------------------------------------------------------------- exact sequences

def values(t):
    return [float(v) if t.dtype.is_floating_point else int(v) for v in t.reshape(-1).tolist()]


def random_sequences():
    """Each entry: seed and a list of calls made in order after torch.manual_seed(seed)."""
    seqs = []
    f32, f64 = torch.float32, torch.float64
    sizes = [1, 2, 15, 16, 17, 100]

    def run(seed, calls):
        torch.manual_seed(seed)
        out = []
        for call in calls:
            kind, dtype, n = call["kind"], call["dtype"], call["n"]
            dt = {"float32": f32, "float64": f64, "int64": torch.int64,
                  "int8": torch.int8, "bool": torch.bool}[dtype]
            a = call.get("args", [])
            if kind == "rand":
                t = torch.rand(n, dtype=dt)
            elif kind == "randn":
                t = torch.randn(n, dtype=dt)
            elif kind == "normal":
                t = torch.empty(n, dtype=dt).normal_(a[0], a[1])
            elif kind == "uniform":
                t = torch.empty(n, dtype=dt).uniform_(a[0], a[1])
            elif kind == "randint":
                t = torch.randint(a[0], a[1], (n,), dtype=dt)
            elif kind == "bernoulli":
                t = torch.empty(n, dtype=dt).bernoulli_(a[0])
            elif kind == "kaiming_uniform":
                t = torch.empty(n, a[0], dtype=dt)
                init.kaiming_uniform_(t, a=math.sqrt(5))
            else:
                raise ValueError(kind)
            out.append(dict(call, data=values(t)))
        seqs.append({"seed": seed, "calls": out})

    for seed in (0, 42, 2 ** 32 + 5):
        for kind, dtype, args in [("rand", "float32", []), ("rand", "float64", []),
                                  ("randn", "float32", []), ("randn", "float64", []),
                                  ("normal", "float32", [0.3, 2.5]),
                                  ("normal", "float64", [-1.0, 0.1]),
                                  ("uniform", "float32", [-1.7, 3.3]),
                                  ("uniform", "float64", [-1.7, 3.3]),
                                  ("randint", "int64", [-7, 100]),
                                  ("randint", "int64", [0, 2 ** 40]),
                                  ("bernoulli", "float32", [0.3])]:
            run(seed, [{"kind": kind, "dtype": dtype, "n": n, "args": args} for n in sizes])
    for seed in (3, 2024):
        run(seed, [{"kind": "randn", "dtype": "float32", "n": 1000, "args": []},
                   {"kind": "randn", "dtype": "float64", "n": 1000, "args": []},
                   {"kind": "normal", "dtype": "float32", "n": 1000, "args": [0.5, 0.25]}])
    # the Box–Muller cache carries across calls, dtypes and sizes
    run(9, [{"kind": "randn", "dtype": "float32", "n": 3, "args": []},
            {"kind": "randn", "dtype": "float64", "n": 2, "args": []},
            {"kind": "rand", "dtype": "float32", "n": 2, "args": []},
            {"kind": "randn", "dtype": "float64", "n": 1, "args": []},
            {"kind": "randn", "dtype": "float32", "n": 17, "args": []},
            {"kind": "randn", "dtype": "float32", "n": 1, "args": []}])
    # the seed a fresh CPU generator starts from
    run(67280421310721, [{"kind": "rand", "dtype": "float32", "n": 5, "args": []},
                         {"kind": "randn", "dtype": "float64", "n": 5, "args": []}])
    run(10, [{"kind": "kaiming_uniform", "dtype": "float32", "n": 8, "args": [5]},
             {"kind": "randint", "dtype": "int8", "n": 9, "args": [-100, 100]},
             {"kind": "randint", "dtype": "bool", "n": 9, "args": [0, 2]}])
    return seqs


def main():
    c = creation_cases()
    c.write(os.path.join(HERE, "goldens", "ops", "creation.json"))
    with open(os.path.join(HERE, "goldens", "random.json"), "w") as f:
        json.dump({"torch_version": torch.__version__, "sequences": random_sequences()}, f,
                  separators=(",", ":"))
        f.write("\n")
    print(f"creation.json: {len(c.cases)} cases")


if __name__ == "__main__":
    main()
