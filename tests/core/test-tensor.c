/* test-tensor.c: FxTensor storage, views and their PyTorch checks, converting copies, float16,
 * the strided iterator, and dtype promotion. Expected values were printed by PyTorch 1.13
 * (/usr/bin/python3); the snippets that produced the tables are quoted next to them. */
#include "fx-error.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

#include <math.h>
#include <string.h>

#define SHAPE(...) ((const int64_t[]) { __VA_ARGS__ })

static FxTensor *
arange_f32 (int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, ndim, shape);
  float *d = fx_tensor_data (t);
  for (int64_t i = 0; i < fx_tensor_numel (t); i++)
    d[i] = (float) i;
  return t;
}

static void
assert_shape (const FxTensor *t, int ndim, const int64_t *shape)
{
  g_assert_cmpint (t->ndim, ==, ndim);
  for (int i = 0; i < ndim; i++)
    g_assert_cmpint (t->shape[i], ==, shape[i]);
}

static void
assert_strides (const FxTensor *t, int ndim, const int64_t *strides)
{
  g_assert_cmpint (t->ndim, ==, ndim);
  for (int i = 0; i < ndim; i++)
    g_assert_cmpint (t->strides[i], ==, strides[i]);
}

static void
assert_values (const FxTensor *t, int n, const double *values)
{
  g_assert_cmpint (fx_tensor_numel (t), ==, n);
  for (int i = 0; i < n; i++)
    g_assert_cmpfloat (fx_tensor_get_double (t, i), ==, values[i]);
}

/* The error of a failed call: NULL result, domain FX_ERROR, code, and exact message. */
#define ASSERT_FAILS(expr, code, msg)                                       \
  do {                                                                      \
    GError *err_ = NULL;                                                    \
    FxTensor *r_ = (expr);                                                  \
    g_assert_null (r_);                                                     \
    g_assert_error (err_, FX_ERROR, code);                                  \
    g_assert_cmpstr (err_->message, ==, msg);                               \
    g_error_free (err_);                                                    \
  } while (0)

/* ------------------------------------------------------------------ dtype */

static void
test_dtype_promote (void)
{
  /* torch.promote_types over bool, uint8, int8, int16, int32, int64, float16, float32, float64 */
  static const int expected[FX_DTYPE_N][FX_DTYPE_N] = {
    { 0, 1, 2, 3, 4, 5, 6, 7, 8 },
    { 1, 1, 3, 3, 4, 5, 6, 7, 8 },
    { 2, 3, 2, 3, 4, 5, 6, 7, 8 },
    { 3, 3, 3, 3, 4, 5, 6, 7, 8 },
    { 4, 4, 4, 4, 4, 5, 6, 7, 8 },
    { 5, 5, 5, 5, 5, 5, 6, 7, 8 },
    { 6, 6, 6, 6, 6, 6, 6, 7, 8 },
    { 7, 7, 7, 7, 7, 7, 7, 7, 8 },
    { 8, 8, 8, 8, 8, 8, 8, 8, 8 },
  };
  for (int a = 0; a < FX_DTYPE_N; a++)
    for (int b = 0; b < FX_DTYPE_N; b++)
      g_assert_cmpint (fx_dtype_promote (a, b), ==, expected[a][b]);
}

static void
test_dtype_names (void)
{
  static const char *const names[FX_DTYPE_N] = {
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"
  };
  static const gsize sizes[FX_DTYPE_N] = { 1, 1, 1, 2, 4, 8, 2, 4, 8 };
  static const struct { const char *name; FxDType dtype; } aliases[] = {
    { "float", FX_DTYPE_FLOAT32 }, { "torch.float", FX_DTYPE_FLOAT32 },
    { "double", FX_DTYPE_FLOAT64 }, { "half", FX_DTYPE_FLOAT16 }, { "long", FX_DTYPE_INT64 },
    { "int", FX_DTYPE_INT32 }, { "short", FX_DTYPE_INT16 }, { "torch.bool", FX_DTYPE_BOOL },
    { "torch.long", FX_DTYPE_INT64 }, { "torch.uint8", FX_DTYPE_UINT8 },
  };
  FxDType d;

  for (int i = 0; i < FX_DTYPE_N; i++)
    {
      char *prefixed = g_strconcat ("torch.", names[i], NULL);
      g_assert_cmpstr (fx_dtype_name (i), ==, names[i]);
      g_assert_cmpuint (fx_dtype_size (i), ==, sizes[i]);
      g_assert_true (fx_dtype_from_name (names[i], &d));
      g_assert_cmpint (d, ==, i);
      g_assert_true (fx_dtype_from_name (prefixed, &d));
      g_assert_cmpint (d, ==, i);
      g_free (prefixed);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (aliases); i++)
    {
      g_assert_true (fx_dtype_from_name (aliases[i].name, &d));
      g_assert_cmpint (d, ==, aliases[i].dtype);
    }
  g_assert_false (fx_dtype_from_name ("float128", &d));
  g_assert_false (fx_dtype_from_name ("torch.", &d));
  g_assert_false (fx_dtype_from_name ("", &d));
  g_assert_false (fx_dtype_from_name (NULL, &d));
  g_assert_true (fx_dtype_is_floating (FX_DTYPE_FLOAT16));
  g_assert_false (fx_dtype_is_floating (FX_DTYPE_INT64));
  g_assert_true (fx_dtype_is_integral (FX_DTYPE_UINT8));
  g_assert_false (fx_dtype_is_integral (FX_DTYPE_BOOL));
  g_assert_false (fx_dtype_is_integral (FX_DTYPE_FLOAT32));
}

/* ------------------------------------------------------------------ creation */

static void
test_creation (void)
{
  g_autoptr (FxTensor) z = fx_tensor_zeros (FX_DTYPE_INT64, 2, SHAPE (2, 3));
  g_autoptr (FxTensor) o = fx_tensor_ones (FX_DTYPE_FLOAT16, 1, SHAPE (5));
  g_autoptr (FxTensor) f = fx_tensor_full (FX_DTYPE_INT16, 3, SHAPE (3, 1, 7), -4.0);
  g_autoptr (FxTensor) b = fx_tensor_full (FX_DTYPE_BOOL, 1, SHAPE (9), 0.5);
  g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT64, 2.5);
  g_autoptr (FxTensor) si = fx_tensor_scalar_int64 (FX_DTYPE_INT64, INT64_MAX);
  static const int32_t raw[6] = { 1, -2, 3, -4, 5, -6 };
  g_autoptr (FxTensor) d = fx_tensor_new_from_data (FX_DTYPE_INT32, 2, SHAPE (3, 2), raw);
  g_autoptr (FxTensor) e = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, SHAPE (0, 4));
  g_autoptr (FxTensor) wd = fx_tensor_wrap_double (1.5);
  g_autoptr (FxTensor) wi = fx_tensor_wrap_int64 (-7);
  g_autoptr (FxTensor) wb = fx_tensor_wrap_bool (TRUE);

  g_assert_cmpint (fx_tensor_numel (z), ==, 6);
  assert_strides (z, 2, SHAPE (3, 1));
  g_assert_true (fx_tensor_is_contiguous (z));
  g_assert_cmpuint ((guintptr) fx_tensor_data (z) % 64, ==, 0);
  g_assert_cmpuint ((guintptr) fx_tensor_data (e) % 64, ==, 0);
  for (int i = 0; i < 6; i++)
    g_assert_cmpint (fx_tensor_get_int64 (z, i), ==, 0);
  for (int i = 0; i < 5; i++)
    g_assert_cmpfloat (fx_tensor_get_double (o, i), ==, 1.0);
  assert_strides (f, 3, SHAPE (7, 7, 1));   /* PyTorch: torch.zeros(3,1,7).stride() */
  for (int i = 0; i < 21; i++)
    g_assert_cmpint (fx_tensor_get_int64 (f, i), ==, -4);
  for (int i = 0; i < 9; i++)
    g_assert_cmpint (fx_tensor_get_int64 (b, i), ==, 1);
  g_assert_cmpint (s->ndim, ==, 0);
  g_assert_cmpint (fx_tensor_numel (s), ==, 1);
  g_assert_true (fx_tensor_is_contiguous (s));
  g_assert_cmpfloat (fx_tensor_get_double (s, 0), ==, 2.5);
  g_assert_cmpint (fx_tensor_get_int64 (si, 0), ==, INT64_MAX);
  for (int i = 0; i < 6; i++)
    g_assert_cmpint (fx_tensor_get_int64 (d, i), ==, raw[i]);
  g_assert_cmpint (fx_tensor_numel (e), ==, 0);
  g_assert_true (fx_tensor_is_contiguous (e));
  g_assert_cmpint (fx_tensor_size (e, -1), ==, 4);
  g_assert_cmpint (fx_tensor_size (e, 0), ==, 0);
  g_assert_cmpint (fx_tensor_size (s, 0), ==, 1);

  g_assert_true (wd->wrapped_number && wi->wrapped_number && wb->wrapped_number);
  g_assert_cmpint (wd->dtype, ==, FX_DTYPE_FLOAT64);
  g_assert_cmpint (wi->dtype, ==, FX_DTYPE_INT64);
  g_assert_cmpint (wb->dtype, ==, FX_DTYPE_BOOL);
  g_assert_cmpint (fx_tensor_get_int64 (wi, 0), ==, -7);
  g_assert_cmpint (fx_tensor_get_int64 (wb, 0), ==, 1);
  g_assert_false (z->wrapped_number);

  /* a full of many elements of every dtype */
  for (int dt = 0; dt < FX_DTYPE_N; dt++)
    {
      g_autoptr (FxTensor) big = fx_tensor_full (dt, 2, SHAPE (37, 11), 3.0);
      for (int i = 0; i < 37 * 11; i += 13)
        g_assert_cmpfloat (fx_tensor_get_double (big, i), ==, dt == FX_DTYPE_BOOL ? 1.0 : 3.0);
      g_assert_cmpfloat (fx_tensor_get_double (big, 37 * 11 - 1), ==, dt == FX_DTYPE_BOOL ? 1.0 : 3.0);
    }
}

static void
test_borrowed_storage (void)
{
  static float buf[4] = { 1, 2, 3, 4 };
  FxStorage *st = fx_storage_new_borrowed (buf, sizeof buf, NULL, NULL);
  FxTensor *t = fx_tensor_new_view (st, FX_DTYPE_FLOAT32, 2, SHAPE (2, 2), SHAPE (1, 2), 0);
  fx_storage_unref (st);
  g_assert_cmpfloat (fx_tensor_get_double (t, 1), ==, 3.0);
  g_assert_false (fx_tensor_is_contiguous (t));
  fx_tensor_unref (t);
}

static int borrowed_freed;
static void on_borrowed_free (gpointer data) { borrowed_freed += GPOINTER_TO_INT (data); }

static void
test_borrowed_free_func (void)
{
  static double buf[3] = { 1, 2, 3 };
  FxStorage *st = fx_storage_new_borrowed (buf, sizeof buf, on_borrowed_free, GINT_TO_POINTER (5));
  FxTensor *t = fx_tensor_new_view (st, FX_DTYPE_FLOAT64, 1, SHAPE (3), SHAPE (1), 0);
  FxTensor *v;
  fx_storage_unref (st);
  v = fx_tensor_slice (t, 0, 1, 3, 1, NULL);
  fx_tensor_unref (t);
  g_assert_cmpint (borrowed_freed, ==, 0);
  g_assert_cmpfloat (fx_tensor_get_double (v, 1), ==, 3.0);
  fx_tensor_unref (v);
  g_assert_cmpint (borrowed_freed, ==, 5);
}

/* ------------------------------------------------------------------ views */

static void
test_views_share_storage (void)
{
  g_autoptr (FxTensor) x = arange_f32 (3, SHAPE (2, 3, 4));
  GError *error = NULL;
  int perm[3] = { 2, 0, 1 };
  g_autoptr (FxTensor) p = fx_tensor_permute (x, 3, perm, &error);
  g_autoptr (FxTensor) tr = fx_tensor_transpose (x, 0, 2, &error);
  g_autoptr (FxTensor) na = fx_tensor_narrow (x, 2, 1, 2, &error);
  g_autoptr (FxTensor) s1 = fx_tensor_slice (x, 1, 1, 3, 1, &error);
  g_autoptr (FxTensor) sl = fx_tensor_slice (s1, 2, 0, INT64_MAX, 2, &error);
  g_autoptr (FxTensor) se = fx_tensor_select (x, 1, 2, &error);
  g_autoptr (FxTensor) sn = fx_tensor_select (x, 1, -1, &error);
  g_autoptr (FxTensor) u1 = fx_tensor_unsqueeze (x, 1, &error);
  g_autoptr (FxTensor) u3 = fx_tensor_unsqueeze (x, -1, &error);
  g_autoptr (FxTensor) sq = fx_tensor_squeeze (u1, &error);
  g_autoptr (FxTensor) sq1 = fx_tensor_squeeze_dim (u3, 3, &error);
  g_autoptr (FxTensor) sq0 = fx_tensor_squeeze_dim (x, 0, &error);
  g_autoptr (FxTensor) v = fx_tensor_view (x, 2, SHAPE (6, -1), &error);
  static const double sl_values[] = { 4, 6, 8, 10, 16, 18, 20, 22 };

  g_assert_no_error (error);
  /* x.permute(2,0,1).stride() == (1, 12, 4); x.transpose(0,2).stride() == (1, 4, 12) */
  assert_shape (p, 3, SHAPE (4, 2, 3));
  assert_strides (p, 3, SHAPE (1, 12, 4));
  assert_strides (tr, 3, SHAPE (1, 4, 12));
  g_assert_cmpint (na->offset, ==, 1);
  /* x[:, 1:3, ::2]: stride (12, 4, 2), offset 4, values [4, 6, 8, 10, 16, 18, 20, 22] */
  assert_strides (sl, 3, SHAPE (12, 4, 2));
  g_assert_cmpint (sl->offset, ==, 4);
  assert_values (sl, 8, sl_values);
  assert_strides (se, 2, SHAPE (12, 1));
  g_assert_cmpint (sn->offset, ==, 8);
  assert_strides (u1, 4, SHAPE (12, 12, 4, 1));
  assert_strides (u3, 4, SHAPE (12, 4, 1, 1));
  assert_shape (sq, 3, SHAPE (2, 3, 4));
  assert_shape (sq1, 3, SHAPE (2, 3, 4));
  assert_shape (sq0, 3, SHAPE (2, 3, 4));
  assert_shape (v, 2, SHAPE (6, 4));

  FxTensor *views[] = { p, tr, na, s1, sl, se, sn, u1, u3, sq, sq1, sq0, v };
  for (gsize i = 0; i < G_N_ELEMENTS (views); i++)
    g_assert_true (views[i]->storage == x->storage);

  /* writes through a view land in the base */
  ((float *) fx_tensor_data (se))[1] = 100.0f;   /* x[0, 2, 1] */
  g_assert_cmpfloat (fx_tensor_get_double (x, 9), ==, 100.0);
  g_assert_cmpfloat (fx_tensor_get_double (p, 1 * 6 + 0 * 3 + 2), ==, 100.0);  /* p[1,0,2] */
  g_assert_false (fx_tensor_is_contiguous (p));
  g_assert_false (fx_tensor_is_contiguous (sl));
  g_assert_true (fx_tensor_is_contiguous (u1));
  g_assert_true (fx_tensor_is_contiguous (se) == FALSE);

  /* x[:, -100:100:3, -2:].shape == [2, 1, 2]; x[:, 5:1].shape == [2, 0, 4] */
  {
    g_autoptr (FxTensor) a = fx_tensor_slice (x, 1, -100, 100, 3, &error);
    g_autoptr (FxTensor) b = fx_tensor_slice (a, 2, -2, INT64_MAX, 1, &error);
    g_autoptr (FxTensor) c = fx_tensor_slice (x, 1, 5, 1, 1, &error);
    g_autoptr (FxTensor) d = fx_tensor_slice (x, 1, INT64_MIN, INT64_MAX, INT64_MAX, &error);
    g_assert_no_error (error);
    assert_shape (b, 3, SHAPE (2, 1, 2));
    assert_shape (c, 3, SHAPE (2, 0, 4));
    assert_shape (d, 3, SHAPE (2, 1, 4));
  }
}

static void
test_expand (void)
{
  g_autoptr (FxTensor) y = arange_f32 (2, SHAPE (3, 1));
  g_autoptr (FxTensor) r = arange_f32 (2, SHAPE (1, 3));
  g_autoptr (FxTensor) v = arange_f32 (1, SHAPE (3));
  g_autoptr (FxTensor) one = arange_f32 (1, SHAPE (1));
  GError *error = NULL;
  g_autoptr (FxTensor) e = fx_tensor_expand (y, 3, SHAPE (2, 3, 4), &error);
  g_autoptr (FxTensor) e2 = fx_tensor_expand (r, 2, SHAPE (-1, 3), &error);
  g_autoptr (FxTensor) e3 = fx_tensor_expand (one, 1, SHAPE (0), &error);
  g_assert_no_error (error);
  /* torch.zeros(3,1).expand(2,3,4).stride() == (0, 1, 0) */
  assert_strides (e, 3, SHAPE (0, 1, 0));
  assert_strides (e2, 2, SHAPE (3, 1));
  assert_shape (e3, 1, SHAPE (0));
  /* torch.zeros(3).expand(1,3).stride() == (3, 1); .expand(1,1,2,3) -> (0, 0, 0, 1);
   * torch.tensor(1.).expand(1).stride() == (0,); torch.zeros(2,3).t().expand(1,3,2) -> (3, 1, 3) */
  {
    g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1.0);
    g_autoptr (FxTensor) m = arange_f32 (2, SHAPE (2, 3));
    g_autoptr (FxTensor) mt = fx_tensor_t (m, NULL);
    g_autoptr (FxTensor) a = fx_tensor_expand (v, 2, SHAPE (1, 3), &error);
    g_autoptr (FxTensor) b = fx_tensor_expand (v, 4, SHAPE (1, 1, 2, 3), &error);
    g_autoptr (FxTensor) c = fx_tensor_expand (s, 1, SHAPE (1), &error);
    g_autoptr (FxTensor) d = fx_tensor_expand (mt, 3, SHAPE (1, 3, 2), &error);
    g_assert_no_error (error);
    assert_strides (a, 2, SHAPE (3, 1));
    assert_strides (b, 4, SHAPE (0, 0, 0, 1));
    assert_strides (c, 1, SHAPE (0));
    assert_strides (d, 3, SHAPE (3, 1, 3));
  }
  g_assert_cmpfloat (fx_tensor_get_double (e, 23), ==, 2.0);
  g_assert_cmpfloat (fx_tensor_get_double (e, 4), ==, 1.0);

  ASSERT_FAILS (fx_tensor_expand (v, 2, SHAPE (2, 4), &err_), FX_ERROR_SHAPE,
                "The expanded size of the tensor (4) must match the existing size (3) at "
                "non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [3]");
  ASSERT_FAILS (fx_tensor_expand (v, 2, SHAPE (-1, 3), &err_), FX_ERROR_FAILED,
                "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                "dimension 0");
  ASSERT_FAILS (fx_tensor_expand (v, 2, SHAPE (2, -2), &err_), FX_ERROR_SHAPE,
                "The expanded size of the tensor (-2) must match the existing size (3) at "
                "non-singleton dimension 1.  Target sizes: [2, -2].  Tensor sizes: [3]");
  ASSERT_FAILS (fx_tensor_expand (y, 1, SHAPE (4), &err_), FX_ERROR_FAILED,
                "expand(torch.FloatTensor{[3, 1]}, size=[4]): the number of sizes provided (1) "
                "must be greater or equal to the number of dimensions in the tensor (2)");
}

static void
test_view_errors (void)
{
  g_autoptr (FxTensor) x = arange_f32 (2, SHAPE (2, 3));
  g_autoptr (FxTensor) t = fx_tensor_t (x, NULL);
  g_autoptr (FxTensor) e = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, SHAPE (0, 3));
  g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1.0);
  g_autoptr (FxTensor) x3 = arange_f32 (3, SHAPE (2, 3, 4));
  int p1[1] = { 0 }, p2[2] = { 0, 0 }, p3[2] = { 0, 2 }, p4[2] = { 0, -3 };

  ASSERT_FAILS (fx_tensor_view (x, 2, SHAPE (2, 5), &err_), FX_ERROR_SHAPE,
                "shape '[2, 5]' is invalid for input of size 6");
  ASSERT_FAILS (fx_tensor_reshape (x, 2, SHAPE (2, 5), &err_), FX_ERROR_SHAPE,
                "shape '[2, 5]' is invalid for input of size 6");
  ASSERT_FAILS (fx_tensor_view (x, 2, SHAPE (-1, -1), &err_), FX_ERROR_SHAPE,
                "only one dimension can be inferred");
  ASSERT_FAILS (fx_tensor_view (x, 2, SHAPE (-2, 3), &err_), FX_ERROR_SHAPE,
                "invalid shape dimension -2");
  ASSERT_FAILS (fx_tensor_view (t, 1, SHAPE (6), &err_), FX_ERROR_SHAPE,
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  ASSERT_FAILS (fx_tensor_view (e, 2, SHAPE (0, -1), &err_), FX_ERROR_SHAPE,
                "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
                "dimension size -1 can be any value and is ambiguous");
  ASSERT_FAILS (fx_tensor_view (x, 3, SHAPE (4, -1, 0), &err_), FX_ERROR_SHAPE,
                "shape '[4, -1, 0]' is invalid for input of size 6");
  ASSERT_FAILS (fx_tensor_view (x, 1, SHAPE (7), &err_), FX_ERROR_SHAPE, "shape '[7]' is invalid for input of size 6");
  {
    GError *error = NULL;
    g_autoptr (FxTensor) v = fx_tensor_view (e, 1, SHAPE (-1), &error);
    g_autoptr (FxTensor) v2 = fx_tensor_view (e, 2, SHAPE (5, 0), &error);
    g_assert_no_error (error);
    assert_shape (v, 1, SHAPE (0));
    assert_strides (v2, 2, SHAPE (1, 1));   /* torch.zeros(0,3).view(5,0).stride() */
  }

  ASSERT_FAILS (fx_tensor_transpose (x, 0, 2, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  ASSERT_FAILS (fx_tensor_transpose (s, 0, -2, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
  ASSERT_FAILS (fx_tensor_permute (x, 1, p1, &err_), FX_ERROR_FAILED,
                "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                "length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to "
                "len(dims) = 1");
  ASSERT_FAILS (fx_tensor_permute (x, 2, p2, &err_), FX_ERROR_FAILED,
                "permute(): duplicate dims are not allowed.");
  ASSERT_FAILS (fx_tensor_permute (x, 2, p3, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  ASSERT_FAILS (fx_tensor_permute (x, 2, p4, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  ASSERT_FAILS (fx_tensor_t (x3, &err_), FX_ERROR_FAILED,
                "t() expects a tensor with <= 2 dimensions, but self is 3D");
  ASSERT_FAILS (fx_tensor_narrow (x, 1, 4, 1, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-3, 2], but got 4)");
  ASSERT_FAILS (fx_tensor_narrow (x, 1, 2, 3, &err_), FX_ERROR_FAILED,
                "start (2) + length (3) exceeds dimension size (3).");
  ASSERT_FAILS (fx_tensor_narrow (x, 1, 1, -1, &err_), FX_ERROR_FAILED,
                "start (1) + length (-1) exceeds dimension size (3).");
  ASSERT_FAILS (fx_tensor_narrow (s, 0, 0, 1, &err_), FX_ERROR_FAILED,
                "narrow() cannot be applied to a 0-dim tensor.");
  ASSERT_FAILS (fx_tensor_select (x, 0, 5, &err_), FX_ERROR_INDEX,
                "select(): index 5 out of range for tensor of size [2, 3] at dimension 0");
  ASSERT_FAILS (fx_tensor_select (x, -1, -7, &err_), FX_ERROR_INDEX,
                "select(): index -7 out of range for tensor of size [2, 3] at dimension 1");
  ASSERT_FAILS (fx_tensor_select (s, 0, 0, &err_), FX_ERROR_INDEX,
                "select() cannot be applied to a 0-dim tensor.");
  ASSERT_FAILS (fx_tensor_squeeze_dim (x, 3, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-2, 1], but got 3)");
  ASSERT_FAILS (fx_tensor_unsqueeze (x, 3, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  ASSERT_FAILS (fx_tensor_unsqueeze (x, -4, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
  ASSERT_FAILS (fx_tensor_slice (x, 1, 0, 3, 0, &err_), FX_ERROR_INVALID_ARGUMENT,
                "slice step cannot be zero");
  ASSERT_FAILS (fx_tensor_slice (x, 1, 0, 3, -1, &err_), FX_ERROR_INVALID_ARGUMENT,
                "step must be greater than zero");
  ASSERT_FAILS (fx_tensor_as_strided (x, 2, SHAPE (10, 10), SHAPE (1, 1), 0, &err_),
                FX_ERROR_FAILED,
                "setStorage: sizes [10, 10], strides [1, 1], storage offset 0, and itemsize 4 "
                "requiring a storage size of 76 are out of bounds for storage of size 24");
  ASSERT_FAILS (fx_tensor_as_strided (x, 1, SHAPE (2), SHAPE (-1), 0, &err_), FX_ERROR_FAILED,
                "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
  ASSERT_FAILS (fx_tensor_as_strided (x, 1, SHAPE (2), SHAPE (1), -1, &err_), FX_ERROR_FAILED,
                "Tensor: invalid storage offset -1");
  ASSERT_FAILS (fx_tensor_as_strided (x, 1, SHAPE (INT64_MAX), SHAPE (INT64_MAX), 0, &err_) ,
                FX_ERROR_FAILED,
                "setStorage: sizes [9223372036854775807], strides [9223372036854775807], storage "
                "offset 0, and itemsize 4 requiring a storage size of 9223372036854775807 are out "
                "of bounds for storage of size 24");
}

static void
test_zero_dim_ops (void)
{
  g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 3.0);
  GError *error = NULL;
  g_autoptr (FxTensor) t = fx_tensor_t (s, &error);
  g_autoptr (FxTensor) tr = fx_tensor_transpose (s, 0, -1, &error);
  g_autoptr (FxTensor) p = fx_tensor_permute (s, 0, NULL, &error);
  g_autoptr (FxTensor) u = fx_tensor_unsqueeze (s, 0, &error);
  g_autoptr (FxTensor) sq = fx_tensor_squeeze (u, &error);
  g_autoptr (FxTensor) sq0 = fx_tensor_squeeze_dim (s, 0, &error);
  g_autoptr (FxTensor) r = fx_tensor_reshape (s, 2, SHAPE (1, -1), &error);
  g_autoptr (FxTensor) e = fx_tensor_expand (s, 2, SHAPE (2, 3), &error);
  g_autoptr (FxTensor) back = fx_tensor_view (r, 0, NULL, &error);
  g_autoptr (FxTensor) c = fx_tensor_contiguous (e);
  double v;
  int64_t iv;

  g_assert_no_error (error);
  g_assert_cmpint (t->ndim, ==, 0);
  g_assert_cmpint (tr->ndim, ==, 0);
  g_assert_cmpint (p->ndim, ==, 0);
  assert_shape (u, 1, SHAPE (1));
  g_assert_cmpint (sq->ndim, ==, 0);
  g_assert_cmpint (sq0->ndim, ==, 0);
  assert_shape (r, 2, SHAPE (1, 1));
  assert_strides (e, 2, SHAPE (0, 0));
  g_assert_cmpint (back->ndim, ==, 0);
  g_assert_true (r->storage == s->storage);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (fx_tensor_get_double (c, i), ==, 3.0);
  g_assert_true (fx_tensor_item_double (s, &v, &error));
  g_assert_cmpfloat (v, ==, 3.0);
  g_assert_true (fx_tensor_item_int64 (r, &iv, &error));
  g_assert_cmpint (iv, ==, 3);
  g_assert_false (fx_tensor_item_double (e, &v, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "only one element tensors can be converted to Python scalars");
  g_clear_error (&error);
  {
    g_autoptr (FxTensor) empty = fx_tensor_zeros (FX_DTYPE_INT64, 1, SHAPE (0));
    g_assert_false (fx_tensor_item_int64 (empty, &iv, &error));
    g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
}

static void
test_empty_tensors (void)
{
  g_autoptr (FxTensor) e = fx_tensor_zeros (FX_DTYPE_FLOAT32, 3, SHAPE (2, 0, 3));
  GError *error = NULL;
  int perm[3] = { 2, 1, 0 };
  g_autoptr (FxTensor) p = fx_tensor_permute (e, 3, perm, &error);
  g_autoptr (FxTensor) c = fx_tensor_contiguous (p);
  g_autoptr (FxTensor) cl = fx_tensor_clone (p);
  g_autoptr (FxTensor) cv = fx_tensor_to_dtype (p, FX_DTYPE_INT8);
  g_autoptr (FxTensor) r = fx_tensor_reshape (p, 2, SHAPE (0, 7), &error);
  g_autoptr (FxTensor) n = fx_tensor_narrow (e, 1, 0, 0, &error);
  g_autoptr (FxTensor) n2 = fx_tensor_narrow (e, 1, -1 + 1, 0, &error);
  g_autoptr (FxTensor) sl = fx_tensor_slice (e, 2, 1, 2, 1, &error);
  g_autoptr (FxTensor) se = fx_tensor_select (e, 2, 1, &error);
  g_autoptr (FxTensor) ex = fx_tensor_expand (e, 4, SHAPE (5, 2, 0, 3), &error);
  g_autoptr (FxTensor) src = fx_tensor_ones (FX_DTYPE_FLOAT64, 1, SHAPE (3));
  FxStridedIter it;

  g_assert_no_error (error);
  g_assert_true (fx_tensor_is_contiguous (p));   /* numel 0: always contiguous */
  g_assert_cmpint (fx_tensor_numel (c), ==, 0);
  g_assert_cmpint (fx_tensor_numel (cl), ==, 0);
  g_assert_cmpint (cv->dtype, ==, FX_DTYPE_INT8);
  assert_shape (r, 2, SHAPE (0, 7));
  assert_shape (n, 3, SHAPE (2, 0, 3));
  assert_shape (n2, 3, SHAPE (2, 0, 3));
  assert_shape (sl, 3, SHAPE (2, 0, 1));
  assert_shape (se, 2, SHAPE (2, 0));
  assert_shape (ex, 4, SHAPE (5, 2, 0, 3));
  g_assert_true (fx_tensor_copy_into (e, src, &error));
  g_assert_no_error (error);
  fx_strided_iter_init (&it, p->ndim, p->shape, p->strides);
  g_assert_false (fx_strided_iter_next (&it));
  ASSERT_FAILS (fx_tensor_narrow (e, 1, 1, 0, &err_), FX_ERROR_INDEX,
                "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

/* ------------------------------------------------------------------ reshape: view or copy */

typedef struct {
  int ndim;
  int64_t shape[4], strides[4];
  int new_ndim;
  int64_t new_shape[4];
  gboolean is_view;
  int64_t view_strides[4];
} ReshapeCase;

/* Generated with PyTorch: base = torch.arange(200.); x = base.as_strided(shape, strides, 1);
 * r = x.reshape(new); is_view = r.data_ptr() == x.data_ptr() and the storages match;
 * view_strides = r.stride(). */
static const ReshapeCase reshape_cases[] = {
  { 2, {2, 3}, {3, 1}, 1, {6}, 1, {1} },
  { 2, {2, 3}, {1, 2}, 1, {6}, 0, {0} },
  { 2, {2, 3}, {1, 2}, 2, {3, 2}, 0, {0} },
  { 2, {2, 3}, {1, 2}, 3, {2, 3, 1}, 1, {1, 2, 2} },
  { 3, {2, 3, 4}, {12, 4, 1}, 2, {6, 4}, 1, {4, 1} },
  { 3, {2, 3, 4}, {12, 4, 1}, 2, {2, 12}, 1, {12, 1} },
  { 3, {2, 3, 4}, {1, 2, 6}, 2, {6, 4}, 0, {0} },
  { 3, {2, 3, 4}, {1, 2, 6}, 2, {2, 12}, 0, {0} },
  { 3, {2, 3, 4}, {12, 1, 3}, 2, {6, 4}, 0, {0} },
  { 3, {2, 3, 4}, {12, 1, 3}, 2, {2, 12}, 0, {0} },
  { 3, {2, 3, 4}, {12, 1, 3}, 4, {2, 3, 2, 2}, 1, {12, 1, 6, 3} },
  { 3, {2, 3, 4}, {4, 8, 1}, 2, {6, 4}, 0, {0} },
  { 3, {2, 3, 4}, {4, 8, 1}, 3, {3, 2, 4}, 0, {0} },
  { 3, {2, 1, 3}, {3, 100, 1}, 1, {6}, 1, {1} },
  { 3, {2, 1, 3}, {3, 100, 1}, 3, {2, 3, 1}, 1, {3, 1, 1} },
  { 2, {4, 3}, {6, 1}, 1, {12}, 0, {0} },
  { 2, {4, 3}, {6, 1}, 3, {2, 2, 3}, 1, {12, 6, 1} },
  { 2, {4, 3}, {6, 1}, 2, {2, 6}, 0, {0} },
  { 1, {3}, {2}, 2, {3, 1}, 1, {2, 2} },
  { 1, {3}, {2}, 3, {1, 3, 1}, 1, {6, 2, 2} },
  { 1, {3}, {0}, 2, {1, 3}, 1, {0, 0} },
  { 2, {2, 3}, {0, 1}, 1, {6}, 0, {0} },
  { 2, {2, 3}, {0, 1}, 3, {2, 3, 1}, 1, {0, 1, 1} },
  { 2, {2, 3}, {0, 1}, 4, {1, 2, 1, 3}, 1, {0, 0, 3, 1} },
  { 1, {1}, {5}, 0, {0}, 1, {0} },
  { 0, {0}, {0}, 2, {1, 1}, 1, {1, 1} },
  { 3, {2, 0, 3}, {3, 3, 1}, 1, {0}, 1, {1} },
  { 3, {2, 0, 3}, {3, 3, 1}, 2, {6, 0}, 1, {1, 1} },
  { 3, {2, 0, 3}, {1, 1, 1}, 3, {2, 0, 3}, 1, {1, 1, 1} },
  { 2, {4, 4}, {4, 1}, 4, {2, 2, 2, 2}, 1, {8, 4, 2, 1} },
  { 2, {4, 4}, {1, 4}, 4, {2, 2, 2, 2}, 1, {2, 1, 8, 4} },
  { 2, {4, 4}, {1, 4}, 1, {16}, 0, {0} },
  { 3, {2, 2, 2}, {4, 1, 2}, 2, {2, 4}, 0, {0} },
  { 3, {2, 2, 2}, {4, 1, 2}, 2, {4, 2}, 0, {0} },
  { 1, {6}, {2}, 2, {2, 3}, 1, {6, 2} },
  { 1, {6}, {2}, 3, {3, 2, 1}, 1, {4, 2, 2} },
  { 2, {3, 4}, {8, 2}, 1, {12}, 1, {2} },
  { 2, {3, 4}, {8, 2}, 3, {3, 2, 2}, 1, {8, 4, 2} },
};

static void
test_reshape_view_or_copy (void)
{
  g_autoptr (FxTensor) base = arange_f32 (1, SHAPE (200));

  for (gsize c = 0; c < G_N_ELEMENTS (reshape_cases); c++)
    {
      const ReshapeCase *rc = &reshape_cases[c];
      GError *error = NULL;
      g_autoptr (FxTensor) x = fx_tensor_as_strided (base, rc->ndim, rc->shape, rc->strides, 1,
                                                     &error);
      g_autoptr (FxTensor) r = NULL;
      g_autoptr (FxTensor) v = NULL;
      g_autoptr (FxTensor) xc = NULL;

      g_assert_no_error (error);
      r = fx_tensor_reshape (x, rc->new_ndim, rc->new_shape, &error);
      g_assert_no_error (error);
      assert_shape (r, rc->new_ndim, rc->new_shape);
      g_assert_cmpint (r->storage == base->storage, ==, rc->is_view);
      if (rc->is_view)
        {
          if (fx_tensor_numel (x) > 0)
            assert_strides (r, rc->new_ndim, rc->view_strides);
          g_assert_cmpint (r->offset, ==, 1);
        }
      else
        g_assert_true (fx_tensor_is_contiguous (r));
      /* same elements in the same row-major order */
      xc = fx_tensor_contiguous (x);
      for (int64_t i = 0; i < fx_tensor_numel (x); i++)
        g_assert_cmpfloat (fx_tensor_get_double (r, i), ==, fx_tensor_get_double (x, i));
      /* view succeeds exactly when reshape can avoid the copy */
      v = fx_tensor_view (x, rc->new_ndim, rc->new_shape, &error);
      if (rc->is_view)
        {
          g_assert_no_error (error);
          g_assert_nonnull (v);
        }
      else
        {
          g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
          g_clear_error (&error);
        }
    }
}

/* ------------------------------------------------------------------ copies and conversions */

static void
test_contiguous_clone (void)
{
  g_autoptr (FxTensor) x = arange_f32 (3, SHAPE (2, 3, 4));
  int perm[3] = { 1, 2, 0 };
  g_autoptr (FxTensor) p = fx_tensor_permute (x, 3, perm, NULL);
  g_autoptr (FxTensor) c = fx_tensor_contiguous (p);
  g_autoptr (FxTensor) same = fx_tensor_contiguous (x);
  g_autoptr (FxTensor) cl = fx_tensor_clone (x);
  g_autoptr (FxTensor) same_dtype = fx_tensor_to_dtype (x, FX_DTYPE_FLOAT32);
  g_autoptr (FxTensor) d = fx_tensor_to_dtype (p, FX_DTYPE_FLOAT64);
  g_autoptr (FxTensor) h = fx_tensor_to_dtype (p, FX_DTYPE_FLOAT16);
  g_autoptr (FxTensor) hh = fx_tensor_to_dtype (h, FX_DTYPE_INT32);
  /* inner-contiguous rows: x[:, 1:, :] */
  g_autoptr (FxTensor) rows = fx_tensor_slice (x, 1, 1, 3, 1, NULL);
  g_autoptr (FxTensor) rc = fx_tensor_contiguous (rows);

  g_assert_true (same == x);
  g_assert_true (same_dtype == x);
  g_assert_true (cl != x && cl->storage != x->storage);
  g_assert_true (c->storage != x->storage);
  g_assert_true (fx_tensor_is_contiguous (c));
  assert_shape (c, 3, SHAPE (3, 4, 2));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 2; k++)
        {
          int64_t flat = (i * 4 + j) * 2 + k;
          double expect = k * 12 + i * 4 + j;
          g_assert_cmpfloat (((float *) fx_tensor_data (c))[flat], ==, expect);
          g_assert_cmpfloat (((double *) fx_tensor_data (d))[flat], ==, expect);
          g_assert_cmpfloat (fx_tensor_get_double (h, flat), ==, expect);
          g_assert_cmpint (((int32_t *) fx_tensor_data (hh))[flat], ==, (int32_t) expect);
        }
  for (int i = 0; i < 16; i++)
    g_assert_cmpfloat (fx_tensor_get_double (rc, i), ==, (i / 8) * 12 + 4 + i % 8);
}

/* Transposes large enough for the tiled copy path, in several dtype pairs, with a batch dim. */
static void
test_transpose_copies (void)
{
  static const FxDType pairs[][2] = {
    { FX_DTYPE_FLOAT32, FX_DTYPE_FLOAT32 }, { FX_DTYPE_FLOAT64, FX_DTYPE_FLOAT64 },
    { FX_DTYPE_INT16, FX_DTYPE_INT16 }, { FX_DTYPE_FLOAT32, FX_DTYPE_FLOAT64 },
    { FX_DTYPE_INT64, FX_DTYPE_FLOAT16 },
  };
  for (gsize p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      g_autoptr (FxTensor) f = arange_f32 (3, SHAPE (3, 40, 35));
      g_autoptr (FxTensor) x = fx_tensor_to_dtype (f, pairs[p][0]);
      g_autoptr (FxTensor) t = fx_tensor_transpose (x, 1, 2, NULL);
      g_autoptr (FxTensor) c = fx_tensor_to_dtype (t, pairs[p][1]);
      g_autoptr (FxTensor) c2 = NULL;
      if (pairs[p][0] == pairs[p][1])
        {
          fx_tensor_unref (c);
          c = fx_tensor_contiguous (t);
        }
      c2 = fx_tensor_clone (t);
      g_assert_true (fx_tensor_is_contiguous (c));
      assert_shape (c, 3, SHAPE (3, 35, 40));
      for (int b = 0; b < 3; b++)
        for (int i = 0; i < 35; i++)
          for (int j = 0; j < 40; j++)
            {
              double expect = b * 1400 + j * 35 + i;
              if (pairs[p][1] == FX_DTYPE_FLOAT16)
                expect = fx_half_to_float (fx_float_to_half ((float) expect));
              g_assert_cmpfloat (fx_tensor_get_double (c, (b * 35 + i) * 40 + j), ==, expect);
              g_assert_cmpfloat (fx_tensor_get_double (c2, (b * 35 + i) * 40 + j), ==,
                                 b * 1400 + j * 35 + i);
            }
    }
}

typedef struct {
  double value;
  int64_t expect[6];   /* bool, uint8, int8, int16, int32, int64 */
} FloatToIntCase;

/* torch.tensor([v], dtype=torch.float64).to(dtype).item() (float32 sources agree) */
static const FloatToIntCase float_to_int_cases[] = {
  { NAN, { 1, 0, 0, 0, -2147483648LL, INT64_MIN } },
  { 3000000000.0, { 1, 0, 0, 0, -2147483648LL, 3000000000LL } },
  { -3000000000.0, { 1, 0, 0, 0, -2147483648LL, -3000000000LL } },
  { 1e+20, { 1, 0, 0, 0, -2147483648LL, INT64_MIN } },
  { -1e+20, { 1, 0, 0, 0, -2147483648LL, INT64_MIN } },
  { 300.5, { 1, 44, 44, 300, 300, 300 } },
  { -1.7, { 1, 255, -1, -1, -1, -1 } },
  { -300.0, { 1, 212, -44, -300, -300, -300 } },
  { 10000000000.0, { 1, 0, 0, 0, -2147483648LL, 10000000000LL } },
  { 70000.0, { 1, 112, 112, 4464, 70000, 70000 } },
  { -129.0, { 1, 127, 127, -129, -129, -129 } },
  { 2147483648.0, { 1, 0, 0, 0, -2147483648LL, 2147483648LL } },
  { 9.223372036854776e+18, { 1, 0, 0, 0, -2147483648LL, INT64_MIN } },
  { 0.99, { 1, 0, 0, 0, 0, 0 } },
  { -0.99, { 1, 0, 0, 0, 0, 0 } },
  { 127.9, { 1, 127, 127, 127, 127, 127 } },
  { 255.5, { 1, 255, -1, 255, 255, 255 } },
  { 0.0, { 0, 0, 0, 0, 0, 0 } },
  { -0.0, { 0, 0, 0, 0, 0, 0 } },
};

typedef struct {
  int64_t value;
  int64_t expect[5];   /* bool, uint8, int8, int16, int32 */
  double as_float32, as_float16;
} IntConvCase;

/* t = torch.tensor([v]); [t.to(d).item() ...], t.float().item(), t.half().float().item() */
static const IntConvCase int_conv_cases[] = {
  { 4611686018427387905LL, { 1, 1, 1, 1, 1 }, 4.611686018427388e+18, INFINITY },
  { 9007199254740993LL, { 1, 1, 1, 1, 1 }, 9007199254740992.0, INFINITY },
  { -1LL, { 1, 255, -1, -1, -1 }, -1.0, -1.0 },
  { 300LL, { 1, 44, 44, 300, 300 }, 300.0, 300.0 },
  { -129LL, { 1, 127, 127, -129, -129 }, -129.0, -129.0 },
  { 65543LL, { 1, 7, 7, 7, 65543 }, 65543.0, INFINITY },
  { 2147483653LL, { 1, 5, 5, 5, -2147483643LL }, 2147483648.0, INFINITY },
  /* int64 -> float32 rounds once: 2**54 + 2**30 + 1 -> 1.801440065696563e+16 */
  { 18014399583223809LL, { 1, 1, 1, 1, 1073741825 }, 1.801440065696563e+16, INFINITY },
  { 0LL, { 0, 0, 0, 0, 0 }, 0.0, 0.0 },
};

static void
test_copy_conversions (void)
{
  static const FxDType int_dtypes[6] = { FX_DTYPE_BOOL, FX_DTYPE_UINT8, FX_DTYPE_INT8,
                                         FX_DTYPE_INT16, FX_DTYPE_INT32, FX_DTYPE_INT64 };
  gsize n = G_N_ELEMENTS (float_to_int_cases);
  double src64[G_N_ELEMENTS (float_to_int_cases)];
  float src32[G_N_ELEMENTS (float_to_int_cases)];
  GError *error = NULL;

  for (gsize i = 0; i < n; i++)
    {
      src64[i] = float_to_int_cases[i].value;
      src32[i] = (float) float_to_int_cases[i].value;
    }
  for (int src_kind = 0; src_kind < 2; src_kind++)
    {
      g_autoptr (FxTensor) s = src_kind == 0
        ? fx_tensor_new_from_data (FX_DTYPE_FLOAT64, 1, SHAPE ((int64_t) n), src64)
        : fx_tensor_new_from_data (FX_DTYPE_FLOAT32, 1, SHAPE ((int64_t) n), src32);
      for (int d = 0; d < 6; d++)
        {
          g_autoptr (FxTensor) dst = fx_tensor_zeros (int_dtypes[d], 1, SHAPE ((int64_t) n));
          g_autoptr (FxTensor) conv = fx_tensor_to_dtype (s, int_dtypes[d]);
          g_assert_true (fx_tensor_copy_into (dst, s, &error));
          g_assert_no_error (error);
          for (gsize i = 0; i < n; i++)
            {
              /* float32 cannot hold 300.5 etc. differently, but 3e9 as float32 is
               * 3000000000 exactly and 9.2e18 rounds the same way: the table holds */
              g_assert_cmpint (fx_tensor_get_int64 (dst, i), ==, float_to_int_cases[i].expect[d]);
              g_assert_cmpint (fx_tensor_get_int64 (conv, i), ==, float_to_int_cases[i].expect[d]);
            }
        }
    }

  for (gsize i = 0; i < G_N_ELEMENTS (int_conv_cases); i++)
    {
      const IntConvCase *ic = &int_conv_cases[i];
      g_autoptr (FxTensor) s = fx_tensor_scalar_int64 (FX_DTYPE_INT64, ic->value);
      g_autoptr (FxTensor) f32 = fx_tensor_to_dtype (s, FX_DTYPE_FLOAT32);
      g_autoptr (FxTensor) f16 = fx_tensor_to_dtype (s, FX_DTYPE_FLOAT16);
      for (int d = 0; d < 5; d++)
        {
          g_autoptr (FxTensor) t = fx_tensor_to_dtype (s, int_dtypes[d]);
          g_assert_cmpint (fx_tensor_get_int64 (t, 0), ==, ic->expect[d]);
        }
      g_assert_cmpfloat (*(float *) fx_tensor_data (f32), ==, ic->as_float32);
      g_assert_cmpfloat (fx_tensor_get_double (f16, 0), ==, ic->as_float16);
    }

  /* bool to anything is 0/1; float to bool is != 0 (nan is True) */
  {
    static const uint8_t b[3] = { 1, 0, 1 };
    static const double fv[4] = { 0.0, -0.0, NAN, 1e-300 };
    g_autoptr (FxTensor) bt = fx_tensor_new_from_data (FX_DTYPE_BOOL, 1, SHAPE (3), b);
    g_autoptr (FxTensor) ft = fx_tensor_new_from_data (FX_DTYPE_FLOAT64, 1, SHAPE (4), fv);
    g_autoptr (FxTensor) fb = fx_tensor_to_dtype (ft, FX_DTYPE_BOOL);
    for (int d = 0; d < FX_DTYPE_N; d++)
      {
        g_autoptr (FxTensor) t = fx_tensor_to_dtype (bt, d);
        g_assert_cmpfloat (fx_tensor_get_double (t, 0), ==, 1.0);
        g_assert_cmpfloat (fx_tensor_get_double (t, 1), ==, 0.0);
      }
    g_assert_cmpint (((uint8_t *) fx_tensor_data (fb))[0], ==, 0);
    g_assert_cmpint (((uint8_t *) fx_tensor_data (fb))[1], ==, 0);
    g_assert_cmpint (((uint8_t *) fx_tensor_data (fb))[2], ==, 1);
    g_assert_cmpint (((uint8_t *) fx_tensor_data (fb))[3], ==, 1);
  }

  /* every pair of dtypes on small non-negative integers, through strided views */
  for (int sd = 0; sd < FX_DTYPE_N; sd++)
    for (int dd = 0; dd < FX_DTYPE_N; dd++)
      {
        g_autoptr (FxTensor) base = fx_tensor_zeros (sd, 2, SHAPE (4, 6));
        g_autoptr (FxTensor) f = arange_f32 (2, SHAPE (4, 6));
        g_autoptr (FxTensor) src = NULL;
        g_autoptr (FxTensor) dst = fx_tensor_zeros (dd, 2, SHAPE (3, 4));
        g_autoptr (FxTensor) dstt = fx_tensor_t (dst, NULL);
        g_assert_true (fx_tensor_copy_into (base, f, &error));
        src = fx_tensor_slice (base, 1, 0, 6, 2, &error);   /* (4, 3), strides (6, 2) */
        g_assert_no_error (error);
        g_assert_true (fx_tensor_copy_into (dstt, src, &error));
        g_assert_no_error (error);
        for (int i = 0; i < 4; i++)
          for (int j = 0; j < 3; j++)
            {
              double v = i * 6 + j * 2;
              if (sd == FX_DTYPE_BOOL || dd == FX_DTYPE_BOOL)
                v = v != 0;
              g_assert_cmpfloat (fx_tensor_get_double (dst, j * 4 + i), ==, v);
            }
      }
}

static void
test_copy_broadcast (void)
{
  g_autoptr (FxTensor) dst = fx_tensor_zeros (FX_DTYPE_INT32, 3, SHAPE (2, 3, 4));
  g_autoptr (FxTensor) row = arange_f32 (1, SHAPE (4));
  g_autoptr (FxTensor) col = arange_f32 (2, SHAPE (3, 1));
  g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT64, 7.9);
  g_autoptr (FxTensor) x = arange_f32 (2, SHAPE (2, 3));
  g_autoptr (FxTensor) bad = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, SHAPE (4));
  g_autoptr (FxTensor) bad2 = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, SHAPE (3, 3));
  g_autoptr (FxTensor) more = fx_tensor_zeros (FX_DTYPE_FLOAT32, 3, SHAPE (1, 2, 3));
  g_autoptr (FxTensor) v3 = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, SHAPE (3));
  g_autoptr (FxTensor) ex = fx_tensor_expand (v3, 2, SHAPE (2, 3), NULL);
  GError *error = NULL;

  g_assert_true (fx_tensor_copy_into (dst, row, &error));
  for (int i = 0; i < 24; i++)
    g_assert_cmpint (fx_tensor_get_int64 (dst, i), ==, i % 4);
  g_assert_true (fx_tensor_copy_into (dst, col, &error));
  for (int i = 0; i < 24; i++)
    g_assert_cmpint (fx_tensor_get_int64 (dst, i), ==, (i / 4) % 3);
  g_assert_true (fx_tensor_copy_into (dst, s, &error));
  for (int i = 0; i < 24; i++)
    g_assert_cmpint (fx_tensor_get_int64 (dst, i), ==, 7);
  g_assert_no_error (error);

  g_assert_false (fx_tensor_copy_into (x, bad, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                   "dimension 1");
  g_clear_error (&error);
  g_assert_false (fx_tensor_copy_into (x, bad2, &error));
  g_assert_cmpstr (error->message, ==,
                   "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
                   "dimension 0");
  g_clear_error (&error);
  g_assert_false (fx_tensor_copy_into (x, more, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "output with shape [2, 3] doesn't match the broadcast shape [1, 2, 3]");
  g_clear_error (&error);
  g_assert_false (fx_tensor_copy_into (ex, v3, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "unsupported operation: more than one element of the written-to tensor refers "
                   "to a single memory location. Please clone() the tensor before performing the "
                   "operation.");
  g_clear_error (&error);
}

static void
test_copy_overlap (void)
{
  g_autoptr (FxTensor) y = arange_f32 (1, SHAPE (6));
  g_autoptr (FxTensor) a = fx_tensor_slice (y, 0, 1, 6, 1, NULL);
  g_autoptr (FxTensor) b = fx_tensor_slice (y, 0, 0, 5, 1, NULL);
  g_autoptr (FxTensor) ev = fx_tensor_slice (y, 0, 0, 6, 2, NULL);
  g_autoptr (FxTensor) od = fx_tensor_slice (y, 0, 1, 6, 2, NULL);
  g_autoptr (FxTensor) m = arange_f32 (2, SHAPE (2, 2));
  g_autoptr (FxTensor) mt = fx_tensor_t (m, NULL);
  g_autoptr (FxTensor) z = arange_f32 (1, SHAPE (5));
  g_autoptr (FxTensor) zr = fx_tensor_as_strided (z, 1, SHAPE (3), SHAPE (2), 0, NULL);
  g_autoptr (FxTensor) zw = fx_tensor_as_strided (z, 1, SHAPE (3), SHAPE (1), 1, NULL);
  GError *error = NULL;
  static const double after_odd[] = { 1, 1, 3, 3, 5, 5 };

  /* y[1:].copy_(y[:-1]) and m.copy_(m.t()): PyTorch refuses partial overlap */
  g_assert_false (fx_tensor_copy_into (a, b, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "unsupported operation: some elements of the input tensor and the written-to "
                   "tensor refer to a single memory location. Please clone() the tensor before "
                   "performing the operation.");
  g_clear_error (&error);
  g_assert_false (fx_tensor_copy_into (m, mt, &error));
  g_clear_error (&error);
  /* y[::2].copy_(y[1::2]) is allowed */
  g_assert_true (fx_tensor_copy_into (ev, od, &error));
  assert_values (y, 6, after_odd);
  /* copying a tensor onto itself is a no-op */
  g_assert_true (fx_tensor_copy_into (y, y, &error));
  assert_values (y, 6, after_odd);
  /* overlapping non-dense views copy as if from a snapshot: z[1:4] = z[0:5:2] */
  g_assert_true (fx_tensor_copy_into (zw, zr, &error));
  g_assert_no_error (error);
  {
    static const double expect[] = { 0, 0, 2, 4, 4 };
    assert_values (z, 5, expect);
  }
}

/* ------------------------------------------------------------------ float16 */

/* torch.tensor(vals, dtype=torch.float32).half().view(torch.int16): float bits, half bits */
static const uint32_t half_cases[][2] = {
  { 0x00000000, 0x0000 },
  { 0x80000000, 0x8000 },
  { 0x3f800000, 0x3c00 },
  { 0xc0200000, 0xc100 },
  { 0x477fe000, 0x7bff },
  { 0x477feffd, 0x7bff },
  { 0x477ff000, 0x7c00 },
  { 0x49742400, 0x7c00 },
  { 0x322bcc77, 0x0000 },
  { 0x3300d959, 0x0001 },
  { 0x3380d959, 0x0001 },
  { 0x33800000, 0x0001 },
  { 0x33000000, 0x0000 },
  { 0x33400000, 0x0001 },
  { 0x38800000, 0x0400 },
  { 0x387fe000, 0x0400 },
  { 0x3f801000, 0x3c00 },
  { 0x3f803000, 0x3c02 },
  { 0x3f801008, 0x3c01 },
  { 0x3dcccccd, 0x2e66 },
  { 0x3eaaaaab, 0x3555 },
  { 0x7f800000, 0x7c00 },
  { 0xff800000, 0xfc00 },
  { 0x387fda40, 0x03ff },
  { 0x337d6730, 0x0001 },
  { 0xb9181344, 0x88c1 },
  { 0xbaa5ad70, 0x952d },
  { 0xb391bbfb, 0x8001 },
  { 0xba0844d5, 0x9042 },
  { 0xc6026a89, 0xf013 },
  { 0x32c8d3b2, 0x0000 },
  { 0xbb28d8e4, 0x9947 },
  { 0x33fe7943, 0x0002 },
  { 0xb34220b2, 0x8001 },
  { 0xc6ce2f0a, 0xf671 },
  { 0x3ea80654, 0x3540 },
  { 0xb3113407, 0x8001 },
  { 0xb3047b0c, 0x8001 },
  { 0xb85632f8, 0x8359 },
  { 0x3ddd5957, 0x2eeb },
  { 0xbe490994, 0xb248 },
  { 0xb43964e2, 0x8003 },
  { 0xba273501, 0x913a },
  { 0xbe63e44a, 0xb31f },
  { 0x3ce57b6b, 0x272c },
  { 0x4312d620, 0x5897 },
  { 0x3ed97a3a, 0x36cc },
  { 0xb9f07481, 0x8f84 },
  { 0xc377be10, 0xdbbe },
  { 0x33c23ad2, 0x0002 },
  { 0x3d8a02fb, 0x2c50 },
  { 0x4208c4c0, 0x5046 },
  { 0xbf5df75f, 0xbaf0 },
  { 0x34928392, 0x0005 },
  { 0x359919a8, 0x0013 },
  { 0x354e1df2, 0x000d },
  { 0xbb3c04a1, 0x99e0 },
  { 0x42c79eec, 0x563d },
  { 0x3979ee3e, 0x0bcf },
  { 0x3f0e3fbe, 0x3872 },
  { 0xb38249f2, 0x8001 },
  { 0x46bd7d1d, 0x75ec },
  { 0xc14ba2e5, 0xca5d },
  { 0x334b9495, 0x0001 },
  { 0x4031bedc, 0x418e },
  { 0x3837d3aa, 0x02df },
  { 0x4582ab42, 0x6c15 },
  { 0x327eb857, 0x0000 },
  { 0xb9c7863a, 0x8e3c },
  { 0xbcd3342a, 0xa69a },
  { 0xc2df3582, 0xd6fa },
  { 0x423384bc, 0x519c },
  { 0x3a933733, 0x149a },
  { 0x33bad450, 0x0001 },
  { 0x3acbfd2d, 0x1660 },
  { 0x4569c2bb, 0x6b4e },
  { 0x45015dbe, 0x680b },
  { 0x41876f52, 0x4c3b },
  { 0x410394e8, 0x481d },
  { 0xc70d0f8e, 0xf868 },
  { 0xb3c909ce, 0x8002 },
  { 0xb713a818, 0x8094 },
  { 0xb238ec15, 0x8000 },
  { 0xb7bcd15e, 0x817a },
  { 0x352a0b2c, 0x000b }
};

static void
test_float16 (void)
{
  /* every half converts to float and back unchanged (NaNs stay NaN) */
  for (guint h = 0; h < 65536; h++)
    {
      float f = fx_half_to_float ((uint16_t) h);
      uint16_t back = fx_float_to_half (f);
      if (isnan (f))
        g_assert_true ((back & 0x7c00) == 0x7c00 && (back & 0x3ff) != 0);
      else
        g_assert_cmpuint (back, ==, h);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (half_cases); i++)
    {
      float f;
      uint32_t bits = half_cases[i][0];
      memcpy (&f, &bits, sizeof f);
      g_assert_cmpuint (fx_float_to_half (f), ==, half_cases[i][1]);
    }
  g_assert_cmpfloat (fx_half_to_float (0x3c00), ==, 1.0f);
  g_assert_cmpfloat (fx_half_to_float (0x0001), ==, 5.960464477539063e-08f);
  g_assert_cmpfloat (fx_half_to_float (0xfbff), ==, -65504.0f);
  g_assert_true (isinf (fx_half_to_float (0x7c00)));

  /* through tensors: get/copy convert */
  {
    static const double v[6] = { 1e6, 65520., 65519., 1e-8, 6e-8, 3e-8 };
    static const double expect[6] = { INFINITY, INFINITY, 65504.0, 0.0, 5.960464477539063e-08,
                                       5.960464477539063e-08 };
    g_autoptr (FxTensor) d = fx_tensor_new_from_data (FX_DTYPE_FLOAT64, 1, SHAPE (6), v);
    g_autoptr (FxTensor) h = fx_tensor_to_dtype (d, FX_DTYPE_FLOAT16);
    g_autoptr (FxTensor) hs = fx_tensor_full (FX_DTYPE_FLOAT16, 1, SHAPE (3), 0.1);
    assert_values (h, 6, expect);
    g_assert_cmpfloat (fx_tensor_get_double (hs, 2), ==, 0.0999755859375);
    g_assert_cmpint (fx_tensor_get_int64 (hs, 2), ==, 0);
  }
}

/* ------------------------------------------------------------------ iterator and access */

static void
test_iterator (void)
{
  g_autoptr (FxTensor) x = arange_f32 (4, SHAPE (3, 4, 5, 2));
  int perm[4] = { 2, 0, 3, 1 };
  g_autoptr (FxTensor) p = fx_tensor_permute (x, 4, perm, NULL);
  g_autoptr (FxTensor) sl = fx_tensor_slice (p, 0, 1, 5, 2, NULL);
  g_autoptr (FxTensor) ex = fx_tensor_expand (sl, 5, SHAPE (2, 2, 3, 2, 4), NULL);
  g_autoptr (FxTensor) u = fx_tensor_unsqueeze (x, 2, NULL);
  g_autoptr (FxTensor) s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 5.0);
  FxTensor *views[] = { x, p, sl, ex, u, s };

  for (gsize v = 0; v < G_N_ELEMENTS (views); v++)
    {
      FxTensor *t = views[v];
      FxStridedIter it;
      int64_t count = 0;
      const float *data = fx_tensor_data (t);
      fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
      while (fx_strided_iter_next (&it))
        {
          g_assert_cmpint (count, <, fx_tensor_numel (t));
          g_assert_cmpfloat (data[it.offset], ==, fx_tensor_get_double (t, count));
          count++;
        }
      g_assert_cmpint (count, ==, fx_tensor_numel (t));
      g_assert_false (fx_strided_iter_next (&it));
    }
  /* a strided get: p[3, 2, 1, 1] == x[2, 1, 3, 1] */
  g_assert_cmpfloat (fx_tensor_get_double (p, ((3 * 3 + 2) * 2 + 1) * 4 + 1), ==,
                     ((2 * 4 + 1) * 5 + 3) * 2 + 1);
}

static void
test_broadcast_shapes (void)
{
  int64_t out[FX_TENSOR_MAX_DIMS];
  int n;
  GError *error = NULL;

  g_assert_true (fx_broadcast_shapes (2, SHAPE (3, 1), 3, SHAPE (2, 1, 4), &n, out, &error));
  g_assert_cmpint (n, ==, 3);
  g_assert_cmpint (out[0], ==, 2);
  g_assert_cmpint (out[1], ==, 3);
  g_assert_cmpint (out[2], ==, 4);
  g_assert_true (fx_broadcast_shapes (0, NULL, 1, SHAPE (0), &n, out, &error));
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpint (out[0], ==, 0);
  g_assert_true (fx_broadcast_shapes (2, SHAPE (1, 0), 1, SHAPE (1), &n, out, &error));
  g_assert_cmpint (out[1], ==, 0);
  g_assert_false (fx_broadcast_shapes (2, SHAPE (2, 3), 1, SHAPE (4), &n, out, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                   "dimension 1");
  g_clear_error (&error);
  g_assert_false (fx_broadcast_shapes (1, SHAPE (0), 1, SHAPE (2), &n, out, &error));
  g_clear_error (&error);
}

static void
test_wrap_dim (void)
{
  int d;
  GError *error = NULL;
  g_assert_true (fx_tensor_wrap_dim (-1, 3, &d, &error));
  g_assert_cmpint (d, ==, 2);
  g_assert_true (fx_tensor_wrap_dim (-1, 0, &d, &error));
  g_assert_cmpint (d, ==, 0);
  g_assert_false (fx_tensor_wrap_dim (1, 0, &d, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==,
                   "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  g_clear_error (&error);
  g_assert_false (fx_tensor_wrap_dim (2, 2, &d, NULL));
}

static void
test_refcounts (void)
{
  FxTensor *x = arange_f32 (1, SHAPE (10));
  FxTensor *v = fx_tensor_slice (x, 0, 2, 8, 3, NULL);
  FxTensor *r = fx_tensor_ref (v);
  g_assert_true (r == v);
  fx_tensor_unref (x);                 /* storage lives on in the view */
  g_assert_cmpfloat (fx_tensor_get_double (v, 1), ==, 5.0);
  fx_tensor_unref (v);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 2.0);
  fx_tensor_unref (r);
  fx_tensor_unref (NULL);
  fx_storage_unref (NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tensor/dtype/promote", test_dtype_promote);
  g_test_add_func ("/tensor/dtype/names", test_dtype_names);
  g_test_add_func ("/tensor/creation", test_creation);
  g_test_add_func ("/tensor/storage/borrowed", test_borrowed_storage);
  g_test_add_func ("/tensor/storage/borrowed-free", test_borrowed_free_func);
  g_test_add_func ("/tensor/views/share-storage", test_views_share_storage);
  g_test_add_func ("/tensor/views/expand", test_expand);
  g_test_add_func ("/tensor/views/errors", test_view_errors);
  g_test_add_func ("/tensor/views/zero-dim", test_zero_dim_ops);
  g_test_add_func ("/tensor/views/empty", test_empty_tensors);
  g_test_add_func ("/tensor/reshape/view-or-copy", test_reshape_view_or_copy);
  g_test_add_func ("/tensor/copy/contiguous-clone", test_contiguous_clone);
  g_test_add_func ("/tensor/copy/conversions", test_copy_conversions);
  g_test_add_func ("/tensor/copy/transpose", test_transpose_copies);
  g_test_add_func ("/tensor/copy/broadcast", test_copy_broadcast);
  g_test_add_func ("/tensor/copy/overlap", test_copy_overlap);
  g_test_add_func ("/tensor/float16", test_float16);
  g_test_add_func ("/tensor/iterator", test_iterator);
  g_test_add_func ("/tensor/broadcast-shapes", test_broadcast_shapes);
  g_test_add_func ("/tensor/wrap-dim", test_wrap_dim);
  g_test_add_func ("/tensor/refcounts", test_refcounts);
  return g_test_run ();
}
