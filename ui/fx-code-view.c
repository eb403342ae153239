/* fx-code-view.c: FxCodeView — GraphModule.code in an FxSourcePane, with the codegen's line map
 * turning clicks into nodes and nodes into highlighted lines. */
#include "fx-code-view.h"
#include "fx-source-pane.h"

struct _FxCodeView {
  GtkWidget parent_instance;
  FxSourcePane *pane;

  FxGraphModule *gm;
  char *code;
  GPtrArray *line_nodes;     /* 0-based line → FxNode* or NULL */
  GHashTable *node_lines;    /* FxNode* → 1-based line */
};

G_DEFINE_FINAL_TYPE (FxCodeView, fx_code_view, GTK_TYPE_WIDGET)

enum { SIGNAL_NODE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

void
fx_code_view_activate_line (FxCodeView *self, int line)
{
  FxNode *node;

  g_return_if_fail (FX_IS_CODE_VIEW (self));
  node = fx_code_view_get_line_node (self, line);
  if (node == NULL)
    return;
  fx_source_pane_highlight_line (self->pane, line, FALSE);
  g_signal_emit (self, signals[SIGNAL_NODE_ACTIVATED], 0, node);
}

static void
on_line_activated (FxSourcePane *pane, int line, gpointer user_data)
{
  fx_code_view_activate_line (FX_CODE_VIEW (user_data), line);
}

static void
fx_code_view_dispose (GObject *object)
{
  FxCodeView *self = FX_CODE_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_CODE_VIEW);
  g_clear_pointer (&self->gm, fx_graph_module_unref);
  g_clear_pointer (&self->code, g_free);
  g_clear_pointer (&self->line_nodes, g_ptr_array_unref);
  g_clear_pointer (&self->node_lines, g_hash_table_unref);
  G_OBJECT_CLASS (fx_code_view_parent_class)->dispose (object);
}

static void
fx_code_view_class_init (FxCodeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_code_view_dispose;

  /* (FxNode *node): the user clicked the statement of node. */
  signals[SIGNAL_NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  g_type_ensure (FX_TYPE_SOURCE_PANE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-code-view.ui");
  gtk_widget_class_bind_template_child (widget_class, FxCodeView, pane);
  gtk_widget_class_bind_template_callback (widget_class, on_line_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fxcodeview");
}

static void
fx_code_view_init (FxCodeView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->line_nodes = g_ptr_array_new ();
  self->node_lines = g_hash_table_new (g_direct_hash, g_direct_equal);
}

GtkWidget *
fx_code_view_new (void)
{
  return g_object_new (FX_TYPE_CODE_VIEW, NULL);
}

void
fx_code_view_set_graph_module (FxCodeView *self, FxGraphModule *gm)
{
  g_return_if_fail (FX_IS_CODE_VIEW (self));

  if (gm != NULL)
    fx_graph_module_ref (gm);
  g_clear_pointer (&self->gm, fx_graph_module_unref);
  self->gm = gm;
  g_clear_pointer (&self->code, g_free);
  g_ptr_array_set_size (self->line_nodes, 0);
  g_hash_table_remove_all (self->node_lines);

  if (gm != NULL)
    {
      /* "self" is what GraphModule.recompile() passes as the root module's name. */
      self->code = fx_graph_python_code_with_lines (gm->graph, "self", FALSE, self->line_nodes);
      for (guint i = 0; i < self->line_nodes->len; i++)
        if (self->line_nodes->pdata[i] != NULL)
          g_hash_table_insert (self->node_lines, self->line_nodes->pdata[i], GINT_TO_POINTER (i + 1));
    }
  fx_source_pane_set_text (self->pane, self->code);
}

const char *
fx_code_view_get_code (FxCodeView *self)
{
  g_return_val_if_fail (FX_IS_CODE_VIEW (self), NULL);
  return self->code;
}

int
fx_code_view_get_node_line (FxCodeView *self, FxNode *node)
{
  g_return_val_if_fail (FX_IS_CODE_VIEW (self), 0);
  return GPOINTER_TO_INT (g_hash_table_lookup (self->node_lines, node));
}

FxNode *
fx_code_view_get_line_node (FxCodeView *self, int line)
{
  g_return_val_if_fail (FX_IS_CODE_VIEW (self), NULL);
  if (line < 1 || (guint) line > self->line_nodes->len)
    return NULL;
  return self->line_nodes->pdata[line - 1];
}

void
fx_code_view_show_node (FxCodeView *self, FxNode *node)
{
  g_return_if_fail (FX_IS_CODE_VIEW (self));
  fx_source_pane_highlight_line (self->pane, node ? fx_code_view_get_node_line (self, node) : 0,
                                 TRUE);
}

int
fx_code_view_get_highlighted_line (FxCodeView *self)
{
  g_return_val_if_fail (FX_IS_CODE_VIEW (self), 0);
  return fx_source_pane_get_highlighted_line (self->pane);
}

GtkWidget *
fx_code_view_get_source_pane (FxCodeView *self)
{
  g_return_val_if_fail (FX_IS_CODE_VIEW (self), NULL);
  return GTK_WIDGET (self->pane);
}
