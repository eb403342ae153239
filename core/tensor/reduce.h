/* reduce.h: reductions (sum, mean, max, var, norm, ...), scans (cumsum, cumprod), sort/topk
 * and softmax, with PyTorch 1.13's dtype rules, error messages and tie-breaking of indices. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include "tensor/tensor.h"

G_BEGIN_DECLS

/* Conventions of this module:
 *  - dims/n_dims: the dims to reduce, may be negative; n_dims == 0 (or dims == NULL) means
 *    every dim, as PyTorch reads both dim=None and dim=() for these ops. Duplicates are an
 *    error ("dim 0 appears multiple times in the list of dims").
 *  - dtype: the optional `dtype=` argument; FX_DTYPE_N stands for None.
 *  - Functions returning two tensors (values, indices) store new references in *values and
 *    *indices and return TRUE, or return FALSE with error set. */

/* sum / nansum: bool and integer inputs sum to int64 unless dtype is given. */
FxTensor *fx_tensor_sum        (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                                FxDType dtype, GError **error);
FxTensor *fx_tensor_nansum     (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                                FxDType dtype, GError **error);
/* mean: the input (or dtype) must be floating. */
FxTensor *fx_tensor_mean       (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                                FxDType dtype, GError **error);
/* prod(input) when has_dim is FALSE, prod(input, dim, keepdim) otherwise. */
FxTensor *fx_tensor_prod       (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                                FxDType dtype, GError **error);

/* torch.max(input) / torch.min(input): NaN propagates; an empty input is an error. */
FxTensor *fx_tensor_max_all    (FxTensor *t, GError **error);
FxTensor *fx_tensor_min_all    (FxTensor *t, GError **error);
/* torch.max(input, dim, keepdim): the first occurrence of the maximum (or of a NaN). */
gboolean  fx_tensor_max_dim    (FxTensor *t, int64_t dim, gboolean keepdim, FxTensor **values,
                                FxTensor **indices, GError **error);
gboolean  fx_tensor_min_dim    (FxTensor *t, int64_t dim, gboolean keepdim, FxTensor **values,
                                FxTensor **indices, GError **error);
FxTensor *fx_tensor_amax       (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                                GError **error);
FxTensor *fx_tensor_amin       (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                                GError **error);
/* argmax(input, dim=None, keepdim=False): with !has_dim, the index into the flattened input. */
FxTensor *fx_tensor_argmax     (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                                GError **error);
FxTensor *fx_tensor_argmin     (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                                GError **error);
/* aminmax(input, *, dim=None, keepdim=False) */
gboolean  fx_tensor_aminmax    (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                                FxTensor **min, FxTensor **max, GError **error);

/* var / std divide by max(0, N - correction); unbiased=True is correction 1. */
FxTensor *fx_tensor_var        (FxTensor *t, const int64_t *dims, int n_dims, double correction,
                                gboolean keepdim, GError **error);
FxTensor *fx_tensor_std        (FxTensor *t, const int64_t *dims, int n_dims, double correction,
                                gboolean keepdim, GError **error);
/* var_mean / std_mean: *first is var (or std), *second the mean. */
gboolean  fx_tensor_var_mean   (FxTensor *t, const int64_t *dims, int n_dims, double correction,
                                gboolean keepdim, gboolean take_sqrt, FxTensor **first,
                                FxTensor **second, GError **error);

/* The vector p-norm over dims: p may be any real, INFINITY, -INFINITY or 0 (count of
 * non-zeros). An empty reduction gives 0 for every p, as PyTorch's norm does. */
FxTensor *fx_tensor_norm       (FxTensor *t, double p, const int64_t *dims, int n_dims,
                                gboolean keepdim, FxDType dtype, GError **error);
/* torch.norm's p='fro': the 2-norm over at most two distinct dims (all when n_dims == 0). */
FxTensor *fx_tensor_frobenius_norm (FxTensor *t, const int64_t *dims, int n_dims,
                                    gboolean keepdim, GError **error);

/* any / all: uint8 inputs give uint8, every other dtype bool. */
FxTensor *fx_tensor_any        (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                                GError **error);
FxTensor *fx_tensor_all        (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                                GError **error);
/* count_nonzero(input, dim=None): int64 */
FxTensor *fx_tensor_count_nonzero (FxTensor *t, const int64_t *dims, int n_dims,
                                   GError **error);
/* logsumexp(input, dim, keepdim): dims is required (PyTorch's dim=() is an error unless
 * keepdim or a 0-d input). Integer inputs compute in the default float dtype. */
FxTensor *fx_tensor_logsumexp  (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                                GError **error);

/* sort / argsort / topk along one dim; the index order of equal values is PyTorch's (its
 * CPU kernels' selection and sorting sequence is reproduced, so ties come out alike). */
gboolean  fx_tensor_sort       (FxTensor *t, int64_t dim, gboolean descending, gboolean stable,
                                FxTensor **values, FxTensor **indices, GError **error);
FxTensor *fx_tensor_argsort    (FxTensor *t, int64_t dim, gboolean descending, gboolean stable,
                                GError **error);
gboolean  fx_tensor_topk       (FxTensor *t, int64_t k, int64_t dim, gboolean largest,
                                gboolean sorted, FxTensor **values, FxTensor **indices,
                                GError **error);

/* Scans along dim: bool and integer inputs give int64 unless dtype is given. */
FxTensor *fx_tensor_cumsum     (FxTensor *t, int64_t dim, FxDType dtype, GError **error);
FxTensor *fx_tensor_cumprod    (FxTensor *t, int64_t dim, FxDType dtype, GError **error);

/* softmax / log_softmax along dim (float32/float64 only; dtype converts the input first). */
FxTensor *fx_tensor_softmax     (FxTensor *t, int64_t dim, FxDType dtype, GError **error);
FxTensor *fx_tensor_log_softmax (FxTensor *t, int64_t dim, FxDType dtype, GError **error);
/* The dim F.softmax picks for dim=None (torch.nn.functional._get_softmax_dim). */
int       fx_softmax_default_dim (int ndim);

G_END_DECLS
