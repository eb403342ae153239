/* run-script.c: running Python scripts under `fx run` from GLib tests and comparing their
 * output (see run-script.h). */
#include "run-script.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  GMainLoop *loop;
  GSubprocess *proc;
  char *out;
  GError *error;
  gboolean timed_out;
} Pending;

static void
communicated (GObject *source, GAsyncResult *res, gpointer data)
{
  Pending *p = data;
  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), res, &p->out, NULL, &p->error);
  g_main_loop_quit (p->loop);
}

static gboolean
expired (gpointer data)
{
  Pending *p = data;
  p->timed_out = TRUE;
  g_subprocess_force_exit (p->proc);
  return G_SOURCE_REMOVE;
}

gboolean
fx_script_run (const char *cwd, const char *const *argv, guint timeout_seconds,
               FxScriptRun *run, GError **error)
{
  const char *fx = g_getenv ("FX_CLI");
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GMainContext) context = NULL;
  g_autoptr (GPtrArray) full = g_ptr_array_new ();
  Pending p = { 0 };
  GSource *timeout;

  memset (run, 0, sizeof *run);
  if (fx == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "FX_CLI is not set");
      return FALSE;
    }
  g_ptr_array_add (full, (gpointer) fx);
  g_ptr_array_add (full, (gpointer) "run");
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (full, (gpointer) argv[i]);
  g_ptr_array_add (full, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_cwd (launcher, cwd);
  p.proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) full->pdata, error);
  if (p.proc == NULL)
    return FALSE;

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  p.loop = g_main_loop_new (context, FALSE);
  g_subprocess_communicate_utf8_async (p.proc, NULL, NULL, communicated, &p);
  timeout = g_timeout_source_new_seconds (timeout_seconds);
  g_source_set_callback (timeout, expired, &p, NULL);
  g_source_attach (timeout, context);
  g_main_loop_run (p.loop);
  g_source_destroy (timeout);
  g_source_unref (timeout);
  g_main_loop_unref (p.loop);
  g_main_context_pop_thread_default (context);

  g_subprocess_wait (p.proc, NULL, NULL);
  if (p.error != NULL)
    {
      g_propagate_error (error, p.error);
      g_free (p.out);
      g_object_unref (p.proc);
      return FALSE;
    }
  run->output = p.out != NULL ? p.out : g_strdup ("");
  run->timed_out = p.timed_out;
  if (g_subprocess_get_if_exited (p.proc))
    run->exit_status = g_subprocess_get_exit_status (p.proc);
  else if (g_subprocess_get_if_signaled (p.proc))
    run->term_signal = g_subprocess_get_term_sig (p.proc);
  g_object_unref (p.proc);
  return TRUE;
}

void
fx_script_run_clear (FxScriptRun *run)
{
  g_clear_pointer (&run->output, g_free);
}

/* A unified-diff-like hunk at the first line where want and got differ: up to three common
 * lines before it, then the differing lines of each side (at most eight); NULL when equal. */
char *
fx_first_difference (const char *want, const char *got)
{
  g_auto (GStrv) a = g_strsplit (want, "\n", -1);
  g_auto (GStrv) b = g_strsplit (got, "\n", -1);
  guint na = g_strv_length (a), nb = g_strv_length (b), i = 0, ea, eb;
  GString *out;

  while (i < na && i < nb && strcmp (a[i], b[i]) == 0)
    i++;
  if (i == na && i == nb)
    return NULL;
  out = g_string_new (NULL);
  /* the ends of the differing stretches: where the sides agree again, or 8 lines on */
  for (ea = i; ea < na && ea < i + 8; ea++)
    if (ea < nb && strcmp (a[ea], b[ea]) == 0)
      break;
  for (eb = i; eb < nb && eb < i + 8; eb++)
    if (eb < na && strcmp (a[eb], b[eb]) == 0)
      break;
  g_string_append_printf (out, "@@ -%u +%u @@ (- expected, + fx)", i + 1, i + 1);
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

void
fx_script_run_check (const char *what, const FxScriptRun *run, const char *expected,
                     int want_status)
{
  g_autofree char *hunk = NULL;

  if (run->timed_out)
    {
      g_test_message ("%s: no result in time", what);
      g_test_fail ();
      return;
    }
  if (run->term_signal != 0)
    {
      g_test_message ("%s: fx died of signal %d", what, run->term_signal);
      g_test_fail ();
      return;
    }
  hunk = fx_first_difference (expected, run->output ? run->output : "");
  if (hunk != NULL)
    {
      g_test_message ("%s: output differs\n%s", what, hunk);
      g_test_fail ();
    }
  if (run->exit_status != want_status)
    {
      g_test_message ("%s: exit status %d, expected %d", what, run->exit_status, want_status);
      g_test_fail ();
    }
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
fx_add_script_tests (const char *dir_path, const char *prefix, GTestDataFunc func)
{
  /* the names stay alive for the tests that get them */
  static GPtrArray *names;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GError) error = NULL;
  guint first;
  const char *entry;

  if (names == NULL)
    names = g_ptr_array_new ();
  first = names->len;
  dir = g_dir_open (dir_path, 0, &error);
  g_assert_no_error (error);
  while ((entry = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (entry, ".py"))
      g_ptr_array_add (names, g_strndup (entry, strlen (entry) - 3));
  qsort (names->pdata + first, names->len - first, sizeof (gpointer), compare_names);
  for (guint i = first; i < names->len; i++)
    {
      g_autofree char *path = g_strconcat (prefix, "/", names->pdata[i], NULL);
      g_test_add_data_func (path, names->pdata[i], func);
    }
}
