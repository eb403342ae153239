/* test-small-ops.c: the small-tensor shortcuts of the elementwise engine (float32 operands
 * that are contiguous and tiny, Python numbers boxed on the stack, storage allocated with its
 * data) give bit for bit what the general strided path gives on the same values. */
#include "fx.h"
#include "tensor/elementwise.h"

#include <math.h>
#include <string.h>

/* A [3, 4] float32 tensor of pseudo-random values, contiguous, and the same values as a
 * strided view (every other column of a [3, 8]), which only the general path takes. */
static void
make_pair (guint32 seed, FxTensor **contig, FxTensor **strided)
{
  int64_t shape[2] = { 3, 8 };
  FxTensor *wide = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, 2, shape);
  float *p = fx_tensor_data (wide);
  GRand *rand = g_rand_new_with_seed (seed);
  for (int i = 0; i < 24; i++)
    p[i] = (float) g_rand_double_range (rand, -4.0, 4.0);
  /* exact zeros and a NaN so that division, remainder and comparisons meet them */
  p[2] = 0.0f;
  p[9] = -0.0f;
  p[12] = NAN;
  g_rand_free (rand);
  *strided = fx_tensor_slice (wide, 1, 0, 8, 2, NULL);
  g_assert_nonnull (*strided);
  g_assert_false (fx_tensor_is_contiguous (*strided));
  *contig = fx_tensor_contiguous (*strided);
  g_assert_true (fx_tensor_is_contiguous (*contig));
  fx_tensor_unref (wide);
}

static void
assert_same (FxTensor *fast, FxTensor *general)
{
  g_assert_nonnull (fast);
  g_assert_nonnull (general);
  g_assert_cmpint (fast->dtype, ==, general->dtype);
  g_assert_true (fx_tensor_same_shape (fast, general));
  FxTensor *g = fx_tensor_contiguous (general);
  g_assert_cmpmem (fx_tensor_data (fast), (gsize) fx_tensor_numel (fast) * fx_dtype_size (fast->dtype),
                   fx_tensor_data (g), (gsize) fx_tensor_numel (g) * fx_dtype_size (g->dtype));
  fx_tensor_unref (g);
}

static void
unref_all (FxTensor *a, FxTensor *as, FxTensor *b, FxTensor *bs)
{
  fx_tensor_unref (a);
  fx_tensor_unref (as);
  fx_tensor_unref (b);
  fx_tensor_unref (bs);
}

/* The shortcut's outcome r1/e1 is the general path's r2/e2 (both taken and released):
 * the same values, or an error with the same message. */
static void
check_outcome (FxTensor *r1, GError *e1, FxTensor *r2, GError *e2)
{
  g_assert_true ((r1 == NULL) == (r2 == NULL));
  if (r1 != NULL)
    assert_same (r1, r2);
  else
    g_assert_cmpstr (e1->message, ==, e2->message);
  g_clear_error (&e1);
  g_clear_error (&e2);
  g_clear_pointer (&r1, fx_tensor_unref);
  g_clear_pointer (&r2, fx_tensor_unref);
}

/* Every binary op: tensor op tensor, tensor op number and number op tensor (numbers boxed on
 * the stack and allocated), against the strided inputs. */
static void
test_binary_matches_general (void)
{
  FxTensor *a, *as, *b, *bs;
  make_pair (1, &a, &as);
  make_pair (2, &b, &bs);
  for (int op = 0; op < FX_BINARY_N; op++)
    {
      GError *e1 = NULL, *e2 = NULL;
      FxTensor *r1 = fx_tensor_binary (op, a, b, &e1), *r2 = fx_tensor_binary (op, as, bs, &e2);
      check_outcome (r1, e1, r2, e2);

      const double numbers[] = { 2.5, -0.0, 3.0, 1e300 };
      for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
        for (int side = 0; side < 2; side++)
          {
            FxScalarBox box;
            FxTensor *n = i == 2 ? fx_scalar_box_int64 (&box, 3) : fx_scalar_box_double (&box, numbers[i]);
            FxTensor *heap = i == 2 ? fx_tensor_wrap_int64 (3) : fx_tensor_wrap_double (numbers[i]);
            GError *f1 = NULL, *f2 = NULL;
            FxTensor *q1 = side ? fx_tensor_binary (op, n, a, &f1) : fx_tensor_binary (op, a, n, &f1);
            FxTensor *q2 = side ? fx_tensor_binary (op, heap, as, &f2)
                                : fx_tensor_binary (op, as, heap, &f2);
            check_outcome (q1, f1, q2, f2);
            fx_tensor_unref (heap);
            g_assert_cmpint (g_atomic_int_get (&box.tensor.ref), ==, 1);
          }
    }
  unref_all (a, as, b, bs);
}

/* add_/sub_/mul_ in place and add with alpha (1 takes the shortcut, 2 does not). */
static void
test_inplace_and_alpha (void)
{
  FxTensor *a, *as, *b, *bs;
  make_pair (3, &a, &as);
  make_pair (4, &b, &bs);
  const FxBinaryOp ops[] = { FX_BINARY_ADD, FX_BINARY_SUB, FX_BINARY_MUL, FX_BINARY_DIV };
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      int64_t wide_shape[2] = { 3, 8 };
      FxTensor *x = fx_tensor_clone (a), *xs = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, wide_shape);
      FxTensor *xv = fx_tensor_slice (xs, 1, 0, 8, 2, NULL);
      g_assert_true (fx_tensor_copy_into (xv, a, NULL));
      g_assert_false (fx_tensor_is_contiguous (xv));
      FxTensor *r1 = fx_tensor_binary_ (ops[i], x, b, NULL);
      FxTensor *r2 = fx_tensor_binary_ (ops[i], xv, bs, NULL);
      g_assert_true (r1 == x);
      assert_same (x, xv);
      /* x op= x reads each element before writing it */
      FxTensor *r3 = fx_tensor_binary_ (ops[i], x, x, NULL);
      FxTensor *r4 = fx_tensor_binary (ops[i], xv, xv, NULL);
      assert_same (x, r4);
      fx_tensor_unref (r1);
      fx_tensor_unref (r2);
      fx_tensor_unref (r3);
      fx_tensor_unref (r4);
      fx_tensor_unref (xv);
      fx_tensor_unref (xs);
      fx_tensor_unref (x);
    }
  for (int64_t alpha = 1; alpha <= 2; alpha++)
    for (int sub = 0; sub < 2; sub++)
      {
        FxScalarBox box;
        FxTensor *al = fx_scalar_box_int64 (&box, alpha), *heap = fx_tensor_wrap_int64 (alpha);
        FxTensor *r1 = fx_tensor_add_alpha (a, b, al, sub, FALSE, NULL);
        FxTensor *r2 = fx_tensor_add_alpha (as, bs, heap, sub, FALSE, NULL);
        assert_same (r1, r2);
        fx_tensor_unref (r1);
        fx_tensor_unref (r2);
        fx_tensor_unref (heap);
      }
  unref_all (a, as, b, bs);
}

/* Unary ops on tiny contiguous tensors take the one-call loop; the strided view does not. */
static void
test_unary_matches_general (void)
{
  FxTensor *a, *as;
  make_pair (5, &a, &as);
  for (int op = 0; op < FX_UNARY_N; op++)
    {
      GError *e1 = NULL, *e2 = NULL;
      FxTensor *r1 = fx_tensor_unary (op, a, 0.25, 2.0, &e1);
      FxTensor *r2 = fx_tensor_unary (op, as, 0.25, 2.0, &e2);
      check_outcome (r1, e1, r2, e2);
    }
  fx_tensor_unref (a);
  fx_tensor_unref (as);
}

/* Small storage keeps its data with the struct: aligned, zeroed when asked, alive for views
 * after the tensor that made it is gone, and the boxed numbers are proper wrapped numbers. */
static void
test_small_storage_and_boxes (void)
{
  for (int64_t n = 0; n <= 200; n += 7)
    {
      FxTensor *z = fx_tensor_zeros (FX_DTYPE_FLOAT64, 1, &n);
      g_assert_cmpuint ((guintptr) fx_tensor_data (z) % 64, ==, 0);
      for (int64_t i = 0; i < n; i++)
        g_assert_cmpfloat (fx_tensor_get_double (z, i), ==, 0.0);
      FxTensor *v = n > 2 ? fx_tensor_slice (z, 0, 1, n, 1, NULL) : NULL;
      fx_tensor_unref (z);
      if (v != NULL)
        {
          fx_tensor_fill_double_ (v, 1.5);
          g_assert_cmpfloat (fx_tensor_get_double (v, n - 2), ==, 1.5);
          fx_tensor_unref (v);
        }
    }
  /* a small tensor's storage replaced (out= resizing and .data = do that), the tensor and its
   * first storage then freed in either order */
  for (int order = 0; order < 2; order++)
    {
      int64_t n = 4;
      FxTensor *s = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, &n);
      FxTensor *fresh = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, &n);
      FxStorage *first = fx_storage_ref (s->storage), *prev = s->storage;
      s->storage = fx_storage_ref (fresh->storage);
      fx_storage_unref (prev);
      fx_tensor_unref (fresh);
      g_assert_cmpfloat (((float *) first->data)[3], ==, 1.0f);
      g_assert_cmpfloat (fx_tensor_get_double (s, 3), ==, 0.0);
      if (order)
        {
          fx_tensor_unref (s);
          fx_storage_unref (first);
        }
      else
        {
          fx_storage_unref (first);
          fx_tensor_unref (s);
        }
    }
  FxScalarBox box;
  FxTensor *t = fx_scalar_box_double (&box, 0.5);
  g_assert_true (t->wrapped_number);
  g_assert_cmpint (t->ndim, ==, 0);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_FLOAT64);
  g_assert_cmpfloat (fx_tensor_get_double (t, 0), ==, 0.5);
  t = fx_scalar_box_bool (&box, 7);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_BOOL);
  g_assert_cmpint (fx_tensor_get_int64 (t, 0), ==, 1);
  t = fx_scalar_box_int64 (&box, -3);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_INT64);
  g_assert_cmpint (fx_tensor_get_int64 (t, 0), ==, -3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/small-ops/binary-matches-general", test_binary_matches_general);
  g_test_add_func ("/small-ops/inplace-and-alpha", test_inplace_and_alpha);
  g_test_add_func ("/small-ops/unary-matches-general", test_unary_matches_general);
  g_test_add_func ("/small-ops/small-storage-and-boxes", test_small_storage_and_boxes);
  return g_test_run ();
}
