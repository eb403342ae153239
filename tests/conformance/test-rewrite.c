/* test-rewrite.c: the subgraph rewriter against torch.fx 1.13 — every case script
 * rewrite/NAME.py (replace_pattern's matches, the rewritten code and graph, its errors) runs
 * under `fx run` and prints exactly what PyTorch printed (goldens/rewrite/NAME.out, exit
 * status NAME.exit when not 0; recorded by gen_rewrite.py). The cases print no addresses
 * and catch their exceptions, so the outputs are compared as they are. */
#include <glib.h>
#include <stdlib.h>

#include "run-script.h"

#define CASE_TIMEOUT_SECONDS 300

static char *cases_dir;
static char *goldens_dir;

static void
test_case (gconstpointer data)
{
  const char *name = data;
  g_autofree char *script = g_strconcat (name, ".py", NULL);
  g_autofree char *out_path = g_strdup_printf ("%s/%s.out", goldens_dir, name);
  g_autofree char *exit_path = g_strdup_printf ("%s/%s.exit", goldens_dir, name);
  g_autofree char *expected = NULL, *exit_text = NULL;
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
      g_test_message ("%s: no golden (run gen_rewrite.py)", out_path);
      g_test_fail ();
      return;
    }
  if (!fx_script_run (cases_dir, argv, CASE_TIMEOUT_SECONDS, &run, &error))
    {
      g_test_message ("%s: %s", script, error->message);
      g_test_fail ();
      return;
    }
  fx_script_run_check (script, &run, expected,
                       g_file_get_contents (exit_path, &exit_text, NULL, NULL) ? atoi (exit_text) : 0);
  fx_script_run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_autofree char *conformance_dir = NULL;

  g_test_init (&argc, &argv, NULL);
  conformance_dir = g_test_build_filename (G_TEST_DIST, "conformance", NULL);
  cases_dir = g_build_filename (conformance_dir, "rewrite", NULL);
  goldens_dir = g_build_filename (conformance_dir, "goldens", "rewrite", NULL);
  fx_add_script_tests (cases_dir, "/conformance/rewrite", test_case);
  return g_test_run ();
}
