/* fx-graph-view.h: FxGraphView — the graph of a GraphModule drawn as Graphviz lays it out:
 * pan/zoom, mini-map, selection, hover, search hits and collapsible module clusters. */
#pragma once

#include <gtk/gtk.h>
#include <fx.h>

G_BEGIN_DECLS

#define FX_TYPE_GRAPH_VIEW (fx_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (FxGraphView, fx_graph_view, FX, GRAPH_VIEW, GtkWidget)

GtkWidget     *fx_graph_view_new                (void);

/* Shows gm (a reference is taken; NULL clears) and lays it out in a worker thread; a newer
 * call cancels the layout still running. "layout-finished" (const GError *error_or_NULL)
 * is emitted when the layout is in place (or failed; not when cancelled). */
void           fx_graph_view_set_graph_module   (FxGraphView *view, FxGraphModule *gm);
FxGraphModule *fx_graph_view_get_graph_module   (FxGraphView *view);
/* Re-lays out the current graph after it was edited; positions of nodes whose label is
 * all that changed are kept when the node set and edges are the same. */
void           fx_graph_view_relayout           (FxGraphView *view);
/* Also the "layout-running" property. */
gboolean       fx_graph_view_get_layout_running (FxGraphView *view);

/* Selected nodes in graph order; FxNode* borrowed, the array is the caller's. */
GPtrArray     *fx_graph_view_get_selection      (FxGraphView *view);
/* Replaces the selection ("selection-changed" is emitted); center: scroll the first into view. */
void           fx_graph_view_select_nodes       (FxGraphView *view, FxNode *const *nodes,
                                                 guint n_nodes, gboolean center);
/* Nodes drawn highlighted (search results); the array is copied; NULL clears. */
void           fx_graph_view_set_search_hits    (FxGraphView *view, GPtrArray *nodes);
void           fx_graph_view_center_on_node     (FxGraphView *view, FxNode *node);

/* Zoom: the "zoom" property (1.0 = 100 %). */
void           fx_graph_view_zoom_to_fit        (FxGraphView *view);
void           fx_graph_view_zoom_in            (FxGraphView *view);
void           fx_graph_view_zoom_out           (FxGraphView *view);
void           fx_graph_view_zoom_reset         (FxGraphView *view);
double         fx_graph_view_get_zoom           (FxGraphView *view);
void           fx_graph_view_set_zoom           (FxGraphView *view, double zoom);

/* Module clusters ("layer1", "layer1.0"): a collapsed cluster is drawn as one box; changing
 * it re-lays out. */
void           fx_graph_view_set_module_collapsed (FxGraphView *view, const char *module_path,
                                                   gboolean collapsed);
gboolean       fx_graph_view_get_module_collapsed (FxGraphView *view, const char *module_path);

/* Where a module is drawn (its frame, or its box when collapsed), in widget coordinates;
 * FALSE when it is not shown. Its title strip is the frame's top 18 pixels at 100 %. */
gboolean       fx_graph_view_get_module_bounds  (FxGraphView *view, const char *module_path,
                                                 graphene_rect_t *bounds);
/* Where node is drawn, in widget coordinates (FALSE when hidden or not laid out). */
gboolean       fx_graph_view_get_node_bounds    (FxGraphView *view, FxNode *node,
                                                 graphene_rect_t *bounds);
/* The node drawn at widget point (x, y), or NULL. */
FxNode        *fx_graph_view_node_at            (FxGraphView *view, double x, double y);

/* What a primary-button press at widget point (x, y) does (the gestures call these; tests and
 * accessibility can too): n_press 1 selects the node there (Ctrl toggles it), 2 on a module's
 * title strip or collapsed box collapses or expands it. */
void           fx_graph_view_press_at           (FxGraphView *view, double x, double y,
                                                 int n_press, GdkModifierType modifiers);
/* What a secondary-button press at (x, y) does: the context menu there (expand or collapse the
 * module under the pointer, zoom to fit, reset zoom). Shift+F10 and the Menu key (action
 * graph.show-menu) open it at the first selected node. */
void           fx_graph_view_popup_menu_at      (FxGraphView *view, double x, double y);
/* The node under the pointer (its box, inputs and users are highlighted), or NULL. */
FxNode        *fx_graph_view_get_hovered_node   (FxGraphView *view);
/* Rubber band: selects the nodes whose boxes meet rect (widget coordinates); additive keeps
 * the current selection. */
void           fx_graph_view_select_in_rect     (FxGraphView *view, const graphene_rect_t *rect,
                                                 gboolean additive);

G_END_DECLS
