/* test-conv-fused.c: fx_tensor_conv2d_fused (conv2d with an eval-mode BatchNorm, a residual add
 * and ReLU folded into its output tiles) against conv2d → batch_norm (→ add) → relu run one
 * after the other: equal bit for bit on every conv path (im2col, Winograd F(2x2)/F(4x4), 1×1
 * direct, depthwise, fallback). */
#include <fx.h>
#include <math.h>
#include <string.h>

typedef struct {
  int64_t n, c, o, hw, k, stride, pad, groups;
  gboolean bias, relu, unbatched, residual;
} Case;

static FxTensor *
randn (FxGenerator *gen, int ndim, const int64_t *shape)
{
  GError *error = NULL;
  FxTensor *t = fx_randn (FX_DTYPE_FLOAT32, ndim, shape, gen, &error);
  g_assert_no_error (error);
  return t;
}

/* tc's batched input, weight, bias (or NULL) and parameters. */
static void
case_inputs (const Case *tc, FxGenerator *gen, FxTensor **x, FxTensor **w, FxTensor **b,
             FxConvParams *p)
{
  int64_t xs[4] = { tc->n, tc->c, tc->hw, tc->hw };
  int64_t ws[4] = { tc->o, tc->c / tc->groups, tc->k, tc->k }, os[1] = { tc->o };
  *x = randn (gen, 4, xs);
  *w = randn (gen, 4, ws);
  *b = tc->bias ? randn (gen, 1, os) : NULL;
  fx_conv_params_init (p);
  p->stride[0] = tc->stride;
  p->padding[0] = tc->pad;
  p->groups = tc->groups;
}

static void
check_case (const Case *tc, FxGenerator *gen)
{
  GError *error = NULL;
  int64_t os[1] = { tc->o };
  g_autoptr (FxTensor) x4 = NULL, w = NULL, b = NULL;
  FxConvParams p;
  case_inputs (tc, gen, &x4, &w, &b, &p);
  g_autoptr (FxTensor) mean = randn (gen, 1, os);
  g_autoptr (FxTensor) var0 = randn (gen, 1, os);
  g_autoptr (FxTensor) var = fx_tensor_unary (FX_UNARY_ABS, var0, 0, 0, &error);
  g_autoptr (FxTensor) gamma = randn (gen, 1, os);
  g_autoptr (FxTensor) beta = randn (gen, 1, os);
  g_autoptr (FxTensor) x = tc->unbatched ? fx_tensor_select (x4, 0, 0, &error) : fx_tensor_ref (x4);

  g_autoptr (FxTensor) conv = fx_tensor_conv2d (x, w, b, &p, &error);
  g_assert_no_error (error);
  g_autoptr (FxTensor) conv4 = tc->unbatched ? fx_tensor_unsqueeze (conv, 0, &error)
                                             : fx_tensor_ref (conv);
  g_autoptr (FxTensor) bn = fx_batch_norm (conv4, mean, var, gamma, beta, FALSE, 0.1, 1e-5,
                                           &error);
  g_assert_no_error (error);
  /* the residual: another tensor of the output's shape, added before the relu */
  g_autoptr (FxTensor) res = tc->residual ? randn (gen, conv->ndim, conv->shape) : NULL;
  g_autoptr (FxTensor) res4 = res && tc->unbatched ? fx_tensor_unsqueeze (res, 0, &error)
                                                   : (res ? fx_tensor_ref (res) : NULL);
  g_autoptr (FxTensor) sum = res4 ? fx_tensor_add (bn, res4, &error) : fx_tensor_ref (bn);
  g_assert_no_error (error);
  g_autoptr (FxTensor) want = tc->relu ? fx_tensor_relu (sum, &error) : fx_tensor_ref (sum);
  g_assert_no_error (error);

  g_autofree float *coeffs = fx_batch_norm_eval_coeffs (mean, var, gamma, beta, 1e-5, tc->o);
  FxConvEpilogue ep = { .scale_shift = coeffs, .relu = tc->relu,
                        .residual = res };
  g_autoptr (FxTensor) got = fx_tensor_conv2d_fused (x, w, b, &p, &ep, &error);
  g_assert_no_error (error);

  g_assert_cmpint (fx_tensor_numel (got), ==, fx_tensor_numel (want));
  g_assert_true (fx_tensor_is_contiguous (got) && fx_tensor_is_contiguous (want));
  g_assert_cmpmem (fx_tensor_data (got), fx_tensor_numel (got) * 4, fx_tensor_data (want),
                   fx_tensor_numel (want) * 4);
}

static const Case cases[] = {
  { 1, 64, 64, 56, 3, 1, 1, 1, FALSE, TRUE, FALSE },    /* "same" 3×3: the shifted copy */
  { 2, 16, 32, 15, 3, 1, 1, 1, TRUE, FALSE, FALSE },    /* batch 2, bias, no relu */
  { 1, 3, 64, 64, 7, 2, 3, 1, FALSE, TRUE, FALSE },     /* stem: strided im2col */
  { 1, 256, 64, 14, 1, 1, 0, 1, FALSE, TRUE, FALSE },   /* 1×1: the input is the matrix */
  { 1, 64, 128, 28, 1, 2, 0, 1, FALSE, FALSE, FALSE },  /* strided 1×1 downsample */
  { 1, 512, 512, 7, 3, 1, 1, 1, FALSE, TRUE, FALSE },   /* few positions: channel split */
  { 1, 32, 32, 20, 3, 1, 1, 32, TRUE, TRUE, FALSE },    /* depthwise */
  { 1, 8, 12, 9, 3, 1, 1, 1, TRUE, TRUE, TRUE },        /* unbatched: the separate pass */
  /* with a residual, as ResNet's blocks end */
  { 1, 64, 64, 56, 3, 1, 1, 1, FALSE, TRUE, FALSE, TRUE },   /* Winograd F(4x4) */
  { 1, 256, 256, 14, 3, 1, 1, 1, FALSE, TRUE, FALSE, TRUE }, /* Winograd F(2x2) */
  { 2, 16, 32, 15, 3, 1, 1, 1, TRUE, FALSE, FALSE, TRUE },   /* batch 2, bias, no relu */
  { 1, 64, 256, 28, 1, 1, 0, 1, FALSE, TRUE, FALSE, TRUE },  /* 1×1 direct */
  { 1, 64, 128, 28, 1, 2, 0, 1, FALSE, TRUE, FALSE, TRUE },  /* strided 1×1 downsample */
  { 1, 512, 512, 7, 3, 1, 1, 1, FALSE, TRUE, FALSE, TRUE },  /* channel split */
  { 1, 64, 128, 14, 3, 2, 1, 1, TRUE, TRUE, FALSE, TRUE },   /* strided, two threads:
                                                                 halves of the channels */
  { 1, 32, 32, 20, 3, 1, 1, 32, TRUE, TRUE, FALSE, TRUE },   /* depthwise */
  { 1, 8, 12, 9, 3, 1, 1, 1, TRUE, TRUE, TRUE, TRUE },       /* unbatched: the separate pass */
  /* the stem's kernel (phases of the input), its epilogue in registers: bias, a partial
   * last vector (27 positions a row), a partial tile of channels (20) */
  { 2, 3, 20, 54, 7, 2, 3, 1, TRUE, TRUE, FALSE, TRUE },
  { 1, 3, 64, 64, 7, 2, 3, 1, TRUE, FALSE, FALSE, FALSE },
};

static void
test_fused_matches_sequence (void)
{
  FxGenerator *gen = fx_generator_new (7);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i], gen);
  fx_generator_free (gen);
}

/* got and want: the same shape, contiguous, the same bits. */
static void
assert_same_tensor (FxTensor *got, FxTensor *want)
{
  g_assert_cmpint (got->ndim, ==, want->ndim);
  for (int d = 0; d < got->ndim; d++)
    g_assert_cmpint (got->shape[d], ==, want->shape[d]);
  g_assert_true (fx_tensor_is_contiguous (got) && fx_tensor_is_contiguous (want));
  g_assert_cmpmem (fx_tensor_data (got), fx_tensor_numel (got) * 4, fx_tensor_data (want),
                   fx_tensor_numel (want) * 4);
}

/* check (case i, gen) for each of n cases, with libfx's threads at 1 and then 2. */
static void
for_each_case_and_threads (guint n, void (*check) (guint i, FxGenerator *gen), guint64 seed)
{
  FxGenerator *gen = fx_generator_new (seed);
  int threads = fx_blas_num_threads ();
  for (int t = 1; t <= 2; t++)
    {
      fx_blas_set_num_threads (t);
      for (guint i = 0; i < n; i++)
        check (i, gen);
    }
  fx_blas_set_num_threads (threads);
  fx_generator_free (gen);
}

/* fx_tensor_conv2d_fused_max_pool against max_pool2d (conv2d_fused (...)): the same bits,
 * on the stem's path that pools rows as it makes them (ResNet's 3×3/2 pool of padding 1:
 * odd and even output sizes, a partial last vector, batch 2, one and two threads, NaN in
 * the input, a bias and no epilogue) and on the plain path (another pool, another conv). */
typedef struct {
  int64_t n, c, o, h, w, k, stride, pad;
  int64_t pool_k, pool_s, pool_p;
  gboolean bias, relu, epilogue, nan;
} PoolCase;

static void
check_pool_case (const PoolCase *tc, FxGenerator *gen)
{
  GError *error = NULL;
  int64_t xs[4] = { tc->n, tc->c, tc->h, tc->w }, ws[4] = { tc->o, tc->c, tc->k, tc->k };
  int64_t os[1] = { tc->o };
  g_autoptr (FxTensor) x = randn (gen, 4, xs);
  g_autoptr (FxTensor) w = randn (gen, 4, ws);
  g_autoptr (FxTensor) b = tc->bias ? randn (gen, 1, os) : NULL;
  if (tc->nan)
    {
      float *xd = fx_tensor_data (x);
      for (int64_t i = 0; i < fx_tensor_numel (x); i += 997)
        xd[i] = NAN;
    }
  FxConvParams p;
  fx_conv_params_init (&p);
  p.stride[0] = tc->stride;
  p.padding[0] = tc->pad;
  FxPoolParams pool;
  fx_pool_params_init (&pool, 1, &tc->pool_k);
  pool.n_stride = 1;
  pool.stride[0] = tc->pool_s;
  pool.padding[0] = tc->pool_p;
  g_autoptr (FxTensor) mean = randn (gen, 1, os), gamma = randn (gen, 1, os);
  g_autoptr (FxTensor) beta = randn (gen, 1, os), var0 = randn (gen, 1, os);
  g_autoptr (FxTensor) var = fx_tensor_unary (FX_UNARY_ABS, var0, 0, 0, &error);
  g_autofree float *coeffs = fx_batch_norm_eval_coeffs (mean, var, gamma, beta, 1e-5, tc->o);
  FxConvEpilogue ep = { .scale_shift = coeffs, .relu = tc->relu };
  const FxConvEpilogue *epp = tc->epilogue ? &ep : NULL;

  g_autoptr (FxTensor) conv = fx_tensor_conv2d_fused (x, w, b, &p, epp, &error);
  g_assert_no_error (error);
  g_autoptr (FxTensor) want = fx_tensor_max_pool2d (conv, &pool, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (FxTensor) got = fx_tensor_conv2d_fused_max_pool (x, w, b, &p, epp, &pool, &error);
  g_assert_no_error (error);
  assert_same_tensor (got, want);
}

static const PoolCase pool_cases[] = {
  { 1, 3, 64, 224, 224, 7, 2, 3, 3, 2, 1, FALSE, TRUE, TRUE, FALSE },   /* ResNet's stem */
  { 2, 3, 20, 54, 61, 7, 2, 3, 3, 2, 1, TRUE, TRUE, TRUE, FALSE },      /* odd rows, 27×31 */
  { 1, 3, 16, 40, 38, 7, 2, 3, 3, 2, 1, TRUE, FALSE, FALSE, FALSE },    /* no epilogue */
  { 1, 2, 8, 64, 33, 5, 2, 2, 3, 2, 1, FALSE, TRUE, TRUE, TRUE },       /* NaN */
  { 1, 3, 64, 64, 64, 7, 2, 3, 2, 2, 0, FALSE, TRUE, TRUE, FALSE },     /* another pool */
  { 1, 8, 16, 20, 20, 3, 1, 1, 3, 2, 1, TRUE, TRUE, TRUE, FALSE },      /* another conv */
};
static void
check_pool_case_i (guint i, FxGenerator *gen)
{
  check_pool_case (&pool_cases[i], gen);
}

static void
test_fused_max_pool (void)
{
  for_each_case_and_threads (G_N_ELEMENTS (pool_cases), check_pool_case_i, 11);
}

/* fx_tensor_conv2d_fused_pair against its definition, conv2d_fused (B) with conv2d_fused (A)
 * as the residual: the same bits, on the tiled path (ResNet-50's layer1.0 conv3 + downsample;
 * biases; a few tiles and a partial one; more channels than a tile's rows) and on the plain
 * path (a strided downsample: layer2.0's; 14×14: positions not in whole vectors; a 3×3 first
 * conv). */
typedef struct {
  int64_t ca, hw_a, cb, hw_b, stride_b, o, ka;
  gboolean bias, relu, pad;
} PairCase;

static void
check_pair_case (const PairCase *tc, FxGenerator *gen)
{
  GError *error = NULL;
  int64_t as[4] = { 1, tc->ca, tc->hw_a, tc->hw_a }, bs[4] = { 1, tc->cb, tc->hw_b, tc->hw_b };
  int64_t aws[4] = { tc->o, tc->ca, tc->ka, tc->ka }, bws[4] = { tc->o, tc->cb, 1, 1 };
  int64_t os[1] = { tc->o };
  g_autoptr (FxTensor) a = randn (gen, 4, as), b = randn (gen, 4, bs);
  g_autoptr (FxTensor) aw = randn (gen, 4, aws), bw = randn (gen, 4, bws);
  g_autoptr (FxTensor) ab = tc->bias ? randn (gen, 1, os) : NULL;
  g_autoptr (FxTensor) bb = tc->bias ? randn (gen, 1, os) : NULL;
  FxConvParams ap, bp;
  fx_conv_params_init (&ap);
  ap.padding[0] = tc->ka / 2;
  fx_conv_params_init (&bp);
  bp.stride[0] = tc->stride_b;
  g_autofree float *a_coeffs = g_new (float, 2 * tc->o), *b_coeffs = g_new (float, 2 * tc->o);
  for (int64_t i = 0; i < 2 * tc->o; i++)
    {
      a_coeffs[i] = (float) g_random_double_range (-2, 2);
      b_coeffs[i] = (float) g_random_double_range (-2, 2);
    }
  FxConvEpilogue a_ep = { .scale_shift = a_coeffs };
  FxConvEpilogue b_ep = { .scale_shift = b_coeffs, .relu = tc->relu, .pad_planes = tc->pad };
  g_autoptr (FxTensor) first = fx_tensor_conv2d_fused (a, aw, ab, &ap, &a_ep, &error);
  g_assert_no_error (error);
  FxConvEpilogue b_res = b_ep;
  b_res.residual = first;
  b_res.pad_planes = FALSE;
  g_autoptr (FxTensor) want = fx_tensor_conv2d_fused (b, bw, bb, &bp, &b_res, &error);
  g_assert_no_error (error);
  g_autoptr (FxTensor) got = fx_tensor_conv2d_fused_pair (a, aw, ab, &ap, &a_ep, b, bw, bb, &bp,
                                                          &b_ep, &error);
  g_assert_no_error (error);
  /* with pad_planes, planes that are not whole lines stay padded (the second conv's own
   * layout), the first output laid out to match */
  int64_t plane = got->shape[2] * got->shape[3];
  g_assert_cmpint (fx_conv_plane_stride (got), ==,
                   tc->pad && plane % 16 != 0 ? (plane + 15) / 16 * 16 : plane);
  g_autoptr (FxTensor) got_c = fx_tensor_contiguous (got);
  assert_same_tensor (got_c, want);
}

static const PairCase pair_cases[] = {
  { 64, 56, 64, 56, 1, 256, 1, FALSE, TRUE },     /* layer1.0 */
  { 128, 28, 256, 56, 2, 512, 1, FALSE, TRUE },   /* layer2.0: the downsample strided */
  { 8, 12, 16, 12, 1, 40, 1, TRUE, FALSE },       /* biases, no relu: one tile */
  { 24, 20, 24, 20, 1, 300, 1, TRUE, TRUE },      /* 300 channels: tiles of 96, a partial one */
  { 64, 14, 128, 28, 2, 96, 1, FALSE, TRUE },     /* 196 positions: plain path */
  { 64, 14, 128, 28, 2, 96, 1, TRUE, TRUE, TRUE },  /* ... with planes padded */
  { 64, 56, 64, 56, 1, 256, 1, FALSE, TRUE, TRUE }, /* padding allowed, not needed */
  { 8, 16, 8, 16, 1, 32, 3, FALSE, TRUE },        /* 3×3 first conv: plain path */
};
static void
check_pair_case_i (guint i, FxGenerator *gen)
{
  check_pair_case (&pair_cases[i], gen);
}

static void
test_fused_pair (void)
{
  for_each_case_and_threads (G_N_ELEMENTS (pair_cases), check_pair_case_i, 13);
}

static void
test_fused_null_epilogue (void)
{
  GError *error = NULL;
  FxGenerator *gen = fx_generator_new (3);
  int64_t xs[4] = { 1, 4, 8, 8 }, ws[4] = { 6, 4, 3, 3 };
  g_autoptr (FxTensor) x = randn (gen, 4, xs);
  g_autoptr (FxTensor) w = randn (gen, 4, ws);
  FxConvParams p;
  fx_conv_params_init (&p);
  g_autoptr (FxTensor) a = fx_tensor_conv2d (x, w, NULL, &p, &error);
  g_autoptr (FxTensor) b = fx_tensor_conv2d_fused (x, w, NULL, &p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (fx_tensor_data (a), fx_tensor_numel (a) * 4, fx_tensor_data (b),
                   fx_tensor_numel (b) * 4);
  fx_generator_free (gen);
}

/* A residual the epilogue cannot add as it is (broadcast, another dtype, not contiguous) is
 * refused with an error naming both sizes, on the kernels' path and on the separate pass. */
static void
test_fused_residual_refused (void)
{
  FxGenerator *gen = fx_generator_new (5);
  int64_t xs[4] = { 1, 4, 8, 8 }, ws[4] = { 6, 4, 3, 3 }, six = 6;
  int64_t small[4] = { 1, 6, 1, 1 }, full[4] = { 1, 6, 8, 8 }, wide[4] = { 1, 6, 8, 16 };
  g_autoptr (FxTensor) x = randn (gen, 4, xs);
  g_autoptr (FxTensor) w = randn (gen, 4, ws);
  g_autoptr (FxTensor) ones = fx_tensor_full (FX_DTYPE_FLOAT32, 1, &six, 1.0);
  g_autofree float *coeffs = fx_batch_norm_eval_coeffs (ones, ones, NULL, NULL, 1e-5, 6);
  g_autoptr (FxTensor) broadcast = randn (gen, 4, small);
  g_autoptr (FxTensor) f32 = randn (gen, 4, full);
  g_autoptr (FxTensor) f64 = fx_tensor_to_dtype (f32, FX_DTYPE_FLOAT64);
  g_autoptr (FxTensor) twice = randn (gen, 4, wide);
  g_autoptr (FxTensor) strided = fx_tensor_narrow (twice, 3, 0, 8, NULL);
  FxTensor *bad[] = { broadcast, f64, strided };
  FxConvParams p;
  fx_conv_params_init (&p);
  p.padding[0] = 1;
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    for (int separate = 0; separate < 2; separate++)
      {
        GError *error = NULL;
        FxConvEpilogue ep = { .scale_shift = coeffs, .residual = bad[i] };
        /* padding 'same' takes the separate pass */
        p.padding_mode = separate ? "same" : NULL;
        g_autoptr (FxTensor) y = fx_tensor_conv2d_fused (x, w, NULL, &p, &ep, &error);
        g_assert_null (y);
        g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
        g_assert_nonnull (strstr (error->message, "the output's size [1, 6, 8, 8]"));
        g_error_free (error);
      }
  fx_generator_free (gen);
}

/* x's values with each channel's plane padded to whole cache lines (P = H·W rounded up to
 * 16 floats), the padding NaN: a kernel that read it would spoil its outputs. x itself when
 * its planes are whole lines already. */
static FxTensor *
padded_planes (FxTensor *x)
{
  int64_t hw = x->shape[2] * x->shape[3], p = (hw + 15) / 16 * 16;
  if (p == hw)
    return fx_tensor_ref (x);
  int64_t total = x->shape[0] * x->shape[1] * p;
  int64_t strides[4] = { x->shape[1] * p, p, x->shape[3], 1 };
  g_autoptr (FxTensor) storage = fx_tensor_full (FX_DTYPE_FLOAT32, 1, &total, NAN);
  FxTensor *view = fx_tensor_as_strided (storage, 4, x->shape, strides, 0, NULL);
  g_assert_true (fx_tensor_copy_into (view, x, NULL));
  g_assert_cmpint (fx_conv_plane_stride (view), ==, p);
  return view;
}

static void
assert_same_values (FxTensor *got, FxTensor *want)
{
  g_autoptr (FxTensor) a = fx_tensor_contiguous (got), b = fx_tensor_contiguous (want);
  g_assert_cmpint (fx_tensor_numel (a), ==, fx_tensor_numel (b));
  g_assert_cmpmem (fx_tensor_data (a), fx_tensor_numel (a) * 4, fx_tensor_data (b),
                   fx_tensor_numel (b) * 4);
}

/* Planes padded to whole cache lines (FxConvEpilogue.pad_planes, fx_conv_plane_stride), on
 * each path that takes them: the same bits as contiguous tensors, whichever of the input, the
 * residual and the output is padded; the output padded only when asked for and its planes
 * are not whole lines, and laid out as the residual when there is one. */
static void
test_fused_padded_planes (void)
{
  static const Case shapes[] = {
    { 1, 256, 64, 14, 1, 1, 0, 1, FALSE, TRUE },    /* 1×1 direct: rows of 196 */
    { 1, 512, 96, 7, 1, 1, 0, 1, TRUE, TRUE },      /* 49 columns: dot-product column */
    { 2, 64, 32, 14, 1, 2, 0, 1, FALSE, FALSE },    /* strided 1×1, batch 2: 14 → 7 */
    { 1, 64, 64, 28, 3, 2, 1, 1, FALSE, TRUE },     /* strided 3×3 (im2col): 28 → 14 */
    { 1, 64, 64, 14, 3, 2, 1, 1, TRUE, TRUE },      /* strided 3×3: 14 → 7 */
    { 1, 96, 128, 14, 3, 2, 1, 1, TRUE, TRUE },     /* the same, halves of the channels */
    { 1, 256, 256, 14, 3, 1, 1, 1, FALSE, TRUE },   /* Winograd at 14×14 */
    { 1, 128, 128, 7, 3, 1, 1, 1, FALSE, TRUE },    /* Winograd at 7×7 */
    { 2, 32, 48, 10, 3, 1, 1, 2, TRUE, TRUE },      /* groups: im2col per group */
    { 1, 16, 16, 10, 3, 1, 1, 16, FALSE, TRUE },    /* depthwise: takes a contiguous copy */
    { 1, 3, 16, 34, 7, 2, 3, 1, FALSE, TRUE },      /* the stem's kernel: the same */
    { 1, 64, 64, 16, 1, 1, 0, 1, FALSE, TRUE },     /* whole lines already: never padded */
  };
  FxGenerator *gen = fx_generator_new (11);
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (int with_residual = 0; with_residual < 2; with_residual++)
      {
        const Case *tc = &shapes[i];
        GError *error = NULL;
        int64_t os[1] = { tc->o };
        g_autoptr (FxTensor) x = NULL, w = NULL, b = NULL;
        FxConvParams p;
        case_inputs (tc, gen, &x, &w, &b, &p);
        g_autoptr (FxTensor) shift = randn (gen, 1, os);
        g_autoptr (FxTensor) ones = fx_tensor_full (FX_DTYPE_FLOAT32, 1, os, 1.0);
        g_autofree float *coeffs = fx_batch_norm_eval_coeffs (shift, ones, NULL, shift, 1e-5,
                                                              tc->o);
        int64_t oh = (tc->hw + 2 * tc->pad - tc->k) / tc->stride + 1;
        int64_t out_shape[4] = { tc->n, tc->o, oh, oh };
        int64_t plane = oh * oh, padded = (plane + 15) / 16 * 16;
        g_autoptr (FxTensor) res = with_residual ? randn (gen, 4, out_shape) : NULL;
        g_autoptr (FxTensor) res_padded = res ? padded_planes (res) : NULL;
        g_autoptr (FxTensor) x_padded = padded_planes (x);

        FxConvEpilogue ep = { .scale_shift = coeffs, .relu = tc->relu, .residual = res };
        g_autoptr (FxTensor) want = fx_tensor_conv2d_fused (x, w, b, &p, &ep, &error);
        g_assert_no_error (error);
        g_assert_true (fx_tensor_is_contiguous (want));

        /* padded input, residual and output */
        FxConvEpilogue pad_ep = ep;
        pad_ep.residual = res_padded;
        pad_ep.pad_planes = TRUE;
        g_autoptr (FxTensor) got = fx_tensor_conv2d_fused (x_padded, w, b, &p, &pad_ep, &error);
        g_assert_no_error (error);
        gboolean stem_or_depthwise = tc->k == 7 || tc->groups == tc->c;
        g_assert_cmpint (fx_conv_plane_stride (got), ==, stem_or_depthwise ? plane : padded);
        assert_same_values (got, want);

        /* asked to pad, but the residual is contiguous: the output follows it */
        if (res != NULL)
          {
            FxConvEpilogue follow = ep;
            follow.pad_planes = TRUE;
            g_autoptr (FxTensor) y = fx_tensor_conv2d_fused (x_padded, w, b, &p, &follow, &error);
            g_assert_no_error (error);
            g_assert_true (fx_tensor_is_contiguous (y));
            assert_same_values (y, want);
          }

        /* not asked to pad: a contiguous output, the padded residual read through a copy, on
         * the kernels' path and on the separate pass ('same' padding) */
        FxConvEpilogue plain = pad_ep;
        plain.pad_planes = FALSE;
        g_autoptr (FxTensor) y = fx_tensor_conv2d_fused (x_padded, w, b, &p, &plain, &error);
        g_assert_no_error (error);
        g_assert_true (fx_tensor_is_contiguous (y));
        assert_same_values (y, want);
        if (tc->stride == 1 && tc->k == 2 * tc->pad + 1)
          {
            FxConvParams same = p;
            same.padding_mode = "same";
            g_autoptr (FxTensor) z = fx_tensor_conv2d_fused (x_padded, w, b, &same, &plain, &error);
            g_assert_no_error (error);
            assert_same_values (z, want);
          }

        /* conv2d itself reads a padded input as it is */
        g_autoptr (FxTensor) c1 = fx_tensor_conv2d (x, w, b, &p, &error);
        g_autoptr (FxTensor) c2 = fx_tensor_conv2d (x_padded, w, b, &p, &error);
        g_assert_no_error (error);
        assert_same_values (c2, c1);
      }
  fx_generator_free (gen);
}

/* fx_batch_norm_eval_coeffs: (w / sqrt(var + eps), b - mean · w / sqrt(var + eps)) per
 * channel in double, rounded to float32, interleaved; weight and bias may be absent, a
 * variance below -eps gives NaN; the same bits for plain tensors (read 8 channels at a time)
 * and strided ones. */
static void
test_bn_coeffs (void)
{
  static const int64_t counts[] = { 1, 7, 8, 37, 2048 };
  FxGenerator *gen = fx_generator_new (17);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    for (int affine = 0; affine < 2; affine++)
      for (int strided = 0; strided < 2; strided++)
        {
          int64_t C = counts[i], twice = 2 * C;
          g_autoptr (FxTensor) mean = randn (gen, 1, &C), w = randn (gen, 1, &C);
          g_autoptr (FxTensor) b = randn (gen, 1, &C), var_wide = randn (gen, 1, &twice);
          g_autoptr (FxTensor) var = strided ? fx_tensor_slice (var_wide, 0, 0, twice, 2, NULL)
                                             : fx_tensor_narrow (var_wide, 0, 0, C, NULL);
          const double eps = 1e-5;
          g_autofree float *got = fx_batch_norm_eval_coeffs (mean, var, affine ? w : NULL,
                                                             affine ? b : NULL, eps, C);
          g_autofree float *want = g_new (float, 2 * C);
          const float *vd = fx_tensor_data (var_wide), *md = fx_tensor_data (mean);
          const float *wd = fx_tensor_data (w), *bd = fx_tensor_data (b);
          for (int64_t ch = 0; ch < C; ch++)
            {
              double wv = affine ? wd[ch] : 1.0, bv = affine ? bd[ch] : 0.0;
              double invstd = 1.0 / sqrt (vd[strided ? 2 * ch : ch] + eps);
              want[2 * ch] = (float) (wv * invstd);
              want[2 * ch + 1] = (float) (bv - md[ch] * wv * invstd);
            }
          g_assert_cmpmem (got, 2 * C * sizeof (float), want, 2 * C * sizeof (float));
        }
  fx_generator_free (gen);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/conv-fused/matches-sequence", test_fused_matches_sequence);
  g_test_add_func ("/conv-fused/null-epilogue", test_fused_null_epilogue);
  g_test_add_func ("/conv-fused/max-pool", test_fused_max_pool);
  g_test_add_func ("/conv-fused/pair", test_fused_pair);
  g_test_add_func ("/conv-fused/residual-refused", test_fused_residual_refused);
  g_test_add_func ("/conv-fused/padded-planes", test_fused_padded_planes);
  g_test_add_func ("/conv-fused/bn-coeffs", test_bn_coeffs);
  return g_test_run ();
}
