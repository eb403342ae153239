/* shape.h: joining, splitting, reordering and gathering tensors (cat, stack, split, flatten,
 * repeat, flip, roll, gather, index_select, masked_fill, ...) with PyTorch 1.13's semantics. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"

G_BEGIN_DECLS

/* ---- joining ---- */
/* torch.cat: dtypes promote across inputs; 1-d empty tensors (shape [0]) are skipped. */
FxTensor  *fx_tensor_cat          (FxTensor *const *tensors, int n, int64_t dim, GError **error);
FxTensor  *fx_tensor_stack        (FxTensor *const *tensors, int n, int64_t dim, GError **error);
FxTensor  *fx_tensor_hstack       (FxTensor *const *tensors, int n, GError **error);
FxTensor  *fx_tensor_vstack       (FxTensor *const *tensors, int n, GError **error);

/* ---- splitting: the parts are views of t, returned in a GPtrArray that owns them ---- */
GPtrArray *fx_tensor_split        (FxTensor *t, int64_t split_size, int64_t dim, GError **error);
GPtrArray *fx_tensor_split_with_sizes (FxTensor *t, int n, const int64_t *sizes, int64_t dim,
                                       GError **error);
GPtrArray *fx_tensor_chunk        (FxTensor *t, int64_t chunks, int64_t dim, GError **error);
GPtrArray *fx_tensor_unbind       (FxTensor *t, int64_t dim, GError **error);

/* ---- reshaping (views when the strides allow, like reshape) ---- */
FxTensor  *fx_tensor_flatten      (FxTensor *t, int64_t start_dim, int64_t end_dim,
                                   GError **error);
FxTensor  *fx_tensor_unflatten    (FxTensor *t, int64_t dim, int n, const int64_t *sizes,
                                   GError **error);
FxTensor  *fx_tensor_expand_as    (FxTensor *t, const FxTensor *other, GError **error);
FxTensor  *fx_tensor_view_as      (FxTensor *t, const FxTensor *other, GError **error);
FxTensor  *fx_tensor_reshape_as   (FxTensor *t, const FxTensor *other, GError **error);
FxTensor  *fx_tensor_movedim      (FxTensor *t, int n_source, const int64_t *source,
                                   int n_destination, const int64_t *destination,
                                   GError **error);
/* Tensor.view(dtype): reinterprets the bytes; only between dtypes of the same size. */
FxTensor  *fx_tensor_view_dtype   (FxTensor *t, FxDType dtype, GError **error);
/* A view without requires_grad. */
FxTensor  *fx_tensor_detach       (FxTensor *t);

/* ---- copies ---- */
FxTensor  *fx_tensor_repeat       (FxTensor *t, int n, const int64_t *repeats, GError **error);
FxTensor  *fx_tensor_tile         (FxTensor *t, int n, const int64_t *reps, GError **error);
FxTensor  *fx_tensor_flip         (FxTensor *t, int n, const int64_t *dims, GError **error);
/* n_dims == 0: roll the flattened tensor (then n_shifts must be 1). */
FxTensor  *fx_tensor_roll         (FxTensor *t, int n_shifts, const int64_t *shifts, int n_dims,
                                   const int64_t *dims, GError **error);

/* ---- gathering and scattering by index ---- */
FxTensor  *fx_tensor_gather       (FxTensor *t, int64_t dim, const FxTensor *index,
                                   GError **error);
/* torch.scatter: a copy of t with src (a tensor, or a 0-d value when src_is_value) written
 * at index along dim; reduce is NULL, "add" or "multiply". */
FxTensor  *fx_tensor_scatter      (FxTensor *t, int64_t dim, const FxTensor *index,
                                   const FxTensor *src, gboolean src_is_value,
                                   const char *reduce, GError **error);
/* In place into t; same arguments. */
gboolean   fx_tensor_scatter_     (FxTensor *t, int64_t dim, const FxTensor *index,
                                   const FxTensor *src, gboolean src_is_value,
                                   const char *reduce, GError **error);
FxTensor  *fx_tensor_scatter_add  (FxTensor *t, int64_t dim, const FxTensor *index,
                                   const FxTensor *src, GError **error);
FxTensor  *fx_tensor_index_select (FxTensor *t, int64_t dim, const FxTensor *index,
                                   GError **error);
FxTensor  *fx_tensor_take         (FxTensor *t, const FxTensor *index, GError **error);

/* ---- masks ----
 * value is a 0-d tensor: a wrapped Python number (fx_tensor_wrap_*) or a 0-d tensor; it is
 * converted to t's dtype with PyTorch's overflow check. */
FxTensor  *fx_tensor_masked_fill  (FxTensor *t, const FxTensor *mask, const FxTensor *value,
                                   GError **error);
gboolean   fx_tensor_masked_fill_ (FxTensor *t, const FxTensor *mask, const FxTensor *value,
                                   GError **error);
FxTensor  *fx_tensor_masked_select (FxTensor *t, const FxTensor *mask, GError **error);
/* torch.nonzero: an int64 tensor [n, ndim] of the coordinates of the non-zero elements. */
FxTensor  *fx_tensor_nonzero      (const FxTensor *t);

/* ---- helpers shared with the indexing code ---- */
/* Writes one Python number (a 0-d tensor, see above) into *out as dtype, failing like
 * PyTorch with "value cannot be converted to type float without overflow". */
gboolean   fx_scalar_to_dtype     (const FxTensor *value, FxDType dtype, void *out,
                                   GError **error);
/* "[2, 3]" */
/* A contiguous tensor, with PyTorch's error for negative sizes; NULL + error on failure. */
FxTensor  *fx_tensor_empty_checked (FxDType dtype, int ndim, const int64_t *shape,
                                    GError **error);

G_END_DECLS
