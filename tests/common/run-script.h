/* run-script.h: helpers for GLib tests that run Python scripts under `fx run` ($FX_CLI) and
 * compare what they print with recorded output. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *output;        /* stdout and stderr merged */
  gboolean timed_out;
  int exit_status;     /* when it exited */
  int term_signal;     /* != 0: it died of this signal */
} FxScriptRun;

/* Runs `$FX_CLI run ARGV...` in cwd, killing it after timeout_seconds. FALSE (with error)
 * when it could not be run or its output is not UTF-8; else fills *run (clear it with
 * fx_script_run_clear). */
gboolean fx_script_run        (const char *cwd, const char *const *argv, guint timeout_seconds,
                               FxScriptRun *run, GError **error);
void     fx_script_run_clear  (FxScriptRun *run);

/* NULL when equal; else a unified-diff-like hunk at the first differing line (g_free). */
char    *fx_first_difference  (const char *expected, const char *got);

/* Registers one data test per DIR/NAME.py, named PREFIX/NAME, in name order; func gets NAME. */
void     fx_add_script_tests  (const char *dir, const char *prefix, GTestDataFunc func);

/* Fails the current test (with a message naming `what`) when the run timed out, died of a
 * signal, printed something else than expected or exited with another status. */
void     fx_script_run_check  (const char *what, const FxScriptRun *run, const char *expected,
                               int want_status);

G_END_DECLS
