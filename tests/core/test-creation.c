/* test-creation.c: the factories of creation.h. arange and linspace are compared bit for bit
 * with the values PyTorch 1.13 recorded in goldens/ops/creation.json (the generic driver only
 * checks them within a tolerance); the rest checks shapes, dtypes, strides and errors. */
#include "fx.h"
#include "tensor/creation.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- exact arange/linspace */

static double
num (JsonNode *n)
{
  if (JSON_NODE_HOLDS_OBJECT (n))
    {
      const char *s = json_object_get_string_member (json_node_get_object (n), "float");
      return g_str_equal (s, "nan") ? NAN : g_str_equal (s, "inf") ? INFINITY : -INFINITY;
    }
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return (double) json_node_get_int (n);
  return json_node_get_double (n);
}

static double
value_double (const FxValue *v)
{
  return v->kind == FX_VALUE_INT ? (double) v->i : v->f;
}

static FxValue
scalar_value (JsonNode *n)
{
  if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64)
    return fx_value_int (json_node_get_int (n));
  return fx_value_float (num (n));
}

static void
test_exact_ranges (void)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *path = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens", "ops",
                                            "creation.json", NULL);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  int checked = 0;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  JsonArray *cases = json_object_get_array_member (
    json_node_get_object (json_parser_get_root (parser)), "cases");
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *op = json_object_get_string_member (c, "op");
      gboolean arange = g_str_equal (op, "torch.arange"), lin = g_str_equal (op, "torch.linspace");
      if ((!arange && !lin) || !json_object_has_member (c, "expect"))
        continue;
      JsonArray *args = json_object_get_array_member (c, "args");
      JsonObject *kw = json_object_get_object_member (c, "kwargs");
      FxValue v[3];
      int n = 0;
      for (guint k = 0; k < json_array_get_length (args); k++)
        v[n++] = scalar_value (json_array_get_element (args, k));
      static const char *const names[] = { "start", "end", "step", "steps" };
      for (int k = 0; k < 4; k++)
        if (kw && json_object_has_member (kw, names[k]))
          v[n++] = scalar_value (json_object_get_member (kw, names[k]));
      gboolean has_dtype = kw && json_object_has_member (kw, "dtype");
      FxDType dt = FX_DTYPE_FLOAT32;
      if (has_dtype)
        g_assert_true (fx_dtype_from_name (json_object_get_string_member (
                         json_object_get_object_member (kw, "dtype"), "dtype"), &dt));
      FxTensor *t;
      if (arange)
        {
          FxValue zero = fx_value_int (0), one = fx_value_int (1);
          if (n == 1)
            t = fx_arange (&zero, &v[0], &one, has_dtype, dt, &error);
          else if (n == 2)
            t = fx_arange (&v[0], &v[1], &one, has_dtype, dt, &error);
          else
            t = fx_arange (&v[0], &v[1], &v[2], has_dtype, dt, &error);
        }
      else
        t = fx_linspace (value_double (&v[0]), value_double (&v[1]), (int64_t) value_double (&v[2]),
                         dt, &error);
      g_assert_no_error (error);
      JsonObject *want = json_object_get_object_member (
        json_object_get_object_member (c, "expect"), "tensor");
      JsonArray *data = json_object_get_array_member (want, "data");
      FxDType want_dt;
      g_assert_true (fx_dtype_from_name (json_object_get_string_member (want, "dtype"), &want_dt));
      if (t->dtype != want_dt || fx_tensor_numel (t) != json_array_get_length (data))
        g_error ("%s: got %s[%" G_GINT64_FORMAT "], torch %s[%u]",
                 json_object_get_string_member (c, "id"), fx_dtype_name (t->dtype),
                 fx_tensor_numel (t), fx_dtype_name (want_dt), json_array_get_length (data));
      for (guint k = 0; k < json_array_get_length (data); k++)
        {
          JsonNode *e = json_array_get_element (data, k);
          if (fx_dtype_is_floating (t->dtype))
            {
              if (fx_tensor_get_double (t, k) != num (e))
                g_error ("%s: element %u is %.17g, torch %.17g",
                         json_object_get_string_member (c, "id"), k, fx_tensor_get_double (t, k),
                         num (e));
            }
          else
            g_assert_cmpint (fx_tensor_get_int64 (t, k), ==, json_node_get_int (e));
        }
      fx_tensor_unref (t);
      checked++;
    }
  g_assert_cmpint (checked, >=, 20);
  g_object_unref (parser);
}

/* ---------------------------------------------------------------- factories */

static void
test_full_and_friends (void)
{
  int64_t shape[2] = { 2, 3 };
  GError *error = NULL;
  FxValue big = fx_value_int (G_GINT64_CONSTANT (4611686018427387905));   /* 2^62 + 1 */
  FxValue b = fx_value_bool (TRUE), f = fx_value_float (-2.5);
  FxTensor *t;

  t = fx_full (2, shape, &big, FALSE, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_INT64);
  g_assert_cmpint (fx_tensor_get_int64 (t, 5), ==, G_GINT64_CONSTANT (4611686018427387905));
  fx_tensor_unref (t);
  t = fx_full (2, shape, &b, FALSE, 0, NULL);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_BOOL);
  g_assert_cmpint (fx_tensor_get_int64 (t, 3), ==, 1);
  fx_tensor_unref (t);
  t = fx_full (0, NULL, &f, TRUE, FX_DTYPE_INT16, NULL);
  g_assert_cmpint (t->ndim, ==, 0);
  g_assert_cmpint (fx_tensor_get_int64 (t, 0), ==, -2);
  fx_tensor_unref (t);
  g_assert_null (fx_full (2, shape, &big, TRUE, FX_DTYPE_INT32, &error));
  g_assert_cmpstr (error->message, ==, "value cannot be converted to type int without overflow");
  g_clear_error (&error);

  t = fx_ones (FX_DTYPE_FLOAT64, 2, shape, NULL);
  g_assert_cmpfloat (fx_tensor_get_double (t, 4), ==, 1.0);
  fx_tensor_unref (t);
  t = fx_empty (FX_DTYPE_UINT8, 2, shape, NULL);
  g_assert_cmpint (fx_tensor_numel (t), ==, 6);
  fx_tensor_unref (t);
  shape[1] = -4;
  g_assert_null (fx_zeros (FX_DTYPE_FLOAT32, 2, shape, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "Trying to create tensor with negative dimension -4: [2, -4]");
  g_clear_error (&error);

  t = fx_eye (3, 2, FX_DTYPE_INT32, NULL);
  g_assert_cmpint (t->shape[0], ==, 3);
  g_assert_cmpint (t->shape[1], ==, 2);
  g_assert_cmpint (fx_tensor_get_int64 (t, 0), ==, 1);
  g_assert_cmpint (fx_tensor_get_int64 (t, 1), ==, 0);
  g_assert_cmpint (fx_tensor_get_int64 (t, 3), ==, 1);
  g_assert_cmpint (fx_tensor_get_int64 (t, 5), ==, 0);
  fx_tensor_unref (t);
}

static void
test_arange_errors (void)
{
  GError *error = NULL;
  FxValue a = fx_value_int (0), b = fx_value_float (INFINITY), s = fx_value_float (0.5);
  FxValue z = fx_value_int (0);

  g_assert_null (fx_arange (&a, &b, &s, FALSE, 0, &error));
  g_assert_cmpstr (error->message, ==, "unsupported range: 0 -> inf");
  g_clear_error (&error);
  g_assert_null (fx_arange (&a, &s, &z, FALSE, 0, &error));
  g_assert_cmpstr (error->message, ==, "step must be nonzero");
  g_clear_error (&error);
  /* an int64 range uses the truncated step: 0.5 becomes 0 */
  g_assert_null (fx_arange (&a, &a, &s, TRUE, FX_DTYPE_INT64, &error));
  g_assert_cmpstr (error->message, ==, "step must be nonzero");
  g_clear_error (&error);
  FxValue str = fx_value_str ("x");
  g_assert_null (fx_arange (&a, &str, &s, FALSE, 0, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_DTYPE);
  g_clear_error (&error);
  fx_value_clear (&str);
}

static FxValue
list_of (int n, const FxValue *items)
{
  FxSeq *seq = fx_seq_new (0);
  for (int i = 0; i < n; i++)
    fx_seq_append (seq, items[i]);
  return fx_value_take_list (seq);
}

static void
test_tensor_from_value (void)
{
  GError *error = NULL;
  FxValue row1[2] = { fx_value_int (1), fx_value_float (2.5) };
  FxValue row2[2] = { fx_value_bool (TRUE), fx_value_int (-4) };
  FxValue rows[2];
  rows[0] = list_of (2, row1);
  rows[1] = list_of (2, row2);
  FxValue data = list_of (2, rows);
  FxTensor *t = fx_tensor_from_value (&data, FALSE, 0, &error);

  g_assert_no_error (error);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_FLOAT32);
  g_assert_cmpint (t->ndim, ==, 2);
  g_assert_cmpfloat (fx_tensor_get_double (t, 1), ==, 2.5);
  g_assert_cmpfloat (fx_tensor_get_double (t, 2), ==, 1.0);
  fx_tensor_unref (t);
  t = fx_tensor_from_value (&data, TRUE, FX_DTYPE_INT64, &error);
  g_assert_cmpint (fx_tensor_get_int64 (t, 1), ==, 2);
  g_assert_cmpint (fx_tensor_get_int64 (t, 3), ==, -4);
  fx_tensor_unref (t);
  fx_value_clear (&data);

  /* a ragged list */
  FxValue short_row[1] = { fx_value_int (3) };
  FxValue long_row[2] = { fx_value_int (1), fx_value_int (2) };
  FxValue ragged_rows[2];
  ragged_rows[0] = list_of (2, long_row);
  ragged_rows[1] = list_of (1, short_row);
  FxValue ragged = list_of (2, ragged_rows);
  g_assert_null (fx_tensor_from_value (&ragged, FALSE, 0, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "expected sequence of length 2 at dim 1 (got 1)");
  g_clear_error (&error);
  fx_value_clear (&ragged);

  /* a copy of a tensor, not a view */
  int64_t shape[1] = { 3 };
  FxTensor *src = fx_tensor_ones (FX_DTYPE_INT32, 1, shape);
  FxValue sv = fx_value_tensor (src);
  t = fx_tensor_from_value (&sv, TRUE, FX_DTYPE_FLOAT64, &error);
  g_assert_no_error (error);
  g_assert_true (t->storage != src->storage);
  g_assert_cmpint (t->dtype, ==, FX_DTYPE_FLOAT64);
  fx_tensor_unref (t);
  fx_value_clear (&sv);
  fx_tensor_unref (src);

  FxValue none = fx_value_none ();
  g_assert_null (fx_tensor_from_value (&none, FALSE, 0, &error));
  g_assert_cmpstr (error->message, ==, "Could not infer dtype of NoneType");
  g_clear_error (&error);
}

static void
test_like (void)
{
  int64_t shape[2] = { 3, 4 };
  GError *error = NULL;
  FxTensor *x = fx_tensor_ones (FX_DTYPE_FLOAT32, 2, shape);
  FxTensor *xt = fx_tensor_t (x, NULL);
  FxTensor *z = fx_zeros_like (xt, FX_DTYPE_LIKE, &error);

  g_assert_no_error (error);
  /* preserve_format keeps the transposed strides of a dense input */
  g_assert_cmpint (z->strides[0], ==, 1);
  g_assert_cmpint (z->strides[1], ==, 4);
  g_assert_cmpint (z->dtype, ==, FX_DTYPE_FLOAT32);
  fx_tensor_unref (z);
  FxValue fill = fx_value_float (7.5);
  z = fx_full_like (xt, &fill, FX_DTYPE_INT8, &error);
  g_assert_cmpint (z->dtype, ==, FX_DTYPE_INT8);
  g_assert_cmpint (fx_tensor_get_int64 (z, 11), ==, 7);
  fx_tensor_unref (z);
  /* a strided (non-dense) input gives a contiguous result */
  FxTensor *sl = fx_tensor_slice (x, 1, 0, 4, 2, NULL);
  z = fx_ones_like (sl, FX_DTYPE_FLOAT64, NULL);
  g_assert_true (fx_tensor_is_contiguous (z));
  g_assert_cmpfloat (fx_tensor_get_double (z, 5), ==, 1.0);
  fx_tensor_unref (z);
  fx_tensor_unref (sl);
  g_assert_null (fx_randint_like (x, 3, 3, FX_DTYPE_LIKE, NULL, &error));
  g_clear_error (&error);

  /* fill on a view writes only the view */
  sl = fx_tensor_slice (x, 1, 1, 4, 2, NULL);
  FxValue zero = fx_value_int (0);
  g_assert_true (fx_fill_value (sl, &zero, NULL));
  g_assert_cmpfloat (fx_tensor_get_double (x, 0), ==, 1.0);
  g_assert_cmpfloat (fx_tensor_get_double (x, 1), ==, 0.0);
  g_assert_cmpfloat (fx_tensor_get_double (x, 3), ==, 0.0);
  fx_tensor_unref (sl);
  fx_tensor_unref (xt);
  fx_tensor_unref (x);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/creation/exact-ranges", test_exact_ranges);
  g_test_add_func ("/creation/full", test_full_and_friends);
  g_test_add_func ("/creation/arange-errors", test_arange_errors);
  g_test_add_func ("/creation/tensor", test_tensor_from_value);
  g_test_add_func ("/creation/like", test_like);
  return g_test_run ();
}
