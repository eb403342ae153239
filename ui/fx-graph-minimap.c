/* fx-graph-minimap.c: FxGraphMinimap — a scaled-down drawing of the laid-out graph with the
 * viewport framed; its content is recorded once per layout and size, so panning only redraws
 * the frame. */
#include "fx-graph-minimap.h"

struct _FxGraphMinimap {
  GtkWidget parent_instance;
  const FxGraphLayout *layout;
  gboolean dark;
  graphene_rect_t viewport;
  GskRenderNode *content;     /* cached drawing of the boxes at the current size */
  int content_width, content_height;
  double scale, origin_x, origin_y;   /* widget = origin + layout * scale */
};

G_DEFINE_FINAL_TYPE (FxGraphMinimap, fx_graph_minimap, GTK_TYPE_WIDGET)

enum { SIG_NAVIGATE, N_SIGNALS };
static guint signals[N_SIGNALS];

#define INSET 6.0

void
fx_graph_op_colors (FxNodeOp op, gboolean module, gboolean dark, GdkRGBA *fill, GdkRGBA *border)
{
  /* Tinted fills with a saturated border: readable text on both schemes. */
  static const char *light[][2] = {
    [FX_OP_PLACEHOLDER]   = { "#dff3da", "#2f8f3a" },
    [FX_OP_GET_ATTR]      = { "#fbf0c8", "#b7860b" },
    [FX_OP_CALL_FUNCTION] = { "#dce9fb", "#2f6fc4" },
    [FX_OP_CALL_METHOD]   = { "#ebe0f8", "#7c4fc0" },
    [FX_OP_CALL_MODULE]   = { "#fde6d2", "#c8611a" },
    [FX_OP_OUTPUT]        = { "#f9dadd", "#c0354a" },
  };
  static const char *darks[][2] = {
    [FX_OP_PLACEHOLDER]   = { "#1f3d25", "#62c36f" },
    [FX_OP_GET_ATTR]      = { "#433a17", "#dcb64a" },
    [FX_OP_CALL_FUNCTION] = { "#1c3350", "#69a3ee" },
    [FX_OP_CALL_METHOD]   = { "#352850", "#a98ae4" },
    [FX_OP_CALL_MODULE]   = { "#472a16", "#ec9757" },
    [FX_OP_OUTPUT]        = { "#4b2128", "#ee7283" },
  };
  const char *(*table)[2] = dark ? darks : light;

  if (module)
    {
      gdk_rgba_parse (fill, dark ? "#2b3a3c" : "#e2ecec");
      gdk_rgba_parse (border, dark ? "#7fb5ba" : "#3f7f85");
      return;
    }
  if ((guint) op > FX_OP_OUTPUT)
    op = FX_OP_CALL_FUNCTION;
  gdk_rgba_parse (fill, table[op][0]);
  gdk_rgba_parse (border, table[op][1]);
}

static void
fx_graph_minimap_dispose (GObject *object)
{
  FxGraphMinimap *self = FX_GRAPH_MINIMAP (object);

  g_clear_pointer (&self->content, gsk_render_node_unref);
  self->layout = NULL;
  G_OBJECT_CLASS (fx_graph_minimap_parent_class)->dispose (object);
}

static void
update_scale (FxGraphMinimap *self, int width, int height)
{
  double lw = MAX (self->layout->width, 1), lh = MAX (self->layout->height, 1);

  self->scale = MIN ((width - 2 * INSET) / lw, (height - 2 * INSET) / lh);
  self->origin_x = (width - lw * self->scale) / 2;
  self->origin_y = (height - lh * self->scale) / 2;
}

static GskRenderNode *
record_content (FxGraphMinimap *self)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  const FxGraphLayout *layout = self->layout;
  GdkRGBA frame, fill, border;

  gdk_rgba_parse (&frame, self->dark ? "rgba(255,255,255,0.10)" : "rgba(0,0,0,0.07)");
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (self->origin_x, self->origin_y));
  gtk_snapshot_scale (snapshot, self->scale, self->scale);
  for (guint c = 0; c < layout->clusters->len; c++)
    {
      FxLayoutCluster *cl = &g_array_index (layout->clusters, FxLayoutCluster, c);
      if (!cl->hidden && !cl->collapsed && cl->depth == 0)
        gtk_snapshot_append_color (snapshot, &frame,
                                   &GRAPHENE_RECT_INIT (cl->x, cl->y, cl->width, cl->height));
    }
  for (guint b = 0; b < layout->boxes->len; b++)
    {
      FxLayoutBox *box = &g_array_index (layout->boxes, FxLayoutBox, b);
      fx_graph_op_colors (box->op, box->node == NULL, self->dark, &fill, &border);
      /* At this scale the border colour reads better than the pale fill. */
      gtk_snapshot_append_color (snapshot, &border,
                                 &GRAPHENE_RECT_INIT (box->x, box->y, box->width, box->height));
    }
  return gtk_snapshot_free_to_node (snapshot);
}

static void
fx_graph_minimap_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FxGraphMinimap *self = FX_GRAPH_MINIMAP (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA bg, view, view_border;
  GskRoundedRect outline;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);

  if (self->layout == NULL || !self->layout->laid_out || width <= 2 * INSET || height <= 2 * INSET)
    return;
  gdk_rgba_parse (&bg, self->dark ? "rgba(36,36,36,0.92)" : "rgba(250,250,250,0.92)");
  gdk_rgba_parse (&view, self->dark ? "rgba(120,174,237,0.18)" : "rgba(53,132,228,0.14)");
  gdk_rgba_parse (&view_border, self->dark ? "#78aeed" : "#3584e4");

  gsk_rounded_rect_init_from_rect (&outline, &bounds, 8);
  gtk_snapshot_push_rounded_clip (snapshot, &outline);
  gtk_snapshot_append_color (snapshot, &bg, &bounds);
  if (self->content == NULL || self->content_width != width || self->content_height != height)
    {
      g_clear_pointer (&self->content, gsk_render_node_unref);
      update_scale (self, width, height);
      self->content = record_content (self);
      self->content_width = width;
      self->content_height = height;
    }
  if (self->content)
    gtk_snapshot_append_node (snapshot, self->content);

  graphene_rect_t vp = GRAPHENE_RECT_INIT (self->origin_x + self->viewport.origin.x * self->scale,
                                           self->origin_y + self->viewport.origin.y * self->scale,
                                           self->viewport.size.width * self->scale,
                                           self->viewport.size.height * self->scale);
  graphene_rect_intersection (&vp, &bounds, &vp);
  GskRoundedRect vr;
  gsk_rounded_rect_init_from_rect (&vr, &vp, 2);
  gtk_snapshot_append_color (snapshot, &view, &vp);
  gtk_snapshot_append_border (snapshot, &vr, (float[4]) { 1.5, 1.5, 1.5, 1.5 },
                              (GdkRGBA[4]) { view_border, view_border, view_border, view_border });
  gtk_snapshot_pop (snapshot);

  GdkRGBA edge;
  gdk_rgba_parse (&edge, self->dark ? "rgba(255,255,255,0.15)" : "rgba(0,0,0,0.15)");
  gtk_snapshot_append_border (snapshot, &outline, (float[4]) { 1, 1, 1, 1 },
                              (GdkRGBA[4]) { edge, edge, edge, edge });
}

static void
navigate_to (FxGraphMinimap *self, double x, double y)
{
  if (self->layout == NULL || self->scale <= 0)
    return;
  g_signal_emit (self, signals[SIG_NAVIGATE], 0,
                 (x - self->origin_x) / self->scale, (y - self->origin_y) / self->scale);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, FxGraphMinimap *self)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  navigate_to (self, x, y);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, FxGraphMinimap *self)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  navigate_to (self, x + dx, y + dy);
}

static void
fx_graph_minimap_class_init (FxGraphMinimapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_graph_minimap_dispose;
  widget_class->snapshot = fx_graph_minimap_snapshot;
  signals[SIG_NAVIGATE] = g_signal_new ("navigate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                        G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  gtk_widget_class_set_css_name (widget_class, "fxgraphminimap");
}

static void
fx_graph_minimap_init (FxGraphMinimap *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
}

GtkWidget *
fx_graph_minimap_new (void)
{
  return g_object_new (FX_TYPE_GRAPH_MINIMAP, NULL);
}

void
fx_graph_minimap_set_layout (FxGraphMinimap *self, const FxGraphLayout *layout, gboolean dark)
{
  self->layout = layout;
  self->dark = dark;
  g_clear_pointer (&self->content, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
fx_graph_minimap_set_viewport (FxGraphMinimap *self, const graphene_rect_t *viewport)
{
  if (graphene_rect_equal (&self->viewport, viewport))
    return;
  self->viewport = *viewport;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
