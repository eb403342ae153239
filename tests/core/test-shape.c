/* test-shape.c: joining, splitting and reordering tensors (core/tensor/shape.c) and the
 * registry entries of ops-shape.c. Expected values come from PyTorch 1.13. */
#include <fx.h>
#include "tensor/shape.h"
#include "fx-error.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static FxTensor *
arange_f32 (int ndim, ...)
{
  int64_t shape[FX_TENSOR_MAX_DIMS], n = 1;
  va_list ap;
  float *d;
  FxTensor *t;
  va_start (ap, ndim);
  for (int i = 0; i < ndim; i++)
    {
      shape[i] = va_arg (ap, int);
      n *= shape[i];
    }
  va_end (ap);
  d = g_new (float, n > 0 ? n : 1);
  for (int64_t i = 0; i < n; i++)
    d[i] = (float) i;
  t = fx_tensor_new_from_data (FX_DTYPE_FLOAT32, ndim, shape, d);
  g_free (d);
  return t;
}

static FxTensor *
i64 (int ndim, const int64_t *shape, const int64_t *data)
{
  return fx_tensor_new_from_data (FX_DTYPE_INT64, ndim, shape, data);
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

static void
assert_error (GError *error, FxErrorCode code, const char *message)
{
  g_assert_error (error, FX_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
}

/* ---- cat and stack ---- */

static void
test_cat (void)
{
  FxTensor *a = arange_f32 (2, 2, 3), *b, *e, *r, *t;
  int64_t s32[2] = { 3, 2 }, ld[6] = { 0, 1, 2, 3, 4, 5 }, zero = 0;
  GError *error = NULL;

  b = i64 (2, s32, ld);
  e = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, &zero);

  /* float32 with int64 promotes; the transposed int tensor is read through its strides */
  t = fx_tensor_t (b, NULL);
  {
    FxTensor *in[3] = { a, e, t };
    r = fx_tensor_cat (in, 3, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpint (r->dtype, ==, FX_DTYPE_FLOAT32);
    assert_shape (r, 2, 4, 3);
    static const double want[] = { 0, 1, 2, 3, 4, 5, 0, 2, 4, 1, 3, 5 };
    assert_values (r, want, 12);
    fx_tensor_unref (r);
  }
  /* along dim -1 */
  {
    FxTensor *in[2] = { a, a };
    r = fx_tensor_cat (in, 2, -1, &error);
    assert_shape (r, 2, 2, 6);
    static const double want[] = { 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5 };
    assert_values (r, want, 12);
    fx_tensor_unref (r);
  }
  /* only empty 1-d tensors: a [0] of the promoted dtype */
  {
    FxTensor *ei = fx_tensor_zeros (FX_DTYPE_INT32, 1, &zero);
    FxTensor *in[2] = { ei, e };
    r = fx_tensor_cat (in, 2, 5, &error);
    g_assert_no_error (error);
    assert_shape (r, 1, 0);
    g_assert_cmpint (r->dtype, ==, FX_DTYPE_FLOAT32);
    fx_tensor_unref (r);
    fx_tensor_unref (ei);
  }
  /* errors */
  {
    FxTensor *in[2] = { a, b };
    g_assert_null (fx_tensor_cat (in, 2, 1, &error));
    assert_error (error, FX_ERROR_SHAPE,
                  "Sizes of tensors must match except in dimension 1. Expected size 2 but got "
                  "size 3 for tensor number 1 in the list.");
    g_clear_error (&error);
  }
  {
    FxTensor *s = fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1);
    FxTensor *in[2] = { a, s };
    g_assert_null (fx_tensor_cat (in, 2, 0, &error));
    assert_error (error, FX_ERROR_FAILED,
                  "zero-dimensional tensor (at position 1) cannot be concatenated");
    g_clear_error (&error);
    fx_tensor_unref (s);
  }
  g_assert_null (fx_tensor_cat (NULL, 0, 0, &error));
  assert_error (error, FX_ERROR_FAILED, "torch.cat(): expected a non-empty list of Tensors");
  g_clear_error (&error);
  {
    FxTensor *in[2] = { a, a };
    g_assert_null (fx_tensor_cat (in, 2, 2, &error));
    assert_error (error, FX_ERROR_INDEX,
                  "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    g_clear_error (&error);
  }
  fx_tensor_unref (t);
  fx_tensor_unref (e);
  fx_tensor_unref (b);
  fx_tensor_unref (a);
}

static void
test_stack (void)
{
  FxTensor *a = arange_f32 (2, 2, 3), *r;
  GError *error = NULL;
  FxTensor *in[2] = { a, a };

  r = fx_tensor_stack (in, 2, 2, &error);
  g_assert_no_error (error);
  assert_shape (r, 3, 2, 3, 2);
  {
    static const double want[] = { 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5 };
    assert_values (r, want, 12);
  }
  fx_tensor_unref (r);
  {
    FxTensor *t = fx_tensor_t (a, NULL);
    FxTensor *bad[2] = { a, t };
    g_assert_null (fx_tensor_stack (bad, 2, 0, &error));
    assert_error (error, FX_ERROR_SHAPE,
                  "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and "
                  "[3, 2] at entry 1");
    g_clear_error (&error);
    fx_tensor_unref (t);
  }
  fx_tensor_unref (a);
}

/* ---- splitting gives views ---- */

static void
test_split_views (void)
{
  FxTensor *a = arange_f32 (2, 2, 3);
  GError *error = NULL;
  GPtrArray *parts;
  int64_t sizes[2] = { 1, 2 };

  parts = fx_tensor_split (a, 2, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parts->len, ==, 2);
  assert_shape (parts->pdata[0], 2, 2, 2);
  assert_shape (parts->pdata[1], 2, 2, 1);
  /* a view: writing into the part writes into a */
  *(float *) fx_tensor_data (parts->pdata[1]) = 42;
  g_assert_cmpfloat (fx_tensor_get_double (a, 2), ==, 42);
  g_ptr_array_unref (parts);

  parts = fx_tensor_split_with_sizes (a, 2, sizes, 1, &error);
  g_assert_no_error (error);
  g_assert_true (((FxTensor *) parts->pdata[1])->storage == a->storage);
  g_ptr_array_unref (parts);
  sizes[1] = 1;
  g_assert_null (fx_tensor_split_with_sizes (a, 2, sizes, -1, &error));
  assert_error (error, FX_ERROR_FAILED,
                "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at "
                "dimension -1), but got split_sizes=[1, 1]");
  g_clear_error (&error);

  parts = fx_tensor_chunk (a, 4, 1, &error);
  g_assert_cmpuint (parts->len, ==, 3);
  g_ptr_array_unref (parts);

  parts = fx_tensor_unbind (a, 1, &error);
  g_assert_cmpuint (parts->len, ==, 3);
  assert_shape (parts->pdata[2], 1, 2);
  g_assert_true (((FxTensor *) parts->pdata[2])->storage == a->storage);
  g_ptr_array_unref (parts);
  fx_tensor_unref (a);
}

/* ---- flatten, view and friends are views when they can be ---- */

static void
test_flatten_views (void)
{
  FxTensor *x = arange_f32 (3, 2, 3, 4), *r, *t;
  GError *error = NULL;

  r = fx_tensor_flatten (x, 1, -1, &error);
  g_assert_no_error (error);
  assert_shape (r, 2, 2, 12);
  g_assert_true (r->storage == x->storage);
  fx_tensor_unref (r);

  /* start == end: the very same tensor, as in PyTorch */
  r = fx_tensor_flatten (x, 1, 1, &error);
  g_assert_true (r == x);
  fx_tensor_unref (r);

  /* a transposed tensor cannot be flattened without a copy */
  t = fx_tensor_transpose (x, 0, 2, NULL);
  r = fx_tensor_flatten (t, 0, -1, &error);
  g_assert_true (r->storage != x->storage);
  {
    static const double want[] = { 0, 12, 4, 16, 8, 20, 1, 13 };
    for (int i = 0; i < 8; i++)
      g_assert_cmpfloat (fx_tensor_get_double (r, i), ==, want[i]);
  }
  fx_tensor_unref (r);
  fx_tensor_unref (t);

  {
    int64_t sizes[2] = { -1, 2 };
    r = fx_tensor_unflatten (x, 2, 2, sizes, &error);
    g_assert_no_error (error);
    assert_shape (r, 4, 2, 3, 2, 2);
    g_assert_true (r->storage == x->storage);
    fx_tensor_unref (r);
    sizes[0] = 3;
    g_assert_null (fx_tensor_unflatten (x, 2, 2, sizes, &error));
    assert_error (error, FX_ERROR_FAILED,
                  "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in "
                  "the input tensor");
    g_clear_error (&error);
  }
  {
    int64_t src[1] = { 0 }, dst[1] = { -1 };
    r = fx_tensor_movedim (x, 1, src, 1, dst, &error);
    assert_shape (r, 3, 3, 4, 2);
    g_assert_cmpint (r->strides[2], ==, 12);
    fx_tensor_unref (r);
  }
  r = fx_tensor_detach (x);
  g_assert_true (r->storage == x->storage && !r->requires_grad);
  fx_tensor_unref (r);
  fx_tensor_unref (x);
}

static void
test_view_dtype (void)
{
  int64_t shape = 2;
  int16_t d[2] = { 1, 256 };
  FxTensor *t = fx_tensor_new_from_data (FX_DTYPE_INT16, 1, &shape, d), *r;
  GError *error = NULL;

  r = fx_tensor_view_dtype (t, FX_DTYPE_UINT8, &error);
  g_assert_no_error (error);
  assert_shape (r, 1, 4);
  {
    static const double want[] = { 1, 0, 0, 1 };
    assert_values (r, want, 4);
  }
  fx_tensor_unref (r);
  r = fx_tensor_view_dtype (t, FX_DTYPE_INT64, &error);
  g_assert_null (r);
  assert_error (error, FX_ERROR_FAILED,
                "self.size(-1) must be divisible by 4 to view Short as Long (different element "
                "sizes), but got 2");
  g_clear_error (&error);
  fx_tensor_unref (t);
}

/* ---- copies ---- */

static void
test_repeat_flip_roll (void)
{
  FxTensor *a = arange_f32 (2, 2, 3), *r, *t;
  GError *error = NULL;
  int64_t reps[3] = { 1, 2, 2 };

  r = fx_tensor_repeat (a, 3, reps, &error);
  g_assert_no_error (error);
  assert_shape (r, 3, 1, 4, 6);
  {
    static const double want[] = { 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5,
                                    0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5 };
    assert_values (r, want, 24);
  }
  fx_tensor_unref (r);
  reps[0] = -1;
  g_assert_null (fx_tensor_repeat (a, 2, reps, &error));
  assert_error (error, FX_ERROR_FAILED,
                "Trying to create tensor with negative dimension -2: [-2, 6]");
  g_clear_error (&error);

  /* flip of a transposed view */
  t = fx_tensor_t (a, NULL);
  {
    int64_t dims[2] = { 0, -1 };
    r = fx_tensor_flip (t, 2, dims, &error);
    g_assert_no_error (error);
    static const double want[] = { 5, 2, 4, 1, 3, 0 };
    assert_values (r, want, 6);
    fx_tensor_unref (r);
    dims[1] = -2;
    g_assert_null (fx_tensor_flip (t, 2, dims, &error));
    assert_error (error, FX_ERROR_FAILED, "dim 0 appears multiple times in the list of dims");
    g_clear_error (&error);
  }
  fx_tensor_unref (t);

  {
    int64_t shifts[2] = { 1, 1 }, dims[2] = { 0, 1 };
    r = fx_tensor_roll (a, 2, shifts, 2, dims, &error);
    static const double want[] = { 5, 3, 4, 2, 0, 1 };
    assert_values (r, want, 6);
    fx_tensor_unref (r);
    shifts[0] = -4;
    r = fx_tensor_roll (a, 1, shifts, 0, NULL, &error);
    static const double want2[] = { 4, 5, 0, 1, 2, 3 };
    assert_values (r, want2, 6);
    fx_tensor_unref (r);
  }
  fx_tensor_unref (a);
}

/* ---- gather, scatter, index_select ---- */

static void
test_gather_scatter (void)
{
  FxTensor *a = arange_f32 (2, 2, 3), *r, *idx;
  GError *error = NULL;
  int64_t s22[2] = { 2, 2 }, d[4] = { 0, 0, 1, 0 };

  idx = i64 (2, s22, d);
  r = fx_tensor_gather (a, 1, idx, &error);
  g_assert_no_error (error);
  {
    static const double want[] = { 0, 0, 4, 3 };
    assert_values (r, want, 4);
  }
  fx_tensor_unref (r);
  fx_tensor_unref (idx);

  {
    int64_t s12[2] = { 1, 2 }, di[2] = { 2, 2 };
    float v[2] = { 9, 8 };
    FxTensor *src = fx_tensor_new_from_data (FX_DTYPE_FLOAT32, 2, s12, v);
    idx = i64 (2, s12, di);
    r = fx_tensor_scatter_add (a, 1, idx, src, &error);
    g_assert_no_error (error);
    static const double want[] = { 0, 1, 19, 3, 4, 5 };
    assert_values (r, want, 6);
    fx_tensor_unref (r);
    /* index 3 is out of bounds */
    di[0] = 3;
    fx_tensor_unref (idx);
    idx = i64 (2, s12, di);
    g_assert_null (fx_tensor_scatter (a, 1, idx, src, FALSE, NULL, &error));
    assert_error (error, FX_ERROR_FAILED, "index 3 is out of bounds for dimension 1 with size 3");
    g_clear_error (&error);
    fx_tensor_unref (idx);
    fx_tensor_unref (src);
  }

  {
    int64_t n = 2, di[2] = { 2, 0 };
    idx = i64 (1, &n, di);
    r = fx_tensor_index_select (a, 1, idx, &error);
    static const double want[] = { 2, 0, 5, 3 };
    assert_values (r, want, 4);
    fx_tensor_unref (r);
    fx_tensor_unref (idx);
  }
  fx_tensor_unref (a);
}

/* ---- masks ---- */

static void
test_masks (void)
{
  FxTensor *a = arange_f32 (2, 2, 3), *r, *mask, *v;
  GError *error = NULL;
  int64_t n3 = 3;
  uint8_t m[3] = { 1, 0, 1 };

  mask = fx_tensor_new_from_data (FX_DTYPE_BOOL, 1, &n3, m);
  v = fx_tensor_wrap_double (-1.5);
  r = fx_tensor_masked_fill (a, mask, v, &error);
  g_assert_no_error (error);
  {
    static const double want[] = { -1.5, 1, -1.5, -1.5, 4, -1.5 };
    assert_values (r, want, 6);
  }
  fx_tensor_unref (r);
  g_assert_cmpfloat (fx_tensor_get_double (a, 0), ==, 0);   /* out of place */

  g_assert_true (fx_tensor_masked_fill_ (a, mask, v, &error));
  g_assert_cmpfloat (fx_tensor_get_double (a, 0), ==, -1.5);
  fx_tensor_unref (v);

  /* overflow checks of Python numbers */
  {
    FxTensor *u8 = fx_tensor_zeros (FX_DTYPE_UINT8, 1, &n3);
    v = fx_tensor_wrap_int64 (-1);
    g_assert_true (fx_tensor_masked_fill_ (u8, mask, v, &error));
    g_assert_cmpint (fx_tensor_get_int64 (u8, 0), ==, 255);
    fx_tensor_unref (v);
    v = fx_tensor_wrap_int64 (256);
    g_assert_false (fx_tensor_masked_fill_ (u8, mask, v, &error));
    assert_error (error, FX_ERROR_FAILED, "value cannot be converted to type uint8_t without overflow");
    g_clear_error (&error);
    fx_tensor_unref (v);
    fx_tensor_unref (u8);
  }
  v = fx_tensor_wrap_double (INFINITY);
  g_assert_true (fx_tensor_masked_fill_ (a, mask, v, &error));
  g_assert_true (isinf (fx_tensor_get_double (a, 0)));
  fx_tensor_unref (v);
  v = fx_tensor_wrap_double (1e300);
  g_assert_false (fx_tensor_masked_fill_ (a, mask, v, &error));
  assert_error (error, FX_ERROR_FAILED, "value cannot be converted to type float without overflow");
  g_clear_error (&error);
  fx_tensor_unref (v);

  r = fx_tensor_masked_select (a, mask, &error);
  assert_shape (r, 1, 4);
  for (int i = 0; i < 4; i++)
    g_assert_true (isinf (fx_tensor_get_double (r, i)));
  fx_tensor_unref (r);

  r = fx_tensor_nonzero (mask);
  assert_shape (r, 2, 2, 1);
  {
    static const double want[] = { 0, 2 };
    assert_values (r, want, 2);
  }
  fx_tensor_unref (r);
  fx_tensor_unref (mask);
  fx_tensor_unref (a);
}

/* ---- registry entries ---- */

static FxValue
call (const char *path, int n, const FxValue *args, GError **error)
{
  const FxOp *op = g_str_has_prefix (path, "Tensor.") ? fx_op_lookup_method (path + 7)
                                                      : fx_op_lookup (path);
  FxValue result = fx_value_none ();
  g_assert_nonnull (op);
  fx_op_call (op, args, n, NULL, &result, error);
  return result;
}

static void
test_registry (void)
{
  FxTensor *a = arange_f32 (2, 2, 3);
  FxValue args[4], r;
  GError *error = NULL;

  fx_ops_init ();
  g_assert_true (fx_op_lookup ("torch.split") == fx_op_lookup ("torch.functional.split"));
  g_assert_nonnull (fx_op_lookup ("operator.setitem"));
  g_assert_nonnull (fx_op_lookup_method ("__getitem__"));

  /* Tensor.view(3, 2) shares storage */
  args[0] = fx_value_tensor (a);
  args[1] = fx_value_int (3);
  args[2] = fx_value_int (2);
  r = call ("Tensor.view", 3, args, &error);
  g_assert_no_error (error);
  g_assert_true (r.kind == FX_VALUE_TENSOR && r.tensor->storage == a->storage);
  assert_shape (r.tensor, 2, 3, 2);
  fx_value_clear (&r);

  /* Tensor.to(torch.float32) is the tensor itself, Tensor.float() too */
  args[1] = fx_value_dtype (FX_DTYPE_FLOAT32);
  r = call ("Tensor.to", 2, args, &error);
  g_assert_true (r.tensor == a);
  fx_value_clear (&r);
  r = call ("Tensor.float", 1, args, &error);
  g_assert_true (r.tensor == a);
  fx_value_clear (&r);

  /* torch.split returns a tuple of views */
  args[1] = fx_value_int (1);
  r = call ("torch.split", 2, args, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r.kind, ==, FX_VALUE_TUPLE);
  g_assert_cmpuint (r.seq->len, ==, 2);
  g_assert_true (r.seq->items[1].tensor->storage == a->storage);
  fx_value_clear (&r);

  /* operator.setitem(a, (0, 1), 9.0) writes into a and returns None */
  {
    FxSeq *seq = fx_seq_new (0);
    fx_seq_append (seq, fx_value_int (0));
    fx_seq_append (seq, fx_value_int (1));
    args[1] = fx_value_take_tuple (seq);
    args[2] = fx_value_float (9.0);
    r = call ("operator.setitem", 3, args, &error);
    g_assert_no_error (error);
    g_assert_cmpint (r.kind, ==, FX_VALUE_NONE);
    g_assert_cmpfloat (fx_tensor_get_double (a, 1), ==, 9);
    fx_value_clear (&args[1]);
  }

  /* Tensor.masked_fill_ returns self */
  {
    int64_t n3 = 3;
    uint8_t m[3] = { 0, 0, 1 };
    args[1] = fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_BOOL, 1, &n3, m));
    args[2] = fx_value_int (-7);
    r = call ("Tensor.masked_fill_", 3, args, &error);
    g_assert_no_error (error);
    g_assert_true (r.tensor == a);
    g_assert_cmpfloat (fx_tensor_get_double (a, 5), ==, -7);
    fx_value_clear (&r);
    fx_value_clear (&args[1]);
  }
  fx_value_clear (&args[0]);
  fx_tensor_unref (a);
}

/* A bigger contiguous float32 cat and index_select against plain loops. */
static void
test_bigger (void)
{
  FxTensor *a = arange_f32 (2, 64, 33), *b = arange_f32 (2, 64, 7), *r;
  FxTensor *in[2] = { a, b };
  GError *error = NULL;

  r = fx_tensor_cat (in, 2, 1, &error);
  assert_shape (r, 2, 64, 40);
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 40; j++)
      g_assert_cmpfloat (fx_tensor_get_double (r, i * 40 + j), ==,
                         j < 33 ? i * 33 + j : i * 7 + (j - 33));
  fx_tensor_unref (r);
  fx_tensor_unref (a);
  fx_tensor_unref (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shape/cat", test_cat);
  g_test_add_func ("/shape/stack", test_stack);
  g_test_add_func ("/shape/split-views", test_split_views);
  g_test_add_func ("/shape/flatten-views", test_flatten_views);
  g_test_add_func ("/shape/view-dtype", test_view_dtype);
  g_test_add_func ("/shape/repeat-flip-roll", test_repeat_flip_roll);
  g_test_add_func ("/shape/gather-scatter", test_gather_scatter);
  g_test_add_func ("/shape/masks", test_masks);
  g_test_add_func ("/shape/registry", test_registry);
  g_test_add_func ("/shape/bigger", test_bigger);
  return g_test_run ();
}
