/* test-print.c: tensor repr compared byte for byte with PyTorch 1.13's (goldens from
 * tests/conformance/gen_tensor_repr.py), one test per golden case, plus a few by hand. */
#include "fx.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static double
element_of (JsonNode *n)
{
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (n);
      return g_str_equal (s, "nan") ? NAN : g_str_equal (s, "inf") ? INFINITY : -INFINITY;
    }
  if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (n);
  return json_node_get_double (n);
}

/* A tensor of golden_encode.py's encoding, views applied. */
static FxTensor *
decode_tensor (JsonObject *o)
{
  FxDType dtype;
  g_assert_true (fx_dtype_from_name (json_object_get_string_member (o, "dtype"), &dtype));
  JsonArray *shape_a = json_object_get_array_member (o, "shape");
  JsonArray *data = json_object_get_array_member (o, "data");
  int ndim = (int) json_array_get_length (shape_a);
  int64_t shape[FX_TENSOR_MAX_DIMS];
  for (int i = 0; i < ndim; i++)
    shape[i] = json_array_get_int_element (shape_a, i);
  guint n = json_array_get_length (data);
  gsize es = fx_dtype_size (dtype);
  guint8 *buf = g_malloc0 (MAX (n, 1) * es);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (data, i);
      void *p = buf + i * es;
      gboolean is_int = json_node_get_value_type (e) == G_TYPE_INT64;
      int64_t iv = is_int ? json_node_get_int (e) : 0;
      double d = is_int ? (double) iv : element_of (e);
      switch (dtype)
        {
        case FX_DTYPE_BOOL: *(guint8 *) p = d != 0; break;
        case FX_DTYPE_UINT8: *(guint8 *) p = (guint8) iv; break;
        case FX_DTYPE_INT8: *(gint8 *) p = (gint8) iv; break;
        case FX_DTYPE_INT16: *(gint16 *) p = (gint16) iv; break;
        case FX_DTYPE_INT32: *(gint32 *) p = (gint32) iv; break;
        case FX_DTYPE_INT64: *(gint64 *) p = iv; break;
        case FX_DTYPE_FLOAT16: *(guint16 *) p = fx_float_to_half ((float) d); break;
        case FX_DTYPE_FLOAT32: *(float *) p = (float) d; break;
        case FX_DTYPE_FLOAT64: *(double *) p = d; break;
        default: g_assert_not_reached ();
        }
    }
  FxTensor *t = fx_tensor_new_from_data (dtype, ndim, shape, buf);
  g_free (buf);
  g_assert_nonnull (t);
  if (json_object_has_member (o, "view"))
    {
      JsonArray *steps = json_object_get_array_member (o, "view");
      for (guint s = 0; s < json_array_get_length (steps); s++)
        {
          JsonArray *st = json_array_get_array_element (steps, s);
          const char *name = json_array_get_string_element (st, 0);
          GError *error = NULL;
          FxTensor *v = NULL;
          if (g_str_equal (name, "t"))
            v = fx_tensor_t (t, &error);
          else if (g_str_equal (name, "permute"))
            {
              JsonArray *a = json_array_get_array_element (st, 1);
              int dims[FX_TENSOR_MAX_DIMS];
              for (guint i = 0; i < json_array_get_length (a); i++)
                dims[i] = (int) json_array_get_int_element (a, i);
              v = fx_tensor_permute (t, (int) json_array_get_length (a), dims, &error);
            }
          else if (g_str_equal (name, "transpose"))
            v = fx_tensor_transpose (t, (int) json_array_get_int_element (st, 1),
                                     (int) json_array_get_int_element (st, 2), &error);
          else if (g_str_equal (name, "slice"))
            v = fx_tensor_slice (t, (int) json_array_get_int_element (st, 1),
                                 json_array_get_int_element (st, 2),
                                 json_array_get_int_element (st, 3),
                                 json_array_get_int_element (st, 4), &error);
          else if (g_str_equal (name, "expand"))
            {
              JsonArray *a = json_array_get_array_element (st, 1);
              int64_t sh[FX_TENSOR_MAX_DIMS];
              for (guint i = 0; i < json_array_get_length (a); i++)
                sh[i] = json_array_get_int_element (a, i);
              v = fx_tensor_expand (t, (int) json_array_get_length (a), sh, &error);
            }
          g_assert_no_error (error);
          g_assert_nonnull (v);
          fx_tensor_unref (t);
          t = v;
        }
    }
  if (json_object_get_boolean_member_with_default (o, "requires_grad", FALSE))
    t->requires_grad = TRUE;
  return t;
}

static void
run_golden (gconstpointer data)
{
  JsonObject *c = (JsonObject *) data;
  JsonObject *enc = json_object_get_object_member (json_object_get_object_member (c, "tensor"),
                                                   "tensor");
  FxTensor *t = decode_tensor (enc);
  char *s = fx_tensor_to_string (t);
  g_assert_cmpstr (s, ==, json_object_get_string_member (c, "repr"));
  g_free (s);
  fx_tensor_unref (t);
}

static void
check (FxTensor *t, const char *expected)
{
  char *s = fx_tensor_to_string (t);
  g_assert_cmpstr (s, ==, expected);
  GString *g = g_string_new ("x=");
  fx_tensor_repr (t, g);
  g_assert_true (g_str_has_prefix (g->str, "x=tensor("));
  g_assert_cmpstr (g->str + 2, ==, expected);
  g_string_free (g, TRUE);
  g_free (s);
  fx_tensor_unref (t);
}

static void
test_by_hand (void)
{
  check (fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 3.0), "tensor(3.)");
  check (fx_tensor_scalar_double (FX_DTYPE_FLOAT32, 1.5), "tensor(1.5000)");
  check (fx_tensor_scalar_int64 (FX_DTYPE_INT64, -3), "tensor(-3)");
  check (fx_tensor_scalar_int64 (FX_DTYPE_INT32, 7), "tensor(7, dtype=torch.int32)");
  check (fx_tensor_scalar_int64 (FX_DTYPE_BOOL, 1), "tensor(True)");
  int64_t shape[2] = { 2, 2 };
  float data[4] = { 1.5f, -2.25f, 1e-5f, 0.0f };
  check (fx_tensor_new_from_data (FX_DTYPE_FLOAT32, 2, shape, data),
         "tensor([[ 1.5000e+00, -2.2500e+00],\n        [ 1.0000e-05,  0.0000e+00]])");
  int64_t e[2] = { 0, 3 };
  check (fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, e), "tensor([], size=(0, 3))");
  FxTensor *o = fx_tensor_ones (FX_DTYPE_FLOAT64, 1, (int64_t[]) { 2 });
  o->requires_grad = TRUE;
  check (o, "tensor([1., 1.], dtype=torch.float64, requires_grad=True)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/print/by-hand", test_by_hand);

  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *path = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens",
                                            "tensor_repr.json", NULL);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  if (!json_parser_load_from_file (parser, path, &error))
    g_error ("%s: %s", path, error->message);
  JsonArray *cases = json_object_get_array_member (
      json_node_get_object (json_parser_get_root (parser)), "cases");
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      g_autofree char *name = g_strdup_printf ("/print/golden/%s",
                                               json_object_get_string_member (c, "id"));
      g_test_add_data_func (name, c, run_golden);
    }
  int rc = g_test_run ();
  g_object_unref (parser);
  return rc;
}
