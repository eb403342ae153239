/* fx-graph-minimap.h: FxGraphMinimap — the graph view's overview in a corner: the whole
 * drawing scaled down with the visible part framed; click or drag to move the view there.
 * Also holds the op colours both widgets share. */
#pragma once

#include <gtk/gtk.h>
#include "fx-graph-layout.h"

G_BEGIN_DECLS

#define FX_TYPE_GRAPH_MINIMAP (fx_graph_minimap_get_type ())
G_DECLARE_FINAL_TYPE (FxGraphMinimap, fx_graph_minimap, FX, GRAPH_MINIMAP, GtkWidget)

GtkWidget *fx_graph_minimap_new          (void);
/* layout is borrowed: the view keeps it alive while it is set (NULL clears). */
void       fx_graph_minimap_set_layout   (FxGraphMinimap *self, const FxGraphLayout *layout,
                                          gboolean dark);
/* The part of the drawing the view shows, in layout units. */
void       fx_graph_minimap_set_viewport (FxGraphMinimap *self, const graphene_rect_t *viewport);
/* "navigate" (double x, double y): the user asks to centre the view on that layout point. */

/* Fill and border of a box of op (module: a collapsed module's box) in light or dark mode. */
void       fx_graph_op_colors            (FxNodeOp op, gboolean module, gboolean dark,
                                          GdkRGBA *fill, GdkRGBA *border);

G_END_DECLS
