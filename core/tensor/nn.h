/* nn.h: the neural-network kernels behind torch.nn.functional that are not convolutions,
 * pooling or activations — normalisations, dropout, embedding, interpolation, padding and
 * channel rearrangements — with torch 1.13's shapes, checks and error messages. */
#pragma once

#include <glib.h>
#include "tensor/tensor.h"
#include "tensor/random.h"

G_BEGIN_DECLS

/* F.batch_norm over dim 1 of (N, C, *). running_mean/var, weight and bias may be NULL.
 * training: normalise with the batch statistics and, when given, update the running stats in
 * place: running = (1 - momentum) * running + momentum * batch (unbiased variance). */
FxTensor *fx_batch_norm    (FxTensor *input, FxTensor *running_mean, FxTensor *running_var,
                            FxTensor *weight, FxTensor *bias, gboolean training,
                            double momentum, double eps, GError **error);
/* Eval-mode batch_norm as float32 (scale, shift) pairs, channel after channel: what
 * fx_batch_norm applies to float32 data, for fx_tensor_conv2d_fused(). Parameters may be
 * NULL; each non-NULL one has `channels` elements. g_free. */
float    *fx_batch_norm_eval_coeffs (FxTensor *running_mean, FxTensor *running_var,
                                     FxTensor *weight, FxTensor *bias, double eps,
                                     int64_t channels);
/* F.layer_norm over the trailing dims given by normalized_shape. */
FxTensor *fx_layer_norm    (FxTensor *input, int n_norm, const int64_t *normalized_shape,
                            FxTensor *weight, FxTensor *bias, double eps, GError **error);
FxTensor *fx_group_norm    (FxTensor *input, int64_t num_groups, FxTensor *weight,
                            FxTensor *bias, double eps, GError **error);
/* F.instance_norm: per (sample, channel) statistics; running stats as batch_norm's, averaged
 * over the batch. */
FxTensor *fx_instance_norm (FxTensor *input, FxTensor *running_mean, FxTensor *running_var,
                            FxTensor *weight, FxTensor *bias, gboolean use_input_stats,
                            double momentum, double eps, GError **error);

/* F.dropout: in training, zero each element with probability p (Bernoulli draws from the
 * generator, in torch's order) and scale the rest by 1 / (1 - p). Out of training, or with
 * p == 0 or no elements, returns a new reference to input itself (as torch does). inplace
 * writes into input and returns a reference to it. */
FxTensor *fx_dropout       (FxTensor *input, double p, gboolean training, gboolean inplace,
                            FxGenerator *gen, GError **error);
/* Feature (channel) dropout: one draw per (N, C) pair, broadcast over the remaining dims.
 * F.dropout1d/2d/3d call it after their own input checks. */
FxTensor *fx_feature_dropout (FxTensor *input, double p, gboolean training, gboolean inplace,
                              FxGenerator *gen, GError **error);

/* F.embedding: rows of weight (V, D) picked by integer indices; output indices.shape + (D,). */
FxTensor *fx_embedding     (FxTensor *indices, FxTensor *weight, GError **error);

typedef enum {
  FX_INTERP_NEAREST,
  FX_INTERP_NEAREST_EXACT,
  FX_INTERP_LINEAR,          /* linear / bilinear / trilinear by the number of spatial dims */
  FX_INTERP_AREA,            /* adaptive average pooling to out_size (mode='area') */
} FxInterpMode;

/* The upsample kernels (upsample_nearest{1,2,3}d, upsample_{linear1d,bilinear2d,trilinear3d}):
 * input (N, C, d1..dk), k = 1..3; out_size has k sizes; scales (k values, or NULL) are the
 * scale factors the caller passed on, used for the source coordinates as torch does. */
FxTensor *fx_upsample      (FxTensor *input, FxInterpMode mode, const int64_t *out_size,
                            const double *scales, gboolean align_corners, GError **error);

typedef enum {
  FX_PAD_CONSTANT,
  FX_PAD_REFLECT,
  FX_PAD_REPLICATE,
  FX_PAD_CIRCULAR,
} FxPadMode;

/* F.pad: pad holds (left, right) pairs starting from the last dimension. */
FxTensor *fx_pad           (FxTensor *input, int n_pad, const int64_t *pad, FxPadMode mode,
                            double value, GError **error);

FxTensor *fx_pixel_shuffle   (FxTensor *input, int64_t upscale_factor, GError **error);
FxTensor *fx_pixel_unshuffle (FxTensor *input, int64_t downscale_factor, GError **error);
FxTensor *fx_channel_shuffle (FxTensor *input, int64_t groups, GError **error);
/* F.one_hot: int64 indices → int64 (*, num_classes); num_classes -1 infers max + 1. */
FxTensor *fx_one_hot         (FxTensor *input, int64_t num_classes, GError **error);

G_END_DECLS
