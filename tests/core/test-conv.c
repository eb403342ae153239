/* test-conv.c: convolutions and pools against direct double-precision definitions, over
 * strides, paddings, dilations, groups (depthwise too), 1×1 kernels, transposes, batches,
 * non-contiguous inputs and sizes big enough for the multi-threaded loops. */
#include <fx.h>
#include <math.h>
#include <string.h>

static void
set_flat (FxTensor *t, int64_t i, double v)   /* t contiguous */
{
  char *p = (char *) fx_tensor_data (t) + i * (int64_t) fx_tensor_element_size (t);
  switch (t->dtype)
    {
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = v; break;
    case FX_DTYPE_INT64:   *(int64_t *) p = (int64_t) v; break;
    default: g_assert_not_reached ();
    }
}

static FxTensor *
rand_tensor (FxDType dtype, int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_new_uninit (dtype, ndim, shape);
  for (int64_t i = 0; i < fx_tensor_numel (t); i++)
    set_flat (t, i, fx_dtype_is_floating (dtype) ? g_test_rand_double_range (-1, 1)
                                                 : (double) g_test_rand_int_range (-3, 4));
  return t;
}

static double
at4 (const FxTensor *t, int64_t a, int64_t b, int64_t c, int64_t d)
{
  return fx_tensor_get_double (t, ((a * t->shape[1] + b) * t->shape[2] + c) * t->shape[3] + d);
}

static void
assert_close (const FxTensor *got, const double *want, int64_t n, double tol)
{
  g_assert_cmpint (fx_tensor_numel (got), ==, n);
  for (int64_t i = 0; i < n; i++)
    {
      double v = fx_tensor_get_double (got, i);
      if (!(fabs (v - want[i]) <= tol * (1 + fabs (want[i]))) && !(isnan (v) && isnan (want[i])))
        g_error ("element %" G_GINT64_FORMAT ": got %.9g, want %.9g", i, v, want[i]);
    }
}

typedef struct {
  int64_t n, c, h, w, o, kh, kw, sh, sw, ph, pw, dh, dw, groups, oph, opw;
} Cfg;

/* out[n][o][y][x] = bias[o] + sum in[n][g*cg + ci][y*sh - ph + ki*dh][x*sw - pw + kj*dw] * w */
static double *
conv_ref (const Cfg *k, FxTensor *x, FxTensor *w, FxTensor *b, int64_t *oh, int64_t *ow)
{
  *oh = (k->h + 2 * k->ph - k->dh * (k->kh - 1) - 1) / k->sh + 1;
  *ow = (k->w + 2 * k->pw - k->dw * (k->kw - 1) - 1) / k->sw + 1;
  int64_t cg = k->c / k->groups, og = k->o / k->groups;
  double *out = g_new0 (double, k->n * k->o * *oh * *ow);
  for (int64_t n = 0; n < k->n; n++)
    for (int64_t o = 0; o < k->o; o++)
      for (int64_t y = 0; y < *oh; y++)
        for (int64_t xx = 0; xx < *ow; xx++)
          {
            double acc = b ? fx_tensor_get_double (b, o) : 0;
            int64_t g = o / og;
            for (int64_t ci = 0; ci < cg; ci++)
              for (int64_t ki = 0; ki < k->kh; ki++)
                for (int64_t kj = 0; kj < k->kw; kj++)
                  {
                    int64_t iy = y * k->sh - k->ph + ki * k->dh, ix = xx * k->sw - k->pw + kj * k->dw;
                    if (iy < 0 || iy >= k->h || ix < 0 || ix >= k->w)
                      continue;
                    acc += at4 (x, n, g * cg + ci, iy, ix) * at4 (w, o, ci, ki, kj);
                  }
            out[((n * k->o + o) * *oh + y) * *ow + xx] = acc;
          }
  return out;
}

/* out[n][g*og + oi][iy*sh - ph + ki*dh][ix*sw - pw + kj*dw] += in[n][c][iy][ix] * w[c][oi][ki][kj] */
static double *
conv_transpose_ref (const Cfg *k, FxTensor *x, FxTensor *w, FxTensor *b, int64_t *oh, int64_t *ow)
{
  *oh = (k->h - 1) * k->sh - 2 * k->ph + k->dh * (k->kh - 1) + k->oph + 1;
  *ow = (k->w - 1) * k->sw - 2 * k->pw + k->dw * (k->kw - 1) + k->opw + 1;
  int64_t cg = k->c / k->groups, og = k->o / k->groups;
  double *out = g_new0 (double, k->n * k->o * *oh * *ow);
  for (int64_t n = 0; n < k->n; n++)
    for (int64_t o = 0; o < k->o; o++)
      for (int64_t i = 0; i < *oh * *ow; i++)
        out[(n * k->o + o) * *oh * *ow + i] = b ? fx_tensor_get_double (b, o) : 0;
  for (int64_t n = 0; n < k->n; n++)
    for (int64_t c = 0; c < k->c; c++)
      for (int64_t iy = 0; iy < k->h; iy++)
        for (int64_t ix = 0; ix < k->w; ix++)
          {
            double v = at4 (x, n, c, iy, ix);
            int64_t g = c / cg;
            for (int64_t oi = 0; oi < og; oi++)
              for (int64_t ki = 0; ki < k->kh; ki++)
                for (int64_t kj = 0; kj < k->kw; kj++)
                  {
                    int64_t y = iy * k->sh - k->ph + ki * k->dh, xx = ix * k->sw - k->pw + kj * k->dw;
                    if (y < 0 || y >= *oh || xx < 0 || xx >= *ow)
                      continue;
                    out[((n * k->o + g * og + oi) * *oh + y) * *ow + xx] += v * at4 (w, c, oi, ki, kj);
                  }
          }
  return out;
}

static void
params_from (const Cfg *k, FxConvParams *p)
{
  fx_conv_params_init (p);
  p->n_stride = p->n_padding = p->n_dilation = p->n_output_padding = 2;
  p->stride[0] = k->sh, p->stride[1] = k->sw;
  p->padding[0] = k->ph, p->padding[1] = k->pw;
  p->dilation[0] = k->dh, p->dilation[1] = k->dw;
  p->output_padding[0] = k->oph, p->output_padding[1] = k->opw;
  p->groups = k->groups;
}

static const Cfg conv_cfgs[] = {
  /*  n  c   h   w   o kh kw sh sw ph pw dh dw  g */
  { 2, 3, 7, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1 },
  { 1, 4, 9, 9, 6, 3, 3, 2, 2, 1, 1, 1, 1, 2 },
  { 1, 6, 8, 8, 6, 3, 3, 1, 1, 1, 1, 1, 1, 6 },     /* depthwise */
  { 2, 4, 9, 7, 8, 3, 2, 2, 1, 1, 0, 1, 1, 4 },     /* depthwise, multiplier 2 */
  { 1, 3, 10, 10, 3, 3, 3, 1, 2, 2, 2, 2, 2, 3 },   /* depthwise dilated */
  { 1, 5, 6, 6, 7, 1, 1, 1, 1, 0, 0, 1, 1, 1 },     /* 1×1: a gemm on the input */
  { 1, 5, 7, 7, 3, 1, 1, 2, 2, 0, 0, 1, 1, 1 },     /* 1×1 strided */
  { 1, 2, 9, 11, 3, 4, 2, 3, 2, 2, 1, 2, 3, 1 },
  { 1, 3, 224, 224, 8, 7, 7, 2, 2, 3, 3, 1, 1, 1 }, /* ResNet's first layer: threaded im2col */
  { 1, 32, 28, 28, 32, 3, 3, 1, 1, 1, 1, 1, 1, 32 },/* threaded depthwise */
  { 1, 96, 7, 7, 160, 3, 3, 1, 1, 1, 1, 1, 1, 1 },  /* slices of output channels */
  { 2, 16, 30, 30, 32, 3, 3, 1, 1, 1, 1, 1, 1, 2 }, /* tiles, images and groups as tasks */
  /* the unpacked product (fx_sgemm_stream) behind strided layers: several k panels, 6- and
   * 8-row tiles, a last partial 64-column panel, odd sizes, padding 0 and 2 */
  { 1, 64, 15, 13, 40, 3, 3, 2, 2, 1, 1, 1, 1, 1 },
  { 1, 48, 29, 31, 20, 3, 3, 2, 2, 0, 2, 1, 1, 1 },
  { 2, 70, 13, 13, 33, 1, 1, 2, 2, 0, 0, 1, 1, 1 },
  /* stride-2 columns gathered with AVX-512 (masked vectors): a dilated 5-wide kernel with
   * more padding than stride, rows of over 128 outputs (masks made per vector), a kernel
   * wider than the image, stride 2 across only, and rows split between tiles */
  { 1, 3, 11, 37, 5, 3, 5, 1, 2, 1, 3, 1, 2, 1 },
  { 1, 2, 5, 300, 3, 1, 3, 2, 2, 0, 1, 1, 1, 1 },
  { 1, 2, 4, 3, 2, 3, 7, 2, 2, 1, 3, 1, 1, 1 },
  { 1, 24, 65, 45, 130, 3, 3, 2, 2, 1, 1, 1, 1, 1 },
  /* two threads on one strided product of few positions, each summing half the input
   * channels (an odd count: halves of 6 and 7), then both sums added */
  { 1, 13, 14, 14, 130, 3, 3, 2, 2, 1, 1, 1, 1, 1 },
  /* stride 2 over few input channels, from the input's phases (conv.c's stem path): batch 2
   * with bias, 23 outputs a row, 13 channels; 75 a row (a second block of columns); an even
   * kernel with padding on the rows only */
  { 2, 3, 37, 45, 13, 7, 7, 2, 2, 3, 3, 1, 1, 1 },
  { 1, 4, 40, 150, 9, 5, 5, 2, 2, 2, 2, 1, 1, 1 },
  { 2, 2, 33, 34, 20, 4, 4, 2, 2, 1, 0, 1, 1, 1 },
  /* the unpacked product's last columns as dot products, in its last block of columns: 196
   * (14×14: blocks of 4 vectors, 4 dot products; tiles of 6 rows and one of 4), 100 (blocks
   * of 4 and 2 vectors, 4 dot products, two k panels); 36 (one block, 4 dot products, 8-row
   * tiles and one of 1 row, k over two panels); and 196 in halves of 112 and 84 over a k of
   * 2100 (past StreamPack's copy), several blocks with a quarter-full last vector instead */
  { 1, 600, 14, 14, 70, 1, 1, 1, 1, 0, 0, 1, 1, 1 },
  { 1, 110, 19, 19, 20, 3, 3, 2, 2, 1, 1, 1, 1, 1 },
  { 1, 1100, 6, 6, 9, 1, 1, 1, 1, 0, 0, 1, 1, 1 },
  { 1, 2100, 14, 14, 10, 1, 1, 1, 1, 0, 0, 1, 1, 1 },
  /* im2col tiles one to four columns past whole vectors (conv.c's tile_columns): 784
   * positions in 4 tiles of 196, each 12 vectors and 4 dot products */
  { 1, 128, 56, 56, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1 },
};

/* Each case on one thread and on two (tiles of output positions and slices of output
 * channels then run as tasks on libfx's threads). */
static void
test_conv2d (void)
{
  FxDType dts[] = { FX_DTYPE_FLOAT32, FX_DTYPE_FLOAT64, FX_DTYPE_INT64 };
  for (guint i = 0; i < G_N_ELEMENTS (conv_cfgs); i++)
    for (guint d = 0; d < G_N_ELEMENTS (dts); d++)
      {
        const Cfg *k = &conv_cfgs[i];
        if (dts[d] != FX_DTYPE_FLOAT32 && (k->h > 100 || k->o > 100))
          continue;   /* the big cases once is enough */
        int64_t xs[4] = { k->n, k->c, k->h, k->w }, ws[4] = { k->o, k->c / k->groups, k->kh, k->kw };
        g_autoptr (FxTensor) x = rand_tensor (dts[d], 4, xs);
        g_autoptr (FxTensor) w = rand_tensor (dts[d], 4, ws);
        g_autoptr (FxTensor) b = rand_tensor (dts[d], 1, &k->o);
        FxConvParams p;
        params_from (k, &p);
        int64_t oh, ow;
        g_autofree double *want = conv_ref (k, x, w, i % 2 ? b : NULL, &oh, &ow);
        for (int threads = 1; threads <= 2; threads++)
          {
            fx_blas_set_num_threads (threads);
            GError *error = NULL;
            g_autoptr (FxTensor) y = fx_tensor_conv2d (x, w, i % 2 ? b : NULL, &p, &error);
            g_assert_no_error (error);
            g_assert_cmpint (y->dtype, ==, dts[d]);
            g_assert_cmpint (y->shape[2], ==, oh);
            g_assert_cmpint (y->shape[3], ==, ow);
            assert_close (y, want, k->n * k->o * oh * ow,
                          dts[d] == FX_DTYPE_FLOAT32 ? 1e-4
                          : dts[d] == FX_DTYPE_FLOAT64 ? 1e-10 : 0);
          }
      }
  fx_blas_set_num_threads (0);
}

/* Channels-last input (a permuted view) and an unbatched one. */
static void
test_conv2d_layouts (void)
{
  const Cfg k = { 1, 3, 6, 5, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1 };
  int64_t nhwc[4] = { 1, 6, 5, 3 }, ws[4] = { 4, 3, 3, 3 };
  g_autoptr (FxTensor) base = rand_tensor (FX_DTYPE_FLOAT32, 4, nhwc);
  g_autoptr (FxTensor) x = fx_tensor_permute (base, 4, (int[]) { 0, 3, 1, 2 }, NULL);
  g_autoptr (FxTensor) w = rand_tensor (FX_DTYPE_FLOAT32, 4, ws);
  FxConvParams p;
  params_from (&k, &p);
  int64_t oh, ow;
  g_autofree double *want = conv_ref (&k, x, w, NULL, &oh, &ow);
  g_autoptr (FxTensor) y = fx_tensor_conv2d (x, w, NULL, &p, NULL);
  assert_close (y, want, 4 * oh * ow, 1e-4);
  g_autoptr (FxTensor) x3 = fx_tensor_squeeze_dim (x, 0, NULL);
  g_autoptr (FxTensor) y3 = fx_tensor_conv2d (x3, w, NULL, &p, NULL);
  g_assert_cmpint (y3->ndim, ==, 3);
  assert_close (y3, want, 4 * oh * ow, 1e-4);
}

/* padding='same' equals explicit padding for odd kernels; even ones pad one more at the end. */
static void
test_conv2d_same (void)
{
  int64_t xs[4] = { 1, 2, 6, 7 }, ws[4] = { 3, 2, 3, 5 }, we[4] = { 3, 2, 4, 2 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT64, 4, xs);
  g_autoptr (FxTensor) w = rand_tensor (FX_DTYPE_FLOAT64, 4, ws);
  FxConvParams same, expl;
  fx_conv_params_init (&same);
  same.padding_mode = "same";
  fx_conv_params_init (&expl);
  expl.n_padding = 2;
  expl.padding[0] = 1;
  expl.padding[1] = 2;
  g_autoptr (FxTensor) a = fx_tensor_conv2d (x, w, NULL, &same, NULL);
  g_autoptr (FxTensor) b = fx_tensor_conv2d (x, w, NULL, &expl, NULL);
  g_assert_true (fx_tensor_same_shape (a, b));
  for (int64_t i = 0; i < fx_tensor_numel (a); i++)
    g_assert_cmpfloat (fx_tensor_get_double (a, i), ==, fx_tensor_get_double (b, i));
  g_autoptr (FxTensor) w2 = rand_tensor (FX_DTYPE_FLOAT64, 4, we);
  g_autoptr (FxTensor) c = fx_tensor_conv2d (x, w2, NULL, &same, NULL);
  g_assert_cmpint (c->shape[2], ==, 6);
  g_assert_cmpint (c->shape[3], ==, 7);
  /* total padding 3 rows: 1 before, 2 after */
  const Cfg k = { 1, 2, 6, 7, 3, 4, 2, 1, 1, 1, 0, 1, 1, 1 };
  int64_t oh, ow;
  g_autofree double *want = conv_ref (&k, x, w2, NULL, &oh, &ow);   /* rows 0..4 of 5 */
  for (int64_t o = 0; o < 3; o++)
    for (int64_t y = 0; y < oh; y++)
      for (int64_t xx = 0; xx < 6; xx++)   /* the last column needs the extra right padding */
        g_assert_cmpfloat_with_epsilon (at4 (c, 0, o, y, xx), want[(o * oh + y) * ow + xx], 1e-12);
}

static void
test_conv1d (void)
{
  int64_t xs[3] = { 2, 4, 11 }, ws[3] = { 6, 2, 3 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT32, 3, xs);
  g_autoptr (FxTensor) w = rand_tensor (FX_DTYPE_FLOAT32, 3, ws);
  FxConvParams p;
  fx_conv_params_init (&p);
  p.stride[0] = 2;
  p.padding[0] = 1;
  p.dilation[0] = 2;
  p.groups = 2;
  g_autoptr (FxTensor) y = fx_tensor_conv1d (x, w, NULL, &p, NULL);
  g_assert_nonnull (y);
  /* the same as a 2-d convolution of height 1 */
  const Cfg k = { 2, 4, 1, 11, 6, 1, 3, 1, 2, 0, 1, 1, 2, 2 };
  g_autoptr (FxTensor) x4 = fx_tensor_unsqueeze (x, 2, NULL);
  g_autoptr (FxTensor) w4 = fx_tensor_unsqueeze (w, 2, NULL);
  int64_t oh, ow;
  g_autofree double *want = conv_ref (&k, x4, w4, NULL, &oh, &ow);
  g_assert_cmpint (y->shape[2], ==, ow);
  assert_close (y, want, 2 * 6 * ow, 1e-4);
}

static const Cfg transpose_cfgs[] = {
  /*  n  c  h  w  o kh kw sh sw ph pw dh dw  g oph opw */
  { 1, 3, 4, 4, 2, 3, 3, 1, 1, 0, 0, 1, 1, 1, 0, 0 },
  { 2, 3, 3, 5, 4, 3, 2, 2, 1, 1, 0, 1, 1, 1, 1, 0 },
  { 1, 4, 3, 3, 6, 3, 3, 2, 2, 1, 1, 2, 2, 2, 1, 1 },
  { 1, 4, 5, 5, 4, 2, 2, 2, 2, 0, 0, 1, 1, 4, 0, 0 },
  { 1, 16, 20, 20, 8, 4, 4, 2, 2, 1, 1, 1, 1, 1, 0, 0 },   /* threaded col2im */
};

static void
test_conv_transpose2d (void)
{
  FxDType dts[] = { FX_DTYPE_FLOAT32, FX_DTYPE_FLOAT64, FX_DTYPE_INT64 };
  for (guint i = 0; i < G_N_ELEMENTS (transpose_cfgs); i++)
    for (guint d = 0; d < G_N_ELEMENTS (dts); d++)
      {
        const Cfg *k = &transpose_cfgs[i];
        int64_t xs[4] = { k->n, k->c, k->h, k->w }, ws[4] = { k->c, k->o / k->groups, k->kh, k->kw };
        g_autoptr (FxTensor) x = rand_tensor (dts[d], 4, xs);
        g_autoptr (FxTensor) w = rand_tensor (dts[d], 4, ws);
        g_autoptr (FxTensor) b = rand_tensor (dts[d], 1, &k->o);
        FxConvParams p;
        params_from (k, &p);
        int64_t oh, ow;
        g_autofree double *want = conv_transpose_ref (k, x, w, i % 2 ? NULL : b, &oh, &ow);
        GError *error = NULL;
        g_autoptr (FxTensor) y = fx_tensor_conv_transpose2d (x, w, i % 2 ? NULL : b, &p, &error);
        g_assert_no_error (error);
        g_assert_cmpint (y->shape[1], ==, k->o);
        g_assert_cmpint (y->shape[2], ==, oh);
        g_assert_cmpint (y->shape[3], ==, ow);
        assert_close (y, want, k->n * k->o * oh * ow,
                      dts[d] == FX_DTYPE_FLOAT32 ? 1e-4 : dts[d] == FX_DTYPE_FLOAT64 ? 1e-10 : 0);
      }
}

/* ---- pools ---- */

static void
test_max_pool2d (void)
{
  int64_t xs[4] = { 2, 3, 9, 8 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT64, 4, xs);
  struct { int64_t k, s, p, d; gboolean ceil; } cfgs[] = {
    { 2, 2, 0, 1, FALSE }, { 3, 2, 1, 1, TRUE }, { 3, 1, 1, 2, FALSE }, { 2, 3, 1, 1, TRUE },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cfgs); c++)
    {
      FxPoolParams p;
      fx_pool_params_init (&p, 1, &cfgs[c].k);
      p.n_stride = 1;
      p.stride[0] = cfgs[c].s;
      p.padding[0] = cfgs[c].p;
      p.dilation[0] = cfgs[c].d;
      p.ceil_mode = cfgs[c].ceil;
      FxTensor *idx = NULL;
      g_autoptr (FxTensor) y = fx_tensor_max_pool2d (x, &p, &idx, NULL);
      g_assert_nonnull (y);
      g_autoptr (FxTensor) indices = idx;
      g_assert_cmpint (indices->dtype, ==, FX_DTYPE_INT64);
      int64_t oh = y->shape[2], ow = y->shape[3];
      for (int64_t pl = 0; pl < 6; pl++)
        for (int64_t i = 0; i < oh; i++)
          for (int64_t j = 0; j < ow; j++)
            {
              double best = -INFINITY;
              int64_t bi = -1;
              for (int64_t a = 0; a < cfgs[c].k; a++)
                for (int64_t b = 0; b < cfgs[c].k; b++)
                  {
                    int64_t r = i * cfgs[c].s - cfgs[c].p + a * cfgs[c].d;
                    int64_t q = j * cfgs[c].s - cfgs[c].p + b * cfgs[c].d;
                    if (r < 0 || r >= 9 || q < 0 || q >= 8)
                      continue;
                    double v = fx_tensor_get_double (x, pl * 72 + r * 8 + q);
                    if (v > best)
                      best = v, bi = r * 8 + q;
                  }
              int64_t o = (pl * oh + i) * ow + j;
              g_assert_cmpfloat (fx_tensor_get_double (y, o), ==, best);
              g_assert_cmpint (fx_tensor_get_int64 (indices, o), ==, bi);
            }
    }
}

static void
test_avg_pool2d (void)
{
  int64_t xs[4] = { 1, 2, 7, 6 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT64, 4, xs);
  for (int variant = 0; variant < 8; variant++)
    {
      int64_t k = 3;
      FxPoolParams p;
      fx_pool_params_init (&p, 1, &k);
      p.n_stride = 1;
      p.stride[0] = 2;
      p.padding[0] = 1;
      p.ceil_mode = variant & 1;
      p.count_include_pad = (variant & 2) != 0;
      p.has_divisor = (variant & 4) != 0;
      p.divisor_override = 5;
      g_autoptr (FxTensor) y = fx_tensor_avg_pool2d (x, &p, NULL);
      g_assert_nonnull (y);
      for (int64_t pl = 0; pl < 2; pl++)
        for (int64_t i = 0; i < y->shape[2]; i++)
          for (int64_t j = 0; j < y->shape[3]; j++)
            {
              int64_t h0 = i * 2 - 1, w0 = j * 2 - 1;
              int64_t h1 = MIN (h0 + 3, 7 + 1), w1 = MIN (w0 + 3, 6 + 1);
              int64_t pool = (h1 - h0) * (w1 - w0);
              h0 = MAX (h0, 0), w0 = MAX (w0, 0), h1 = MIN (h1, 7), w1 = MIN (w1, 6);
              double sum = 0;
              for (int64_t r = h0; r < h1; r++)
                for (int64_t q = w0; q < w1; q++)
                  sum += fx_tensor_get_double (x, pl * 42 + r * 6 + q);
              double div = p.has_divisor ? 5 : p.count_include_pad ? pool : (h1 - h0) * (w1 - w0);
              g_assert_cmpfloat_with_epsilon (at4 (y, 0, pl, i, j), sum / div, 1e-12);
            }
    }
}

static void
test_adaptive (void)
{
  int64_t xs[4] = { 2, 2, 7, 10 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT32, 4, xs);
  int64_t sizes[][2] = { { 3, 4 }, { 7, 10 }, { 9, 13 }, { 1, 3 } };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr (FxTensor) avg = fx_tensor_adaptive_avg_pool2d (x, 2, sizes[s], NULL);
      FxTensor *idx = NULL;
      g_autoptr (FxTensor) mx = fx_tensor_adaptive_max_pool2d (x, 2, sizes[s], &idx, NULL);
      g_autoptr (FxTensor) indices = idx;
      g_assert_nonnull (avg);
      g_assert_nonnull (mx);
      int64_t oh = sizes[s][0], ow = sizes[s][1];
      for (int64_t pl = 0; pl < 4; pl++)
        for (int64_t i = 0; i < oh; i++)
          for (int64_t j = 0; j < ow; j++)
            {
              int64_t h0 = i * 7 / oh, h1 = ((i + 1) * 7 + oh - 1) / oh;
              int64_t w0 = j * 10 / ow, w1 = ((j + 1) * 10 + ow - 1) / ow;
              double sum = 0, best = -INFINITY;
              int64_t bi = -1;
              for (int64_t r = h0; r < h1; r++)
                for (int64_t q = w0; q < w1; q++)
                  {
                    double v = fx_tensor_get_double (x, pl * 70 + r * 10 + q);
                    sum += v;
                    if (v > best)
                      best = v, bi = r * 10 + q;
                  }
              int64_t o = (pl * oh + i) * ow + j;
              g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (avg, o),
                                              sum / ((h1 - h0) * (w1 - w0)), 1e-5);
              g_assert_cmpfloat (fx_tensor_get_double (mx, o), ==, best);
              g_assert_cmpint (fx_tensor_get_int64 (indices, o), ==, bi);
            }
    }
}

static void
test_pool1d (void)
{
  int64_t xs[3] = { 2, 3, 10 }, k = 3;
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT32, 3, xs);
  FxPoolParams p;
  fx_pool_params_init (&p, 1, &k);
  p.padding[0] = 1;
  FxTensor *idx = NULL;
  g_autoptr (FxTensor) a = fx_tensor_max_pool1d (x, &p, NULL, NULL);
  g_autoptr (FxTensor) b = fx_tensor_max_pool1d (x, &p, &idx, NULL);
  g_autoptr (FxTensor) indices = idx;
  g_assert_true (fx_tensor_same_shape (a, b));
  g_assert_cmpint (a->shape[2], ==, 4);
  for (int64_t i = 0; i < fx_tensor_numel (a); i++)
    {
      g_assert_cmpfloat (fx_tensor_get_double (a, i), ==, fx_tensor_get_double (b, i));
      int64_t pl = i / 4;
      g_assert_cmpfloat (fx_tensor_get_double (x, pl * 10 + fx_tensor_get_int64 (indices, i)), ==,
                         fx_tensor_get_double (a, i));
    }
  g_autoptr (FxTensor) avg = fx_tensor_avg_pool1d (x, &p, NULL);
  g_assert_cmpint (avg->ndim, ==, 3);
  double first = (fx_tensor_get_double (x, 0) + fx_tensor_get_double (x, 1)) / 3;
  g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (avg, 0), first, 1e-6);
  int64_t os = 4;
  g_autoptr (FxTensor) ad = fx_tensor_adaptive_avg_pool1d (x, 1, &os, NULL);
  g_assert_cmpint (ad->shape[2], ==, 4);
}

/* A big pooling input runs on the thread pool; the result does not depend on it. */
static void
test_pool_threads (void)
{
  int64_t xs[4] = { 2, 64, 56, 56 }, k = 3;
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT32, 4, xs);
  FxPoolParams p;
  fx_pool_params_init (&p, 1, &k);
  p.n_stride = 1;
  p.stride[0] = 2;
  p.padding[0] = 1;
  fx_blas_set_num_threads (1);
  g_autoptr (FxTensor) a = fx_tensor_max_pool2d (x, &p, NULL, NULL);
  g_autoptr (FxTensor) c = fx_tensor_avg_pool2d (x, &p, NULL);
  fx_blas_set_num_threads (2);
  g_autoptr (FxTensor) b = fx_tensor_max_pool2d (x, &p, NULL, NULL);
  g_autoptr (FxTensor) d = fx_tensor_avg_pool2d (x, &p, NULL);
  fx_blas_set_num_threads (0);
  g_assert_cmpmem (fx_tensor_data (a), fx_tensor_numel (a) * 4, fx_tensor_data (b),
                   fx_tensor_numel (b) * 4);
  g_assert_cmpmem (fx_tensor_data (c), fx_tensor_numel (c) * 4, fx_tensor_data (d),
                   fx_tensor_numel (d) * 4);
}

/* Convolutions called from inside a parallel loop run inline (the pool is busy), so one
 * thread takes every task of each: slices of output channels of one image (a 7×7 layer
 * with 160 channels) then reuse the columns that thread gathered for the first slice, and
 * the channel-split Winograd input transform (14×14) is made by one thread alone. Two such
 * convolutions at once, one per thread, match the double reference. */
typedef struct {
  const Cfg *cfg;
  FxTensor *x, *w, *b;
  FxTensor *y[2];
} NestedConv;

static void
nested_conv_job (int64_t begin, int64_t end, gpointer data)
{
  NestedConv *nc = data;
  FxConvParams p;
  params_from (nc->cfg, &p);
  for (int64_t i = begin; i < end; i++)
    nc->y[i] = fx_tensor_conv2d (nc->x, nc->w, nc->b, &p, NULL);
}

static void
test_conv2d_nested (void)
{
  static const Cfg cfgs[] = {
    { 1, 96, 7, 7, 160, 3, 3, 1, 1, 1, 1, 1, 1, 1 },
    { 1, 200, 13, 13, 192, 3, 3, 2, 2, 1, 1, 1, 1, 1 },
    { 1, 64, 14, 14, 96, 3, 3, 1, 1, 1, 1, 1, 1, 1 },
  };
  fx_blas_set_num_threads (2);
  for (guint i = 0; i < G_N_ELEMENTS (cfgs); i++)
    {
      const Cfg *k = &cfgs[i];
      int64_t xs[4] = { k->n, k->c, k->h, k->w }, ws[4] = { k->o, k->c, k->kh, k->kw };
      NestedConv nc = { k, rand_tensor (FX_DTYPE_FLOAT32, 4, xs),
                        rand_tensor (FX_DTYPE_FLOAT32, 4, ws),
                        rand_tensor (FX_DTYPE_FLOAT32, 1, &k->o), { NULL, NULL } };
      int64_t oh, ow;
      g_autofree double *want = conv_ref (k, nc.x, nc.w, nc.b, &oh, &ow);
      fx_parallel_for (2, 1, nested_conv_job, &nc);
      for (int t = 0; t < 2; t++)
        {
          g_assert_nonnull (nc.y[t]);
          assert_close (nc.y[t], want, k->o * oh * ow, 1e-4);
          fx_tensor_unref (nc.y[t]);
        }
      fx_tensor_unref (nc.x);
      fx_tensor_unref (nc.w);
      fx_tensor_unref (nc.b);
    }
  fx_blas_set_num_threads (0);
}

static void
test_errors (void)
{
  int64_t xs[4] = { 1, 3, 5, 5 }, ws[4] = { 4, 2, 3, 3 };
  g_autoptr (FxTensor) x = fx_tensor_ones (FX_DTYPE_FLOAT32, 4, xs);
  g_autoptr (FxTensor) w = fx_tensor_ones (FX_DTYPE_FLOAT32, 4, ws);
  FxConvParams p;
  fx_conv_params_init (&p);
  GError *error = NULL;
  g_assert_null (fx_tensor_conv2d (x, w, NULL, &p, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_assert_true (g_str_has_prefix (error->message, "Given groups=1, weight of size [4, 2, 3, 3]"));
  g_clear_error (&error);
  p.padding_mode = "bogus";
  g_assert_null (fx_tensor_conv2d (x, w, NULL, &p, &error));
  g_assert_cmpstr (error->message, ==, "Invalid padding string: 'bogus'");
  g_clear_error (&error);
  int64_t k = 9;
  FxPoolParams pp;
  fx_pool_params_init (&pp, 1, &k);
  g_assert_null (fx_tensor_max_pool2d (x, &pp, NULL, &error));
  g_assert_cmpstr (error->message, ==, "Given input size: (3x5x5). Calculated output size: "
                   "(3x0x0). Output size is too small");
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/conv/conv2d", test_conv2d);
  g_test_add_func ("/conv/conv2d-layouts", test_conv2d_layouts);
  g_test_add_func ("/conv/conv2d-same", test_conv2d_same);
  g_test_add_func ("/conv/conv2d-nested", test_conv2d_nested);
  g_test_add_func ("/conv/conv1d", test_conv1d);
  g_test_add_func ("/conv/conv-transpose2d", test_conv_transpose2d);
  g_test_add_func ("/conv/max-pool2d", test_max_pool2d);
  g_test_add_func ("/conv/avg-pool2d", test_avg_pool2d);
  g_test_add_func ("/conv/adaptive", test_adaptive);
  g_test_add_func ("/conv/pool1d", test_pool1d);
  g_test_add_func ("/conv/pool-threads", test_pool_threads);
  g_test_add_func ("/conv/errors", test_errors);
  return g_test_run ();
}
