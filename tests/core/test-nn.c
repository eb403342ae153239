/* test-nn.c: the kernels of nn.h. The generic golden driver checks their outputs against
 * PyTorch; here: the running statistics that training-mode normalisations update in place
 * (goldens/nn_state.json, from gen_ops_nn.py), dropout's identity and in-place contracts, and
 * properties (round trips, empty inputs, float16). */
#include "fx.h"
#include "tensor/nn.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static FxTensor *
decode_tensor (JsonNode *node)
{
  JsonObject *o;
  JsonArray *shape, *data;
  int64_t sh[FX_TENSOR_MAX_DIMS];
  FxDType dt;
  FxTensor *t;

  if (JSON_NODE_HOLDS_NULL (node))
    return NULL;
  o = json_object_get_object_member (json_node_get_object (node), "tensor");
  shape = json_object_get_array_member (o, "shape");
  data = json_object_get_array_member (o, "data");
  g_assert_true (fx_dtype_from_name (json_object_get_string_member (o, "dtype"), &dt));
  for (guint i = 0; i < json_array_get_length (shape); i++)
    sh[i] = json_array_get_int_element (shape, i);
  t = fx_tensor_zeros (FX_DTYPE_FLOAT64, json_array_get_length (shape), sh);
  for (guint i = 0; i < json_array_get_length (data); i++)
    ((double *) fx_tensor_data (t))[i] = json_array_get_double_element (data, i);
  if (dt != FX_DTYPE_FLOAT64)
    {
      FxTensor *c = fx_tensor_to_dtype (t, dt);
      fx_tensor_unref (t);
      t = c;
    }
  return t;
}

static void
assert_close (const FxTensor *got, const FxTensor *want, double rtol, double atol,
              const char *what)
{
  g_assert_cmpint (got->ndim, ==, want->ndim);
  for (int i = 0; i < got->ndim; i++)
    g_assert_cmpint (got->shape[i], ==, want->shape[i]);
  for (int64_t i = 0; i < fx_tensor_numel (want); i++)
    {
      double g = fx_tensor_get_double (got, i), w = fx_tensor_get_double (want, i);
      if (!(fabs (g - w) <= atol + rtol * fabs (w)))
        g_error ("%s: element %" G_GINT64_FORMAT " is %.9g, torch %.9g", what, i, g, w);
    }
}

static void
test_running_stats (void)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *path = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens",
                                            "nn_state.json", NULL);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  JsonArray *cases = json_object_get_array_member (
    json_node_get_object (json_parser_get_root (parser)), "cases");
  g_assert_cmpuint (json_array_get_length (cases), >=, 5);
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *name = json_object_get_string_member (c, "name");
      FxTensor *x = decode_tensor (json_object_get_member (c, "input"));
      FxTensor *rm = decode_tensor (json_object_get_member (c, "running_mean"));
      FxTensor *rv = decode_tensor (json_object_get_member (c, "running_var"));
      FxTensor *w = decode_tensor (json_object_get_member (c, "weight"));
      FxTensor *b = decode_tensor (json_object_get_member (c, "bias"));
      FxTensor *out = decode_tensor (json_object_get_member (c, "out"));
      FxTensor *rm2 = decode_tensor (json_object_get_member (c, "running_mean_after"));
      FxTensor *rv2 = decode_tensor (json_object_get_member (c, "running_var_after"));
      double momentum = json_object_get_double_member (c, "momentum");
      double eps = json_object_get_double_member (c, "eps");
      FxTensor *y;
      if (g_str_equal (json_object_get_string_member (c, "op"), "batch_norm"))
        y = fx_batch_norm (x, rm, rv, w, b, TRUE, momentum, eps, &error);
      else
        y = fx_instance_norm (x, rm, rv, w, b, TRUE, momentum, eps, &error);
      g_assert_no_error (error);
      assert_close (y, out, 1e-5, 1e-5, name);
      assert_close (rm, rm2, 1e-5, 1e-6, name);
      assert_close (rv, rv2, 1e-5, 1e-6, name);
      fx_tensor_unref (y);
      fx_tensor_unref (x);
      fx_tensor_unref (rm);
      fx_tensor_unref (rv);
      g_clear_pointer (&w, fx_tensor_unref);
      g_clear_pointer (&b, fx_tensor_unref);
      fx_tensor_unref (out);
      fx_tensor_unref (rm2);
      fx_tensor_unref (rv2);
    }
  g_object_unref (parser);
}

static FxTensor *
seq_tensor (FxDType dt, int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_zeros (FX_DTYPE_FLOAT64, ndim, shape);
  for (int64_t i = 0; i < fx_tensor_numel (t); i++)
    ((double *) fx_tensor_data (t))[i] = sin ((double) i) * 3;
  FxTensor *r = fx_tensor_to_dtype (t, dt);
  fx_tensor_unref (t);
  return r;
}

/* Training-mode batch_norm over runs longer than its kernel's 8 partial sums (35 values a
 * plane: 4 rounds of 8 and 3 left, 2 images), float32 and float64, against the statistics
 * summed one by one in double here. */
static void
test_batch_norm_long_runs (void)
{
  const int64_t shape[4] = { 2, 3, 5, 7 }, N = 2, C = 3, S = 35;
  FxDType dts[] = { FX_DTYPE_FLOAT32, FX_DTYPE_FLOAT64 };
  for (guint d = 0; d < G_N_ELEMENTS (dts); d++)
    {
      GError *error = NULL;
      FxTensor *x = seq_tensor (dts[d], 4, shape);
      FxTensor *x64 = fx_tensor_to_dtype (x, FX_DTYPE_FLOAT64);
      const double *xv = fx_tensor_data (x64);
      FxTensor *want = fx_tensor_zeros (FX_DTYPE_FLOAT64, 4, shape);
      double *wv = fx_tensor_data (want);
      for (int64_t c = 0; c < C; c++)
        {
          double sum = 0, sq = 0;
          for (int64_t n = 0; n < N; n++)
            for (int64_t i = 0; i < S; i++)
              sum += xv[(n * C + c) * S + i];
          double mean = sum / (double) (N * S);
          for (int64_t n = 0; n < N; n++)
            for (int64_t i = 0; i < S; i++)
              {
                double dv = xv[(n * C + c) * S + i] - mean;
                sq += dv * dv;
              }
          double invstd = 1.0 / sqrt (sq / (double) (N * S) + 1e-5);
          for (int64_t n = 0; n < N; n++)
            for (int64_t i = 0; i < S; i++)
              wv[(n * C + c) * S + i] = (xv[(n * C + c) * S + i] - mean) * invstd;
        }
      FxTensor *y = fx_batch_norm (x, NULL, NULL, NULL, NULL, TRUE, 0.1, 1e-5, &error);
      g_assert_no_error (error);
      FxTensor *y64 = fx_tensor_to_dtype (y, FX_DTYPE_FLOAT64);
      assert_close (y64, want, 1e-5, 1e-5, "batch_norm over runs of 35");
      fx_tensor_unref (y64);
      fx_tensor_unref (y);
      fx_tensor_unref (want);
      fx_tensor_unref (x64);
      fx_tensor_unref (x);
    }
}

static void
test_dropout_contract (void)
{
  int64_t shape[2] = { 8, 8 };
  GError *error = NULL;
  FxTensor *x = seq_tensor (FX_DTYPE_FLOAT32, 2, shape), *y, *copy;

  y = fx_dropout (x, 0.5, FALSE, FALSE, NULL, &error);
  g_assert_true (y == x);                 /* eval: the very same tensor */
  fx_tensor_unref (y);
  y = fx_dropout (x, 0.0, TRUE, FALSE, NULL, &error);
  g_assert_true (y == x);
  fx_tensor_unref (y);

  copy = fx_tensor_clone (x);
  fx_manual_seed (4);
  y = fx_dropout (x, 0.25, TRUE, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (y != x);
  int zeros = 0;
  for (int64_t i = 0; i < 64; i++)
    {
      double v = fx_tensor_get_double (y, i), o = fx_tensor_get_double (copy, i);
      if (v == 0 && o != 0)
        zeros++;
      else
        g_assert_cmpfloat (fabs (v - o / 0.75), <=, 1e-5 * fabs (o) + 1e-6);
    }
  g_assert_cmpint (zeros, >, 4);
  g_assert_cmpint (zeros, <, 40);

  /* in place: same draws, written into x, x returned */
  fx_manual_seed (4);
  FxTensor *z = fx_dropout (x, 0.25, TRUE, TRUE, NULL, &error);
  g_assert_true (z == x);
  for (int64_t i = 0; i < 64; i++)
    g_assert_cmpfloat (fx_tensor_get_double (x, i), ==, fx_tensor_get_double (y, i));
  fx_tensor_unref (z);
  fx_tensor_unref (y);

  /* feature dropout zeroes whole channels */
  int64_t fshape[3] = { 4, 6, 5 };
  FxTensor *f = fx_tensor_ones (FX_DTYPE_FLOAT64, 3, fshape);
  fx_manual_seed (9);
  y = fx_feature_dropout (f, 0.5, TRUE, FALSE, NULL, &error);
  g_assert_no_error (error);
  for (int64_t nc = 0; nc < 24; nc++)
    for (int64_t s = 1; s < 5; s++)
      g_assert_cmpfloat (fx_tensor_get_double (y, nc * 5 + s), ==,
                         fx_tensor_get_double (y, nc * 5));
  fx_tensor_unref (y);
  fx_tensor_unref (f);

  /* p = 1 draws nothing */
  fx_manual_seed (2);
  uint32_t before = fx_generator_random (NULL);
  fx_manual_seed (2);
  y = fx_dropout (copy, 1.0, TRUE, FALSE, NULL, &error);
  g_assert_cmpuint (fx_generator_random (NULL), ==, before);
  g_assert_cmpfloat (fx_tensor_get_double (y, 9), ==, 0.0);
  fx_tensor_unref (y);
  g_assert_null (fx_dropout (copy, 2.0, TRUE, FALSE, NULL, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  fx_tensor_unref (copy);
  fx_tensor_unref (x);
}

static gboolean
same_values (const FxTensor *a, const FxTensor *b)
{
  if (fx_tensor_numel (a) != fx_tensor_numel (b))
    return FALSE;
  for (int64_t i = 0; i < fx_tensor_numel (a); i++)
    if (fx_tensor_get_double (a, i) != fx_tensor_get_double (b, i))
      return FALSE;
  return TRUE;
}

static void
test_shuffles (void)
{
  int64_t shape[4] = { 2, 12, 3, 2 };
  GError *error = NULL;
  FxTensor *x = seq_tensor (FX_DTYPE_FLOAT32, 4, shape);
  FxTensor *s = fx_pixel_shuffle (x, 2, &error), *u;

  g_assert_no_error (error);
  g_assert_cmpint (s->shape[1], ==, 3);
  g_assert_cmpint (s->shape[2], ==, 6);
  g_assert_cmpint (s->shape[3], ==, 4);
  u = fx_pixel_unshuffle (s, 2, &error);
  g_assert_true (same_values (u, x));
  fx_tensor_unref (u);
  fx_tensor_unref (s);

  s = fx_channel_shuffle (x, 3, &error);
  g_assert_false (same_values (s, x));
  u = fx_channel_shuffle (s, 4, &error);   /* groups 3 then 12/3 = 4 undoes it */
  g_assert_true (same_values (u, x));
  fx_tensor_unref (u);
  fx_tensor_unref (s);
  fx_tensor_unref (x);
}

static void
test_empty_inputs (void)
{
  int64_t shape[4] = { 0, 3, 2, 2 };
  GError *error = NULL;
  FxTensor *x = fx_tensor_zeros (FX_DTYPE_FLOAT32, 4, shape);
  FxTensor *rm = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, &shape[1]);
  FxTensor *rv = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, &shape[1]);
  FxTensor *y;

  y = fx_batch_norm (x, rm, rv, NULL, NULL, TRUE, 0.1, 1e-5, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fx_tensor_numel (y), ==, 0);
  g_assert_cmpfloat (fx_tensor_get_double (rm, 0), ==, 0.0);   /* untouched, as torch */
  g_assert_cmpfloat (fx_tensor_get_double (rv, 2), ==, 1.0);
  fx_tensor_unref (y);
  int64_t norm[1] = { 2 };
  y = fx_layer_norm (x, 1, norm, NULL, NULL, 1e-5, &error);
  g_assert_no_error (error);
  fx_tensor_unref (y);
  int64_t out[2] = { 4, 4 };
  y = fx_upsample (x, FX_INTERP_LINEAR, out, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (y->shape[2], ==, 4);
  fx_tensor_unref (y);
  int64_t pad[2] = { 1, 1 }, s3[3] = { 0, 2, 3 };
  FxTensor *x3 = fx_tensor_zeros (FX_DTYPE_FLOAT32, 3, s3);
  y = fx_pad (x3, 2, pad, FX_PAD_REFLECT, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (y->shape[2], ==, 5);
  fx_tensor_unref (y);
  fx_tensor_unref (x3);
  fx_tensor_unref (rv);
  fx_tensor_unref (rm);
  fx_tensor_unref (x);
}

/* float16 inputs are computed in float32 and come back as float16. */
static void
test_half (void)
{
  int64_t shape[3] = { 2, 4, 3 };
  GError *error = NULL;
  FxTensor *x = seq_tensor (FX_DTYPE_FLOAT16, 3, shape);
  FxTensor *xf = fx_tensor_to_dtype (x, FX_DTYPE_FLOAT32);
  FxTensor *a = fx_group_norm (x, 2, NULL, NULL, 1e-5, &error);
  FxTensor *b = fx_group_norm (xf, 2, NULL, NULL, 1e-5, &error);

  g_assert_no_error (error);
  g_assert_cmpint (a->dtype, ==, FX_DTYPE_FLOAT16);
  for (int64_t i = 0; i < 24; i++)
    g_assert_cmpfloat (fabs (fx_tensor_get_double (a, i) - fx_tensor_get_double (b, i)), <, 2e-3);
  fx_tensor_unref (a);
  fx_tensor_unref (b);
  int64_t out[1] = { 6 };
  a = fx_upsample (x, FX_INTERP_NEAREST, out, NULL, FALSE, &error);
  g_assert_cmpint (a->dtype, ==, FX_DTYPE_FLOAT16);
  g_assert_cmpfloat (fx_tensor_get_double (a, 1), ==, fx_tensor_get_double (x, 0));
  fx_tensor_unref (a);
  fx_tensor_unref (xf);
  fx_tensor_unref (x);
}

static void
test_embedding_and_one_hot (void)
{
  int64_t wshape[2] = { 4, 3 }, ishape[2] = { 2, 2 };
  int64_t idx[4] = { 3, 0, 0, 2 };
  GError *error = NULL;
  FxTensor *w = seq_tensor (FX_DTYPE_FLOAT64, 2, wshape);
  FxTensor *i = fx_tensor_new_from_data (FX_DTYPE_INT64, 2, ishape, idx);
  FxTensor *it = fx_tensor_t (i, NULL);     /* a strided index tensor */
  FxTensor *e = fx_embedding (it, w, &error);

  g_assert_no_error (error);
  g_assert_cmpint (e->ndim, ==, 3);
  /* it = [[3, 0], [0, 2]] */
  for (int k = 0; k < 3; k++)
    {
      g_assert_cmpfloat (fx_tensor_get_double (e, k), ==, fx_tensor_get_double (w, 9 + k));
      g_assert_cmpfloat (fx_tensor_get_double (e, 9 + k), ==, fx_tensor_get_double (w, 6 + k));
    }
  fx_tensor_unref (e);
  FxTensor *oh = fx_one_hot (it, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (oh->shape[2], ==, 4);
  g_assert_cmpint (fx_tensor_get_int64 (oh, 3), ==, 1);        /* [0][0] = class 3 */
  g_assert_cmpint (fx_tensor_get_int64 (oh, 4 + 0), ==, 1);    /* [0][1] = class 0 */
  g_assert_cmpint (fx_tensor_get_int64 (oh, 12 + 2), ==, 1);   /* [1][1] = class 2 */
  fx_tensor_unref (oh);
  idx[1] = 4;
  FxTensor *bad = fx_tensor_new_from_data (FX_DTYPE_INT64, 2, ishape, idx);
  g_assert_null (fx_embedding (bad, w, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "index out of range in self");
  g_clear_error (&error);
  fx_tensor_unref (bad);
  fx_tensor_unref (it);
  fx_tensor_unref (i);
  fx_tensor_unref (w);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nn/running-stats", test_running_stats);
  g_test_add_func ("/nn/dropout", test_dropout_contract);
  g_test_add_func ("/nn/batch-norm-long-runs", test_batch_norm_long_runs);
  g_test_add_func ("/nn/shuffles", test_shuffles);
  g_test_add_func ("/nn/empty", test_empty_inputs);
  g_test_add_func ("/nn/half", test_half);
  g_test_add_func ("/nn/embedding-one-hot", test_embedding_and_one_hot);
  return g_test_run ();
}
