/* test-conv-winograd.c: the Winograd F(2×2,3×3) / F(4×4,3×3) convolution path against the
 * im2col + gemm one, on random shapes (odd sizes, padding 0-2, bias or not, batches, with and
 * without conv2d_fused's epilogue and its residual), within a rounding-error bound, on one
 * and two threads, with the products in the lanes (AVX-512) and through fx_sgemm_stream;
 * fx_sgemm_stream itself; and the channels-in-lanes products giving the same bits on any
 * number of threads.
 *
 * The bound. Both paths compute y = Σ w·x over the same C·9 products plus the bias; they
 * differ only in rounding. Every rounding error of either path is a multiple of float32's
 * ε of some partial sum, and every partial sum is bounded by the transforms' absolute-value
 * amplification times S = Σ |w|·|x| + |bias| (the same convolution on absolute values). For
 * F(4×4,3×3) the transforms' row sums of absolute values are ≤ 10 (input), ≤ 1/2 (filter)
 * and ≤ 19 (output), applied along both spatial axes, which gives a worst-case amplification
 * of (10·0.5·19)² ≈ 9·10³; the gemm adds about log2(C) more roundings. Random data never
 * gets near the worst case (errors are of random sign and the largest entries rarely line
 * up), so the test asks for |Δ| ≤ K·ε·S with K = 512 for F(4×4) and K = 64 for F(2×2):
 * well below the worst case, far above what was observed (printed with --verbose), and still
 * tight enough that any indexing mistake — a wrong tile, channel or transform coefficient
 * is an error of order S itself — fails by orders of magnitude. */
#include <fx.h>
#include <float.h>
#include <math.h>

typedef struct {
  int64_t n, c, o, h, w, pad;
  gboolean bias, epilogue, relu;
  gboolean residual;   /* with epilogue: a residual added before the ReLU */
} Case;

/* A float32 tensor of standard normal values: shape {a} or {a, b, c, d}. */
static FxTensor *
gaussian (FxGenerator *gen, int64_t a, int64_t b, int64_t c, int64_t d)
{
  GError *error = NULL;
  int64_t shape[4] = { a, b, c, d };
  FxTensor *t = fx_randn (FX_DTYPE_FLOAT32, b ? 4 : 1, shape, gen, &error);
  g_assert_no_error (error);
  return t;
}

static FxTensor *
abs_of (FxTensor *t)
{
  GError *error = NULL;
  FxTensor *r = fx_tensor_unary (FX_UNARY_ABS, t, 0, 0, &error);
  g_assert_no_error (error);
  return r;
}

static FxTensor *
conv (FxTensor *x, FxTensor *w, FxTensor *b, const FxConvParams *p, const FxConvEpilogue *ep,
      int algo)
{
  GError *error = NULL;
  fx_winograd_force (algo);
  FxTensor *y = fx_tensor_conv2d_fused (x, w, b, p, ep, &error);
  fx_winograd_force (-1);
  g_assert_no_error (error);
  return y;
}

static double worst[5];   /* by tile size: the largest |Δ| / (ε S) seen */

static void
check_case (const Case *tc, FxGenerator *gen)
{
  g_autoptr (FxTensor) x = gaussian (gen, tc->n, tc->c, tc->h, tc->w);
  g_autoptr (FxTensor) w = gaussian (gen, tc->o, tc->c, 3, 3);
  g_autoptr (FxTensor) b = tc->bias ? gaussian (gen, tc->o, 0, 0, 0) : NULL;
  g_autoptr (FxTensor) ax = abs_of (x);
  g_autoptr (FxTensor) aw = abs_of (w);
  g_autoptr (FxTensor) ab = b ? abs_of (b) : NULL;
  g_autofree float *ss = g_new (float, 2 * tc->o);
  for (int64_t o = 0; o < tc->o; o++)
    {
      ss[2 * o] = (float) g_random_double_range (-2, 2);
      ss[2 * o + 1] = (float) g_random_double_range (-1, 1);
    }
  FxConvEpilogue ep = { .scale_shift = ss, .relu = tc->relu };
  const FxConvEpilogue *epp = tc->epilogue ? &ep : NULL;
  FxConvParams p;
  fx_conv_params_init (&p);
  p.padding[0] = tc->pad;
  int64_t oh = tc->h + 2 * tc->pad - 2, ow = tc->w + 2 * tc->pad - 2;
  g_autoptr (FxTensor) res = tc->residual ? gaussian (gen, tc->n, tc->o, oh, ow) : NULL;
  ep.residual = res;
  const float *rd = res ? fx_tensor_data (res) : NULL;

  g_autoptr (FxTensor) want = conv (x, w, b, &p, epp, 0);
  g_autoptr (FxTensor) scale = conv (ax, aw, ab, &p, NULL, 0);
  const float *wd = fx_tensor_data (want), *sd = fx_tensor_data (scale);
  int64_t plane = want->shape[2] * want->shape[3];
  for (int m = 2; m <= 4; m += 2)
    {
      g_autoptr (FxTensor) got = conv (x, w, b, &p, epp, m);
      g_assert_cmpint (got->ndim, ==, 4);
      for (int d = 0; d < 4; d++)
        g_assert_cmpint (got->shape[d], ==, want->shape[d]);
      const float *gd = fx_tensor_data (got);
      double k = m == 4 ? 512 : 64;
      for (int64_t i = 0; i < fx_tensor_numel (got); i++)
        {
          /* the epilogue scales the error by |scale|, adds its own rounding (below
           * ε·(|scale·v| + |shift|)) and relu does not enlarge it */
          double amp = epp ? fabs (ss[2 * ((i / plane) % tc->o)]) : 1.0;
          double s = amp * sd[i] + (epp ? fabs (ss[2 * ((i / plane) % tc->o) + 1]) : 0)
                     + (rd ? fabs (rd[i]) : 0) + 1e-30;
          double ratio = fabs ((double) gd[i] - wd[i]) / (FLT_EPSILON * s);
          worst[m] = MAX (worst[m], ratio);
          if (!(ratio <= k))
            g_error ("F(%dx%d) case %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                     "x%" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " pad %" G_GINT64_FORMAT
                     ": element %" G_GINT64_FORMAT " is %g, im2col gives %g (%.1f eps*S)", m, m,
                     tc->n, tc->c, tc->h, tc->w, tc->o, tc->pad, i, gd[i], wd[i], ratio);
        }
    }
}

static void
run_random_cases (int threads)
{
  FxGenerator *gen = fx_generator_new (1234 + threads);
  g_random_set_seed (99 + threads);
  fx_blas_set_num_threads (threads);
  static const Case fixed[] = {
    { 1, 64, 64, 56, 56, 1, FALSE, TRUE, TRUE },   /* ResNet layer1, fused BN + ReLU */
    { 1, 256, 256, 14, 14, 1, FALSE, TRUE, FALSE },
    { 1, 512, 64, 7, 7, 1, TRUE, FALSE, FALSE },   /* a single tile row */
    /* four tile rows to a vector (4 tiles a row or fewer), the last vector short of rows:
     * 3 tile rows of 4 (F(4×4)); 2 of 1 (F(4×4)) and 4 of 2 (F(2×2)) */
    { 1, 24, 40, 10, 13, 1, TRUE, TRUE, TRUE },
    { 2, 20, 36, 9, 6, 0, FALSE, TRUE, FALSE },
    /* 9.4 MB of filters: each chunk's products fetch the next chunk's (raw_ahead) */
    { 1, 512, 512, 7, 7, 1, FALSE, TRUE, TRUE },
    /* residuals (ResNet-18's basic blocks), through the lanes' output transform (small
     * images) and output_body: channels not a multiple of 16, rows short of 16 outputs */
    { 1, 256, 256, 14, 14, 1, TRUE, TRUE, TRUE, TRUE },
    { 1, 40, 37, 9, 11, 1, FALSE, TRUE, FALSE, TRUE },
    { 2, 24, 70, 30, 30, 1, TRUE, TRUE, TRUE, TRUE },
    { 2, 16, 24, 1, 1, 2, TRUE, FALSE, FALSE },    /* 1×1 image, padding 2 */
  };
  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    check_case (&fixed[i], gen);
  for (int i = 0; i < 24; i++)
    {
      Case tc;
      tc.n = g_random_int_range (1, 4);
      tc.c = g_random_int_range (1, 80);
      tc.o = g_random_int_range (1, 80);
      tc.pad = g_random_int_range (0, 3);
      tc.h = g_random_int_range (MAX (1, 3 - 2 * (int) tc.pad), 40);
      tc.w = g_random_int_range (MAX (1, 3 - 2 * (int) tc.pad), 40);
      tc.bias = g_random_boolean ();
      tc.epilogue = g_random_boolean ();
      tc.relu = g_random_boolean ();
      tc.residual = tc.epilogue && g_random_boolean ();
      check_case (&tc, gen);
    }
  fx_blas_set_num_threads (0);
  fx_generator_free (gen);
  if (g_test_verbose ())
    g_printerr ("worst |diff| / (eps*S): F(2x2) %.1f, F(4x4) %.1f\n", worst[2], worst[4]);
}

static void
test_one_thread (void)
{
  run_random_cases (1);
}

static void
test_two_threads (void)
{
  run_random_cases (2);
}

/* The products through fx_sgemm_stream, as on machines without AVX-512 (where AVX-512 is,
 * every image takes the channels-in-lanes products). */
static void
test_stream_products (void)
{
  fx_winograd_force_lanes (0);
  run_random_cases (1);
  run_random_cases (2);
  fx_winograd_force_lanes (-1);
}

/* fx_sgemm_stream (the unpacked product behind the small-image paths) against fx_sgemm on
 * shapes that hit its edges: rows not a multiple of its 6- or 8-row tiles, columns not a
 * multiple of 16 or 64 (49, 50, 17, 34, 196: the last one to four as dot products; 80, 212:
 * five vectors left, as blocks of 3 and 2), k over its 128-deep panels (one block of columns:
 * each tile of rows through a group of panels; over 512 KiB of B, several groups), strides
 * wider than the rows, blocks of B that the first tile to take them copies for the others
 * (rows far apart, three tiles of rows or more; k odd). Both sum the same k products in
 * different orders, so they differ by at most ~2k·ε·Σ|a||b|. */
static void
test_stream_gemm (void)
{
  static const int64_t shapes[][3] = {
    { 1, 1, 1 }, { 7, 49, 300 }, { 13, 65, 129 }, { 64, 196, 64 }, { 6, 16, 128 },
    { 5, 3, 1000 }, { 33, 130, 17 }, { 9, 50, 200 }, { 4, 17, 40 }, { 12, 34, 256 },
    { 17, 40, 150 }, { 9, 48, 193 }, { 25, 33, 147 },   /* 8-row tiles */
    { 10, 80, 64 }, { 14, 196, 300 }, { 7, 212, 40 },   /* 5 vectors left: blocks of 3 + 2 */
    { 20, 49, 4608 }, { 9, 64, 2600 },                   /* two groups of panels */
    { 17, 40, 700 }, { 9, 48, 800 },                     /* one deeper panel; two panels */
    { 12, 100, 1300 },                                   /* panels in each block of columns */
    { 20, 300, 101 }, { 13, 700, 64 },                   /* blocks of B copied (StreamPack) */
    { 20, 300, 901 }, { 20, 300, 1500 },                 /* ... in two and three panels */
    { 20, 196, 1152 },                /* copied blocks and 4 dot products, two panels */
    { 7, 66, 2100 },                  /* a k past the copy's: no dot products */
  };
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
      int64_t lda = k + 3, ldb = n + 5, ldc = n + 7;
      g_autofree float *a = g_new (float, m * lda), *b = g_new (float, k * ldb);
      g_autofree float *c = g_new (float, m * ldc), *want = g_new (float, m * ldc);
      for (int64_t x = 0; x < m * lda; x++)
        a[x] = (float) g_random_double_range (-1, 1);
      for (int64_t x = 0; x < k * ldb; x++)
        b[x] = (float) g_random_double_range (-1, 1);
      for (int64_t x = 0; x < m * ldc; x++)
        c[x] = want[x] = 12345.f;   /* the columns past n must stay untouched */
      fx_sgemm_stream (m, n, k, a, lda, b, ldb, c, ldc, NULL);
      fx_sgemm (FALSE, FALSE, m, n, k, 1.f, a, lda, b, ldb, 0.f, want, ldc);
      for (int64_t r = 0; r < m; r++)
        for (int64_t col = 0; col < ldc; col++)
          {
            double s = 0;
            for (int64_t p = 0; col < n && p < k; p++)
              s += fabs (a[r * lda + p] * b[p * ldb + col]);
            double d = fabs ((double) c[r * ldc + col] - want[r * ldc + col]);
            if (!(d <= 2.0 * k * FLT_EPSILON * s))
              g_error ("stream gemm %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                       ": C[%" G_GINT64_FORMAT "][%" G_GINT64_FORMAT "] is %g, fx_sgemm gives %g",
                       m, n, k, r, col, c[r * ldc + col], want[r * ldc + col]);
          }
    }
}

/* fx_sgemm_stream's epilogue, applied in registers as each tile finishes (and on the
 * dot-product columns), against the plain product followed by the same steps one by one:
 * equal bit for bit, for each combination of the steps, on shapes with partial vectors,
 * dot-product columns (49, 50), one or many panels and blocks of columns. */
static void
test_stream_gemm_epilogue (void)
{
  static const int64_t shapes[][3] = {
    { 7, 49, 300 }, { 13, 65, 129 }, { 64, 196, 64 }, { 9, 50, 200 }, { 17, 40, 150 },
    { 6, 16, 128 }, { 20, 80, 1100 }, { 9, 212, 300 }, { 9, 100, 1700 }, { 20, 300, 101 },
    { 20, 300, 901 }, { 20, 300, 1500 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (int steps = 0; steps < 16; steps++)
      {
        int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        int64_t lda = k + 3, ldb = n + 5, ldc = n + 7, ldr = n + 2;
        g_autofree float *a = g_new (float, m * lda), *b = g_new (float, k * ldb);
        g_autofree float *c = g_new (float, m * ldc), *want = g_new (float, m * ldc);
        g_autofree float *bias = g_new (float, m), *ss = g_new (float, 2 * m);
        g_autofree float *res = g_new (float, m * ldr);
        for (int64_t x = 0; x < m * lda; x++)
          a[x] = (float) g_random_double_range (-1, 1);
        for (int64_t x = 0; x < k * ldb; x++)
          b[x] = (float) g_random_double_range (-1, 1);
        for (int64_t x = 0; x < m; x++)
          {
            bias[x] = (float) g_random_double_range (-2, 2);
            ss[2 * x] = (float) g_random_double_range (-3, 3);
            ss[2 * x + 1] = (float) g_random_double_range (-2, 2);
          }
        for (int64_t x = 0; x < m * ldr; x++)
          res[x] = (float) g_random_double_range (-4, 4);
        for (int64_t x = 0; x < m * ldc; x++)
          c[x] = want[x] = 12345.f;   /* the columns past n must stay untouched */
        FxGemmEpilogue ep = { steps & 1 ? bias : NULL, steps & 2 ? ss : NULL,
                              steps & 4 ? res : NULL, ldr, (steps & 8) != 0 };
        fx_sgemm_stream (m, n, k, a, lda, b, ldb, c, ldc, &ep);
        fx_sgemm_stream (m, n, k, a, lda, b, ldb, want, ldc, NULL);
        for (int64_t r = 0; r < m; r++)
          for (int64_t col = 0; col < n; col++)
            {
              volatile float v = want[r * ldc + col];
              if (ep.bias)
                v = v + bias[r];
              if (ep.scale_shift)
                {
                  volatile float scaled = v * ss[2 * r];
                  v = scaled + ss[2 * r + 1];
                }
              if (ep.residual)
                v = v + res[r * ldr + col];
              if (ep.relu && v < 0)
                v = 0;
              want[r * ldc + col] = v;
            }
        for (int64_t x = 0; x < m * ldc; x++)
          if (memcmp (&c[x], &want[x], sizeof (float)) != 0)
            g_error ("stream gemm %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                     " with epilogue steps %d: C[%" G_GINT64_FORMAT "][%" G_GINT64_FORMAT
                     "] is %.9g, the steps one by one give %.9g", m, n, k, steps, x / ldc,
                     x % ldc, c[x], want[x]);
      }
}

/* fx_sgemm_stream_shared: one product taken by two threads from both ends, or by one thread
 * as both sides, or by one side alone, gives fx_sgemm_stream's result bit for bit (with the
 * epilogue and a residual): blocks of columns of 4, 3 + 2 and partial vectors, several
 * panels, a rows-outer block with groups of panels and dot-product columns, blocks of B
 * copied by each side (side 1 coming from the back: by its 1-row tile). */
typedef struct {
  int64_t m, n, k, lda, ldb, ldc;
  const float *a, *b;
  float *c;
  const FxGemmEpilogue *ep;
  FxGemmShare *share;
  int side;
} SharedSide;

static gpointer
shared_side_thread (gpointer data)
{
  SharedSide *s = data;
  fx_sgemm_stream_shared (s->m, s->n, s->k, s->a, s->lda, s->b, s->ldb, s->c, s->ldc, s->ep,
                          s->share, s->side);
  return NULL;
}

static void
test_stream_gemm_shared (void)
{
  static const int64_t shapes[][3] = {
    { 256, 196, 1024 }, { 64, 784, 300 }, { 37, 212, 700 }, { 300, 49, 4608 }, { 20, 50, 200 },
    { 5, 3, 10 }, { 13, 700, 120 }, { 40, 260, 901 }, { 40, 260, 1500 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (int how = 0; how < 3; how++)
      {
        int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        int64_t lda = k + 3, ldb = n + 5, ldc = n + 7;
        g_autofree float *a = g_new (float, m * lda), *b = g_new (float, k * ldb);
        g_autofree float *c = g_new (float, m * ldc), *want = g_new (float, m * ldc);
        g_autofree float *bias = g_new (float, m), *res = g_new (float, m * ldc);
        for (int64_t x = 0; x < m * lda; x++)
          a[x] = (float) g_random_double_range (-1, 1);
        for (int64_t x = 0; x < k * ldb; x++)
          b[x] = (float) g_random_double_range (-1, 1);
        for (int64_t x = 0; x < m; x++)
          bias[x] = (float) g_random_double_range (-1, 1);
        for (int64_t x = 0; x < m * ldc; x++)
          {
            res[x] = (float) g_random_double_range (-4, 4);
            c[x] = want[x] = 12345.f;   /* the columns past n must stay untouched */
          }
        FxGemmEpilogue ep = { bias, NULL, res, ldc, TRUE };
        fx_sgemm_stream (m, n, k, a, lda, b, ldb, want, ldc, &ep);
        FxGemmShare share;
        fx_gemm_share_init (&share, fx_sgemm_stream_units (m, n, k));
        g_assert_true (fx_gemm_share_pending (&share));
        SharedSide sides[2] = { { m, n, k, lda, ldb, ldc, a, b, c, &ep, &share, 0 },
                                { m, n, k, lda, ldb, ldc, a, b, c, &ep, &share, 1 } };
        if (how == 0)
          {
            GThread *t = g_thread_new ("side-1", shared_side_thread, &sides[1]);
            shared_side_thread (&sides[0]);
            g_thread_join (t);
          }
        else if (how == 1)
          {
            shared_side_thread (&sides[0]);
            shared_side_thread (&sides[1]);
          }
        else
          shared_side_thread (&sides[1]);
        g_assert_false (fx_gemm_share_pending (&share));
        if (memcmp (c, want, sizeof (float) * m * ldc) != 0)
          g_error ("shared stream gemm %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   " (%d) differs from fx_sgemm_stream", m, n, k, how);
      }
}

/* One small image on two threads: the threads make the transformed input together, by
 * chunks of input channels, then take slices of output channels. Called from inside a
 * parallel loop the same call runs inline, one thread making all of it: the result must be
 * the same bit for bit (each channel's transform is the same arithmetic whoever makes it). */
typedef struct {
  FxTensor *x, *w, *b;
  const FxConvParams *p;
  int m;
  FxTensor *y;
} InlineConv;

static void
inline_conv_job (int64_t begin, int64_t end, gpointer data)
{
  InlineConv *ic = data;
  if (begin == 0)
    ic->y = conv (ic->x, ic->w, ic->b, ic->p, NULL, ic->m);
  (void) end;
}

static void
test_shared_input (void)
{
  FxGenerator *gen = fx_generator_new (77);
  FxConvParams p;
  fx_conv_params_init (&p);
  p.padding[0] = 1;
  fx_blas_set_num_threads (2);
  for (int m = 2; m <= 4; m += 2)
    {
      g_autoptr (FxTensor) x = gaussian (gen, 1, 72, 13, 15);
      g_autoptr (FxTensor) w = gaussian (gen, 40, 72, 3, 3);
      g_autoptr (FxTensor) b = gaussian (gen, 40, 0, 0, 0);
      g_autoptr (FxTensor) shared = conv (x, w, b, &p, NULL, m);
      InlineConv ic = { x, w, b, &p, m, NULL };
      fx_parallel_for (2, 1, inline_conv_job, &ic);
      g_autoptr (FxTensor) alone = ic.y;
      g_assert_nonnull (alone);
      g_assert_cmpmem (fx_tensor_data (shared), fx_tensor_numel (shared) * 4,
                       fx_tensor_data (alone), fx_tensor_numel (alone) * 4);
    }
  fx_blas_set_num_threads (0);
  fx_generator_free (gen);
}

/* On AVX-512 the products go with the output channels in the vector lanes, where each
 * output sums its input channels in order, whoever computes it: one thread or two (slices
 * of channels, or blocks of tile rows) give the same result bit for bit. The shapes cover
 * channel counts that are not multiples of 16 or of the 64-channel blocks, fewer tiles
 * than a register tile, input channels over several just-in-time chunks, a batch, and an
 * image of several blocks of tile rows. */
static void
test_lanes_same_everywhere (void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init ();
  if (!__builtin_cpu_supports ("avx512f"))
#endif
    {
      g_test_skip ("the channels-in-lanes products need AVX-512");
      return;
    }
  static const Case shapes[] = {
    { 1, 256, 256, 14, 14, 1, FALSE, TRUE, TRUE },
    { 1, 512, 72, 7, 7, 1, TRUE, FALSE, FALSE },
    { 1, 37, 150, 9, 11, 0, TRUE, TRUE, FALSE },
    { 2, 200, 17, 5, 5, 2, FALSE, FALSE, FALSE },
    { 1, 3, 130, 4, 4, 1, TRUE, FALSE, FALSE },
    { 1, 64, 64, 56, 56, 1, FALSE, TRUE, TRUE },
  };
  FxGenerator *gen = fx_generator_new (31);
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      const Case *tc = &shapes[i];
      g_autoptr (FxTensor) x = gaussian (gen, tc->n, tc->c, tc->h, tc->w);
      g_autoptr (FxTensor) w = gaussian (gen, tc->o, tc->c, 3, 3);
      g_autoptr (FxTensor) b = tc->bias ? gaussian (gen, tc->o, 0, 0, 0) : NULL;
      FxConvParams p;
      fx_conv_params_init (&p);
      p.padding[0] = tc->pad;
      for (int m = 2; m <= 4; m += 2)
        {
          fx_blas_set_num_threads (1);
          g_autoptr (FxTensor) one = conv (x, w, b, &p, NULL, m);
          fx_blas_set_num_threads (2);
          g_autoptr (FxTensor) two = conv (x, w, b, &p, NULL, m);
          gsize bytes = fx_tensor_numel (one) * sizeof (float);
          g_assert_cmpmem (fx_tensor_data (two), bytes, fx_tensor_data (one), bytes);
        }
    }
  fx_blas_set_num_threads (0);
  fx_generator_free (gen);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/conv-winograd/random-1-thread", test_one_thread);
  g_test_add_func ("/conv-winograd/random-2-threads", test_two_threads);
  g_test_add_func ("/conv-winograd/stream-products", test_stream_products);
  g_test_add_func ("/conv-winograd/shared-input", test_shared_input);
  g_test_add_func ("/conv-winograd/stream-gemm", test_stream_gemm);
  g_test_add_func ("/conv-winograd/stream-gemm-epilogue", test_stream_gemm_epilogue);
  g_test_add_func ("/conv-winograd/stream-gemm-shared", test_stream_gemm_shared);
  g_test_add_func ("/conv-winograd/lanes-same-everywhere", test_lanes_same_everywhere);
  return g_test_run ();
}
