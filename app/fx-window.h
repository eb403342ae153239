/* fx-window.h: FxWindow — one editor window: a model traced from Python source or loaded from
 * .fxg, its graph as the main area, node inspector / generated code / node table beside it,
 * search over the graph, and errors shown at their line of the source. */
#pragma once

#include <adwaita.h>
#include <fx.h>
#include "fx-application.h"

G_BEGIN_DECLS

#define FX_TYPE_WINDOW (fx_window_get_type ())
G_DECLARE_FINAL_TYPE (FxWindow, fx_window, FX, WINDOW, AdwApplicationWindow)

FxWindow *fx_window_new        (FxApplication *application);
/* Opens file without blocking the main loop: an .fxg is loaded ("document-loaded" follows);
 * for a .py the open dialog asks what to trace ("open-dialog-ready" once it lists the
 * file's candidates), then tracing runs in a worker. Failures: "load-failed" (message). */
void      fx_window_open_file  (FxWindow *self, GFile *file);
/* Traces name of the .py file being opened (as the dialog's Trace button does); concrete_args
 * and leaf_modules may be NULL. */
void      fx_window_trace      (FxWindow *self, const char *name, FxDict *concrete_args,
                                const char *const *leaf_modules);
/* The file shown, or NULL. */
GFile    *fx_window_get_file   (FxWindow *self);
/* Name of the visible page: "empty", "loading", "document" or "error". */
const char *fx_window_get_page (FxWindow *self);
FxGraphModule *fx_window_get_graph_module (FxWindow *self);
/* Writes the generated code to file (async); "code-exported" (error message or NULL) follows. */
void      fx_window_export_code (FxWindow *self, GFile *file);
/* Shows the search bar with text, as typing into it does. */
void      fx_window_search     (FxWindow *self, const char *text);
/* Index of the current hit (-1: none) and the number of hits. */
int       fx_window_get_search_position (FxWindow *self, guint *n_hits);
/* Parts, for tests. */
GtkWidget *fx_window_get_source_pane (FxWindow *self);
GtkWidget *fx_window_get_graph_view  (FxWindow *self);
GtkWidget *fx_window_get_code_view   (FxWindow *self);
GtkWidget *fx_window_get_inspector   (FxWindow *self);
GtkWidget *fx_window_get_node_table  (FxWindow *self);
GtkWidget *fx_window_get_search_entry (FxWindow *self);
/* The open dialog while it is shown, or NULL. */
GtkWidget *fx_window_get_open_dialog (FxWindow *self);
/* The error text shown on the "error" page. */
const char *fx_window_get_error_text (FxWindow *self);
/* Shows a sidebar page: "inspector", "code" or "table". */
void      fx_window_show_sidebar_page (FxWindow *self, const char *name);

G_END_DECLS
