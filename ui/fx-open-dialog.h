/* fx-open-dialog.h: FxOpenDialog — what to trace in a model source file: one of its nn.Module
 * classes, instances or functions, concrete arguments (NAME=VALUE, Python literals) and extra
 * leaf module classes. The dialog only asks; its owner lists candidates and traces. */
#pragma once

#include <adwaita.h>
#include <fx.h>

G_BEGIN_DECLS

#define FX_TYPE_OPEN_DIALOG (fx_open_dialog_get_type ())
G_DECLARE_FINAL_TYPE (FxOpenDialog, fx_open_dialog, FX, OPEN_DIALOG, AdwWindow)

/* Modal over parent; shows a spinner until fx_open_dialog_set_candidates(). */
FxOpenDialog *fx_open_dialog_new              (GtkWindow *parent, const char *file_name);
/* candidates: FxTraceCandidate* (core/trace/trace.h), borrowed for the call. The first
 * instance, else the first class constructible without arguments, is preselected. */
void          fx_open_dialog_set_candidates   (FxOpenDialog *self, GPtrArray *candidates);
gboolean      fx_open_dialog_select           (FxOpenDialog *self, const char *name);
const char   *fx_open_dialog_get_selected     (FxOpenDialog *self);
/* Adds a NAME=VALUE row holding text (may be NULL). */
void          fx_open_dialog_add_concrete_arg (FxOpenDialog *self, const char *text);
/* Leaf module class names, separated by commas or spaces. */
void          fx_open_dialog_set_leaf_modules (FxOpenDialog *self, const char *text);
/* The concrete arguments as symbolic_trace takes them (NULL when there are none) and
 * the leaf classes (NULL-terminated; g_strfreev). FALSE with the error shown inline. */
gboolean      fx_open_dialog_get_request      (FxOpenDialog *self, FxDict **concrete_args,
                                               char ***leaf_modules, GError **error);
/* The inline error shown, or NULL. */
const char   *fx_open_dialog_get_error        (FxOpenDialog *self);
/* What the Trace button does: checks the input; when it is valid "trace-requested". */
void          fx_open_dialog_request_trace    (FxOpenDialog *self);

G_END_DECLS
