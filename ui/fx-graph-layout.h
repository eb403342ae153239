/* fx-graph-layout.h: a graph laid out by Graphviz `dot` for the graph view — boxes, edge
 * splines and module cluster frames. Plain C (GLib + cgraph, no GTK) so it is testable and
 * runs in a worker thread. */
#pragma once

#include <glib.h>
#include <gio/gio.h>
#include <fx.h>

G_BEGIN_DECLS

typedef struct { double x, y; } FxLayoutPoint;

/* One drawn box: a graph node, or a collapsed module standing for the nodes inside it. */
typedef struct {
  FxNode *node;          /* borrowed, used as a key only (never read by the worker); NULL: module box */
  int cluster;           /* module box: the cluster it stands for; node: its innermost cluster or -1 */
  FxNodeOp op;           /* node op; FX_OP_CALL_MODULE for a module box */
  char *title;           /* node name, or module path */
  char *subtitle;        /* target (and module type), or "N nodes" */
  char *detail;          /* shape/dtype from meta['tensor_meta'], or NULL */
  double x, y, width, height;   /* top-left and size in layout units (points), y down */
} FxLayoutBox;

typedef struct {
  guint tail, head;      /* box indices */
  FxLayoutPoint *points; /* cubic Bézier pieces: p0 (c1 c2 p)*; NULL before the layout */
  guint n_points;
  gboolean has_arrow;
  FxLayoutPoint arrow_tip;   /* the arrowhead runs from the last point to here */
} FxLayoutEdge;

typedef struct {
  char *path;            /* "layer1.0" */
  char *label;           /* what the frame shows: "layer1.0 · BasicBlock" */
  int parent;            /* -1: top level */
  guint depth;           /* 0 for top level */
  guint n_nodes;         /* graph nodes inside, at any depth */
  gboolean collapsed;    /* drawn as one box */
  gboolean hidden;       /* inside a collapsed ancestor */
  double x, y, width, height;   /* frame of an expanded, shown cluster */
} FxLayoutCluster;

/* Sizes of the text the view draws, so that Graphviz reserves the right room. */
typedef struct {
  double char_width;     /* advance of one character of the (monospace) label font */
  double line_height;
  double pad_x, pad_y;
} FxLayoutMetrics;

typedef struct {
  GArray *boxes;         /* FxLayoutBox */
  GArray *edges;         /* FxLayoutEdge */
  GArray *clusters;      /* FxLayoutCluster; parents before children */
  GHashTable *box_of_node;     /* FxNode* → box index + 1 (nodes inside collapsed modules: their box) */
  GHashTable *cluster_of_path; /* path → cluster index + 1 */
  double width, height;  /* bounding box of the drawing */
  guint64 structure;     /* hash of boxes, edges and collapsed state, not of labels */
  gboolean laid_out;
  double seconds;        /* time dot took */
  guint n_implied;       /* edges left out of dot and drawn beside the boxes (concat fan-in) */
} FxGraphLayout;

/* Main thread: reads graph (and gm's module tree for type names, may be NULL) into a
 * layout description. collapsed: set of module paths drawn as one box (NULL: none); when
 * collapsed is NULL and the graph has more than auto_collapse_above nodes, top-level modules
 * start collapsed. Nodes are grouped by meta['nn_module_stack'] when the tracer recorded it,
 * by their target for call_module/get_attr, and otherwise by the modules of the nodes
 * traced around them. */
FxGraphLayout *fx_graph_layout_prepare (FxGraph *graph, FxModule *root, GHashTable *collapsed,
                                        guint auto_collapse_above,
                                        const FxLayoutMetrics *metrics);
void           fx_graph_layout_free    (FxGraphLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxGraphLayout, fx_graph_layout_free)

/* Any thread: runs dot on the description and fills in the geometry. Layouts are serialised
 * process-wide (Graphviz keeps global state); cancellable is checked before and after dot
 * runs (dot itself cannot be interrupted; its bounded settings keep it short). */
gboolean       fx_graph_layout_run     (FxGraphLayout *layout, GCancellable *cancellable,
                                        GError **error);

/* When layout has the same structure as old (only labels changed), takes old's positions
 * (box centres, splines, frames) and returns TRUE without running dot. */
gboolean       fx_graph_layout_reuse   (FxGraphLayout *layout, const FxGraphLayout *old);

/* The box showing node (its own or its collapsed module's), or -1. */
int            fx_graph_layout_box_of  (const FxGraphLayout *layout, FxNode *node);
int            fx_graph_layout_cluster_of (const FxGraphLayout *layout, const char *path);

G_END_DECLS
