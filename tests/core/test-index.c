/* test-index.c: Python indexing of tensors (core/tensor/index.c) — views for basic indexing,
 * copies for advanced indexing, and x[idx] = v writing through views. Expected values come
 * from PyTorch 1.13. */
#include <fx.h>
#include "tensor/index.h"
#include "tensor/shape.h"
#include "fx-error.h"

#include <stdarg.h>
#include <string.h>

#define NONE_ INT64_MIN

/* ---- building indices ---- */

static FxValue
v_int (int64_t i)
{
  return fx_value_int (i);
}

static FxValue
v_part (int64_t x)
{
  return x == NONE_ ? fx_value_none () : fx_value_int (x);
}

static FxValue
v_slice (int64_t start, int64_t stop, int64_t step)
{
  return fx_value_take_slice (fx_slice_new (v_part (start), v_part (stop), v_part (step)));
}

static FxValue
v_all (void)
{
  return v_slice (NONE_, NONE_, NONE_);
}

/* A tuple of n FxValues (taken). */
static FxValue
v_tuple (int n, ...)
{
  FxSeq *seq = fx_seq_new (0);
  va_list ap;
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    fx_seq_append (seq, va_arg (ap, FxValue));
  va_end (ap);
  return fx_value_take_tuple (seq);
}

static FxValue
v_list (int n, ...)
{
  FxSeq *seq = fx_seq_new (0);
  va_list ap;
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    fx_seq_append (seq, fx_value_int (va_arg (ap, int)));
  va_end (ap);
  return fx_value_take_list (seq);
}

static FxValue
v_tensor_i64 (int n, const int64_t *data)
{
  int64_t shape = n;
  return fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_INT64, 1, &shape, data));
}

static FxValue
v_mask (int ndim, const int64_t *shape, const uint8_t *data)
{
  return fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_BOOL, ndim, shape, data));
}

/* x = arange(24.).view(2, 3, 4) */
static FxTensor *
make_x (void)
{
  float d[24];
  int64_t shape[3] = { 2, 3, 4 };
  for (int i = 0; i < 24; i++)
    d[i] = (float) i;
  return fx_tensor_new_from_data (FX_DTYPE_FLOAT32, 3, shape, d);
}

static FxTensor *
make_f32 (int ndim, const int64_t *shape, const float *data)
{
  return fx_tensor_new_from_data (FX_DTYPE_FLOAT32, ndim, shape, data);
}

static void
assert_values (const FxTensor *t, const double *want, int n)
{
  g_assert_cmpint (fx_tensor_numel (t), ==, n);
  for (int i = 0; i < n; i++)
    if (fx_tensor_get_double (t, i) != want[i])
      {
        g_test_message ("element %d is %g, expected %g", i, fx_tensor_get_double (t, i), want[i]);
        g_assert_cmpfloat (fx_tensor_get_double (t, i), ==, want[i]);
      }
}

static void
assert_shape (const FxTensor *t, int ndim, ...)
{
  va_list ap;
  g_assert_cmpint (t->ndim, ==, ndim);
  va_start (ap, ndim);
  for (int i = 0; i < ndim; i++)
    g_assert_cmpint (t->shape[i], ==, va_arg (ap, int));
  va_end (ap);
}

/* x[index] that must succeed; takes index. */
static FxTensor *
get (FxTensor *x, FxValue index)
{
  GError *error = NULL;
  FxTensor *r = fx_tensor_index (x, &index, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  fx_value_clear (&index);
  return r;
}

/* x[index] that must fail with code and message; takes index. */
static void
get_fails (FxTensor *x, FxValue index, FxErrorCode code, const char *message)
{
  GError *error = NULL;
  FxTensor *r = fx_tensor_index (x, &index, &error);
  g_assert_null (r);
  g_assert_error (error, FX_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
  fx_value_clear (&index);
}

/* x[index] = value that must succeed; takes index and value. */
static void
put (FxTensor *x, FxValue index, FxValue value)
{
  GError *error = NULL;
  gboolean ok = fx_tensor_index_put (x, &index, &value, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  fx_value_clear (&index);
  fx_value_clear (&value);
}

static void
put_fails (FxTensor *x, FxValue index, FxValue value, FxErrorCode code, const char *message)
{
  GError *error = NULL;
  gboolean ok = fx_tensor_index_put (x, &index, &value, &error);
  g_assert_false (ok);
  g_assert_error (error, FX_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
  fx_value_clear (&index);
  fx_value_clear (&value);
}

/* ---- basic indexing gives views ---- */

static void
test_basic_views (void)
{
  FxTensor *x = make_x (), *r;
  float one = 100.f;

  r = get (x, v_int (1));
  assert_shape (r, 2, 3, 4);
  g_assert_true (r->storage == x->storage);
  g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 12);
  fx_tensor_unref (r);

  /* x[(slice(None, None, None), 0)] */
  r = get (x, v_tuple (2, v_all (), v_int (0)));
  assert_shape (r, 2, 2, 4);
  g_assert_true (r->storage == x->storage);
  {
    static const double want[] = { 0, 1, 2, 3, 12, 13, 14, 15 };
    assert_values (r, want, 8);
  }
  /* writing into the view shows in x */
  memcpy (fx_tensor_data (r), &one, sizeof one);
  g_assert_cmpfloat (fx_tensor_get_double (x, 0), ==, 100);
  fx_tensor_unref (r);

  /* x[..., None] */
  r = get (x, v_tuple (2, fx_value_ellipsis (), fx_value_none ()));
  assert_shape (r, 4, 2, 3, 4, 1);
  g_assert_true (r->storage == x->storage);
  fx_tensor_unref (r);

  /* x[1:, ::2, -1] */
  r = get (x, v_tuple (3, v_slice (1, NONE_, NONE_), v_slice (NONE_, NONE_, 2), v_int (-1)));
  assert_shape (r, 2, 1, 2);
  g_assert_true (r->storage == x->storage);
  {
    static const double want[] = { 15, 23 };
    assert_values (r, want, 2);
  }
  fx_tensor_unref (r);

  /* x[()] and x[...] are new tensor objects on the same data */
  r = get (x, v_tuple (0));
  g_assert_true (r != x && r->storage == x->storage);
  assert_shape (r, 3, 2, 3, 4);
  fx_tensor_unref (r);
  r = get (x, fx_value_ellipsis ());
  g_assert_true (r != x && r->storage == x->storage);
  fx_tensor_unref (r);

  /* a 0-d int tensor selects like an int */
  {
    FxValue idx = fx_value_take_tensor (fx_tensor_scalar_int64 (FX_DTYPE_INT64, 1));
    r = get (x, idx);
    assert_shape (r, 2, 3, 4);
    g_assert_true (r->storage == x->storage);
    fx_tensor_unref (r);
  }
  fx_tensor_unref (x);
}

/* ---- advanced indexing gives copies ---- */

static void
test_advanced (void)
{
  FxTensor *x = make_x (), *r;

  /* x[[0, 1], :, [1, 2]]: separated index dims go to the front */
  r = get (x, v_tuple (3, v_list (2, 0, 1), v_all (), v_list (2, 1, 2)));
  assert_shape (r, 2, 2, 3);
  g_assert_true (r->storage != x->storage);
  {
    static const double want[] = { 1, 5, 9, 14, 18, 22 };
    assert_values (r, want, 6);
  }
  fx_tensor_unref (r);

  /* x[:, [0, 1], [1, 2]]: adjacent ones stay in place */
  r = get (x, v_tuple (3, v_all (), v_list (2, 0, 1), v_list (2, 1, 2)));
  assert_shape (r, 2, 2, 2);
  {
    static const double want[] = { 1, 6, 13, 18 };
    assert_values (r, want, 4);
  }
  fx_tensor_unref (r);

  /* x[0, :, [1, 2]]: the int is a select applied first, so the list's dim stays last */
  r = get (x, v_tuple (3, v_int (0), v_all (), v_list (2, 1, 2)));
  assert_shape (r, 2, 3, 2);
  {
    static const double want[] = { 1, 2, 5, 6, 9, 10 };
    assert_values (r, want, 6);
  }
  fx_tensor_unref (r);

  /* index tensors broadcast: [[0, 1]] with [[0], [1], [2]] gives [3, 2, 4] */
  {
    int64_t i0[] = { 0, 1 }, i1[] = { 0, 1, 2 }, s0[] = { 1, 2 }, s1[] = { 3, 1 };
    FxValue a = fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_INT64, 2, s0, i0));
    FxValue b = fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_INT64, 2, s1, i1));
    r = get (x, v_tuple (2, a, b));
    assert_shape (r, 3, 3, 2, 4);
    g_assert_cmpfloat (fx_tensor_get_double (r, 4 * 3), ==, 16);   /* r[1, 1, 0] = x[1, 1, 0] */
    fx_tensor_unref (r);
  }

  /* a bool mask selects in row-major order */
  {
    uint8_t m[24];
    int64_t shape[3] = { 2, 3, 4 };
    for (int i = 0; i < 24; i++)
      m[i] = i > 20;
    r = get (x, v_mask (3, shape, m));
    assert_shape (r, 1, 3);
    static const double want[] = { 21, 22, 23 };
    assert_values (r, want, 3);
    fx_tensor_unref (r);
  }

  /* True / False add a dim of 1 / 0 */
  r = get (x, fx_value_bool (TRUE));
  assert_shape (r, 4, 1, 2, 3, 4);
  fx_tensor_unref (r);
  r = get (x, fx_value_bool (FALSE));
  assert_shape (r, 4, 0, 2, 3, 4);
  fx_tensor_unref (r);

  /* a list of bools is a mask, a list of ints an index */
  {
    FxSeq *seq = fx_seq_new (0);
    fx_seq_append (seq, fx_value_bool (TRUE));
    fx_seq_append (seq, fx_value_bool (FALSE));
    r = get (x, fx_value_take_list (seq));
    assert_shape (r, 3, 1, 3, 4);
    g_assert_cmpfloat (fx_tensor_get_double (r, 0), ==, 0);
    fx_tensor_unref (r);
  }
  fx_tensor_unref (x);
}

static void
test_errors (void)
{
  FxTensor *x = make_x ();
  FxTensor *s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1.0);

  get_fails (x, v_int (2), FX_ERROR_INDEX, "index 2 is out of bounds for dimension 0 with size 2");
  get_fails (x, v_tuple (2, v_int (0), v_int (5)), FX_ERROR_INDEX,
             "index 5 is out of bounds for dimension 1 with size 3");
  get_fails (x, v_tuple (4, v_int (0), v_int (0), v_int (0), v_int (0)), FX_ERROR_INDEX,
             "too many indices for tensor of dimension 3");
  get_fails (x, v_slice (NONE_, NONE_, -1), FX_ERROR_INVALID_ARGUMENT,
             "step must be greater than zero");
  get_fails (x, v_slice (NONE_, NONE_, 0), FX_ERROR_INVALID_ARGUMENT, "slice step cannot be zero");
  get_fails (x, fx_value_float (1.5), FX_ERROR_INDEX,
             "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
             "valid indices (got float)");
  get_fails (x, v_list (2, 0, 5), FX_ERROR_INDEX,
             "index 5 is out of bounds for dimension 0 with size 2");
  get_fails (x, v_tuple (2, v_all (), v_list (1, 5)), FX_ERROR_INDEX,
             "index 5 is out of bounds for dimension 0 with size 3");
  get_fails (x, v_tuple (2, v_list (2, 0, 1), v_list (3, 0, 1, 2)), FX_ERROR_INDEX,
             "shape mismatch: indexing tensors could not be broadcast together with shapes [2], "
             "[3]");
  get_fails (s, v_int (0), FX_ERROR_INDEX,
             "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  get_fails (s, v_all (), FX_ERROR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
  {
    uint8_t m[3] = { 1, 1, 1 };
    int64_t shape = 3;
    get_fails (x, v_mask (1, &shape, m), FX_ERROR_INDEX,
               "The shape of the mask [3] at index 0 does not match the shape of the indexed "
               "tensor [2, 3, 4] at index 0");
  }
  {
    int32_t d[2] = { 0, 1 };
    int64_t shape = 2;
    get_fails (x, fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_INT32, 1, &shape, d)),
               FX_ERROR_INDEX, "tensors used as indices must be long, byte or bool tensors");
  }
  fx_tensor_unref (s);
  fx_tensor_unref (x);
}

/* ---- x[idx] = v ---- */

static const double want_int[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23 };
static const double want_slice_int[] = { 1, 1, 1, 1, 4, 5, 6, 7, 8, 9, 10, 11, 2, 2, 2, 2, 16, 17, 18, 19, 20, 21, 22, 23 };
static const double want_mask[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0, 0, 0 };
static const double want_separated[] = { 0, 9, 2, 3, 4, 8, 6, 7, 8, 7, 10, 11, 12, 13, 9, 15, 16, 17, 8, 19, 20, 21, 7, 23 };
static const double want_adjacent[] = { 0, 9, 2, 3, 4, 5, 8, 7, 8, 9, 10, 11, 12, 9, 14, 15, 16, 17, 8, 19, 20, 21, 22, 23 };
static const double want_ellipsis[] = { 1, 1, 2, 3, 2, 5, 6, 7, 3, 9, 10, 11, 1, 13, 14, 15, 2, 17, 18, 19, 3, 21, 22, 23 };
static const double want_steps[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1, -1, -1, -1, 16, 17, 18, 19, -1, -1, -1, -1 };
static const double want_int_mask[] = { -1, -1, -1, -1, 4, 5, 6, 7, -1, -1, -1, -1, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23 };
static const double want_through_view[] = { 0, 1, 2, 3, 7, 7, 7, 7, 8, 9, 10, 11, 12, 13, 14, 15, 7, 7, 7, 7, 20, 21, 22, 23 };
static const double want_none[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 5, 5, 5, 5 };
static const double want_accumulate[] = { 0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15, 16, 17, 18, 16, 17, 18, 19, 20, 21, 22, 23 };
static const double want_neg[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 100 };

static void
test_setitem (void)
{
  FxTensor *x;
  int64_t s21[2] = { 2, 1 }, s3 = 3, s2 = 2;
  float col[2] = { 1, 2 }, v987[3] = { 9, 8, 7 }, v98[2] = { 9, 8 }, v123[3] = { 1, 2, 3 };

  x = make_x ();
  put (x, v_int (0), fx_value_int (1));
  assert_values (x, want_int, 24);
  fx_tensor_unref (x);

  x = make_x ();
  put (x, v_tuple (2, v_all (), v_int (0)), fx_value_take_tensor (make_f32 (2, s21, col)));
  assert_values (x, want_slice_int, 24);
  fx_tensor_unref (x);

  /* the same through advanced indexing: x[[0, 1], 0] = [[1.], [2.]] */
  x = make_x ();
  put (x, v_tuple (2, v_list (2, 0, 1), v_int (0)), fx_value_take_tensor (make_f32 (2, s21, col)));
  assert_values (x, want_slice_int, 24);
  fx_tensor_unref (x);

  x = make_x ();
  {
    uint8_t m[24];
    int64_t shape[3] = { 2, 3, 4 };
    for (int i = 0; i < 24; i++)
      m[i] = i > 20;
    put (x, v_mask (3, shape, m), fx_value_float (0));
  }
  assert_values (x, want_mask, 24);
  fx_tensor_unref (x);

  x = make_x ();
  put (x, v_tuple (3, v_list (2, 0, 1), v_all (), v_list (2, 1, 2)),
       fx_value_take_tensor (make_f32 (1, &s3, v987)));
  assert_values (x, want_separated, 24);
  fx_tensor_unref (x);

  x = make_x ();
  put (x, v_tuple (3, v_all (), v_list (2, 0, 1), v_list (2, 1, 2)),
       fx_value_take_tensor (make_f32 (1, &s2, v98)));
  assert_values (x, want_adjacent, 24);
  fx_tensor_unref (x);

  x = make_x ();
  put (x, v_tuple (2, fx_value_ellipsis (), v_int (0)), fx_value_take_tensor (make_f32 (1, &s3, v123)));
  assert_values (x, want_ellipsis, 24);
  fx_tensor_unref (x);

  x = make_x ();
  put (x, v_tuple (2, v_slice (1, NONE_, NONE_), v_slice (NONE_, NONE_, 2)), fx_value_int (-1));
  assert_values (x, want_steps, 24);
  fx_tensor_unref (x);

  x = make_x ();
  {
    uint8_t m[3] = { 1, 0, 1 };
    put (x, v_tuple (2, v_int (0), v_mask (1, &s3, m)), fx_value_float (-1));
  }
  assert_values (x, want_int_mask, 24);
  fx_tensor_unref (x);

  /* x[None, 1, None, 2] = [[[5.]]] */
  x = make_x ();
  {
    int64_t s111[3] = { 1, 1, 1 };
    float five = 5;
    put (x, v_tuple (4, fx_value_none (), v_int (1), fx_value_none (), v_int (2)),
         fx_value_take_tensor (make_f32 (3, s111, &five)));
  }
  assert_values (x, want_none, 24);
  fx_tensor_unref (x);

  x = make_x ();
  put (x, v_tuple (3, v_list (1, -1), v_list (1, -1), v_list (1, -1)), fx_value_int (100));
  assert_values (x, want_neg, 24);
  fx_tensor_unref (x);

  /* True writes everything, False nothing */
  x = make_x ();
  put (x, fx_value_bool (FALSE), fx_value_int (3));
  g_assert_cmpfloat (fx_tensor_get_double (x, 5), ==, 5);
  put (x, fx_value_bool (TRUE), fx_value_int (3));
  g_assert_cmpfloat (fx_tensor_get_double (x, 5), ==, 3);
  fx_tensor_unref (x);

  /* an int tensor takes floats truncated; repeated indices: the last write wins */
  {
    int64_t y0[3] = { 0, 1, 2 }, two[2] = { 5, 6 };
    FxTensor *y = fx_tensor_new_from_data (FX_DTYPE_INT64, 1, &s3, y0);
    put (y, v_int (0), fx_value_float (2.7));
    g_assert_cmpint (fx_tensor_get_int64 (y, 0), ==, 2);
    put (y, v_list (2, 1, 1), v_tensor_i64 (2, two));
    g_assert_cmpint (fx_tensor_get_int64 (y, 1), ==, 6);
    fx_tensor_unref (y);
  }
}

static void
test_setitem_through_views (void)
{
  FxTensor *x = make_x (), *w, *row;

  /* w = x[:, 1]; w[[0, 1]] = 7 */
  w = get (x, v_tuple (2, v_all (), v_int (1)));
  put (w, v_list (2, 0, 1), fx_value_int (7));
  assert_values (x, want_through_view, 24);
  fx_tensor_unref (w);

  /* x[0][1] = 100 writes into x */
  row = get (x, v_int (0));
  put (row, v_int (1), fx_value_float (100));
  g_assert_cmpfloat (fx_tensor_get_double (x, 4), ==, 100);
  g_assert_cmpfloat (fx_tensor_get_double (x, 7), ==, 100);
  fx_tensor_unref (row);

  /* a transposed view: xt[1, 0] = -5 is x[0, 1, ...] in the permuted layout */
  {
    int dims[3] = { 1, 0, 2 };
    FxTensor *xt = fx_tensor_permute (x, 3, dims, NULL);
    put (xt, v_tuple (3, v_int (2), v_int (1), v_int (3)), fx_value_int (-5));
    g_assert_cmpfloat (fx_tensor_get_double (x, 12 + 8 + 3), ==, -5);
    fx_tensor_unref (xt);
  }
  fx_tensor_unref (x);
}

static void
test_setitem_errors (void)
{
  FxTensor *x = make_x ();
  int64_t s2 = 2, s3 = 3, y0[3] = { 0, 1, 2 };
  float v12[2] = { 1, 2 };
  FxTensor *y = fx_tensor_new_from_data (FX_DTYPE_INT64, 1, &s3, y0);
  FxTensor *s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1.0);

  put_fails (x, v_int (0), fx_value_take_tensor (make_f32 (1, &s2, v12)), FX_ERROR_SHAPE,
             "The expanded size of the tensor (4) must match the existing size (2) at "
             "non-singleton dimension 1.  Target sizes: [3, 4].  Tensor sizes: [2]");
  put_fails (x, v_tuple (2, v_list (2, 0, 1), v_int (0)),
             fx_value_take_tensor (make_f32 (1, &s2, v12)), FX_ERROR_SHAPE,
             "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result "
             "of shape [2, 4]");
  put_fails (x, v_tuple (3, v_int (0), v_int (0), v_list (3, 0, 1, 2)), v_tensor_i64 (3, y0),
             FX_ERROR_FAILED,
             "Index put requires the source and destination dtypes match, got Float for the "
             "destination and Long for the source.");
  put_fails (y, v_int (0), fx_value_str ("a"), FX_ERROR_DTYPE,
             "can't assign a str to a torch.LongTensor");
  put_fails (y, v_int (0), fx_value_float (1e20), FX_ERROR_FAILED,
             "value cannot be converted to type int64_t without overflow");
  put_fails (y, v_list (1, 5), fx_value_int (1), FX_ERROR_INDEX,
             "index 5 is out of bounds for dimension 0 with size 3");
  put_fails (s, v_int (0), fx_value_int (1), FX_ERROR_INDEX,
             "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  /* y[1:] = y[:2] overlaps itself */
  {
    FxTensor *head = get (y, v_slice (NONE_, 2, NONE_));
    put_fails (y, v_slice (1, NONE_, NONE_), fx_value_tensor (head), FX_ERROR_FAILED,
               "unsupported operation: some elements of the input tensor and the written-to "
               "tensor refer to a single memory location. Please clone() the tensor before "
               "performing the operation.");
    fx_tensor_unref (head);
  }
  /* 0-d targets take values through None and Ellipsis */
  put (s, fx_value_none (), fx_value_int (2));
  g_assert_cmpfloat (fx_tensor_get_double (s, 0), ==, 2);
  put (s, fx_value_ellipsis (), fx_value_int (3));
  g_assert_cmpfloat (fx_tensor_get_double (s, 0), ==, 3);

  fx_tensor_unref (s);
  fx_tensor_unref (y);
  fx_tensor_unref (x);
}

static void
test_index_put_tensors (void)
{
  FxTensor *x = make_x ();
  int64_t i0[3] = { 0, 0, 1 }, i1[3] = { 2, 2, 0 }, s31[2] = { 3, 1 }, s3 = 3;
  float v[3] = { 1, 2, 3 };
  FxTensor *a = fx_tensor_new_from_data (FX_DTYPE_INT64, 1, &s3, i0);
  FxTensor *b = fx_tensor_new_from_data (FX_DTYPE_INT64, 1, &s3, i1);
  FxTensor *val = make_f32 (2, s31, v);
  FxTensor *idx[2] = { a, b };
  GError *error = NULL;

  g_assert_true (fx_tensor_index_put_tensors (x, idx, 2, val, TRUE, &error));
  g_assert_no_error (error);
  assert_values (x, want_accumulate, 24);

  /* the gather side: x[a, b] through index_tensors, with a NULL slot for a full slice */
  {
    FxTensor *slots[3] = { NULL, NULL, b };
    FxTensor *r = fx_tensor_index_tensors (x, slots, 3, &error);
    g_assert_no_error (error);
    assert_shape (r, 3, 2, 3, 3);
    fx_tensor_unref (r);
  }
  fx_tensor_unref (val);
  fx_tensor_unref (a);
  fx_tensor_unref (b);
  fx_tensor_unref (x);
}

/* Advanced indexing of a bigger float32 tensor, checked against plain loops. */
static void
test_bigger (void)
{
  int64_t shape[3] = { 7, 33, 5 }, n = 7 * 33 * 5;
  float *d = g_new (float, n);
  FxTensor *x, *r;
  for (int64_t i = 0; i < n; i++)
    d[i] = (float) (i * 3 % 101);
  x = make_f32 (3, shape, d);
  /* x[:, [32, 0, 7], 1:4] */
  r = get (x, v_tuple (3, v_all (), v_list (3, 32, 0, 7), v_slice (1, 4, NONE_)));
  assert_shape (r, 3, 7, 3, 3);
  {
    int rows[3] = { 32, 0, 7 };
    for (int i = 0; i < 7; i++)
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
          g_assert_cmpfloat (fx_tensor_get_double (r, (i * 3 + j) * 3 + k), ==,
                             d[(i * 33 + rows[j]) * 5 + k + 1]);
  }
  fx_tensor_unref (r);
  fx_tensor_unref (x);
  g_free (d);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index/basic-views", test_basic_views);
  g_test_add_func ("/index/advanced", test_advanced);
  g_test_add_func ("/index/errors", test_errors);
  g_test_add_func ("/index/setitem", test_setitem);
  g_test_add_func ("/index/setitem-through-views", test_setitem_through_views);
  g_test_add_func ("/index/setitem-errors", test_setitem_errors);
  g_test_add_func ("/index/index-put-tensors", test_index_put_tensors);
  g_test_add_func ("/index/bigger", test_bigger);
  return g_test_run ();
}
