"""Goldens for the registry's own ops (getattr, operator.getitem, Tensor.size/dim/numel/item)
and for argument binding errors. Run from tests/conformance with /usr/bin/python3."""
import operator

import torch

from golden_encode import Cases, encode, make_input

cases = Cases()


def call(case_id, op, fn, args, kwargs=None, views=None, **kw):
    """args: Python values; tensors are encoded through make_input (views[i] applies)."""
    kwargs = kwargs or {}
    views = views or {}
    enc_args, real_args = [], []
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor):
            e, v = make_input(a, views.get(i))
            enc_args.append(e)
            real_args.append(v)
        else:
            enc_args.append(encode(a))
            real_args.append(a)
    enc_kwargs = {k: encode(v) for k, v in kwargs.items()}
    cases.add(case_id, op, fn, enc_args, enc_kwargs, lambda: fn(*real_args, **kwargs), **kw)


torch.manual_seed(0)
x = torch.randn(2, 3)
x3 = torch.randn(2, 3, 4)
s = torch.tensor(2.5)
xi = torch.arange(6, dtype=torch.int32).reshape(2, 3)
empty = torch.zeros(0, 3)
xb = torch.tensor([True, False])

# getattr
for name in ["shape", "dtype", "ndim", "T", "requires_grad"]:
    call(f"getattr_{name}", "getattr", getattr, [x, name])
call("getattr_shape_view", "getattr", getattr, [x3, "shape"], views={0: [["permute", [2, 0, 1]]]})
call("getattr_T_3d", "getattr", getattr, [x3, "T"])
call("getattr_T_0d", "getattr", getattr, [s, "T"])
call("getattr_T_view", "getattr", getattr, [x, "T"], views={0: [["slice", 1, 0, 3, 2]]})
call("getattr_dtype_int", "getattr", getattr, [xi, "dtype"])
call("getattr_shape_empty", "getattr", getattr, [empty, "shape"])
call("getattr_shape_0d", "getattr", getattr, [s, "shape"])
call("getattr_default", "getattr", getattr, [x, "no_such_attr", 5])
call("getattr_default_found", "getattr", getattr, [x, "ndim", 5])
call("getattr_name_int", "getattr", getattr, [x, 1])
call("getattr_no_args", "getattr", getattr, [])
call("getattr_one_arg", "getattr", getattr, [x])
call("getattr_four_args", "getattr", getattr, [x, "shape", 1, 2])
rg = torch.nn.Parameter(torch.randn(3))
call("getattr_requires_grad_true", "getattr", getattr, [rg, "requires_grad"])

# operator.getitem
size = torch.Size([2, 3, 4])
for i in [0, 2, -1, -3, True]:
    call(f"getitem_size_{i}", "operator.getitem", operator.getitem, [size, i])
for i in [3, -4]:
    call(f"getitem_size_oob_{i}", "operator.getitem", operator.getitem, [size, i])
for sl in [slice(0, 2, None), slice(None, None, -1), slice(1, None, None), slice(-2, None, None),
           slice(None, None, 2), slice(5, 10, None), slice(None, -5, None)]:
    name = f"{sl.start}_{sl.stop}_{sl.step}"
    call(f"getitem_size_slice_{name}", "operator.getitem", operator.getitem, [size, sl])
call("getitem_tuple", "operator.getitem", operator.getitem, [(1, 2.5, "a"), 1])
call("getitem_tuple_str", "operator.getitem", operator.getitem, [(1, 2.5, "a"), -1])
call("getitem_tuple_slice", "operator.getitem", operator.getitem, [(1, 2, 3, 4), slice(1, 3, None)])
call("getitem_tuple_oob", "operator.getitem", operator.getitem, [(1, 2), 5])
call("getitem_list", "operator.getitem", operator.getitem, [[1, 2, 3], 1])
call("getitem_list_slice", "operator.getitem", operator.getitem, [[1, 2, 3], slice(None, None, -2)])
call("getitem_list_oob", "operator.getitem", operator.getitem, [[1, 2], -3])
call("getitem_list_float", "operator.getitem", operator.getitem, [[1, 2], 1.0])
call("getitem_tuple_str_index", "operator.getitem", operator.getitem, [(1, 2), "a"])
call("getitem_size_str_index", "operator.getitem", operator.getitem, [size, "a"])
call("getitem_int", "operator.getitem", operator.getitem, [3, 1])
call("getitem_tuple_of_tensors", "operator.getitem", operator.getitem, [(x, s), 1])
call("getitem_slice_step_zero", "operator.getitem", operator.getitem, [(1, 2), slice(None, None, 0)])
call("getitem_one_arg", "operator.getitem", operator.getitem, [size])
call("getitem_dict", "operator.getitem", operator.getitem, [{"a": 1, "b": 2}, "b"])

# Tensor.size / dim / numel / item
T = torch.Tensor
call("size", "Tensor.size", T.size, [x])
call("size_3d_view", "Tensor.size", T.size, [x3], views={0: [["transpose", 0, 2]]})
call("size_expand", "Tensor.size", T.size, [x], views={0: [["slice", 0, 0, 1, 1], ["expand", [5, 3]]]})
for d in [0, 1, -1, -2]:
    call(f"size_dim_{d}", "Tensor.size", T.size, [x, d])
call("size_dim_kw", "Tensor.size", T.size, [x], {"dim": 1})
call("size_dim_oob", "Tensor.size", T.size, [x, 2])
call("size_dim_oob_neg", "Tensor.size", T.size, [x, -3])
call("size_0d", "Tensor.size", T.size, [s])
call("size_0d_dim", "Tensor.size", T.size, [s, 0])
call("size_empty", "Tensor.size", T.size, [empty])
call("size_float_dim", "Tensor.size", T.size, [x, 1.5])
call("size_two_dims", "Tensor.size", T.size, [x, 0, 1])
call("size_bad_kw", "Tensor.size", T.size, [x], {"foo": 1})
call("size_bool_dim", "Tensor.size", T.size, [x, True])
call("size_name", "Tensor.size", T.size, [x, "a"])
call("size_name_none", "Tensor.size", T.size, [x, None])
call("size_name_0d", "Tensor.size", T.size, [s], {"dim": "a"})
call("size_dim_0d_tensor", "Tensor.size", T.size, [x, torch.tensor(1)])
call("dim", "Tensor.dim", T.dim, [x3])
call("dim_0d", "Tensor.dim", T.dim, [s])
call("dim_extra_arg", "Tensor.dim", T.dim, [x, 1])
call("dim_kwarg", "Tensor.dim", T.dim, [x], {"foo": 1})
call("numel", "Tensor.numel", T.numel, [x3])
call("numel_empty", "Tensor.numel", T.numel, [empty])
call("numel_0d", "Tensor.numel", T.numel, [s])
call("numel_view", "Tensor.numel", T.numel, [x3], views={0: [["slice", 2, 1, 4, 2]]})
call("item_float", "Tensor.item", T.item, [s])
call("item_float_1d", "Tensor.item", T.item, [torch.tensor([0.1])])
call("item_double", "Tensor.item", T.item, [torch.tensor(0.1, dtype=torch.float64)])
call("item_int", "Tensor.item", T.item, [torch.tensor(7)])
call("item_int32", "Tensor.item", T.item, [torch.tensor([[-3]], dtype=torch.int32)])
call("item_uint8", "Tensor.item", T.item, [torch.tensor(200, dtype=torch.uint8)])
call("item_bool", "Tensor.item", T.item, [torch.tensor(True)])
call("item_half", "Tensor.item", T.item, [torch.tensor(1.5, dtype=torch.float16)])
call("item_nan", "Tensor.item", T.item, [torch.tensor(float("nan"))])
call("item_inf", "Tensor.item", T.item, [torch.tensor(float("-inf"))])
call("item_view", "Tensor.item", T.item, [x], views={0: [["slice", 0, 1, 2, 1], ["slice", 1, 2, 3, 1]]})
call("item_many", "Tensor.item", T.item, [x])
call("item_empty", "Tensor.item", T.item, [empty])
call("item_extra_arg", "Tensor.item", T.item, [s, 1])

cases.write("goldens/ops/registry.json")
print(len(cases.cases), "cases")
