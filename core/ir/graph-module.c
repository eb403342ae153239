/* graph-module.c: FxGraphModule — construction from a root module or dict (torch.fx's
 * _copy_attr / _assign_attr), recompile, printing and submodule bookkeeping. */
#include "ir/graph-module.h"
#include "ir/codegen.h"
#include "fx-error.h"

#include <string.h>

/* Installs value at `field` of `to` the way _copy_attr does: a tensor that is not a
 * parameter becomes a buffer; parameters stay parameters; modules become submodules. */
static void
install (FxModule *to, const char *field, const FxValue *value, char kind)
{
  if (fx_value_is_module (value))
    fx_module_add_module (to, field, fx_value_get_module (value));
  else if (value->kind == FX_VALUE_TENSOR && kind == 'p')
    fx_module_register_parameter (to, field, value->tensor);
  else if (value->kind == FX_VALUE_TENSOR)
    fx_module_register_buffer (to, field, value->tensor, TRUE);
  else if (value->kind == FX_VALUE_NONE && kind == 'p')
    fx_module_register_parameter (to, field, NULL);
  else
    fx_module_set_attribute (to, field, value);
}

static FxModule *
child_or_new (FxModule *to, const char *item)
{
  FxValue key = fx_value_str (item);
  const FxValue *existing = fx_dict_get (to->children, &key);
  FxModule *child;

  fx_value_clear (&key);
  if (existing != NULL && fx_value_is_module (existing))
    return fx_value_get_module (existing);
  child = fx_module_new ("Module");
  fx_module_add_module (to, item, child);
  fx_module_unref (child);
  return child;
}

static gboolean
copy_attr (FxModule *from, FxModule *to, const char *target, GError **error)
{
  g_auto (GStrv) atoms = g_strsplit (target, ".", -1);
  guint n = g_strv_length (atoms);
  g_auto (FxValue) orig = { 0 };
  char kind;

  for (guint i = 0; i + 1 < n; i++)
    {
      FxModule *f = fx_module_get_submodule (from, atoms[i], error);
      FxValue key = fx_value_str (atoms[i]);
      const FxValue *t = fx_dict_get (to->children, &key);

      fx_value_clear (&key);
      if (f == NULL)
        return FALSE;
      if (t != NULL && fx_value_get_module (t) == f)
        return TRUE;   /* a parent is already installed: its children came with it */
      to = child_or_new (to, atoms[i]);
      from = f;
    }
  kind = fx_module_attr_kind (from, atoms[n - 1]);
  if (!fx_module_get_attr (from, atoms[n - 1], &orig, error))
    return FALSE;
  install (to, atoms[n - 1], &orig, kind);
  return TRUE;
}

static FxGraphModule *
graph_module_alloc (FxGraph *graph, const char *class_name)
{
  FxGraphModule *gm = g_new0 (FxGraphModule, 1);

  g_atomic_ref_count_init (&gm->ref);
  gm->module = fx_module_new (class_name ? class_name : "GraphModule");
  (void) graph;
  return gm;
}

FxGraphModule *
fx_graph_module_new (FxModule *root, FxGraph *graph, const char *class_name, GError **error)
{
  FxGraphModule *gm = graph_module_alloc (graph, class_name);

  gm->module->training = root->training;
  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    if ((node->op == FX_OP_GET_ATTR || node->op == FX_OP_CALL_MODULE)
        && !copy_attr (root, gm->module, node->target.s->data, error))
      {
        fx_graph_module_unref (gm);
        return NULL;
      }
  fx_graph_module_set_graph (gm, graph);
  return gm;
}

static int
count_dots (gconstpointer a, gconstpointer b)
{
  const char *sa = *(const char *const *) a, *sb = *(const char *const *) b;
  int da = 0, db = 0;

  for (; *sa; sa++)
    da += *sa == '.';
  for (; *sb; sb++)
    db += *sb == '.';
  return da - db;
}

FxGraphModule *
fx_graph_module_new_from_dict (FxDict *root, FxGraph *graph, const char *class_name,
                               GError **error)
{
  FxGraphModule *gm = graph_module_alloc (graph, class_name);
  g_autoptr (GPtrArray) targets = g_ptr_array_new ();

  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    if (node->op == FX_OP_GET_ATTR || node->op == FX_OP_CALL_MODULE)
      {
        if (fx_dict_get (root, &node->target) == NULL)
          {
            g_autofree char *s = fx_node_format (node);
            g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                         "Node %s referenced target %s but that target was not provided in ``root``!",
                         node->name, node->target.s->data);
            (void) s;
            fx_graph_module_unref (gm);
            return NULL;
          }
        g_ptr_array_add (targets, node->target.s->data);
      }
  /* parents before children, stable otherwise (Python's sort by the count of dots) */
  g_ptr_array_sort (targets, count_dots);
  for (guint i = 0; i < targets->len; i++)
    {
      const char *target = targets->pdata[i];
      g_auto (GStrv) atoms = g_strsplit (target, ".", -1);
      guint n = g_strv_length (atoms);
      FxModule *to = gm->module;
      FxValue key = fx_value_str (target);
      const FxValue *value = fx_dict_get (root, &key);

      fx_value_clear (&key);
      for (guint k = 0; k + 1 < n; k++)
        to = child_or_new (to, atoms[k]);
      /* A dict holds no nn.Parameter type; a tensor that requires grad stands for one. */
      install (to, atoms[n - 1], value,
               value->kind == FX_VALUE_TENSOR && value->tensor->requires_grad ? 'p' : 0);
    }
  fx_graph_module_set_graph (gm, graph);
  return gm;
}

FxGraphModule *
fx_graph_module_ref (FxGraphModule *gm)
{
  g_atomic_ref_count_inc (&gm->ref);
  return gm;
}

void
fx_graph_module_unref (FxGraphModule *gm)
{
  if (gm == NULL || !g_atomic_ref_count_dec (&gm->ref))
    return;
  if (gm->graph != NULL && fx_graph_get_owning_module (gm->graph) == gm)
    fx_graph_set_owning_module (gm->graph, NULL);
  if (gm->exec_cache != NULL)
    gm->exec_cache_free (gm->exec_cache);
  g_clear_pointer (&gm->graph, fx_graph_unref);
  fx_module_unref (gm->module);
  g_free (gm->code);
  g_free (gm);
}

void
fx_graph_module_set_graph (FxGraphModule *gm, FxGraph *graph)
{
  fx_graph_ref (graph);
  g_clear_pointer (&gm->graph, fx_graph_unref);
  gm->graph = graph;
  fx_graph_set_owning_module (graph, gm);
  fx_graph_module_recompile (gm);
}

const char *
fx_graph_module_recompile (FxGraphModule *gm)
{
  if (gm->exec_cache != NULL)
    gm->exec_cache_free (g_steal_pointer (&gm->exec_cache));
  g_free (gm->code);
  gm->code = fx_graph_python_code (gm->graph, "self", FALSE);
  return gm->code;
}

static void
add_indent (GString *out, const char *s, guint spaces)
{
  g_auto (GStrv) lines = g_strsplit (s, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (i > 0)
        {
          g_string_append_c (out, '\n');
          for (guint k = 0; k < spaces; k++)
            g_string_append_c (out, ' ');
        }
      g_string_append (out, lines[i]);
    }
}

/* 1.13 appends the readable code of child GraphModules; an FxModule child is never a
 * GraphModule (nested graph modules are not representable yet), so there is none to add. */
char *
fx_graph_module_print_readable (FxGraphModule *gm)
{
  g_autofree char *code = fx_graph_python_code (gm->graph, "self", TRUE);
  const char *stripped = code;
  g_autofree char *module_code = NULL;
  GString *out = g_string_new (NULL);

  while (*stripped == '\n')
    stripped++;
  module_code = g_strdup_printf ("class %s(torch.nn.Module):\n%s", gm->module->type_name, stripped);
  add_indent (out, module_code, 4);
  return g_string_free (out, FALSE);
}

char *
fx_graph_module_to_string (FxGraphModule *gm)
{
  g_autofree char *repr = fx_module_repr (gm->module);
  return g_strdup_printf ("%s\n%s\n# To see more debug info, please use `graph_module.print_readable()`",
                          repr, gm->code);
}

gboolean
fx_graph_module_add_submodule (FxGraphModule *gm, const char *target, FxModule *module)
{
  g_auto (GStrv) atoms = g_strsplit (target, ".", -1);
  guint n = g_strv_length (atoms);
  FxModule *mod = gm->module;

  for (guint i = 0; i + 1 < n; i++)
    {
      FxValue key = fx_value_str (atoms[i]);
      const FxValue *existing = fx_dict_get (mod->children, &key);
      fx_value_clear (&key);
      if (existing == NULL)
        mod = child_or_new (mod, atoms[i]);
      else if (fx_value_is_module (existing))
        mod = fx_value_get_module (existing);
      else
        return FALSE;
    }
  fx_module_add_module (mod, atoms[n - 1], module);
  return TRUE;
}

gboolean
fx_graph_module_delete_submodule (FxGraphModule *gm, const char *target)
{
  g_auto (GStrv) atoms = g_strsplit (target, ".", -1);
  guint n = g_strv_length (atoms);
  FxModule *mod = gm->module;
  FxValue key;
  gboolean removed;

  for (guint i = 0; i + 1 < n; i++)
    {
      mod = fx_module_get_submodule (mod, atoms[i], NULL);
      if (mod == NULL)
        return FALSE;
    }
  key = fx_value_str (atoms[n - 1]);
  removed = fx_dict_get (mod->children, &key) != NULL && fx_dict_remove (mod->children, &key);
  fx_value_clear (&key);
  return removed;
}

/* Keeps every module on the path of a call_module target, and everything under a get_attr's
 * owner path; drops the rest (1.13's delete_all_unused_submodules). */
void
fx_graph_module_delete_all_unused_submodules (FxGraphModule *gm)
{
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();

  for (FxNode *node = fx_graph_first (gm->graph); node != NULL; node = fx_node_next (node))
    {
      g_auto (GStrv) atoms = NULL;
      GString *path;

      if (node->op != FX_OP_CALL_MODULE && node->op != FX_OP_GET_ATTR)
        continue;
      atoms = g_strsplit (node->target.s->data, ".", -1);
      path = g_string_new (NULL);
      for (guint i = 0; atoms[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (path, '.');
          g_string_append (path, atoms[i]);
          g_hash_table_add (used, g_strdup (path->str));
        }
      if (node->op == FX_OP_CALL_MODULE)
        {
          /* a called module's own children are used by it */
          FxModule *m = fx_module_get_submodule (gm->module, node->target.s->data, NULL);
          if (m != NULL)
            {
              g_autoptr (GPtrArray) sub_names = g_ptr_array_new_with_free_func (g_free);
              g_autoptr (GPtrArray) subs = g_ptr_array_new ();
              fx_module_named_modules (m, sub_names, subs);
              for (guint i = 1; i < sub_names->len; i++)
                g_hash_table_add (used, g_strdup_printf ("%s.%s", node->target.s->data,
                                                         (char *) sub_names->pdata[i]));
            }
        }
      g_string_free (path, TRUE);
    }
  fx_module_named_modules (gm->module, names, modules);
  /* deepest first, so parents are judged after their children went */
  for (guint i = names->len; i-- > 1;)
    if (!g_hash_table_contains (used, names->pdata[i]))
      fx_graph_module_delete_submodule (gm, names->pdata[i]);
}

gboolean
fx_graph_module_lint_node (FxGraphModule *gm, FxNode *node, GError **error)
{
  g_auto (GStrv) atoms = NULL;
  FxModule *m = gm->module;
  GString *seen;

  if (node->op != FX_OP_GET_ATTR && node->op != FX_OP_CALL_MODULE)
    return TRUE;
  atoms = g_strsplit (node->target.s->data, ".", -1);
  seen = g_string_new (NULL);
  for (guint i = 0; atoms[i] != NULL; i++)
    {
      char kind = m != NULL ? fx_module_attr_kind (m, atoms[i]) : 0;
      FxValue val = fx_value_none ();

      if (kind == 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                       "Node %s target %s references nonexistent attribute %s of %s",
                       node->name, node->target.s->data, atoms[i], seen->str);
          g_string_free (seen, TRUE);
          return FALSE;
        }
      if (node->op == FX_OP_CALL_MODULE && kind != 'm')
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                       "Node %s target %s %s of %s does not reference an nn.Module",
                       node->name, node->target.s->data, atoms[i], seen->str);
          g_string_free (seen, TRUE);
          return FALSE;
        }
      if (kind == 'm' && fx_module_get_attr (m, atoms[i], &val, NULL))
        m = fx_value_get_module (&val);
      else
        m = NULL;
      fx_value_clear (&val);
      if (seen->len > 0)
        g_string_append_c (seen, '.');
      g_string_append (seen, atoms[i]);
    }
  g_string_free (seen, TRUE);
  return TRUE;
}
