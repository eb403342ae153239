/* test-error.c: the FX_ERROR domain and its Python exception names; the library version. */
#include <fx.h>
#include <string.h>

static void
test_error_domain (void)
{
  g_autoptr (GError) error = g_error_new (FX_ERROR, FX_ERROR_SHAPE, "shape %d", 3);
  g_assert_error (error, FX_ERROR, FX_ERROR_SHAPE);
  g_assert_cmpstr (g_quark_to_string (FX_ERROR), ==, "fx-error-quark");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_SHAPE), ==, "RuntimeError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_INDEX), ==, "IndexError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_TRACE), ==, "TraceError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_ZERO_DIVISION), ==, "ZeroDivisionError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_ATTRIBUTE), ==, "AttributeError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_ASSERTION), ==, "AssertionError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_KEY), ==, "KeyError");
  g_assert_cmpstr (fx_error_code_python_name (FX_ERROR_OVERFLOW), ==, "OverflowError");
}

static void
test_version (void)
{
  const char *v = fx_version ();
  g_assert_nonnull (v);
  g_assert_cmpstr (v, ==, FX_VERSION);
  g_assert_true (g_regex_match_simple ("^[0-9]+\\.[0-9]+\\.[0-9]+$", v, 0, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/error/domain", test_error_domain);
  g_test_add_func ("/error/version", test_version);
  return g_test_run ();
}
