/* test-elementwise.c: the pointwise kernels called directly — PyTorch's promotion table,
 * conversion through the common dtype, in-place aliasing rules, the vectorised fast paths
 * against the general strided path, and the error cases. */
#include "fx.h"
#include "tensor/elementwise.h"

#include <math.h>
#include <string.h>

#define D(x) FX_DTYPE_##x

static FxTensor *
from_floats (FxDType dtype, int ndim, const int64_t *shape, const double *v)
{
  FxTensor *f64 = fx_tensor_new_from_data (D (FLOAT64), ndim, shape, v);
  FxTensor *t = fx_tensor_to_dtype (f64, dtype);
  fx_tensor_unref (f64);
  return t;
}

static FxTensor *
vec (FxDType dtype, int n, const double *v)
{
  int64_t shape[1] = { n };
  return from_floats (dtype, 1, shape, v);
}

/* A deterministic pseudo-random float tensor. */
static FxTensor *
random_tensor (FxDType dtype, int ndim, const int64_t *shape, guint32 seed)
{
  FxTensor *t = fx_tensor_new_uninit (D (FLOAT64), ndim, shape);
  double *p = fx_tensor_data (t);
  int64_t n = fx_tensor_numel (t);
  GRand *rand = g_rand_new_with_seed (seed);
  FxTensor *r;
  for (int64_t i = 0; i < n; i++)
    p[i] = g_rand_double_range (rand, -4.0, 4.0);
  g_rand_free (rand);
  r = fx_tensor_to_dtype (t, dtype);
  fx_tensor_unref (t);
  return r;
}

static void
assert_values (const FxTensor *t, int n, const double *want)
{
  g_assert_cmpint (fx_tensor_numel (t), ==, n);
  for (int i = 0; i < n; i++)
    {
      double g = fx_tensor_get_double (t, i);
      if (isnan (want[i]))
        g_assert_true (isnan (g));
      else if (isinf (want[i]))
        g_assert_cmpfloat (g, ==, want[i]);
      else
        g_assert_cmpfloat_with_epsilon (g, want[i], 1e-6 * MAX (1.0, fabs (want[i])));
    }
}

/* Bitwise equality of two tensors' elements (same dtype and shape). */
static gboolean
same_bits (const FxTensor *a, const FxTensor *b)
{
  FxTensor *ca, *cb;
  gboolean same;
  if (a->dtype != b->dtype || !fx_tensor_same_shape (a, b))
    return FALSE;
  ca = fx_tensor_clone (a);
  cb = fx_tensor_clone (b);
  same = memcmp (fx_tensor_data (ca), fx_tensor_data (cb),
                 (size_t) fx_tensor_numel (ca) * fx_dtype_size (ca->dtype)) == 0;
  fx_tensor_unref (ca);
  fx_tensor_unref (cb);
  return same;
}

/* ------------------------------------------------------------------ promotion */

enum { K_DIM, K_ZERO, K_WRAPPED };

typedef struct {
  FxDType a;
  int ka;
  FxDType b;
  int kb;
  FxDType want;
} PromoFact;

/* torch.result_type for every pair of dtypes and operand kinds (1-d tensor, 0-d tensor,
 * Python number), recorded from PyTorch 1.13. */
static const PromoFact promo_facts[] = {
  { D (BOOL), K_DIM, D (BOOL), K_DIM, D (BOOL) },
  { D (BOOL), K_DIM, D (BOOL), K_ZERO, D (BOOL) },
  { D (BOOL), K_ZERO, D (BOOL), K_ZERO, D (BOOL) },
  { D (BOOL), K_DIM, D (UINT8), K_DIM, D (UINT8) },
  { D (BOOL), K_DIM, D (UINT8), K_ZERO, D (UINT8) },
  { D (BOOL), K_ZERO, D (UINT8), K_ZERO, D (UINT8) },
  { D (BOOL), K_DIM, D (INT8), K_DIM, D (INT8) },
  { D (BOOL), K_DIM, D (INT8), K_ZERO, D (INT8) },
  { D (BOOL), K_ZERO, D (INT8), K_ZERO, D (INT8) },
  { D (BOOL), K_DIM, D (INT16), K_DIM, D (INT16) },
  { D (BOOL), K_DIM, D (INT16), K_ZERO, D (INT16) },
  { D (BOOL), K_ZERO, D (INT16), K_ZERO, D (INT16) },
  { D (BOOL), K_DIM, D (INT32), K_DIM, D (INT32) },
  { D (BOOL), K_DIM, D (INT32), K_ZERO, D (INT32) },
  { D (BOOL), K_ZERO, D (INT32), K_ZERO, D (INT32) },
  { D (BOOL), K_DIM, D (INT64), K_DIM, D (INT64) },
  { D (BOOL), K_DIM, D (INT64), K_ZERO, D (INT64) },
  { D (BOOL), K_ZERO, D (INT64), K_ZERO, D (INT64) },
  { D (BOOL), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (BOOL), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (BOOL), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (BOOL), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (BOOL), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (BOOL), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (BOOL), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (BOOL), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (BOOL), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (BOOL), K_DIM, D (BOOL), K_WRAPPED, D (BOOL) },
  { D (BOOL), K_ZERO, D (BOOL), K_WRAPPED, D (BOOL) },
  { D (BOOL), K_DIM, D (INT64), K_WRAPPED, D (INT64) },
  { D (BOOL), K_ZERO, D (INT64), K_WRAPPED, D (INT64) },
  { D (BOOL), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (BOOL), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (UINT8), K_DIM, D (BOOL), K_DIM, D (UINT8) },
  { D (UINT8), K_DIM, D (BOOL), K_ZERO, D (UINT8) },
  { D (UINT8), K_ZERO, D (BOOL), K_ZERO, D (UINT8) },
  { D (UINT8), K_DIM, D (UINT8), K_DIM, D (UINT8) },
  { D (UINT8), K_DIM, D (UINT8), K_ZERO, D (UINT8) },
  { D (UINT8), K_ZERO, D (UINT8), K_ZERO, D (UINT8) },
  { D (UINT8), K_DIM, D (INT8), K_DIM, D (INT16) },
  { D (UINT8), K_DIM, D (INT8), K_ZERO, D (UINT8) },
  { D (UINT8), K_ZERO, D (INT8), K_ZERO, D (INT16) },
  { D (UINT8), K_DIM, D (INT16), K_DIM, D (INT16) },
  { D (UINT8), K_DIM, D (INT16), K_ZERO, D (UINT8) },
  { D (UINT8), K_ZERO, D (INT16), K_ZERO, D (INT16) },
  { D (UINT8), K_DIM, D (INT32), K_DIM, D (INT32) },
  { D (UINT8), K_DIM, D (INT32), K_ZERO, D (UINT8) },
  { D (UINT8), K_ZERO, D (INT32), K_ZERO, D (INT32) },
  { D (UINT8), K_DIM, D (INT64), K_DIM, D (INT64) },
  { D (UINT8), K_DIM, D (INT64), K_ZERO, D (UINT8) },
  { D (UINT8), K_ZERO, D (INT64), K_ZERO, D (INT64) },
  { D (UINT8), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (UINT8), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (UINT8), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (UINT8), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (UINT8), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (UINT8), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (UINT8), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (UINT8), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (UINT8), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (UINT8), K_DIM, D (BOOL), K_WRAPPED, D (UINT8) },
  { D (UINT8), K_ZERO, D (BOOL), K_WRAPPED, D (UINT8) },
  { D (UINT8), K_DIM, D (INT64), K_WRAPPED, D (UINT8) },
  { D (UINT8), K_ZERO, D (INT64), K_WRAPPED, D (UINT8) },
  { D (UINT8), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (UINT8), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT8), K_DIM, D (BOOL), K_DIM, D (INT8) },
  { D (INT8), K_DIM, D (BOOL), K_ZERO, D (INT8) },
  { D (INT8), K_ZERO, D (BOOL), K_ZERO, D (INT8) },
  { D (INT8), K_DIM, D (UINT8), K_DIM, D (INT16) },
  { D (INT8), K_DIM, D (UINT8), K_ZERO, D (INT8) },
  { D (INT8), K_ZERO, D (UINT8), K_ZERO, D (INT16) },
  { D (INT8), K_DIM, D (INT8), K_DIM, D (INT8) },
  { D (INT8), K_DIM, D (INT8), K_ZERO, D (INT8) },
  { D (INT8), K_ZERO, D (INT8), K_ZERO, D (INT8) },
  { D (INT8), K_DIM, D (INT16), K_DIM, D (INT16) },
  { D (INT8), K_DIM, D (INT16), K_ZERO, D (INT8) },
  { D (INT8), K_ZERO, D (INT16), K_ZERO, D (INT16) },
  { D (INT8), K_DIM, D (INT32), K_DIM, D (INT32) },
  { D (INT8), K_DIM, D (INT32), K_ZERO, D (INT8) },
  { D (INT8), K_ZERO, D (INT32), K_ZERO, D (INT32) },
  { D (INT8), K_DIM, D (INT64), K_DIM, D (INT64) },
  { D (INT8), K_DIM, D (INT64), K_ZERO, D (INT8) },
  { D (INT8), K_ZERO, D (INT64), K_ZERO, D (INT64) },
  { D (INT8), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (INT8), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT8), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT8), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (INT8), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT8), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT8), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (INT8), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT8), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT8), K_DIM, D (BOOL), K_WRAPPED, D (INT8) },
  { D (INT8), K_ZERO, D (BOOL), K_WRAPPED, D (INT8) },
  { D (INT8), K_DIM, D (INT64), K_WRAPPED, D (INT8) },
  { D (INT8), K_ZERO, D (INT64), K_WRAPPED, D (INT8) },
  { D (INT8), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT8), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT16), K_DIM, D (BOOL), K_DIM, D (INT16) },
  { D (INT16), K_DIM, D (BOOL), K_ZERO, D (INT16) },
  { D (INT16), K_ZERO, D (BOOL), K_ZERO, D (INT16) },
  { D (INT16), K_DIM, D (UINT8), K_DIM, D (INT16) },
  { D (INT16), K_DIM, D (UINT8), K_ZERO, D (INT16) },
  { D (INT16), K_ZERO, D (UINT8), K_ZERO, D (INT16) },
  { D (INT16), K_DIM, D (INT8), K_DIM, D (INT16) },
  { D (INT16), K_DIM, D (INT8), K_ZERO, D (INT16) },
  { D (INT16), K_ZERO, D (INT8), K_ZERO, D (INT16) },
  { D (INT16), K_DIM, D (INT16), K_DIM, D (INT16) },
  { D (INT16), K_DIM, D (INT16), K_ZERO, D (INT16) },
  { D (INT16), K_ZERO, D (INT16), K_ZERO, D (INT16) },
  { D (INT16), K_DIM, D (INT32), K_DIM, D (INT32) },
  { D (INT16), K_DIM, D (INT32), K_ZERO, D (INT16) },
  { D (INT16), K_ZERO, D (INT32), K_ZERO, D (INT32) },
  { D (INT16), K_DIM, D (INT64), K_DIM, D (INT64) },
  { D (INT16), K_DIM, D (INT64), K_ZERO, D (INT16) },
  { D (INT16), K_ZERO, D (INT64), K_ZERO, D (INT64) },
  { D (INT16), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (INT16), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT16), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT16), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (INT16), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT16), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT16), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (INT16), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT16), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT16), K_DIM, D (BOOL), K_WRAPPED, D (INT16) },
  { D (INT16), K_ZERO, D (BOOL), K_WRAPPED, D (INT16) },
  { D (INT16), K_DIM, D (INT64), K_WRAPPED, D (INT16) },
  { D (INT16), K_ZERO, D (INT64), K_WRAPPED, D (INT16) },
  { D (INT16), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT16), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT32), K_DIM, D (BOOL), K_DIM, D (INT32) },
  { D (INT32), K_DIM, D (BOOL), K_ZERO, D (INT32) },
  { D (INT32), K_ZERO, D (BOOL), K_ZERO, D (INT32) },
  { D (INT32), K_DIM, D (UINT8), K_DIM, D (INT32) },
  { D (INT32), K_DIM, D (UINT8), K_ZERO, D (INT32) },
  { D (INT32), K_ZERO, D (UINT8), K_ZERO, D (INT32) },
  { D (INT32), K_DIM, D (INT8), K_DIM, D (INT32) },
  { D (INT32), K_DIM, D (INT8), K_ZERO, D (INT32) },
  { D (INT32), K_ZERO, D (INT8), K_ZERO, D (INT32) },
  { D (INT32), K_DIM, D (INT16), K_DIM, D (INT32) },
  { D (INT32), K_DIM, D (INT16), K_ZERO, D (INT32) },
  { D (INT32), K_ZERO, D (INT16), K_ZERO, D (INT32) },
  { D (INT32), K_DIM, D (INT32), K_DIM, D (INT32) },
  { D (INT32), K_DIM, D (INT32), K_ZERO, D (INT32) },
  { D (INT32), K_ZERO, D (INT32), K_ZERO, D (INT32) },
  { D (INT32), K_DIM, D (INT64), K_DIM, D (INT64) },
  { D (INT32), K_DIM, D (INT64), K_ZERO, D (INT32) },
  { D (INT32), K_ZERO, D (INT64), K_ZERO, D (INT64) },
  { D (INT32), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (INT32), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT32), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT32), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (INT32), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT32), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT32), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (INT32), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT32), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT32), K_DIM, D (BOOL), K_WRAPPED, D (INT32) },
  { D (INT32), K_ZERO, D (BOOL), K_WRAPPED, D (INT32) },
  { D (INT32), K_DIM, D (INT64), K_WRAPPED, D (INT32) },
  { D (INT32), K_ZERO, D (INT64), K_WRAPPED, D (INT32) },
  { D (INT32), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT32), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT64), K_DIM, D (BOOL), K_DIM, D (INT64) },
  { D (INT64), K_DIM, D (BOOL), K_ZERO, D (INT64) },
  { D (INT64), K_ZERO, D (BOOL), K_ZERO, D (INT64) },
  { D (INT64), K_DIM, D (UINT8), K_DIM, D (INT64) },
  { D (INT64), K_DIM, D (UINT8), K_ZERO, D (INT64) },
  { D (INT64), K_ZERO, D (UINT8), K_ZERO, D (INT64) },
  { D (INT64), K_DIM, D (INT8), K_DIM, D (INT64) },
  { D (INT64), K_DIM, D (INT8), K_ZERO, D (INT64) },
  { D (INT64), K_ZERO, D (INT8), K_ZERO, D (INT64) },
  { D (INT64), K_DIM, D (INT16), K_DIM, D (INT64) },
  { D (INT64), K_DIM, D (INT16), K_ZERO, D (INT64) },
  { D (INT64), K_ZERO, D (INT16), K_ZERO, D (INT64) },
  { D (INT64), K_DIM, D (INT32), K_DIM, D (INT64) },
  { D (INT64), K_DIM, D (INT32), K_ZERO, D (INT64) },
  { D (INT64), K_ZERO, D (INT32), K_ZERO, D (INT64) },
  { D (INT64), K_DIM, D (INT64), K_DIM, D (INT64) },
  { D (INT64), K_DIM, D (INT64), K_ZERO, D (INT64) },
  { D (INT64), K_ZERO, D (INT64), K_ZERO, D (INT64) },
  { D (INT64), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (INT64), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT64), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (INT64), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (INT64), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT64), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (INT64), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (INT64), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT64), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (INT64), K_DIM, D (BOOL), K_WRAPPED, D (INT64) },
  { D (INT64), K_ZERO, D (BOOL), K_WRAPPED, D (INT64) },
  { D (INT64), K_DIM, D (INT64), K_WRAPPED, D (INT64) },
  { D (INT64), K_ZERO, D (INT64), K_WRAPPED, D (INT64) },
  { D (INT64), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (INT64), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT16), K_DIM, D (BOOL), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (BOOL), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (BOOL), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (UINT8), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (UINT8), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (UINT8), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT8), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT8), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (INT8), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT16), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT16), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (INT16), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT32), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT32), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (INT32), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT64), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT64), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (INT64), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (FLOAT16), K_DIM, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (FLOAT16), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (FLOAT16), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (FLOAT16), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (FLOAT16), K_DIM, D (BOOL), K_WRAPPED, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (BOOL), K_WRAPPED, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (INT64), K_WRAPPED, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (INT64), K_WRAPPED, D (FLOAT16) },
  { D (FLOAT16), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT16) },
  { D (FLOAT16), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT16) },
  { D (FLOAT32), K_DIM, D (BOOL), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (BOOL), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (BOOL), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (UINT8), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (UINT8), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (UINT8), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT8), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT8), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (INT8), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT16), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT16), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (INT16), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT32), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT32), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (INT32), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT64), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT64), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (INT64), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (FLOAT16), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (FLOAT32), K_DIM, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (FLOAT32), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (FLOAT32), K_DIM, D (BOOL), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (BOOL), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (INT64), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (INT64), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT32), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT32), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT32) },
  { D (FLOAT64), K_DIM, D (BOOL), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (BOOL), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (BOOL), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (UINT8), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (UINT8), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (UINT8), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT8), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT8), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (INT8), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT16), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT16), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (INT16), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT32), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT32), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (INT32), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT64), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT64), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (INT64), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT16), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT16), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (FLOAT16), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT32), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT32), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (FLOAT32), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT64), K_DIM, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (FLOAT64), K_ZERO, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (BOOL), K_WRAPPED, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (BOOL), K_WRAPPED, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (INT64), K_WRAPPED, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (INT64), K_WRAPPED, D (FLOAT64) },
  { D (FLOAT64), K_DIM, D (FLOAT64), K_WRAPPED, D (FLOAT64) },
  { D (FLOAT64), K_ZERO, D (FLOAT64), K_WRAPPED, D (FLOAT64) },
};

static FxTensor *
operand (FxDType d, int kind)
{
  int64_t two = 2;
  switch (kind)
    {
    case K_DIM:
      return fx_tensor_zeros (d, 1, &two);
    case K_ZERO:
      return fx_tensor_zeros (d, 0, NULL);
    default:
      return d == D (BOOL) ? fx_tensor_wrap_bool (TRUE)
           : d == D (INT64) ? fx_tensor_wrap_int64 (3) : fx_tensor_wrap_double (2.5);
    }
}

static void
test_result_type (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (promo_facts); i++)
    {
      const PromoFact *f = &promo_facts[i];
      FxTensor *ops[2] = { operand (f->a, f->ka), operand (f->b, f->kb) };
      FxTensor *rev[2] = { ops[1], ops[0] };
      FxDType got = fx_tensor_result_type (2, ops);
      if (got != f->want)
        g_error ("result_type(%s/%d, %s/%d) = %s, PyTorch says %s", fx_dtype_name (f->a), f->ka,
                 fx_dtype_name (f->b), f->kb, fx_dtype_name (got), fx_dtype_name (f->want));
      g_assert_cmpint (fx_tensor_result_type (2, rev), ==, f->want);
      /* and the add kernel returns that dtype */
      GError *error = NULL;
      FxTensor *r = fx_tensor_binary (FX_BINARY_ADD, ops[0], ops[1], &error);
      g_assert_no_error (error);
      g_assert_cmpint (r->dtype, ==, f->want);
      g_assert_false (r->wrapped_number);
      fx_tensor_unref (r);
      fx_tensor_unref (ops[0]);
      fx_tensor_unref (ops[1]);
    }
}

static void
test_can_cast (void)
{
  g_assert_true (fx_dtype_can_cast (D (INT64), D (FLOAT32)));
  g_assert_true (fx_dtype_can_cast (D (BOOL), D (UINT8)));
  g_assert_true (fx_dtype_can_cast (D (FLOAT64), D (FLOAT16)));
  g_assert_false (fx_dtype_can_cast (D (FLOAT32), D (INT64)));
  g_assert_false (fx_dtype_can_cast (D (INT8), D (BOOL)));
  g_assert_false (fx_dtype_can_cast (D (FLOAT16), D (BOOL)));
}

/* PyTorch converts every input to the common dtype before computing. */
static void
test_common_dtype_conversion (void)
{
  const double u8[] = { 255, 1 }, i32[] = { 1, -2 };
  FxTensor *a = vec (D (UINT8), 2, u8), *b = vec (D (INT32), 2, i32);
  FxTensor *m1 = fx_tensor_wrap_int64 (-1), *big = fx_tensor_wrap_int64 ((int64_t) 1 << 40);
  FxTensor *r;
  GError *error = NULL;

  r = fx_tensor_binary (FX_BINARY_EQ, a, m1, &error);   /* -1 as uint8 is 255 */
  g_assert_no_error (error);
  g_assert_cmpint (r->dtype, ==, D (BOOL));
  assert_values (r, 2, (const double[]) { 1, 0 });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_LT, a, m1, &error);
  assert_values (r, 2, (const double[]) { 0, 1 });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_ADD, b, big, &error);  /* 2**40 as int32 is 0 */
  g_assert_cmpint (r->dtype, ==, D (INT32));
  assert_values (r, 2, i32);
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_DIV_FLOOR, a, m1, &error);
  g_assert_cmpint (r->dtype, ==, D (UINT8));
  assert_values (r, 2, (const double[]) { 1, 0 });   /* 255 // 255, 1 // 255 */
  fx_tensor_unref (r);

  /* float16: the wrapped 0.1 is rounded to half first, the sum rounded again */
  FxTensor *h = vec (D (FLOAT16), 1, (const double[]) { 1.0 }), *w = fx_tensor_wrap_double (0.1);
  r = fx_tensor_binary (FX_BINARY_ADD, h, w, &error);
  g_assert_cmpint (r->dtype, ==, D (FLOAT16));
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 1.099609375);
  fx_tensor_unref (r);
  fx_tensor_unref (h);
  fx_tensor_unref (w);

  fx_tensor_unref (a);
  fx_tensor_unref (b);
  fx_tensor_unref (m1);
  fx_tensor_unref (big);
}

/* ------------------------------------------------------------------ fast paths */

static const FxUnaryOp fast_unary[] = {
  FX_UNARY_NEG, FX_UNARY_ABS, FX_UNARY_EXP, FX_UNARY_LOG, FX_UNARY_SQRT, FX_UNARY_RSQRT,
  FX_UNARY_SIN, FX_UNARY_TANH, FX_UNARY_SIGMOID, FX_UNARY_RELU, FX_UNARY_RELU6, FX_UNARY_GELU,
  FX_UNARY_SILU, FX_UNARY_HARDSWISH, FX_UNARY_LEAKY_RELU, FX_UNARY_ELU, FX_UNARY_SOFTPLUS,
  FX_UNARY_FLOOR, FX_UNARY_ROUND, FX_UNARY_SIGN, FX_UNARY_ISNAN, FX_UNARY_LOGICAL_NOT,
};

static const FxBinaryOp fast_binary[] = {
  FX_BINARY_ADD, FX_BINARY_SUB, FX_BINARY_MUL, FX_BINARY_DIV, FX_BINARY_DIV_FLOOR,
  FX_BINARY_REMAINDER, FX_BINARY_POW, FX_BINARY_MAXIMUM, FX_BINARY_MINIMUM, FX_BINARY_LT,
  FX_BINARY_EQ, FX_BINARY_LOGICAL_XOR,
};

/* The same values laid out transposed: a non-contiguous view equal to t. */
static FxTensor *
strided_copy (FxTensor *t)
{
  FxTensor *tt = fx_tensor_t (t, NULL), *c = fx_tensor_contiguous (tt), *v = fx_tensor_t (c, NULL);
  fx_tensor_unref (tt);
  fx_tensor_unref (c);
  return v;
}

/* Contiguous inputs go straight to the kernels; strided ones through the per-block
 * load/store path. Both must give the same bits, for float32 and float64. */
static void
test_fast_path_matches_strided (void)
{
  int64_t shape[2] = { 300, 257 };   /* odd sizes: vector tails, several blocks per row */
  FxDType dts[2] = { D (FLOAT32), D (FLOAT64) };

  for (int k = 0; k < 2; k++)
    {
      FxTensor *a = random_tensor (dts[k], 2, shape, 1), *b = random_tensor (dts[k], 2, shape, 2);
      FxTensor *as = strided_copy (a), *bs = strided_copy (b);
      g_assert_false (fx_tensor_is_contiguous (as));
      for (gsize i = 0; i < G_N_ELEMENTS (fast_unary); i++)
        {
          FxTensor *r1 = fx_tensor_unary (fast_unary[i], a, 0.1, 0, NULL);
          FxTensor *r2 = fx_tensor_unary (fast_unary[i], as, 0.1, 0, NULL);
          g_assert_nonnull (r1);
          if (!same_bits (r1, r2))
            g_error ("unary op %d differs between the fast and the strided path", fast_unary[i]);
          fx_tensor_unref (r1);
          fx_tensor_unref (r2);
        }
      for (gsize i = 0; i < G_N_ELEMENTS (fast_binary); i++)
        {
          FxTensor *r1 = fx_tensor_binary (fast_binary[i], a, b, NULL);
          FxTensor *r2 = fx_tensor_binary (fast_binary[i], as, bs, NULL);
          FxTensor *r3 = fx_tensor_binary (fast_binary[i], a, bs, NULL);
          g_assert_nonnull (r1);
          if (!same_bits (r1, r2) || !same_bits (r1, r3))
            g_error ("binary op %d differs between the fast and the strided path", fast_binary[i]);
          fx_tensor_unref (r1);
          fx_tensor_unref (r2);
          fx_tensor_unref (r3);
        }
      fx_tensor_unref (a);
      fx_tensor_unref (b);
      fx_tensor_unref (as);
      fx_tensor_unref (bs);
    }
}

/* A scalar operand (wrapped number, 0-d tensor) runs the scalar loops; an expanded tensor of
 * the same value the broadcast path. */
static void
test_scalar_path_matches_broadcast (void)
{
  int64_t shape[2] = { 64, 1000 };
  FxTensor *a = random_tensor (D (FLOAT32), 2, shape, 3);
  FxTensor *w = fx_tensor_wrap_double (0.37);
  FxTensor *z = fx_tensor_scalar_double (D (FLOAT32), 0.37);
  FxTensor *e = fx_tensor_expand (z, 2, shape, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (fast_binary); i++)
    {
      FxTensor *r1 = fx_tensor_binary (fast_binary[i], a, w, NULL);
      FxTensor *r2 = fx_tensor_binary (fast_binary[i], a, e, NULL);
      FxTensor *r3 = fx_tensor_binary (fast_binary[i], w, a, NULL);
      FxTensor *r4 = fx_tensor_binary (fast_binary[i], e, a, NULL);
      g_assert_true (same_bits (r1, r2));
      g_assert_true (same_bits (r3, r4));
      fx_tensor_unref (r1);
      fx_tensor_unref (r2);
      fx_tensor_unref (r3);
      fx_tensor_unref (r4);
    }
  /* and the float32 kernels compute in float: x * 0.1 rounds 0.1 to float first */
  FxTensor *one = vec (D (FLOAT32), 1, (const double[]) { 3.0 });
  FxTensor *tenth = fx_tensor_wrap_double (0.1);
  FxTensor *r = fx_tensor_mul (one, tenth, NULL);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, (double) (3.0f * 0.1f));
  fx_tensor_unref (r);
  fx_tensor_unref (one);
  fx_tensor_unref (tenth);
  fx_tensor_unref (a);
  fx_tensor_unref (w);
  fx_tensor_unref (z);
  fx_tensor_unref (e);
}

/* Mixed dtypes, broadcasting over three dims, and a large tensor, against values computed
 * element by element. */
static void
test_general_broadcast (void)
{
  int64_t sa[3] = { 7, 1, 130 }, sb[2] = { 9, 1 };
  FxTensor *a = random_tensor (D (FLOAT64), 3, sa, 4), *b = random_tensor (D (INT32), 2, sb, 5);
  FxTensor *r = fx_tensor_binary (FX_BINARY_MUL, a, b, NULL);
  g_assert_cmpint (r->dtype, ==, D (FLOAT64));
  g_assert_cmpint (r->ndim, ==, 3);
  g_assert_cmpint (r->shape[0], ==, 7);
  g_assert_cmpint (r->shape[1], ==, 9);
  g_assert_cmpint (r->shape[2], ==, 130);
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 9; j++)
      for (int k = 0; k < 130; k++)
        {
          double want = fx_tensor_get_double (a, i * 130 + k) * fx_tensor_get_double (b, j);
          g_assert_cmpfloat (fx_tensor_get_double (r, (i * 9 + j) * 130 + k), ==, want);
        }
  fx_tensor_unref (r);
  fx_tensor_unref (a);
  fx_tensor_unref (b);
}

/* ------------------------------------------------------------------ in place */

static void
test_inplace_aliasing (void)
{
  int64_t shape[2] = { 3, 3 };
  GError *error = NULL;
  FxTensor *x = random_tensor (D (FLOAT32), 2, shape, 6), *ref = fx_tensor_clone (x), *r;

  /* x += x: the same memory in the same layout is fine */
  r = fx_tensor_binary_ (FX_BINARY_ADD, x, x, &error);
  g_assert_no_error (error);
  g_assert_true (r == x);
  fx_tensor_unref (r);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (fx_tensor_get_double (x, i), ==, 2 * fx_tensor_get_double (ref, i));

  /* x += x.t() and x += x[0] overlap partially: PyTorch refuses */
  FxTensor *xt = fx_tensor_t (x, NULL), *row = fx_tensor_select (x, 0, 0, NULL);
  r = fx_tensor_binary_ (FX_BINARY_ADD, x, xt, &error);
  g_assert_null (r);
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_true (g_str_has_prefix (error->message, "unsupported operation: some elements"));
  g_clear_error (&error);
  r = fx_tensor_binary_ (FX_BINARY_MUL, x, row, &error);
  g_assert_null (r);
  g_clear_error (&error);

  /* a column view written from an overlapping column view: PyTorch cannot tell (not dense)
   * and we read a snapshot, so the result is the out-of-place one */
  FxTensor *c0 = fx_tensor_slice (x, 1, 0, 2, 1, NULL), *c1 = fx_tensor_slice (x, 1, 1, 3, 1, NULL);
  FxTensor *want = fx_tensor_add (c0, c1, NULL);
  r = fx_tensor_binary_ (FX_BINARY_ADD, c0, c1, &error);
  g_assert_no_error (error);
  g_assert_true (same_bits (r, want));
  fx_tensor_unref (r);
  fx_tensor_unref (want);

  /* writing into an expanded tensor */
  int64_t three = 3;
  FxTensor *v = fx_tensor_ones (D (FLOAT32), 1, &three), *e = fx_tensor_expand (v, 2, shape, NULL);
  r = fx_tensor_unary_ (FX_UNARY_NEG, e, 0, 0, &error);
  g_assert_null (r);
  g_assert_true (g_str_has_prefix (error->message, "unsupported operation: more than one"));
  g_clear_error (&error);
  /* ... which fill_ and zero_ allow */
  fx_tensor_fill_double_ (e, 4.0);
  g_assert_cmpfloat (fx_tensor_get_double (v, 2), ==, 4.0);
  fx_tensor_zero_ (e);
  g_assert_cmpfloat (fx_tensor_get_double (v, 1), ==, 0.0);

  /* in place into a transposed view (strided output) */
  FxTensor *xt2 = fx_tensor_t (x, NULL), *before = fx_tensor_clone (xt2);
  FxTensor *w = fx_tensor_wrap_double (1.5);
  r = fx_tensor_binary_ (FX_BINARY_SUB, xt2, w, &error);
  g_assert_no_error (error);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (fx_tensor_get_double (xt2, i), ==,
                       (double) ((float) fx_tensor_get_double (before, i) - 1.5f));
  fx_tensor_unref (r);

  fx_tensor_unref (w);
  fx_tensor_unref (before);
  fx_tensor_unref (xt2);
  fx_tensor_unref (v);
  fx_tensor_unref (e);
  fx_tensor_unref (c0);
  fx_tensor_unref (c1);
  fx_tensor_unref (xt);
  fx_tensor_unref (row);
  fx_tensor_unref (ref);
  fx_tensor_unref (x);
}

static void
test_inplace_errors (void)
{
  int64_t s3 = 3, s23[2] = { 2, 3 };
  GError *error = NULL;
  FxTensor *i = fx_tensor_zeros (D (INT64), 1, &s3), *f = fx_tensor_zeros (D (FLOAT32), 1, &s3);
  FxTensor *b = fx_tensor_zeros (D (BOOL), 1, &s3), *f23 = fx_tensor_zeros (D (FLOAT32), 2, s23);
  FxTensor *half = fx_tensor_wrap_double (2.5), *one = fx_tensor_wrap_int64 (1);

  g_assert_null (fx_tensor_binary_ (FX_BINARY_ADD, i, half, &error));
  g_assert_cmpstr (error->message, ==, "result type Float can't be cast to the desired output type Long");
  g_clear_error (&error);
  g_assert_null (fx_tensor_binary_ (FX_BINARY_ADD, b, one, &error));
  g_assert_cmpstr (error->message, ==, "result type Long can't be cast to the desired output type Bool");
  g_clear_error (&error);
  g_assert_null (fx_tensor_binary_ (FX_BINARY_DIV, i, i, &error));
  g_clear_error (&error);
  g_assert_null (fx_tensor_unary_ (FX_UNARY_EXP, i, 0, 0, &error));
  g_clear_error (&error);
  g_assert_null (fx_tensor_binary_ (FX_BINARY_ADD, f, f23, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "output with shape [3] doesn't match the broadcast shape [2, 3]");
  g_clear_error (&error);
  g_assert_null (fx_tensor_clamp (i, half, NULL, TRUE, &error));
  g_assert_cmpstr (error->message, ==, "result type Float can't be cast to the desired output type long int");
  g_clear_error (&error);
  /* comparisons write 0/1 into any dtype */
  FxTensor *r = fx_tensor_binary_ (FX_BINARY_EQ, i, half, &error);
  g_assert_no_error (error);
  fx_tensor_unref (r);
  /* float32 += float64 computes in double and rounds once */
  FxTensor *d = vec (D (FLOAT64), 3, (const double[]) { 0.1, 0.2, 1e-9 });
  r = fx_tensor_binary_ (FX_BINARY_ADD, f, d, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r->dtype, ==, D (FLOAT32));
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, (double) (float) 0.1);
  fx_tensor_unref (r);

  fx_tensor_unref (d);
  fx_tensor_unref (i);
  fx_tensor_unref (f);
  fx_tensor_unref (b);
  fx_tensor_unref (f23);
  fx_tensor_unref (half);
  fx_tensor_unref (one);
}

/* ------------------------------------------------------------------ integers */

static void
test_integer_semantics (void)
{
  GError *error = NULL;
  FxTensor *a = vec (D (INT64), 4, (const double[]) { 7, -7, 7, -7 });
  FxTensor *b = vec (D (INT64), 4, (const double[]) { 2, 2, -2, -2 });
  FxTensor *r;

  r = fx_tensor_binary (FX_BINARY_DIV_FLOOR, a, b, &error);
  assert_values (r, 4, (const double[]) { 3, -4, -4, 3 });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_DIV_TRUNC, a, b, &error);
  assert_values (r, 4, (const double[]) { 3, -3, -3, 3 });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_REMAINDER, a, b, &error);
  assert_values (r, 4, (const double[]) { 1, 1, -1, -1 });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_FMOD, a, b, &error);
  assert_values (r, 4, (const double[]) { 1, -1, 1, -1 });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_DIV, a, b, &error);
  g_assert_cmpint (r->dtype, ==, D (FLOAT32));
  assert_values (r, 4, (const double[]) { 3.5, -3.5, -3.5, 3.5 });
  fx_tensor_unref (r);
  g_assert_no_error (error);

  /* zero divisors */
  FxTensor *z = fx_tensor_wrap_int64 (0);
  FxBinaryOp zops[] = { FX_BINARY_DIV_FLOOR, FX_BINARY_DIV_TRUNC, FX_BINARY_REMAINDER, FX_BINARY_FMOD };
  for (gsize k = 0; k < G_N_ELEMENTS (zops); k++)
    {
      g_assert_null (fx_tensor_binary (zops[k], a, z, &error));
      g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
      g_assert_cmpstr (error->message, ==, "ZeroDivisionError");
      g_clear_error (&error);
    }
  fx_tensor_unref (z);

  /* INT64_MIN // -1 wraps instead of trapping; int8 arithmetic wraps */
  int64_t mn = INT64_MIN, one = 1;
  FxTensor *m = fx_tensor_new_from_data (D (INT64), 1, &one, &mn), *m1 = fx_tensor_wrap_int64 (-1);
  r = fx_tensor_binary (FX_BINARY_DIV_FLOOR, m, m1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fx_tensor_get_int64 (r, 0), ==, INT64_MIN);
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_REMAINDER, m, m1, &error);
  g_assert_cmpint (fx_tensor_get_int64 (r, 0), ==, 0);
  fx_tensor_unref (r);
  r = fx_tensor_unary (FX_UNARY_NEG, m, 0, 0, &error);
  g_assert_cmpint (fx_tensor_get_int64 (r, 0), ==, INT64_MIN);
  fx_tensor_unref (r);
  FxTensor *i8 = vec (D (INT8), 2, (const double[]) { 100, -128 });
  FxTensor *three = fx_tensor_wrap_int64 (3);
  r = fx_tensor_binary (FX_BINARY_MUL, i8, three, &error);
  g_assert_cmpint (r->dtype, ==, D (INT8));
  assert_values (r, 2, (const double[]) { 44, -128 });
  fx_tensor_unref (r);
  r = fx_tensor_pow_scalar (i8, three, FALSE, &error);
  assert_values (r, 2, (const double[]) { 64, 0 });   /* 100**3 = 1000000 → 64, (-128)**3 → 0 */
  fx_tensor_unref (r);

  /* integers to negative powers */
  FxTensor *mtwo = fx_tensor_wrap_int64 (-2);
  g_assert_null (fx_tensor_pow_scalar (a, mtwo, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "Integers to negative integer powers are not allowed.");
  g_clear_error (&error);
  FxTensor *base = vec (D (INT64), 4, (const double[]) { -1, 1, 2, 0 });
  FxTensor *eneg = vec (D (INT64), 4, (const double[]) { -3, -5, -1, -1 });
  r = fx_tensor_binary (FX_BINARY_POW, base, eneg, &error);
  assert_values (r, 4, (const double[]) { -1, 1, 0, 0 });
  fx_tensor_unref (r);

  fx_tensor_unref (mtwo);
  fx_tensor_unref (base);
  fx_tensor_unref (eneg);
  fx_tensor_unref (i8);
  fx_tensor_unref (three);
  fx_tensor_unref (m);
  fx_tensor_unref (m1);
  fx_tensor_unref (a);
  fx_tensor_unref (b);
}

/* ------------------------------------------------------------------ float details */

static void
test_float_semantics (void)
{
  GError *error = NULL;
  FxTensor *x = vec (D (FLOAT32), 6, (const double[]) { -0.0, NAN, -1, 2, INFINITY, -INFINITY });
  FxTensor *zeros = fx_tensor_zeros (D (FLOAT32), 1, (const int64_t[]) { 6 });
  FxTensor *r;

  r = fx_tensor_relu (x, &error);
  assert_values (r, 6, (const double[]) { 0, NAN, 0, 2, INFINITY, 0 });
  g_assert_true (signbit (fx_tensor_get_double (r, 0)));   /* relu(-0.) is -0. */
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_MAXIMUM, x, zeros, &error);
  assert_values (r, 6, (const double[]) { 0, NAN, 0, 2, INFINITY, 0 });
  fx_tensor_unref (r);
  r = fx_tensor_unary (FX_UNARY_SIGN, x, 0, 0, &error);
  assert_values (r, 6, (const double[]) { 0, 0, -1, 1, 1, -1 });
  fx_tensor_unref (r);

  /* floor division and remainder of floats follow Python, keeping torch's -0.0 */
  FxTensor *a = vec (D (FLOAT64), 4, (const double[]) { 7.5, -7.5, -5, 1 });
  FxTensor *b = vec (D (FLOAT64), 4, (const double[]) { -2, 2, 1, 0 });
  r = fx_tensor_binary (FX_BINARY_DIV_FLOOR, a, b, &error);
  assert_values (r, 4, (const double[]) { -4, -4, -5, INFINITY });
  fx_tensor_unref (r);
  r = fx_tensor_binary (FX_BINARY_REMAINDER, a, b, &error);
  assert_values (r, 4, (const double[]) { -0.5, 0.5, 0, NAN });
  g_assert_true (signbit (fx_tensor_get_double (r, 2)));
  fx_tensor_unref (r);

  /* round half to even, and with decimals */
  FxTensor *h = vec (D (FLOAT32), 4, (const double[]) { 0.5, 1.5, 2.5, -2.5 });
  r = fx_tensor_unary (FX_UNARY_ROUND, h, 0, 0, &error);
  assert_values (r, 4, (const double[]) { 0, 2, 2, -2 });
  fx_tensor_unref (r);
  r = fx_tensor_unary (FX_UNARY_ROUND, h, -1, 1, &error);
  assert_values (r, 4, (const double[]) { 0, 0, 0, 0 });
  fx_tensor_unref (r);

  /* clamp: NaN bound gives NaN, min > max gives max */
  FxTensor *lo = fx_tensor_wrap_double (NAN), *hi = fx_tensor_wrap_double (1), *two = fx_tensor_wrap_double (2);
  r = fx_tensor_clamp (x, lo, hi, FALSE, &error);
  for (int i = 0; i < 6; i++)
    g_assert_true (isnan (fx_tensor_get_double (r, i)));
  fx_tensor_unref (r);
  r = fx_tensor_clamp (x, two, hi, FALSE, &error);
  assert_values (r, 6, (const double[]) { 1, NAN, 1, 1, 1, 1 });
  fx_tensor_unref (r);
  g_assert_null (fx_tensor_clamp (x, NULL, NULL, FALSE, &error));
  g_assert_cmpstr (error->message, ==, "torch.clamp: At least one of 'min' or 'max' must not be None");
  g_clear_error (&error);

  /* pow's scalar special cases */
  FxTensor *e = fx_tensor_wrap_double (-0.5);
  r = fx_tensor_pow_scalar (x, e, FALSE, &error);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, -INFINITY);   /* rsqrt(-0.) */
  fx_tensor_unref (r);

  fx_tensor_unref (e);
  fx_tensor_unref (lo);
  fx_tensor_unref (hi);
  fx_tensor_unref (two);
  fx_tensor_unref (h);
  fx_tensor_unref (a);
  fx_tensor_unref (b);
  fx_tensor_unref (x);
  fx_tensor_unref (zeros);
}

/* ------------------------------------------------------------------ the rest */

static void
test_where_isclose_fill (void)
{
  GError *error = NULL;
  FxTensor *c = vec (D (BOOL), 3, (const double[]) { 1, 0, 1 });
  FxTensor *a = vec (D (INT32), 3, (const double[]) { 1, 2, 3 });
  FxTensor *s = fx_tensor_wrap_double (2.5), *r;
  gboolean all;

  r = fx_tensor_where (c, a, s, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r->dtype, ==, D (FLOAT32));
  assert_values (r, 3, (const double[]) { 1, 2.5, 3 });
  fx_tensor_unref (r);
  g_assert_null (fx_tensor_where (a, a, a, &error));
  g_assert_cmpstr (error->message, ==,
                   "where expected condition to be a boolean tensor, but got a tensor with dtype Int");
  g_clear_error (&error);

  FxTensor *x = vec (D (FLOAT32), 3, (const double[]) { 1, NAN, 100 });
  FxTensor *y = vec (D (FLOAT32), 3, (const double[]) { 1.000001, NAN, 100.01 });
  r = fx_tensor_isclose (x, y, 1e-5, 1e-8, FALSE, &error);
  assert_values (r, 3, (const double[]) { 1, 0, 0 });
  fx_tensor_unref (r);
  g_assert_true (fx_tensor_allclose (x, y, 1e-3, 0, TRUE, &all, &error));
  g_assert_true (all);
  g_assert_true (fx_tensor_allclose (x, y, 1e-3, 0, FALSE, &all, &error));
  g_assert_false (all);
  g_assert_false (fx_tensor_allclose (x, a, 1e-3, 0, FALSE, &all, &error));
  g_assert_cmpstr (error->message, ==, "Float did not match Int");
  g_clear_error (&error);

  /* fill_ converts like PyTorch: 2.7 into int is 2, anything non-zero into bool is True */
  FxTensor *v27 = fx_tensor_wrap_double (2.7);
  g_assert_true (fx_tensor_fill_ (a, v27, &error));
  g_assert_cmpint (fx_tensor_get_int64 (a, 1), ==, 2);
  fx_tensor_unref (v27);
  FxTensor *v1 = vec (D (FLOAT32), 1, (const double[]) { 1 });
  g_assert_false (fx_tensor_fill_ (a, v1, &error));
  g_assert_cmpstr (error->message, ==,
                   "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  g_clear_error (&error);

  fx_tensor_unref (v1);
  fx_tensor_unref (x);
  fx_tensor_unref (y);
  fx_tensor_unref (c);
  fx_tensor_unref (a);
  fx_tensor_unref (s);
}

static void
test_empty_and_scalars (void)
{
  GError *error = NULL;
  int64_t e03[2] = { 0, 3 };
  FxTensor *e = fx_tensor_zeros (D (FLOAT32), 2, e03), *z = fx_tensor_scalar_double (D (FLOAT64), 2);
  FxTensor *r = fx_tensor_binary (FX_BINARY_ADD, e, z, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r->ndim, ==, 2);
  g_assert_cmpint (r->shape[0], ==, 0);
  g_assert_cmpint (r->dtype, ==, D (FLOAT32));
  fx_tensor_unref (r);
  r = fx_tensor_unary (FX_UNARY_EXP, z, 0, 0, &error);
  g_assert_cmpint (r->ndim, ==, 0);
  g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (r, 0), exp (2.0), 1e-12);
  fx_tensor_unref (r);
  r = fx_tensor_add_scalar (z, 1.0, &error);
  g_assert_cmpint (r->dtype, ==, D (FLOAT64));
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 3.0);
  fx_tensor_unref (r);
  fx_tensor_unref (e);
  fx_tensor_unref (z);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/elementwise/result-type", test_result_type);
  g_test_add_func ("/elementwise/can-cast", test_can_cast);
  g_test_add_func ("/elementwise/common-dtype-conversion", test_common_dtype_conversion);
  g_test_add_func ("/elementwise/fast-path-matches-strided", test_fast_path_matches_strided);
  g_test_add_func ("/elementwise/scalar-path-matches-broadcast", test_scalar_path_matches_broadcast);
  g_test_add_func ("/elementwise/general-broadcast", test_general_broadcast);
  g_test_add_func ("/elementwise/inplace-aliasing", test_inplace_aliasing);
  g_test_add_func ("/elementwise/inplace-errors", test_inplace_errors);
  g_test_add_func ("/elementwise/integer-semantics", test_integer_semantics);
  g_test_add_func ("/elementwise/float-semantics", test_float_semantics);
  g_test_add_func ("/elementwise/where-isclose-fill", test_where_isclose_fill);
  g_test_add_func ("/elementwise/empty-and-scalars", test_empty_and_scalars);
  return g_test_run ();
}
