/* fx-source-pane.h: a read-only, Python-highlighted code pane (model source, generated code),
 * able to bring a line into view — where errors and selections point. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FX_TYPE_SOURCE_PANE (fx_source_pane_get_type ())
G_DECLARE_FINAL_TYPE (FxSourcePane, fx_source_pane, FX, SOURCE_PANE, GtkWidget)

GtkWidget *fx_source_pane_new          (void);
void       fx_source_pane_set_text     (FxSourcePane *self, const char *text);
/* The whole text; g_free the result. */
char      *fx_source_pane_dup_text     (FxSourcePane *self);
/* Places the cursor on line (1-based), selects it and scrolls it into view. */
void       fx_source_pane_show_line    (FxSourcePane *self, int line);
int        fx_source_pane_get_cursor_line (FxSourcePane *self);
/* Paints line (1-based; 0 clears) as the highlighted one, puts the cursor there, and with
 * scroll brings it into view. Setting new text clears it. */
void       fx_source_pane_highlight_line (FxSourcePane *self, int line, gboolean scroll);
int        fx_source_pane_get_highlighted_line (FxSourcePane *self);
gboolean   fx_source_pane_line_visible (FxSourcePane *self, int line);
/* "line-activated" (int line): the user clicked line (1-based). */
/* Follows the desktop's dark/light preference. */
void       fx_source_pane_set_dark     (FxSourcePane *self, gboolean dark);

G_END_DECLS
