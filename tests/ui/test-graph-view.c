/* test-graph-view.c: the graph view on a real display — lays out the example model off the
 * main thread, selects by click and rubber band, collapses and expands a module, zooms to
 * fit, and renders readable content in light and dark mode (screenshots in
 * $FX_SCREENSHOT_DIR). */
#include "ui-test.h"
#include "trace/trace.h"

#include <adwaita.h>
#include <math.h>

typedef struct {
  GtkWidget *window;
  FxGraphView *view;
  FxGraphModule *gm;
  gboolean finished;
  gboolean failed;
  GdkTexture *shot;
  guint32 *pixels;
} Fixture;

static void
on_layout_finished (FxGraphView *view, const GError *error, Fixture *f)
{
  f->finished = TRUE;
  f->failed = error != NULL;
}

static void
wait_layout (Fixture *f)
{
  g_assert_true (ui_test_wait_for (&f->finished, 20000));
  g_assert_false (f->failed);
  g_assert_false (fx_graph_view_get_layout_running (f->view));
  f->finished = FALSE;
  ui_test_wait_frames (GTK_WIDGET (f->view), 3);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("FX_EXAMPLES_DIR"), "resnet_block.py", NULL);
  g_autoptr(GError) error = NULL;
  gboolean mapped = FALSE;

  f->gm = fx_trace_file (path, "TinyResNet", NULL, NULL, &error);
  g_assert_no_error (error);
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 760);
  f->view = FX_GRAPH_VIEW (fx_graph_view_new ());
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  g_signal_connect (f->view, "layout-finished", G_CALLBACK (on_layout_finished), f);
  g_signal_connect_swapped (f->window, "map", G_CALLBACK (ui_test_set_flag), &mapped);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (ui_test_wait_for (&mapped, 10000));

  fx_graph_view_set_graph_module (f->view, f->gm);
  /* The layout runs in a worker: the call returns before it is done. */
  g_assert_true (fx_graph_view_get_layout_running (f->view));
  wait_layout (f);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  fx_graph_module_unref (f->gm);
  g_clear_object (&f->shot);
  g_free (f->pixels);
}

static FxNode *
node (Fixture *f, const char *name)
{
  FxNode *n = fx_graph_find_node_by_name (f->gm->graph, name);
  g_assert_nonnull (n);
  return n;
}

/* Renders the view alone (not its window) and saves $FX_SCREENSHOT_DIR/name.png; the texture
 * is kept in the fixture for pixel checks in view coordinates. Returns its distinct colours. */
static guint
shoot (Fixture *f, const char *name)
{
  guint n_colours;

  ui_test_wait_frames (GTK_WIDGET (f->view), 2);   /* the paintable holds the last frame drawn */
  g_clear_object (&f->shot);
  f->shot = ui_test_render (GTK_WIDGET (f->view), name);
  g_free (f->pixels);
  f->pixels = ui_test_texture_pixels (f->shot, &n_colours);
  return n_colours;
}

/* Pixels of the last screenshot inside rect that differ from the same pixels of reference
 * (an earlier screenshot of the same size), or with reference NULL from the background (a
 * corner). */
static guint
differing_pixels (Fixture *f, const graphene_rect_t *rect, const guint32 *reference)
{
  int width = gdk_texture_get_width (f->shot), height = gdk_texture_get_height (f->shot);
  guint count = 0;

  for (int y = MAX (0, (int) rect->origin.y); y < MIN (height, (int) (rect->origin.y + rect->size.height)); y++)
    for (int x = MAX (0, (int) rect->origin.x); x < MIN (width, (int) (rect->origin.x + rect->size.width)); x++)
      {
        gsize i = (gsize) y * width + x;
        count += f->pixels[i] != (reference ? reference[i] : f->pixels[0]);
      }
  return count;
}

static guint
painted_pixels (Fixture *f, const graphene_rect_t *rect)
{
  return differing_pixels (f, rect, NULL);
}

static void
test_layout_example (Fixture *f, gconstpointer data)
{
  GtkWidget *widget = GTK_WIDGET (f->view);
  graphene_rect_t view_rect = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                  gtk_widget_get_height (widget));
  g_autoptr(GPtrArray) boxes = g_ptr_array_new_with_free_func (g_free);
  graphene_rect_t first;

  /* The example is tall: it opens at a reading zoom on its input, not fitted. */
  g_assert_cmpfloat (fx_graph_view_get_zoom (f->view), >=, 0.8);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "x"), &first));
  g_assert_true (graphene_rect_contains_rect (&view_rect, &first));
  g_assert_cmpuint (shoot (f, "graph-view-initial"), >, 100);
  fx_graph_view_zoom_to_fit (f->view);

  /* Every node has a box, inside the view after the first fit, and no two overlap. */
  for (FxNode *n = fx_graph_first (f->gm->graph); n; n = fx_node_next (n))
    {
      graphene_rect_t *r = g_new (graphene_rect_t, 1);
      g_assert_true (fx_graph_view_get_node_bounds (f->view, n, r));
      g_assert_true (graphene_rect_contains_rect (&view_rect, r));
      g_assert_true (fx_graph_view_node_at (f->view, r->origin.x + r->size.width / 2,
                                            r->origin.y + r->size.height / 2) == n);
      for (guint i = 0; i < boxes->len; i++)
        g_assert_false (graphene_rect_intersection (r, g_ptr_array_index (boxes, i), NULL));
      g_ptr_array_add (boxes, r);
    }
  /* Data flows down: the input above conv1 above the output. */
  graphene_rect_t x, conv1, output;
  fx_graph_view_get_node_bounds (f->view, node (f, "x"), &x);
  fx_graph_view_get_node_bounds (f->view, node (f, "conv1"), &conv1);
  fx_graph_view_get_node_bounds (f->view, node (f, "output"), &output);
  g_assert_cmpfloat (x.origin.y, <, conv1.origin.y);
  g_assert_cmpfloat (conv1.origin.y, <, output.origin.y);

  g_assert_cmpuint (shoot (f, "graph-view-fit"), >, 40);
  g_assert_cmpuint (painted_pixels (f, &conv1), >, conv1.size.width * conv1.size.height / 2);

  /* At 100 % the labels are drawn: many more colours (antialiased text) in a node's box. */
  fx_graph_view_zoom_reset (f->view);
  fx_graph_view_center_on_node (f->view, node (f, "layer1_0_conv1"));
  ui_test_wait_frames (widget, 3);
  g_assert_cmpfloat_with_epsilon (fx_graph_view_get_zoom (f->view), 1.0, 1e-9);
  graphene_rect_t conv;
  fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_conv1"), &conv);
  g_assert_cmpfloat_with_epsilon (conv.origin.x + conv.size.width / 2, view_rect.size.width / 2, 1);
  g_assert_cmpuint (shoot (f, "graph-view-100"), >, 100);
  g_assert_cmpuint (painted_pixels (f, &conv), >, conv.size.width * conv.size.height * 0.9);
}

static void
on_selection_changed (FxGraphView *view, int *count)
{
  (*count)++;
}

static void
test_click_and_rubber_band (Fixture *f, gconstpointer data)
{
  int changes = 0;
  graphene_rect_t r;

  g_signal_connect (f->view, "selection-changed", G_CALLBACK (on_selection_changed), &changes);
  fx_graph_view_zoom_reset (f->view);
  fx_graph_view_center_on_node (f->view, node (f, "layer1_0_bn1"));
  ui_test_wait_frames (GTK_WIDGET (f->view), 2);

  /* Click selects one node; Ctrl-click adds another; a click on the same with Ctrl drops it. */
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_bn1"), &r));
  fx_graph_view_press_at (f->view, r.origin.x + 5, r.origin.y + 5, 1, 0);
  g_autoptr(GPtrArray) one = fx_graph_view_get_selection (f->view);
  g_assert_cmpuint (one->len, ==, 1);
  g_assert_true (g_ptr_array_index (one, 0) == node (f, "layer1_0_bn1"));
  g_assert_cmpint (changes, ==, 1);

  graphene_rect_t r2;
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_relu"), &r2));
  fx_graph_view_press_at (f->view, r2.origin.x + 5, r2.origin.y + 5, 1, GDK_CONTROL_MASK);
  g_autoptr(GPtrArray) two = fx_graph_view_get_selection (f->view);
  g_assert_cmpuint (two->len, ==, 2);
  /* graph order */
  g_assert_true (g_ptr_array_index (two, 0) == node (f, "layer1_0_bn1"));
  g_assert_true (g_ptr_array_index (two, 1) == node (f, "layer1_0_relu"));
  shoot (f, "graph-view-selection");
  fx_graph_view_press_at (f->view, r.origin.x + 5, r.origin.y + 5, 1, GDK_CONTROL_MASK);
  g_autoptr(GPtrArray) back = fx_graph_view_get_selection (f->view);
  g_assert_cmpuint (back->len, ==, 1);

  /* Rubber band from bn1's box to relu's: exactly the nodes whose boxes it meets. */
  graphene_rect_t band;
  graphene_rect_union (&r, &r2, &band);
  fx_graph_view_select_in_rect (f->view, &band, FALSE);
  g_autoptr(GPtrArray) banded = fx_graph_view_get_selection (f->view);
  guint expected = 0;
  for (FxNode *n = fx_graph_first (f->gm->graph); n; n = fx_node_next (n))
    {
      graphene_rect_t b;
      if (fx_graph_view_get_node_bounds (f->view, n, &b) && graphene_rect_intersection (&b, &band, NULL))
        {
          expected++;
          g_assert_true (g_ptr_array_find (banded, n, NULL));
        }
    }
  g_assert_cmpuint (banded->len, ==, expected);
  g_assert_cmpuint (banded->len, >=, 2);

  /* API selection centres the node. */
  FxNode *output = node (f, "output");
  fx_graph_view_select_nodes (f->view, &output, 1, TRUE);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, output, &r));
  g_assert_cmpfloat_with_epsilon (r.origin.y + r.size.height / 2,
                                  gtk_widget_get_height (GTK_WIDGET (f->view)) / 2.0, 1);
}

/* The view's controller of type type (the motion controller, the click gesture...). */
static GtkEventController *
find_controller (GtkWidget *widget, GType type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;   /* the widget keeps it alive */
    }
  g_assert_not_reached ();
}

/* Hover, driven through the view's own motion controller: the node under the pointer, its
 * inputs and its users get accent borders; nodes elsewhere do not change. */
static void
test_hover (Fixture *f, gconstpointer data)
{
  GtkEventController *motion = find_controller (GTK_WIDGET (f->view), GTK_TYPE_EVENT_CONTROLLER_MOTION);
  graphene_rect_t bn1, conv1, relu, far;

  fx_graph_view_zoom_reset (f->view);
  fx_graph_view_center_on_node (f->view, node (f, "layer1_0_bn1"));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_bn1"), &bn1));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_conv1"), &conv1));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_relu"), &relu));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_conv2"), &far));
  shoot (f, "graph-view-no-hover");
  int shot_width = gdk_texture_get_width (f->shot), shot_height = gdk_texture_get_height (f->shot);
  g_autofree guint32 *before_pixels = g_memdup2 (f->pixels, (gsize) shot_width * shot_height * 4);

  g_signal_emit_by_name (motion, "motion", bn1.origin.x + bn1.size.width / 2,
                         bn1.origin.y + bn1.size.height / 2);
  g_assert_true (fx_graph_view_get_hovered_node (f->view) == node (f, "layer1_0_bn1"));
  g_assert_cmpstr (gdk_cursor_get_name (gtk_widget_get_cursor (GTK_WIDGET (f->view))), ==, "pointer");
  shoot (f, "graph-view-hover");
  g_assert_cmpint (gdk_texture_get_width (f->shot), ==, shot_width);
  g_assert_cmpint (gdk_texture_get_height (f->shot), ==, shot_height);
  /* Border lines of the hovered box, its input and its user: hundreds of pixels each. */
  g_assert_cmpuint (differing_pixels (f, &bn1, before_pixels), >, 100);
  g_assert_cmpuint (differing_pixels (f, &conv1, before_pixels), >, 100);
  g_assert_cmpuint (differing_pixels (f, &relu, before_pixels), >, 100);
  g_assert_cmpuint (differing_pixels (f, &far, before_pixels), ==, 0);

  /* Over the background, and leaving the widget, clear it. */
  g_signal_emit_by_name (motion, "motion", 2.0, 2.0);
  g_assert_null (fx_graph_view_get_hovered_node (f->view));
  g_signal_emit_by_name (motion, "motion", bn1.origin.x + 4, bn1.origin.y + 4);
  g_assert_nonnull (fx_graph_view_get_hovered_node (f->view));
  g_signal_emit_by_name (motion, "leave");
  g_assert_null (fx_graph_view_get_hovered_node (f->view));
  shoot (f, "graph-view-hover-left");
  g_assert_cmpint (gdk_texture_get_width (f->shot), ==, shot_width);
  g_assert_cmpint (gdk_texture_get_height (f->shot), ==, shot_height);
  g_assert_cmpuint (differing_pixels (f, &conv1, before_pixels), ==, 0);
}

/* The first child of widget that is a popover menu, or NULL. */
static GtkPopoverMenu *
find_popover_menu (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c))
      return GTK_POPOVER_MENU (c);
  return NULL;
}

/* The context menu (right click, Shift+F10 / Menu key via graph.show-menu): on a node inside a
 * module it offers to collapse that module, and its items work. */
static void
test_context_menu (Fixture *f, gconstpointer data)
{
  FxNode *bn1 = node (f, "layer1_0_bn1");
  graphene_rect_t a, b;

  fx_graph_view_zoom_reset (f->view);
  fx_graph_view_select_nodes (f->view, &bn1, 1, TRUE);
  ui_test_wait_frames (GTK_WIDGET (f->view), 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "graph.show-menu", NULL));
  GtkPopoverMenu *popover = find_popover_menu (GTK_WIDGET (f->view));
  g_assert_nonnull (popover);
  ui_test_wait_frames (GTK_WIDGET (popover), 2);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  ui_test_screenshot (GTK_WIDGET (popover), "graph-view-context-menu");

  GMenuModel *model = gtk_popover_menu_get_menu_model (popover);
  g_assert_cmpint (g_menu_model_get_n_items (model), ==, 3);
  g_autofree char *label = NULL, *action = NULL;
  g_assert_true (g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "_Collapse “layer1.0”");
  g_assert_true (g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action));
  g_assert_cmpstr (action, ==, "graph.collapse-module");
  g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (model, 0, G_MENU_ATTRIBUTE_TARGET, NULL);
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, "layer1.0");
  gtk_popover_popdown (GTK_POPOVER (popover));

  /* The item's action, as activating it in the menu does. */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (f->view), action, target));
  g_assert_true (fx_graph_view_get_module_collapsed (f->view, "layer1.0"));
  wait_layout (f);

  /* On the collapsed box, the menu offers to expand it. */
  g_assert_true (fx_graph_view_get_node_bounds (f->view, bn1, &a));
  fx_graph_view_center_on_node (f->view, bn1);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, bn1, &a));
  fx_graph_view_popup_menu_at (f->view, a.origin.x + a.size.width / 2, a.origin.y + a.size.height / 2);
  model = gtk_popover_menu_get_menu_model (popover);
  g_autofree char *label2 = NULL;
  g_assert_true (g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label2));
  g_assert_cmpstr (label2, ==, "_Expand Module");
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "graph.expand-module", "s", "layer1.0"));
  g_assert_false (fx_graph_view_get_module_collapsed (f->view, "layer1.0"));
  wait_layout (f);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, bn1, &a));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer1_0_conv1"), &b));
  g_assert_false (graphene_rect_equal (&a, &b));
}

static void
test_collapse_expand (Fixture *f, gconstpointer data)
{
  graphene_rect_t a, b, header;
  FxNode *conv1 = node (f, "layer1_0_conv1"), *conv2 = node (f, "layer1_1_conv2");
  FxNode *add = node (f, "add");   /* `out += identity` of layer1.0: grouped with its module */
  guint before = fx_graph_n_nodes (f->gm->graph);

  g_assert_false (fx_graph_view_get_module_collapsed (f->view, "layer1"));
  fx_graph_view_set_module_collapsed (f->view, "layer1", TRUE);
  g_assert_true (fx_graph_view_get_module_collapsed (f->view, "layer1"));
  wait_layout (f);
  /* Every node of layer1 is now drawn by one box, which is not a node. */
  g_assert_true (fx_graph_view_get_node_bounds (f->view, conv1, &a));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, conv2, &b));
  g_assert_true (graphene_rect_equal (&a, &b));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, add, &b));
  g_assert_true (graphene_rect_equal (&a, &b));
  g_assert_null (fx_graph_view_node_at (f->view, a.origin.x + a.size.width / 2,
                                        a.origin.y + a.size.height / 2));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer2_0_conv1"), &b));
  g_assert_false (graphene_rect_equal (&a, &b));
  g_assert_cmpuint (fx_graph_n_nodes (f->gm->graph), ==, before);
  fx_graph_view_zoom_to_fit (f->view);
  ui_test_wait_frames (GTK_WIDGET (f->view), 3);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, conv1, &a));
  g_assert_cmpuint (shoot (f, "graph-view-collapsed"), >, 40);

  /* Double-click on the collapsed box expands it again. */
  fx_graph_view_press_at (f->view, a.origin.x + a.size.width / 2, a.origin.y + a.size.height / 2, 2, 0);
  g_assert_false (fx_graph_view_get_module_collapsed (f->view, "layer1"));
  wait_layout (f);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, conv1, &a));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, conv2, &b));
  g_assert_false (graphene_rect_equal (&a, &b));
  g_assert_true (fx_graph_view_node_at (f->view, a.origin.x + a.size.width / 2,
                                        a.origin.y + a.size.height / 2) == conv1);

  /* Double-click on a module's title strip (the top of its frame) collapses it. */
  fx_graph_view_zoom_reset (f->view);
  fx_graph_view_center_on_node (f->view, node (f, "layer2_0_downsample_0"));
  g_assert_true (fx_graph_view_get_module_bounds (f->view, "layer2.0.downsample", &header));
  fx_graph_view_press_at (f->view, header.origin.x + 30, header.origin.y + 6, 2, 0);
  g_assert_true (fx_graph_view_get_module_collapsed (f->view, "layer2.0.downsample"));
  wait_layout (f);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer2_0_downsample_0"), &a));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer2_0_downsample_1"), &b));
  g_assert_true (graphene_rect_equal (&a, &b));
  /* ... and the collapsed box stays where the frame was. */
  g_assert_cmpfloat_with_epsilon (a.origin.y, header.origin.y, 1);

  /* A relayout that changes no structure keeps every position and needs no worker. */
  fx_graph_view_relayout (f->view);
  g_assert_false (fx_graph_view_get_layout_running (f->view));
  g_assert_true (f->finished);
  f->finished = FALSE;
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer2_0_downsample_1"), &b));
  g_assert_true (graphene_rect_equal (&a, &b));
}

static void
test_zoom_to_fit (Fixture *f, gconstpointer data)
{
  GtkWidget *widget = GTK_WIDGET (f->view);
  graphene_rect_t view_rect = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                  gtk_widget_get_height (widget));
  fx_graph_view_zoom_to_fit (f->view);
  double fit_zoom = fx_graph_view_get_zoom (f->view);

  fx_graph_view_zoom_in (f->view);
  fx_graph_view_zoom_in (f->view);
  g_assert_cmpfloat (fx_graph_view_get_zoom (f->view), >, fit_zoom * 1.5);
  fx_graph_view_zoom_out (f->view);
  g_assert_cmpfloat_with_epsilon (fx_graph_view_get_zoom (f->view), fit_zoom * 1.25, 1e-9);
  fx_graph_view_zoom_to_fit (f->view);
  g_assert_cmpfloat_with_epsilon (fx_graph_view_get_zoom (f->view), fit_zoom, 1e-9);
  for (FxNode *n = fx_graph_first (f->gm->graph); n; n = fx_node_next (n))
    {
      graphene_rect_t r;
      g_assert_true (fx_graph_view_get_node_bounds (f->view, n, &r));
      g_assert_true (graphene_rect_contains_rect (&view_rect, &r));
    }
  g_object_set (f->view, "zoom", 2.0, NULL);
  g_assert_cmpfloat_with_epsilon (fx_graph_view_get_zoom (f->view), 2.0, 1e-9);
}

static void
test_dark_and_search_hits (Fixture *f, gconstpointer data)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  graphene_rect_t r;

  g_ptr_array_add (hits, node (f, "layer2_0_conv1"));
  g_ptr_array_add (hits, node (f, "layer2_1_conv1"));
  fx_graph_view_set_search_hits (f->view, hits);
  fx_graph_view_zoom_reset (f->view);
  fx_graph_view_center_on_node (f->view, node (f, "layer2_0_conv1"));
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  ui_test_wait_frames (GTK_WIDGET (f->view), 3);
  g_assert_cmpuint (shoot (f, "graph-view-dark"), >, 100);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, node (f, "layer2_0_conv1"), &r));
  g_assert_cmpuint (painted_pixels (f, &r), >, r.size.width * r.size.height * 0.9);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  fx_graph_view_set_search_hits (f->view, NULL);
}

static void
count_layouts (FxGraphView *view, const GError *error, int *count)
{
  g_assert_null (error);
  (*count)++;
}

static void
test_replace_cancels (Fixture *f, gconstpointer data)
{
  /* A newer graph cancels the layout in flight: one layout-finished, for the newer one. */
  int finished = 0;
  gulong id = g_signal_connect (f->view, "layout-finished", G_CALLBACK (count_layouts), &finished);

  fx_graph_view_set_graph_module (f->view, f->gm);
  fx_graph_view_set_graph_module (f->view, f->gm);
  g_assert_true (ui_test_wait_for (&f->finished, 20000));
  ui_test_wait_frames (GTK_WIDGET (f->view), 5);
  g_assert_cmpint (finished, ==, 1);
  g_signal_handler_disconnect (f->view, id);
  fx_graph_view_set_graph_module (f->view, NULL);
  g_assert_null (fx_graph_view_get_graph_module (f->view));
  g_assert_false (fx_graph_view_get_layout_running (f->view));
  graphene_rect_t r;
  g_assert_false (fx_graph_view_get_node_bounds (f->view, node (f, "x"), &r));
}

/* A real network: DenseNet-121 traced from source opens readable, fits, and its modules fold. */
static void
test_densenet (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "core", "trace",
                                            "torchvision", "models", "densenet.py", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(FxGraphModule) densenet = fx_trace_file (path, "DenseNet", NULL, NULL, &error);
  graphene_rect_t a, b;

  g_assert_no_error (error);
  fx_graph_view_set_graph_module (f->view, densenet);
  wait_layout (f);
  g_assert_cmpuint (shoot (f, "graph-view-densenet"), >, 100);
  fx_graph_view_zoom_to_fit (f->view);
  g_assert_cmpuint (shoot (f, "graph-view-densenet-fit"), >, 20);
  /* Data flows down along every edge, the concat fan-in drawn beside the boxes included
   * (dot alone sent 65 of them upward through the nested clusters). */
  for (FxNode *n = fx_graph_first (densenet->graph); n; n = fx_node_next (n))
    {
      FxNode *input;
      g_assert_true (fx_graph_view_get_node_bounds (f->view, n, &b));
      for (guint pos = 0; fx_node_set_iter (&n->input_nodes, &pos, &input);)
        {
          g_assert_true (fx_graph_view_get_node_bounds (f->view, input, &a));
          g_assert_cmpfloat (a.origin.y + a.size.height, <=, b.origin.y);
        }
    }
  FxNode *mid = fx_graph_find_node_by_name (densenet->graph, "features_denseblock3_denselayer12_conv1");
  g_assert_nonnull (mid);
  fx_graph_view_set_zoom (f->view, 0.6);
  fx_graph_view_center_on_node (f->view, mid);
  ui_test_wait_frames (GTK_WIDGET (f->view), 3);
  g_assert_cmpuint (shoot (f, "graph-view-densenet-block3"), >, 100);
  FxNode *norm = fx_graph_find_node_by_name (densenet->graph, "features_denseblock2_denselayer3_norm1");
  FxNode *conv = fx_graph_find_node_by_name (densenet->graph, "features_denseblock2_denselayer7_conv2");
  g_assert_nonnull (norm);
  g_assert_nonnull (conv);
  fx_graph_view_set_module_collapsed (f->view, "features.denseblock2", TRUE);
  wait_layout (f);
  g_assert_true (fx_graph_view_get_node_bounds (f->view, norm, &a));
  g_assert_true (fx_graph_view_get_node_bounds (f->view, conv, &b));
  g_assert_true (graphene_rect_equal (&a, &b));
  fx_graph_view_select_nodes (f->view, &norm, 1, TRUE);
  g_assert_cmpuint (shoot (f, "graph-view-densenet-folded"), >, 100);
  fx_graph_view_set_graph_module (f->view, f->gm);
  wait_layout (f);
}

int
main (int argc, char **argv)
{
  int status;

  ui_test_init (&argc, &argv);
#define ADD(path, fn) g_test_add ("/graph-view/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("layout-example", test_layout_example);
  ADD ("click-and-rubber-band", test_click_and_rubber_band);
  ADD ("collapse-expand", test_collapse_expand);
  ADD ("hover", test_hover);
  ADD ("context-menu", test_context_menu);
  ADD ("zoom-to-fit", test_zoom_to_fit);
  ADD ("dark-and-search-hits", test_dark_and_search_hits);
  ADD ("replace-cancels", test_replace_cancels);
  ADD ("densenet", test_densenet);
  status = g_test_run ();
  g_object_unref (ui_test_app);
  return status;
}
