/* golden-script.c: one conformance test program per directory of scripts run under `fx run`
 * and compared with the goldens PyTorch 1.13 printed (see golden-script.h). */
#include "golden-script.h"
#include "run-script.h"

#include <stdlib.h>

static struct {
  char *cases_dir, *goldens_dir;
  guint timeout_seconds;
  FxGoldenNormaliseFunc normalise;
  const char *generator;
} golden;

char *
fx_golden_normalise_addresses (const char *output)
{
  g_autoptr (GRegex) address = g_regex_new ("0x[0-9a-fA-F]+", 0, 0, NULL);
  return g_regex_replace_literal (address, output, -1, 0, "0xADDR", 0, NULL);
}

static void
test_script (gconstpointer data)
{
  const char *name = data;
  g_autofree char *script = g_strconcat (name, ".py", NULL);
  g_autofree char *out_name = g_strconcat (name, ".out", NULL);
  g_autofree char *exit_name = g_strconcat (name, ".exit", NULL);
  g_autofree char *out_path = g_build_filename (golden.goldens_dir, out_name, NULL);
  g_autofree char *exit_path = g_build_filename (golden.goldens_dir, exit_name, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *exit_text = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { script, NULL };
  FxScriptRun run = { 0 };

  if (g_getenv ("FX_CLI") == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  if (!g_file_get_contents (out_path, &expected, NULL, NULL))
    {
      g_test_message ("%s: no golden (run %s)", out_path, golden.generator);
      g_test_fail ();
      return;
    }
  if (!fx_script_run (golden.cases_dir, argv, golden.timeout_seconds, &run, &error))
    {
      g_test_message ("%s: %s", script, error->message);
      g_test_fail ();
      return;
    }
  if (run.output != NULL && golden.normalise != NULL)
    {
      char *normalised = golden.normalise (run.output);
      g_free (run.output);
      run.output = normalised;
    }
  fx_script_run_check (script, &run, expected,
                       g_file_get_contents (exit_path, &exit_text, NULL, NULL) ? atoi (exit_text) : 0);
  fx_script_run_clear (&run);
}

int
fx_golden_script_main (int argc, char **argv, const char *dir, const char *prefix,
                       guint timeout_seconds, FxGoldenNormaliseFunc normalise,
                       const char *generator)
{
  g_autofree char *conformance_dir = NULL;

  g_test_init (&argc, &argv, NULL);
  conformance_dir = g_test_build_filename (G_TEST_DIST, "conformance", NULL);
  golden.cases_dir = g_build_filename (conformance_dir, dir, NULL);
  golden.goldens_dir = g_build_filename (conformance_dir, "goldens", dir, NULL);
  golden.timeout_seconds = timeout_seconds;
  golden.normalise = normalise;
  golden.generator = generator;
  fx_add_script_tests (golden.cases_dir, prefix, test_script);
  return g_test_run ();
}
