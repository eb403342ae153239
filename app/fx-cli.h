/* fx-cli.h: what the fx command line's subcommands share (fx.c dispatches to fx-trace.c,
 * fx-exec.c and fx-export.c). */
#pragma once

#include <fx.h>

int      fx_command_trace  (int argc, char **argv);
int      fx_command_exec   (int argc, char **argv);
int      fx_command_export (int argc, char **argv);

/* Runs func (data) to completion on a thread with a large stack: model sources and scripts
 * may recurse deeply. */
void     fx_cli_run_on_big_stack (void *(*func) (void *), void *data);

/* fx_trace_file (model, name, concrete, leaves) on a large stack: tracing runs the model's
 * source, whose recursion may go deep. */
FxGraphModule *fx_cli_trace (const char *model, const char *name, FxDict *concrete,
                             const char *const *leaves, GError **error);

/* Prints a failure of `fx COMMAND` on stderr — a traceback of the model's source as python
 * prints it, anything else as "fx COMMAND: [WHAT: ]message" — and returns 1 (the exit
 * status). */
int      fx_cli_fail (const char *command, const char *what, const GError *error);

/* --concrete NAME=VALUE: adds NAME → the Python literal VALUE to concrete; FALSE with a
 * message (g_free it) when arg is not of that form. */
gboolean fx_cli_add_concrete (FxDict *concrete, const char *arg, char **message);
