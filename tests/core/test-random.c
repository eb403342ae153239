/* test-random.c: the generator against PyTorch 1.13 bit for bit. The sequences come from
 * tests/conformance/goldens/random.json, written by gen_ops_creation.py with real torch:
 * after torch.manual_seed(seed), a list of calls and every value they returned. */
#include "fx.h"
#include "tensor/random.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static JsonParser *golden;

static JsonArray *
sequences (void)
{
  if (golden == NULL)
    {
      const char *srcdir = g_getenv ("G_TEST_SRCDIR");
      g_autofree char *path = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens",
                                                "random.json", NULL);
      GError *error = NULL;
      golden = json_parser_new ();
      if (!json_parser_load_from_file (golden, path, &error))
        g_error ("%s: %s", path, error->message);
    }
  return json_object_get_array_member (json_node_get_object (json_parser_get_root (golden)),
                                       "sequences");
}

static double
num (JsonNode *n)
{
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return (double) json_node_get_int (n);
  return json_node_get_double (n);
}

/* Runs one recorded call on gen; returns the tensor it produced. */
static FxTensor *
run_call (JsonObject *call, FxGenerator *gen)
{
  const char *kind = json_object_get_string_member (call, "kind");
  FxDType dt;
  int64_t n = json_object_get_int_member (call, "n");
  JsonArray *a = json_object_get_array_member (call, "args");
  GError *error = NULL;
  FxTensor *t = NULL;

  g_assert_true (fx_dtype_from_name (json_object_get_string_member (call, "dtype"), &dt));
  if (g_str_equal (kind, "rand"))
    t = fx_rand (dt, 1, &n, gen, &error);
  else if (g_str_equal (kind, "randn"))
    t = fx_randn (dt, 1, &n, gen, &error);
  else if (g_str_equal (kind, "normal"))
    t = fx_normal (num (json_array_get_element (a, 0)), num (json_array_get_element (a, 1)), dt,
                   1, &n, gen, &error);
  else if (g_str_equal (kind, "uniform"))
    {
      t = fx_tensor_zeros (dt, 1, &n);
      g_assert_true (fx_tensor_uniform_ (t, num (json_array_get_element (a, 0)),
                                         num (json_array_get_element (a, 1)), gen, &error));
    }
  else if (g_str_equal (kind, "randint"))
    t = fx_randint (json_array_get_int_element (a, 0), json_array_get_int_element (a, 1), dt, 1,
                    &n, gen, &error);
  else if (g_str_equal (kind, "bernoulli"))
    {
      t = fx_tensor_zeros (dt, 1, &n);
      g_assert_true (fx_tensor_bernoulli_ (t, num (json_array_get_element (a, 0)), gen, &error));
    }
  else if (g_str_equal (kind, "kaiming_uniform"))
    {
      int64_t shape[2] = { n, json_array_get_int_element (a, 0) };
      t = fx_tensor_zeros (dt, 2, shape);
      g_assert_true (fx_init_kaiming_uniform_ (t, sqrt (5.0), "fan_in", "leaky_relu", gen,
                                               &error));
    }
  else
    g_error ("unknown call kind %s", kind);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
assert_same (FxTensor *t, JsonArray *data, const char *what)
{
  guint len = json_array_get_length (data);
  g_assert_cmpint (fx_tensor_numel (t), ==, len);
  for (guint i = 0; i < len; i++)
    {
      JsonNode *n = json_array_get_element (data, i);
      if (fx_dtype_is_floating (t->dtype))
        {
          double want = num (n), got = fx_tensor_get_double (t, i);
          if (got != want)
            g_error ("%s: element %u is %.17g, torch gave %.17g", what, i, got, want);
        }
      else
        {
          int64_t want = json_node_get_value_type (n) == G_TYPE_BOOLEAN
                         ? json_node_get_boolean (n) : json_node_get_int (n);
          if (fx_tensor_get_int64 (t, i) != want)
            g_error ("%s: element %u is %" G_GINT64_FORMAT ", torch gave %" G_GINT64_FORMAT, what,
                     i, fx_tensor_get_int64 (t, i), want);
        }
    }
}

/* Every recorded sequence, on the default generator and on an explicit one. */
static void
test_sequences (gconstpointer data)
{
  gboolean explicit_gen = GPOINTER_TO_INT (data);
  JsonArray *seqs = sequences ();
  g_assert_cmpuint (json_array_get_length (seqs), >, 10);
  for (guint s = 0; s < json_array_get_length (seqs); s++)
    {
      JsonObject *seq = json_array_get_object_element (seqs, s);
      uint64_t seed = (uint64_t) json_object_get_int_member (seq, "seed");
      JsonArray *calls = json_object_get_array_member (seq, "calls");
      FxGenerator *gen = NULL;
      if (explicit_gen)
        {
          gen = fx_generator_new (seed);
          fx_manual_seed (12345);   /* the default generator must not matter */
        }
      else
        fx_manual_seed (seed);
      for (guint c = 0; c < json_array_get_length (calls); c++)
        {
          JsonObject *call = json_array_get_object_element (calls, c);
          g_autofree char *what = g_strdup_printf ("seed %" G_GUINT64_FORMAT " call %u (%s %s n=%"
                                                   G_GINT64_FORMAT ")", seed, c,
                                                   json_object_get_string_member (call, "kind"),
                                                   json_object_get_string_member (call, "dtype"),
                                                   json_object_get_int_member (call, "n"));
          FxTensor *t = run_call (call, gen);
          assert_same (t, json_object_get_array_member (call, "data"), what);
          fx_tensor_unref (t);
        }
      fx_generator_free (gen);
    }
}

static void
test_seeds (void)
{
  FxGenerator *g = fx_generator_new (FX_DEFAULT_SEED);
  uint32_t a, b;

  g_assert_cmpuint (fx_generator_initial_seed (g), ==, G_GUINT64_CONSTANT (67280421310721));
  fx_manual_seed (FX_DEFAULT_SEED);
  a = fx_generator_random (g);
  b = fx_generator_random (NULL);
  g_assert_cmpuint (a, ==, b);
  /* only the low 32 bits feed mt19937, but initial_seed keeps the whole value (as torch) */
  fx_manual_seed (G_GUINT64_CONSTANT (4294967301));
  g_assert_cmpuint (fx_initial_seed (), ==, G_GUINT64_CONSTANT (4294967301));
  a = fx_generator_random (NULL);
  fx_manual_seed (5);
  g_assert_cmpuint (fx_generator_random (NULL), ==, a);
  /* random64 is two words, the first one high */
  fx_manual_seed (5);
  uint64_t hi = fx_generator_random (NULL), lo = fx_generator_random (NULL);
  fx_manual_seed (5);
  g_assert_cmpuint (fx_generator_random64 (NULL), ==, (hi << 32) | lo);
  /* torch.seed(): a fresh seed, readable back */
  uint64_t s = fx_seed ();
  g_assert_cmpuint (fx_initial_seed (), ==, s);
  fx_generator_free (g);
  /* freeing the default generator is a no-op */
  fx_generator_free (fx_generator_default ());
  g_assert_nonnull (fx_generator_default ());
}

/* The mt19937 reference values of the C++ standard: the 10000th output for seed 5489. */
static void
test_mt19937_reference (void)
{
  FxGenerator *g = fx_generator_new (5489);
  uint32_t v = 0;
  for (int i = 0; i < 10000; i++)
    v = fx_generator_random (g);
  g_assert_cmpuint (v, ==, 4123659995u);
  fx_generator_free (g);
}

typedef struct {
  uint32_t *out;
  int n;
} Draws;

static gpointer
draw_thread (gpointer data)
{
  Draws *d = data;
  for (int i = 0; i < d->n; i++)
    d->out[i] = fx_generator_random (NULL);
  return NULL;
}

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

/* Two threads sharing the default generator draw exactly the sequential stream between them. */
static void
test_threads (void)
{
  enum { N = 20000 };
  uint32_t *seq = g_new (uint32_t, 2 * N), *par = g_new (uint32_t, 2 * N);
  Draws d1 = { par, N }, d2 = { par + N, N };
  GThread *t1, *t2;

  fx_manual_seed (77);
  for (int i = 0; i < 2 * N; i++)
    seq[i] = fx_generator_random (NULL);
  fx_manual_seed (77);
  t1 = g_thread_new ("draw1", draw_thread, &d1);
  t2 = g_thread_new ("draw2", draw_thread, &d2);
  g_thread_join (t1);
  g_thread_join (t2);
  qsort (seq, 2 * N, sizeof *seq, cmp_u32);
  qsort (par, 2 * N, sizeof *par, cmp_u32);
  g_assert_cmpmem (seq, 2 * N * sizeof *seq, par, 2 * N * sizeof *par);
  g_free (seq);
  g_free (par);
}

static void
test_errors (void)
{
  int64_t n = 3;
  GError *error = NULL;
  FxTensor *t = fx_tensor_zeros (FX_DTYPE_INT64, 1, &n);

  g_assert_false (fx_tensor_uniform_ (t, 0, 1, NULL, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "\"check_uniform_bounds\" not implemented for 'Long'");
  g_clear_error (&error);
  g_assert_false (fx_tensor_normal_ (t, 0, 1, NULL, &error));
  g_assert_cmpstr (error->message, ==, "\"normal_kernel_cpu\" not implemented for 'Long'");
  g_clear_error (&error);
  g_assert_false (fx_tensor_random_ (t, 5, 5, NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  g_clear_error (&error);
  g_assert_false (fx_tensor_bernoulli_ (t, -0.5, NULL, &error));
  g_assert_cmpstr (error->message, ==, "bernoulli_ expects p to be in [0, 1], but got p=-0.5");
  g_clear_error (&error);
  fx_tensor_unref (t);

  t = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, &n);
  g_assert_false (fx_tensor_normal_ (t, 0, -2, NULL, &error));
  g_assert_cmpstr (error->message, ==, "normal expects std >= 0.0, but found std -2");
  g_clear_error (&error);
  g_assert_false (fx_tensor_uniform_ (t, -3e38, 3e38, NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found "
                   "to=3e+38 and from=-3e+38 which result in to-from to exceed the limit");
  g_clear_error (&error);
  g_assert_false (fx_tensor_uniform_ (t, NAN, 1, NULL, &error));
  g_assert_cmpstr (error->message, ==, "from is out of bounds for float");
  g_clear_error (&error);
  fx_tensor_unref (t);

  int64_t neg = -2;
  g_assert_null (fx_randn (FX_DTYPE_FLOAT32, 1, &neg, NULL, &error));
  g_assert_cmpstr (error->message, ==, "Trying to create tensor with negative dimension -2: [-2]");
  g_clear_error (&error);

  double gain;
  g_assert_false (fx_init_calculate_gain ("nope", 0, FALSE, &gain, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (fx_init_calculate_gain ("leaky_relu", 0, FALSE, &gain, NULL));
  g_assert_cmpfloat (gain, ==, sqrt (2.0 / (1 + 0.01 * 0.01)));
}

/* Empty and 0-d tensors draw nothing; views are filled in place, outside elements untouched. */
static void
test_shapes (void)
{
  int64_t zero = 0, shape[2] = { 4, 6 };
  GError *error = NULL;
  FxTensor *e, *s, *base, *view;
  uint32_t before, after;

  fx_manual_seed (3);
  e = fx_randn (FX_DTYPE_FLOAT32, 1, &zero, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fx_tensor_numel (e), ==, 0);
  before = fx_generator_random (NULL);
  fx_manual_seed (3);
  fx_tensor_unref (e);
  e = fx_rand (FX_DTYPE_FLOAT64, 1, &zero, NULL, NULL);
  after = fx_generator_random (NULL);
  g_assert_cmpuint (before, ==, after);
  fx_tensor_unref (e);

  s = fx_rand (FX_DTYPE_FLOAT32, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->ndim, ==, 0);
  g_assert_cmpfloat (fx_tensor_get_double (s, 0), >=, 0.0);
  g_assert_cmpfloat (fx_tensor_get_double (s, 0), <, 1.0);
  fx_tensor_unref (s);

  base = fx_tensor_zeros (FX_DTYPE_FLOAT32, 2, shape);
  view = fx_tensor_slice (base, 1, 1, 6, 2, &error);
  g_assert_no_error (error);
  g_assert_true (fx_tensor_normal_ (view, 5, 0.1, NULL, &error));
  for (int64_t i = 0; i < 24; i++)
    {
      double v = fx_tensor_get_double (base, i);
      if (i % 6 % 2 == 1)
        g_assert_cmpfloat (fabs (v - 5), <, 1);
      else
        g_assert_cmpfloat (v, ==, 0);
    }
  fx_tensor_unref (view);
  fx_tensor_unref (base);
}

int
main (int argc, char **argv)
{
  int rc;
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/random/sequences/default", GINT_TO_POINTER (FALSE), test_sequences);
  g_test_add_data_func ("/random/sequences/generator", GINT_TO_POINTER (TRUE), test_sequences);
  g_test_add_func ("/random/seeds", test_seeds);
  g_test_add_func ("/random/mt19937-reference", test_mt19937_reference);
  g_test_add_func ("/random/threads", test_threads);
  g_test_add_func ("/random/errors", test_errors);
  g_test_add_func ("/random/shapes", test_shapes);
  rc = g_test_run ();
  g_clear_object (&golden);
  return rc;
}
