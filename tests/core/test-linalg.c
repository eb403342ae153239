/* test-linalg.c: matrix products against plain double-precision loops, on sizes and layouts
 * the golden cases do not reach (BLAS blocking, packed non-BLAS strides, broadcast batches,
 * several threads), plus the NaN rules of beta == 0 and the error codes. */
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
    case FX_DTYPE_INT32:   *(int32_t *) p = (int32_t) v; break;
    case FX_DTYPE_INT16:   *(int16_t *) p = (int16_t) v; break;
    case FX_DTYPE_INT8:    *(int8_t *) p = (int8_t) v; break;
    case FX_DTYPE_UINT8:   *(uint8_t *) p = (uint8_t) v; break;
    default: g_assert_not_reached ();
    }
}

static FxTensor *
rand_tensor (FxDType dtype, int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_new_uninit (dtype, ndim, shape);
  int64_t n = fx_tensor_numel (t);
  for (int64_t i = 0; i < n; i++)
    set_flat (t, i, fx_dtype_is_floating (dtype) ? g_test_rand_double_range (-1, 1)
                                                 : (double) g_test_rand_int_range (-4, 5));
  return t;
}

/* Element (row-major multi-index) of any view, as a double. */
static double
at (const FxTensor *t, const int64_t *idx)
{
  int64_t flat = 0;
  for (int i = 0; i < t->ndim; i++)
    flat = flat * t->shape[i] + idx[i];
  return fx_tensor_get_double (t, flat);
}

/* Reference matmul for a [..., m, k] @ b [..., k, n] (both at least 2-D here), broadcasting
 * batch dims, compared with got. */
static void
check_batched (FxTensor *a, FxTensor *b, FxTensor *got, double tol)
{
  int nb = got->ndim - 2;
  int64_t m = got->shape[nb], n = got->shape[nb + 1], k = a->shape[a->ndim - 1];
  int64_t total = fx_tensor_numel (got);
  for (int64_t flat = 0; flat < total; flat++)
    {
      int64_t idx[FX_TENSOR_MAX_DIMS], rem = flat;
      for (int i = got->ndim - 1; i >= 0; i--)
        {
          idx[i] = rem % got->shape[i];
          rem /= got->shape[i];
        }
      double acc = 0;
      for (int64_t p = 0; p < k; p++)
        {
          int64_t ia[FX_TENSOR_MAX_DIMS], ib[FX_TENSOR_MAX_DIMS];
          for (int i = 0; i < a->ndim - 2; i++)
            {
              int gi = i + nb - (a->ndim - 2);
              ia[i] = a->shape[i] == 1 ? 0 : idx[gi];
            }
          for (int i = 0; i < b->ndim - 2; i++)
            {
              int gi = i + nb - (b->ndim - 2);
              ib[i] = b->shape[i] == 1 ? 0 : idx[gi];
            }
          ia[a->ndim - 2] = idx[nb];
          ia[a->ndim - 1] = p;
          ib[b->ndim - 2] = p;
          ib[b->ndim - 1] = idx[nb + 1];
          acc += at (a, ia) * at (b, ib);
        }
      double v = fx_tensor_get_double (got, flat);
      if (fabs (v - acc) > tol * (1 + fabs (acc)))
        g_error ("element %" G_GINT64_FORMAT ": got %g, want %g (m=%" G_GINT64_FORMAT
                 " n=%" G_GINT64_FORMAT ")", flat, v, acc, m, n);
    }
}

static double
tol_for (FxDType dt)
{
  return dt == FX_DTYPE_FLOAT32 ? 1e-4 : dt == FX_DTYPE_FLOAT64 ? 1e-10 : 0;
}

static void
test_mm_sizes (void)
{
  static const int64_t sizes[][3] = {
    { 1, 1, 1 }, { 67, 45, 33 }, { 1, 300, 7 }, { 300, 1, 7 }, { 130, 129, 1 }, { 5, 200, 257 },
  };
  FxDType dts[] = { FX_DTYPE_FLOAT32, FX_DTYPE_FLOAT64, FX_DTYPE_INT64, FX_DTYPE_INT32 };
  for (guint d = 0; d < G_N_ELEMENTS (dts); d++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        int64_t as[2] = { sizes[s][0], sizes[s][2] }, bs[2] = { sizes[s][2], sizes[s][1] };
        g_autoptr (FxTensor) a = rand_tensor (dts[d], 2, as);
        g_autoptr (FxTensor) b = rand_tensor (dts[d], 2, bs);
        g_autoptr (FxTensor) r = fx_tensor_mm (a, b, NULL);
        g_assert_nonnull (r);
        g_assert_cmpint (r->dtype, ==, dts[d]);
        check_batched (a, b, r, tol_for (dts[d]));
      }
}

/* Layouts: transposed (BLAS "T"), sliced with step 2 in both dims (not a BLAS matrix: packed),
 * expanded (stride 0). */
static void
test_mm_layouts (void)
{
  int64_t big[2] = { 40, 50 };
  g_autoptr (FxTensor) base = rand_tensor (FX_DTYPE_FLOAT32, 2, big);
  g_autoptr (FxTensor) t = fx_tensor_t (base, NULL);                    /* 50×40, T layout */
  g_autoptr (FxTensor) s1 = fx_tensor_slice (base, 0, 0, 40, 2, NULL);   /* 20×50 */
  g_autoptr (FxTensor) s2 = fx_tensor_slice (s1, 1, 0, 50, 2, NULL);     /* 20×25, strides 100,2 */
  int64_t rowshape[2] = { 1, 40 }, exp_shape[2] = { 25, 40 };
  g_autoptr (FxTensor) row = rand_tensor (FX_DTYPE_FLOAT32, 2, rowshape);
  g_autoptr (FxTensor) expd = fx_tensor_expand (row, 2, exp_shape, NULL);   /* 25×40, rs 0 */

  g_autoptr (FxTensor) r1 = fx_tensor_mm (t, base, NULL);       /* 50×40 @ 40×50 */
  check_batched (t, base, r1, 1e-4);
  g_autoptr (FxTensor) r2 = fx_tensor_mm (s2, expd, NULL);      /* 20×25 @ 25×40 */
  check_batched (s2, expd, r2, 1e-4);
  g_autoptr (FxTensor) s2t = fx_tensor_t (s2, NULL);
  g_autoptr (FxTensor) r3 = fx_tensor_mm (expd, s2t, NULL);     /* 25×40 @ ... shapes */
  g_assert_null (r3);   /* 25x40 and 25x20: mismatch */
  g_autoptr (FxTensor) et = fx_tensor_t (expd, NULL);           /* 40×25, cs 0 */
  g_autoptr (FxTensor) r4 = fx_tensor_mm (s2t, s2, NULL);       /* 25×20 @ 20×25 */
  check_batched (s2t, s2, r4, 1e-4);
  g_autoptr (FxTensor) r5 = fx_tensor_mm (et, s2t, NULL);       /* 40×25 @ 25×20 */
  check_batched (et, s2t, r5, 1e-4);
}

static void
test_matmul_broadcast (void)
{
  struct { int na; int64_t a[4]; int nb; int64_t b[4]; } cases[] = {
    { 4, { 3, 1, 17, 9 }, 3, { 5, 9, 13 } },
    { 3, { 1, 6, 8 }, 3, { 4, 8, 5 } },
    { 3, { 4, 6, 8 }, 2, { 8, 5 } },       /* folded into one gemm */
    { 2, { 6, 8 }, 4, { 2, 3, 8, 5 } },    /* folded, transposed side */
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int dt = 0; dt < 2; dt++)
      {
        FxDType d = dt ? FX_DTYPE_FLOAT64 : FX_DTYPE_FLOAT32;
        g_autoptr (FxTensor) a = rand_tensor (d, cases[c].na, cases[c].a);
        g_autoptr (FxTensor) b = rand_tensor (d, cases[c].nb, cases[c].b);
        g_autoptr (FxTensor) r = fx_tensor_matmul (a, b, NULL);
        g_assert_nonnull (r);
        check_batched (a, b, r, tol_for (d));
      }
  /* non-contiguous batch dims that do not fold: a transposed [6, 4, 8] viewed as [4, 6, 8] */
  int64_t s[3] = { 6, 4, 8 }, w[2] = { 8, 3 };
  g_autoptr (FxTensor) base = rand_tensor (FX_DTYPE_FLOAT32, 3, s);
  g_autoptr (FxTensor) a = fx_tensor_transpose (base, 0, 1, NULL);
  g_autoptr (FxTensor) b = rand_tensor (FX_DTYPE_FLOAT32, 2, w);
  g_autoptr (FxTensor) r = fx_tensor_matmul (a, b, NULL);
  check_batched (a, b, r, 1e-4);
}

/* 1-D operands: the vector becomes a row (left) or a column (right). */
static void
test_matmul_vectors (void)
{
  int64_t vs[1] = { 9 }, ms[3] = { 2, 9, 4 }, ls[3] = { 3, 5, 9 };
  g_autoptr (FxTensor) v = rand_tensor (FX_DTYPE_FLOAT64, 1, vs);
  g_autoptr (FxTensor) m = rand_tensor (FX_DTYPE_FLOAT64, 3, ms);
  g_autoptr (FxTensor) l = rand_tensor (FX_DTYPE_FLOAT64, 3, ls);
  g_autoptr (FxTensor) r1 = fx_tensor_matmul (v, m, NULL);   /* [2, 4] */
  g_autoptr (FxTensor) r2 = fx_tensor_matmul (l, v, NULL);   /* [3, 5] */
  g_assert_cmpint (r1->ndim, ==, 2);
  g_assert_cmpint (r1->shape[0], ==, 2);
  g_assert_cmpint (r1->shape[1], ==, 4);
  g_assert_cmpint (r2->ndim, ==, 2);
  g_assert_cmpint (r2->shape[1], ==, 5);
  for (int bi = 0; bi < 2; bi++)
    for (int j = 0; j < 4; j++)
      {
        double acc = 0;
        for (int p = 0; p < 9; p++)
          acc += fx_tensor_get_double (v, p) * fx_tensor_get_double (m, (bi * 9 + p) * 4 + j);
        g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (r1, bi * 4 + j), acc, 1e-12);
      }
  for (int bi = 0; bi < 3; bi++)
    for (int i = 0; i < 5; i++)
      {
        double acc = 0;
        for (int p = 0; p < 9; p++)
          acc += fx_tensor_get_double (l, (bi * 5 + i) * 9 + p) * fx_tensor_get_double (v, p);
        g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (r2, bi * 5 + i), acc, 1e-12);
      }
  g_autoptr (FxTensor) d = fx_tensor_matmul (v, v, NULL);
  g_assert_cmpint (d->ndim, ==, 0);
}

/* beta == 0 ignores NaN in the addend (PyTorch documents it; its baddbmm does not always
 * honour it, so the goldens cannot pin it down); NaN in the factors propagates. */
static void
test_beta_zero_nan (void)
{
  int64_t s3[3] = { 3, 4, 5 }, a3[3] = { 3, 4, 6 }, b3[3] = { 3, 6, 5 };
  g_autoptr (FxTensor) nan3 = fx_tensor_full (FX_DTYPE_FLOAT32, 3, s3, NAN);
  g_autoptr (FxTensor) a = rand_tensor (FX_DTYPE_FLOAT32, 3, a3);
  g_autoptr (FxTensor) b = rand_tensor (FX_DTYPE_FLOAT32, 3, b3);
  g_autoptr (FxTensor) r = fx_tensor_baddbmm (nan3, a, b, 0, 1, NULL);
  for (int64_t i = 0; i < fx_tensor_numel (r); i++)
    g_assert_false (isnan (fx_tensor_get_double (r, i)));
  g_autoptr (FxTensor) plain = fx_tensor_bmm (a, b, NULL);
  for (int64_t i = 0; i < fx_tensor_numel (r); i++)
    g_assert_cmpfloat (fx_tensor_get_double (r, i), ==, fx_tensor_get_double (plain, i));

  int64_t s2[2] = { 4, 5 };
  g_autoptr (FxTensor) nan2 = fx_tensor_full (FX_DTYPE_FLOAT64, 2, s2, NAN);
  g_autoptr (FxTensor) a2 = fx_tensor_ones (FX_DTYPE_FLOAT64, 2, (int64_t[]) { 4, 3 });
  g_autoptr (FxTensor) b2 = fx_tensor_ones (FX_DTYPE_FLOAT64, 2, (int64_t[]) { 3, 5 });
  g_autoptr (FxTensor) r2 = fx_tensor_addmm (nan2, a2, b2, 0, 2, NULL);
  for (int64_t i = 0; i < 20; i++)
    g_assert_cmpfloat (fx_tensor_get_double (r2, i), ==, 6.0);
  g_autoptr (FxTensor) r3 = fx_tensor_addmm (a2, nan2, b2, 1, 1, NULL);   /* 4x5 @ 3x5 */
  g_assert_null (r3);
  g_autoptr (FxTensor) nanm = fx_tensor_full (FX_DTYPE_FLOAT64, 2, (int64_t[]) { 4, 3 }, NAN);
  g_autoptr (FxTensor) r4 = fx_tensor_addmm (nan2, nanm, b2, 0, 1, NULL);
  g_assert_true (isnan (fx_tensor_get_double (r4, 0)));
}

static void
test_linear (void)
{
  int64_t xs[3] = { 4, 7, 12 }, ws[2] = { 9, 12 }, bs[1] = { 9 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT32, 3, xs);
  g_autoptr (FxTensor) w = rand_tensor (FX_DTYPE_FLOAT32, 2, ws);
  g_autoptr (FxTensor) bias = rand_tensor (FX_DTYPE_FLOAT32, 1, bs);
  g_autoptr (FxTensor) xt = fx_tensor_transpose (x, 0, 1, NULL);   /* [7, 4, 12] */
  FxTensor *inputs[2] = { x, xt };
  for (int i = 0; i < 2; i++)
    {
      FxTensor *in = inputs[i];
      g_autoptr (FxTensor) y = fx_tensor_linear (in, w, bias, NULL);
      g_assert_nonnull (y);
      g_assert_cmpint (y->ndim, ==, 3);
      g_assert_cmpint (y->shape[2], ==, 9);
      for (int64_t a = 0; a < in->shape[0]; a++)
        for (int64_t b = 0; b < in->shape[1]; b++)
          for (int64_t o = 0; o < 9; o++)
            {
              double acc = fx_tensor_get_double (bias, o);
              for (int64_t p = 0; p < 12; p++)
                acc += at (in, (int64_t[]) { a, b, p }) * at (w, (int64_t[]) { o, p });
              g_assert_cmpfloat_with_epsilon (at (y, (int64_t[]) { a, b, o }), acc, 1e-4);
            }
    }
}

/* Integers wrap like PyTorch's (int8: 100*100 + 100*100 = 20000 ≡ 32). */
static void
test_int_wrap (void)
{
  int8_t av[2] = { 100, 100 };
  g_autoptr (FxTensor) a = fx_tensor_new_from_data (FX_DTYPE_INT8, 1, (int64_t[]) { 2 }, av);
  g_autoptr (FxTensor) d = fx_tensor_dot (a, a, NULL);
  g_assert_cmpint (fx_tensor_get_int64 (d, 0), ==, 32);
  int64_t big[2] = { INT64_MAX, 2 };
  g_autoptr (FxTensor) b = fx_tensor_new_from_data (FX_DTYPE_INT64, 1, (int64_t[]) { 2 }, big);
  g_autoptr (FxTensor) d2 = fx_tensor_dot (b, b, NULL);   /* wraps, no UB */
  g_assert_nonnull (d2);
}

static void
test_empty (void)
{
  g_autoptr (FxTensor) a = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, (int64_t[]) { 0, 3 });
  g_autoptr (FxTensor) b = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, (int64_t[]) { 3, 4 });
  g_autoptr (FxTensor) r = fx_tensor_mm (a, b, NULL);
  g_assert_cmpint (r->shape[0], ==, 0);
  g_assert_cmpint (r->shape[1], ==, 4);
  g_autoptr (FxTensor) k0a = fx_tensor_zeros (FX_DTYPE_INT64, 3, (int64_t[]) { 2, 3, 0 });
  g_autoptr (FxTensor) k0b = fx_tensor_zeros (FX_DTYPE_INT64, 3, (int64_t[]) { 2, 0, 4 });
  g_autoptr (FxTensor) self = fx_tensor_full (FX_DTYPE_INT64, 1, (int64_t[]) { 4 }, 5);
  g_autoptr (FxTensor) r2 = fx_tensor_baddbmm (self, k0a, k0b, 3, 1, NULL);
  g_assert_nonnull (r2);
  for (int i = 0; i < 24; i++)
    g_assert_cmpint (fx_tensor_get_int64 (r2, i), ==, 15);
}

static void
test_error_codes (void)
{
  g_autoptr (FxTensor) v = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, (int64_t[]) { 3 });
  g_autoptr (FxTensor) m = fx_tensor_ones (FX_DTYPE_FLOAT32, 2, (int64_t[]) { 2, 3 });
  g_autoptr (FxTensor) md = fx_tensor_ones (FX_DTYPE_FLOAT64, 2, (int64_t[]) { 3, 3 });
  g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1);
  GError *error = NULL;
  g_assert_null (fx_tensor_mm (v, m, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (fx_tensor_mm (m, md, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "expected scalar type Float but found Double");
  g_clear_error (&error);
  g_assert_null (fx_tensor_mv (s, v, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (fx_tensor_baddbmm (m, m, m, 1, 1, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (fx_tensor_matmul (s, v, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_clear_error (&error);
}

/* The same product on one and two threads (OpenBLAS splits differently, results agree). */
static void
test_threads (void)
{
  int64_t as[2] = { 150, 170 }, bs[2] = { 170, 190 };
  g_autoptr (FxTensor) a = rand_tensor (FX_DTYPE_FLOAT64, 2, as);
  g_autoptr (FxTensor) b = rand_tensor (FX_DTYPE_FLOAT64, 2, bs);
  fx_blas_set_num_threads (1);
  g_autoptr (FxTensor) r1 = fx_tensor_mm (a, b, NULL);
  fx_blas_set_num_threads (2);
  g_autoptr (FxTensor) r2 = fx_tensor_mm (a, b, NULL);
  fx_blas_set_num_threads (0);
  for (int64_t i = 0; i < fx_tensor_numel (r1); i++)
    g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (r1, i),
                                    fx_tensor_get_double (r2, i), 1e-11);

  /* many small products: side by side on libfx's threads, broadcast operand included */
  int64_t xs[4] = { 3, 24, 40, 36 }, ys[3] = { 24, 36, 40 };
  g_autoptr (FxTensor) x = rand_tensor (FX_DTYPE_FLOAT32, 4, xs);
  g_autoptr (FxTensor) y = rand_tensor (FX_DTYPE_FLOAT32, 3, ys);
  for (int threads = 1; threads <= 2; threads++)
    {
      fx_blas_set_num_threads (threads);
      g_autoptr (FxTensor) r = fx_tensor_matmul (x, y, NULL);
      check_batched (x, y, r, 1e-4);
    }
  fx_blas_set_num_threads (0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/linalg/mm-sizes", test_mm_sizes);
  g_test_add_func ("/linalg/mm-layouts", test_mm_layouts);
  g_test_add_func ("/linalg/matmul-broadcast", test_matmul_broadcast);
  g_test_add_func ("/linalg/matmul-vectors", test_matmul_vectors);
  g_test_add_func ("/linalg/beta-zero-nan", test_beta_zero_nan);
  g_test_add_func ("/linalg/linear", test_linear);
  g_test_add_func ("/linalg/int-wrap", test_int_wrap);
  g_test_add_func ("/linalg/empty", test_empty);
  g_test_add_func ("/linalg/error-codes", test_error_codes);
  g_test_add_func ("/linalg/threads", test_threads);
  return g_test_run ();
}
