/* linalg.h: matrix products with PyTorch 1.13's semantics — matmul and its broadcasting
 * cases, mm, bmm, mv, dot, addmm, baddbmm, linear. float32/float64 run on BLAS (blas.h),
 * integer types on plain loops; errors carry PyTorch's messages. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"

G_BEGIN_DECLS

/* torch.matmul: 1-D·1-D dot, 2-D·1-D mv, 1-D·2-D, 2-D·2-D mm, N-D with a 1-D/2-D operand
 * folded into one mm/mv, and N-D·N-D as a batched product with broadcast batch dims. */
FxTensor *fx_tensor_matmul  (FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_mm      (FxTensor *self, FxTensor *mat2, GError **error);
FxTensor *fx_tensor_bmm     (FxTensor *self, FxTensor *mat2, GError **error);
FxTensor *fx_tensor_mv      (FxTensor *self, FxTensor *vec, GError **error);
FxTensor *fx_tensor_dot     (FxTensor *self, FxTensor *other, GError **error);
/* beta * self + alpha * (mat1 @ mat2); self broadcasts to the product's shape. For integer
 * tensors beta and alpha are truncated to integers, as PyTorch does. beta == 0 ignores self's
 * values (NaN in self does not propagate). */
FxTensor *fx_tensor_addmm   (FxTensor *self, FxTensor *mat1, FxTensor *mat2, double beta,
                             double alpha, GError **error);
FxTensor *fx_tensor_baddbmm (FxTensor *self, FxTensor *batch1, FxTensor *batch2, double beta,
                             double alpha, GError **error);
/* F.linear: input @ weight.T + bias; weight [out, in] (or [in]), bias optional (NULL). */
FxTensor *fx_tensor_linear  (FxTensor *input, FxTensor *weight, FxTensor *bias,
                             GError **error);

G_END_DECLS
