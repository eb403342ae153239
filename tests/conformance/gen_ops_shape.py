"""Goldens for shape manipulation and indexing (core/ops/ops-shape.c): cat, stack, split,
views, repeat/flip/roll, gather/scatter, masks, dtype conversions and Tensor.__getitem__.
Run from tests/conformance with /usr/bin/python3; writes goldens/ops/shape.json."""
import operator
import warnings

import torch

from golden_encode import Cases, encode, make_input

warnings.filterwarnings("ignore")  # uint8 masks are deprecated but still work
cases = Cases()


class V:
    """A tensor argument seen through view steps (see golden_encode.make_input)."""

    def __init__(self, t, *view):
        self.t = t
        self.view = list(view)


def enc(a):
    """(encoding, real value) of an argument; tensors may sit inside lists and tuples."""
    if isinstance(a, V):
        return make_input(a.t, a.view)
    if isinstance(a, torch.Tensor):
        return make_input(a)
    if isinstance(a, (list, tuple)) and any(isinstance(x, (V, torch.Tensor)) for x in a):
        pairs = [enc(x) for x in a]
        kind = "list" if isinstance(a, list) else "tuple"
        return {kind: [p[0] for p in pairs]}, type(a)(p[1] for p in pairs)
    return encode(a), a


def call(case_id, op, fn, args, kwargs=None, **kw):
    kwargs = kwargs or {}
    pairs = [enc(a) for a in args]
    kpairs = {k: enc(v) for k, v in kwargs.items()}
    real_args = [p[1] for p in pairs]
    real_kwargs = {k: p[1] for k, p in kpairs.items()}
    cases.add(case_id, op, fn, [p[0] for p in pairs], {k: p[0] for k, p in kpairs.items()},
              lambda: fn(*real_args, **real_kwargs), **kw)


def method(name):
    return lambda self, *a, **k: getattr(self, name)(*a, **k)


def m(case_id, name, args, kwargs=None, **kw):
    call(case_id, "Tensor." + name, method(name), args, kwargs, **kw)


def f(case_id, name, args, kwargs=None, **kw):
    call(case_id, "torch." + name, getattr(torch, name), args, kwargs, **kw)


T, P, TR, SL, EX = "t", "permute", "transpose", "slice", "expand"

torch.manual_seed(0)
a = torch.arange(6.).view(2, 3)
b = torch.arange(6).view(3, 2)
x3 = torch.arange(24.).view(2, 3, 4)
xi3 = torch.arange(24).view(2, 3, 4)
y = torch.arange(3.)
yi = torch.arange(5)
s = torch.tensor(2.5)
si = torch.tensor(7)
e0 = torch.tensor([])
ei = torch.tensor([], dtype=torch.int64)
e03 = torch.zeros(0, 3)
e20 = torch.zeros(2, 0)
fb = torch.tensor([[True, False, True], [False, True, True]])
m3 = torch.tensor([True, False, True])
xh = (torch.arange(6.) / 4).view(2, 3).half()
xd = torch.randn(2, 3, dtype=torch.float64)
big = torch.arange(16 * 24.).view(16, 24)

# ---------------------------------------------------------------- cat / concat
f("cat_dim0", "cat", [[a, a]])
f("cat_dim1", "cat", [[a, a], 1])
f("cat_dim_neg", "cat", [[a, a, a], -1])
f("cat_three_sizes", "cat", [[a, a[:1], torch.zeros(3, 3)]])
f("cat_kw_dim", "cat", [[x3, x3]], {"dim": 2})
f("cat_kw_tensors", "cat", [], {"tensors": (a, a), "dim": 1})
f("cat_tuple", "cat", [(a, a)])
f("cat_single", "cat", [[a]])
f("cat_promote_float_long", "cat", [[a, b.view(2, 3)]])
f("cat_promote_bool_uint8", "cat", [[torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.uint8) * 3]])
f("cat_promote_int8_uint8", "cat", [[torch.tensor([-1], dtype=torch.int8), torch.tensor([200], dtype=torch.uint8)]])
f("cat_promote_half_float", "cat", [[xh, a]])
f("cat_promote_int_double", "cat", [[torch.tensor([1, 2], dtype=torch.int32), torch.tensor([0.5], dtype=torch.float64)]])
f("cat_empty_skipped", "cat", [[a, e0]])
f("cat_empty_first", "cat", [[e0, a, e0], 1])
f("cat_empty_promotes", "cat", [[e0, torch.tensor([1, 2], dtype=torch.int32)]])
f("cat_empty_long_float", "cat", [[ei, torch.tensor([1.])]])
f("cat_all_empty", "cat", [[e0, e0]])
f("cat_all_empty_int", "cat", [[ei, ei]])
f("cat_empty_2d", "cat", [[a, e03]])
f("cat_empty_2d_dim1", "cat", [[e20, a[:, :1]], 1])
f("cat_bool", "cat", [[fb, fb], 1])
f("cat_noncontig_t", "cat", [[V(b, [T]), a]])
f("cat_noncontig_slice", "cat", [[V(x3, [SL, 2, 0, 4, 2]), V(x3, [SL, 2, 1, 4, 2])], 2])
f("cat_noncontig_expand", "cat", [[V(torch.arange(3.).view(1, 3), [EX, [2, 3]]), a]])
f("cat_noncontig_permute_dim1", "cat", [[V(xi3, [P, [2, 0, 1]]), V(xi3, [P, [2, 0, 1]])], 1])
f("cat_big", "cat", [[big, V(big, [SL, 0, 0, 16, 2])]])
f("cat_out", "cat", [[a, a]], {"out": torch.zeros(4, 3)})
f("cat_out_resized", "cat", [[a, a]], {"out": torch.zeros(0)})
f("cat_out_cast_error", "cat", [[a, a]], {"out": torch.zeros(4, 3, dtype=torch.int64)})
f("cat_err_sizes", "cat", [[a, b]])
f("cat_err_sizes_dim1", "cat", [[a, b], 1])
f("cat_err_sizes_third", "cat", [[a, a, b]])
f("cat_err_empty_2d", "cat", [[a, torch.zeros(0, 2)]])
f("cat_err_ndim", "cat", [[a, y]])
f("cat_err_0d", "cat", [[s, a]])
f("cat_err_0d_second", "cat", [[a, s]])
f("cat_err_empty_list", "cat", [[]])
f("cat_err_dim", "cat", [[a, a], 2])
f("cat_err_dim_neg", "cat", [[a, a], -3])
f("cat_err_dim_after_empty", "cat", [[e0, a], 2])
f("cat_err_not_list", "cat", [a])
f("cat_err_element", "cat", [[a, 1]])
f("concat_dim1", "concat", [[a, a], 1])

# ---------------------------------------------------------------- stack, hstack, vstack
f("stack_dim0", "stack", [[a, a]])
f("stack_dim1", "stack", [[a, a + 1], 1])
f("stack_dim2", "stack", [[a, a + 1], 2])
f("stack_dim_neg", "stack", [[a, a + 1, a + 2], -1])
f("stack_0d", "stack", [[s, s + 1]])
f("stack_0d_promote", "stack", [[si, s]])
f("stack_empty_1d", "stack", [[e0, e0], 1])
f("stack_noncontig", "stack", [[V(b, [T]), a], 1])
f("stack_kw", "stack", [], {"tensors": [y, y], "dim": 0})
f("stack_err_sizes", "stack", [[a, b]])
f("stack_err_transposed", "stack", [[a, V(b, [T]), b]])
f("stack_err_empty", "stack", [[]])
f("stack_err_dim", "stack", [[a, a], 3])
f("hstack_1d", "hstack", [[y, y]])
f("hstack_2d", "hstack", [[a, a]])
f("hstack_0d", "hstack", [[si, s]])
f("hstack_err_empty", "hstack", [[]])
f("hstack_err_mixed", "hstack", [[yi, a]])
f("vstack_err_sizes", "vstack", [[yi, a]])
f("stack_err_dim_neg", "stack", [[a, a], -4])
f("vstack_1d", "vstack", [[y, y]])
f("vstack_2d", "vstack", [[a, torch.ones(1, 3)]])
f("vstack_0d", "vstack", [[si, s]])

# ---------------------------------------------------------------- split, chunk, unbind
call("split_int", "torch.functional.split", torch.split, [a, 2, 1])
call("split_int_dim0", "torch.functional.split", torch.split, [x3, 1])
call("split_int_larger", "torch.functional.split", torch.split, [a, 5])
call("split_list", "torch.functional.split", torch.split, [a, [1, 2], 1])
call("split_tuple", "torch.functional.split", torch.split, [a, (2, 1), -1])
call("split_list_zero_part", "torch.functional.split", torch.split, [a, [0, 3], 1])
call("split_kw", "torch.functional.split", torch.split, [a], {"split_size_or_sections": 2})
call("split_tensor_size", "torch.functional.split", torch.split, [a, torch.tensor(2), 1])
call("split_noncontig", "torch.functional.split", torch.split, [V(b, [T]), 2, 1])
call("split_empty", "torch.functional.split", torch.split, [e0, 2])
call("split_empty_zero", "torch.functional.split", torch.split, [e0, 0])
call("split_alias", "torch.split", torch.split, [yi, 2])
call("split_err_0d", "torch.functional.split", torch.split, [s, 2])
call("split_err_negative", "torch.functional.split", torch.split, [a, -1, 1])
call("split_err_zero", "torch.functional.split", torch.split, [a, 0, 1])
call("split_err_sum", "torch.functional.split", torch.split, [a, [1, 1], 1])
call("split_err_sum_neg_dim", "torch.functional.split", torch.split, [a, [1, 1], -1])
call("split_err_negative_size", "torch.functional.split", torch.split, [a, [2, -1], 1])
call("split_err_dim", "torch.functional.split", torch.split, [a, 2, 5])
call("split_err_float", "torch.functional.split", torch.split, [a, 2.5])
call("split_err_float_list", "torch.functional.split", torch.split, [a, [1.5, 1.5], 1])
m("Tensor_split", "split", [a, 2, 1])
m("Tensor_split_list_kw", "split", [a, [1, 2]], {"dim": 1})
m("Tensor_split_kw", "split", [a], {"split_size": 1, "dim": 0})
f("split_with_sizes", "split_with_sizes", [a, [1, 2], 1])
m("Tensor_split_with_sizes", "split_with_sizes", [x3, [1, 1]])
f("tensor_split_sections", "tensor_split", [yi, 3])
f("tensor_split_indices", "tensor_split", [a, [1], 1])
f("tensor_split_indices_many", "tensor_split", [yi, [1, 4, 2, 9]])
f("tensor_split_negative", "tensor_split", [yi, [-2, 1]])
f("tensor_split_unordered", "tensor_split", [yi, [3, 1, -1, 10]])
f("tensor_split_tensor_sections", "tensor_split", [yi, torch.tensor(2)])
f("tensor_split_tensor_indices", "tensor_split", [yi, torch.tensor([1, 3])])
f("tensor_split_err_zero", "tensor_split", [yi, 0])
f("tensor_split_err_0d", "tensor_split", [s, 2])
f("tensor_split_err_dim", "tensor_split", [yi, 2, 1])
m("Tensor_tensor_split", "tensor_split", [x3, 2], {"dim": 2})
f("chunk_even", "chunk", [a, 2, 1])
f("chunk_uneven", "chunk", [yi, 3])
f("chunk_fewer", "chunk", [torch.arange(6), 4])
f("chunk_more_than_size", "chunk", [a, 4, 1])
f("chunk_neg_dim", "chunk", [a, 2, -1])
f("chunk_empty", "chunk", [e0, 3])
f("chunk_noncontig", "chunk", [V(x3, [P, [2, 1, 0]]), 2])
f("chunk_err_zero", "chunk", [a, 0])
f("chunk_err_0d", "chunk", [s, 2])
f("chunk_err_dim", "chunk", [a, 2, 2])
m("Tensor_chunk", "chunk", [x3, 3], {"dim": 2})
f("unbind_dim0", "unbind", [a])
f("unbind_dim1", "unbind", [a, 1])
f("unbind_neg", "unbind", [x3, -1])
f("unbind_empty", "unbind", [e03])
f("unbind_noncontig", "unbind", [V(b, [T]), 1])
f("unbind_err_0d", "unbind", [s])
m("Tensor_unbind", "unbind", [x3], {"dim": 1})

# ---------------------------------------------------------------- views and reshapes
m("view", "view", [a, 3, 2])
m("view_infer", "view", [a, -1])
m("view_tuple", "view", [x3, (4, 6)])
m("view_size", "view", [x3, torch.Size([6, 4])])
m("view_0d_to_1", "view", [s, 1])
m("view_to_0d", "view", [torch.tensor([3.]), []])
m("view_empty", "view", [e03, 3, 0, -1])
m("view_noncontig_ok", "view", [V(x3, [SL, 2, 0, 4, 2]), 2, 3, 2, 1])
m("view_err_numel", "view", [a, 4])
m("view_err_two_infer", "view", [a, -1, -1])
m("view_err_negative", "view", [a, 6, -2])
m("view_err_stride", "view", [V(b, [T]), 6])
m("view_err_empty_infer", "view", [e03, -1, 0])
m("view_err_noargs", "view", [a])
m("view_dtype_same_size", "view", [a, torch.int32])
m("view_dtype_smaller", "view", [torch.tensor([1, 256], dtype=torch.int16), torch.uint8])
m("view_dtype_larger", "view", [torch.arange(8, dtype=torch.uint8).view(2, 4), torch.int16])
m("view_dtype_err_divisible", "view", [a, torch.int64])
m("view_as", "view_as", [a, torch.zeros(3, 2)])
m("view_as_err", "view_as", [V(b, [T]), y])
f("reshape", "reshape", [a, (3, -1)])
f("reshape_list", "reshape", [a, [6]])
f("reshape_noncontig_copy", "reshape", [V(b, [T]), (6,)])
f("reshape_0d", "reshape", [s, (1, 1)])
f("reshape_err", "reshape", [a, (4, -1)])
m("Tensor_reshape", "reshape", [x3, 4, -1])
m("Tensor_reshape_tuple", "reshape", [V(x3, [P, [1, 0, 2]]), (3, 8)])
m("reshape_as", "reshape_as", [V(b, [T]), torch.zeros(6)])
f("flatten", "flatten", [x3])
f("flatten_start", "flatten", [x3, 1])
f("flatten_range", "flatten", [torch.zeros(2, 3, 4, 5), 1, 2])
f("flatten_same", "flatten", [a, 1])
f("flatten_neg", "flatten", [x3, -2, -1])
f("flatten_0d", "flatten", [s])
f("flatten_noncontig", "flatten", [V(x3, [TR, 0, 2])])
f("flatten_empty", "flatten", [torch.zeros(2, 0, 3), 1])
f("flatten_err_order", "flatten", [x3, 2, 1])
f("flatten_err_dim", "flatten", [a, 2])
f("flatten_err_0d_dim", "flatten", [s, 1])
m("Tensor_flatten_kw", "flatten", [x3], {"start_dim": 0, "end_dim": 1})
f("unflatten", "unflatten", [a, 1, (3, 1)])
f("unflatten_infer", "unflatten", [x3, -1, (2, -1)])
f("unflatten_err_sizes", "unflatten", [a, 1, (2, 2)])
f("unflatten_err_two_infer", "unflatten", [a, 1, (-1, -1)])
f("unflatten_err_empty", "unflatten", [a, 1, ()])
m("Tensor_unflatten", "unflatten", [a, 0, [1, 2]])
f("permute", "permute", [x3, (2, 0, 1)])
f("permute_neg", "permute", [x3, [-1, 0, 1]])
f("permute_0d", "permute", [s, ()])
m("Tensor_permute", "permute", [x3, 1, 2, 0])
m("Tensor_permute_tuple", "permute", [V(x3, [TR, 0, 1]), (2, 1, 0)])
m("permute_err_len", "permute", [a, 0])
m("permute_err_dup", "permute", [a, 0, 0])
m("permute_err_dim", "permute", [a, 0, 2])
f("transpose", "transpose", [x3, 0, 2])
f("transpose_neg", "transpose", [x3, -1, -3])
f("transpose_0d", "transpose", [s, 0, -1])
f("transpose_err", "transpose", [a, 0, 2])
m("Tensor_transpose", "transpose", [a, 1, 0])
f("swapaxes", "swapaxes", [x3, 0, 1])
f("swapdims", "swapdims", [x3, 2, 1])
f("t", "t", [a])
f("t_1d", "t", [y])
f("t_0d", "t", [s])
f("t_err", "t", [x3])
m("Tensor_t", "t", [V(b, [T])])
m("expand", "expand", [y, 2, 3])
m("expand_minus1", "expand", [a.view(2, 1, 3), -1, 4, -1])
m("expand_tuple", "expand", [y, (2, 2, 3)])
m("expand_0d", "expand", [s, 3])
m("expand_err", "expand", [a, 3, 3])
m("expand_err_leading", "expand", [a, -1, 2, 3])
m("expand_err_fewer", "expand", [x3, 3, 4])
m("expand_as", "expand_as", [y, torch.zeros(2, 2, 3)])
f("squeeze", "squeeze", [torch.zeros(1, 2, 1)])
f("squeeze_dim", "squeeze", [torch.zeros(1, 2, 1), 0])
f("squeeze_dim_noop", "squeeze", [torch.zeros(1, 2, 1), 1])
f("squeeze_neg", "squeeze", [torch.zeros(1, 2, 1), -1])
f("squeeze_0d", "squeeze", [s])
f("squeeze_err", "squeeze", [torch.zeros(1, 2, 1), 3])
m("Tensor_squeeze", "squeeze", [V(torch.arange(3.).view(3, 1), [T])])
f("unsqueeze", "unsqueeze", [a, 1])
f("unsqueeze_end", "unsqueeze", [a, -1])
f("unsqueeze_0d", "unsqueeze", [s, 0])
f("unsqueeze_err", "unsqueeze", [a, 3])
m("Tensor_unsqueeze_noncontig", "unsqueeze", [V(b, [T]), 1])
m("unsqueeze_", "unsqueeze_", [a.clone(), 0])
m("squeeze_", "squeeze_", [torch.zeros(1, 2, 1)])
m("squeeze__dim", "squeeze_", [torch.zeros(1, 2, 1), -1])
m("transpose_", "transpose_", [x3.clone(), 0, 2])
m("t_", "t_", [a.clone()])
m("t__err", "t_", [x3.clone()])
f("narrow", "narrow", [a, 1, 1, 2])
f("narrow_neg_start", "narrow", [a, 1, -1, 1])
f("narrow_tensor_start", "narrow", [a, 0, torch.tensor(1), 1])
f("narrow_err", "narrow", [a, 1, 2, 2])
m("Tensor_narrow", "narrow", [V(x3, [P, [2, 1, 0]]), 0, 1, 2])
f("select", "select", [x3, 1, -1])
m("Tensor_select", "select", [a, 0, 1])
f("movedim", "movedim", [x3, 0, 2])
f("movedim_lists", "movedim", [x3, (0, 1), (2, 0)])
f("movedim_0d", "movedim", [s, 0, 0])
f("movedim_err_len", "movedim", [a, (0,), (1, 0)])
f("movedim_err_repeat", "movedim", [a, (0, 0), (1, 0)])
f("moveaxis", "moveaxis", [x3, -1, 0])
m("Tensor_movedim", "movedim", [x3, 2, 0])
m("contiguous", "contiguous", [V(b, [T])])
m("contiguous_already", "contiguous", [a])
f("clone", "clone", [V(x3, [SL, 1, 0, 3, 2])])
m("Tensor_clone", "clone", [a])
m("detach", "detach", [a])
m("cpu", "cpu", [a])

# ---------------------------------------------------------------- repeat, tile, flip, roll
m("repeat", "repeat", [a, 2, 1])
m("repeat_more_dims", "repeat", [a, 1, 2, 2])
m("repeat_tuple", "repeat", [y, (2, 2)])
m("repeat_0d", "repeat", [s, 3])
m("repeat_0d_none", "repeat", [s, ()])
m("repeat_zero", "repeat", [a, 0, 1])
m("repeat_noncontig", "repeat", [V(b, [T]), 1, 2])
m("repeat_int", "repeat", [fb, 2, 2])
m("repeat_many_dims", "repeat", [a, 2, 1, 1, 1, 1, 1, 1, 1, 2])
m("repeat_err_fewer", "repeat", [a, 2])
m("repeat_err_negative", "repeat", [a, -1, 1])
f("tile", "tile", [a, (2,)])
f("tile_more", "tile", [a, (2, 1, 1)])
f("tile_empty_reps", "tile", [a, ()])
m("Tensor_tile", "tile", [y, 2])
f("flip", "flip", [a, [0]])
f("flip_both", "flip", [a, (0, 1)])
f("flip_none", "flip", [a, []])
f("flip_neg", "flip", [x3, [-1, 0]])
f("flip_0d", "flip", [s, [0]])
f("flip_noncontig", "flip", [V(x3, [P, [2, 0, 1]]), [1]])
f("flip_int", "flip", [xi3, [2]])
f("flip_err_dup", "flip", [a, [0, 0]])
f("flip_err_int", "flip", [a, 1])
f("permute_err_int", "permute", [x3, 1])
f("flip_err_dup_neg", "flip", [a, [1, -1]])
f("flip_err_dim", "flip", [a, [2]])
m("Tensor_flip", "flip", [a, 0, 1])
f("fliplr", "fliplr", [a])
f("fliplr_err", "fliplr", [y])
f("flipud", "flipud", [y])
f("roll_flat", "roll", [a, 1])
f("roll_dim", "roll", [a, 1, 1])
f("roll_negative", "roll", [a, -4, 1])
f("roll_multi", "roll", [a, (1, 1), (0, 1)])
f("roll_big_shift", "roll", [yi, 12])
f("roll_0d", "roll", [s, 1])
f("roll_empty", "roll", [e0, 1])
f("roll_noncontig", "roll", [V(x3, [TR, 0, 2]), 1, 0])
f("roll_kw", "roll", [a], {"shifts": 1, "dims": 0})
f("roll_err_align", "roll", [a, (1,), (0, 1)])
f("roll_err_align_nodims", "roll", [a, (1, 2)])
f("roll_err_dim", "roll", [a, 1, 2])
f("roll_err_0d_dim", "roll", [s, 1, 0])
m("Tensor_roll", "roll", [x3, 2, -1])

# ---------------------------------------------------------------- gather, scatter, index_select, take
idx = torch.tensor([[0, 0], [1, 0]])
f("gather_dim1", "gather", [a, 1, idx])
f("gather_dim0", "gather", [a, 0, torch.tensor([[0, 1, 1]])])
f("gather_smaller", "gather", [x3, 2, torch.tensor([[[3], [0]]])])
f("gather_noncontig", "gather", [V(b, [T]), 1, V(torch.tensor([[0, 1], [2, 2]]), [T])])
f("gather_0d", "gather", [s, 0, torch.tensor(0)])
f("gather_empty_index", "gather", [a, 1, torch.zeros(0, 1, dtype=torch.int64)])
f("gather_empty_float_index", "gather", [a, 1, torch.zeros(0, 1)])
f("gather_int", "gather", [xi3, 0, torch.ones(1, 3, 4, dtype=torch.int64)])
f("gather_kw", "gather", [a], {"dim": 1, "index": idx, "sparse_grad": False})
f("gather_err_bounds", "gather", [a, 1, torch.tensor([[3]])])
f("gather_err_negative", "gather", [a, 1, torch.tensor([[-1]])])
f("gather_err_ndim", "gather", [a, 1, torch.tensor([0])])
f("gather_err_dtype", "gather", [a, 1, torch.tensor([[0]], dtype=torch.int32)])
f("gather_err_size", "gather", [a, 1, torch.tensor([[0], [1], [2]])])
f("gather_err_dim", "gather", [a, 2, idx])
m("Tensor_gather", "gather", [a, 1, idx])
f("scatter_src", "scatter", [a, 1, torch.tensor([[2, 0]]), torch.tensor([[9., 8.]])])
f("scatter_value", "scatter", [a, 1, torch.tensor([[2, 0]]), 7.5])
f("scatter_value_int_self", "scatter", [yi, 0, torch.tensor([2, 0]), 7.5])
f("scatter_dim0", "scatter", [a, 0, torch.tensor([[1, 1, 1], [1, 1, 1]]), a + 10])
f("scatter_reduce_add", "scatter", [a, 1, torch.tensor([[2, 2]]), torch.tensor([[9., 8.]])], {"reduce": "add"})
f("scatter_reduce_multiply", "scatter", [a, 1, torch.tensor([[2, 0]]), 2.], {"reduce": "multiply"})
f("scatter_empty_index", "scatter", [a, 1, torch.zeros(0, 1, dtype=torch.int64), 1.])
f("scatter_0d", "scatter", [s, 0, torch.tensor(0), 2.])
f("scatter_err_dtype", "scatter", [a, 1, torch.tensor([[2, 0]]), torch.tensor([[9, 8]])])
f("scatter_err_bounds", "scatter", [a, 1, torch.tensor([[3]]), 1.])
f("scatter_err_src_shape", "scatter", [a, 1, torch.tensor([[0, 1]]), torch.tensor([[1.]])])
f("scatter_err_ndim", "scatter", [a, 1, torch.tensor([0]), 1.])
f("scatter_err_src_ndim", "scatter", [a, 1, torch.tensor([[0, 1]]), torch.tensor(1.)])
f("scatter_err_reduce", "scatter", [a, 1, torch.tensor([[2, 0]]), 2.], {"reduce": "mean"})
m("Tensor_scatter", "scatter", [a, 0, torch.tensor([[1, 0, 1]]), 0.])
m("Tensor_scatter_", "scatter_", [a.clone(), 1, torch.tensor([[2, 0]]), 7])
f("scatter_add", "scatter_add", [a, 1, torch.tensor([[2, 2]]), torch.tensor([[9., 8.]])])
f("scatter_add_int", "scatter_add", [yi, 0, torch.tensor([0, 0, 4]), torch.tensor([5, 6, 7])])
m("Tensor_scatter_add_", "scatter_add_", [a.clone(), 0, torch.tensor([[1, 1, 1]]), torch.ones(1, 3)])
f("index_select_dim1", "index_select", [a, 1, torch.tensor([2, 0])])
f("index_select_dim0_repeat", "index_select", [x3, 0, torch.tensor([1, 1, 0])])
f("index_select_int32", "index_select", [a, 0, torch.tensor([1], dtype=torch.int32)])
f("index_select_0d_index", "index_select", [a, 0, torch.tensor(1)])
f("index_select_0d_self", "index_select", [s, 0, torch.tensor([0])])
f("index_select_empty", "index_select", [a, 1, ei])
f("index_select_noncontig", "index_select", [V(x3, [P, [2, 0, 1]]), 2, torch.tensor([2, 0])])
f("index_select_err_bounds", "index_select", [a, 0, torch.tensor([2])])
f("index_select_err_negative", "index_select", [a, 0, torch.tensor([-1])])
f("index_select_err_2d", "index_select", [a, 0, torch.tensor([[1]])])
f("index_select_err_dtype", "index_select", [a, 0, torch.tensor([1.])])
f("index_select_err_dim", "index_select", [a, 2, torch.tensor([0])])
m("Tensor_index_select", "index_select", [xi3, -1, torch.tensor([3, 3])])
f("take", "take", [a, torch.tensor([[5, 0]])])
f("take_negative", "take", [V(b, [T]), torch.tensor([-1, 1])])
f("take_err_bounds", "take", [a, torch.tensor([6])])
f("take_err_dtype", "take", [a, torch.tensor([0], dtype=torch.int32)])
f("index_select_err_bounds_2", "index_select", [a, 0, torch.tensor([0, 5])])
f("gather_wider_on_dim", "gather", [a, 1, torch.tensor([[0, 1, 2, 0]])])
f("index_select_big", "index_select", [big, 1, torch.tensor([23, 0, 5, 5])])

# ---------------------------------------------------------------- masks
m("masked_fill_int_value", "masked_fill", [a, m3, 1])
m("masked_fill_float_value", "masked_fill", [a, m3, 1.5])
m("masked_fill_int_self", "masked_fill", [yi, torch.tensor([True, False, True, False, True]), 1.5])
m("masked_fill_bool_value", "masked_fill", [yi, torch.tensor([True, False, True, False, True]), True])
m("masked_fill_bool_self", "masked_fill", [fb, fb, 0])
m("masked_fill_inf", "masked_fill", [a, m3, float("-inf")])
m("masked_fill_tensor_value", "masked_fill", [a, m3, torch.tensor(2)])
m("masked_fill_tensor_value_double", "masked_fill", [a, fb, torch.tensor(-2.5, dtype=torch.float64)])
m("masked_fill_broadcast_self", "masked_fill", [y.view(3, 1), fb.t().contiguous().view(3, 2), 9.])
m("masked_fill_broadcast_both", "masked_fill", [y, torch.tensor([[True], [False]]), 9.])
m("masked_fill_uint8_mask", "masked_fill", [a, torch.tensor([1, 0, 1], dtype=torch.uint8), 1])
m("masked_fill_noncontig", "masked_fill", [V(b, [T]), V(fb, [EX, [2, 3]]), -1.])
m("masked_fill_uint8_neg", "masked_fill", [torch.zeros(3, dtype=torch.uint8), m3, -1])
m("masked_fill_half", "masked_fill", [xh, fb, 0.25])
m("masked_fill_kw", "masked_fill", [a], {"mask": m3, "value": 3})
m("masked_fill_0d", "masked_fill", [s, torch.tensor(True), 1.])
m("masked_fill_empty", "masked_fill", [e03, torch.zeros(0, 3, dtype=torch.bool), 1.])
m("masked_fill_err_overflow_int", "masked_fill", [yi, torch.ones(5, dtype=torch.bool), 1e20])
m("masked_fill_err_overflow_float", "masked_fill", [a, m3, 1e300])
m("masked_fill_err_nan_int", "masked_fill", [yi, torch.ones(5, dtype=torch.bool), float("nan")])
m("masked_fill_err_uint8", "masked_fill", [torch.zeros(3, dtype=torch.uint8), m3, 256])
m("masked_fill_err_int8", "masked_fill", [torch.zeros(3, dtype=torch.int8), m3, 200])
m("masked_fill_err_half", "masked_fill", [torch.zeros(3).half(), m3, 70000])
m("masked_fill_err_value_dim", "masked_fill", [a, m3, torch.tensor([2.])])
m("masked_fill_err_tensor_overflow", "masked_fill", [a, m3, torch.tensor(1e300, dtype=torch.float64)])
m("masked_fill_bool_self_int", "masked_fill", [torch.zeros(3, dtype=torch.bool), m3, 5])
m("masked_fill_big", "masked_fill", [big, big % 3 == 0, -1.])
m("masked_fill_big_int32", "masked_fill", [big.int(), V(big % 3 == 0, [SL, 1, 0, 24, 1]), 7])
m("masked_fill_err_long_mask", "masked_fill", [a, torch.tensor([0, 1, 2]), 1])
m("masked_fill_err_broadcast", "masked_fill", [a, torch.tensor([True, False]), 1])
f("masked_fill_torch", "masked_fill", [a, m3, 3])
m("masked_fill_", "masked_fill_", [a.clone(), m3, 2])
m("masked_fill__tensor", "masked_fill_", [a.clone(), fb, torch.tensor(0.5)])
m("masked_fill__err_broadcast", "masked_fill_", [a.clone(), torch.ones(2, 2, 3, dtype=torch.bool), 1])
f("masked_select", "masked_select", [a, m3])
f("masked_select_broadcast", "masked_select", [y, fb])
f("masked_select_0d_mask", "masked_select", [yi, torch.tensor(True)])
f("masked_select_uint8", "masked_select", [a, torch.tensor([[1], [0]], dtype=torch.uint8)])
f("masked_select_noncontig", "masked_select", [V(b, [T]), fb])
f("masked_select_err_dtype", "masked_select", [a, yi[:3]])
f("masked_select_err_broadcast", "masked_select", [a, torch.ones(4, dtype=torch.bool)])
m("Tensor_masked_select", "masked_select", [xi3, xi3 % 5 == 0])
f("nonzero", "nonzero", [torch.tensor([[0, 1, 0], [2, 0, 3]])])
f("nonzero_as_tuple", "nonzero", [torch.tensor([[0, 1, 0], [2, 0, 3]])], {"as_tuple": True})
f("nonzero_0d", "nonzero", [s])
f("nonzero_bool_noncontig", "nonzero", [V(fb, [T])])
m("Tensor_nonzero", "nonzero", [y])

# ---------------------------------------------------------------- conversions
m("to_dtype", "to", [a, torch.int32])
m("to_dtype_kw", "to", [a], {"dtype": torch.int8})
m("to_device", "to", [a, "cpu"])
m("to_device_dtype", "to", [a, "cpu", torch.int64])
m("to_device_kw", "to", [a], {"device": "cpu", "dtype": torch.float64})
m("to_other", "to", [a, yi])
m("to_copy", "to", [a, torch.float32], {"copy": True})
m("to_noargs", "to", [a])
m("to_bool", "to", [torch.tensor([0., 0.5, -1.]), torch.bool])
m("to_float_to_int_trunc", "to", [torch.tensor([-1.7, 2.9]), torch.int64])
m("to_noncontig", "to", [V(b, [T]), torch.float64])
m("type_as", "type_as", [a, yi])
m("float", "float", [yi])
m("double", "double", [a])
m("half", "half", [a])
m("long", "long", [torch.tensor([1.9, -1.9])])
m("int", "int", [a])
m("short", "short", [a])
m("char", "char", [a])
m("byte", "byte", [a])
m("bool", "bool", [a])
m("float_noop", "float", [a])

# ---------------------------------------------------------------- indexing: x[...]
G = "__getitem__"
t22 = torch.tensor([[0, 1]])
t31 = torch.tensor([1, 2, 3]).view(3, 1) % 2
for name, t, index in [
    ("int", x3, 0), ("int_neg", x3, -1), ("slice", x3, slice(1, None)),
    ("slice_step", x3, (slice(None), slice(None, None, 2))), ("slice_empty", x3, slice(0, 0)),
    ("slice_clamp", y, slice(-10, 2)), ("slice_past_end", y, slice(5, None)),
    ("slice_none", x3, slice(None, None, None)),
    ("tuple_slice_int", x3, (slice(None, None, None), 0)), ("tuple_ints", x3, (0, 1, 2)),
    ("tuple_one", x3, (0,)), ("tuple_empty", x3, ()), ("tuple_none", x3, (None,)),
    ("none", x3, None), ("ellipsis", x3, Ellipsis), ("ellipsis_int", x3, (Ellipsis, 0)),
    ("ellipsis_none", x3, (Ellipsis, None)), ("none_ellipsis_none", x3, (None, Ellipsis, None)),
    ("int_ellipsis_int", x3, (1, Ellipsis, 1)), ("two_ellipsis", x3, (Ellipsis, Ellipsis)),
    ("int_two_ellipsis", x3, (0, Ellipsis, Ellipsis)), ("none_middle", x3, (0, None, slice(1, 3))),
    ("true", y, True), ("false", y, False), ("true_3d", x3, True), ("true_tuple", x3, (slice(None), True)),
    ("false_tuple", x3, (slice(None), False, 0)), ("true_false", x3, (True, False)),
    ("0d_true", s, True), ("0d_false", s, False), ("0d_ellipsis", s, Ellipsis), ("0d_none", s, None),
    ("list", x3, [0, 1]), ("list_neg", x3, [-1, -2]), ("list_repeat", y, [2, 2, 0]),
    ("list_empty", y, []), ("list_bools", y, [True, False, True]), ("list_floats", y, [0.5, 1.7]),
    ("list_mixed_bool", y, [1, True]), ("list_nested", x3, [[0, 1], [1, 2]]),
    ("list_of_list", x3, [[0, 1]]), ("list_with_tensor", x3, [torch.tensor(0), 1]),
    ("two_lists", x3, ([0, 1], [1, 2])), ("lists_sep_slice", x3, ([0, 1], slice(None), [1, 2])),
    ("slice_two_lists", x3, (slice(None), [0, 1], [1, 2])), ("int_slice_list", x3, (0, slice(None), [1, 2])),
    ("list_slice_int", x3, ([0], slice(None), 0)), ("list_broadcast", x3, ([0, 1], [[0], [1]])),
    ("tensor_2d_index", y, torch.tensor([[0, 2], [1, 1]])), ("tensor_empty_index", y, ei),
    ("tensors_sep", x3, (t22, slice(None), t31)), ("tensors_adjacent", x3, (slice(None), t22, t31)),
    ("tensors_broadcast", x3, (t22, t31.view(3, 1) % 2)),
    ("mask", x3, xi3 > 20), ("mask_2d", x3, torch.ones(2, 3, dtype=torch.bool)),
    ("mask_1d_second", x3, (slice(None), torch.tensor([True, False, True]))),
    ("mask_then_int", x3.view(2, 3, 4)[:, :, :3].contiguous(), (fb, 0)),
    ("mask_uint8", x3, torch.tensor([0, 1], dtype=torch.uint8)), ("mask_all_false", y, torch.zeros(3, dtype=torch.bool)),
    ("mask_tuple_comma", x3, (torch.tensor([True, False]),)),
    ("tensor_0d_int", x3, torch.tensor(1)), ("tensors_0d", x3, (torch.tensor(0), torch.tensor(1))),
    ("tensor_0d_bool_true", x3, torch.tensor(True)), ("tensor_0d_bool_false", x3, torch.tensor(False)),
    ("0d_tensor_on_1d", y, torch.tensor(1)),
    ("none_list", x3, (slice(None), None, [0, 1])), ("list_none", x3, ([0, 1], None)),
    ("list_none_list", x3, ([0, 1], None, [0, 1])), ("ellipsis_list_int", x3, (Ellipsis, [0, 1], 0)),
    ("int_list_int", x3, (0, [0, 1], 0)), ("list_int_slice", x3, ([0, 1], 0, slice(None))),
    ("slice_int_list", x3, (slice(None), 0, [0, 1])), ("slice_list", x3, (slice(1, None), [0])),
    ("empty_dim_slice_list", e03, (slice(None), [0])), ("empty_dim_list", e20, [0]),
    ("empty_dim_slice_list_oob", torch.zeros(0, 3), (slice(None), [5])),
    ("int64_big", big, (slice(2, 10, 3), [1, 5, 23])),
    ("big_mask", big, big % 7 == 0), ("big_rows", big, [3, 0, 15]),
    ("dtype_int", xi3, (1, [2, 0])), ("dtype_bool", fb, [1, 0]), ("dtype_half", xh, (0, [2, 1])),
    ("err_int_oob", x3, 2), ("err_int_oob_neg", y, -4), ("err_tuple_oob", x3, (0, 5)),
    ("err_none_oob", x3, (None, 5)), ("err_too_many", x3, (slice(None), slice(None), slice(None), 0)),
    ("err_too_many_ints", x3, (0, 0, 0, 0)), ("err_0d_int", s, 0), ("err_0d_int1", s, 1),
    ("err_0d_slice", s, slice(None)), ("err_0d_tuple", s, (0,)), ("err_0d_tensor", s, torch.tensor(0)),
    ("err_step_negative", y, slice(None, None, -1)), ("err_step_zero", y, slice(None, None, 0)),
    ("err_step_zero_tuple", x3, (0, slice(1, 2, 0))),
    ("err_float", x3, 1.5), ("err_float_tuple", x3, (0, 1.5)), ("err_str", x3, "a"),
    ("err_list_oob", x3, [0, 5]), ("err_list_neg_oob", x3, [-3]), ("err_list_second_oob", x3, ([0, 1], [1, 7])),
    ("err_slice_list_oob", x3, (slice(None), [5])), ("err_slice2_list_oob", x3, (slice(None), slice(None), [1, 5])),
    ("err_broadcast", x3, ([0, 1], [0, 1, 2])), ("err_mask_shape", x3, torch.ones(3, dtype=torch.bool)),
    ("err_mask_shape_second", x3, (slice(None), torch.ones(2, dtype=torch.bool))),
    ("err_mask_too_many", x3, torch.ones(2, 3, 4, 5, dtype=torch.bool)),
    ("err_mask_then_int", x3, (torch.ones(2, 3, dtype=torch.bool), 0)),
    ("err_int32_index", x3, torch.tensor([0, 1], dtype=torch.int32)), ("err_float_index", x3, torch.tensor([0., 1.])),
    ("err_mask_row_shape", x3, (torch.tensor([[True, False, True]]),)),
    ("err_empty_dim_oob", e03, [0]), ("err_empty_dim2_oob", e20, (slice(None), [0])),
]:
    m(f"getitem_{name}", G, [t, index])
m("getitem_noncontig_int", G, [V(x3, [P, [2, 0, 1]]), 1])
m("getitem_noncontig_slice", G, [V(x3, [TR, 0, 2]), (slice(1, 3), Ellipsis, slice(None, None, 2))])
m("getitem_noncontig_list", G, [V(x3, [P, [2, 0, 1]]), ([3, 0], slice(None), [2, 1])])
m("getitem_noncontig_mask", G, [V(b, [T]), fb])
m("getitem_expanded", G, [V(torch.arange(3.).view(1, 3), [EX, [4, 3]]), ([0, 3], [2, 0])])
m("getitem_noncontig_index", G, [x3, V(torch.tensor([[0, 1, 1], [1, 0, 0]]), [T])])
call("operator_getitem", "operator.getitem", operator.getitem, [x3, (0, slice(None), [1, 3])])

# ---------------------------------------------------------------- index_put / setitem errors
m("index_put", "index_put", [a, (torch.tensor([0, 1]), torch.tensor([2, 0])), torch.tensor([9., 8.])])
m("index_put_broadcast", "index_put", [a, (torch.tensor([1]),), torch.tensor(7.)])
m("index_put_accumulate", "index_put", [yi, (torch.tensor([0, 0, 4]),), torch.tensor([5, 6, 7]), True])
m("index_put_none_slot", "index_put", [a, (None, torch.tensor([2, 0])), torch.tensor([[1.], [2.]])])
m("index_put_mask", "index_put", [a, (fb,), torch.tensor(-1.)])
m("index_put_mask_values", "index_put", [a, (fb,), torch.arange(4.)])
m("index_put_duplicates", "index_put", [y, (torch.tensor([1, 1]),), torch.tensor([5., 6.])])
f("index_put_torch_none_err", "index_put", [a, (None, torch.tensor([2, 0])), torch.tensor(1.)])
m("index_put_not_tuple_err", "index_put", [a, torch.tensor([0]), torch.tensor(1.)])
m("index_put_int_err", "index_put", [a, [torch.tensor([0]), 1], torch.tensor(1.)])
m("index_put_", "index_put_", [a.clone(), (torch.tensor([0]), torch.tensor([1])), torch.tensor(4.)])
m("index_put_err_dtype", "index_put", [a, (torch.tensor([0]),), torch.tensor([1, 2, 3])])
m("index_put_err_shape", "index_put", [a, (torch.tensor([0, 1]),), torch.tensor([1., 2.])])
m("index_put_err_oob", "index_put", [a, (torch.tensor([2]),), torch.tensor(1.)])
m("index_put_err_too_many", "index_put", [y, (ei, ei), torch.tensor(1.)])
S = "operator.setitem"
for name, t, index, value in [
    ("int", a, 0, 1.), ("broadcast_err", a, 0, torch.tensor([1., 2.])),
    ("fewer_dims_err", a, 0, torch.ones(2, 3)), ("adv_dtype_err", a, [0, 1], torch.tensor([1, 2, 3])),
    ("adv_shape_err", x3, ([0, 1], 0), torch.tensor([1., 2.])),
    ("mask_shape_err", x3, xi3 > 20, torch.tensor([1., 2.])),
    ("mask_dtype_err", yi, torch.tensor([True, False, True, False, False]), torch.tensor([5., 6.])),
    ("value_str_err", yi, 0, "a"), ("value_none_err", yi, 0, None), ("value_list_err", yi, 0, [1]),
    ("index_str_err", yi, "a", 1), ("oob_err", yi, 5, 1), ("adv_oob_err", yi, [5], 1),
    ("0d_int_err", s, 0, 2.), ("overflow_int_err", yi, 0, 1e20), ("overflow_float_err", a, 0, 1e300),
    ("step_err", yi, slice(None, None, -1), 0),
]:
    call(f"setitem_{name}", S, operator.setitem, [t.clone(), index, value])

# triu / tril / diag / repeat_interleave / meshgrid / diff (ops-more.c)
tm = torch.arange(1., 13.).view(3, 4)
tb = torch.arange(24.).view(2, 3, 4)
f("triu", "triu", [tm])
f("triu_diag1", "triu", [tm, 1])
f("triu_diag_neg", "triu", [tb, -1])
f("tril", "tril", [tm])
f("tril_kw", "tril", [tm], {"diagonal": 2})
f("tril_int", "tril", [torch.arange(9).view(3, 3), -1])
f("triu_transposed", "triu", [V(torch.arange(12.).view(4, 3), [T])])
f("triu_1d_err", "triu", [torch.arange(3.)])
m("m_triu", "triu", [tm, 1])
m("m_tril", "tril", [tb])
m("m_tril_", "tril_", [tm.clone()])
m("m_triu_", "triu_", [tm.clone(), -1])
f("diag_vec", "diag", [torch.arange(1., 4.)])
f("diag_vec_pos", "diag", [torch.arange(1., 4.), 1])
f("diag_vec_neg", "diag", [torch.arange(1, 4), -2])
f("diag_mat", "diag", [tm])
f("diag_mat_pos", "diag", [tm, 2])
f("diag_mat_neg", "diag", [tm, -1])
f("diag_mat_far", "diag", [tm, 7])
f("diag_mat_edge", "diag", [tm, 4])
f("diag_3d_err", "diag", [tb])
m("m_diag", "diag", [tm])
f("repeat_interleave_flat", "repeat_interleave", [tm, 2])
f("repeat_interleave_dim0", "repeat_interleave", [tm, 2, 0])
f("repeat_interleave_dim_neg", "repeat_interleave", [tb], {"repeats": 3, "dim": -1})
f("repeat_interleave_int", "repeat_interleave", [torch.tensor([1, 2, 3]), 2])
f("repeat_interleave_zero", "repeat_interleave", [tm, 0, 1])
f("repeat_interleave_neg_err", "repeat_interleave", [tm, -1])
f("repeat_interleave_dim_err", "repeat_interleave", [tm, 2, 3])
m("m_repeat_interleave", "repeat_interleave", [tm, 2], {"dim": 1})
f("repeat_interleave_tensor", "repeat_interleave", [tm, torch.tensor([1, 0, 2])], {"dim": 0})
f("repeat_interleave_tensor_0d", "repeat_interleave", [tm, torch.tensor(2)])
f("repeat_interleave_indices", "repeat_interleave", [torch.tensor([2, 0, 1])])
f("repeat_interleave_tensor_len_err", "repeat_interleave", [tm, torch.tensor([1, 2])], {"dim": 1})
f("repeat_interleave_tensor_neg_err", "repeat_interleave", [tm, torch.tensor([1, -2, 1])], {"dim": 0})
f("repeat_interleave_tensor_2d_err", "repeat_interleave", [tm, torch.tensor([[1, 2]])], {"dim": 0})
f("repeat_interleave_tensor_float_err", "repeat_interleave", [tm, torch.tensor([1., 2., 1.])], {"dim": 0})
m("m_repeat_interleave_tensor", "repeat_interleave", [tm, torch.tensor([1, 2, 3, 1]), 1])
f("meshgrid_ij", "meshgrid", [torch.arange(3), torch.arange(2.)[:2].long()], {"indexing": "ij"})
f("meshgrid_xy", "meshgrid", [torch.arange(3.), torch.arange(4.)], {"indexing": "xy"})
f("meshgrid_default", "meshgrid", [torch.arange(2.), torch.arange(3.)])
f("meshgrid_list", "meshgrid", [[torch.arange(2.), torch.arange(3.), torch.arange(4.)]],
  {"indexing": "ij"})
f("meshgrid_three_xy", "meshgrid", [torch.arange(2.), torch.arange(3.), torch.arange(4.)],
  {"indexing": "xy"})
f("meshgrid_bad_indexing", "meshgrid", [torch.arange(2.), torch.arange(3.)], {"indexing": "ab"})
f("diff", "diff", [torch.tensor([1., 3., 6., 10.])])
f("diff_n2", "diff", [torch.tensor([1, 3, 6, 10, 15]), 2])
f("diff_dim0", "diff", [tm], {"dim": 0})
f("diff_prepend_append", "diff", [tm], {"prepend": torch.zeros(3, 1), "append": torch.ones(3, 2)})
f("diff_bool", "diff", [torch.tensor([True, False, False, True])])
f("diff_n0", "diff", [tm, 0])
f("diff_n_large", "diff", [tm, 5])
f("diff_0d_err", "diff", [torch.tensor(1.)])
f("diff_neg_n", "diff", [tm, -1])
m("m_diff", "diff", [tb], {"dim": 1})
f("diagonal", "diagonal", [tm])
f("diagonal_offset", "diagonal", [tm, 1])
f("diagonal_neg", "diagonal", [tm], {"offset": -1})
f("diagonal_far", "diagonal", [tm, 9])
f("diagonal_3d", "diagonal", [tb, 0, 1, 2])
f("diagonal_3d_neg_dims", "diagonal", [tb], {"dim1": -1, "dim2": 0, "offset": 1})
f("diagonal_same_err", "diagonal", [tm, 0, 1, 1])
f("diagonal_transposed", "diagonal", [V(torch.arange(12.).view(4, 3), [T])])
m("m_diagonal", "diagonal", [tb, 0, -2, -1])
f("trace", "trace", [tm])
f("trace_int", "trace", [torch.arange(6).view(2, 3)])
f("trace_1d_err", "trace", [torch.ones(3)])
m("m_trace", "trace", [tm])
f("tril_indices", "tril_indices", [3, 4])
f("tril_indices_offset", "tril_indices", [3, 4, 1])
f("tril_indices_neg", "tril_indices", [4, 3], {"offset": -2})
f("triu_indices", "triu_indices", [3, 4, -1])
f("triu_indices_int32", "triu_indices", [3, 3], {"dtype": torch.int32})
f("triu_indices_far", "triu_indices", [2, 2, 5])
f("tril_indices_empty", "tril_indices", [0, 4])
f("tril_indices_neg_row_err", "tril_indices", [-1, 3])
f("tril_indices_float_err", "tril_indices", [3, 3], {"dtype": torch.float32})

cases.write("goldens/ops/shape.json")
print(len(cases.cases), "cases")
