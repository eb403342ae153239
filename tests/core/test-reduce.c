/* test-reduce.c: direct tests of core/tensor/reduce.c — the fast paths (last dim, outer dims)
 * against the general strided path and a double-precision reference on large random tensors,
 * float32 summation accuracy, tie-breaking and NaN handling of max/argmax/sort/topk, and the
 * edge cases (0-d, empty, errors) that the golden cases only sample. */
#include "fx.h"
#include "tensor/reduce.h"

#include <math.h>
#include <string.h>

/* ---- helpers ---- */

static FxTensor *
random_f32 (GRand *rng, int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, ndim, shape);
  float *d = fx_tensor_data (t);
  for (int64_t i = 0; i < fx_tensor_numel (t); i++)
    d[i] = (float) g_rand_double_range (rng, -2.0, 2.0);
  return t;
}

static FxTensor *
from_doubles (FxDType dtype, int ndim, const int64_t *shape, const double *v)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  FxTensor *t = fx_tensor_new_uninit (FX_DTYPE_FLOAT64, ndim, shape);
  memcpy (fx_tensor_data (t), v, n * sizeof (double));
  FxTensor *r = fx_tensor_to_dtype (t, dtype);
  fx_tensor_unref (t);
  return r;
}

/* The same logical 2-d tensor stored transposed: a non-contiguous view (general path). */
static FxTensor *
transposed_copy (FxTensor *a)
{
  FxTensor *at = fx_tensor_transpose (a, 0, 1, NULL);
  FxTensor *c = fx_tensor_clone (at);
  FxTensor *v = fx_tensor_transpose (c, 0, 1, NULL);
  fx_tensor_unref (at);
  fx_tensor_unref (c);
  g_assert_false (fx_tensor_is_contiguous (v));
  return v;
}

static void
assert_close (FxTensor *got, FxTensor *want, double rtol, double atol)
{
  g_assert_nonnull (got);
  g_assert_nonnull (want);
  g_assert_cmpint (got->dtype, ==, want->dtype);
  g_assert_true (fx_tensor_same_shape (got, want));
  for (int64_t i = 0; i < fx_tensor_numel (want); i++)
    {
      double g = fx_tensor_get_double (got, i), w = fx_tensor_get_double (want, i);
      if (isnan (w))
        g_assert_true (isnan (g));
      else if (fabs (g - w) > atol + rtol * fabs (w))
        g_error ("element %" G_GINT64_FORMAT ": %.9g, expected %.9g", i, g, w);
    }
}

static void
assert_equal_ints (FxTensor *got, const int64_t *want, int64_t n)
{
  g_assert_nonnull (got);
  g_assert_cmpint (fx_tensor_numel (got), ==, n);
  for (int64_t i = 0; i < n; i++)
    g_assert_cmpint (fx_tensor_get_int64 (got, i), ==, want[i]);
}

/* ---- fast paths agree with the general path and a reference ---- */

/* Sum of a [m, n] float32 tensor along dim, in long double, as a float64 tensor. */
static FxTensor *
reference_sum (FxTensor *a, int dim)
{
  int64_t m = a->shape[0], n = a->shape[1];
  int64_t shape[1] = { dim == 0 ? n : m };
  FxTensor *r = fx_tensor_zeros (FX_DTYPE_FLOAT64, 1, shape);
  double *d = fx_tensor_data (r);
  for (int64_t o = 0; o < shape[0]; o++)
    {
      long double s = 0;
      for (int64_t k = 0; k < (dim == 0 ? m : n); k++)
        s += fx_tensor_get_double (a, dim == 0 ? k * n + o : o * n + k);
      d[o] = (double) s;
    }
  return r;
}

static void
check_sum_paths (GRand *rng, int64_t rows, int64_t cols)
{
  int64_t shape[2] = { rows, cols };
  FxTensor *a = random_f32 (rng, 2, shape);
  FxTensor *b = transposed_copy (a);

  for (int dim = 0; dim < 2; dim++)
    {
      int64_t d = dim;
      FxTensor *fast = fx_tensor_sum (a, &d, 1, FALSE, FX_DTYPE_N, NULL);
      FxTensor *slow = fx_tensor_sum (b, &d, 1, FALSE, FX_DTYPE_N, NULL);
      FxTensor *ref64 = reference_sum (a, dim);
      FxTensor *ref = fx_tensor_to_dtype (ref64, FX_DTYPE_FLOAT32);
      assert_close (fast, ref, 1e-6, 1e-6);
      assert_close (slow, ref, 1e-6, 1e-6);
      assert_close (fast, slow, 1e-6, 1e-6);

      /* mean, var, norm, logsumexp and the extrema through both layouts */
      FxTensor *m1 = fx_tensor_mean (a, &d, 1, TRUE, FX_DTYPE_N, NULL);
      FxTensor *m2 = fx_tensor_mean (b, &d, 1, TRUE, FX_DTYPE_N, NULL);
      assert_close (m1, m2, 1e-6, 1e-7);
      FxTensor *v1 = fx_tensor_var (a, &d, 1, 1.0, FALSE, NULL);
      FxTensor *v2 = fx_tensor_var (b, &d, 1, 1.0, FALSE, NULL);
      assert_close (v1, v2, 1e-6, 1e-7);
      FxTensor *n1 = fx_tensor_norm (a, 3.0, &d, 1, FALSE, FX_DTYPE_N, NULL);
      FxTensor *n2 = fx_tensor_norm (b, 3.0, &d, 1, FALSE, FX_DTYPE_N, NULL);
      assert_close (n1, n2, 1e-6, 1e-7);
      FxTensor *l1 = fx_tensor_logsumexp (a, &d, 1, FALSE, NULL);
      FxTensor *l2 = fx_tensor_logsumexp (b, &d, 1, FALSE, NULL);
      assert_close (l1, l2, 1e-6, 1e-7);
      FxTensor *v, *i, *v2b, *i2;
      g_assert_true (fx_tensor_max_dim (a, dim, FALSE, &v, &i, NULL));
      g_assert_true (fx_tensor_max_dim (b, dim, FALSE, &v2b, &i2, NULL));
      assert_close (v, v2b, 0, 0);
      assert_close (i, i2, 0, 0);
      for (int64_t o = 0; o < fx_tensor_numel (i); o++)
        {
          int64_t k = fx_tensor_get_int64 (i, o);
          int64_t flat = dim == 0 ? k * shape[1] + o : o * shape[1] + k;
          g_assert_cmpfloat (fx_tensor_get_double (a, flat), ==, fx_tensor_get_double (v, o));
        }
      FxTensor *sm1 = fx_tensor_softmax (a, dim, FX_DTYPE_N, NULL);
      FxTensor *sm2 = fx_tensor_softmax (b, dim, FX_DTYPE_N, NULL);
      assert_close (sm1, sm2, 1e-6, 1e-9);
      FxTensor *cs1 = fx_tensor_cumsum (a, dim, FX_DTYPE_N, NULL);
      FxTensor *cs2 = fx_tensor_cumsum (b, dim, FX_DTYPE_N, NULL);
      assert_close (cs1, cs2, 0, 0);

      FxTensor *all[] = { fast, slow, ref64, ref, m1, m2, v1, v2, n1, n2, l1, l2, v, i, v2b, i2,
                          sm1, sm2, cs1, cs2 };
      for (guint k = 0; k < G_N_ELEMENTS (all); k++)
        fx_tensor_unref (all[k]);
    }
  fx_tensor_unref (a);
  fx_tensor_unref (b);
}

static void
test_sum_paths (void)
{
  GRand *rng = g_rand_new_with_seed (1);
  check_sum_paths (rng, 193, 517);
  check_sum_paths (rng, 5, 4500);     /* column reductions span several lane chunks */
  g_rand_free (rng);
}

/* Reducing several dims of a permuted 4-d tensor: the plan coalesces what it can. */
static void
test_multi_dim_layouts (void)
{
  GRand *rng = g_rand_new_with_seed (2);
  int64_t shape[4] = { 6, 7, 8, 9 };
  FxTensor *a = random_f32 (rng, 4, shape);
  int perm[4] = { 2, 0, 3, 1 };
  FxTensor *p = fx_tensor_permute (a, 4, perm, NULL);    /* shape 8, 6, 9, 7 */
  FxTensor *pc = fx_tensor_clone (p);                     /* same values, contiguous */
  const int64_t dim_sets[][2] = { { 0, 2 }, { 1, 3 }, { -1, 0 }, { 1, 2 } };

  for (guint s = 0; s < G_N_ELEMENTS (dim_sets); s++)
    {
      for (int keep = 0; keep < 2; keep++)
        {
          FxTensor *r1 = fx_tensor_sum (p, dim_sets[s], 2, keep, FX_DTYPE_N, NULL);
          FxTensor *r2 = fx_tensor_sum (pc, dim_sets[s], 2, keep, FX_DTYPE_N, NULL);
          assert_close (r1, r2, 1e-6, 1e-6);
          fx_tensor_unref (r1);
          fx_tensor_unref (r2);
          r1 = fx_tensor_amin (p, dim_sets[s], 2, keep, NULL);
          r2 = fx_tensor_amin (pc, dim_sets[s], 2, keep, NULL);
          assert_close (r1, r2, 0, 0);
          fx_tensor_unref (r1);
          fx_tensor_unref (r2);
          r1 = fx_tensor_std (p, dim_sets[s], 2, 0.0, keep, NULL);
          r2 = fx_tensor_std (pc, dim_sets[s], 2, 0.0, keep, NULL);
          assert_close (r1, r2, 1e-6, 1e-7);
          fx_tensor_unref (r1);
          fx_tensor_unref (r2);
        }
    }
  /* sort and topk along a strided dim */
  for (int dim = 0; dim < 4; dim++)
    {
      FxTensor *v1, *i1, *v2, *i2;
      g_assert_true (fx_tensor_sort (p, dim, dim & 1, FALSE, &v1, &i1, NULL));
      g_assert_true (fx_tensor_sort (pc, dim, dim & 1, FALSE, &v2, &i2, NULL));
      assert_close (v1, v2, 0, 0);
      assert_close (i1, i2, 0, 0);
      fx_tensor_unref (v1);
      fx_tensor_unref (i1);
      fx_tensor_unref (v2);
      fx_tensor_unref (i2);
      g_assert_true (fx_tensor_topk (p, 3, dim, TRUE, TRUE, &v1, &i1, NULL));
      g_assert_true (fx_tensor_topk (pc, 3, dim, TRUE, TRUE, &v2, &i2, NULL));
      assert_close (v1, v2, 0, 0);
      assert_close (i1, i2, 0, 0);
      fx_tensor_unref (v1);
      fx_tensor_unref (i1);
      fx_tensor_unref (v2);
      fx_tensor_unref (i2);
    }
  fx_tensor_unref (a);
  fx_tensor_unref (p);
  fx_tensor_unref (pc);
  g_rand_free (rng);
}

/* Short reduced rows ([N, 3] along dim 1) run in lanes mode; check them against loops. */
static void
test_short_rows (void)
{
  GRand *rng = g_rand_new_with_seed (4);
  int64_t shape[2] = { 300, 3 };
  FxTensor *a = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, 2, shape);
  float *d = fx_tensor_data (a);
  int64_t dim = 1;

  for (int64_t i = 0; i < 900; i++)
    d[i] = (float) g_rand_int_range (rng, 0, 3);   /* many ties */
  d[3 * 17 + 2] = NAN;

  FxTensor *sum = fx_tensor_sum (a, &dim, 1, FALSE, FX_DTYPE_N, NULL);
  FxTensor *var = fx_tensor_var (a, &dim, 1, 1.0, FALSE, NULL);
  FxTensor *am = fx_tensor_argmax (a, TRUE, 1, FALSE, NULL);
  FxTensor *vals, *idx;
  g_assert_true (fx_tensor_min_dim (a, 1, TRUE, &vals, &idx, NULL));
  g_assert_cmpint (vals->ndim, ==, 2);
  for (int64_t r = 0; r < 300; r++)
    {
      const float *row = d + 3 * r;
      double s = (double) row[0] + row[1] + row[2], mean = s / 3;
      double v = ((row[0] - mean) * (row[0] - mean) + (row[1] - mean) * (row[1] - mean)
                  + (row[2] - mean) * (row[2] - mean)) / 2;
      int64_t amax = 0, amin = 0;
      for (int k = 1; k < 3; k++)
        {
          if (isnan (row[amax]))
            ;
          else if (isnan (row[k]) || row[k] > row[amax])
            amax = k;
          if (isnan (row[amin]))
            ;
          else if (isnan (row[k]) || row[k] < row[amin])
            amin = k;
        }
      if (r == 17)
        {
          g_assert_true (isnan (fx_tensor_get_double (sum, r)));
          g_assert_true (isnan (fx_tensor_get_double (var, r)));
        }
      else
        {
          g_assert_cmpfloat (fx_tensor_get_double (sum, r), ==, s);
          g_assert_cmpfloat (fabs (fx_tensor_get_double (var, r) - v), <=, 1e-6);
        }
      g_assert_cmpint (fx_tensor_get_int64 (am, r), ==, amax);
      g_assert_cmpint (fx_tensor_get_int64 (idx, r), ==, amin);
    }
  fx_tensor_unref (sum);
  fx_tensor_unref (var);
  fx_tensor_unref (am);
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  fx_tensor_unref (a);
  g_rand_free (rng);
}

/* An expanded (stride 0) input and size-1 dims. */
static void
test_expanded (void)
{
  double v[3] = { 1.5, -2.0, 4.0 };
  int64_t s1[2] = { 1, 3 }, s2[2] = { 1000, 3 };
  FxTensor *row = from_doubles (FX_DTYPE_FLOAT32, 2, s1, v);
  FxTensor *e = fx_tensor_expand (row, 2, s2, NULL);
  int64_t d0 = 0, d1 = 1;
  FxTensor *r = fx_tensor_sum (e, &d0, 1, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 1500.0);
  g_assert_cmpfloat (fx_tensor_get_double (r, 2), ==, 4000.0);
  fx_tensor_unref (r);
  r = fx_tensor_sum (e, &d1, 1, TRUE, FX_DTYPE_N, NULL);
  g_assert_cmpint (r->ndim, ==, 2);
  g_assert_cmpint (r->shape[0], ==, 1000);
  g_assert_cmpint (r->shape[1], ==, 1);
  g_assert_cmpfloat (fx_tensor_get_double (r, 999), ==, 3.5);
  fx_tensor_unref (r);
  r = fx_tensor_sum (row, &d0, 1, FALSE, FX_DTYPE_N, NULL);   /* reduce a size-1 dim */
  g_assert_cmpfloat (fx_tensor_get_double (r, 1), ==, -2.0);
  fx_tensor_unref (r);
  fx_tensor_unref (e);
  fx_tensor_unref (row);
}

/* ---- accuracy ---- */

static void
test_sum_accuracy (void)
{
  /* 2^22 copies of 0.1f: a float accumulator drifts by percents; PyTorch's cascade and
   * libfx's double accumulation stay within an ulp of the exact sum. */
  int64_t n = 1 << 22;
  FxTensor *t = fx_tensor_full (FX_DTYPE_FLOAT32, 1, &n, 0.1);
  FxTensor *s = fx_tensor_sum (t, NULL, 0, FALSE, FX_DTYPE_N, NULL);
  double exact = (double) n * (double) 0.1f;
  g_assert_cmpfloat (fabs (fx_tensor_get_double (s, 0) - exact), <=, exact * 1e-7);
  fx_tensor_unref (s);
  s = fx_tensor_mean (t, NULL, 0, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpfloat (fabs (fx_tensor_get_double (s, 0) - 0.1f), <=, 1e-8);
  fx_tensor_unref (s);
  /* var of values with a large offset: the two-pass algorithm keeps it exact enough */
  float *d = fx_tensor_data (t);
  for (int64_t i = 0; i < n; i++)
    d[i] = 10000.0f + (float) (i & 1);
  s = fx_tensor_var (t, NULL, 0, 0.0, FALSE, NULL);
  g_assert_cmpfloat (fabs (fx_tensor_get_double (s, 0) - 0.25), <=, 1e-6);
  fx_tensor_unref (s);
  fx_tensor_unref (t);

  /* int64 sums are exact and wrap like PyTorch's */
  int64_t two = 2;
  double big[2] = { 4.0e18, 4.0e18 };
  FxTensor *bi = from_doubles (FX_DTYPE_INT64, 1, &two, big);
  s = fx_tensor_sum (bi, NULL, 0, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpint (s->dtype, ==, FX_DTYPE_INT64);
  g_assert_cmpint (fx_tensor_get_int64 (s, 0), ==, (int64_t) ((uint64_t) 4000000000000000000LL * 2));
  fx_tensor_unref (s);
  fx_tensor_unref (bi);
}

/* ---- ties and NaN ---- */

static void
test_ties_and_nan (void)
{
  /* values and expectations recorded from PyTorch 1.13 */
  double v[7] = { 3, NAN, 1, 3, 2, NAN, 1 };
  int64_t n = 7;
  FxTensor *t = from_doubles (FX_DTYPE_FLOAT32, 1, &n, v);
  FxTensor *vals, *idx;

  g_assert_true (fx_tensor_sort (t, 0, FALSE, FALSE, &vals, &idx, NULL));
  assert_equal_ints (idx, (const int64_t[]) { 2, 6, 4, 0, 3, 1, 5 }, 7);
  g_assert_true (isnan (fx_tensor_get_double (vals, 6)));
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  g_assert_true (fx_tensor_sort (t, 0, TRUE, FALSE, &vals, &idx, NULL));
  assert_equal_ints (idx, (const int64_t[]) { 1, 5, 0, 3, 4, 2, 6 }, 7);
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  /* topk runs nth_element: ties do not come out in index order */
  g_assert_true (fx_tensor_topk (t, 3, 0, TRUE, TRUE, &vals, &idx, NULL));
  assert_equal_ints (idx, (const int64_t[]) { 1, 5, 3 }, 3);
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  g_assert_true (fx_tensor_topk (t, 3, 0, FALSE, TRUE, &vals, &idx, NULL));
  assert_equal_ints (idx, (const int64_t[]) { 6, 2, 4 }, 3);
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);

  /* max/argmax: the first NaN wins and propagates */
  FxTensor *m = fx_tensor_max_all (t, NULL);
  g_assert_true (isnan (fx_tensor_get_double (m, 0)));
  fx_tensor_unref (m);
  m = fx_tensor_argmax (t, FALSE, 0, FALSE, NULL);
  g_assert_cmpint (fx_tensor_get_int64 (m, 0), ==, 1);
  fx_tensor_unref (m);
  m = fx_tensor_argmin (t, TRUE, 0, FALSE, NULL);
  g_assert_cmpint (fx_tensor_get_int64 (m, 0), ==, 1);
  fx_tensor_unref (m);
  fx_tensor_unref (t);

  /* without NaN: the first occurrence of the extremum */
  double w[6] = { 1, 3, 0, 3, 0, 1 };
  t = from_doubles (FX_DTYPE_FLOAT32, 1, &(int64_t) { 6 }, w);
  m = fx_tensor_argmax (t, TRUE, 0, FALSE, NULL);
  g_assert_cmpint (fx_tensor_get_int64 (m, 0), ==, 1);
  fx_tensor_unref (m);
  g_assert_true (fx_tensor_min_dim (t, 0, FALSE, &vals, &idx, NULL));
  g_assert_cmpint (fx_tensor_get_int64 (idx, 0), ==, 2);
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  /* stable sort keeps equal values in index order */
  g_assert_true (fx_tensor_sort (t, 0, TRUE, TRUE, &vals, &idx, NULL));
  assert_equal_ints (idx, (const int64_t[]) { 1, 3, 0, 5, 2, 4 }, 6);
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  fx_tensor_unref (t);

  /* lanes mode (column max) with ties and a NaN in one column */
  double c[12] = { 1, 5, 2, 9,   1, NAN, 7, 9,   0, 5, 7, 9 };
  int64_t cs[2] = { 3, 4 };
  t = from_doubles (FX_DTYPE_FLOAT64, 2, cs, c);
  g_assert_true (fx_tensor_max_dim (t, 0, FALSE, &vals, &idx, NULL));
  assert_equal_ints (idx, (const int64_t[]) { 0, 1, 1, 0 }, 4);
  g_assert_true (isnan (fx_tensor_get_double (vals, 1)));
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  fx_tensor_unref (t);
}

/* Larger slices exercise introsort's partitioning and topk's partial_sort branch; the
 * results must at least be correctly ordered, and sort must be a permutation. */
static void
test_sort_large (void)
{
  GRand *rng = g_rand_new_with_seed (3);
  int64_t shape[2] = { 3, 5000 };
  FxTensor *t = fx_tensor_new_uninit (FX_DTYPE_INT32, 2, shape);
  int32_t *d = fx_tensor_data (t);
  for (int64_t i = 0; i < 3 * 5000; i++)
    d[i] = g_rand_int_range (rng, 0, 50);
  FxTensor *vals, *idx;
  g_assert_true (fx_tensor_sort (t, 1, FALSE, FALSE, &vals, &idx, NULL));
  g_assert_cmpint (vals->dtype, ==, FX_DTYPE_INT32);
  for (int r = 0; r < 3; r++)
    {
      guint8 *seen = g_new0 (guint8, 5000);
      for (int64_t j = 0; j < 5000; j++)
        {
          int64_t k = fx_tensor_get_int64 (idx, r * 5000 + j);
          g_assert_false (seen[k]);
          seen[k] = 1;
          g_assert_cmpint (fx_tensor_get_int64 (vals, r * 5000 + j), ==, d[r * 5000 + k]);
          if (j > 0)
            g_assert_cmpint (fx_tensor_get_int64 (vals, r * 5000 + j - 1), <=,
                             fx_tensor_get_int64 (vals, r * 5000 + j));
        }
      g_free (seen);
    }
  fx_tensor_unref (vals);
  fx_tensor_unref (idx);
  for (int64_t k = 1; k <= 200; k += 199)   /* 64k <= n: partial_sort; else nth_element */
    {
      g_assert_true (fx_tensor_topk (t, k, 1, TRUE, TRUE, &vals, &idx, NULL));
      for (int64_t j = 1; j < k; j++)
        g_assert_cmpint (fx_tensor_get_int64 (vals, j - 1), >=, fx_tensor_get_int64 (vals, j));
      g_assert_cmpint (fx_tensor_get_int64 (vals, 0), ==, 49);
      fx_tensor_unref (vals);
      fx_tensor_unref (idx);
    }
  fx_tensor_unref (t);
  g_rand_free (rng);
}

/* ---- edge cases and errors ---- */

static void
test_edges (void)
{
  GError *error = NULL;
  int64_t es[2] = { 0, 3 };
  FxTensor *e = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, es);
  FxTensor *r;

  r = fx_tensor_sum (e, NULL, 0, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpint (r->ndim, ==, 0);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 0.0);
  fx_tensor_unref (r);
  r = fx_tensor_prod (e, FALSE, 0, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 1.0);
  fx_tensor_unref (r);
  r = fx_tensor_mean (e, (const int64_t[]) { 0 }, 1, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpint (r->shape[0], ==, 3);
  g_assert_true (isnan (fx_tensor_get_double (r, 2)));
  fx_tensor_unref (r);

  g_assert_null (fx_tensor_max_all (e, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "max(): Expected reduction dim to be specified for "
                   "input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  g_clear_error (&error);
  FxTensor *v, *i;
  g_assert_false (fx_tensor_max_dim (e, 0, FALSE, &v, &i, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_true (fx_tensor_max_dim (e, 1, TRUE, &v, &i, NULL));
  g_assert_cmpint (v->shape[0], ==, 0);
  g_assert_cmpint (v->shape[1], ==, 1);
  fx_tensor_unref (v);
  fx_tensor_unref (i);

  r = fx_tensor_sum (e, (const int64_t[]) { 0, -2 }, 2, FALSE, FX_DTYPE_N, &error);
  g_assert_null (r);
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "dim 0 appears multiple times in the list of dims");
  g_clear_error (&error);
  r = fx_tensor_sum (e, (const int64_t[]) { 0, 0, 7 }, 3, FALSE, FX_DTYPE_N, &error);
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);   /* range is checked before duplicates */
  g_assert_cmpstr (error->message, ==,
                   "Dimension out of range (expected to be in range of [-2, 1], but got 7)");
  g_clear_error (&error);
  r = fx_tensor_sum (e, (const int64_t[]) { INT64_MIN }, 1, FALSE, FX_DTYPE_N, &error);
  g_assert_null (r);
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_clear_error (&error);

  /* int mean, bool argmax */
  int64_t two = 2;
  FxTensor *it = fx_tensor_ones (FX_DTYPE_INT64, 1, &two);
  g_assert_null (fx_tensor_mean (it, NULL, 0, FALSE, FX_DTYPE_N, &error));
  g_assert_cmpstr (error->message, ==, "mean(): could not infer output dtype. Input dtype must "
                   "be either a floating point or complex dtype. Got: Long");
  g_clear_error (&error);
  FxTensor *bt = fx_tensor_ones (FX_DTYPE_BOOL, 1, &two);
  g_assert_null (fx_tensor_argmax (bt, FALSE, 0, FALSE, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_clear_error (&error);
  r = fx_tensor_sum (bt, NULL, 0, FALSE, FX_DTYPE_N, NULL);
  g_assert_cmpint (r->dtype, ==, FX_DTYPE_INT64);
  g_assert_cmpint (fx_tensor_get_int64 (r, 0), ==, 2);
  fx_tensor_unref (r);
  fx_tensor_unref (bt);
  fx_tensor_unref (it);

  /* 0-d */
  FxTensor *s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 2.5);
  r = fx_tensor_sum (s, (const int64_t[]) { -1 }, 1, TRUE, FX_DTYPE_N, NULL);
  g_assert_cmpint (r->ndim, ==, 0);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 2.5);
  fx_tensor_unref (r);
  g_assert_true (fx_tensor_topk (s, 1, 0, TRUE, TRUE, &v, &i, NULL));
  g_assert_cmpint (v->ndim, ==, 0);
  g_assert_cmpint (fx_tensor_get_int64 (i, 0), ==, 0);
  fx_tensor_unref (v);
  fx_tensor_unref (i);
  r = fx_tensor_softmax (s, 0, FX_DTYPE_N, NULL);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 1.0);
  fx_tensor_unref (r);
  g_assert_null (fx_tensor_cumsum (s, 1, FX_DTYPE_N, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_clear_error (&error);
  fx_tensor_unref (s);

  /* topk out of range */
  int64_t three = 3;
  FxTensor *f = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, &three);
  g_assert_false (fx_tensor_topk (f, 4, 0, TRUE, TRUE, &v, &i, &error));
  g_assert_cmpstr (error->message, ==, "selected index k out of range");
  g_clear_error (&error);
  fx_tensor_unref (f);
  fx_tensor_unref (e);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/reduce/sum-paths", test_sum_paths);
  g_test_add_func ("/reduce/multi-dim-layouts", test_multi_dim_layouts);
  g_test_add_func ("/reduce/short-rows", test_short_rows);
  g_test_add_func ("/reduce/expanded", test_expanded);
  g_test_add_func ("/reduce/sum-accuracy", test_sum_accuracy);
  g_test_add_func ("/reduce/ties-and-nan", test_ties_and_nan);
  g_test_add_func ("/reduce/sort-large", test_sort_large);
  g_test_add_func ("/reduce/edges", test_edges);
  return g_test_run ();
}
