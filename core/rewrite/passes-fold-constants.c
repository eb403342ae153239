/* passes-fold-constants.c: constant folding of get_attr-only subgraphs — computes them once
 * and reads the results through one get_attr, giving the graph 1.13's split_const_subgraphs
 * gives (passes.h says where libfx differs). */
#include "rewrite/passes-private.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <stdlib.h>
#include <string.h>

#define FOLDED_ATTRS_NAME "_FX_CONST_FOLDED_ATTRS"

/* Whether libfx can run node here: registry ops, Tensor methods, builtin layers. */
static gboolean
can_evaluate (FxGraphModule *gm, FxNode *node)
{
  FxModule *m;

  switch (node->op)
    {
    case FX_OP_GET_ATTR:
      return TRUE;
    case FX_OP_CALL_FUNCTION:
      return node->target.kind == FX_VALUE_OP;
    case FX_OP_CALL_METHOD:
      return node->target.kind == FX_VALUE_STR && fx_op_lookup_method (node->target.s->data) != NULL;
    case FX_OP_CALL_MODULE:
      m = fx_module_get_submodule (gm->module, node->target.s->data, NULL);
      return m != NULL && m->layer != NULL && m->layer->forward != NULL;
    default:
      return FALSE;
    }
}

/* get_unique_attr_name_in_module: "name", else "name_1", "name_2", ... */
static char *
unique_attr_name (FxModule *root, const char *base)
{
  char *name = g_strdup (base);

  while (fx_module_attr_kind (root, name) != 0)
    {
      const char *us = strrchr (name, '_');
      char *next;
      if (us != NULL && us[1] != '\0' && strspn (us + 1, "0123456789") == strlen (us + 1))
        next = g_strdup_printf ("%.*s_%" G_GINT64_FORMAT, (int) (us - name), name,
                                g_ascii_strtoll (us + 1, NULL, 10) + 1);
      else
        next = g_strconcat (name, "_1", NULL);
      g_free (name);
      name = next;
    }
  return name;
}

/* FoldedGraphModule._create_param: a tensor becomes a Parameter with its requires_grad; an
 * int the float tensor [i]. */
static FxTensor *
make_param (const FxNode *node, const FxValue *v, GError **error)
{
  FxTensor *t;

  if (v->kind == FX_VALUE_TENSOR)
    {
      gboolean rg = v->tensor->requires_grad;
      t = fx_tensor_ref (v->tensor);
      t->is_parameter = TRUE;
      t->requires_grad = rg;
      return t;
    }
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      int64_t one = 1;
      float f = (float) (v->kind == FX_VALUE_INT ? v->i : v->b);
      t = fx_tensor_new_from_data (FX_DTYPE_FLOAT32, 1, &one, &f);
      t->is_parameter = TRUE;
      return t;
    }
  g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
               "constant folding: node %s gives a %s, which cannot become a Parameter",
               node->name, fx_value_kind_name (v->kind));
  return NULL;
}

/* Removes the attribute at target ("a.b.w") from its owner, if nothing reads it any more. */
static void
drop_attr (FxGraphModule *gm, const char *target)
{
  const char *dot = strrchr (target, '.');
  g_autofree char *owner_path = dot ? g_strndup (target, dot - target) : g_strdup ("");
  FxModule *owner = fx_module_get_submodule (gm->module, owner_path, NULL);
  FxValue key;

  if (owner == NULL)
    return;
  key = fx_value_str (dot ? dot + 1 : target);
  if (!fx_dict_remove (owner->parameters, &key) && !fx_dict_remove (owner->buffers, &key))
    fx_dict_remove (owner->attributes, &key);
  g_hash_table_remove (owner->non_persistent, key.s->data);
  fx_value_clear (&key);
}

typedef struct {
  GHashTable *constant;      /* FxNode* set */
  GHashTable *values;        /* FxNode* → FxValue* */
  GPtrArray *outputs;        /* constant non-get_attr nodes used by the rest, first use first */
  GHashTable *is_output;     /* FxNode* → index + 1 */
  GPtrArray *kept_attrs;     /* constant get_attr nodes used by the rest, in order */
  GPtrArray *params;         /* FxTensor* per output */
} Fold;

static void
value_free (gpointer p)
{
  FxValue *v = p;
  fx_value_clear (v);
  g_free (v);
}

static void
fold_clear (Fold *f)
{
  g_clear_pointer (&f->constant, g_hash_table_unref);
  g_clear_pointer (&f->values, g_hash_table_unref);
  g_clear_pointer (&f->outputs, g_ptr_array_unref);
  g_clear_pointer (&f->is_output, g_hash_table_unref);
  g_clear_pointer (&f->kept_attrs, g_ptr_array_unref);
  g_clear_pointer (&f->params, g_ptr_array_unref);
}

static void
note_cross_use (FxNode *input, gpointer data)
{
  Fold *f = data;
  if (!g_hash_table_contains (f->constant, input))
    return;
  if (input->op == FX_OP_GET_ATTR)
    {
      if (!g_ptr_array_find (f->kept_attrs, input, NULL))
        g_ptr_array_add (f->kept_attrs, input);
    }
  else if (!g_hash_table_contains (f->is_output, input))
    {
      g_ptr_array_add (f->outputs, input);
      g_hash_table_insert (f->is_output, input, GUINT_TO_POINTER (f->outputs->len));
    }
}

static int
compare_position (gconstpointer a, gconstpointer b, gpointer order)
{
  guint pa = GPOINTER_TO_UINT (g_hash_table_lookup (order, *(FxNode *const *) a));
  guint pb = GPOINTER_TO_UINT (g_hash_table_lookup (order, *(FxNode *const *) b));
  return pa < pb ? -1 : pa > pb;
}

gboolean
fx_pass_fold_constants (FxGraphModule *gm, FxPassSkipNodeFunc skip_fn, gpointer user_data,
                        guint *n_folded, GError **error)
{
  Fold f = { 0 };
  guint folded = 0;
  FxNode *node, *prev, *last_placeholder = NULL, *attrs_node;
  g_autofree char *attr_name = NULL;
  g_autoptr (GHashTable) order = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) replacements = g_ptr_array_new ();
  /* get_attr target → how many get_attr nodes read it */
  g_autoptr (GHashTable) readers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint position = 0;
  gboolean ok = FALSE;

  g_return_val_if_fail (gm != NULL, FALSE);
  if (n_folded != NULL)
    *n_folded = 0;

  /* which nodes are constant: 1.13's rule, in graph order */
  f.constant = g_hash_table_new (NULL, NULL);
  f.values = g_hash_table_new_full (NULL, NULL, NULL, value_free);
  for (node = fx_graph_first (gm->graph); node != NULL; node = fx_node_next (node))
    {
      gboolean all_constant = TRUE;
      FxValue *value;
      g_hash_table_insert (order, node, GUINT_TO_POINTER (++position));
      if (node->op == FX_OP_PLACEHOLDER)
        last_placeholder = node;
      if (node->op == FX_OP_PLACEHOLDER || node->op == FX_OP_OUTPUT)
        continue;
      if (node->op != FX_OP_GET_ATTR)
        for (guint i = 0; all_constant && fx_node_set_iter (&node->input_nodes, &i, &prev);)
          all_constant = g_hash_table_contains (f.constant, prev);
      if (!all_constant || (skip_fn != NULL && skip_fn (node, user_data))
          || fx_node_is_impure (node) || !can_evaluate (gm, node))
        continue;
      /* run it now (nothing is edited before all ran); what libfx cannot run here (a
       * kernel refusing these arguments) stays in the graph as a non-constant node */
      value = g_new0 (FxValue, 1);
      if (!fx_pass_eval_node (gm, node, f.values, value, NULL))
        {
          value_free (value);
          continue;
        }
      g_hash_table_insert (f.values, node, value);
      g_hash_table_add (f.constant, node);
      if (node->op != FX_OP_GET_ATTR)
        folded++;
    }
  if (folded == 0)
    {
      fold_clear (&f);
      return TRUE;
    }

  /* what the rest of the graph reads from the constant part, in order of first use
   * (split_module's outputs of the constant partition) */
  f.outputs = g_ptr_array_new ();
  f.is_output = g_hash_table_new (NULL, NULL);
  f.kept_attrs = g_ptr_array_new ();
  for (node = fx_graph_first (gm->graph); node != NULL; node = fx_node_next (node))
    if (!g_hash_table_contains (f.constant, node))
      {
        fx_value_foreach_node (&node->args, note_cross_use, &f);
        fx_value_foreach_node (&node->kwargs, note_cross_use, &f);
      }
  /* the get_attrs stay in graph order, whatever order they were first used in */
  g_ptr_array_sort_with_data (f.kept_attrs, compare_position, order);

  f.params = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_tensor_unref);
  for (guint i = 0; i < f.outputs->len; i++)
    {
      FxTensor *t = make_param (f.outputs->pdata[i],
                                g_hash_table_lookup (f.values, f.outputs->pdata[i]), error);
      if (t == NULL)
        goto out;
      g_ptr_array_add (f.params, t);
    }

  /* store the results: one Parameter, or a ParameterList of them */
  attr_name = unique_attr_name (gm->module, FOLDED_ATTRS_NAME);
  if (f.params->len == 1)
    fx_module_register_parameter (gm->module, attr_name, f.params->pdata[0]);
  else
    {
      g_autoptr (FxModule) list = fx_module_new ("ParameterList");
      for (guint i = 0; i < f.params->len; i++)
        {
          g_autofree char *key = g_strdup_printf ("%u", i);
          fx_module_register_parameter (list, key, f.params->pdata[i]);
        }
      list->training = gm->module->training;
      fx_module_add_module (gm->module, attr_name, list);
    }
  /* register_parameter marks them as requiring grad; _create_param keeps the input's */
  for (guint i = 0; i < f.params->len; i++)
    {
      const FxValue *v = g_hash_table_lookup (f.values, f.outputs->pdata[i]);
      ((FxTensor *) f.params->pdata[i])->requires_grad =
        v->kind == FX_VALUE_TENSOR && v->tensor->requires_grad;
    }

  /* the kept get_attrs, then the folded attributes, right after the placeholders */
  {
    FxNode *anchor = last_placeholder;
    FxInsertPoint saved;
    for (guint i = 0; i < f.kept_attrs->len; i++)
      {
        FxNode *a = f.kept_attrs->pdata[i];
        if (anchor == NULL)
          {
            FxNode *first = fx_graph_first (gm->graph);
            if (first != a)
              fx_node_prepend (first, a);
          }
        else if (fx_node_next (anchor) != a)
          fx_node_append (anchor, a);
        anchor = a;
      }
    /* inserting_after would put each new node right after the anchor, reversing them */
    saved = fx_graph_inserting_before (gm->graph, anchor != NULL ? fx_node_next (anchor)
                                                                 : fx_graph_first (gm->graph));
    attrs_node = fx_graph_get_attr (gm->graph, attr_name, NULL);
    if (f.params->len == 1)
      g_ptr_array_add (replacements, attrs_node);
    else
      {
        FxValue getitem = fx_value_op (fx_op_lookup ("operator.getitem"));
        for (guint i = 0; i < f.params->len; i++)
          {
            FxSeq *args = fx_seq_new (0);
            g_auto (FxValue) tuple = { 0 };
            fx_seq_append (args, fx_value_node (attrs_node));
            fx_seq_append (args, fx_value_int (i));
            tuple = fx_value_take_tuple (args);
            g_ptr_array_add (replacements,
                             fx_graph_call_function (gm->graph, &getitem, &tuple, NULL, NULL));
          }
      }
    fx_graph_restore_insert_point (gm->graph, saved);
  }
  for (guint i = 0; i < f.outputs->len; i++)
    g_ptr_array_unref (fx_node_replace_all_uses_with (f.outputs->pdata[i],
                                                      replacements->pdata[i], NULL, NULL));

  /* drop the constant part (its users are all constant now), last to first */
  for (node = fx_graph_first (gm->graph); node != NULL; node = fx_node_next (node))
    if (node->op == FX_OP_GET_ATTR)
      {
        const char *t = node->target.s->data;
        g_hash_table_insert (readers, g_strdup (t),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (readers, t)) + 1));
      }
  for (node = fx_graph_last (gm->graph); node != NULL; node = prev)
    {
      prev = fx_node_prev (node);
      if (!g_hash_table_contains (f.constant, node) || fx_node_set_size (&node->users) > 0)
        continue;
      if (node->op == FX_OP_GET_ATTR)
        {
          g_autofree char *target = g_strdup (node->target.s->data);
          guint left = GPOINTER_TO_UINT (g_hash_table_lookup (readers, target)) - 1;
          if (!fx_graph_erase_node (gm->graph, node, error))
            goto out;
          g_hash_table_insert (readers, g_strdup (target), GUINT_TO_POINTER (left));
          /* 1.13's new GraphModule copies only what the graph still reads */
          if (left == 0)
            drop_attr (gm, target);
        }
      else if (!fx_graph_erase_node (gm->graph, node, error))
        goto out;
    }
  fx_graph_module_delete_all_unused_submodules (gm);
  fx_graph_module_recompile (gm);
  if (n_folded != NULL)
    *n_folded = folded;
  ok = TRUE;
out:
  fold_clear (&f);
  return ok;
}
