/* test-passes.c: the graph passes in scripts — every passes/NAME.py (fuse of
 * torch.fx.experimental.optimization on ResNet-18 and on the pattern's edge cases,
 * Graph.eliminate_dead_code) runs under `fx run` and prints what PyTorch 1.13 printed
 * (goldens/passes/NAME.out, recorded by gen_passes.py). Output is normalised as
 * gen_passes.py normalised torch's: the passes directory's path removed, object addresses
 * made 0xADDR. */
#include <string.h>
#include "run-script.h"

#define PASS_TIMEOUT_SECONDS 600

static char *passes_dir;
static char *goldens_dir;

static char *
normalise (const char *text)
{
  g_autofree char *prefix = g_strconcat (passes_dir, "/", NULL);
  g_auto (GStrv) parts = g_strsplit (text, prefix, -1);
  g_autofree char *relative = g_strjoinv ("", parts);
  g_autoptr (GRegex) address = g_regex_new ("0x[0-9a-fA-F]+", 0, 0, NULL);
  return g_regex_replace_literal (address, relative, -1, 0, "0xADDR", 0, NULL);
}

static void
test_script (gconstpointer data)
{
  const char *name = data;
  g_autofree char *script = g_strconcat (name, ".py", NULL);
  g_autofree char *out_path = g_strdup_printf ("%s/%s.out", goldens_dir, name);
  g_autofree char *expected = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { script, NULL };
  FxScriptRun run;

  if (g_getenv ("FX_CLI") == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  if (!g_file_get_contents (out_path, &expected, NULL, NULL))
    {
      g_test_message ("%s: no golden (run gen_passes.py)", out_path);
      g_test_fail ();
      return;
    }
  if (!fx_script_run (passes_dir, argv, PASS_TIMEOUT_SECONDS, &run, &error))
    {
      g_test_message ("%s: %s", script, error->message);
      g_test_fail ();
      return;
    }
  if (run.output != NULL)
    {
      char *normalised = normalise (run.output);
      g_free (run.output);
      run.output = normalised;
    }
  fx_script_run_check (script, &run, expected, 0);
  fx_script_run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_autofree char *conformance_dir = NULL;

  g_test_init (&argc, &argv, NULL);
  conformance_dir = g_test_build_filename (G_TEST_DIST, "conformance", NULL);
  passes_dir = g_build_filename (conformance_dir, "passes", NULL);
  goldens_dir = g_build_filename (conformance_dir, "goldens", "passes", NULL);
  fx_add_script_tests (passes_dir, "/conformance/passes", test_script);
  return g_test_run ();
}
