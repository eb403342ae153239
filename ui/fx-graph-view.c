/* fx-graph-view.c: FxGraphView — draws a GraphModule as Graphviz lays it out (layout in a
 * worker thread), with pan/zoom, a mini-map, selection, hover and collapsible modules. */
#include "fx-graph-view.h"
#include "fx-graph-layout.h"
#include "fx-graph-minimap.h"

#include <adwaita.h>
#include <math.h>

#define ZOOM_MIN 0.005
#define ZOOM_MAX 4.0
#define ZOOM_STEP 1.25
#define FIT_MARGIN 24.0
#define ANIMATION_USEC (180 * 1000)
/* Above this many nodes, top-level modules start collapsed so the first picture stays
 * readable and the layout short. */
#define AUTO_COLLAPSE_ABOVE 1500
/* Below this zoom the text would be unreadable specks: boxes only. */
#define TEXT_MIN_ZOOM 0.4
/* Fitting below this zoom makes labels unreadable: a new graph opens at a reading zoom instead. */
#define INITIAL_MIN_ZOOM 0.55
#define CLUSTER_HEADER 18.0
#define MINIMAP_WIDTH 200
#define MINIMAP_HEIGHT 150

enum { BOX_SELECTED = 1, BOX_HIT = 2, BOX_RELATED = 4 };

struct _FxGraphView {
  GtkWidget parent_instance;

  FxGraphModule *gm;
  FxGraphLayout *layout;       /* what is drawn; NULL before the first layout */
  GCancellable *cancellable;   /* of the layout running, if any */
  gboolean layout_running;
  GHashTable *collapsed;       /* module paths; NULL: let the next layout decide */
  gboolean fit_pending;        /* zoom to fit once allocated (a new graph) */
  char *anchor_path;           /* keep this module where it is on screen across a relayout */
  double anchor_x, anchor_y;

  GHashTable *selection;       /* FxNode* set */
  GHashTable *hits;            /* FxNode* set */
  guint8 *box_flags;           /* BOX_* per box of layout */
  guint *adj_start, *adj_edges;/* per box: the edges touching it (CSR) */
  graphene_rect_t *edge_bounds;
  GPtrArray *texts;            /* PangoLayout per box, made when first drawn with text */
  int hover;                   /* box under the pointer, or -1 */

  double zoom, offset_x, offset_y;    /* widget = layout * zoom + offset */
  double pointer_x, pointer_y;
  guint animation;             /* tick callback id */
  gint64 animation_start;
  double from[3], to[3];       /* zoom, offset_x, offset_y */
  double gesture_zoom;         /* zoom when the pinch began */

  int drag_mode;               /* 0 none, 1 pan, 2 rubber band */
  double drag_x, drag_y, drag_ox, drag_oy, drag_dx, drag_dy;
  gboolean drag_additive;

  FxLayoutMetrics metrics;
  PangoFontDescription *font;
  gboolean dark;

  GskRenderNode *content;      /* the graph as last drawn; NULL: draw again */
  int alloc_width, alloc_height;
  GtkWidget *spinner;
  GtkWidget *minimap;
  GtkWidget *menu;
};

G_DEFINE_FINAL_TYPE (FxGraphView, fx_graph_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_LAYOUT_RUNNING, PROP_ZOOM, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIG_LAYOUT_FINISHED, SIG_SELECTION_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void start_layout (FxGraphView *self);

/* The drawing is kept as a render node: the spinner and mini-map redraw every frame while a
 * layout runs, and GTK then snapshots their parent again — which must not redraw the graph. */
static void
redraw (FxGraphView *self)
{
  g_clear_pointer (&self->content, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- geometry helpers ---- */

static FxLayoutBox *
box_at_index (FxGraphView *self, int b)
{
  return &g_array_index (self->layout->boxes, FxLayoutBox, b);
}

static void
box_rect (FxGraphView *self, int b, graphene_rect_t *rect)
{
  FxLayoutBox *box = box_at_index (self, b);
  graphene_rect_init (rect, box->x, box->y, box->width, box->height);
}

static void
to_layout (FxGraphView *self, double wx, double wy, double *lx, double *ly)
{
  *lx = (wx - self->offset_x) / self->zoom;
  *ly = (wy - self->offset_y) / self->zoom;
}

static void
visible_area (FxGraphView *self, graphene_rect_t *area)
{
  double x, y;
  to_layout (self, 0, 0, &x, &y);
  graphene_rect_init (area, x, y, gtk_widget_get_width (GTK_WIDGET (self)) / self->zoom,
                      gtk_widget_get_height (GTK_WIDGET (self)) / self->zoom);
}

static int
box_at (FxGraphView *self, double wx, double wy)
{
  double x, y;

  if (self->layout == NULL)
    return -1;
  to_layout (self, wx, wy, &x, &y);
  for (guint b = 0; b < self->layout->boxes->len; b++)
    {
      FxLayoutBox *box = box_at_index (self, b);
      if (x >= box->x && x <= box->x + box->width && y >= box->y && y <= box->y + box->height)
        return b;
    }
  return -1;
}

/* The deepest expanded module whose title strip is at the point, or -1. */
static int
cluster_header_at (FxGraphView *self, double wx, double wy)
{
  double x, y;
  int best = -1;

  if (self->layout == NULL)
    return -1;
  to_layout (self, wx, wy, &x, &y);
  for (guint c = 0; c < self->layout->clusters->len; c++)
    {
      FxLayoutCluster *cl = &g_array_index (self->layout->clusters, FxLayoutCluster, c);
      if (cl->hidden || cl->collapsed)
        continue;
      if (x >= cl->x && x <= cl->x + cl->width && y >= cl->y && y <= cl->y + CLUSTER_HEADER &&
          (best < 0 || cl->depth > g_array_index (self->layout->clusters, FxLayoutCluster, best).depth))
        best = c;
    }
  return best;
}

/* ---- view transform and animation ---- */

static void
viewport_changed (FxGraphView *self)
{
  graphene_rect_t area;

  visible_area (self, &area);
  fx_graph_minimap_set_viewport (FX_GRAPH_MINIMAP (self->minimap), &area);
  redraw (self);
}

static void
set_transform (FxGraphView *self, double zoom, double ox, double oy)
{
  gboolean zoom_changed = zoom != self->zoom;

  self->zoom = zoom;
  self->offset_x = ox;
  self->offset_y = oy;
  viewport_changed (self);
  if (zoom_changed)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ZOOM]);
}

static void
stop_animation (FxGraphView *self)
{
  if (self->animation)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->animation);
  self->animation = 0;
}

static gboolean
animation_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  FxGraphView *self = FX_GRAPH_VIEW (widget);
  double t = (gdk_frame_clock_get_frame_time (clock) - self->animation_start) / (double) ANIMATION_USEC;

  t = CLAMP (t, 0, 1);
  double e = 1 - pow (1 - t, 3);   /* ease out */
  /* Zoom interpolates geometrically so that zooming feels uniform. */
  double zoom = self->from[0] * pow (self->to[0] / self->from[0], e);
  set_transform (self, zoom, self->from[1] + (self->to[1] - self->from[1]) * e,
                 self->from[2] + (self->to[2] - self->from[2]) * e);
  if (t >= 1)
    {
      self->animation = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* Moves the view to (zoom, ox, oy), animated when the widget is shown and animations are on. */
static void
animate_to (FxGraphView *self, double zoom, double ox, double oy)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean animations = TRUE;

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  stop_animation (self);
  g_object_get (gtk_widget_get_settings (widget), "gtk-enable-animations", &animations, NULL);
  if (!animations || !gtk_widget_get_mapped (widget))
    {
      set_transform (self, zoom, ox, oy);
      return;
    }
  self->from[0] = self->zoom, self->from[1] = self->offset_x, self->from[2] = self->offset_y;
  self->to[0] = zoom, self->to[1] = ox, self->to[2] = oy;
  self->animation_start = gdk_frame_clock_get_frame_time (gtk_widget_get_frame_clock (widget));
  self->animation = gtk_widget_add_tick_callback (widget, animation_tick, NULL, NULL);
}

/* Zoom about a widget point, which stays where it is. */
static void
zoom_at (FxGraphView *self, double zoom, double wx, double wy, gboolean animate)
{
  double lx, ly;

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  if (self->animation)
    {
      /* Keep zooming from where the running animation is headed. */
      stop_animation (self);
      set_transform (self, self->to[0], self->to[1], self->to[2]);
    }
  to_layout (self, wx, wy, &lx, &ly);
  if (animate)
    animate_to (self, zoom, wx - lx * zoom, wy - ly * zoom);
  else
    set_transform (self, zoom, wx - lx * zoom, wy - ly * zoom);
}

static void
center_on_point (FxGraphView *self, double lx, double ly, gboolean animate)
{
  double ox = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0 - lx * self->zoom;
  double oy = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0 - ly * self->zoom;

  if (animate)
    animate_to (self, self->zoom, ox, oy);
  else
    set_transform (self, self->zoom, ox, oy);
}

static void
fit (FxGraphView *self, gboolean animate)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->layout == NULL || !self->layout->laid_out || width <= 0 || height <= 0)
    return;
  double lw = MAX (self->layout->width, 1), lh = MAX (self->layout->height, 1);
  double zoom = MIN ((width - 2 * FIT_MARGIN) / lw, (height - 2 * FIT_MARGIN) / lh);
  zoom = CLAMP (zoom, ZOOM_MIN, 1.0);
  double ox = (width - lw * zoom) / 2, oy = (height - lh * zoom) / 2;
  if (animate)
    animate_to (self, zoom, ox, oy);
  else
    set_transform (self, zoom, ox, oy);
}

/* A new graph opens fitted when its labels stay readable that way; otherwise at a reading
 * zoom on its inputs (the top), with the mini-map showing the rest. */
static void
initial_view (FxGraphView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  fit (self, FALSE);
  if (self->zoom >= INITIAL_MIN_ZOOM || self->layout->boxes->len == 0)
    return;
  double zoom = MIN (1.0, (width - 2 * FIT_MARGIN) / MAX (self->layout->width, 1));
  zoom = MAX (zoom, 0.8);
  FxLayoutBox *first = box_at_index (self, 0);
  double ox = width / 2.0 - (first->x + first->width / 2) * zoom;
  if (self->layout->width * zoom <= width - 2 * FIT_MARGIN)
    ox = (width - self->layout->width * zoom) / 2;
  set_transform (self, zoom, ox, FIT_MARGIN);
}

/* ---- state derived from the layout ---- */

static void
update_box_flags (FxGraphView *self)
{
  if (self->layout == NULL)
    return;
  guint n = self->layout->boxes->len;
  g_free (self->box_flags);
  self->box_flags = g_new0 (guint8, n + 1);
  GHashTable *sets[2] = { self->selection, self->hits };
  guint8 flags[2] = { BOX_SELECTED, BOX_HIT };
  for (int s = 0; s < 2; s++)
    {
      GHashTableIter iter;
      gpointer node;
      g_hash_table_iter_init (&iter, sets[s]);
      while (g_hash_table_iter_next (&iter, &node, NULL))
        {
          int b = fx_graph_layout_box_of (self->layout, node);
          if (b >= 0)
            self->box_flags[b] |= flags[s];
        }
    }
  if (self->hover >= 0 && (guint) self->hover < n)
    for (guint i = self->adj_start[self->hover]; i < self->adj_start[self->hover + 1]; i++)
      {
        FxLayoutEdge *edge = &g_array_index (self->layout->edges, FxLayoutEdge, self->adj_edges[i]);
        self->box_flags[edge->tail] |= BOX_RELATED;
        self->box_flags[edge->head] |= BOX_RELATED;
      }
  redraw (self);
}

/* Text layouts are made lazily: most slots stay NULL. */
static void
unref_text (gpointer text)
{
  if (text)
    g_object_unref (text);
}

static void
index_layout (FxGraphView *self)
{
  FxGraphLayout *layout = self->layout;
  guint n_boxes = layout->boxes->len, n_edges = layout->edges->len;

  g_free (self->adj_start);
  g_free (self->adj_edges);
  g_free (self->edge_bounds);
  self->adj_start = g_new0 (guint, n_boxes + 2);
  self->adj_edges = g_new (guint, 2 * n_edges + 1);
  self->edge_bounds = g_new (graphene_rect_t, n_edges + 1);
  for (guint e = 0; e < n_edges; e++)
    {
      FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      self->adj_start[edge->tail + 1]++;
      self->adj_start[edge->head + 1]++;
      double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
      for (guint i = 0; i < edge->n_points; i++)
        {
          x0 = MIN (x0, edge->points[i].x), x1 = MAX (x1, edge->points[i].x);
          y0 = MIN (y0, edge->points[i].y), y1 = MAX (y1, edge->points[i].y);
        }
      if (edge->has_arrow)
        {
          x0 = MIN (x0, edge->arrow_tip.x), x1 = MAX (x1, edge->arrow_tip.x);
          y0 = MIN (y0, edge->arrow_tip.y), y1 = MAX (y1, edge->arrow_tip.y);
        }
      graphene_rect_init (&self->edge_bounds[e], x0 - 6, y0 - 6, x1 - x0 + 12, y1 - y0 + 12);
    }
  for (guint b = 0; b < n_boxes; b++)
    self->adj_start[b + 1] += self->adj_start[b];
  g_autofree guint *fill = g_memdup2 (self->adj_start, (n_boxes + 1) * sizeof (guint));
  for (guint e = 0; e < n_edges; e++)
    {
      FxLayoutEdge *edge = &g_array_index (layout->edges, FxLayoutEdge, e);
      self->adj_edges[fill[edge->tail]++] = e;
      self->adj_edges[fill[edge->head]++] = e;
    }
  if (self->texts)
    g_ptr_array_unref (self->texts);
  self->texts = g_ptr_array_new_full (n_boxes, unref_text);
  g_ptr_array_set_size (self->texts, n_boxes);
  self->hover = -1;
}

static void
set_layout (FxGraphView *self, FxGraphLayout *layout)
{
  g_clear_pointer (&self->layout, fx_graph_layout_free);
  self->layout = layout;
  self->hover = -1;
  if (layout != NULL)
    {
      index_layout (self);
      update_box_flags (self);
    }
  fx_graph_minimap_set_layout (FX_GRAPH_MINIMAP (self->minimap), layout, self->dark);
  gtk_widget_set_visible (self->minimap, layout != NULL && layout->boxes->len > 0);
  viewport_changed (self);
}

static void
set_layout_running (FxGraphView *self, gboolean running)
{
  if (self->layout_running == running)
    return;
  self->layout_running = running;
  gtk_widget_set_visible (self->spinner, running);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), running);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LAYOUT_RUNNING]);
}

/* ---- layout in a worker ---- */

static void
layout_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FxGraphLayout *layout = task_data;   /* the worker owns it until it returns it */
  GError *error = NULL;

  if (fx_graph_layout_run (layout, cancellable, &error))
    g_task_return_pointer (task, layout, (GDestroyNotify) fx_graph_layout_free);
  else
    {
      fx_graph_layout_free (layout);
      g_task_return_error (task, error);
    }
}

static void
anchor_module (FxGraphView *self, gboolean record)
{
  FxGraphLayout *layout = self->layout;
  int c = layout ? fx_graph_layout_cluster_of (layout, self->anchor_path) : -1;
  double x = 0, y = 0;

  if (c < 0)
    return;
  FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
  if (cl->collapsed)
    {
      for (guint b = 0; b < layout->boxes->len; b++)
        if (box_at_index (self, b)->node == NULL && box_at_index (self, b)->cluster == c)
          x = box_at_index (self, b)->x, y = box_at_index (self, b)->y;
    }
  else
    x = cl->x, y = cl->y;
  if (record)
    {
      self->anchor_x = x * self->zoom + self->offset_x;
      self->anchor_y = y * self->zoom + self->offset_y;
    }
  else
    set_transform (self, self->zoom, self->anchor_x - x * self->zoom, self->anchor_y - y * self->zoom);
}

static void
layout_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FxGraphView *self = FX_GRAPH_VIEW (source);
  g_autoptr(GError) error = NULL;
  FxGraphLayout *layout = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* a newer layout (or dispose) took over */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      fx_graph_layout_free (layout);
      return;
    }
  g_clear_object (&self->cancellable);
  set_layout_running (self, FALSE);
  if (error == NULL)
    {
      set_layout (self, layout);
      if (self->fit_pending && gtk_widget_get_width (GTK_WIDGET (self)) > 0)
        {
          self->fit_pending = FALSE;
          initial_view (self);
        }
      else if (self->anchor_path)
        anchor_module (self, FALSE);
    }
  g_clear_pointer (&self->anchor_path, g_free);
  g_signal_emit (self, signals[SIG_LAYOUT_FINISHED], 0, error);
}

static void
measure_metrics (FxGraphView *self)
{
  PangoLayout *probe = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  PangoRectangle logical;
  const char *sample = "abcdefghijklmnopqrstuvwxyz0123456789[]_.";

  pango_layout_set_font_description (probe, self->font);
  pango_layout_set_text (probe, sample, -1);
  pango_layout_get_extents (probe, NULL, &logical);
  self->metrics.char_width = (double) logical.width / PANGO_SCALE / strlen (sample);
  pango_layout_set_text (probe, "Ag\nAg\nAg\nAg", -1);
  pango_layout_get_extents (probe, NULL, &logical);
  self->metrics.line_height = (double) logical.height / PANGO_SCALE / 4;
  self->metrics.pad_x = 9;
  self->metrics.pad_y = 6;
  g_object_unref (probe);
}

static void
start_layout (FxGraphView *self)
{
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->gm == NULL)
    {
      set_layout_running (self, FALSE);
      return;
    }
  if (self->metrics.char_width <= 0)
    measure_metrics (self);

  FxGraphLayout *layout = fx_graph_layout_prepare (self->gm->graph, self->gm->module,
                                                   self->collapsed, AUTO_COLLAPSE_ABOVE,
                                                   &self->metrics);
  if (self->collapsed == NULL)
    {
      /* Remember what the first layout decided, so later toggles start from it. */
      self->collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint c = 0; c < layout->clusters->len; c++)
        if (g_array_index (layout->clusters, FxLayoutCluster, c).collapsed)
          g_hash_table_add (self->collapsed,
                            g_strdup (g_array_index (layout->clusters, FxLayoutCluster, c).path));
    }
  /* Prune selection and hits to nodes still in the graph. */
  GHashTable *sets[2] = { self->selection, self->hits };
  for (int s = 0; s < 2; s++)
    {
      GHashTableIter iter;
      gpointer node;
      g_hash_table_iter_init (&iter, sets[s]);
      while (g_hash_table_iter_next (&iter, &node, NULL))
        if (!g_hash_table_contains (layout->box_of_node, node))
          g_hash_table_iter_remove (&iter);
    }

  /* Only labels changed: keep every position, no worker needed. */
  if (fx_graph_layout_reuse (layout, self->layout))
    {
      set_layout_running (self, FALSE);
      set_layout (self, layout);
      g_signal_emit (self, signals[SIG_LAYOUT_FINISHED], 0, NULL);
      return;
    }

  self->cancellable = g_cancellable_new ();
  GTask *task = g_task_new (self, self->cancellable, layout_done, NULL);
  g_task_set_source_tag (task, start_layout);
  g_task_set_task_data (task, layout, NULL);
  g_task_run_in_thread (task, layout_thread);
  g_object_unref (task);
  set_layout_running (self, TRUE);
}

/* ---- drawing ---- */

static PangoLayout *
box_text (FxGraphView *self, int b)
{
  PangoLayout *text = g_ptr_array_index (self->texts, b);

  if (text == NULL)
    {
      FxLayoutBox *box = box_at_index (self, b);
      g_autofree char *title = g_markup_escape_text (box->title, -1);
      g_autofree char *subtitle = box->subtitle ? g_markup_escape_text (box->subtitle, -1) : NULL;
      g_autofree char *detail = box->detail ? g_markup_escape_text (box->detail, -1) : NULL;
      g_autofree char *markup = g_strdup_printf ("<b>%s</b>%s%s%s%s", title,
                                                 subtitle ? "\n" : "", subtitle ? subtitle : "",
                                                 detail ? "\n<span alpha=\"70%\">" : "",
                                                 detail ? detail : "");
      if (detail)
        {
          char *closed = g_strconcat (markup, "</span>", NULL);
          g_free (markup);
          markup = closed;
        }
      text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
      pango_layout_set_font_description (text, self->font);
      pango_layout_set_markup (text, markup, -1);
      g_ptr_array_index (self->texts, b) = text;
    }
  return text;
}

static void
color (GdkRGBA *rgba, const char *spec)
{
  gdk_rgba_parse (rgba, spec);
}

static void
append_border (GtkSnapshot *snapshot, const GskRoundedRect *outline, float width, const GdkRGBA *c)
{
  gtk_snapshot_append_border (snapshot, outline, (float[4]) { width, width, width, width },
                              (GdkRGBA[4]) { *c, *c, *c, *c });
}

static void
draw_clusters (FxGraphView *self, GtkSnapshot *snapshot, const graphene_rect_t *area)
{
  GdkRGBA fill, line, text_color;
  PangoLayout *text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);

  pango_layout_set_font_description (text, self->font);
  color (&line, self->dark ? "rgba(255,255,255,0.22)" : "rgba(0,0,0,0.18)");
  color (&text_color, self->dark ? "rgba(255,255,255,0.70)" : "rgba(0,0,0,0.62)");
  for (guint c = 0; c < self->layout->clusters->len; c++)
    {
      FxLayoutCluster *cl = &g_array_index (self->layout->clusters, FxLayoutCluster, c);
      graphene_rect_t rect = GRAPHENE_RECT_INIT (cl->x, cl->y, cl->width, cl->height);
      GskRoundedRect outline;

      if (cl->hidden || cl->collapsed || !graphene_rect_intersection (&rect, area, NULL))
        continue;
      /* Deeper modules a little darker (lighter in dark mode): nesting reads at a glance. */
      double a = 0.035 + 0.02 * MIN (cl->depth, 4);
      fill = self->dark ? (GdkRGBA) { 1, 1, 1, a } : (GdkRGBA) { 0.1, 0.2, 0.35, a };
      gsk_rounded_rect_init_from_rect (&outline, &rect, 8);
      gtk_snapshot_push_rounded_clip (snapshot, &outline);
      gtk_snapshot_append_color (snapshot, &fill, &rect);
      if (self->zoom >= TEXT_MIN_ZOOM)
        {
          pango_layout_set_text (text, cl->label, -1);
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (cl->x + 8, cl->y + 3));
          gtk_snapshot_append_layout (snapshot, text, &text_color);
          gtk_snapshot_restore (snapshot);
        }
      gtk_snapshot_pop (snapshot);
      append_border (snapshot, &outline, 1, &line);
    }
  g_object_unref (text);
}

static void
draw_edges (FxGraphView *self, GtkSnapshot *snapshot, const graphene_rect_t *area)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  GdkRGBA normal, strong;

  color (&normal, self->dark ? "rgba(255,255,255,0.45)" : "rgba(0,0,0,0.45)");
  color (&strong, self->dark ? "#78aeed" : "#1c71d8");
  /* Splines in layout units under the view transform; widths divided back to pixels. */
  cairo_translate (cr, self->offset_x, self->offset_y);
  cairo_scale (cr, self->zoom, self->zoom);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (int pass = 0; pass < 2; pass++)
    {
      gdk_cairo_set_source_rgba (cr, pass ? &strong : &normal);
      cairo_set_line_width (cr, (pass ? 2.2 : 1.2) / MAX (self->zoom, 0.25));
      for (guint e = 0; e < self->layout->edges->len; e++)
        {
          FxLayoutEdge *edge = &g_array_index (self->layout->edges, FxLayoutEdge, e);
          gboolean hot = self->hover >= 0 && (edge->tail == (guint) self->hover ||
                                              edge->head == (guint) self->hover);
          hot |= (self->box_flags[edge->tail] & BOX_SELECTED) || (self->box_flags[edge->head] & BOX_SELECTED);
          if (hot != pass || edge->n_points < 2 ||
              !graphene_rect_intersection (&self->edge_bounds[e], area, NULL))
            continue;
          FxLayoutPoint *p = edge->points;
          cairo_move_to (cr, p[0].x, p[0].y);
          if ((edge->n_points - 1) % 3 == 0)
            for (guint i = 1; i + 2 < edge->n_points; i += 3)
              cairo_curve_to (cr, p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, p[i + 2].x, p[i + 2].y);
          else
            for (guint i = 1; i < edge->n_points; i++)
              cairo_line_to (cr, p[i].x, p[i].y);
          cairo_stroke (cr);
          if (edge->has_arrow)
            {
              /* A filled triangle from the spline's end to the tip Graphviz left room for. */
              FxLayoutPoint end = p[edge->n_points - 1], tip = edge->arrow_tip;
              double dx = tip.x - end.x, dy = tip.y - end.y, len = hypot (dx, dy);
              if (len < 0.01)
                continue;
              double nx = -dy / len * len * 0.45, ny = dx / len * len * 0.45;
              cairo_move_to (cr, tip.x, tip.y);
              cairo_line_to (cr, end.x + nx, end.y + ny);
              cairo_line_to (cr, end.x - nx, end.y - ny);
              cairo_close_path (cr);
              cairo_fill (cr);
            }
        }
    }
  cairo_destroy (cr);
}

static void
draw_boxes (FxGraphView *self, GtkSnapshot *snapshot, const graphene_rect_t *area)
{
  GdkRGBA fill, border, text_color, accent, hit_fill, hit_border;
  gboolean with_text = self->zoom >= TEXT_MIN_ZOOM;

  color (&text_color, self->dark ? "#f2f2f2" : "#1d1d1d");
  color (&accent, self->dark ? "#78aeed" : "#1c71d8");
  color (&hit_fill, self->dark ? "#5c4a00" : "#fff1a8");
  color (&hit_border, self->dark ? "#f8e45c" : "#e5a50a");
  for (guint b = 0; b < self->layout->boxes->len; b++)
    {
      FxLayoutBox *box = box_at_index (self, b);
      graphene_rect_t rect;
      GskRoundedRect outline;
      guint8 flags = self->box_flags[b];

      box_rect (self, b, &rect);
      if (!graphene_rect_intersection (&rect, area, NULL))
        continue;
      fx_graph_op_colors (box->op, box->node == NULL, self->dark, &fill, &border);
      if (flags & BOX_HIT)
        fill = hit_fill, border = hit_border;
      gsk_rounded_rect_init_from_rect (&outline, &rect, box->node ? 6 : 10);
      gtk_snapshot_push_rounded_clip (snapshot, &outline);
      gtk_snapshot_append_color (snapshot, &fill, &rect);
      if (with_text)
        {
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (box->x + self->metrics.pad_x,
                                                                  box->y + self->metrics.pad_y));
          gtk_snapshot_append_layout (snapshot, box_text (self, b), &text_color);
          gtk_snapshot_restore (snapshot);
        }
      gtk_snapshot_pop (snapshot);
      /* Borders stay at least a pixel wide when zoomed out, or boxes lose their edges. */
      double px = 1 / self->zoom;
      if (flags & BOX_SELECTED)
        append_border (snapshot, &outline, MAX (3, 2.5 * px), &accent);
      else if ((flags & BOX_RELATED) || (int) b == self->hover)
        append_border (snapshot, &outline, MAX (2.2, 2 * px), &accent);
      else
        append_border (snapshot, &outline, MAX (box->node ? 1.2 : 2, px), &border);
    }
}

static GskRenderNode *
draw_content (FxGraphView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  graphene_rect_t area;
  GdkRGBA bg;

  color (&bg, self->dark ? "#1e1e1e" : "#fafafa");
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->layout != NULL && self->layout->laid_out)
    {
      visible_area (self, &area);
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (self->offset_x, self->offset_y));
      gtk_snapshot_scale (snapshot, self->zoom, self->zoom);
      draw_clusters (self, snapshot, &area);
      gtk_snapshot_restore (snapshot);
      draw_edges (self, snapshot, &area);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (self->offset_x, self->offset_y));
      gtk_snapshot_scale (snapshot, self->zoom, self->zoom);
      draw_boxes (self, snapshot, &area);
      gtk_snapshot_restore (snapshot);
      if (self->drag_mode == 2)
        {
          GdkRGBA band_fill, band_line;
          GskRoundedRect band;
          graphene_rect_t r = GRAPHENE_RECT_INIT (MIN (self->drag_x, self->drag_x + self->drag_dx),
                                                  MIN (self->drag_y, self->drag_y + self->drag_dy),
                                                  fabs (self->drag_dx), fabs (self->drag_dy));
          color (&band_fill, "rgba(53,132,228,0.15)");
          color (&band_line, "rgba(53,132,228,0.9)");
          gtk_snapshot_append_color (snapshot, &band_fill, &r);
          gsk_rounded_rect_init_from_rect (&band, &r, 0);
          append_border (snapshot, &band, 1, &band_line);
        }
      gtk_snapshot_pop (snapshot);
    }
  return gtk_snapshot_free_to_node (snapshot);
}

static void
fx_graph_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FxGraphView *self = FX_GRAPH_VIEW (widget);

  if (self->content == NULL)
    self->content = draw_content (self);
  if (self->content)
    gtk_snapshot_append_node (snapshot, self->content);
  gtk_widget_snapshot_child (widget, self->minimap, snapshot);
  gtk_widget_snapshot_child (widget, self->spinner, snapshot);
}

static void
fx_graph_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                       int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 480;
}

static void
fx_graph_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FxGraphView *self = FX_GRAPH_VIEW (widget);
  int mw = MIN (MINIMAP_WIDTH, width / 3), mh = MIN (MINIMAP_HEIGHT, height / 3);

  gtk_widget_allocate (self->spinner, 32, 32, -1,
                       gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT ((width - 32) / 2.0,
                                                                            (height - 32) / 2.0)));
  gtk_widget_allocate (self->minimap, mw, mh, -1,
                       gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (width - mw - 12,
                                                                            height - mh - 12)));
  if (self->menu)
    gtk_popover_present (GTK_POPOVER (self->menu));
  if (self->fit_pending && self->layout && width > 0)
    {
      self->fit_pending = FALSE;
      initial_view (self);
    }
  /* GTK allocates again for the spinner's animation: only a new size changes the drawing. */
  if (width != self->alloc_width || height != self->alloc_height)
    {
      self->alloc_width = width, self->alloc_height = height;
      viewport_changed (self);
    }
}

/* ---- input ---- */

static void
set_hover (FxGraphView *self, int b)
{
  if (b == self->hover)
    return;
  self->hover = b;
  update_box_flags (self);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), b >= 0 ? "pointer" : NULL);
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, FxGraphView *self)
{
  self->pointer_x = x, self->pointer_y = y;
  if (self->drag_mode == 0)
    set_hover (self, box_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller, FxGraphView *self)
{
  set_hover (self, -1);
}

static void
selection_changed (FxGraphView *self)
{
  update_box_flags (self);
  g_signal_emit (self, signals[SIG_SELECTION_CHANGED], 0);
}

/* Nodes shown by box b: its node, or every node of a collapsed module. */
static void
add_box_nodes (FxGraphView *self, int b, GHashTable *into, gboolean toggle)
{
  FxLayoutBox *box = box_at_index (self, b);

  if (box->node)
    {
      if (toggle && g_hash_table_contains (into, box->node))
        g_hash_table_remove (into, box->node);
      else
        g_hash_table_add (into, box->node);
      return;
    }
  GHashTableIter iter;
  gpointer node, index;
  gboolean all = TRUE;
  g_hash_table_iter_init (&iter, self->layout->box_of_node);
  while (g_hash_table_iter_next (&iter, &node, &index))
    if (GPOINTER_TO_INT (index) - 1 == b)
      all &= g_hash_table_contains (into, node);
  g_hash_table_iter_init (&iter, self->layout->box_of_node);
  while (g_hash_table_iter_next (&iter, &node, &index))
    if (GPOINTER_TO_INT (index) - 1 == b)
      {
        if (toggle && all)
          g_hash_table_remove (into, node);
        else
          g_hash_table_add (into, node);
      }
}

void
fx_graph_view_popup_menu_at (FxGraphView *self, double x, double y)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (self));
  if (self->layout == NULL)
    return;
  g_autoptr(GMenu) menu = g_menu_new ();
  int c = cluster_header_at (self, x, y);
  int b = box_at (self, x, y);

  if (b >= 0 && box_at_index (self, b)->node == NULL)
    {
      const char *path = g_array_index (self->layout->clusters, FxLayoutCluster,
                                        box_at_index (self, b)->cluster).path;
      g_autofree char *action = g_strdup_printf ("graph.expand-module('%s')", path);
      g_menu_append (menu, "_Expand Module", action);
    }
  else
    {
      if (c < 0 && b >= 0)
        c = box_at_index (self, b)->cluster;
      if (c >= 0)
        {
          const char *path = g_array_index (self->layout->clusters, FxLayoutCluster, c).path;
          g_autofree char *label = g_strdup_printf ("_Collapse “%s”", path);
          g_autofree char *action = g_strdup_printf ("graph.collapse-module('%s')", path);
          g_menu_append (menu, label, action);
        }
    }
  g_menu_append (menu, "Zoom to _Fit", "graph.zoom-fit");
  g_menu_append (menu, "_Reset Zoom", "graph.zoom-reset");
  if (self->menu == NULL)
    {
      self->menu = gtk_popover_menu_new_from_model (NULL);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { x, y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

void
fx_graph_view_press_at (FxGraphView *self, double x, double y, int n_press,
                        GdkModifierType modifiers)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (self));
  if (self->layout == NULL)
    return;
  int b = box_at (self, x, y);
  if (n_press == 2)
    {
      int c = b < 0 ? cluster_header_at (self, x, y) : -1;
      if (b >= 0 && box_at_index (self, b)->node == NULL)
        c = box_at_index (self, b)->cluster;
      if (c >= 0)
        {
          FxLayoutCluster *cl = &g_array_index (self->layout->clusters, FxLayoutCluster, c);
          fx_graph_view_set_module_collapsed (self, cl->path, !cl->collapsed);
        }
      return;
    }
  if (b < 0)
    return;   /* background: a drag pans, a plain click clears (drag-end) */
  if (modifiers & GDK_CONTROL_MASK)
    add_box_nodes (self, b, self->selection, TRUE);
  else
    {
      g_hash_table_remove_all (self->selection);
      add_box_nodes (self, b, self->selection, FALSE);
    }
  selection_changed (self);
}

static void
on_click_pressed (GtkGestureClick *gesture, int n_press, double x, double y, FxGraphView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->layout == NULL)
    return;
  if (button == GDK_BUTTON_SECONDARY)
    fx_graph_view_popup_menu_at (self, x, y);
  else if (button == GDK_BUTTON_PRIMARY)
    fx_graph_view_press_at (self, x, y, n_press, mods);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, FxGraphView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  self->drag_mode = 0;
  if (self->layout == NULL || (button == GDK_BUTTON_PRIMARY && box_at (self, x, y) >= 0))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  stop_animation (self);
  self->drag_x = x, self->drag_y = y, self->drag_dx = self->drag_dy = 0;
  self->drag_ox = self->offset_x, self->drag_oy = self->offset_y;
  /* Shift-drag (Ctrl to add) draws a rubber band; a plain drag or the middle button pans. */
  self->drag_mode = button == GDK_BUTTON_PRIMARY && (mods & GDK_SHIFT_MASK) ? 2 : 1;
  self->drag_additive = (mods & GDK_CONTROL_MASK) != 0;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, FxGraphView *self)
{
  self->drag_dx = dx, self->drag_dy = dy;
  if (self->drag_mode == 1)
    {
      if (fabs (dx) + fabs (dy) > 3)
        gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
      set_transform (self, self->zoom, self->drag_ox + dx, self->drag_oy + dy);
    }
  else if (self->drag_mode == 2)
    redraw (self);
}

void
fx_graph_view_select_in_rect (FxGraphView *self, const graphene_rect_t *rect, gboolean additive)
{
  double x0, y0, x1, y1;

  to_layout (self, rect->origin.x, rect->origin.y, &x0, &y0);
  to_layout (self, rect->origin.x + rect->size.width, rect->origin.y + rect->size.height, &x1, &y1);
  if (!additive)
    g_hash_table_remove_all (self->selection);
  graphene_rect_t band = GRAPHENE_RECT_INIT (x0, y0, x1 - x0, y1 - y0);
  for (guint b = 0; b < self->layout->boxes->len; b++)
    {
      graphene_rect_t r;
      box_rect (self, b, &r);
      if (graphene_rect_intersection (&r, &band, NULL))
        add_box_nodes (self, b, self->selection, FALSE);
    }
  selection_changed (self);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, FxGraphView *self)
{
  int mode = self->drag_mode;

  self->drag_mode = 0;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), NULL);
  if (mode == 2)
    {
      graphene_rect_t r = GRAPHENE_RECT_INIT (MIN (self->drag_x, self->drag_x + dx),
                                              MIN (self->drag_y, self->drag_y + dy),
                                              fabs (dx), fabs (dy));
      fx_graph_view_select_in_rect (self, &r, self->drag_additive);
    }
  else if (mode == 1 && fabs (dx) + fabs (dy) < 3 &&
           gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)) == GDK_BUTTON_PRIMARY &&
           g_hash_table_size (self->selection) > 0)
    {
      g_hash_table_remove_all (self->selection);
      selection_changed (self);
    }
  redraw (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, FxGraphView *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (controller);

  if (self->layout == NULL)
    return FALSE;
  /* A mouse wheel (or Ctrl) zooms about the pointer; touchpad scrolling pans. */
  if ((mods & GDK_CONTROL_MASK) || unit == GDK_SCROLL_UNIT_WHEEL)
    {
      double step = unit == GDK_SCROLL_UNIT_WHEEL ? dy : dy / 20.0;
      zoom_at (self, self->zoom * pow (1.15, -step), self->pointer_x, self->pointer_y, FALSE);
    }
  else
    {
      stop_animation (self);
      set_transform (self, self->zoom, self->offset_x - dx, self->offset_y - dy);
    }
  return TRUE;
}

static void
on_zoom_begin (GtkGesture *gesture, GdkEventSequence *sequence, FxGraphView *self)
{
  stop_animation (self);
  self->gesture_zoom = self->zoom;
}

static void
on_zoom_scale_changed (GtkGestureZoom *gesture, double scale, FxGraphView *self)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    x = self->pointer_x, y = self->pointer_y;
  zoom_at (self, self->gesture_zoom * scale, x, y, FALSE);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode,
                GdkModifierType state, FxGraphView *self)
{
  const double step = 80;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_plus: case GDK_KEY_equal: case GDK_KEY_KP_Add:
      fx_graph_view_zoom_in (self); return TRUE;
    case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
      fx_graph_view_zoom_out (self); return TRUE;
    case GDK_KEY_0: case GDK_KEY_KP_0:
      fx_graph_view_zoom_reset (self); return TRUE;
    case GDK_KEY_f: case GDK_KEY_Home:
      fx_graph_view_zoom_to_fit (self); return TRUE;
    case GDK_KEY_Left:
      animate_to (self, self->zoom, self->offset_x + step, self->offset_y); return TRUE;
    case GDK_KEY_Right:
      animate_to (self, self->zoom, self->offset_x - step, self->offset_y); return TRUE;
    case GDK_KEY_Up:
      animate_to (self, self->zoom, self->offset_x, self->offset_y + step); return TRUE;
    case GDK_KEY_Down:
      animate_to (self, self->zoom, self->offset_x, self->offset_y - step); return TRUE;
    case GDK_KEY_Escape:
      if (g_hash_table_size (self->selection) == 0)
        return FALSE;
      g_hash_table_remove_all (self->selection);
      selection_changed (self);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_navigate (FxGraphMinimap *minimap, double x, double y, FxGraphView *self)
{
  stop_animation (self);
  center_on_point (self, x, y, FALSE);
}

static void
on_dark_changed (AdwStyleManager *manager, GParamSpec *pspec, FxGraphView *self)
{
  self->dark = adw_style_manager_get_dark (manager);
  fx_graph_minimap_set_layout (FX_GRAPH_MINIMAP (self->minimap), self->layout, self->dark);
  redraw (self);
}

/* ---- actions ---- */

static void
action_zoom (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  FxGraphView *self = FX_GRAPH_VIEW (widget);

  if (g_str_equal (action_name, "graph.zoom-in"))
    fx_graph_view_zoom_in (self);
  else if (g_str_equal (action_name, "graph.zoom-out"))
    fx_graph_view_zoom_out (self);
  else if (g_str_equal (action_name, "graph.zoom-reset"))
    fx_graph_view_zoom_reset (self);
  else
    fx_graph_view_zoom_to_fit (self);
}

/* Shift+F10 / Menu: the context menu of the first selected node (the view's centre when none
 * is selected or it is off screen), as a right click there would open it. */
static void
action_show_menu (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  FxGraphView *self = FX_GRAPH_VIEW (widget);
  g_autoptr(GPtrArray) selection = fx_graph_view_get_selection (self);
  double x = gtk_widget_get_width (widget) / 2.0, y = gtk_widget_get_height (widget) / 2.0;
  graphene_rect_t r;

  if (selection->len > 0 && fx_graph_view_get_node_bounds (self, g_ptr_array_index (selection, 0), &r)
      && r.origin.x + r.size.width / 2 >= 0 && r.origin.x + r.size.width / 2 < gtk_widget_get_width (widget)
      && r.origin.y + r.size.height / 2 >= 0 && r.origin.y + r.size.height / 2 < gtk_widget_get_height (widget))
    x = r.origin.x + r.size.width / 2, y = r.origin.y + r.size.height / 2;
  fx_graph_view_popup_menu_at (self, x, y);
}

static void
action_module (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  fx_graph_view_set_module_collapsed (FX_GRAPH_VIEW (widget), g_variant_get_string (parameter, NULL),
                                      g_str_equal (action_name, "graph.collapse-module"));
}

/* ---- object ---- */

static void
fx_graph_view_dispose (GObject *object)
{
  FxGraphView *self = FX_GRAPH_VIEW (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  stop_animation (self);
  if (adw_is_initialized ())
    g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_pointer (&self->spinner, gtk_widget_unparent);
  g_clear_pointer (&self->minimap, gtk_widget_unparent);
  g_clear_pointer (&self->menu, gtk_widget_unparent);
  g_clear_pointer (&self->layout, fx_graph_layout_free);
  g_clear_pointer (&self->content, gsk_render_node_unref);
  g_clear_pointer (&self->texts, g_ptr_array_unref);
  g_clear_pointer (&self->gm, fx_graph_module_unref);
  G_OBJECT_CLASS (fx_graph_view_parent_class)->dispose (object);
}

static void
fx_graph_view_finalize (GObject *object)
{
  FxGraphView *self = FX_GRAPH_VIEW (object);

  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  g_hash_table_unref (self->selection);
  g_hash_table_unref (self->hits);
  g_free (self->box_flags);
  g_free (self->adj_start);
  g_free (self->adj_edges);
  g_free (self->edge_bounds);
  g_free (self->anchor_path);
  pango_font_description_free (self->font);
  G_OBJECT_CLASS (fx_graph_view_parent_class)->finalize (object);
}

static void
fx_graph_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FxGraphView *self = FX_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_LAYOUT_RUNNING: g_value_set_boolean (value, self->layout_running); break;
    case PROP_ZOOM: g_value_set_double (value, self->zoom); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fx_graph_view_set_property (GObject *object, guint prop_id, const GValue *value,
                            GParamSpec *pspec)
{
  FxGraphView *self = FX_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_ZOOM: fx_graph_view_set_zoom (self, g_value_get_double (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fx_graph_view_class_init (FxGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_graph_view_dispose;
  object_class->finalize = fx_graph_view_finalize;
  object_class->get_property = fx_graph_view_get_property;
  object_class->set_property = fx_graph_view_set_property;
  widget_class->snapshot = fx_graph_view_snapshot;
  widget_class->measure = fx_graph_view_measure;
  widget_class->size_allocate = fx_graph_view_size_allocate;

  props[PROP_LAYOUT_RUNNING] = g_param_spec_boolean ("layout-running", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_ZOOM] = g_param_spec_double ("zoom", NULL, NULL, ZOOM_MIN, ZOOM_MAX, 1.0,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                          G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  /* layout-finished (const GError *error_or_NULL): the new layout is in place, or failed. */
  signals[SIG_LAYOUT_FINISHED] =
    g_signal_new ("layout-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIG_SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "graph.zoom-reset", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "graph.zoom-fit", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "graph.collapse-module", "s", action_module);
  gtk_widget_class_install_action (widget_class, "graph.expand-module", "s", action_module);
  gtk_widget_class_install_action (widget_class, "graph.show-menu", NULL, action_show_menu);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "graph.show-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "graph.show-menu", NULL);
  gtk_widget_class_set_css_name (widget_class, "fxgraphview");
}

static void
fx_graph_view_init (FxGraphView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  AdwStyleManager *style = adw_is_initialized () ? adw_style_manager_get_default () : NULL;

  self->zoom = 1.0;
  self->hover = -1;
  self->selection = g_hash_table_new (NULL, NULL);
  self->hits = g_hash_table_new (NULL, NULL);
  self->font = pango_font_description_from_string ("Monospace 9");
  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (widget, "fx-graph-view");

  self->spinner = gtk_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  gtk_widget_set_parent (self->spinner, widget);
  self->minimap = fx_graph_minimap_new ();
  gtk_widget_set_visible (self->minimap, FALSE);
  gtk_widget_set_parent (self->minimap, widget);
  g_signal_connect (self->minimap, "navigate", G_CALLBACK (on_navigate), self);

  /* Dark mode follows the system through libadwaita, when the application initialised it. */
  if (style != NULL)
    {
      self->dark = adw_style_manager_get_dark (style);
      g_signal_connect (style, "notify::dark", G_CALLBACK (on_dark_changed), self);
    }

  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, motion);

  GtkGesture *click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  GtkGesture *drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                     GTK_EVENT_CONTROLLER_SCROLL_KINETIC);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, scroll);

  GtkGesture *pinch = gtk_gesture_zoom_new ();
  g_signal_connect (pinch, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (on_zoom_scale_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (pinch));

  GtkEventController *keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (widget, keys);
}

/* ---- API ---- */

GtkWidget *
fx_graph_view_new (void)
{
  return g_object_new (FX_TYPE_GRAPH_VIEW, NULL);
}

void
fx_graph_view_set_graph_module (FxGraphView *view, FxGraphModule *gm)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));

  if (gm)
    fx_graph_module_ref (gm);
  g_clear_pointer (&view->gm, fx_graph_module_unref);
  view->gm = gm;
  /* A new graph: its own modules, selection and a fresh fit; old boxes point at old nodes. */
  g_clear_pointer (&view->collapsed, g_hash_table_unref);
  g_clear_pointer (&view->anchor_path, g_free);
  gboolean had_selection = g_hash_table_size (view->selection) > 0;
  g_hash_table_remove_all (view->selection);
  g_hash_table_remove_all (view->hits);
  set_layout (view, NULL);
  view->fit_pending = TRUE;
  start_layout (view);
  if (had_selection)
    g_signal_emit (view, signals[SIG_SELECTION_CHANGED], 0);
}

FxGraphModule *
fx_graph_view_get_graph_module (FxGraphView *view)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), NULL);
  return view->gm;
}

void
fx_graph_view_relayout (FxGraphView *view)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  start_layout (view);
}

gboolean
fx_graph_view_get_layout_running (FxGraphView *view)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), FALSE);
  return view->layout_running;
}

static int
compare_node_order (gconstpointer a, gconstpointer b, gpointer order)
{
  int ia = GPOINTER_TO_INT (g_hash_table_lookup (order, *(FxNode **) a));
  int ib = GPOINTER_TO_INT (g_hash_table_lookup (order, *(FxNode **) b));
  return (ia > ib) - (ia < ib);
}

GPtrArray *
fx_graph_view_get_selection (FxGraphView *view)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), NULL);
  GPtrArray *nodes = g_ptr_array_sized_new (g_hash_table_size (view->selection));
  GHashTableIter iter;
  gpointer node;
  g_hash_table_iter_init (&iter, view->selection);
  while (g_hash_table_iter_next (&iter, &node, NULL))
    g_ptr_array_add (nodes, node);
  if (nodes->len > 1 && view->gm)
    {
      /* Graph order, not hash order. */
      g_autoptr(GHashTable) order = g_hash_table_new (NULL, NULL);
      int i = 1;
      for (FxNode *n = fx_graph_first (view->gm->graph); n; n = fx_node_next (n))
        g_hash_table_insert (order, n, GINT_TO_POINTER (i++));
      g_ptr_array_sort_with_data (nodes, compare_node_order, order);
    }
  return nodes;
}

void
fx_graph_view_select_nodes (FxGraphView *view, FxNode *const *nodes, guint n_nodes, gboolean center)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  g_hash_table_remove_all (view->selection);
  for (guint i = 0; i < n_nodes; i++)
    g_hash_table_add (view->selection, nodes[i]);
  selection_changed (view);
  if (center && n_nodes > 0)
    fx_graph_view_center_on_node (view, nodes[0]);
}

void
fx_graph_view_set_search_hits (FxGraphView *view, GPtrArray *nodes)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  g_hash_table_remove_all (view->hits);
  for (guint i = 0; nodes && i < nodes->len; i++)
    g_hash_table_add (view->hits, g_ptr_array_index (nodes, i));
  update_box_flags (view);
}

void
fx_graph_view_center_on_node (FxGraphView *view, FxNode *node)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  int b = view->layout && view->layout->laid_out ? fx_graph_layout_box_of (view->layout, node) : -1;
  if (b < 0)
    return;
  FxLayoutBox *box = box_at_index (view, b);
  center_on_point (view, box->x + box->width / 2, box->y + box->height / 2, TRUE);
}

void
fx_graph_view_zoom_to_fit (FxGraphView *view)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  fit (view, TRUE);
}

static void
zoom_center (FxGraphView *view, double zoom)
{
  zoom_at (view, zoom, gtk_widget_get_width (GTK_WIDGET (view)) / 2.0,
           gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, TRUE);
}

void
fx_graph_view_zoom_in (FxGraphView *view)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  zoom_center (view, (view->animation ? view->to[0] : view->zoom) * ZOOM_STEP);
}

void
fx_graph_view_zoom_out (FxGraphView *view)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  zoom_center (view, (view->animation ? view->to[0] : view->zoom) / ZOOM_STEP);
}

void
fx_graph_view_zoom_reset (FxGraphView *view)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  zoom_center (view, 1.0);
}

double
fx_graph_view_get_zoom (FxGraphView *view)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), 1.0);
  return view->zoom;
}

void
fx_graph_view_set_zoom (FxGraphView *view, double zoom)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  stop_animation (view);
  zoom_at (view, zoom, gtk_widget_get_width (GTK_WIDGET (view)) / 2.0,
           gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, FALSE);
}

void
fx_graph_view_set_module_collapsed (FxGraphView *view, const char *module_path, gboolean collapsed)
{
  g_return_if_fail (FX_IS_GRAPH_VIEW (view));
  g_return_if_fail (module_path != NULL);
  if (fx_graph_view_get_module_collapsed (view, module_path) == collapsed)
    return;
  if (view->collapsed == NULL)
    view->collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (collapsed)
    g_hash_table_add (view->collapsed, g_strdup (module_path));
  else
    g_hash_table_remove (view->collapsed, module_path);
  /* Keep the module where the user was looking. */
  g_free (view->anchor_path);
  view->anchor_path = g_strdup (module_path);
  anchor_module (view, TRUE);
  start_layout (view);
}

gboolean
fx_graph_view_get_module_collapsed (FxGraphView *view, const char *module_path)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), FALSE);
  if (view->collapsed)
    return g_hash_table_contains (view->collapsed, module_path);
  int c = view->layout ? fx_graph_layout_cluster_of (view->layout, module_path) : -1;
  return c >= 0 && g_array_index (view->layout->clusters, FxLayoutCluster, c).collapsed;
}

gboolean
fx_graph_view_get_node_bounds (FxGraphView *view, FxNode *node, graphene_rect_t *bounds)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), FALSE);
  int b = view->layout && view->layout->laid_out ? fx_graph_layout_box_of (view->layout, node) : -1;
  if (b < 0)
    return FALSE;
  FxLayoutBox *box = box_at_index (view, b);
  graphene_rect_init (bounds, box->x * view->zoom + view->offset_x, box->y * view->zoom + view->offset_y,
                      box->width * view->zoom, box->height * view->zoom);
  return TRUE;
}

gboolean
fx_graph_view_get_module_bounds (FxGraphView *view, const char *module_path, graphene_rect_t *bounds)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), FALSE);
  int c = view->layout && view->layout->laid_out ? fx_graph_layout_cluster_of (view->layout, module_path) : -1;
  if (c < 0)
    return FALSE;
  FxLayoutCluster *cl = &g_array_index (view->layout->clusters, FxLayoutCluster, c);
  double x = cl->x, y = cl->y, w = cl->width, h = cl->height;
  if (cl->hidden)
    return FALSE;
  if (cl->collapsed)
    for (guint b = 0; b < view->layout->boxes->len; b++)
      {
        FxLayoutBox *box = box_at_index (view, b);
        if (box->node == NULL && box->cluster == c)
          x = box->x, y = box->y, w = box->width, h = box->height;
      }
  graphene_rect_init (bounds, x * view->zoom + view->offset_x, y * view->zoom + view->offset_y,
                      w * view->zoom, h * view->zoom);
  return w > 0 && h > 0;
}

FxNode *
fx_graph_view_get_hovered_node (FxGraphView *view)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), NULL);
  return view->hover >= 0 && view->layout ? box_at_index (view, view->hover)->node : NULL;
}

FxNode *
fx_graph_view_node_at (FxGraphView *view, double x, double y)
{
  g_return_val_if_fail (FX_IS_GRAPH_VIEW (view), NULL);
  int b = box_at (view, x, y);
  return b >= 0 ? box_at_index (view, b)->node : NULL;
}
