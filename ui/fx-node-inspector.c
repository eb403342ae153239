/* fx-node-inspector.c: FxNodeInspector — a boxed list of caption/value rows for the selected
 * node; values are selectable monospace text so they can be copied into code. */
#include "fx-node-inspector.h"

#include <adwaita.h>

struct _FxNodeInspector {
  GtkWidget parent_instance;
  GtkStack *stack;
  GtkListBox *fields;
  GtkWidget *module_group;
  GtkLabel *module_repr;
  GtkListBox *parameters;
  GtkWidget *meta_group;
  GtkListBox *meta;

  FxNode *node;
  GHashTable *texts;         /* field name → text shown */
};

G_DEFINE_FINAL_TYPE (FxNodeInspector, fx_node_inspector, GTK_TYPE_WIDGET)

static void
fx_node_inspector_dispose (GObject *object)
{
  FxNodeInspector *self = FX_NODE_INSPECTOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FX_TYPE_NODE_INSPECTOR);
  g_clear_pointer (&self->texts, g_hash_table_unref);
  G_OBJECT_CLASS (fx_node_inspector_parent_class)->dispose (object);
}

static void
fx_node_inspector_class_init (FxNodeInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fx_node_inspector_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/fxeditor/FxEditor/ui/fx-node-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, stack);
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, fields);
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, module_group);
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, module_repr);
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, parameters);
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, meta_group);
  gtk_widget_class_bind_template_child (widget_class, FxNodeInspector, meta);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fxnodeinspector");
}

static void
fx_node_inspector_init (FxNodeInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->texts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
}

GtkWidget *
fx_node_inspector_new (void)
{
  return g_object_new (FX_TYPE_NODE_INSPECTOR, NULL);
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

/* A row: the caption small and dimmed above its value. */
static void
add_row (GtkListBox *list, const char *caption, const char *value)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (caption);
  GtkWidget *text = gtk_label_new (value);
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_widget_add_css_class (title, "caption");
  gtk_widget_add_css_class (title, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (text), TRUE);
  gtk_widget_add_css_class (text, "monospace");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_add_css_class (box, "fx-inspector-row");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_append (list, row);
}

static void
add_field (FxNodeInspector *self, const char *field, const char *caption, const char *value)
{
  add_row (self->fields, caption, value);
  g_hash_table_insert (self->texts, (gpointer) field, g_strdup (value));
}

static char *
value_text (const FxValue *value)
{
  GString *out = g_string_new (NULL);

  fx_value_repr (value, out);
  return g_string_free (out, FALSE);
}

static void
show_module (FxNodeInspector *self, FxGraphModule *gm, FxNode *node)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) tensors = g_ptr_array_new ();
  g_autofree char *repr = NULL;
  GString *params = g_string_new (NULL);
  FxModule *module;

  module = fx_module_get_submodule (gm->module, node->target.s->data, NULL);
  if (module == NULL)
    {
      g_string_free (params, TRUE);
      return;
    }
  repr = fx_module_repr (module);
  gtk_label_set_text (self->module_repr, repr);
  g_hash_table_insert (self->texts, (gpointer) "module", g_strdup (repr));

  fx_module_named_parameters (module, names, tensors);
  for (guint i = 0; i < names->len; i++)
    {
      const FxTensor *t = tensors->pdata[i];
      GString *shape = g_string_new ("torch.Size([");

      for (int d = 0; d < t->ndim; d++)
        g_string_append_printf (shape, "%s%" G_GINT64_FORMAT, d ? ", " : "", t->shape[d]);
      g_string_append (shape, "])");
      add_row (self->parameters, names->pdata[i], shape->str);
      g_string_append_printf (params, "%s%s: %s", i ? "\n" : "", (char *) names->pdata[i], shape->str);
      g_string_free (shape, TRUE);
    }
  if (names->len == 0)
    add_row (self->parameters, "Parameters", "none");
  g_hash_table_insert (self->texts, (gpointer) "parameters", g_string_free (params, FALSE));
  gtk_widget_set_visible (self->module_group, TRUE);
}

void
fx_node_inspector_set_node (FxNodeInspector *self, FxGraphModule *gm, FxNode *node)
{
  g_return_if_fail (FX_IS_NODE_INSPECTOR (self));

  self->node = node;
  g_hash_table_remove_all (self->texts);
  clear_list (self->fields);
  clear_list (self->parameters);
  clear_list (self->meta);
  gtk_widget_set_visible (self->module_group, FALSE);
  gtk_widget_set_visible (self->meta_group, FALSE);
  if (node == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  {
    g_autofree char *target = fx_node_pretty_target (node);
    g_autofree char *args = value_text (&node->args);
    g_autofree char *kwargs = value_text (&node->kwargs);
    GString *users = g_string_new (NULL);
    FxNode *user;
    guint n_meta = 0;

    for (guint i = 0; fx_node_set_iter (&node->users, &i, &user);)
      g_string_append_printf (users, "%s%s", users->len ? ", " : "", user->name);
    if (users->len == 0)
      g_string_append (users, "none");

    add_field (self, "op", "Op", fx_node_op_name (node->op));
    add_field (self, "name", "Name", node->name);
    add_field (self, "target", "Target", target);
    add_field (self, "args", "Args", args);
    add_field (self, "kwargs", "Kwargs", kwargs);
    add_field (self, "users", "Users", users->str);
    if (node->type.kind == FX_VALUE_STR)
      add_field (self, "type", "Type", node->type.s->data);
    g_string_free (users, TRUE);

    if (node->meta != NULL)
      {
        GString *all = g_string_new (NULL);
        const FxValue *key, *value;

        for (guint i = 0; fx_dict_entry (node->meta, i, &key, &value); i++)
          {
            g_autofree char *k = key->kind == FX_VALUE_STR ? g_strdup (key->s->data) : value_text (key);
            g_autofree char *v = value->kind == FX_VALUE_STR ? g_strdup (value->s->data) : value_text (value);
            add_row (self->meta, k, v);
            g_string_append_printf (all, "%s%s: %s", n_meta++ ? "\n" : "", k, v);
          }
        gtk_widget_set_visible (self->meta_group, n_meta > 0);
        g_hash_table_insert (self->texts, (gpointer) "meta", g_string_free (all, FALSE));
      }
  }

  if (node->op == FX_OP_CALL_MODULE && gm != NULL && node->target.kind == FX_VALUE_STR)
    show_module (self, gm, node);
  gtk_stack_set_visible_child_name (self->stack, "node");
}

FxNode *
fx_node_inspector_get_node (FxNodeInspector *self)
{
  g_return_val_if_fail (FX_IS_NODE_INSPECTOR (self), NULL);
  return self->node;
}

const char *
fx_node_inspector_get_field (FxNodeInspector *self, const char *field)
{
  g_return_val_if_fail (FX_IS_NODE_INSPECTOR (self), NULL);
  return g_hash_table_lookup (self->texts, field);
}
