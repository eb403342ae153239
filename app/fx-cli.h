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

/* --concrete NAME=VALUE: adds NAME → the Python literal VALUE to concrete; FALSE with a
 * message (g_free it) when arg is not of that form. */
gboolean fx_cli_add_concrete (FxDict *concrete, const char *arg, char **message);
