/* creation.h: tensor factories with torch 1.13's semantics — zeros/ones/full/empty, eye,
 * arange and linspace (same lengths and the very same float values), torch.tensor(data)
 * from nested FxValue lists with dtype inference, and the *_like variants. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"
#include "tensor/random.h"
#include "ir/value.h"

G_BEGIN_DECLS

/* For the *_like functions: keep the input's dtype. */
#define FX_DTYPE_LIKE FX_DTYPE_N

/* Shapes are checked ("Trying to create tensor with negative dimension -1: [2, -1]"). */
FxTensor *fx_empty   (FxDType dtype, int ndim, const int64_t *shape, GError **error);
FxTensor *fx_zeros   (FxDType dtype, int ndim, const int64_t *shape, GError **error);
FxTensor *fx_ones    (FxDType dtype, int ndim, const int64_t *shape, GError **error);
/* torch.full: fill is a bool, int or float value (or a 1-element tensor). Without a dtype
 * it is inferred from the fill: bool → bool, int → int64, float → float32. Values that do not
 * fit the dtype are errors, as in torch ("value cannot be converted to type int8_t without
 * overflow"). */
FxTensor *fx_full    (int ndim, const int64_t *shape, const FxValue *fill, gboolean has_dtype,
                      FxDType dtype, GError **error);
/* torch.eye(n, m); m < 0 means m = n (but an explicit negative m is the caller's error). */
FxTensor *fx_eye     (int64_t n, int64_t m, FxDType dtype, GError **error);
/* torch.arange(start, end, step): numbers (FX_VALUE_BOOL/INT/FLOAT). Without a dtype the
 * result is int64 when all three are integers, else float32. */
FxTensor *fx_arange  (const FxValue *start, const FxValue *end, const FxValue *step,
                      gboolean has_dtype, FxDType dtype, GError **error);
FxTensor *fx_linspace (double start, double end, int64_t steps, FxDType dtype, GError **error);
/* torch.tensor(data): nested tuples/lists of bools, ints, floats and 1-element tensors, or a
 * tensor (copied). */
FxTensor *fx_tensor_from_value (const FxValue *data, gboolean has_dtype, FxDType dtype,
                                GError **error);

/* The *_like factories keep the input's shape, and its strides when it is dense
 * (memory_format=torch.preserve_format), so random fills land as in torch. */
FxTensor *fx_empty_like (FxTensor *t, FxDType dtype, GError **error);
FxTensor *fx_zeros_like (FxTensor *t, FxDType dtype, GError **error);
FxTensor *fx_ones_like  (FxTensor *t, FxDType dtype, GError **error);
FxTensor *fx_full_like  (FxTensor *t, const FxValue *fill, FxDType dtype, GError **error);
FxTensor *fx_rand_like  (FxTensor *t, FxDType dtype, FxGenerator *gen, GError **error);
FxTensor *fx_randn_like (FxTensor *t, FxDType dtype, FxGenerator *gen, GError **error);
FxTensor *fx_randint_like (FxTensor *t, int64_t low, int64_t high, FxDType dtype,
                           FxGenerator *gen, GError **error);

/* Fills every element of t (any view) with a scalar value (bool/int/float FxValue),
 * checking that it fits t's dtype like torch.full does. */
gboolean  fx_fill_value (FxTensor *t, const FxValue *fill, GError **error);

G_END_DECLS
