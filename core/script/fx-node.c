/* fx-node.c: torch.fx.Node for scripts — the attributes of a node (args and kwargs kept
 * in step with users), editing its uses and its place in the graph, and printing. */
#include "script/fx-ir-private.h"
#include "ir/codegen.h"
#include "ir/graph-module.h"

#include <string.h>

/* ------------------------------------------------------------------ Node */

#define NODE_GETTER(fname, expr) \
  static gboolean \
  fname (FX_ARGS) \
  { \
    FxNode *n = fxir_node_self (S, &args[0], #fname); \
    (void) n_args; (void) kwargs; (void) data; \
    if (n == NULL) \
      return FALSE; \
    *result = (expr); \
    return TRUE; \
  }

static FxValue
users_dict (FxScript *S, FxNode *n)
{
  FxDict *d = fx_dict_new ();
  FxNode *u;
  for (guint i = 0; fx_node_set_iter (&n->users, &i, &u);)
    fx_dict_set (d, sc_fx_node_wrap (S, u), fx_value_none ());
  return fx_value_take_dict (d);
}

static FxValue
node_list (FxScript *S, GPtrArray *nodes)
{
  FxSeq *seq = fx_seq_new (nodes->len);
  for (guint i = 0; i < nodes->len; i++)
    seq->items[i] = sc_fx_node_wrap (S, nodes->pdata[i]);
  g_ptr_array_unref (nodes);
  return fx_value_take_list (seq);
}

static FxValue
stack_trace_value (FxNode *n)
{
  FxValue key = fx_value_str ("stack_trace");
  FxValue *v = fx_dict_get (n->meta, &key);
  fx_value_clear (&key);
  return v ? fx_value_copy (v) : fx_value_none ();
}

NODE_GETTER (nd_name, fx_value_str (n->name))
NODE_GETTER (nd_op, fx_value_str (fx_node_op_name (n->op)))
NODE_GETTER (nd_target, fx_value_copy (&n->target))
NODE_GETTER (nd_args, sc_fx_value_to_script (S, &n->args))
NODE_GETTER (nd_kwargs, sc_fx_value_to_script (S, &n->kwargs))
NODE_GETTER (nd_users, users_dict (S, n))
NODE_GETTER (nd_all_input_nodes, node_list (S, fx_node_all_input_nodes (n)))
NODE_GETTER (nd_next, sc_fx_node_wrap (S, n->next))
NODE_GETTER (nd_prev, sc_fx_node_wrap (S, n->prev))
NODE_GETTER (nd_meta, fx_value_take_dict (fx_dict_ref (n->meta)))
NODE_GETTER (nd_type, fxir_type_value (S, n))
NODE_GETTER (nd_graph, sc_fx_graph_wrap (S, n->graph))
NODE_GETTER (nd_stack_trace, stack_trace_value (n))
NODE_GETTER (nd_repr, fx_value_str (n->name))

static gboolean
nd_set_args (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "args");
  g_auto (FxValue) v = { 0 };
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL || !fxir_node_args (S, &args[1], &v))
    return FALSE;
  fx_node_set_args (n, &v);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_set_kwargs (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "kwargs");
  g_auto (FxValue) v = { 0 };
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL || !fxir_node_kwargs (S, &args[1], &v))
    return FALSE;
  fx_node_set_kwargs (n, &v);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_set_target (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "target");
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL)
    return FALSE;
  if (n->op == FX_OP_CALL_FUNCTION ? (args[1].kind != FX_VALUE_OP && !sc_callable (S, &args[1]))
                                   : args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "invalid target of type '%s' for a %s node",
                     sc_type_name (S, &args[1]), fx_node_op_name (n->op));
  fx_value_clear (&n->target);
  n->target = fx_value_copy (&args[1]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_set_meta (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "meta");
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL)
    return FALSE;
  if (args[1].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "meta must be a dict, not '%s'", sc_type_name (S, &args[1]));
  fx_dict_ref (args[1].dict);
  fx_dict_unref (n->meta);
  n->meta = args[1].dict;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_set_type (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "type");
  g_autofree char *type = NULL;
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL || !sc_fx_type_to_str (S, &args[1], &type))
    return FALSE;
  fx_value_clear (&n->type);
  n->type = type ? fx_value_str (type) : fx_value_none ();
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_set_stack_trace (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "stack_trace");
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL)
    return FALSE;
  fx_dict_set (n->meta, fx_value_str ("stack_trace"), fx_value_copy (&args[1]));
  *result = fx_value_none ();
  return TRUE;
}

/* node.name = 'x': in 1.13 a plain attribute. The graph's namespace is not told (the old name
 * stays taken, the new one may clash); the generated code renames clashes. */
static gboolean
nd_set_name (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "name");
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL)
    return FALSE;
  if (args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "Node.name must be a str, not '%s'",
                     sc_type_name (S, &args[1]));
  if (n->op == FX_OP_ROOT)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "the graph's root node cannot be renamed");
  /* names belong to the graph's namespace, which cannot take one in: interned instead */
  n->name = g_intern_string (args[1].s->data);
  *result = fx_value_none ();
  return TRUE;
}

typedef struct {
  FxScript *S;
  const FxValue *cb;
  gboolean failed;
} FilterCall;

static gboolean
filter_cb (FxNode *user, gpointer user_data)
{
  FilterCall *fc = user_data;
  g_auto (FxValue) w = { 0 };
  g_auto (FxValue) r = { 0 };
  gboolean keep = FALSE;
  if (fc->failed)
    return FALSE;
  w = sc_fx_node_wrap (fc->S, user);
  if (!sc_call1 (fc->S, fc->cb, &w, &r) || !sc_truth (fc->S, &r, &keep))
    {
      fc->failed = TRUE;
      return FALSE;
    }
  return keep;
}

static gboolean
nd_replace_all_uses_with (FX_ARGS)
{
  static const char *const names[] = { "replace_with", "delete_user_cb", "propagate_meta" };
  const FxValue *a[3];
  FxNode *n = fxir_node_self (S, &args[0], "replace_all_uses_with"), *with;
  FilterCall fc = { S, NULL, FALSE };
  GPtrArray *changed;
  (void) data;
  if (n == NULL || !fxir_parse (S, "replace_all_uses_with", args, n_args, kwargs, names, 3, 1, a)
      || !fxir_node_arg (S, "replace_all_uses_with", a[0], FALSE, &with))
    return FALSE;
  fc.cb = a[1];
  changed = fx_node_replace_all_uses_with (n, with, a[1] != NULL ? filter_cb : NULL, &fc);
  if (fc.failed)
    {
      g_ptr_array_unref (changed);
      return FALSE;
    }
  *result = node_list (S, changed);
  return TRUE;
}

static gboolean
nd_replace_input_with (FX_ARGS)
{
  static const char *const names[] = { "old_input", "new_input" };
  const FxValue *a[2];
  FxNode *n = fxir_node_self (S, &args[0], "replace_input_with"), *from, *to;
  (void) data;
  if (n == NULL || !fxir_parse (S, "replace_input_with", args, n_args, kwargs, names, 2, 2, a)
      || !fxir_node_arg (S, "replace_input_with", a[0], FALSE, &from)
      || !fxir_node_arg (S, "replace_input_with", a[1], FALSE, &to))
    return FALSE;
  fx_node_replace_input_with (n, from, to);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_update_arg (FX_ARGS)
{
  static const char *const names[] = { "idx", "arg" };
  const FxValue *a[2];
  FxNode *n = fxir_node_self (S, &args[0], "update_arg");
  g_auto (FxValue) v = { 0 };
  GError *error = NULL;
  int64_t idx;
  (void) data;
  if (n == NULL || !fxir_parse (S, "update_arg", args, n_args, kwargs, names, 2, 2, a)
      || !fx_script_to_int (S, a[0], &idx) || !sc_fx_value_from_script (S, a[1], &v))
    return FALSE;
  if (idx < 0)
    idx += n->args.seq->len;
  if (idx < 0 || idx >= n->args.seq->len)
    return sc_raise (S, SC_T_INDEX_ERROR, "list assignment index out of range");
  if (!fx_node_update_arg (n, (int) idx, &v, &error))
    return fxir_raise_gerror (S, error);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_update_kwarg (FX_ARGS)
{
  static const char *const names[] = { "key", "arg" };
  const FxValue *a[2];
  FxNode *n = fxir_node_self (S, &args[0], "update_kwarg");
  g_auto (FxValue) v = { 0 };
  (void) data;
  if (n == NULL || !fxir_parse (S, "update_kwarg", args, n_args, kwargs, names, 2, 2, a)
      || !sc_fx_value_from_script (S, a[1], &v))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "update_kwarg() key must be a str");
  fx_node_update_kwarg (n, a[0]->s->data, &v);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
move_node (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, gboolean after,
           FxValue *result)
{
  static const char *const names[] = { "x" };
  const FxValue *a[1];
  const char *fname = after ? "append" : "prepend";
  FxNode *n = fxir_node_self (S, &args[0], fname), *x;
  if (n == NULL || !fxir_parse (S, fname, args, n_args, kwargs, names, 1, 1, a)
      || !fxir_node_arg (S, fname, a[0], FALSE, &x))
    return FALSE;
  if (x->graph != n->graph)
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  if (x != n)
    {
      if (after)
        fx_node_append (n, x);
      else
        fx_node_prepend (n, x);
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
nd_prepend (FX_ARGS)
{
  (void) data;
  return move_node (S, args, n_args, kwargs, FALSE, result);
}

static gboolean
nd_append (FX_ARGS)
{
  (void) data;
  return move_node (S, args, n_args, kwargs, TRUE, result);
}

static gboolean
nd_format_node (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "format_node");
  g_autofree char *s = NULL;
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL)
    return FALSE;
  s = fx_node_format (n);
  *result = s ? fx_value_str (s) : fx_value_none ();
  return TRUE;
}

static gboolean
nd_is_impure (FX_ARGS)
{
  FxNode *n = fxir_node_self (S, &args[0], "is_impure");
  (void) n_args; (void) kwargs; (void) data;
  if (n == NULL)
    return FALSE;
  *result = fx_value_bool (fx_node_is_impure (n));
  return TRUE;
}

static void
add (FxScriptClass *cls, const char *name, FxScriptFunc func)
{
  fx_script_class_add_method (cls, name, func, NULL);
}

void
fxir_node_class_init (FxScript *S, ScFxState *st)
{
  FxScriptClassInfo node_info = { "torch.fx.node", "Node", NULL, fxir_node_payload_new,
                                  fxir_node_payload_free, st };
  FxScriptClass *c;

  c = st->node_cls = fx_script_class_new (S, &node_info, NULL);
  fx_script_class_add_property (c, "name", nd_name, nd_set_name, NULL);
  fx_script_class_add_property (c, "op", nd_op, NULL, NULL);
  fx_script_class_add_property (c, "target", nd_target, nd_set_target, NULL);
  fx_script_class_add_property (c, "args", nd_args, nd_set_args, NULL);
  fx_script_class_add_property (c, "kwargs", nd_kwargs, nd_set_kwargs, NULL);
  fx_script_class_add_property (c, "users", nd_users, NULL, NULL);
  fx_script_class_add_property (c, "all_input_nodes", nd_all_input_nodes, NULL, NULL);
  fx_script_class_add_property (c, "next", nd_next, NULL, NULL);
  fx_script_class_add_property (c, "prev", nd_prev, NULL, NULL);
  fx_script_class_add_property (c, "meta", nd_meta, nd_set_meta, NULL);
  fx_script_class_add_property (c, "type", nd_type, nd_set_type, NULL);
  fx_script_class_add_property (c, "graph", nd_graph, NULL, NULL);
  fx_script_class_add_property (c, "stack_trace", nd_stack_trace, nd_set_stack_trace, NULL);
  add (c, "__repr__", nd_repr);
  add (c, "replace_all_uses_with", nd_replace_all_uses_with);
  add (c, "replace_input_with", nd_replace_input_with);
  add (c, "update_arg", nd_update_arg);
  add (c, "update_kwarg", nd_update_kwarg);
  add (c, "prepend", nd_prepend);
  add (c, "append", nd_append);
  add (c, "format_node", nd_format_node);
  add (c, "is_impure", nd_is_impure);
  fx_script_set_kind_class (S, FX_VALUE_NODE, c);
}
