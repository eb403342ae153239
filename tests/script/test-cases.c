/* test-cases.c: runs every tests/script/cases/NAME.py under `fx run` and compares its
 * stdout+stderr with NAME.out and its exit status with NAME.exit (0 when absent) — both
 * recorded from CPython by gen-case-outputs.sh. One subtest per case; a failure prints the
 * first differing line. The fx binary is $FX_CLI; the cases directory is the first
 * non-option argument, else $FX_CASES_DIR, else script/cases under G_TEST_SRCDIR. Each
 * script runs with the cases directory as working directory and its bare file name as
 * argument; the directory's absolute path, which tracebacks show, is removed from the
 * output as gen-case-outputs.sh removes it from CPython's. */
#include "run-script.h"

#include <stdlib.h>
#include <string.h>

#define CASE_TIMEOUT_SECONDS 120

static char *cases_dir;

static void
test_case (gconstpointer data)
{
  const char *name = data;
  g_autofree char *py = g_strconcat (name, ".py", NULL);
  g_autofree char *base = g_build_filename (cases_dir, name, NULL);
  g_autofree char *out_path = g_strconcat (base, ".out", NULL);
  g_autofree char *exit_path = g_strconcat (base, ".exit", NULL);
  g_autofree char *expected = NULL, *exit_text = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { py, NULL };
  FxScriptRun run;
  int want_status = 0;

  if (g_getenv ("FX_CLI") == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  if (!g_file_get_contents (out_path, &expected, NULL, NULL))
    {
      g_test_message ("%s: no expected output (run gen-case-outputs.sh)", out_path);
      g_test_fail ();
      return;
    }
  if (g_file_get_contents (exit_path, &exit_text, NULL, NULL))
    want_status = atoi (exit_text);
  if (!fx_script_run (cases_dir, argv, CASE_TIMEOUT_SECONDS, &run, &error))
    {
      g_test_message ("%s: %s", py, error->message);
      g_test_fail ();
      return;
    }
  if (run.output != NULL)
    {
      /* tracebacks name the script by its absolute path; the .out files do not */
      g_autofree char *prefix = g_strconcat (cases_dir, "/", NULL);
      g_auto (GStrv) parts = g_strsplit (run.output, prefix, -1);
      g_free (run.output);
      run.output = g_strjoinv ("", parts);
    }
  fx_script_run_check (py, &run, expected, want_status);
  fx_script_run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc > 1)
    cases_dir = g_canonicalize_filename (argv[1], NULL);
  else if (g_getenv ("FX_CASES_DIR") != NULL)
    cases_dir = g_canonicalize_filename (g_getenv ("FX_CASES_DIR"), NULL);
  else
    cases_dir = g_test_build_filename (G_TEST_DIST, "script", "cases", NULL);
  fx_add_script_tests (cases_dir, "/script/cases", test_case);
  return g_test_run ();
}
