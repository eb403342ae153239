/* fx-node-table.c: FxNodeTable — a GtkColumnView over one small row object per node; its
 * header sorter orders the rows, and selecting a row reports the node. */
#include "fx-node-table.h"

/* One row: the node and its five cells as print_tabular would show them. */
#define FX_TYPE_NODE_ROW (fx_node_row_get_type ())
G_DECLARE_FINAL_TYPE (FxNodeRow, fx_node_row, FX, NODE_ROW, GObject)

struct _FxNodeRow {
  GObject parent_instance;
  FxNode *node;
  char *cells[FX_NODE_TABLE_N_COLUMNS];
};

G_DEFINE_FINAL_TYPE (FxNodeRow, fx_node_row, G_TYPE_OBJECT)

static const char *const column_keys[FX_NODE_TABLE_N_COLUMNS] = {
  "opcode", "name", "target", "args", "kwargs",
};
static GParamSpec *row_props[FX_NODE_TABLE_N_COLUMNS + 1];

static void
fx_node_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FxNodeRow *self = FX_NODE_ROW (object);

  if (prop_id >= 1 && prop_id <= FX_NODE_TABLE_N_COLUMNS)
    g_value_set_string (value, self->cells[prop_id - 1]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
fx_node_row_finalize (GObject *object)
{
  FxNodeRow *self = FX_NODE_ROW (object);

  for (int i = 0; i < FX_NODE_TABLE_N_COLUMNS; i++)
    g_free (self->cells[i]);
  G_OBJECT_CLASS (fx_node_row_parent_class)->finalize (object);
}

static void
fx_node_row_class_init (FxNodeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = fx_node_row_get_property;
  object_class->finalize = fx_node_row_finalize;
  for (int i = 0; i < FX_NODE_TABLE_N_COLUMNS; i++)
    row_props[i + 1] = g_param_spec_string (column_keys[i], NULL, NULL, NULL,
                                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, FX_NODE_TABLE_N_COLUMNS + 1, row_props);
}

static void
fx_node_row_init (FxNodeRow *self)
{
}

static FxNodeRow *
fx_node_row_new (FxNode *node)
{
  FxNodeRow *row = g_object_new (FX_TYPE_NODE_ROW, NULL);
  GString *text = g_string_new (NULL);

  row->node = node;
  row->cells[FX_NODE_TABLE_OPCODE] = g_strdup (fx_node_op_name (node->op));
  row->cells[FX_NODE_TABLE_NAME] = g_strdup (node->name);
  row->cells[FX_NODE_TABLE_TARGET] = fx_node_pretty_target (node);
  fx_value_repr (&node->args, text);
  row->cells[FX_NODE_TABLE_ARGS] = g_strdup (text->str);
  g_string_truncate (text, 0);
  fx_value_repr (&node->kwargs, text);
  row->cells[FX_NODE_TABLE_KWARGS] = g_string_free (text, FALSE);
  return row;
}

struct _FxNodeTable {
  GtkWidget parent_instance;
  GtkWidget *scroller;
  GtkColumnView *column_view;

  GListStore *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;
  GtkColumnViewColumn *columns[FX_NODE_TABLE_N_COLUMNS];
  gboolean updating;         /* selection set by the program: not the user's */
};

G_DEFINE_FINAL_TYPE (FxNodeTable, fx_node_table, GTK_TYPE_WIDGET)

enum { SIGNAL_NODE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
on_setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_list_item_set_child (item, label);
}

static void
on_bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  FxNodeRow *row = gtk_list_item_get_item (item);
  const char *text = row->cells[GPOINTER_TO_INT (user_data)];
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
}

static void
on_selection_changed (GtkSelectionModel *model, guint position, guint n_items, gpointer user_data)
{
  FxNodeTable *self = FX_NODE_TABLE (user_data);
  FxNode *node;

  if (self->updating)
    return;
  node = fx_node_table_get_selected (self);
  if (node != NULL)
    g_signal_emit (self, signals[SIGNAL_NODE_ACTIVATED], 0, node);
}

static void
fx_node_table_dispose (GObject *object)
{
  FxNodeTable *self = FX_NODE_TABLE (object);

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_NODE_TABLE);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (fx_node_table_parent_class)->dispose (object);
}

static void
fx_node_table_class_init (FxNodeTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_node_table_dispose;

  /* (FxNode *node): the user selected node's row. */
  signals[SIGNAL_NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-node-table.ui");
  gtk_widget_class_bind_template_child (widget_class, FxNodeTable, scroller);
  gtk_widget_class_bind_template_child (widget_class, FxNodeTable, column_view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fxnodetable");
}

static void
fx_node_table_init (FxNodeTable *self)
{
  static const char *const titles[FX_NODE_TABLE_N_COLUMNS] = {
    "opcode", "name", "target", "args", "kwargs",
  };
  static const int widths[FX_NODE_TABLE_N_COLUMNS] = { 112, 150, 150, 170, 110 };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->store = g_list_store_new (FX_TYPE_NODE_ROW);
  for (int i = 0; i < FX_NODE_TABLE_N_COLUMNS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkExpression *expression = gtk_property_expression_new (FX_TYPE_NODE_ROW, NULL, column_keys[i]);
      GtkSorter *sorter = GTK_SORTER (gtk_string_sorter_new (expression));

      g_signal_connect (factory, "setup", G_CALLBACK (on_setup_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (on_bind_cell), GINT_TO_POINTER (i));
      self->columns[i] = gtk_column_view_column_new (titles[i], factory);
      gtk_column_view_column_set_sorter (self->columns[i], sorter);
      gtk_column_view_column_set_resizable (self->columns[i], TRUE);
      /* Wide enough to read most names; longer cells end in … with the text as a tooltip. */
      gtk_column_view_column_set_fixed_width (self->columns[i], widths[i]);
      gtk_column_view_append_column (self->column_view, self->columns[i]);
      g_object_unref (self->columns[i]);
      g_object_unref (sorter);
    }

  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (g_object_ref (self->selection)));
}

GtkWidget *
fx_node_table_new (void)
{
  return g_object_new (FX_TYPE_NODE_TABLE, NULL);
}

void
fx_node_table_set_graph_module (FxNodeTable *self, FxGraphModule *gm)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (FX_IS_NODE_TABLE (self));
  if (gm != NULL)
    for (FxNode *node = fx_graph_first (gm->graph); node != NULL; node = fx_node_next (node))
      g_ptr_array_add (rows, fx_node_row_new (node));
  self->updating = TRUE;
  /* One splice: the sorter runs once over all rows, not once per row. */
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       rows->pdata, rows->len);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->updating = FALSE;
}

void
fx_node_table_select_node (FxNodeTable *self, FxNode *node)
{
  guint n, position = GTK_INVALID_LIST_POSITION;

  g_return_if_fail (FX_IS_NODE_TABLE (self));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  for (guint i = 0; node != NULL && i < n; i++)
    {
      g_autoptr (FxNodeRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      if (row->node == node)
        {
          position = i;
          break;
        }
    }
  self->updating = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->updating = FALSE;
  /* The column view's rows live in an inner GtkListView, which owns the scrolling action. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL && position != GTK_INVALID_LIST_POSITION;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

FxNode *
fx_node_table_get_selected (FxNodeTable *self)
{
  FxNodeRow *row;

  g_return_val_if_fail (FX_IS_NODE_TABLE (self), NULL);
  row = gtk_single_selection_get_selected_item (self->selection);
  return row ? row->node : NULL;
}

guint
fx_node_table_get_n_rows (FxNodeTable *self)
{
  g_return_val_if_fail (FX_IS_NODE_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

const char *
fx_node_table_get_cell (FxNodeTable *self, guint row, FxNodeTableColumn column)
{
  g_autoptr (FxNodeRow) item = NULL;

  g_return_val_if_fail (FX_IS_NODE_TABLE (self), NULL);
  g_return_val_if_fail (column < FX_NODE_TABLE_N_COLUMNS, NULL);
  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);
  /* The store holds a reference: the text outlives this one. */
  return item ? item->cells[column] : NULL;
}

FxNode *
fx_node_table_get_row_node (FxNodeTable *self, guint row)
{
  g_autoptr (FxNodeRow) item = NULL;

  g_return_val_if_fail (FX_IS_NODE_TABLE (self), NULL);
  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);
  return item ? item->node : NULL;
}

void
fx_node_table_activate_row (FxNodeTable *self, guint row)
{
  g_return_if_fail (FX_IS_NODE_TABLE (self));
  gtk_single_selection_set_selected (self->selection, row);
}

void
fx_node_table_sort_by (FxNodeTable *self, int column, GtkSortType order)
{
  g_return_if_fail (FX_IS_NODE_TABLE (self));
  g_return_if_fail (column < FX_NODE_TABLE_N_COLUMNS);
  gtk_column_view_sort_by_column (self->column_view, column >= 0 ? self->columns[column] : NULL,
                                  order);
}
