/* passes-common.c: what the graph passes share — calling registry ops on values, copying a
 * module, evaluating one node from its inputs' values (for constant folding). */
#include "rewrite/passes-private.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <stdarg.h>
#include <string.h>

gboolean
fx_pass_call_op (const char *path, GError **error, FxValue *out, ...)
{
  const FxOp *op = g_str_has_prefix (path, "Tensor.") ? fx_op_lookup_method (path + 7)
                                                       : fx_op_lookup (path);
  FxValue args[8];
  FxValue result = fx_value_none ();
  int n = 0;
  va_list ap;
  FxValue *a;

  if (op == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "no op %s in the registry", path);
      return FALSE;
    }
  va_start (ap, out);
  while ((a = va_arg (ap, FxValue *)) != NULL && n < (int) G_N_ELEMENTS (args))
    args[n++] = *a;             /* borrowed: fx_op_call copies what it keeps */
  va_end (ap);
  if (!fx_op_call (op, args, n, NULL, &result, error))
    return FALSE;
  fx_value_clear (out);
  *out = result;
  return TRUE;
}

static FxDict *
dict_copy (FxDict *src)
{
  FxDict *d = fx_dict_new ();
  const FxValue *k, *v;
  for (guint i = 0; fx_dict_entry (src, i, &k, &v); i++)
    fx_dict_set (d, fx_value_copy (k), fx_value_copy (v));
  return d;
}

FxModule *
fx_pass_module_copy (const FxModule *module)
{
  FxModule *m = fx_module_new (module->type_name);
  GHashTableIter iter;
  gpointer key;

  m->layer = module->layer;
  m->training = module->training;
  m->extra_repr = module->extra_repr;
  fx_dict_unref (m->parameters);
  m->parameters = dict_copy (module->parameters);
  fx_dict_unref (m->buffers);
  m->buffers = dict_copy (module->buffers);
  fx_dict_unref (m->children);
  m->children = dict_copy (module->children);
  fx_dict_unref (m->attributes);
  m->attributes = dict_copy (module->attributes);
  g_hash_table_iter_init (&iter, module->non_persistent);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (m->non_persistent, g_strdup (key));
  return m;
}

static FxValue
lookup_value (FxNode *node, gpointer user_data)
{
  const FxValue *v = g_hash_table_lookup (user_data, node);
  return v != NULL ? fx_value_copy (v) : fx_value_none ();
}

gboolean
fx_pass_eval_node (FxGraphModule *gm, FxNode *node, GHashTable *values, FxValue *out,
                   GError **error)
{
  g_auto (FxValue) args = fx_value_map_nodes (&node->args, lookup_value, values);
  g_auto (FxValue) kwargs = fx_value_map_nodes (&node->kwargs, lookup_value, values);
  const FxOp *op = NULL;
  FxModule *module;

  switch (node->op)
    {
    case FX_OP_GET_ATTR:
      return fx_module_get_attr (gm->module, node->target.s->data, out, error);
    case FX_OP_CALL_FUNCTION:
      if (node->target.kind == FX_VALUE_OP)
        op = node->target.op;
      break;
    case FX_OP_CALL_METHOD:
      op = fx_op_lookup_method (node->target.s->data);
      break;
    case FX_OP_CALL_MODULE:
      module = fx_module_get_submodule (gm->module, node->target.s->data, error);
      if (module == NULL)
        return FALSE;
      if (module->layer == NULL)
        break;
      return fx_module_forward_layer (module, args.seq->items, args.seq->len, kwargs.dict,
                                      out, error);
    default:
      break;
    }
  if (op == NULL)
    {
      g_autofree char *target = fx_node_pretty_target (node);
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "node %s: cannot evaluate %s[target=%s] here", node->name,
                   fx_node_op_name (node->op), target);
      return FALSE;
    }
  return fx_op_call (op, args.seq->items, args.seq->len, kwargs.dict, out, error);
}
