/* conv.h: convolutions (conv1d/conv2d, transposed too) by im2col + gemm or Winograd, and
 * pooling (max, average, adaptive; 1-d and 2-d), with PyTorch 1.13's shape rules and
 * messages. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"

G_BEGIN_DECLS

/* Convolution parameters as the caller gave them: each list holds 1 value (used for every
 * spatial dim) or one per spatial dim; other lengths are errors reported like PyTorch's. */
#define FX_CONV_MAX_PARAMS 8

typedef struct {
  int n_stride, n_padding, n_dilation, n_output_padding;
  int64_t stride[FX_CONV_MAX_PARAMS];
  int64_t padding[FX_CONV_MAX_PARAMS];
  int64_t dilation[FX_CONV_MAX_PARAMS];
  int64_t output_padding[FX_CONV_MAX_PARAMS];   /* transposed only */
  const char *padding_mode;   /* NULL: use padding[]; "same", "valid" (others are errors) */
  int64_t groups;
} FxConvParams;

/* stride 1, padding 0, dilation 1, output_padding 0, groups 1. */
void      fx_conv_params_init (FxConvParams *params);

/* input [N, C, L] or unbatched [C, L]; weight [O, C/groups, k]; bias [O] or NULL. */
FxTensor *fx_tensor_conv1d (FxTensor *input, FxTensor *weight, FxTensor *bias,
                            const FxConvParams *params, GError **error);
/* input [N, C, H, W] or [C, H, W]; weight [O, C/groups, kh, kw]. */
FxTensor *fx_tensor_conv2d (FxTensor *input, FxTensor *weight, FxTensor *bias,
                            const FxConvParams *params, GError **error);
/* What conv2d_fused does to each output element of channel o after the convolution:
 * v * scale_shift[2o] + scale_shift[2o + 1] (an eval-mode BatchNorm, coefficients from
 * fx_batch_norm_eval_coeffs()), then + the residual's element at the same place when there
 * is one, then max(v, 0) when relu — in float32, the same operations as batch_norm's, add's
 * and relu's own kernels, so the result equals conv2d → batch_norm (→ add) (→ relu) bit for
 * bit, without more passes over the output. */
typedef struct {
  const float *scale_shift;   /* 2 × output channels */
  /* NULL, or a float32 tensor of the output's shape, contiguous or with planes padded
   * (fx_conv_plane_stride): conv2d_fused refuses any other before it computes anything */
  const FxTensor *residual;
  gboolean relu;
  /* The output may have its planes padded to whole cache lines (strides [C·P, P, W, 1] with P
   * = H·W rounded up to 16) when H·W is not a multiple of 16, so that the next convolutions'
   * rows of columns start on a line. For a caller whose every reader of the output takes such
   * a layout as it is (conv2d_fused as input or residual) or copes with any strides. */
  gboolean pad_planes;
} FxConvEpilogue;

/* The epilogue on `width` consecutive outputs of output channel `channel`, in place (res: the
 * residual's elements at the same places, or NULL when ep has none). Kernels call it on each
 * tile they write. */
void      fx_conv_epilogue_row (const FxConvEpilogue *ep, int64_t channel, float *row,
                                const float *res, int64_t width);
/* The residual's element at the place of `at` in the output that starts at `out`, or NULL
 * when ep has no residual. */
const float *fx_conv_epilogue_residual_at (const FxConvEpilogue *ep, const float *out,
                                           const float *at);

/* P when t is 4-d with its channels' planes P floats apart and each plane's rows contiguous
 * (strides [C·P, P, W, 1], P ≥ H·W; a contiguous tensor gives H·W), else 0. */
int64_t   fx_conv_plane_stride (const FxTensor *t);

/* conv2d with the epilogue applied to each output tile while it is in cache (batched
 * float32 input; otherwise as a separate pass, and an error when the output is not float32).
 * ep NULL: plain conv2d. */
FxTensor *fx_tensor_conv2d_fused (FxTensor *input, FxTensor *weight, FxTensor *bias,
                                  const FxConvParams *params, const FxConvEpilogue *ep,
                                  GError **error);
typedef struct _FxPoolParams FxPoolParams;   /* below, with the pooling functions */
/* max_pool2d (conv2d_fused (input, weight, bias, params, ep), pool) (ep without a residual
 * for the fast path), bit for bit: a stride-2 convolution of few input channels (ResNet's
 * stem) under a 3×3 stride-2 pool of padding 1 pools each band of output rows while it is in
 * cache instead of writing them all and reading them back. */
FxTensor *fx_tensor_conv2d_fused_max_pool (FxTensor *input, FxTensor *weight, FxTensor *bias,
                                           const FxConvParams *params,
                                           const FxConvEpilogue *ep, const FxPoolParams *pool,
                                           GError **error);
/* conv2d_fused (b_input, b_weight, b_bias, b_params, b_ep with residual = conv2d_fused
 * (a_input, a_weight, a_bias, a_params, a_ep)), bit for bit (the eps without residuals of
 * their own): for two 1×1 stride-1 convolutions of one image into one output (ResNet's conv3
 * and its downsample), tile by tile, the first's tile added from the core's cache instead of
 * the whole first output written and read back; otherwise the two one after the other. */
FxTensor *fx_tensor_conv2d_fused_pair (FxTensor *a_input, FxTensor *a_weight, FxTensor *a_bias,
                                       const FxConvParams *a_params,
                                       const FxConvEpilogue *a_ep, FxTensor *b_input,
                                       FxTensor *b_weight, FxTensor *b_bias,
                                       const FxConvParams *b_params,
                                       const FxConvEpilogue *b_ep, GError **error);
/* weight [C, O/groups, k...]; padding_mode must be NULL. */
FxTensor *fx_tensor_conv_transpose1d (FxTensor *input, FxTensor *weight, FxTensor *bias,
                                      const FxConvParams *params, GError **error);
FxTensor *fx_tensor_conv_transpose2d (FxTensor *input, FxTensor *weight, FxTensor *bias,
                                      const FxConvParams *params, GError **error);

/* ---- pooling (pool.c) ---- */

struct _FxPoolParams {
  int n_kernel, n_stride, n_padding, n_dilation;   /* n_stride 0: stride = kernel */
  int64_t kernel[FX_CONV_MAX_PARAMS];
  int64_t stride[FX_CONV_MAX_PARAMS];
  int64_t padding[FX_CONV_MAX_PARAMS];
  int64_t dilation[FX_CONV_MAX_PARAMS];
  gboolean ceil_mode;
  gboolean count_include_pad;    /* avg only */
  gboolean has_divisor;          /* avg only: divisor_override given */
  int64_t divisor_override;
};

/* kernel as given; stride omitted, padding 0, dilation 1, count_include_pad TRUE. */
void      fx_pool_params_init (FxPoolParams *params, int n_kernel, const int64_t *kernel);

/* indices (may be NULL): receives int64 flat positions within each input plane, as
 * return_indices=True gives them. */
FxTensor *fx_tensor_max_pool1d (FxTensor *input, const FxPoolParams *params,
                                FxTensor **indices, GError **error);
FxTensor *fx_tensor_max_pool2d (FxTensor *input, const FxPoolParams *params,
                                FxTensor **indices, GError **error);
FxTensor *fx_tensor_avg_pool1d (FxTensor *input, const FxPoolParams *params, GError **error);
FxTensor *fx_tensor_avg_pool2d (FxTensor *input, const FxPoolParams *params, GError **error);
/* output_size: n values (F.adaptive_*'s None entries are resolved by the caller). */
FxTensor *fx_tensor_adaptive_avg_pool1d (FxTensor *input, int n, const int64_t *output_size,
                                         GError **error);
FxTensor *fx_tensor_adaptive_avg_pool2d (FxTensor *input, int n, const int64_t *output_size,
                                         GError **error);
FxTensor *fx_tensor_adaptive_max_pool1d (FxTensor *input, int n, const int64_t *output_size,
                                         FxTensor **indices, GError **error);
FxTensor *fx_tensor_adaptive_max_pool2d (FxTensor *input, int n, const int64_t *output_size,
                                         FxTensor **indices, GError **error);

G_END_DECLS
