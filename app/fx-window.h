/* fx-window.h: FxWindow — one editor window: header bar actions (open, save, undo/redo,
 * export), the document area, toasts for errors. */
#pragma once

#include <adwaita.h>
#include "fx-application.h"

G_BEGIN_DECLS

#define FX_TYPE_WINDOW (fx_window_get_type ())
G_DECLARE_FINAL_TYPE (FxWindow, fx_window, FX, WINDOW, AdwApplicationWindow)

FxWindow *fx_window_new        (FxApplication *application);
/* Loads file without blocking the main loop; "document-loaded" or "load-failed" follows. */
void      fx_window_open_file  (FxWindow *self, GFile *file);
/* The file shown, or NULL. */
GFile    *fx_window_get_file   (FxWindow *self);
/* Name of the visible page: "empty" or "document". */
const char *fx_window_get_page (FxWindow *self);
/* The widget showing the document's source (for tests). */
GtkWidget *fx_window_get_source_pane (FxWindow *self);

G_END_DECLS
