"""Goldens for normalisations, dropout, embedding, interpolation, padding and channel
rearrangements (torch.nn.functional and the torch.* builtins), recorded from PyTorch 1.13.

Run from tests/conformance/ with /usr/bin/python3; writes goldens/ops/nn.json for the generic
driver (tests/core/test-ops-golden.c). Dropout cases carry a "seed": libfx draws the same
Bernoulli numbers as torch, so the masks match exactly.
"""
import json
import os
import warnings

import torch
import torch.nn.functional as F

from golden_encode import Cases, encode, make_input

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
E = encode
f64 = torch.float64
FN = "torch.nn.functional."


def rnd(*shape, seed=0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


def pos(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(*shape, generator=g) + 0.5


def T(t, view=None):
    """(encoded argument, the tensor torch sees)"""
    return make_input(t, view)


def norm_cases(c):
    x, xv = T(rnd(2, 3, 4))
    rm, rmv = T(rnd(3, seed=1))
    rv, rvv = T(pos(3, seed=2))
    w, wv = T(rnd(3, seed=3))
    b, bv = T(rnd(3, seed=4))
    c.add("batch_norm_eval", FN + "batch_norm", None, [x, rm, rv, w, b], {},
          lambda: F.batch_norm(xv, rmv, rvv, wv, bv))
    c.add("batch_norm_eval_no_affine", FN + "batch_norm", None, [x, rm, rv], {},
          lambda: F.batch_norm(xv, rmv, rvv))
    x2, x2v = T(rnd(5, 3, seed=5))
    c.add("batch_norm_eval_2d", FN + "batch_norm", None, [x2, rm, rv],
          {"weight": w, "bias": b, "eps": 1e-3},
          lambda: F.batch_norm(x2v, rmv, rvv, weight=wv, bias=bv, eps=1e-3))
    x4, x4v = T(rnd(2, 3, 2, 2, seed=6))
    c.add("batch_norm_eval_4d", FN + "batch_norm", None, [x4, rm, rv, w, b], {},
          lambda: F.batch_norm(x4v, rmv, rvv, wv, bv))
    xt, xtv = T(rnd(4, 3, 2, seed=7), [["transpose", 0, 2]])
    c.add("batch_norm_eval_transposed", FN + "batch_norm", None, [xt, T(rnd(3, seed=8))[0],
                                                                   T(pos(3, seed=9))[0]], {},
          lambda: F.batch_norm(xtv, rnd(3, seed=8), pos(3, seed=9)))
    xd, xdv = T(rnd(2, 3, 4, dtype=f64))
    c.add("batch_norm_eval_f64", FN + "batch_norm", None,
          [xd, T(rmv.double())[0], T(rvv.double())[0]], {},
          lambda: F.batch_norm(xdv, rmv.double(), rvv.double()))
    # training: the result only (running stats are checked in test-nn.c)
    c.add("batch_norm_train", FN + "batch_norm", None, [x, T(rmv.clone())[0], T(rvv.clone())[0],
                                                         w, b],
          {"training": True, "momentum": 0.2},
          lambda: F.batch_norm(xv, rmv.clone(), rvv.clone(), wv, bv, training=True,
                               momentum=0.2))
    c.add("batch_norm_train_no_stats", FN + "batch_norm", None, [x4, None, None],
          {"training": True}, lambda: F.batch_norm(x4v, None, None, training=True))
    c.add("batch_norm_aten", "torch.batch_norm", None,
          [x, w, b, rm, rv, False, 0.1, 1e-5, False], {},
          lambda: torch.batch_norm(xv, wv, bv, rmv, rvv, False, 0.1, 1e-5, False))
    c.add("batch_norm_long", FN + "batch_norm", None, [T(xv.long())[0], rm, rv], {},
          lambda: F.batch_norm(xv.long(), rmv, rvv))
    c.add("batch_norm_bad_mean", FN + "batch_norm", None, [x, T(torch.zeros(4))[0], rv], {},
          lambda: F.batch_norm(xv, torch.zeros(4), rvv))
    c.add("batch_norm_bad_var", FN + "batch_norm", None, [x, rm, T(torch.ones(4))[0]], {},
          lambda: F.batch_norm(xv, rmv, torch.ones(4)))
    c.add("batch_norm_bad_weight", FN + "batch_norm", None, [x, rm, rv],
          {"weight": T(torch.ones(4))[0]}, lambda: F.batch_norm(xv, rmv, rvv, weight=torch.ones(4)))
    c.add("batch_norm_bad_bias", FN + "batch_norm", None, [x, rm, rv],
          {"bias": T(torch.ones(2))[0]}, lambda: F.batch_norm(xv, rmv, rvv, bias=torch.ones(2)))
    one, onev = T(rnd(1, 3))
    c.add("batch_norm_one_per_channel", FN + "batch_norm", None, [one, rm, rv],
          {"training": True}, lambda: F.batch_norm(onev, rmv, rvv, training=True))
    c.add("batch_norm_eval_needs_stats", FN + "batch_norm", None, [x, None, None], {},
          lambda: F.batch_norm(xv, None, None))
    c.add("batch_norm_mixed_dtype", FN + "batch_norm", None,
          [x, T(rmv.double())[0], T(rvv.double())[0]], {},
          lambda: F.batch_norm(xv, rmv.double(), rvv.double()))
    c.add("batch_norm_mixed_dtype_input", FN + "batch_norm", None, [xd, rm, rv], {},
          lambda: F.batch_norm(xdv, rmv, rvv))

    # layer norm
    lw, lwv = T(rnd(3, 4, seed=10))
    lb, lbv = T(rnd(3, 4, seed=11))
    c.add("layer_norm_last", FN + "layer_norm", None, [x, E((4,))], {},
          lambda: F.layer_norm(xv, (4,)))
    c.add("layer_norm_two_dims_affine", FN + "layer_norm", None, [x, E([3, 4]), lw, lb], {},
          lambda: F.layer_norm(xv, [3, 4], lwv, lbv))
    c.add("layer_norm_eps_kw", FN + "layer_norm", None, [x, E((4,))],
          {"weight": T(rnd(4, seed=12))[0], "eps": 0.1},
          lambda: F.layer_norm(xv, (4,), weight=rnd(4, seed=12), eps=0.1))
    c.add("layer_norm_transposed", FN + "layer_norm", None, [xt, E((4,))], {},
          lambda: F.layer_norm(xtv, (4,)))
    c.add("layer_norm_f64", FN + "layer_norm", None, [xd, E((3, 4))], {},
          lambda: F.layer_norm(xdv, (3, 4)))
    c.add("layer_norm_aten", "torch.layer_norm", None, [x, E([4])], {},
          lambda: torch.layer_norm(xv, [4]))
    c.add("layer_norm_bad_shape", FN + "layer_norm", None, [x, E((3,))], {},
          lambda: F.layer_norm(xv, (3,)))
    c.add("layer_norm_bad_weight", FN + "layer_norm", None, [x, E((3, 4))],
          {"weight": T(torch.ones(4))[0]}, lambda: F.layer_norm(xv, (3, 4), weight=torch.ones(4)))
    c.add("layer_norm_empty_shape", FN + "layer_norm", None, [x, E([])], {},
          lambda: F.layer_norm(xv, []))
    c.add("layer_norm_long", FN + "layer_norm", None, [T(xv.long())[0], E((4,))], {},
          lambda: F.layer_norm(xv.long(), (4,)))

    # group norm
    g, gv = T(rnd(2, 4, 3, seed=13))
    gw, gwv = T(rnd(4, seed=14))
    gb, gbv = T(rnd(4, seed=15))
    c.add("group_norm_basic", FN + "group_norm", None, [g, 2], {}, lambda: F.group_norm(gv, 2))
    c.add("group_norm_affine", FN + "group_norm", None, [g, 4, gw, gb], {},
          lambda: F.group_norm(gv, 4, gwv, gbv))
    g4, g4v = T(rnd(2, 6, 2, 2, seed=16))
    c.add("group_norm_4d", FN + "group_norm", None, [g4, 3], {"eps": 1e-2},
          lambda: F.group_norm(g4v, 3, eps=1e-2))
    c.add("group_norm_aten", "torch.group_norm", None, [g, 1], {},
          lambda: torch.group_norm(gv, 1))
    c.add("group_norm_not_divisible", FN + "group_norm", None, [g, 3], {},
          lambda: F.group_norm(gv, 3))
    c.add("group_norm_bad_weight", FN + "group_norm", None, [g, 2],
          {"weight": T(torch.ones(2))[0]}, lambda: F.group_norm(gv, 2, weight=torch.ones(2)))
    c.add("group_norm_one_value", FN + "group_norm", None, [T(rnd(1, 2))[0], 2], {},
          lambda: F.group_norm(rnd(1, 2), 2))
    c.add("group_norm_long", FN + "group_norm", None, [T(gv.long())[0], 2], {},
          lambda: F.group_norm(gv.long(), 2))

    # instance norm
    c.add("instance_norm_basic", FN + "instance_norm", None, [x], {},
          lambda: F.instance_norm(xv))
    c.add("instance_norm_affine", FN + "instance_norm", None, [x4],
          {"weight": w, "bias": b}, lambda: F.instance_norm(x4v, weight=wv, bias=bv))
    c.add("instance_norm_running", FN + "instance_norm", None, [x, rm, rv],
          {"use_input_stats": False}, lambda: F.instance_norm(xv, rmv, rvv, use_input_stats=False))
    c.add("instance_norm_aten", "torch.instance_norm", None,
          [x, None, None, None, None, True, 0.1, 1e-5, False], {},
          lambda: torch.instance_norm(xv, None, None, None, None, True, 0.1, 1e-5, False))
    c.add("instance_norm_one_spatial", FN + "instance_norm", None, [T(rnd(2, 3, 1))[0]], {},
          lambda: F.instance_norm(rnd(2, 3, 1)))
    c.add("instance_norm_bad_mean", FN + "instance_norm", None, [x, T(torch.zeros(2))[0], rv],
          {}, lambda: F.instance_norm(xv, torch.zeros(2), rvv))


def dropout_cases(c):
    x, xv = T(rnd(4, 5))
    c.add("dropout_train", FN + "dropout", None, [x], {}, lambda: F.dropout(xv), seed=1)
    c.add("dropout_p03", FN + "dropout", None, [x, 0.3], {}, lambda: F.dropout(xv, 0.3), seed=2)
    c.add("dropout_eval", FN + "dropout", None, [x], {"training": False},
          lambda: F.dropout(xv, training=False), seed=3)
    c.add("dropout_p0", FN + "dropout", None, [x, 0.0], {}, lambda: F.dropout(xv, 0.0), seed=3)
    c.add("dropout_p1", FN + "dropout", None, [x, 1.0], {}, lambda: F.dropout(xv, 1.0), seed=3)
    c.add("dropout_bad_p", FN + "dropout", None, [x, 1.5], {}, lambda: F.dropout(xv, 1.5))
    c.add("dropout_bad_p_neg", FN + "dropout", None, [x, -0.25], {},
          lambda: F.dropout(xv, -0.25))
    xd, xdv = T(rnd(3, 7, dtype=f64))
    c.add("dropout_f64", FN + "dropout", None, [xd, 0.6], {}, lambda: F.dropout(xdv, 0.6),
          seed=4)
    xt, xtv = T(rnd(4, 5), [["t"]])
    c.add("dropout_transposed", FN + "dropout", None, [xt, 0.5], {},
          lambda: F.dropout(xtv, 0.5), seed=5)
    c.add("dropout_int", FN + "dropout", None, [T(torch.ones(3, dtype=torch.long))[0]], {},
          lambda: F.dropout(torch.ones(3, dtype=torch.long)), seed=5)
    c.add("dropout_empty", FN + "dropout", None, [T(torch.zeros(0, 3))[0]], {},
          lambda: F.dropout(torch.zeros(0, 3)), seed=5)
    c.add("dropout_aten", "torch.dropout", None, [x, 0.3, True], {},
          lambda: torch.dropout(xv, 0.3, True), seed=6)
    c.add("dropout_aten_eval", "torch.dropout", None, [x, 0.3, False], {},
          lambda: torch.dropout(xv, 0.3, False), seed=6)
    f, fv = T(rnd(2, 3, 2, 2))
    c.add("dropout2d_train", FN + "dropout2d", None, [f, 0.5], {},
          lambda: F.dropout2d(fv, 0.5), seed=7)
    c.add("feature_dropout_aten", "torch.feature_dropout", None, [f, 0.4, True], {},
          lambda: torch.feature_dropout(fv, 0.4, True), seed=8)
    c.add("dropout1d_unbatched", FN + "dropout1d", None, [T(rnd(4, 3))[0], 0.5], {},
          lambda: F.dropout1d(rnd(4, 3), 0.5), seed=9)
    c.add("dropout1d_batched", FN + "dropout1d", None, [T(rnd(2, 4, 3))[0], 0.5], {},
          lambda: F.dropout1d(rnd(2, 4, 3), 0.5), seed=9)
    c.add("dropout1d_bad_dims", FN + "dropout1d", None, [T(rnd(4))[0], 0.5], {},
          lambda: F.dropout1d(rnd(4), 0.5), seed=9)
    c.add("dropout3d_unbatched", FN + "dropout3d", None, [T(rnd(3, 2, 2, 2))[0], 0.5], {},
          lambda: F.dropout3d(rnd(3, 2, 2, 2), 0.5), seed=10)


def embedding_cases(c):
    w, wv = T(rnd(5, 3))
    idx = torch.tensor([1, 4, 0, 1])
    c.add("embedding_1d", FN + "embedding", None, [T(idx)[0], w], {},
          lambda: F.embedding(idx, wv))
    idx2 = torch.tensor([[0, 2], [4, 3], [1, 1]])
    c.add("embedding_2d", FN + "embedding", None, [T(idx2)[0], w], {},
          lambda: F.embedding(idx2, wv))
    c.add("embedding_int32", FN + "embedding", None, [T(idx.int())[0], w], {},
          lambda: F.embedding(idx.int(), wv))
    c.add("embedding_scalar_index", FN + "embedding", None, [T(torch.tensor(3))[0], w], {},
          lambda: F.embedding(torch.tensor(3), wv))
    c.add("embedding_padding_idx", FN + "embedding", None, [T(idx)[0], w], {"padding_idx": 1},
          lambda: F.embedding(idx, wv, padding_idx=1))
    c.add("embedding_out_of_range", FN + "embedding", None, [T(torch.tensor([1, 5]))[0], w], {},
          lambda: F.embedding(torch.tensor([1, 5]), wv))
    c.add("embedding_negative", FN + "embedding", None, [T(torch.tensor([-1]))[0], w], {},
          lambda: F.embedding(torch.tensor([-1]), wv))
    c.add("embedding_float_indices", FN + "embedding", None, [T(torch.tensor([1.0]))[0], w], {},
          lambda: F.embedding(torch.tensor([1.0]), wv))
    c.add("embedding_bool_indices", FN + "embedding", None, [T(torch.tensor([True]))[0], w], {},
          lambda: F.embedding(torch.tensor([True]), wv))
    c.add("embedding_1d_weight", FN + "embedding", None, [T(idx)[0], T(rnd(5))[0]], {},
          lambda: F.embedding(idx, rnd(5)))
    c.add("embedding_aten", "torch.embedding", None, [w, T(idx2)[0]], {},
          lambda: torch.embedding(wv, idx2))
    c.add("one_hot_infer", FN + "one_hot", None, [T(torch.tensor([0, 2, 1]))[0]], {},
          lambda: F.one_hot(torch.tensor([0, 2, 1])))
    c.add("one_hot_classes", "torch._C._nn.one_hot", None, [T(torch.tensor([[0, 2], [1, 0]]))[0]],
          {"num_classes": 4}, lambda: F.one_hot(torch.tensor([[0, 2], [1, 0]]), num_classes=4))
    c.add("one_hot_scalar", FN + "one_hot", None, [T(torch.tensor(2))[0], 3], {},
          lambda: F.one_hot(torch.tensor(2), 3))
    c.add("one_hot_empty", FN + "one_hot", None, [T(torch.tensor([], dtype=torch.long))[0], 3],
          {}, lambda: F.one_hot(torch.tensor([], dtype=torch.long), 3))
    c.add("one_hot_empty_infer", FN + "one_hot", None,
          [T(torch.tensor([], dtype=torch.long))[0]], {},
          lambda: F.one_hot(torch.tensor([], dtype=torch.long)))
    c.add("one_hot_float", FN + "one_hot", None, [T(torch.tensor([1.0]))[0]], {},
          lambda: F.one_hot(torch.tensor([1.0])))
    c.add("one_hot_negative", FN + "one_hot", None, [T(torch.tensor([-1, 2]))[0]], {},
          lambda: F.one_hot(torch.tensor([-1, 2])))
    c.add("one_hot_too_big", FN + "one_hot", None, [T(torch.tensor([1, 2]))[0], 2], {},
          lambda: F.one_hot(torch.tensor([1, 2]), 2))


def interp_cases(c):
    x4, x4v = T(rnd(1, 2, 3, 4))
    x3, x3v = T(rnd(2, 2, 5, seed=1))
    x5, x5v = T(rnd(1, 1, 2, 3, 2, seed=2))
    I = FN + "interpolate"
    c.add("interp_nearest_scale2", I, None, [x4], {"scale_factor": 2},
          lambda: F.interpolate(x4v, scale_factor=2))
    c.add("interp_nearest_size", I, None, [x4], {"size": E((5, 7))},
          lambda: F.interpolate(x4v, size=(5, 7)))
    c.add("interp_nearest_int_size", I, None, [x4], {"size": 3},
          lambda: F.interpolate(x4v, size=3))
    c.add("interp_nearest_down", I, None, [x4], {"scale_factor": 0.5},
          lambda: F.interpolate(x4v, scale_factor=0.5))
    c.add("interp_nearest_1d_scale", I, None, [x3], {"scale_factor": 1.5},
          lambda: F.interpolate(x3v, scale_factor=1.5))
    c.add("interp_nearest_3d", I, None, [x5], {"scale_factor": E((2, 1, 1.5))},
          lambda: F.interpolate(x5v, scale_factor=(2, 1, 1.5)))
    c.add("interp_nearest_recompute", I, None, [x4],
          {"scale_factor": 1.7, "recompute_scale_factor": True},
          lambda: F.interpolate(x4v, scale_factor=1.7, recompute_scale_factor=True))
    c.add("interp_nearest_no_recompute", I, None, [x4], {"scale_factor": 1.7},
          lambda: F.interpolate(x4v, scale_factor=1.7))
    c.add("interp_nearest_exact", I, None, [x4], {"size": E((5, 3)), "mode": E("nearest-exact")},
          lambda: F.interpolate(x4v, size=(5, 3), mode="nearest-exact"))
    for ac in (False, True):
        c.add(f"interp_bilinear_size_ac{int(ac)}", I, None, [x4],
              {"size": E((5, 7)), "mode": E("bilinear"), "align_corners": ac},
              lambda ac=ac: F.interpolate(x4v, size=(5, 7), mode="bilinear", align_corners=ac))
        c.add(f"interp_bilinear_scale_ac{int(ac)}", I, None, [x4],
              {"scale_factor": 2.5, "mode": E("bilinear"), "align_corners": ac},
              lambda ac=ac: F.interpolate(x4v, scale_factor=2.5, mode="bilinear",
                                          align_corners=ac))
        c.add(f"interp_linear_ac{int(ac)}", I, None, [x3],
              {"size": 8, "mode": E("linear"), "align_corners": ac},
              lambda ac=ac: F.interpolate(x3v, size=8, mode="linear", align_corners=ac))
        c.add(f"interp_trilinear_ac{int(ac)}", I, None, [x5],
              {"scale_factor": 2, "mode": E("trilinear"), "align_corners": ac},
              lambda ac=ac: F.interpolate(x5v, scale_factor=2, mode="trilinear",
                                          align_corners=ac))
    c.add("interp_bilinear_default_ac", I, None, [x4], {"size": E([2, 3]), "mode": E("bilinear")},
          lambda: F.interpolate(x4v, size=[2, 3], mode="bilinear"))
    c.add("interp_bilinear_down_scale", I, None, [T(rnd(1, 1, 6, 6))[0]],
          {"scale_factor": 0.4, "mode": E("bilinear")},
          lambda: F.interpolate(rnd(1, 1, 6, 6), scale_factor=0.4, mode="bilinear"))
    c.add("interp_bilinear_f64", I, None, [T(x4v.double())[0]],
          {"size": E((4, 6)), "mode": E("bilinear")},
          lambda: F.interpolate(x4v.double(), size=(4, 6), mode="bilinear"))
    c.add("interp_area", I, None, [T(rnd(1, 2, 6, 5))[0]], {"size": E((3, 2)), "mode": E("area")},
          lambda: F.interpolate(rnd(1, 2, 6, 5), size=(3, 2), mode="area"))
    c.add("interp_transposed", I, None, [T(rnd(1, 2, 4, 3), [["transpose", 2, 3]])[0]],
          {"scale_factor": 2}, lambda: F.interpolate(rnd(1, 2, 4, 3).transpose(2, 3),
                                                      scale_factor=2))
    c.add("interp_align_with_nearest", I, None, [x4], {"size": 3, "align_corners": True},
          lambda: F.interpolate(x4v, size=3, align_corners=True))
    c.add("interp_both", I, None, [x4], {"size": 3, "scale_factor": 2},
          lambda: F.interpolate(x4v, size=3, scale_factor=2))
    c.add("interp_neither", I, None, [x4], {}, lambda: F.interpolate(x4v))
    c.add("interp_size_len", I, None, [x4], {"size": E((4,))},
          lambda: F.interpolate(x4v, size=(4,)))
    c.add("interp_scale_len", I, None, [x4], {"scale_factor": E((2.0, 2.0, 2.0))},
          lambda: F.interpolate(x4v, scale_factor=(2.0, 2.0, 2.0)))
    c.add("interp_recompute_with_size", I, None, [x4],
          {"size": 3, "recompute_scale_factor": True},
          lambda: F.interpolate(x4v, size=3, recompute_scale_factor=True))
    c.add("interp_bilinear_3d", I, None, [x3], {"size": 4, "mode": E("bilinear")},
          lambda: F.interpolate(x3v, size=4, mode="bilinear"))
    c.add("interp_linear_4d", I, None, [x4], {"size": 4, "mode": E("linear")},
          lambda: F.interpolate(x4v, size=4, mode="linear"))
    c.add("interp_2d_input", I, None, [T(rnd(2, 3))[0]], {"size": 4},
          lambda: F.interpolate(rnd(2, 3), size=4))
    c.add("interp_bad_mode", I, None, [x4], {"size": 4, "mode": E("cubic")},
          lambda: F.interpolate(x4v, size=4, mode="cubic"))
    c.add("interp_zero_output", I, None, [x4], {"size": E((0, 2))},
          lambda: F.interpolate(x4v, size=(0, 2)))
    c.add("interp_small_scale", I, None, [x4], {"scale_factor": 0.2, "mode": E("bilinear")},
          lambda: F.interpolate(x4v, scale_factor=0.2, mode="bilinear"))
    c.add("interp_long", I, None, [T(x4v.long())[0]], {"size": 4},
          lambda: F.interpolate(x4v.long(), size=4))
    c.add("interp_antialias_nearest", I, None, [x4], {"size": 4, "antialias": True},
          lambda: F.interpolate(x4v, size=4, antialias=True))
    c.add("upsample_nearest", FN + "upsample_nearest", None, [x4], {"scale_factor": 2},
          lambda: F.upsample_nearest(x4v, scale_factor=2))
    c.add("upsample_bilinear", FN + "upsample_bilinear", None, [x4], {"size": E((3, 5))},
          lambda: F.upsample_bilinear(x4v, size=(3, 5)))
    c.add("upsample_mode", FN + "upsample", None, [x4, None, 2, E("bilinear")], {},
          lambda: F.upsample(x4v, None, 2, "bilinear"))


def pad_cases(c):
    x, xv = T(rnd(1, 2, 3))
    x4, x4v = T(rnd(1, 2, 3, 3, seed=1))
    x5, x5v = T(rnd(1, 1, 2, 3, 4, seed=2))
    P = FN + "pad"
    for name, (t, tv), pad, kw in [
            ("const_1d", (x, xv), (1, 1), {}),
            ("const_2d", (x4, x4v), (1, 2, 0, 1), {}),
            ("const_value", (x, xv), (2, 0), {"value": 2.5}),
            ("const_all_dims", (x, xv), (1, 0, 0, 1, 1, 1), {}),
            ("const_crop", (x, xv), (-1, 1), {}),
            ("const_crop_both", (x4, x4v), (-1, -1, 0, -2), {}),
            ("const_crop_to_zero", (x, xv), (-1, -2), {}),
            ("const_int", (T(torch.arange(6).view(1, 2, 3))), (1, 1), {"value": 2.5}),
            ("reflect_1d", (x, xv), (2, 1), {"mode": "reflect"}),
            ("reflect_1d_unbatched", T(rnd(2, 3)), (1, 2), {"mode": "reflect"}),
            ("reflect_2d", (x4, x4v), (1, 2, 2, 1), {"mode": "reflect"}),
            ("reflect_3d", (x5, x5v), (1, 1, 2, 1, 1, 1), {"mode": "reflect"}),
            ("reflect_negative", (x, xv), (-1, 1), {"mode": "reflect"}),
            ("replicate_1d", (x, xv), (3, 1), {"mode": "replicate"}),
            ("replicate_2d", (x4, x4v), (5, 1, 1, 7), {"mode": "replicate"}),
            ("replicate_3d", (x5, x5v), (1, 2, 1, 0, 2, 1), {"mode": "replicate"}),
            ("circular_1d", (x, xv), (1, 2), {"mode": "circular"}),
            ("circular_2d", (x4, x4v), (2, 1, 1, 3), {"mode": "circular"}),
            ("circular_int", T(torch.arange(6).view(1, 2, 3)), (1, 1), {"mode": "circular"}),
            ("reflect_zero_value", (x, xv), (1, 1), {"mode": "reflect", "value": 0.0}),
            ("odd_length", (x, xv), (1,), {}),
            ("too_long", (x, xv), (1, 1) * 4, {}),
            ("crop_too_much", (x, xv), (-2, -2), {}),
            ("reflect_too_big", (x, xv), (3, 1), {"mode": "reflect"}),
            ("reflect_2d_too_big_w", (x4, x4v), (3, 1, 1, 1), {"mode": "reflect"}),
            ("reflect_2d_too_big_h", (x4, x4v), (1, 1, 3, 1), {"mode": "reflect"}),
            ("reflect_wrong_dims", (x4, x4v), (1, 1), {"mode": "reflect"}),
            ("reflect_1d_input", T(rnd(3)), (1, 1), {"mode": "reflect"}),
            ("circular_wraps", (x, xv), (4, 1), {"mode": "circular"}),
            ("bad_mode", (x, xv), (1, 1), {"mode": "bogus"}),
            ("reflect_value", (x, xv), (1, 1), {"mode": "reflect", "value": 1.0}),
            ("reflect_long", T(torch.arange(6).view(1, 2, 3)), (1, 1), {"mode": "reflect"}),
            ("replicate_long", T(torch.arange(6).view(1, 2, 3)), (1, 1), {"mode": "replicate"}),
    ]:
        c.add(f"pad_{name}", P, None, [t, E(pad)], {k: E(v) for k, v in kw.items()},
              lambda tv=tv, pad=pad, kw=kw: F.pad(tv, pad, **kw))
    xt, xtv = T(rnd(1, 3, 2), [["transpose", 1, 2]])
    c.add("pad_transposed_reflect", P, None, [xt, E((1, 1))], {"mode": E("reflect")},
          lambda: F.pad(xtv, (1, 1), mode="reflect"))


def shuffle_cases(c):
    ps, psv = T(rnd(1, 8, 2, 3))
    c.add("pixel_shuffle", "torch.pixel_shuffle", None, [ps, 2], {},
          lambda: torch.pixel_shuffle(psv, 2))
    c.add("pixel_shuffle_functional", FN + "pixel_shuffle", None, [T(rnd(2, 3, 9, 1, 2))[0], 3],
          {}, lambda: F.pixel_shuffle(rnd(2, 3, 9, 1, 2), 3))
    c.add("pixel_shuffle_2d", "torch.pixel_shuffle", None, [T(rnd(2, 3))[0], 2], {},
          lambda: torch.pixel_shuffle(rnd(2, 3), 2))
    c.add("pixel_shuffle_not_divisible", "torch.pixel_shuffle", None, [T(rnd(1, 5, 2, 2))[0], 2],
          {}, lambda: torch.pixel_shuffle(rnd(1, 5, 2, 2), 2))
    c.add("pixel_shuffle_zero", "torch.pixel_shuffle", None, [ps, 0], {},
          lambda: torch.pixel_shuffle(psv, 0))
    c.add("pixel_unshuffle", "torch.pixel_unshuffle", None, [T(rnd(1, 2, 4, 6))[0], 2], {},
          lambda: torch.pixel_unshuffle(rnd(1, 2, 4, 6), 2))
    c.add("pixel_unshuffle_roundtrip", FN + "pixel_unshuffle", None, [ps], {"downscale_factor": 1},
          lambda: F.pixel_unshuffle(psv, downscale_factor=1))
    c.add("pixel_unshuffle_bad_h", "torch.pixel_unshuffle", None, [T(rnd(1, 1, 3, 4))[0], 2], {},
          lambda: torch.pixel_unshuffle(rnd(1, 1, 3, 4), 2))
    c.add("pixel_unshuffle_bad_w", "torch.pixel_unshuffle", None, [T(rnd(1, 1, 4, 3))[0], 2], {},
          lambda: torch.pixel_unshuffle(rnd(1, 1, 4, 3), 2))
    cs, csv = T(rnd(1, 6, 2, 2))
    c.add("channel_shuffle", "torch.channel_shuffle", None, [cs, 3], {},
          lambda: torch.channel_shuffle(csv, 3))
    c.add("channel_shuffle_3d", FN + "channel_shuffle", None, [T(rnd(2, 4, 3))[0], 2], {},
          lambda: F.channel_shuffle(rnd(2, 4, 3), 2))
    c.add("channel_shuffle_int", "torch.channel_shuffle",
          None, [T(torch.arange(12).view(1, 6, 2))[0], 2], {},
          lambda: torch.channel_shuffle(torch.arange(12).view(1, 6, 2), 2))
    c.add("channel_shuffle_not_divisible", "torch.channel_shuffle", None,
          [T(rnd(1, 5, 2, 2))[0], 2], {}, lambda: torch.channel_shuffle(rnd(1, 5, 2, 2), 2))
    c.add("channel_shuffle_zero_groups", "torch.channel_shuffle", None, [cs, 0], {},
          lambda: torch.channel_shuffle(csv, 0))
    c.add("channel_shuffle_2d", "torch.channel_shuffle", None, [T(rnd(1, 4))[0], 2], {},
          lambda: torch.channel_shuffle(rnd(1, 4), 2))


def more_cases(c):
    """Activations, normalize, cosine_similarity and losses (core/ops/ops-more.c)."""
    def enc(a):
        if isinstance(a, torch.Tensor):
            return T(a)
        return E(a), a

    def call(case_id, op, fn, args, kwargs=None, **kw):
        kwargs = kwargs or {}
        pa = [enc(a) for a in args]
        pk = {k: enc(v) for k, v in kwargs.items()}
        real_a = [p[1] for p in pa]
        real_k = {k: p[1] for k, p in pk.items()}
        c.add(case_id, op, None, [p[0] for p in pa], {k: p[0] for k, p in pk.items()},
              lambda: fn(*real_a, **real_k), **kw)

    x = rnd(2, 3, 4, seed=50)
    xd = rnd(3, 5, dtype=f64, seed=51)
    call("normalize", FN + "normalize", F.normalize, [x])
    call("normalize_p1_dim", FN + "normalize", F.normalize, [x], {"p": 1.0, "dim": -1})
    call("normalize_zero", FN + "normalize", F.normalize, [torch.zeros(2, 3)])
    call("normalize_f64", FN + "normalize", F.normalize, [xd, 2.0, 0])
    call("logsigmoid", FN + "logsigmoid", F.logsigmoid, [x * 10])
    call("logsigmoid_f64", "torch._C._nn.log_sigmoid", F.logsigmoid, [xd])
    call("hardshrink", FN + "hardshrink", F.hardshrink, [x])
    call("hardshrink_lambd", "torch.hardshrink", torch.hardshrink, [x, 1.0])
    call("m_hardshrink", "Tensor.hardshrink", lambda t, *a: t.hardshrink(*a), [x, 0.3])
    call("softshrink", FN + "softshrink", F.softshrink, [x])
    call("softshrink_lambd", FN + "softshrink", F.softshrink, [xd, 0.8])
    call("threshold", FN + "threshold", F.threshold, [x, 0.1, 20.0])
    call("threshold_q", FN + "_threshold", F.threshold, [x], {"threshold": -0.5, "value": -1})
    call("threshold_torch", "torch.threshold", torch.threshold, [x, 0.0, 5.0])
    call("softmin", FN + "softmin", F.softmin, [x, 1])
    call("softmin_default", FN + "softmin", F.softmin, [x])
    call("softmin_dtype", FN + "softmin", F.softmin, [x, -1], {"dtype": f64})
    call("glu", FN + "glu", F.glu, [rnd(2, 6, seed=52)])
    call("glu_dim", FN + "glu", F.glu, [rnd(4, 3, seed=53), 0])
    call("glu_odd_err", FN + "glu", F.glu, [rnd(2, 3, seed=54)])
    call("mish", FN + "mish", F.mish, [x * 5])
    call("mish_f64", FN + "mish", F.mish, [xd])
    call("selu", FN + "selu", F.selu, [x])
    call("torch_selu", "torch.selu", torch.selu, [xd])
    call("celu", FN + "celu", F.celu, [x])
    call("celu_alpha", FN + "celu", F.celu, [x, 0.5])
    w1 = torch.tensor([0.25])
    w3 = torch.tensor([0.1, 0.2, 0.3])
    call("prelu_scalar", FN + "prelu", F.prelu, [x, w1])
    call("prelu_channels", "torch.prelu", torch.prelu, [x, w3])
    call("prelu_4d", FN + "prelu", F.prelu, [rnd(2, 3, 2, 2, seed=55), w3])
    call("prelu_err", FN + "prelu", F.prelu, [x, torch.tensor([0.1, 0.2])])
    a, b = rnd(4, 5, seed=56), rnd(4, 5, seed=57)
    call("cosine_similarity", FN + "cosine_similarity", F.cosine_similarity, [a, b])
    call("cosine_similarity_dim0", "torch.cosine_similarity", torch.cosine_similarity,
         [a, b], {"dim": 0})
    call("cosine_similarity_bcast", FN + "cosine_similarity", F.cosine_similarity,
         [rnd(2, 3, 4, seed=58), rnd(3, 4, seed=59)], {"dim": -1})
    call("cosine_similarity_tiny", FN + "cosine_similarity", F.cosine_similarity,
         [torch.tensor([[1e-5, 0.], [3e-9, 1e-9]]), torch.tensor([[1e-5, 0.], [2e-9, -1e-9]])])
    call("cosine_similarity_1d", FN + "cosine_similarity", F.cosine_similarity,
         [rnd(5, seed=84), rnd(5, seed=85)], {"dim": 0})
    call("cosine_similarity_zero", FN + "cosine_similarity", F.cosine_similarity,
         [torch.zeros(2, 3), b[:2, :3].contiguous()])

    t = rnd(2, 3, 4, seed=60)
    for name in ["mse_loss", "l1_loss", "smooth_l1_loss"]:
        fn = getattr(F, name)
        call(name, FN + name, fn, [x, t])
        for red in ["none", "sum"]:
            call(f"{name}_{red}", FN + name, fn, [x, t], {"reduction": red})
        call(f"{name}_legacy", FN + name, fn, [x, t], {"size_average": False})
        call(f"{name}_bad_reduction", FN + name, fn, [x, t], {"reduction": "avg"})
    call("mse_loss_f64", FN + "mse_loss", F.mse_loss, [xd, rnd(3, 5, dtype=f64, seed=61)])
    call("smooth_l1_loss_beta", FN + "smooth_l1_loss", F.smooth_l1_loss, [x, t], {"beta": 0.5})
    call("smooth_l1_loss_beta0", FN + "smooth_l1_loss", F.smooth_l1_loss, [x, t], {"beta": 0.0})
    call("mse_loss_bcast", FN + "mse_loss", F.mse_loss, [x, rnd(4, seed=62)])

    logits = rnd(4, 5, seed=63)
    target = torch.tensor([1, 0, 4, 2])
    tgt_ign = torch.tensor([1, -100, 4, 2])
    cw = pos(5, seed=64)
    CE = FN + "cross_entropy"
    call("cross_entropy", CE, F.cross_entropy, [logits, target])
    call("cross_entropy_sum", CE, F.cross_entropy, [logits, target], {"reduction": "sum"})
    call("cross_entropy_none", CE, F.cross_entropy, [logits, target], {"reduction": "none"})
    call("cross_entropy_weight", CE, F.cross_entropy, [logits, target], {"weight": cw})
    call("cross_entropy_ignore", CE, F.cross_entropy, [logits, tgt_ign])
    call("cross_entropy_ignore_idx", CE, F.cross_entropy, [logits, target], {"ignore_index": 0})
    call("cross_entropy_smooth", CE, F.cross_entropy, [logits, target], {"label_smoothing": 0.1})
    call("cross_entropy_smooth_ignore", CE, F.cross_entropy, [logits, tgt_ign],
         {"label_smoothing": 0.2})
    call("cross_entropy_smooth_weight", CE, F.cross_entropy, [logits, target],
         {"weight": cw, "label_smoothing": 0.2})
    call("cross_entropy_smooth_sum", CE, F.cross_entropy, [logits, target],
         {"label_smoothing": 0.3, "reduction": "sum"})
    call("cross_entropy_smooth_none", CE, F.cross_entropy, [logits, tgt_ign],
         {"label_smoothing": 0.3, "reduction": "none"})
    call("cross_entropy_1d", CE, F.cross_entropy, [logits[0].clone(), torch.tensor(3)])
    call("cross_entropy_spatial", CE, F.cross_entropy,
         [rnd(2, 3, 2, 2, seed=65), torch.tensor([[[0, 1], [2, 0]], [[1, 1], [2, 2]]])])
    probs = torch.softmax(rnd(4, 5, seed=66), 1)
    call("cross_entropy_probs", CE, F.cross_entropy, [logits, probs])
    call("cross_entropy_probs_none", CE, F.cross_entropy, [logits, probs], {"reduction": "none"})
    call("cross_entropy_probs_weight", CE, F.cross_entropy, [logits, probs], {"weight": cw})
    call("cross_entropy_probs_smooth", CE, F.cross_entropy, [logits, probs],
         {"label_smoothing": 0.1, "reduction": "sum"})
    call("cross_entropy_f64", CE, F.cross_entropy, [logits.double(), target])
    call("cross_entropy_batch_err", CE, F.cross_entropy, [logits, torch.tensor([1, 2])])
    call("cross_entropy_oob_err", CE, F.cross_entropy, [logits, torch.tensor([1, 2, 3, 7])])
    lp = torch.log_softmax(logits, 1)
    NL = FN + "nll_loss"
    call("nll_loss", NL, F.nll_loss, [lp, target])
    call("nll_loss_weight", NL, F.nll_loss, [lp, target, cw])
    call("nll_loss_ignore", NL, F.nll_loss, [lp, tgt_ign], {"reduction": "sum"})
    call("nll_loss_none", NL, F.nll_loss, [lp, tgt_ign], {"reduction": "none", "weight": cw})
    call("nll_loss_legacy", NL, F.nll_loss, [lp, target], {"reduce": False})
    call("nll_loss_bad_reduction", NL, F.nll_loss, [lp, target], {"reduction": "x"})
    p = torch.sigmoid(rnd(3, 4, seed=67))
    y = torch.rand(3, 4, generator=torch.Generator().manual_seed(68))
    BCE = FN + "binary_cross_entropy"
    call("bce", BCE, F.binary_cross_entropy, [p, y])
    call("bce_weight", BCE, F.binary_cross_entropy, [p, y], {"weight": pos(4, seed=69)})
    call("bce_none", BCE, F.binary_cross_entropy, [p, y], {"reduction": "none"})
    call("bce_sum", BCE, F.binary_cross_entropy, [p, y], {"reduction": "sum"})
    call("bce_edges", BCE, F.binary_cross_entropy,
         [torch.tensor([0., 1., 0.5]), torch.tensor([1., 0., 1.])])
    call("bce_size_err", BCE, F.binary_cross_entropy, [p, y[0].clone()])
    call("bce_range_err", BCE, F.binary_cross_entropy, [p + 1, y])
    BL = FN + "binary_cross_entropy_with_logits"
    z = rnd(3, 4, seed=70) * 4
    call("bce_logits", BL, F.binary_cross_entropy_with_logits, [z, y])
    call("bce_logits_pos_weight", BL, F.binary_cross_entropy_with_logits, [z, y],
         {"pos_weight": pos(4, seed=71)})
    call("bce_logits_weight_none", BL, F.binary_cross_entropy_with_logits, [z, y],
         {"weight": pos(4, seed=72), "reduction": "none"})
    call("bce_logits_sum", BL, F.binary_cross_entropy_with_logits, [z, y], {"reduction": "sum"})
    call("bce_logits_size_err", BL, F.binary_cross_entropy_with_logits, [z, y[0].clone()])
    ia = torch.arange(6).view(2, 3)
    call("cross_entropy_probs_long_err", CE, F.cross_entropy, [rnd(2, 3, seed=75), ia])
    call("cross_entropy_shape_err", CE, F.cross_entropy, [rnd(2, 3, seed=75), rnd(2, 4, seed=76)])
    call("cross_entropy_spatial_err", CE, F.cross_entropy,
         [rnd(2, 3, 4, seed=77), torch.zeros(2, 5, dtype=torch.long)])
    call("cross_entropy_1d_err", CE, F.cross_entropy, [rnd(3, seed=78), torch.tensor([1, 2])])
    call("cross_entropy_smoothing_err", CE, F.cross_entropy, [logits, target],
         {"label_smoothing": 1.5})
    call("cross_entropy_weight_err", CE, F.cross_entropy, [logits, target],
         {"weight": torch.ones(4)})
    call("nll_loss_int_target_err", NL, F.nll_loss, [lp, target.int()])
    call("nll_loss_3d_err", NL, F.nll_loss, [rnd(2, 3, 4, seed=79), torch.zeros(2, dtype=torch.long)])
    call("mse_loss_long_err", FN + "mse_loss", F.mse_loss, [ia, ia])
    call("smooth_l1_loss_long_err", FN + "smooth_l1_loss", F.smooth_l1_loss, [ia, ia])
    call("kl_div_long_err", FN + "kl_div", F.kl_div, [ia, ia])
    call("mse_loss_shape_err", FN + "mse_loss", F.mse_loss, [rnd(2, 3, seed=80), rnd(4, seed=81)])
    call("hardshrink_long_err", FN + "hardshrink", F.hardshrink, [ia])
    call("softshrink_long_err", FN + "softshrink", F.softshrink, [ia])
    call("softshrink_neg_err", FN + "softshrink", F.softshrink, [x, -0.5])
    call("mish_long_err", FN + "mish", F.mish, [ia])
    call("selu_long_err", FN + "selu", F.selu, [ia])
    call("logsigmoid_long_err", FN + "logsigmoid", F.logsigmoid, [ia])
    call("threshold_long", FN + "threshold", F.threshold, [ia, 1, 20])
    call("celu_zero_err", FN + "celu", F.celu, [x, 0.0])
    call("prelu_0d_err", FN + "prelu", F.prelu, [torch.tensor(1.), w3])
    call("huber_loss", FN + "huber_loss", F.huber_loss, [x * 3, t])
    call("huber_loss_delta", FN + "huber_loss", F.huber_loss, [x * 3, t],
         {"delta": 0.5, "reduction": "none"})
    call("huber_loss_sum", FN + "huber_loss", F.huber_loss, [x, t, "sum", 2.0])
    call("huber_loss_delta_err", FN + "huber_loss", F.huber_loss, [x, t], {"delta": -1.0})
    call("softsign", FN + "softsign", F.softsign, [x])
    call("softsign_int", FN + "softsign", F.softsign, [torch.arange(-3, 3)])
    call("tanhshrink", FN + "tanhshrink", F.tanhshrink, [xd])
    call("pairwise_distance", FN + "pairwise_distance", F.pairwise_distance, [a, b])
    call("pairwise_distance_p1_keep", "torch.pairwise_distance", torch.pairwise_distance,
         [a, b], {"p": 1.0, "keepdim": True})
    call("pairwise_distance_1d", FN + "pairwise_distance", F.pairwise_distance,
         [rnd(3, seed=82), rnd(3, seed=83)])
    KL = FN + "kl_div"
    q = torch.log_softmax(rnd(3, 4, seed=73), 1)
    pt = torch.softmax(rnd(3, 4, seed=74), 1)
    call("kl_div", KL, F.kl_div, [q, pt])
    call("kl_div_batchmean", KL, F.kl_div, [q, pt], {"reduction": "batchmean"})
    call("kl_div_sum", KL, F.kl_div, [q, pt], {"reduction": "sum"})
    call("kl_div_none_zero", KL, F.kl_div, [q, torch.tensor([[0., 0.5, 0.5, 0.]] * 3)],
         {"reduction": "none"})
    call("kl_div_log_target", KL, F.kl_div, [q, torch.log(pt)],
         {"reduction": "batchmean", "log_target": True})


def state_cases():
    """Normalisations in training mode update their running statistics in place: the driver
    only sees the output, so test-nn.c checks the buffers against these."""
    out = []
    for name, fn, shape, momentum, affine in [
            ("batch_norm_3d", "batch_norm", (4, 3, 5), 0.2, True),
            ("batch_norm_4d", "batch_norm", (2, 3, 2, 3), 0.1, False),
            ("batch_norm_2d", "batch_norm", (6, 3), 0.5, True),
            ("instance_norm_3d", "instance_norm", (2, 3, 4), 0.3, True),
            ("instance_norm_4d", "instance_norm", (3, 3, 2, 2), 0.1, False)]:
        x = rnd(*shape, seed=40)
        rm = rnd(3, seed=41)
        rv = pos(3, seed=42)
        w = rnd(3, seed=43) if affine else None
        b = rnd(3, seed=44) if affine else None
        case = {"name": name, "op": fn, "input": E(x), "running_mean": E(rm),
                "running_var": E(rv), "weight": E(w), "bias": E(b), "momentum": momentum,
                "eps": 1e-5}
        rm2, rv2 = rm.clone(), rv.clone()
        if fn == "batch_norm":
            y = F.batch_norm(x, rm2, rv2, w, b, training=True, momentum=momentum)
        else:
            y = F.instance_norm(x, rm2, rv2, w, b, use_input_stats=True, momentum=momentum)
        case.update({"out": E(y), "running_mean_after": E(rm2), "running_var_after": E(rv2)})
        out.append(case)
    return out


def main():
    with open(os.path.join(HERE, "goldens", "nn_state.json"), "w") as f:
        json.dump({"torch_version": torch.__version__, "cases": state_cases()}, f,
                  separators=(",", ":"))
        f.write("\n")
    c = Cases()
    norm_cases(c)
    dropout_cases(c)
    embedding_cases(c)
    interp_cases(c)
    pad_cases(c)
    shuffle_cases(c)
    more_cases(c)
    c.write(os.path.join(HERE, "goldens", "ops", "nn.json"))
    print(f"nn.json: {len(c.cases)} cases")


if __name__ == "__main__":
    main()
