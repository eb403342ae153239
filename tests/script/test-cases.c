/* test-cases.c: runs every tests/script/cases/NAME.py under `fx run` and compares its
 * stdout+stderr with NAME.out and its exit status with NAME.exit (0 when absent) — both
 * recorded from CPython by gen-case-outputs.sh. One subtest per case; a failure prints the
 * first differing line. The fx binary is $FX_CLI; the cases directory is the first
 * non-option argument, else $FX_CASES_DIR, else script/cases under G_TEST_SRCDIR. Each
 * script runs with the cases directory as working directory and its bare file name as
 * argument; the directory's absolute path, which tracebacks show, is removed from the
 * output as gen-case-outputs.sh removes it from CPython's. */
#include <fx.h>
#include <gio/gio.h>
#include <string.h>

#define CASE_TIMEOUT_SECONDS 120

static char *cases_dir;

typedef struct {
  GMainLoop *loop;
  GSubprocess *proc;
  char *out;
  GError *error;
  gboolean timed_out;
} Run;

static void
communicated (GObject *source, GAsyncResult *res, gpointer data)
{
  Run *run = data;
  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), res, &run->out, NULL,
                                        &run->error);
  g_main_loop_quit (run->loop);
}

static gboolean
timed_out (gpointer data)
{
  Run *run = data;
  run->timed_out = TRUE;
  g_subprocess_force_exit (run->proc);
  return G_SOURCE_REMOVE;
}

/* A unified-diff-like hunk at the first line where want and got differ: up to three
 * common lines before it, then the differing lines of each side (at most eight). */
static char *
first_difference (const char *want, const char *got)
{
  g_auto (GStrv) a = g_strsplit (want, "\n", -1);
  g_auto (GStrv) b = g_strsplit (got, "\n", -1);
  guint na = g_strv_length (a), nb = g_strv_length (b), i = 0, ea, eb;
  GString *out = g_string_new (NULL);

  while (i < na && i < nb && strcmp (a[i], b[i]) == 0)
    i++;
  /* the ends of the differing stretches: where the sides agree again, or 8 lines on */
  for (ea = i; ea < na && ea < i + 8; ea++)
    if (ea < nb && strcmp (a[ea], b[ea]) == 0)
      break;
  for (eb = i; eb < nb && eb < i + 8; eb++)
    if (eb < na && strcmp (a[eb], b[eb]) == 0)
      break;
  g_string_append_printf (out, "@@ -%u +%u @@ (- CPython, + fx)", i + 1, i + 1);
  for (guint k = i >= 3 ? i - 3 : 0; k < i; k++)
    g_string_append_printf (out, "\n   %s", a[k]);
  for (guint k = i; k < ea; k++)
    g_string_append_printf (out, "\n  -%s", a[k]);
  if (ea == i && i < nb)
    g_string_append (out, "\n  -<end of output>");
  for (guint k = i; k < eb; k++)
    g_string_append_printf (out, "\n  +%s", b[k]);
  if (eb == i && i < na)
    g_string_append (out, "\n  +<end of output>");
  return g_string_free (out, FALSE);
}

static void
test_case (gconstpointer data)
{
  const char *name = data;
  const char *fx = g_getenv ("FX_CLI");
  g_autofree char *py = g_strconcat (name, ".py", NULL);
  g_autofree char *out_path = g_build_filename (cases_dir, name, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *exit_text = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GMainContext) context = g_main_context_new ();
  Run run = { 0 };
  GSource *timeout;
  int want_status = 0, status;
  char *full;

  if (fx == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  full = g_strconcat (out_path, ".out", NULL);
  if (!g_file_get_contents (full, &expected, NULL, NULL))
    {
      g_test_message ("%s: no expected output (run gen-case-outputs.sh)", full);
      g_free (full);
      g_test_fail ();
      return;
    }
  g_free (full);
  full = g_strconcat (out_path, ".exit", NULL);
  if (g_file_get_contents (full, &exit_text, NULL, NULL))
    want_status = atoi (exit_text);
  g_free (full);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_cwd (launcher, cases_dir);
  run.proc = g_subprocess_launcher_spawn (launcher, &run.error, fx, "run", py, NULL);
  g_assert_no_error (run.error);
  g_main_context_push_thread_default (context);
  run.loop = g_main_loop_new (context, FALSE);
  g_subprocess_communicate_utf8_async (run.proc, NULL, NULL, communicated, &run);
  timeout = g_timeout_source_new_seconds (CASE_TIMEOUT_SECONDS);
  g_source_set_callback (timeout, timed_out, &run, NULL);
  g_source_attach (timeout, context);
  g_main_loop_run (run.loop);
  g_source_destroy (timeout);
  g_source_unref (timeout);
  g_main_loop_unref (run.loop);
  g_main_context_pop_thread_default (context);

  if (run.error != NULL)
    {
      /* output that is not UTF-8 */
      g_test_message ("%s: %s", py, run.error->message);
      g_clear_error (&run.error);
      g_object_unref (run.proc);
      g_test_fail ();
      return;
    }
  g_subprocess_wait (run.proc, NULL, NULL);
  if (run.timed_out)
    {
      g_test_message ("%s: no result after %d s", py, CASE_TIMEOUT_SECONDS);
      g_test_fail ();
    }
  else if (!g_subprocess_get_if_exited (run.proc))
    {
      g_test_message ("%s: fx died of signal %d", py, g_subprocess_get_term_sig (run.proc));
      g_test_fail ();
    }
  else
    {
      status = g_subprocess_get_exit_status (run.proc);
      if (run.out != NULL)
        {
          /* tracebacks name the script by its absolute path; the .out files do not */
          g_autofree char *prefix = g_strconcat (cases_dir, "/", NULL);
          g_auto (GStrv) parts = g_strsplit (run.out, prefix, -1);
          g_free (run.out);
          run.out = g_strjoinv ("", parts);
        }
      if (strcmp (run.out != NULL ? run.out : "", expected) != 0)
        {
          g_autofree char *hunk = first_difference (expected, run.out != NULL ? run.out : "");
          g_test_message ("%s: output differs\n%s", py, hunk);
          g_test_fail ();
        }
      if (status != want_status)
        {
          g_test_message ("%s: exit status %d, CPython %d", py, status, want_status);
          g_test_fail ();
        }
    }
  g_free (run.out);
  g_object_unref (run.proc);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

int
main (int argc, char **argv)
{
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  const char *entry;

  g_test_init (&argc, &argv, NULL);
  if (argc > 1)
    cases_dir = g_canonicalize_filename (argv[1], NULL);
  else if (g_getenv ("FX_CASES_DIR") != NULL)
    cases_dir = g_canonicalize_filename (g_getenv ("FX_CASES_DIR"), NULL);
  else
    cases_dir = g_test_build_filename (G_TEST_DIST, "script", "cases", NULL);

  dir = g_dir_open (cases_dir, 0, &error);
  g_assert_no_error (error);
  while ((entry = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (entry, ".py"))
      g_ptr_array_add (names, g_strndup (entry, strlen (entry) - 3));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strconcat ("/script/cases/", names->pdata[i], NULL);
      g_test_add_data_func (path, names->pdata[i], test_case);
    }
  return g_test_run ();
}
