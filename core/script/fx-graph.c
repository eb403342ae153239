/* fx-graph.c: torch.fx.Graph for scripts — building nodes, insertion points, erasing,
 * copying, lint, dead code elimination, printing and code — and its node list. */
#include "script/fx-ir-private.h"
#include "script/nn-bind.h"
#include "ir/codegen.h"
#include "ir/graph-module.h"

#include <string.h>

/* Creates a node of op from script arguments; the new Node instance into *result. */
static gboolean
create_node (FxScript *S, GraphPayload *gp, FxNodeOp op, const FxValue *target,
             const FxValue *a, const FxValue *kw, const FxValue *name, const FxValue *type_expr,
             FxValue *result)
{
  g_auto (FxValue) margs = { 0 };
  g_auto (FxValue) mkwargs = { 0 };
  g_autofree char *type = NULL;
  GError *error = NULL;
  FxNode *node;
  const char *name_str = NULL;

  /* 1.13 asserts these, with no message */
  if (op == FX_OP_CALL_FUNCTION
      ? target->kind != FX_VALUE_OP && !(target->kind == FX_VALUE_OBJECT && sc_callable (S, target))
      : target->kind != FX_VALUE_STR)
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  if (a != NULL && a->kind != FX_VALUE_NONE && a->kind != FX_VALUE_TUPLE)
    return sc_raise (S, SC_T_ASSERTION_ERROR, "args must be a tuple");
  if (kw != NULL && kw->kind != FX_VALUE_NONE && kw->kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_ASSERTION_ERROR, "kwargs must be a dict");
  if (name != NULL && name->kind != FX_VALUE_NONE)
    {
      if (name->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "name must be a str, not '%s'", sc_type_name (S, name));
      name_str = name->s->data;
    }
  if (!fxir_node_args (S, a, &margs) || !fxir_node_kwargs (S, kw, &mkwargs))
    return FALSE;
  if (!sc_fx_type_to_str (S, type_expr, &type))
    return FALSE;
  node = fx_graph_create_node (gp->graph, op, target, &margs, &mkwargs, name_str, type, &error);
  if (node == NULL)
    return fxir_raise_gerror (S, error);
  *result = sc_fx_node_wrap (S, node);
  return TRUE;
}

/* ------------------------------------------------------------------ Graph */

static gboolean
gr_init (FX_ARGS)
{
  static const char *const names[] = { "owning_module", "tracer_cls", "tracer_extras" };
  const FxValue *a[3];
  GraphPayload *p = fxir_graph_self (S, &args[0], "__init__");
  (void) data;
  if (p == NULL || !fxir_parse (S, "Graph.__init__", args, n_args, kwargs, names, 3, 0, a))
    return FALSE;
  if (a[0] != NULL && a[0]->kind != FX_VALUE_NONE)
    sc_fx_graph_add_owner (S, &args[0], a[0]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gr_placeholder (FX_ARGS)
{
  static const char *const names[] = { "name", "type_expr", "default_value" };
  const FxValue *a[3];
  GraphPayload *p = fxir_graph_self (S, &args[0], "placeholder");
  g_autofree char *type = NULL;
  g_auto (FxValue) dflt = { 0 };
  FxNode *node;
  (void) data;
  if (p == NULL || !fxir_parse (S, "placeholder", args, n_args, kwargs, names, 3, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "placeholder() name must be a str, not '%s'",
                     sc_type_name (S, a[0]));
  if (!sc_fx_type_to_str (S, a[1], &type))
    return FALSE;
  if (a[2] != NULL && !sc_fx_value_from_script (S, a[2], &dflt))
    return FALSE;
  node = fx_graph_placeholder (p->graph, a[0]->s->data, type, a[2] != NULL ? &dflt : NULL);
  if (node == NULL)
    return sc_raise (S, SC_T_RUNTIME_ERROR, "could not create placeholder %s", a[0]->s->data);
  *result = sc_fx_node_wrap (S, node);
  return TRUE;
}

static gboolean
gr_get_attr (FX_ARGS)
{
  static const char *const names[] = { "qualified_name", "type_expr" };
  const FxValue *a[2];
  GraphPayload *p = fxir_graph_self (S, &args[0], "get_attr");
  (void) data;
  if (p == NULL || !fxir_parse (S, "get_attr", args, n_args, kwargs, names, 2, 1, a))
    return FALSE;
  return create_node (S, p, FX_OP_GET_ATTR, a[0], NULL, NULL, NULL, a[1], result);
}

static gboolean
gr_call_function (FX_ARGS)
{
  static const char *const names[] = { "the_function", "args", "kwargs", "type_expr" };
  const FxValue *a[4];
  GraphPayload *p = fxir_graph_self (S, &args[0], "call_function");
  (void) data;
  if (p == NULL || !fxir_parse (S, "call_function", args, n_args, kwargs, names, 4, 1, a))
    return FALSE;
  return create_node (S, p, FX_OP_CALL_FUNCTION, a[0], a[1], a[2], NULL, a[3], result);
}

static gboolean
gr_call_method (FX_ARGS)
{
  static const char *const names[] = { "method_name", "args", "kwargs", "type_expr" };
  const FxValue *a[4];
  GraphPayload *p = fxir_graph_self (S, &args[0], "call_method");
  (void) data;
  if (p == NULL || !fxir_parse (S, "call_method", args, n_args, kwargs, names, 4, 1, a))
    return FALSE;
  return create_node (S, p, FX_OP_CALL_METHOD, a[0], a[1], a[2], NULL, a[3], result);
}

static gboolean
gr_call_module (FX_ARGS)
{
  static const char *const names[] = { "module_name", "args", "kwargs", "type_expr" };
  const FxValue *a[4];
  GraphPayload *p = fxir_graph_self (S, &args[0], "call_module");
  (void) data;
  if (p == NULL || !fxir_parse (S, "call_module", args, n_args, kwargs, names, 4, 1, a))
    return FALSE;
  return create_node (S, p, FX_OP_CALL_MODULE, a[0], a[1], a[2], NULL, a[3], result);
}

static gboolean
gr_output (FX_ARGS)
{
  static const char *const names[] = { "result", "type_expr" };
  const FxValue *a[2];
  GraphPayload *p = fxir_graph_self (S, &args[0], "output");
  g_auto (FxValue) target = fx_value_str ("output");
  g_auto (FxValue) tuple = { 0 };
  g_autofree char *type = NULL;
  FxSeq *seq;
  GError *error = NULL;
  FxNode *node;
  (void) data;
  if (p == NULL || !fxir_parse (S, "output", args, n_args, kwargs, names, 2, 1, a))
    return FALSE;
  seq = fx_seq_new (1);
  tuple = fx_value_take_tuple (seq);
  if (!sc_fx_value_from_script (S, a[0], &seq->items[0]))
    return FALSE;
  if (!sc_fx_type_to_str (S, a[1], &type))
    return FALSE;
  node = fx_graph_create_node (p->graph, FX_OP_OUTPUT, &target, &tuple, NULL, "output", type, &error);
  if (node == NULL)
    return fxir_raise_gerror (S, error);
  *result = sc_fx_node_wrap (S, node);
  return TRUE;
}

static gboolean
gr_create_node (FX_ARGS)
{
  static const char *const names[] = { "op", "target", "args", "kwargs", "name", "type_expr" };
  const FxValue *a[6];
  GraphPayload *p = fxir_graph_self (S, &args[0], "create_node");
  FxNodeOp op;
  (void) data;
  if (p == NULL || !fxir_parse (S, "create_node", args, n_args, kwargs, names, 6, 2, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR || !fx_node_op_from_name (a[0]->s->data, &op) || op == FX_OP_ROOT)
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  return create_node (S, p, op, a[1], a[2], a[3], a[4], a[5], result);
}

static gboolean
insert_point (FxScript *S, const FxValue *self, const FxValue *args, int n_args, FxDict *kwargs,
              gboolean after, FxValue *result)
{
  static const char *const names[] = { "n" };
  const FxValue *a[1];
  const char *fname = after ? "inserting_after" : "inserting_before";
  GraphPayload *p = fxir_graph_self (S, self, fname);
  ScFxState *st = sc_fx_state (S);
  GraphRefPayload *ip;
  FxNode *node;

  if (p == NULL || !fxir_parse (S, fname, args, n_args, kwargs, names, 1, 0, a)
      || !fxir_node_arg (S, fname, a[0], TRUE, &node))
    return FALSE;
  if (node != NULL && node->graph != p->graph)
    return sc_raise (S, SC_T_ASSERTION_ERROR, "Node to insert %s is not in graph.",
                     after ? "after" : "before");
  *result = fx_script_instance_new (S, st->insert_cls);
  ip = fx_script_instance_payload (result);
  ip->graph = fx_graph_ref (p->graph);
  ip->saved = after ? fx_graph_inserting_after (p->graph, node) : fx_graph_inserting_before (p->graph, node);
  return TRUE;
}

static gboolean
gr_inserting_before (FX_ARGS)
{
  (void) data;
  return insert_point (S, &args[0], args, n_args, kwargs, FALSE, result);
}

static gboolean
gr_inserting_after (FX_ARGS)
{
  (void) data;
  return insert_point (S, &args[0], args, n_args, kwargs, TRUE, result);
}

static gboolean
ip_enter (FX_ARGS)
{
  (void) S; (void) args; (void) n_args; (void) kwargs; (void) data;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
ip_exit (FX_ARGS)
{
  GraphRefPayload *ip = fx_script_instance_payload (&args[0]);
  (void) S; (void) n_args; (void) kwargs; (void) data;
  if (ip != NULL && ip->graph != NULL && !ip->restored)
    {
      fx_graph_restore_insert_point (ip->graph, ip->saved);
      ip->restored = TRUE;
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gr_erase_node (FX_ARGS)
{
  static const char *const names[] = { "to_erase" };
  const FxValue *a[1];
  GraphPayload *p = fxir_graph_self (S, &args[0], "erase_node");
  GError *error = NULL;
  FxNode *node;
  (void) data;
  if (p == NULL || !fxir_parse (S, "erase_node", args, n_args, kwargs, names, 1, 1, a)
      || !fxir_node_arg (S, "erase_node", a[0], FALSE, &node))
    return FALSE;
  /* like 1.13, a node of another graph is erased from its own graph */
  if (node->op == FX_OP_ROOT)
    return sc_raise (S, SC_T_RUNTIME_ERROR, "cannot erase the root node");
  if (!fx_graph_erase_node (node->graph, node, &error))
    return fxir_raise_gerror (S, error);
  *result = fx_value_none ();
  return TRUE;
}

typedef struct {
  FxScript *S;
  const FxValue *fn;
  gboolean failed;
} MapCall;

/* arg_transform(node) → the value the copy uses instead of node. */
static FxValue
map_call_cb (FxNode *node, gpointer user_data)
{
  MapCall *mc = user_data;
  g_auto (FxValue) w = { 0 };
  g_auto (FxValue) r = { 0 };
  FxValue out = fx_value_none ();

  if (mc->failed)
    return out;
  w = sc_fx_node_wrap (mc->S, node);
  if (!sc_call1 (mc->S, mc->fn, &w, &r) || !sc_fx_value_from_script (mc->S, &r, &out))
    {
      mc->failed = TRUE;
      return fx_value_none ();
    }
  return out;
}

static gboolean
gr_node_copy (FX_ARGS)
{
  static const char *const names[] = { "node", "arg_transform" };
  const FxValue *a[2];
  GraphPayload *p = fxir_graph_self (S, &args[0], "node_copy");
  MapCall mc = { S, NULL, FALSE };
  GError *error = NULL;
  FxNode *node, *copy;
  (void) data;
  if (p == NULL || !fxir_parse (S, "node_copy", args, n_args, kwargs, names, 2, 1, a)
      || !fxir_node_arg (S, "node_copy", a[0], FALSE, &node))
    return FALSE;
  mc.fn = a[1];
  copy = fx_graph_node_copy (p->graph, node, a[1] != NULL ? map_call_cb : NULL, &mc, &error);
  if (copy == NULL)
    return fxir_raise_gerror (S, error);
  if (mc.failed)
    {
      if (!fx_graph_erase_node (p->graph, copy, &error))
        g_clear_error (&error);
      return FALSE;
    }
  *result = sc_fx_node_wrap (S, copy);
  return TRUE;
}

static gboolean
gr_graph_copy (FX_ARGS)
{
  static const char *const names[] = { "g", "val_map", "return_output_node" };
  const FxValue *a[3];
  GraphPayload *p = fxir_graph_self (S, &args[0], "graph_copy");
  g_autoptr (GHashTable) table = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_auto (FxValue) rv = { 0 };
  gboolean ret_output = FALSE;
  GError *error = NULL;
  FxNode *src_output = NULL;
  FxGraph *src;
  const FxValue *k, *v;
  (void) data;
  if (p == NULL || !fxir_parse (S, "graph_copy", args, n_args, kwargs, names, 3, 2, a))
    return FALSE;
  if ((src = sc_fx_graph_get (a[0])) == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "graph_copy() expected a Graph, got '%s'", sc_type_name (S, a[0]));
  if (a[1]->kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "graph_copy() val_map must be a dict, not '%s'",
                     sc_type_name (S, a[1]));
  if (a[2] != NULL && !sc_truth (S, a[2], &ret_output))
    return FALSE;
  for (guint i = 0; fx_dict_entry (a[1]->dict, i, &k, &v); i++)
    {
      FxNode *from = sc_fx_node_get (k), *to = sc_fx_node_get (v);
      if (from != NULL && to != NULL)
        g_hash_table_insert (table, from, to);
    }
  rv = fx_graph_graph_copy (p->graph, src, table, &src_output, &error);
  if (error != NULL)
    return fxir_raise_gerror (S, error);
  /* report the new entries back into val_map, in graph order */
  for (FxNode *n = fx_graph_first (src); n != NULL; n = fx_node_next (n))
    {
      FxNode *to = g_hash_table_lookup (table, n);
      if (to != NULL)
        fx_dict_set (a[1]->dict, sc_fx_node_wrap (S, n), sc_fx_node_wrap (S, to));
    }
  if (src_output == NULL)
    {
      *result = fx_value_none ();
      return TRUE;
    }
  if (ret_output)
    {
      FxSeq *pair = fx_seq_new (2);
      pair->items[0] = sc_fx_value_to_script (S, &rv);
      pair->items[1] = sc_fx_node_wrap (S, src_output);
      *result = fx_value_take_tuple (pair);
    }
  else
    *result = sc_fx_value_to_script (S, &rv);
  return TRUE;
}

/* The owning GraphModule instance (new reference) or None. */
FxValue
fxir_owner_value (GraphPayload *p)
{
  if (p->n_owners == 1 && p->owner != NULL && p->owner->impl != NULL)
    return fxir_instance_value (p->owner->impl);
  return fx_value_none ();
}

void
sc_fx_graph_add_owner (FxScript *S, const FxValue *graph_value, const FxValue *gm)
{
  GraphPayload *p = fxir_graph_payload (graph_value);
  FxModule *fx;

  if (p == NULL)
    return;
  fx = sc_nn_module_to_fx (S, gm);
  if (fx == NULL)
    return;
  if (p->owner == fx)
    {
      fx_module_unref (fx);
      return;
    }
  g_clear_pointer (&p->owner, fx_module_unref);
  p->owner = fx;
  p->n_owners++;
}

static gboolean
gr_owning_module (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "owning_module");
  (void) n_args; (void) kwargs; (void) data;
  if (p == NULL)
    return FALSE;
  *result = fxir_owner_value (p);
  return TRUE;
}

static gboolean
gr_set_owning_module (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "owning_module");
  (void) n_args; (void) kwargs; (void) data;
  if (p == NULL)
    return FALSE;
  if (args[1].kind != FX_VALUE_NONE)
    sc_fx_graph_add_owner (S, &args[0], &args[1]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gr_lint (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "lint");
  GError *error = NULL;
  g_auto (FxValue) owner = { 0 };
  (void) data;
  if (p == NULL || !fxir_parse (S, "lint", args, n_args, kwargs, NULL, 0, 0, NULL))
    return FALSE;
  if (!fx_graph_lint (p->graph, &error))
    return fxir_raise_gerror (S, error);
  owner = fxir_owner_value (p);
  if (owner.kind != FX_VALUE_NONE)
    {
      FxGraphModule tmp = { 0 };
      gboolean ok = TRUE;
      tmp.module = sc_nn_module_to_fx (S, &owner);
      tmp.graph = p->graph;
      for (FxNode *n = fx_graph_first (p->graph); ok && n != NULL; n = fx_node_next (n))
        ok = fx_graph_module_lint_node (&tmp, n, &error);
      if (tmp.module)
        fx_module_unref (tmp.module);
      if (!ok)
        return fxir_raise_gerror (S, error);
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gr_eliminate_dead_code (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "eliminate_dead_code");
  GError *error = NULL;
  gboolean changed;
  (void) data;
  if (p == NULL || !fxir_parse (S, "eliminate_dead_code", args, n_args, kwargs, NULL, 0, 0, NULL))
    return FALSE;
  changed = fx_graph_eliminate_dead_code (p->graph, &error);
  if (error != NULL)
    return fxir_raise_gerror (S, error);
  *result = fx_value_bool (changed);
  return TRUE;
}

static gboolean
gr_python_code (FX_ARGS)
{
  static const char *const names[] = { "root_module", "verbose" };
  const FxValue *a[2];
  GraphPayload *p = fxir_graph_self (S, &args[0], "python_code");
  ScFxState *st = sc_fx_state (S);
  gboolean verbose = FALSE;
  g_autofree char *src = NULL;
  g_autoptr (GPtrArray) gnames = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) gvalues = g_ptr_array_new ();
  FxDict *globals, *dict;
  (void) data;
  if (p == NULL || !fxir_parse (S, "python_code", args, n_args, kwargs, names, 2, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "python_code() root_module must be a str");
  if (a[1] != NULL && !sc_truth (S, a[1], &verbose))
    return FALSE;
  src = fx_graph_python_code_full (p->graph, a[0]->s->data, verbose, gnames, gvalues);
  *result = fx_script_instance_new (S, st->pycode_cls);
  dict = fx_script_instance_dict (result);
  sc_dict_set_str (dict, "src", fx_value_str (src));
  globals = fx_dict_new ();
  for (guint i = 0; i < gnames->len; i++)
    sc_dict_set_str (globals, gnames->pdata[i], fx_value_copy (gvalues->pdata[i]));
  sc_dict_set_str (dict, "globals", fx_value_take_dict (globals));
  return TRUE;
}

static gboolean
gr_str (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "__str__");
  (void) n_args; (void) kwargs; (void) data;
  if (p == NULL)
    return FALSE;
  {
    g_autofree char *s = fx_graph_to_string (p->graph);
    *result = fx_value_str (s);
  }
  return TRUE;
}

static gboolean
gr_print_tabular (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "print_tabular");
  g_autofree char *s = NULL;
  (void) data;
  if (p == NULL || !fxir_parse (S, "print_tabular", args, n_args, kwargs, NULL, 0, 0, NULL))
    return FALSE;
  s = fx_graph_tabular (p->graph);
  fx_script_write_stdout (S, s, -1);
  if (!g_str_has_suffix (s, "\n"))
    fx_script_write_stdout (S, "\n", 1);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
gr_deepcopy (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "__deepcopy__");
  GError *error = NULL;
  FxGraph *copy;
  (void) n_args; (void) kwargs; (void) data;
  if (p == NULL)
    return FALSE;
  copy = fx_graph_copy (p->graph, &error);
  if (copy == NULL)
    return fxir_raise_gerror (S, error);
  *result = sc_fx_graph_wrap (S, copy);
  fx_graph_unref (copy);
  return TRUE;
}

static gboolean
gr_nodes (FX_ARGS)
{
  GraphPayload *p = fxir_graph_self (S, &args[0], "nodes");
  ScFxState *st = sc_fx_state (S);
  GraphRefPayload *lp;
  (void) n_args; (void) kwargs; (void) data;
  if (p == NULL)
    return FALSE;
  *result = fx_script_instance_new (S, st->node_list_cls);
  lp = fx_script_instance_payload (result);
  lp->graph = fx_graph_ref (p->graph);
  return TRUE;
}

/* find_nodes is 2.x API, but handy for passes: find_nodes(op=, target=None) */

/* ------------------------------------------------------------------ _node_list */

/* Iteration follows the links as torch.fx's generator does, so nodes inserted after the
 * current one are visited; erasing the current node is safe (its successor at the time it
 * was produced is remembered). it->func holds the last node produced (or the graph), it->gen
 * the successor as it was then (raw: the graph keeps every node allocated). */
typedef struct {
  FxGraph *graph;                /* referenced */
  FxNode *last;                  /* last produced, NULL before the first */
  FxNode *saved;                 /* successor of last when produced */
  gboolean reversed;
} NodeIter;

static void
node_iter_free (gpointer data)
{
  NodeIter *ni = data;
  fx_graph_unref (ni->graph);
  g_free (ni);
}

static int
node_iter_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  NodeIter *ni = it->gen;
  FxNode *cand;

  if (ni == NULL || it->exhausted)
    return 0;
  if (ni->last == NULL)
    cand = ni->reversed ? fx_graph_last (ni->graph) : fx_graph_first (ni->graph);
  else if (!ni->last->erased)
    cand = ni->reversed ? ni->last->prev : ni->last->next;
  else
    cand = ni->saved;
  while (cand != NULL && cand->op != FX_OP_ROOT && cand->erased)
    cand = NULL;   /* its links are gone: nothing sensible follows */
  if (cand == NULL || cand->op == FX_OP_ROOT)
    {
      it->exhausted = TRUE;
      return 0;
    }
  ni->last = cand;
  ni->saved = ni->reversed ? cand->prev : cand->next;
  *out = sc_fx_node_wrap (S, cand);
  return 1;
}

static FxValue
node_iter_new (FxScript *S, FxGraph *graph, gboolean reversed)
{
  FxValue v = sc_iterobj_new (S, SC_T_ITERATOR, node_iter_next);
  ScIterObj *it = (ScIterObj *) v.obj;
  NodeIter *ni = g_new0 (NodeIter, 1);
  ni->graph = fx_graph_ref (graph);
  ni->reversed = reversed;
  it->gen = ni;
  it->gen_free = node_iter_free;
  return v;
}

static gboolean
nl_iter (FX_ARGS)
{
  GraphRefPayload *lp = fx_script_instance_payload (&args[0]);
  (void) n_args; (void) kwargs; (void) data;
  if (lp == NULL || lp->graph == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "invalid node list");
  *result = node_iter_new (S, lp->graph, lp->reversed);
  return TRUE;
}

static gboolean
nl_len (FX_ARGS)
{
  GraphRefPayload *lp = fx_script_instance_payload (&args[0]);
  (void) n_args; (void) kwargs; (void) data;
  if (lp == NULL || lp->graph == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "invalid node list");
  *result = fx_value_int (fx_graph_n_nodes (lp->graph));
  return TRUE;
}

static gboolean
nl_reversed (FX_ARGS)
{
  GraphRefPayload *lp = fx_script_instance_payload (&args[0]);
  ScFxState *st = sc_fx_state (S);
  GraphRefPayload *rp;
  (void) n_args; (void) kwargs; (void) data;
  if (lp == NULL || lp->graph == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "invalid node list");
  *result = fx_script_instance_new (S, st->node_list_cls);
  rp = fx_script_instance_payload (result);
  rp->graph = fx_graph_ref (lp->graph);
  rp->reversed = !lp->reversed;
  return TRUE;
}

static void
add (FxScriptClass *cls, const char *name, FxScriptFunc func)
{
  fx_script_class_add_method (cls, name, func, NULL);
}

void
fxir_graph_classes_init (FxScript *S, ScFxState *st)
{
  FxScriptClassInfo graph_info = { "torch.fx.graph", "Graph", NULL, fxir_graph_payload_new,
                                   fxir_graph_payload_free, st };
  FxScriptClassInfo list_info = { "torch.fx.graph", "_node_list", NULL, fxir_ref_payload_new,
                                  fxir_ref_payload_free, st };
  FxScriptClassInfo insert_info = { "torch.fx.graph", "_InsertPoint", NULL, fxir_ref_payload_new,
                                    fxir_ref_payload_free, st };
  FxScriptClassInfo pycode_info = { "torch.fx.graph", "PythonCode", NULL, NULL, NULL, NULL };
  FxScriptClass *c;

  c = st->graph_cls = fx_script_class_new (S, &graph_info, NULL);
  add (c, "__init__", gr_init);
  fx_script_class_add_property (c, "nodes", gr_nodes, NULL, NULL);
  fx_script_class_add_property (c, "owning_module", gr_owning_module, gr_set_owning_module, NULL);
  add (c, "placeholder", gr_placeholder);
  add (c, "get_attr", gr_get_attr);
  add (c, "call_function", gr_call_function);
  add (c, "call_method", gr_call_method);
  add (c, "call_module", gr_call_module);
  add (c, "output", gr_output);
  add (c, "create_node", gr_create_node);
  add (c, "inserting_before", gr_inserting_before);
  add (c, "inserting_after", gr_inserting_after);
  add (c, "erase_node", gr_erase_node);
  add (c, "node_copy", gr_node_copy);
  add (c, "graph_copy", gr_graph_copy);
  add (c, "lint", gr_lint);
  add (c, "eliminate_dead_code", gr_eliminate_dead_code);
  add (c, "python_code", gr_python_code);
  add (c, "__str__", gr_str);
  add (c, "print_tabular", gr_print_tabular);
  add (c, "__deepcopy__", gr_deepcopy);

  c = st->node_list_cls = fx_script_class_new (S, &list_info, NULL);
  add (c, "__iter__", nl_iter);
  add (c, "__len__", nl_len);
  add (c, "__reversed__", nl_reversed);

  c = st->insert_cls = fx_script_class_new (S, &insert_info, NULL);
  add (c, "__enter__", ip_enter);
  add (c, "__exit__", ip_exit);

  st->pycode_cls = fx_script_class_new (S, &pycode_info, NULL);
}
