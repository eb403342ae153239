/* index.h: Python indexing of tensors — x[idx] and x[idx] = v — with PyTorch 1.13's rules:
 * ints, slices, None, Ellipsis and bools index "basically" and give views; index tensors,
 * bool masks and lists of ints index "advancedly" and give copies. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"
#include "ir/value.h"

G_BEGIN_DECLS

/* x[index]: index is an int, slice, None, Ellipsis, bool, tensor, list, or a tuple of those. */
FxTensor *fx_tensor_index       (FxTensor *t, const FxValue *index, GError **error);
/* x[index] = value, writing into t's storage (through t when t is a view); value is a
 * tensor or a Python number (bool, int, float). */
gboolean  fx_tensor_index_put   (FxTensor *t, const FxValue *index, const FxValue *value,
                                 GError **error);

/* torch.Tensor.index / index_put_ with one optional index tensor per leading dim (NULL for
 * a full slice); long tensors index, bool and uint8 tensors are masks. */
FxTensor *fx_tensor_index_tensors     (FxTensor *t, FxTensor *const *indices, int n,
                                       GError **error);
gboolean  fx_tensor_index_put_tensors (FxTensor *t, FxTensor *const *indices, int n,
                                       const FxTensor *value, gboolean accumulate,
                                       GError **error);

G_END_DECLS
