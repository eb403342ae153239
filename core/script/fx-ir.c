/* fx-ir.c: the modules torch.fx._ir, torch.fx.graph, torch.fx.node and torch.fx.graph_module:
 * one script wrapper per FxGraph and per FxNode, the conversions between Node wrappers and
 * FX_VALUE_NODE references in argument trees, and map_arg / map_aggregate. */
#include "script/fx-ir-private.h"
#include "script/nn-bind.h"
#include "rewrite/rewrite-script.h"

#include <string.h>

G_LOCK_DEFINE_STATIC (states);
static GHashTable *states;       /* FxScript* → ScFxState* */

static void
state_clear (gpointer data)
{
  ScFxState *st = data;
  g_hash_table_unref (st->graphs);
  g_hash_table_unref (st->nodes);
  g_hash_table_unref (st->orphans);
  fx_dict_unref (st->type_objects);
}

static ScFxState *
state_ref (ScFxState *st)
{
  return g_rc_box_acquire (st);
}

static void
state_unref (ScFxState *st)
{
  g_rc_box_release_full (st, state_clear);
}

ScFxState *
sc_fx_state (FxScript *S)
{
  ScFxState *st = NULL;
  G_LOCK (states);
  if (states != NULL)
    st = g_hash_table_lookup (states, S);
  G_UNLOCK (states);
  return st;
}

/* ------------------------------------------------------------------ Node wrappers' lifetime */

/* A Node wrapper lives as long as its Graph's wrapper (which holds it), so what a script
 * stores on a node stays; a wrapper made while its graph has no wrapper is an orphan (held
 * only by its users) until one is made. */
static void
node_wrapper_attach (ScFxState *st, NodePayload *np)
{
  GraphPayload *gp = g_hash_table_lookup (st->graphs, np->node->graph);
  if (gp == NULL)
    {
      g_hash_table_add (st->orphans, np);
      return;
    }
  if (gp->node_wrappers == NULL)
    gp->node_wrappers = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_object_unref);
  g_ptr_array_add (gp->node_wrappers, fx_object_ref (&np->inst->base));
  np->held = TRUE;
  g_hash_table_remove (st->orphans, np);
}

/* A new wrapper of graph takes in the orphan Node wrappers of graph. */
static void
graph_adopt_orphans (ScFxState *st, FxGraph *graph)
{
  GPtrArray *mine;
  GHashTableIter it;
  gpointer key;

  if (g_hash_table_size (st->orphans) == 0)
    return;
  mine = g_ptr_array_new ();
  g_hash_table_iter_init (&it, st->orphans);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (((NodePayload *) key)->node->graph == graph)
      g_ptr_array_add (mine, key);
  for (guint i = 0; i < mine->len; i++)
    node_wrapper_attach (st, mine->pdata[i]);
  g_ptr_array_unref (mine);
}

/* A Graph wrapper lets its Node wrappers go: those still used elsewhere become orphans. The
 * caller has taken gp out of st->graphs, so that none is attached to it meanwhile. */
static void
graph_release_nodes (ScFxState *st, GraphPayload *gp)
{
  GPtrArray *table = gp->node_wrappers;

  if (table == NULL)
    return;
  gp->node_wrappers = NULL;
  for (guint i = 0; i < table->len; i++)
    {
      gpointer value = table->pdata[i];
      NodePayload *np = ((ScInstance *) value)->payload;
      np->held = FALSE;
      /* a wrapper the table alone holds goes with the table: no orphan to note */
      if (g_atomic_int_get (&((ScInstance *) value)->base.ref) > 1)
        g_hash_table_add (st->orphans, np);
    }
  g_ptr_array_unref (table);   /* the wrappers used nowhere else go (and leave the orphans) */
}

/* The interpreter goes, what it reaches already emptied. A Node's attributes can still lead
 * back to its Graph's wrapper, which holds the Node: a cycle only this breaks. The attributes
 * of every live Graph and Node wrapper are emptied, then the Graph wrappers let go. */
static void
state_release_wrappers (ScFxState *st)
{
  GPtrArray *insts = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_object_unref);
  GPtrArray *graphs = g_ptr_array_new ();
  GHashTableIter it;
  gpointer value;
  guint n_graphs;

  g_hash_table_iter_init (&it, st->graphs);
  while (g_hash_table_iter_next (&it, NULL, &value))
    if (((GraphPayload *) value)->inst != NULL)
      {
        g_ptr_array_add (insts, fx_object_ref (&((GraphPayload *) value)->inst->base));
        g_ptr_array_add (graphs, value);
      }
  n_graphs = insts->len;
  g_hash_table_iter_init (&it, st->nodes);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_ptr_array_add (insts, fx_object_ref (&((NodePayload *) value)->inst->base));
  /* the references taken keep every payload alive until the end */
  for (guint i = 0; i < insts->len; i++)
    sc_dict_empty (((ScInstance *) insts->pdata[i])->dict);
  for (guint i = 0; i < n_graphs; i++)
    {
      GraphPayload *gp = graphs->pdata[i];
      if (gp->graph != NULL && g_hash_table_lookup (st->graphs, gp->graph) == gp)
        g_hash_table_remove (st->graphs, gp->graph);
      graph_release_nodes (st, gp);
    }
  g_ptr_array_unref (graphs);
  g_ptr_array_unref (insts);
}

/* ------------------------------------------------------------------ payloads */

gpointer
fxir_graph_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  GraphPayload *p = g_new0 (GraphPayload, 1);
  (void) S;
  (void) cls;
  p->st = state_ref (class_data);
  return p;
}

void
fxir_graph_payload_free (gpointer data)
{
  GraphPayload *p = data;
  if (p->graph != NULL)
    {
      if (g_hash_table_lookup (p->st->graphs, p->graph) == p)
        g_hash_table_remove (p->st->graphs, p->graph);
      graph_release_nodes (p->st, p);
      fx_graph_unref (p->graph);
    }
  g_clear_pointer (&p->owner, fx_module_unref);
  state_unref (p->st);
  g_free (p);
}

gpointer
fxir_node_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  NodePayload *p = fx_new0 (NodePayload, 1);
  (void) S;
  (void) cls;
  p->st = state_ref (class_data);
  return p;
}

void
fxir_node_payload_free (gpointer data)
{
  NodePayload *p = data;
  if (p->node != NULL)
    {
      FxGraph *graph = p->node->graph;
      if (g_hash_table_lookup (p->st->nodes, p->node) == p)
        g_hash_table_remove (p->st->nodes, p->node);
      if (g_hash_table_size (p->st->orphans) > 0)
        g_hash_table_remove (p->st->orphans, p);
      fx_graph_unref (graph);
    }
  state_unref (p->st);
  fx_mem_free (p, sizeof *p);
}

gpointer
fxir_ref_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  (void) S;
  (void) cls;
  (void) class_data;
  return g_new0 (GraphRefPayload, 1);
}

void
fxir_ref_payload_free (gpointer data)
{
  GraphRefPayload *p = data;
  g_clear_pointer (&p->graph, fx_graph_unref);
  g_free (p);
}

gpointer
fxir_payload_of (const FxValue *v, gpointer (*payload_new) (FxScript *, FxScriptClass *, gpointer))
{
  ScInstance *inst = sc_value_instance (v);
  if (inst == NULL || inst->cls->payload_class == NULL
      || inst->cls->payload_class->payload_new != payload_new)
    return NULL;
  return inst->payload;
}

GraphPayload *
fxir_graph_payload (const FxValue *v)
{
  GraphPayload *p = fxir_payload_of (v, fxir_graph_payload_new);
  if (p != NULL && p->graph == NULL)
    {
      p->graph = fx_graph_new ();
      p->inst = sc_value_instance (v);
      g_hash_table_insert (p->st->graphs, p->graph, p);
    }
  return p;
}

FxGraph *
sc_fx_graph_get (const FxValue *v)
{
  GraphPayload *p = fxir_graph_payload (v);
  return p ? p->graph : NULL;
}

FxNode *
sc_fx_node_get (const FxValue *v)
{
  NodePayload *p;
  if (v->kind == FX_VALUE_NODE)
    return v->node;
  p = fxir_payload_of (v, fxir_node_payload_new);
  return p ? p->node : NULL;
}

FxValue
fxir_instance_value (ScInstance *inst)
{
  return fx_value_take_object (fx_object_ref (&inst->base));
}

FxValue
sc_fx_graph_wrap (FxScript *S, FxGraph *graph)
{
  ScFxState *st = sc_fx_state (S);
  GraphPayload *p;
  FxValue v;

  g_return_val_if_fail (st != NULL, fx_value_none ());
  p = g_hash_table_lookup (st->graphs, graph);
  if (p != NULL)
    return fxir_instance_value (p->inst);
  v = fx_script_instance_new (S, st->graph_cls);
  p = fxir_payload_of (&v, fxir_graph_payload_new);
  p->graph = fx_graph_ref (graph);
  p->inst = sc_value_instance (&v);
  g_hash_table_insert (st->graphs, graph, p);
  graph_adopt_orphans (st, graph);
  return v;
}

FxValue
sc_fx_node_wrap (FxScript *S, FxNode *node)
{
  ScFxState *st = sc_fx_state (S);
  NodePayload *p;
  FxValue v;

  g_return_val_if_fail (st != NULL, fx_value_none ());
  p = g_hash_table_lookup (st->nodes, node);
  if (p != NULL)
    return fxir_instance_value (p->inst);
  v = fx_script_instance_new (S, st->node_cls);
  p = fxir_payload_of (&v, fxir_node_payload_new);
  fx_graph_ref (node->graph);
  p->node = node;
  p->inst = sc_value_instance (&v);
  g_hash_table_insert (st->nodes, node, p);
  node_wrapper_attach (st, p);
  return v;
}

FxValue
sc_fx_node_wrap_new (FxScript *S, const FxValue *graph_value, FxNode *node)
{
  GraphPayload *gp = fxir_graph_payload (graph_value);
  NodePayload *p;
  FxValue v;

  if (gp == NULL || gp->graph != node->graph)
    return sc_fx_node_wrap (S, node);
  v = fx_script_instance_new (S, gp->st->node_cls);
  p = fxir_payload_of (&v, fxir_node_payload_new);
  fx_graph_ref (node->graph);
  p->node = node;
  p->inst = sc_value_instance (&v);
  g_hash_table_insert (gp->st->nodes, node, p);
  /* node_wrapper_attach, its graph's payload known */
  if (gp->node_wrappers == NULL)
    gp->node_wrappers = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_object_unref);
  g_ptr_array_add (gp->node_wrappers, fx_object_ref (&p->inst->base));
  p->held = TRUE;
  return v;
}

/* ------------------------------------------------------------------ value trees */

static FxValue
wrap_node_cb (FxNode *node, gpointer user_data)
{
  return sc_fx_node_wrap (user_data, node);
}

FxValue
sc_fx_value_to_script (FxScript *S, const FxValue *value)
{
  return fx_value_map_nodes (value, wrap_node_cb, S);
}

static gboolean
from_script (FxScript *S, const FxValue *v, FxValue *out, int depth)
{
  FxNode *node;

  if (depth > SC_RECURSION_LIMIT)
    return sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded while mapping arguments");
  switch (v->kind)
    {
    case FX_VALUE_OBJECT:
      if ((node = sc_fx_node_get (v)) != NULL)
        {
          *out = fx_value_node (node);
          return TRUE;
        }
      *out = fx_value_copy (v);
      return TRUE;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      {
        FxSeq *seq = fx_seq_new (v->seq->len);
        seq->type = v->kind == FX_VALUE_TUPLE ? v->seq->type : NULL;
        for (guint i = 0; i < v->seq->len; i++)
          if (!from_script (S, &v->seq->items[i], &seq->items[i], depth + 1))
            {
              fx_seq_unref (seq);
              return FALSE;
            }
        *out = v->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
        return TRUE;
      }
    case FX_VALUE_DICT:
      {
        FxDict *d = fx_dict_new ();
        const FxValue *k, *val;
        for (guint i = 0; fx_dict_entry (v->dict, i, &k, &val); i++)
          {
            FxValue mk, mv;
            if (!from_script (S, k, &mk, depth + 1))
              {
                fx_dict_unref (d);
                return FALSE;
              }
            if (!from_script (S, val, &mv, depth + 1))
              {
                fx_value_clear (&mk);
                fx_dict_unref (d);
                return FALSE;
              }
            fx_dict_set (d, mk, mv);
          }
        *out = fx_value_take_dict (d);
        return TRUE;
      }
    case FX_VALUE_SLICE:
      {
        FxValue a, b, c;
        if (!from_script (S, &v->slice->start, &a, depth + 1))
          return FALSE;
        if (!from_script (S, &v->slice->stop, &b, depth + 1))
          {
            fx_value_clear (&a);
            return FALSE;
          }
        if (!from_script (S, &v->slice->step, &c, depth + 1))
          {
            fx_value_clear (&a);
            fx_value_clear (&b);
            return FALSE;
          }
        *out = fx_value_take_slice (fx_slice_new (a, b, c));
        return TRUE;
      }
    default:
      *out = fx_value_copy (v);
      return TRUE;
    }
}

gboolean
sc_fx_value_from_script (FxScript *S, const FxValue *value, FxValue *out)
{
  return from_script (S, value, out, 0);
}

gboolean
sc_fx_type_to_str (FxScript *S, const FxValue *type_expr, char **out)
{
  FxScriptClass *cls;
  ScFxState *st;
  GString *s;

  *out = NULL;
  if (type_expr == NULL || type_expr->kind == FX_VALUE_NONE)
    return TRUE;
  if (type_expr->kind == FX_VALUE_STR)
    {
      *out = g_strdup (type_expr->s->data);
      return TRUE;
    }
  if ((cls = sc_value_class (type_expr)) != NULL)
    {
      if (cls->module == NULL || strcmp (cls->module->data, "builtins") == 0)
        *out = g_strdup (cls->qualname->data);
      else
        *out = g_strdup_printf ("%s.%s", cls->module->data, cls->qualname->data);
    }
  else
    {
      s = g_string_new (NULL);
      if (!sc_repr (S, type_expr, s))
        {
          g_string_free (s, TRUE);
          return FALSE;
        }
      *out = g_string_free (s, FALSE);
    }
  /* Node.type gives the object back (the IR keeps the text) */
  if ((st = sc_fx_state (S)) != NULL)
    fx_dict_set (st->type_objects, fx_value_str (*out), fx_value_copy (type_expr));
  return TRUE;
}

/* Node.type: the type object the annotation was made from, else its text. */
FxValue
fxir_type_value (FxScript *S, const FxNode *n)
{
  ScFxState *st = sc_fx_state (S);
  FxValue *v = n->type.kind == FX_VALUE_STR && st != NULL ? fx_dict_get (st->type_objects, &n->type) : NULL;
  return fx_value_copy (v != NULL ? v : &n->type);
}

/* ------------------------------------------------------------------ argument helpers */

gboolean
fxir_parse (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
       const char *const *names, int n_names, int n_required, const FxValue **out)
{
  /* args[0] is self */
  return fx_script_parse_args (S, fname, args + 1, n_args - 1, kwargs, names, n_names, n_names,
                               n_required, out);
}

GraphPayload *
fxir_graph_self (FxScript *S, const FxValue *self, const char *fname)
{
  GraphPayload *p = fxir_graph_payload (self);
  if (p == NULL)
    sc_raise (S, SC_T_TYPE_ERROR, "descriptor '%s' requires a 'Graph' object but received a '%s'",
              fname, sc_type_name (S, self));
  return p;
}

FxNode *
fxir_node_self (FxScript *S, const FxValue *self, const char *fname)
{
  FxNode *n = sc_fx_node_get (self);
  if (n == NULL)
    sc_raise (S, SC_T_TYPE_ERROR, "descriptor '%s' requires a 'Node' object but received a '%s'",
              fname, sc_type_name (S, self));
  return n;
}

/* A Node argument (or None when allow_none). */
gboolean
fxir_node_arg (FxScript *S, const char *fname, const FxValue *v, gboolean allow_none, FxNode **out)
{
  *out = NULL;
  if (v == NULL || (allow_none && v->kind == FX_VALUE_NONE))
    return TRUE;
  *out = sc_fx_node_get (v);
  if (*out == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() expected a Node, got '%s'", fname, sc_type_name (S, v));
  return TRUE;
}

gboolean
fxir_raise_gerror (FxScript *S, GError *error)
{
  fx_script_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

/* args / kwargs given to a node-creating method: None → empty; a tuple (a list is turned
 * into one, as torch.fx's tuple(args) does) / a dict with str keys. */
gboolean
fxir_node_args (FxScript *S, const FxValue *v, FxValue *out)
{
  FxValue mapped;
  if (v == NULL || v->kind == FX_VALUE_NONE)
    {
      *out = fx_value_take_tuple (fx_seq_new (0));
      return TRUE;
    }
  if (v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST)
    return sc_raise (S, SC_T_TYPE_ERROR, "args must be a tuple, not '%s'", sc_type_name (S, v));
  if (!sc_fx_value_from_script (S, v, &mapped))
    return FALSE;
  if (mapped.kind == FX_VALUE_LIST || mapped.seq->type != NULL)
    {
      FxSeq *seq = fx_seq_new (mapped.seq->len);
      for (guint i = 0; i < mapped.seq->len; i++)
        seq->items[i] = fx_value_copy (&mapped.seq->items[i]);
      fx_value_clear (&mapped);
      mapped = fx_value_take_tuple (seq);
    }
  *out = mapped;
  return TRUE;
}

gboolean
fxir_node_kwargs (FxScript *S, const FxValue *v, FxValue *out)
{
  const FxValue *k, *val;
  if (v == NULL || v->kind == FX_VALUE_NONE)
    {
      *out = fx_value_take_dict (fx_dict_new ());
      return TRUE;
    }
  if (v->kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "kwargs must be a dict, not '%s'", sc_type_name (S, v));
  for (guint i = 0; fx_dict_entry (v->dict, i, &k, &val); i++)
    if (k->kind != FX_VALUE_STR)
      return sc_raise (S, SC_T_TYPE_ERROR, "kwargs keys must be str, not '%s'", sc_type_name (S, k));
  return sc_fx_value_from_script (S, v, out);
}

/* ------------------------------------------------------------------ map_arg / map_aggregate */

typedef struct {
  FxScript *S;
  const FxValue *fn;
  gboolean nodes_only;
} MapAgg;

/* map_aggregate(a, fn): fn on every leaf of tuples, lists and dicts (slices for map_arg);
 * map_arg(a, fn): fn on the Nodes only. */
static gboolean
map_aggregate (MapAgg *m, const FxValue *v, FxValue *out, int depth)
{
  FxScript *S = m->S;
  if (depth > SC_RECURSION_LIMIT)
    return sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded in map_aggregate");
  switch (v->kind)
    {
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      {
        FxSeq *seq = fx_seq_new (v->seq->len);
        seq->type = v->kind == FX_VALUE_TUPLE && v->seq->type && v->seq->type->n_fields > 0
                    ? v->seq->type : NULL;
        for (guint i = 0; i < v->seq->len; i++)
          if (!map_aggregate (m, &v->seq->items[i], &seq->items[i], depth + 1))
            {
              fx_seq_unref (seq);
              return FALSE;
            }
        *out = v->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
        return TRUE;
      }
    case FX_VALUE_DICT:
      {
        FxDict *d = fx_dict_new ();
        const FxValue *k, *val;
        for (guint i = 0; fx_dict_entry (v->dict, i, &k, &val); i++)
          {
            FxValue mv;
            if (!map_aggregate (m, val, &mv, depth + 1))
              {
                fx_dict_unref (d);
                return FALSE;
              }
            fx_dict_set (d, fx_value_copy (k), mv);
          }
        *out = fx_value_take_dict (d);
        return TRUE;
      }
    case FX_VALUE_SLICE:
      {
        FxValue a = fx_value_none (), b = fx_value_none (), c = fx_value_none ();
        if (!map_aggregate (m, &v->slice->start, &a, depth + 1)
            || !map_aggregate (m, &v->slice->stop, &b, depth + 1)
            || !map_aggregate (m, &v->slice->step, &c, depth + 1))
          {
            fx_value_clear (&a);
            fx_value_clear (&b);
            fx_value_clear (&c);
            return FALSE;
          }
        *out = fx_value_take_slice (fx_slice_new (a, b, c));
        return TRUE;
      }
    default:
      if (m->nodes_only && sc_fx_node_get (v) == NULL)
        {
          *out = fx_value_copy (v);
          return TRUE;
        }
      if (v->kind == FX_VALUE_NODE)
        {
          g_auto (FxValue) w = sc_fx_node_wrap (S, v->node);
          return sc_call1 (S, m->fn, &w, out);
        }
      return sc_call1 (S, m->fn, v, out);
    }
}

static gboolean
map_fn (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gboolean nodes_only)
{
  static const char *const names[] = { "a", "fn" };
  const char *fname = nodes_only ? "map_arg" : "map_aggregate";
  const FxValue *a[2];
  MapAgg m = { S, NULL, nodes_only };
  if (!fx_script_parse_args (S, fname, args, n_args, kwargs, names, 2, 2, 2, a))
    return FALSE;
  if (nodes_only && !sc_callable (S, a[1]))
    return sc_raise (S, SC_T_ASSERTION_ERROR, "torch.fx.map_arg(a, fn): fn must be a callable");
  m.fn = a[1];
  return map_aggregate (&m, a[0], result, 0);
}

static gboolean
f_map_arg (FX_ARGS)
{
  (void) data;
  return map_fn (S, args, n_args, kwargs, result, TRUE);
}

static gboolean
f_map_aggregate (FX_ARGS)
{
  (void) data;
  return map_fn (S, args, n_args, kwargs, result, FALSE);
}

/* ------------------------------------------------------------------ module */

FxScriptClass *
sc_fx_graph_module_class (FxScript *S)
{
  ScFxState *st = sc_fx_state (S);
  return st ? st->gm_cls : NULL;
}

gboolean
sc_fx_is_graph_module (FxScript *S, const FxValue *v)
{
  FxScriptClass *cls = sc_fx_graph_module_class (S);
  return cls != NULL && sc_isinstance (S, v, cls);
}

static void
set_class (FxScriptModule *m, FxScriptClass *cls)
{
  fx_script_module_set (m, fx_script_class_get_name (cls), fx_script_class_value (cls));
}

static gboolean
ir_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  ScFxState *st = user_data;
  const char *name = fx_script_module_get_name (m);
  gboolean all = strcmp (name, "torch.fx._ir") == 0 || strcmp (name, "torch.fx") == 0;

  if (all || strcmp (name, "torch.fx.graph") == 0)
    {
      set_class (m, st->graph_cls);
      set_class (m, st->pycode_cls);
      if (!all)   /* 1.13's torch.fx.graph imports map_arg from torch.fx.node */
        fx_script_module_add_function (m, "map_arg", f_map_arg, NULL);
    }
  if (all || strcmp (name, "torch.fx.node") == 0)
    {
      set_class (m, st->node_cls);
      fx_script_module_add_function (m, "map_arg", f_map_arg, NULL);
      fx_script_module_add_function (m, "map_aggregate", f_map_aggregate, NULL);
      /* the annotation aliases of torch.fx.node, as typing.Any */
      {
        FxValue typing, any;
        if (fx_script_import (S, "typing", &typing))
          {
            if (fx_script_getattr (S, &typing, "Any", &any))
              {
                fx_script_module_set (m, "Target", fx_value_copy (&any));
                fx_script_module_set (m, "Argument", any);
              }
            fx_value_clear (&typing);
          }
        fx_script_clear_exception (S);
      }
    }
  if (all || strcmp (name, "torch.fx.graph_module") == 0)
    {
      if (st->gm_cls == NULL && (st->gm_cls = sc_fx_graph_module_init (S)) == NULL)
        return FALSE;
      set_class (m, st->gm_cls);
    }
  return TRUE;
}

static void
state_forget (gpointer data)
{
  ScFxState *st = data;
  G_LOCK (states);
  if (states != NULL)
    {
      GHashTableIter it;
      gpointer k, v;
      g_hash_table_iter_init (&it, states);
      while (g_hash_table_iter_next (&it, &k, &v))
        if (v == st)
          {
            g_hash_table_iter_remove (&it);
            break;
          }
    }
  G_UNLOCK (states);
  state_release_wrappers (st);
  state_unref (st);
}

void
sc_fx_ir_init (FxScript *S)
{
  ScFxState *st;

  if (sc_fx_state (S) != NULL)
    return;
  st = g_rc_box_new0 (ScFxState);
  st->graphs = g_hash_table_new (g_direct_hash, g_direct_equal);
  st->nodes = g_hash_table_new (g_direct_hash, g_direct_equal);
  st->orphans = g_hash_table_new (g_direct_hash, g_direct_equal);
  st->type_objects = fx_dict_new ();
  G_LOCK (states);
  if (states == NULL)
    states = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_hash_table_insert (states, S, st);
  G_UNLOCK (states);
  fxir_graph_classes_init (S, st);
  fxir_node_class_init (S, st);

  /* the module owns the state: forgotten when the interpreter goes */
  fx_script_register_module (S, "torch.fx._ir", ir_module_init, st, state_forget);
  fx_rewrite_script_init (S);   /* torch.fx._rewrite, for torch.fx.subgraph_rewriter */
  fx_script_register_module (S, "torch.fx.graph", ir_module_init, state_ref (st), (GDestroyNotify) state_unref);
  fx_script_register_module (S, "torch.fx.node", ir_module_init, state_ref (st), (GDestroyNotify) state_unref);
  fx_script_register_module (S, "torch.fx.graph_module", ir_module_init, state_ref (st),
                             (GDestroyNotify) state_unref);
  /* a stand-in until the real torch.fx (the tracer's) is registered */
  if (!g_hash_table_contains (S->native_modules, "torch.fx"))
    fx_script_register_module (S, "torch.fx", ir_module_init, state_ref (st), (GDestroyNotify) state_unref);
}

