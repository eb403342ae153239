/* test-panes.c: the panes beside the graph on the example model — search over the graph,
 * selection kept in step between graph, generated code, node table and inspector, the
 * code's line map against the code itself, and the table's rows and sorting. Screenshots
 * of each state go to $FX_SCREENSHOT_DIR. */
#include "ui-test.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

static FxWindow *window;
static FxGraphModule *gm;

static FxNode *
selected_in_graph (void)
{
  g_autoptr (GPtrArray) selection = fx_graph_view_get_selection (FX_GRAPH_VIEW (fx_window_get_graph_view (window)));
  return selection->len == 1 ? selection->pdata[0] : NULL;
}

static char *
code_line (FxCodeView *code, int line)
{
  g_auto (GStrv) lines = g_strsplit (fx_code_view_get_code (code), "\n", -1);
  g_assert_cmpint (line, >=, 1);
  g_assert_cmpint (line, <=, (int) g_strv_length (lines));
  return g_strdup (lines[line - 1]);
}

static gboolean
matches (FxNode *node, const char *query)
{
  g_autofree char *target = fx_node_pretty_target (node);
  g_autofree char *a = g_utf8_casefold (node->name, -1);
  g_autofree char *b = g_utf8_casefold (fx_node_op_name (node->op), -1);
  g_autofree char *c = g_utf8_casefold (target, -1);
  return strstr (a, query) || strstr (b, query) || strstr (c, query);
}

static void
press_enter (GtkWidget *entry, GdkModifierType state)
{
  if (state & GDK_SHIFT_MASK)
    g_signal_emit_by_name (entry, "previous-match");
  else
    g_signal_emit_by_name (entry, "activate");
}

static void
test_search_selects_and_cycles (void)
{
  GtkWidget *entry = fx_window_get_search_entry (window);
  g_autoptr (GPtrArray) expected = g_ptr_array_new ();
  guint n_hits = 0;

  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  ui_test_wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_get_mapped (entry));
  for (FxNode *node = fx_graph_first (gm->graph); node; node = fx_node_next (node))
    if (matches (node, "relu"))
      g_ptr_array_add (expected, node);
  g_assert_cmpuint (expected->len, >, 3);

  fx_window_search (window, "ReLU");
  g_assert_cmpint (fx_window_get_search_position (window, &n_hits), ==, -1);
  g_assert_cmpuint (n_hits, ==, expected->len);

  press_enter (entry, 0);
  g_assert_cmpint (fx_window_get_search_position (window, NULL), ==, 0);
  g_assert_true (selected_in_graph () == expected->pdata[0]);
  press_enter (entry, 0);
  g_assert_true (selected_in_graph () == expected->pdata[1]);
  press_enter (entry, GDK_SHIFT_MASK);
  press_enter (entry, GDK_SHIFT_MASK);
  /* backwards from the first wraps to the last */
  g_assert_cmpint (fx_window_get_search_position (window, NULL), ==, (int) expected->len - 1);
  g_assert_true (selected_in_graph () == expected->pdata[expected->len - 1]);
  g_assert_true (fx_node_inspector_get_node (FX_NODE_INSPECTOR (fx_window_get_inspector (window)))
                 == expected->pdata[expected->len - 1]);
  ui_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "panes-search"), >, 64);

  /* by target: every call_module of a Conv2d is named like its module path */
  fx_window_search (window, "downsample");
  fx_window_get_search_position (window, &n_hits);
  g_assert_cmpuint (n_hits, ==, 2);
  fx_window_search (window, "no such node");
  fx_window_get_search_position (window, &n_hits);
  g_assert_cmpuint (n_hits, ==, 0);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "find", g_variant_new_boolean (FALSE));
}

/* Every line the map names holds that node's statement, and every non-placeholder node has one. */
static void
test_code_line_map (void)
{
  FxCodeView *code = FX_CODE_VIEW (fx_window_get_code_view (window));
  g_auto (GStrv) lines = g_strsplit (fx_code_view_get_code (code), "\n", -1);
  guint mapped = 0;

  g_assert_cmpstr (fx_code_view_get_code (code), ==, gm->code);
  for (FxNode *node = fx_graph_first (gm->graph); node; node = fx_node_next (node))
    {
      int line = fx_code_view_get_node_line (code, node);
      g_autofree char *prefix = NULL;

      if (node->op == FX_OP_PLACEHOLDER)
        continue;
      g_assert_cmpint (line, >, 0);
      prefix = node->op == FX_OP_OUTPUT ? g_strdup ("    return ") : g_strdup_printf ("    %s = ", node->name);
      g_assert_true (g_str_has_prefix (lines[line - 1], prefix));
      g_assert_true (fx_code_view_get_line_node (code, line) == node);
      mapped++;
    }
  g_assert_cmpuint (mapped, ==, fx_graph_n_nodes (gm->graph) - 1);
  /* the def line belongs to no node */
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "def forward("))
      g_assert_null (fx_code_view_get_line_node (code, i + 1));
}

static void
test_code_to_graph_selection (void)
{
  FxCodeView *code = FX_CODE_VIEW (fx_window_get_code_view (window));
  FxNode *node = fx_graph_find_node_by_name (gm->graph, "layer1_1_bn2");
  int line = fx_code_view_get_node_line (code, node);
  g_autofree char *text = code_line (code, line);

  fx_window_show_sidebar_page (window, "code");
  g_assert_true (g_str_has_prefix (text, "    layer1_1_bn2 = getattr(self.layer1, \"1\").bn2("));
  fx_code_view_activate_line (code, line);
  g_assert_true (selected_in_graph () == node);
  g_assert_true (fx_node_table_get_selected (FX_NODE_TABLE (fx_window_get_node_table (window))) == node);
  g_assert_true (fx_node_inspector_get_node (FX_NODE_INSPECTOR (fx_window_get_inspector (window))) == node);
  g_assert_cmpint (fx_code_view_get_highlighted_line (code), ==, line);
  ui_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "panes-code-to-graph"), >, 64);
}

static void
test_graph_to_code_selection (void)
{
  FxCodeView *code = FX_CODE_VIEW (fx_window_get_code_view (window));
  FxSourcePane *pane = FX_SOURCE_PANE (fx_code_view_get_source_pane (code));
  FxNode *node = fx_graph_find_node_by_name (gm->graph, "log_softmax");
  int line;

  fx_window_show_sidebar_page (window, "code");
  fx_graph_view_select_nodes (FX_GRAPH_VIEW (fx_window_get_graph_view (window)), &node, 1, TRUE);
  line = fx_code_view_get_node_line (code, node);
  g_assert_cmpint (line, >, 20);
  g_assert_cmpint (fx_code_view_get_highlighted_line (code), ==, line);
  g_assert_cmpint (fx_source_pane_get_cursor_line (pane), ==, line);
  ui_test_wait_frames (GTK_WIDGET (window), 4);
  /* scrolled to: the last statements are below the fold of a fresh view */
  g_assert_true (fx_source_pane_line_visible (pane, line));
  g_assert_true (fx_node_table_get_selected (FX_NODE_TABLE (fx_window_get_node_table (window))) == node);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "panes-graph-to-code"), >, 64);
}

static void
test_inspector_shows_module (void)
{
  FxNodeInspector *inspector = FX_NODE_INSPECTOR (fx_window_get_inspector (window));
  FxNode *node = fx_graph_find_node_by_name (gm->graph, "layer2_0_conv1");
  FxModule *module = fx_module_get_submodule (gm->module, "layer2.0.conv1", NULL);
  g_autofree char *repr = fx_module_repr (module);
  FxNode *user;
  guint pos = 0;

  fx_window_show_sidebar_page (window, "inspector");
  fx_graph_view_select_nodes (FX_GRAPH_VIEW (fx_window_get_graph_view (window)), &node, 1, TRUE);
  g_assert_true (fx_node_inspector_get_node (inspector) == node);
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "op"), ==, "call_module");
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "name"), ==, "layer2_0_conv1");
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "target"), ==, "layer2.0.conv1");
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "args"), ==, "(layer1_1_relu_1,)");
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "kwargs"), ==, "{}");
  g_assert_true (fx_node_set_iter (&node->users, &pos, &user));
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "users"), ==, user->name);
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "module"), ==, repr);
  /* conv3x3(16, 32, stride=2) of the example: no bias */
  g_assert_true (g_str_has_prefix (repr, "Conv2d(16, 32, kernel_size=(3, 3), stride=(2, 2)"));
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "parameters"), ==, "weight: torch.Size([32, 16, 3, 3])");
  ui_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "panes-inspector"), >, 64);

  /* a function node has no module section */
  node = fx_graph_find_node_by_name (gm->graph, "flatten");
  fx_graph_view_select_nodes (FX_GRAPH_VIEW (fx_window_get_graph_view (window)), &node, 1, TRUE);
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "target"), ==, "torch.flatten");
  g_assert_cmpstr (fx_node_inspector_get_field (inspector, "args"), ==, "(avgpool, 1)");
  g_assert_null (fx_node_inspector_get_field (inspector, "module"));
}

static void
assert_sorted (FxNodeTable *table, FxNodeTableColumn column, int direction)
{
  guint n = fx_node_table_get_n_rows (table);

  for (guint i = 1; i < n; i++)
    {
      g_autofree char *a = g_utf8_casefold (fx_node_table_get_cell (table, i - 1, column), -1);
      g_autofree char *b = g_utf8_casefold (fx_node_table_get_cell (table, i, column), -1);
      g_assert_cmpint (direction * g_utf8_collate (a, b), <=, 0);
    }
}

static void
test_table_lists_and_sorts (void)
{
  FxNodeTable *table = FX_NODE_TABLE (fx_window_get_node_table (window));
  g_autofree char *first = NULL;
  guint i = 0;
  FxNode *node;

  fx_window_show_sidebar_page (window, "table");
  fx_node_table_sort_by (table, -1, GTK_SORT_ASCENDING);
  g_assert_cmpuint (fx_node_table_get_n_rows (table), ==, fx_graph_n_nodes (gm->graph));
  /* unsorted: graph order, print_tabular's cells */
  for (node = fx_graph_first (gm->graph); node; node = fx_node_next (node), i++)
    {
      g_assert_true (fx_node_table_get_row_node (table, i) == node);
      g_assert_cmpstr (fx_node_table_get_cell (table, i, FX_NODE_TABLE_OPCODE), ==, fx_node_op_name (node->op));
      g_assert_cmpstr (fx_node_table_get_cell (table, i, FX_NODE_TABLE_NAME), ==, node->name);
    }
  g_assert_cmpstr (fx_node_table_get_cell (table, 0, FX_NODE_TABLE_NAME), ==, "x");
  g_assert_cmpstr (fx_node_table_get_cell (table, i - 1, FX_NODE_TABLE_OPCODE), ==, "output");

  fx_node_table_sort_by (table, FX_NODE_TABLE_NAME, GTK_SORT_ASCENDING);
  assert_sorted (table, FX_NODE_TABLE_NAME, 1);
  /* the first row is the smallest name of the graph */
  for (node = fx_graph_first (gm->graph); node; node = fx_node_next (node))
    {
      g_autofree char *folded = g_utf8_casefold (node->name, -1);
      if (first == NULL || g_utf8_collate (folded, first) < 0)
        g_free (first), first = g_steal_pointer (&folded);
    }
  g_assert_cmpstr (first, ==, "add");
  g_assert_cmpstr (fx_node_table_get_cell (table, 0, FX_NODE_TABLE_NAME), ==, first);
  fx_node_table_sort_by (table, FX_NODE_TABLE_OPCODE, GTK_SORT_DESCENDING);
  assert_sorted (table, FX_NODE_TABLE_OPCODE, -1);
  g_assert_cmpstr (fx_node_table_get_cell (table, 0, FX_NODE_TABLE_OPCODE), ==, "placeholder");
  g_assert_cmpuint (fx_node_table_get_n_rows (table), ==, fx_graph_n_nodes (gm->graph));

  /* choosing a row selects its node everywhere */
  fx_node_table_sort_by (table, FX_NODE_TABLE_NAME, GTK_SORT_ASCENDING);
  node = fx_node_table_get_row_node (table, 3);
  fx_node_table_activate_row (table, 3);
  g_assert_true (fx_node_table_get_selected (table) == node);
  g_assert_true (selected_in_graph () == node);
  g_assert_true (fx_node_inspector_get_node (FX_NODE_INSPECTOR (fx_window_get_inspector (window))) == node);
  ui_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "panes-table-sorted"), >, 64);
}

/* Dark mode follows the style manager: the code pane switches to the dark scheme too. */
static void
test_dark_mode (void)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  FxCodeView *code = FX_CODE_VIEW (fx_window_get_code_view (window));
  GtkWidget *pane = fx_code_view_get_source_pane (code);
  GtkTextView *view = NULL;
  GtkSourceStyleScheme *scheme;

  fx_window_show_sidebar_page (window, "code");
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  ui_test_wait_frames (GTK_WIDGET (window), 3);
  for (GtkWidget *w = pane; w != NULL && view == NULL; w = gtk_widget_get_first_child (w))
    if (GTK_IS_TEXT_VIEW (w))
      view = GTK_TEXT_VIEW (w);
  g_assert_nonnull (view);
  scheme = gtk_source_buffer_get_style_scheme (GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (view)));
  g_assert_cmpstr (gtk_source_style_scheme_get_id (scheme), ==, "Adwaita-dark");
  g_assert_cmpuint (ui_test_screenshot (GTK_WIDGET (window), "panes-dark"), >, 64);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

/* A line scrolled to stays in view when the pane shrinks afterwards (an error's line near
 * the end of the file, the error's text above the pane filled in after the scroll): the
 * view had clamped its scroll to the end for its first, taller size, and keeping that
 * offset hid the file's last lines. */
static void
test_source_line_survives_shrinking (void)
{
  GtkWidget *win = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *above = gtk_label_new ("");
  FxSourcePane *pane = FX_SOURCE_PANE (fx_source_pane_new ());
  g_autoptr (GString) text = g_string_new (NULL);
  int line = 127;

  for (int i = 1; i <= 130; i++)
    g_string_append_printf (text, "x_%d = %d\n", i, i);
  gtk_widget_set_vexpand (GTK_WIDGET (pane), TRUE);
  gtk_box_append (GTK_BOX (box), above);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (pane));
  gtk_window_set_child (GTK_WINDOW (win), box);
  gtk_window_set_default_size (GTK_WINDOW (win), 600, 700);
  gtk_window_present (GTK_WINDOW (win));
  fx_source_pane_set_text (pane, text->str);
  fx_source_pane_highlight_line (pane, line, TRUE);
  ui_test_wait_frames (win, 4);
  g_assert_true (fx_source_pane_line_visible (pane, line));
  gtk_widget_set_size_request (above, -1, 450);
  ui_test_wait_frames (win, 4);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (pane)), <, 300);
  g_assert_true (fx_source_pane_line_visible (pane, line));
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  int status;

  ui_test_init (&argc, &argv);
  window = ui_test_new_mapped_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  ui_test_open_example (window, "resnet_block.py", "TinyResNet");
  gm = fx_window_get_graph_module (window);

  g_test_add_func ("/panes/search-selects-and-cycles", test_search_selects_and_cycles);
  g_test_add_func ("/panes/code-line-map", test_code_line_map);
  g_test_add_func ("/panes/code-to-graph-selection", test_code_to_graph_selection);
  g_test_add_func ("/panes/graph-to-code-selection", test_graph_to_code_selection);
  g_test_add_func ("/panes/inspector-shows-module", test_inspector_shows_module);
  g_test_add_func ("/panes/table-lists-and-sorts", test_table_lists_and_sorts);
  g_test_add_func ("/panes/dark-mode", test_dark_mode);
  g_test_add_func ("/panes/source-line-survives-shrinking", test_source_line_survives_shrinking);
  status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (ui_test_app);
  return status;
}
