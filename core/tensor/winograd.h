/* winograd.h: float32 3×3 stride-1 convolutions by Winograd's minimal filtering algorithms
 * F(2×2,3×3) and F(4×4,3×3) — fewer multiplications than im2col + gemm for ResNet-style layers;
 * conv.c picks this path per layer through fx_winograd_choose(). */
#pragma once

#include <glib.h>
#include <stdint.h>
#include "tensor/conv.h"

G_BEGIN_DECLS

/* One convolution: NCHW input, OIHW 3×3 weight, groups 1, stride 1, dilation 1. */
typedef struct {
  int64_t n, c, h, w;   /* input */
  int64_t o;            /* output channels */
  int64_t ph, pw;       /* zero padding */
  int64_t oh, ow;       /* output size: h + 2 ph - 2, w + 2 pw - 2 */
  /* floats from one channel's plane to the next in the input and the output (planes padded
   * to whole cache lines: fx_conv_plane_stride); 0: h·w and oh·ow */
  int64_t in_plane, out_plane;
} FxWinogradShape;

/* The output tile size worth using for this shape (2 or 4), or 0 when im2col + gemm is
 * expected to be faster: a cost model of the gemm, transform and memory work. It depends on
 * the shape only, so a layer always takes the same path (conv2d_fused's bit-for-bit
 * promise rests on that). */
int   fx_winograd_choose (const FxWinogradShape *s);

/* out[n][o][oh][ow] (contiguous, written whole) = conv(in, weight) + bias (may be NULL), then
 * the epilogue (may be NULL) as conv2d_fused applies it. m: 2 or 4. Weights are transformed
 * at each call, a cache-sized block of output channels at a time (no transform of the
 * whole layer is written to memory, and nothing is kept between calls). */
void  fx_winograd_conv2d (const FxWinogradShape *s, int m, const float *in, const float *weight,
                          const float *bias, float *out, const FxConvEpilogue *ep);

/* Benchmarks and tests: m < 0 restores the cost model, 0 forces im2col + gemm, 2 or 4 force
 * that tile size for every eligible convolution. Process-wide; not for concurrent use.
 * FX_CONV_WINOGRAD=0|2|4 in the environment does the same for a whole run. */
void  fx_winograd_force (int m);
/* Tests: 0 runs the products through fx_sgemm_stream even on AVX-512 (the path of machines
 * without it), < 0 restores the channels in the lanes. Process-wide, as above. */
void  fx_winograd_force_lanes (int on);

G_END_DECLS
