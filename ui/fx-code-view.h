/* fx-code-view.h: FxCodeView — the generated forward() of a GraphModule, read-only and
 * highlighted, with each line tied to the node whose statement it is (both ways). */
#pragma once

#include <gtk/gtk.h>
#include <fx.h>

G_BEGIN_DECLS

#define FX_TYPE_CODE_VIEW (fx_code_view_get_type ())
G_DECLARE_FINAL_TYPE (FxCodeView, fx_code_view, FX, CODE_VIEW, GtkWidget)

GtkWidget  *fx_code_view_new               (void);
/* Regenerates the code of gm (NULL clears); call again after the graph changed. */
void        fx_code_view_set_graph_module  (FxCodeView *self, FxGraphModule *gm);
/* The code shown (GraphModule.code); owned by the view. */
const char *fx_code_view_get_code          (FxCodeView *self);
/* 1-based line of node's statement, 0 when it has none (placeholders). */
int         fx_code_view_get_node_line     (FxCodeView *self, FxNode *node);
/* The node whose statement is on line (1-based), or NULL. */
FxNode     *fx_code_view_get_line_node     (FxCodeView *self, int line);
/* Highlights node's line and scrolls to it (NULL clears); emits nothing. */
void        fx_code_view_show_node         (FxCodeView *self, FxNode *node);
int         fx_code_view_get_highlighted_line (FxCodeView *self);
/* The view's FxSourcePane (for tests: visibility, clicks). */
GtkWidget  *fx_code_view_get_source_pane   (FxCodeView *self);
/* Acts as a click on line: "node-activated" (FxNode *node) when a node's statement is there. */
void        fx_code_view_activate_line     (FxCodeView *self, int line);

G_END_DECLS
