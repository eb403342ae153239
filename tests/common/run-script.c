/* run-script.c: running Python scripts under `fx run` from GLib tests and comparing their
 * output (see run-script.h). */
#include "run-script.h"

#include <gio/gio.h>
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

int
fx_first_difference (const char *expected, const char *got, char **expected_line,
                     char **got_line)
{
  const char *pa = expected, *pb = got;
  int line = 1;

  *expected_line = *got_line = NULL;
  for (;;)
    {
      const char *ea = strchr (pa, '\n'), *eb = strchr (pb, '\n');
      gsize na = ea ? (gsize) (ea - pa) : strlen (pa);
      gsize nb = eb ? (gsize) (eb - pb) : strlen (pb);
      if (na != nb || memcmp (pa, pb, na) != 0 || (ea == NULL) != (eb == NULL))
        {
          *expected_line = *pa || ea ? g_strndup (pa, na) : g_strdup ("<end of output>");
          *got_line = *pb || eb ? g_strndup (pb, nb) : g_strdup ("<end of output>");
          return line;
        }
      if (ea == NULL)
        return 0;
      pa = ea + 1;
      pb = eb + 1;
      line++;
    }
}

void
fx_script_run_check (const char *what, const FxScriptRun *run, const char *expected,
                     int want_status)
{
  g_autofree char *want = NULL, *got = NULL;
  int line;

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
  line = fx_first_difference (expected, run->output ? run->output : "", &want, &got);
  if (line != 0)
    {
      g_test_message ("%s: output differs at line %d\n# -%s\n# +%s", what, line, want, got);
      g_test_fail ();
    }
  if (run->exit_status != want_status)
    {
      g_test_message ("%s: exit status %d, expected %d", what, run->exit_status, want_status);
      g_test_fail ();
    }
}
