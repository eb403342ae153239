/* test-seeds.c: the seeds' acceptance test — every code example of the torch.fx manual
 * (seeds/NAME.py, extracted from ../shared/seeds/) runs under `fx run` and prints what
 * PyTorch 1.13 printed (goldens/seeds/NAME.out, exit status NAME.exit, 0 when absent;
 * recorded by gen_seeds.py). One subtest per script, run with seeds/ as working directory
 * and its bare file name as argument. fx's output is normalised as gen_seeds.py normalised
 * PyTorch's: the seeds directory's path removed, object addresses made 0xADDR, and
 * traceback frames other than the script's own dropped (see gen_seeds.py for the rule). The
 * seeds directory is the first non-option argument, else conformance/seeds under
 * G_TEST_SRCDIR. */
#include <gio/gio.h>
#include <string.h>

#include "run-script.h"

#define SEED_TIMEOUT_SECONDS 600

static char *seeds_dir;
static char *goldens_dir;

/* gen_seeds.py's filter_tracebacks, line for line. */
static char *
filter_tracebacks (const char *text, const char *script)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GPtrArray) kept = g_ptr_array_new ();
  g_autofree char *own_frame = g_strdup_printf ("  File \"%s\", line ", script);
  gboolean in_traceback = FALSE, keep_frame = TRUE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      if (strcmp (line, "Traceback (most recent call last):") == 0)
        {
          in_traceback = TRUE;
          keep_frame = TRUE;
          g_ptr_array_add (kept, (gpointer) line);
          continue;
        }
      if (in_traceback)
        {
          if (g_str_has_prefix (line, "    "))
            {
              if (keep_frame)
                g_ptr_array_add (kept, (gpointer) line);
              continue;
            }
          if (g_str_has_prefix (line, "  "))
            {
              /* '  File "SCRIPT", line N, in X' */
              const char *rest = line + strlen (own_frame);
              keep_frame = g_str_has_prefix (line, own_frame) && g_ascii_isdigit (*rest);
              while (keep_frame && g_ascii_isdigit (*rest))
                rest++;
              keep_frame = keep_frame && g_str_has_prefix (rest, ", in ");
              if (keep_frame)
                g_ptr_array_add (kept, (gpointer) line);
              continue;
            }
          in_traceback = FALSE;
        }
      g_ptr_array_add (kept, (gpointer) line);
    }
  g_ptr_array_add (kept, NULL);
  return g_strjoinv ("\n", (char **) kept->pdata);
}

static char *
normalise (const char *text, const char *script)
{
  g_autofree char *prefix = g_strconcat (seeds_dir, "/", NULL);
  g_auto (GStrv) parts = g_strsplit (text, prefix, -1);
  g_autofree char *relative = g_strjoinv ("", parts);
  g_autoptr (GRegex) address = g_regex_new ("0x[0-9a-fA-F]+", 0, 0, NULL);
  g_autofree char *no_addresses = g_regex_replace_literal (address, relative, -1, 0, "0xADDR",
                                                           0, NULL);
  return filter_tracebacks (no_addresses, script);
}

/* Seed examples that need what fx does not offer; each is skipped with its reason. */
static const struct {
  const char *name;
  const char *why;
} unsupported_seeds[] = {
  { "020_pdb", "pdb (the interactive debugger) is not available in fx" },
};

static void
test_seed (gconstpointer data)
{
  const char *name = data;
  g_autofree char *script = g_strconcat (name, ".py", NULL);
  g_autofree char *out_path = g_strdup_printf ("%s/%s.out", goldens_dir, name);
  g_autofree char *exit_path = g_strdup_printf ("%s/%s.exit", goldens_dir, name);
  g_autofree char *expected = NULL, *exit_text = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { script, NULL };
  FxScriptRun run;
  int want_status = 0;

  if (g_getenv ("FX_CLI") == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (unsupported_seeds); i++)
    if (g_str_equal (name, unsupported_seeds[i].name))
      {
        g_test_skip (unsupported_seeds[i].why);
        return;
      }
  if (!g_file_get_contents (out_path, &expected, NULL, NULL))
    {
      g_test_message ("%s: no golden (run gen_seeds.py)", out_path);
      g_test_fail ();
      return;
    }
  if (g_file_get_contents (exit_path, &exit_text, NULL, NULL))
    want_status = atoi (exit_text);

  if (!fx_script_run (seeds_dir, argv, SEED_TIMEOUT_SECONDS, &run, &error))
    {
      g_test_message ("%s: %s", script, error->message);
      g_test_fail ();
      return;
    }
  if (run.output != NULL)
    {
      char *normalised = normalise (run.output, script);
      g_free (run.output);
      run.output = normalised;
    }
  fx_script_run_check (script, &run, expected, want_status);
  fx_script_run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_autofree char *conformance_dir = NULL;

  g_test_init (&argc, &argv, NULL);
  if (argc > 1)
    {
      seeds_dir = g_canonicalize_filename (argv[1], NULL);
      conformance_dir = g_path_get_dirname (seeds_dir);
    }
  else
    {
      conformance_dir = g_test_build_filename (G_TEST_DIST, "conformance", NULL);
      seeds_dir = g_build_filename (conformance_dir, "seeds", NULL);
    }
  goldens_dir = g_build_filename (conformance_dir, "goldens", "seeds", NULL);

  fx_add_script_tests (seeds_dir, "/conformance/seeds", test_seed);
  return g_test_run ();
}
