/* graph.c: FxGraph and FxNode — creation, the insertion point, linking of users, editing,
 * copying, lint and dead code elimination, with torch.fx 1.13's semantics and messages.
 * Nothing here recurses over the graph or is quadratic in its size. */
#include "ir/graph.h"
#include "ir/graph-module.h"
#include "ops/op.h"
#include "fx-error.h"

#include <string.h>

struct _FxGraph {
  gatomicrefcount ref;
  FxNode root;                 /* sentinel: root.next is the first node, root.prev the last */
  guint n_nodes;
  FxNamespace *names;
  FxNode *insert_anchor;       /* &root by default */
  gboolean insert_after;
  FxGraphModule *owning_module;
  guint n_owners;
  GPtrArray *erased;           /* erased nodes stay allocated until the graph goes */
};

/* ---------------------------------------------------------------- node sets */

/* Most sets hold one or two nodes: they live in the array alone and are searched linearly;
 * the hash index appears once a set grows past NODE_SET_SMALL members. */
#define NODE_SET_SMALL 8

static void
node_set_init (FxNodeSet *set)
{
  set->heap = NULL;
  set->len = 0;
  set->cap = G_N_ELEMENTS (set->small);
  set->index = NULL;
  set->count = 0;
}

static inline FxNode **
node_set_items (const FxNodeSet *set)
{
  return set->cap > G_N_ELEMENTS (set->small) ? set->heap : (FxNode **) set->small;
}

static void
node_set_clear (FxNodeSet *set)
{
  if (set->cap > G_N_ELEMENTS (set->small))
    g_free (set->heap);
  g_clear_pointer (&set->index, g_hash_table_unref);
  node_set_init (set);
}

/* Position + 1 of node in the items, or 0. */
static guint
node_set_position (const FxNodeSet *set, const FxNode *node)
{
  FxNode **items = node_set_items (set);
  if (set->index != NULL)
    return GPOINTER_TO_UINT (g_hash_table_lookup (set->index, node));
  for (guint i = 0; i < set->len; i++)
    if (items[i] == node)
      return i + 1;
  return 0;
}

/* Drops the holes once they outnumber the members, keeping add/remove O(1) amortised. */
static void
node_set_compact (FxNodeSet *set)
{
  FxNode **items = node_set_items (set);
  guint out = 0;

  for (guint i = 0; i < set->len; i++)
    {
      FxNode *item = items[i];
      if (item == NULL)
        continue;
      items[out] = item;
      if (set->index != NULL)
        g_hash_table_insert (set->index, item, GUINT_TO_POINTER (out + 1));
      out++;
    }
  set->len = out;
}

static gboolean
node_set_add (FxNodeSet *set, FxNode *node)
{
  FxNode **items;

  if (node_set_position (set, node) != 0)
    return FALSE;
  if (set->len == set->cap)
    {
      FxNode **grown = g_new (FxNode *, set->cap * 2);
      memcpy (grown, node_set_items (set), sizeof (FxNode *) * set->len);
      if (set->cap > G_N_ELEMENTS (set->small))
        g_free (set->heap);
      set->heap = grown;
      set->cap *= 2;
    }
  items = node_set_items (set);
  items[set->len++] = node;
  set->count++;
  if (set->index != NULL)
    g_hash_table_insert (set->index, node, GUINT_TO_POINTER (set->len));
  else if (set->count > NODE_SET_SMALL)
    {
      set->index = g_hash_table_new (g_direct_hash, g_direct_equal);
      for (guint i = 0; i < set->len; i++)
        if (items[i] != NULL)
          g_hash_table_insert (set->index, items[i], GUINT_TO_POINTER (i + 1));
    }
  return TRUE;
}

static gboolean
node_set_remove (FxNodeSet *set, FxNode *node)
{
  guint pos = node_set_position (set, node);

  if (pos == 0)
    return FALSE;
  node_set_items (set)[pos - 1] = NULL;
  if (set->index != NULL)
    g_hash_table_remove (set->index, node);
  set->count--;
  if (set->count == 0)
    set->len = 0;
  else if (set->len > NODE_SET_SMALL && set->count < set->len / 2)
    node_set_compact (set);
  return TRUE;
}

guint
fx_node_set_size (const FxNodeSet *set)
{
  return set->count;
}

gboolean
fx_node_set_contains (const FxNodeSet *set, const FxNode *node)
{
  return node_set_position (set, node) != 0;
}

gboolean
fx_node_set_iter (const FxNodeSet *set, guint *pos, FxNode **node)
{
  FxNode **items = node_set_items (set);
  while (*pos < set->len)
    {
      FxNode *item = items[(*pos)++];
      if (item != NULL)
        {
          *node = item;
          return TRUE;
        }
    }
  return FALSE;
}

GPtrArray *
fx_node_set_to_array (const FxNodeSet *set)
{
  GPtrArray *out = g_ptr_array_sized_new (set->count);
  FxNode *node;

  for (guint i = 0; fx_node_set_iter (set, &i, &node);)
    g_ptr_array_add (out, node);
  return out;
}

/* ---------------------------------------------------------------- values */

FxValue
fx_value_map_nodes (const FxValue *value, FxNodeMapFunc fn, gpointer user_data)
{
  switch (value->kind)
    {
    case FX_VALUE_NODE:
      return fn (value->node, user_data);
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      {
        FxSeq *seq = fx_seq_new (value->seq->len);
        /* map_aggregate keeps named tuples' types but turns torch.Size into a plain tuple */
        seq->type = value->seq->type != NULL && value->seq->type->n_fields > 0 ? value->seq->type : NULL;
        for (guint i = 0; i < value->seq->len; i++)
          seq->items[i] = fx_value_map_nodes (&value->seq->items[i], fn, user_data);
        return value->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
      }
    case FX_VALUE_DICT:
      {
        FxDict *dict = fx_dict_new ();
        const FxValue *k, *v;
        for (guint i = 0; fx_dict_entry (value->dict, i, &k, &v); i++)
          fx_dict_set (dict, fx_value_copy (k), fx_value_map_nodes (v, fn, user_data));
        return fx_value_take_dict (dict);
      }
    case FX_VALUE_SLICE:
      return fx_value_take_slice (fx_slice_new (fx_value_map_nodes (&value->slice->start, fn, user_data),
                                                fx_value_map_nodes (&value->slice->stop, fn, user_data),
                                                fx_value_map_nodes (&value->slice->step, fn, user_data)));
    default:
      return fx_value_copy (value);
    }
}

void
fx_value_foreach_node (const FxValue *value, void (*fn) (FxNode *node, gpointer data), gpointer data)
{
  switch (value->kind)
    {
    case FX_VALUE_NODE:
      fn (value->node, data);
      break;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      for (guint i = 0; i < value->seq->len; i++)
        fx_value_foreach_node (&value->seq->items[i], fn, data);
      break;
    case FX_VALUE_DICT:
      {
        const FxValue *k, *v;
        for (guint i = 0; fx_dict_entry (value->dict, i, &k, &v); i++)
          fx_value_foreach_node (v, fn, data);
      }
      break;
    case FX_VALUE_SLICE:
      fx_value_foreach_node (&value->slice->start, fn, data);
      fx_value_foreach_node (&value->slice->stop, fn, data);
      fx_value_foreach_node (&value->slice->step, fn, data);
      break;
    default:
      break;
    }
}

static FxValue
map_identity (FxNode *node, gpointer user_data)
{
  return fx_value_node (node);
}

/* ---------------------------------------------------------------- names of ops */

static const char *const op_names[] = {
  "placeholder", "get_attr", "call_function", "call_method", "call_module", "output", "root",
};

const char *
fx_node_op_name (FxNodeOp op)
{
  return op <= FX_OP_ROOT ? op_names[op] : "?";
}

gboolean
fx_node_op_from_name (const char *name, FxNodeOp *op)
{
  /* every node a trace makes asks: the first byte rules out most names */
  for (guint i = 0; i < FX_OP_ROOT; i++)
    if (name[0] == op_names[i][0] && strcmp (op_names[i], name) == 0)
      {
        *op = (FxNodeOp) i;
        return TRUE;
      }
  return FALSE;
}

const char *
fx_node_get_name (const FxNode *node)
{
  return node->name;
}

/* Objects of higher layers may name themselves through their class's repr; we only need
 * __name__ and the qualified name, which FxObjectClass carries in its name field. */
const char *
fx_target_qualified_name (const FxValue *target)
{
  switch (target->kind)
    {
    case FX_VALUE_OP:
      return target->op->qualified_name;
    case FX_VALUE_OBJECT:
      if (target->obj->klass->qualified_name != NULL)
        return target->obj->klass->qualified_name (target->obj);
      return target->obj->klass->name;
    case FX_VALUE_STR:
      return target->s->data;
    default:
      return "?";
    }
}

const char *
fx_target_function_name (const FxValue *target)
{
  const char *qualified = fx_target_qualified_name (target);
  const char *dot;

  if (target->kind == FX_VALUE_OP)
    return target->op->name;
  dot = strrchr (qualified, '.');
  return dot ? dot + 1 : qualified;
}

char *
fx_node_pretty_target (const FxNode *node)
{
  const char *qualified;

  if (node->target.kind == FX_VALUE_STR)
    return g_strdup (node->target.s->data);
  qualified = fx_target_qualified_name (&node->target);
  if (strchr (qualified, '.') == NULL)
    return g_strconcat ("builtins.", qualified, NULL);
  return g_strdup (qualified);
}

/* ---------------------------------------------------------------- graphs */

FxGraph *
fx_graph_new (void)
{
  FxGraph *graph = g_new0 (FxGraph, 1);

  g_atomic_ref_count_init (&graph->ref);
  graph->root.graph = graph;
  graph->root.op = FX_OP_ROOT;
  graph->root.prev = graph->root.next = &graph->root;
  graph->root.name = "";
  graph->names = fx_namespace_new ();
  graph->insert_anchor = &graph->root;
  graph->insert_after = FALSE;
  graph->erased = g_ptr_array_new ();
  return graph;
}

FxGraph *
fx_graph_ref (FxGraph *graph)
{
  g_atomic_ref_count_inc (&graph->ref);
  return graph;
}

static void
node_free (FxNode *node)
{
  fx_value_clear (&node->target);
  fx_value_clear (&node->args);
  fx_value_clear (&node->kwargs);
  fx_value_clear (&node->type);
  g_clear_pointer (&node->meta, fx_dict_unref);
  node_set_clear (&node->users);
  node_set_clear (&node->input_nodes);
  fx_mem_free (node, sizeof *node);
}

void
fx_graph_unref (FxGraph *graph)
{
  FxNode *node, *next;

  if (graph == NULL || !g_atomic_ref_count_dec (&graph->ref))
    return;
  for (node = graph->root.next; node != &graph->root; node = next)
    {
      next = node->next;
      node_free (node);
    }
  g_ptr_array_foreach (graph->erased, (GFunc) node_free, NULL);
  g_ptr_array_unref (graph->erased);
  fx_namespace_free (graph->names);
  g_free (graph);
}

guint
fx_graph_n_nodes (const FxGraph *graph)
{
  return graph->n_nodes;
}

FxNode *
fx_graph_first (const FxGraph *graph)
{
  return graph->root.next == &graph->root ? NULL : graph->root.next;
}

FxNode *
fx_graph_last (const FxGraph *graph)
{
  return graph->root.prev == &graph->root ? NULL : graph->root.prev;
}

FxNode *
fx_node_next (const FxNode *node)
{
  FxNode *next = node->next;
  return next->op == FX_OP_ROOT ? NULL : next;
}

FxNode *
fx_node_prev (const FxNode *node)
{
  FxNode *prev = node->prev;
  return prev->op == FX_OP_ROOT ? NULL : prev;
}

FxGraphModule *
fx_graph_get_owning_module (const FxGraph *graph)
{
  return graph->owning_module;
}

/* Like torch.fx: a second owner makes the owning module ambiguous, hence NULL. */
void
fx_graph_set_owning_module (FxGraph *graph, FxGraphModule *module)
{
  if (module == NULL)
    return;
  graph->owning_module = graph->n_owners == 0 ? module : NULL;
  graph->n_owners++;
}

/* ---------------------------------------------------------------- linking */

static void
unlink_from_list (FxNode *node)
{
  node->prev->next = node->next;
  node->next->prev = node->prev;
  node->prev = node->next = node;
}

void
fx_node_prepend (FxNode *node, FxNode *x)
{
  FxNode *p;

  g_return_if_fail (node->graph == x->graph);
  if (node == x)
    return;   /* torch.fx warns that this has no effect; it has none here either */
  unlink_from_list (x);
  p = node->prev;
  p->next = x;
  x->prev = p;
  x->next = node;
  node->prev = x;
}

void
fx_node_append (FxNode *node, FxNode *x)
{
  if (node != x)
    fx_node_prepend (node->next, x);
}

static void
add_input (FxNode *input, gpointer user_data)
{
  node_set_add (&((FxNode *) user_data)->input_nodes, input);
}

/* torch.fx's __update_args_kwargs: the node leaves the user lists of all its old inputs and
 * joins, at the end, those of its new inputs. Takes ownership of args and kwargs. */
static void
update_args_kwargs (FxNode *node, FxValue args, FxValue kwargs)
{
  FxNode *input;

  for (guint i = 0; fx_node_set_iter (&node->input_nodes, &i, &input);)
    node_set_remove (&input->users, node);
  fx_value_clear (&node->args);
  fx_value_clear (&node->kwargs);
  node->args = args;
  node->kwargs = kwargs;
  node_set_clear (&node->input_nodes);
  node_set_init (&node->input_nodes);
  fx_value_foreach_node (&node->args, add_input, node);
  fx_value_foreach_node (&node->kwargs, add_input, node);
  for (guint i = 0; fx_node_set_iter (&node->input_nodes, &i, &input);)
    node_set_add (&input->users, node);
}

static FxValue
empty_tuple (void)
{
  return fx_value_take_tuple (fx_seq_new (0));
}

static FxValue
empty_dict (void)
{
  return fx_value_take_dict (fx_dict_new ());
}

void
fx_node_set_args (FxNode *node, const FxValue *args)
{
  update_args_kwargs (node, fx_value_map_nodes (args, map_identity, NULL),
                      fx_value_copy (&node->kwargs));
}

void
fx_node_set_kwargs (FxNode *node, const FxValue *kwargs)
{
  update_args_kwargs (node, fx_value_copy (&node->args),
                      fx_value_map_nodes (kwargs, map_identity, NULL));
}

gboolean
fx_node_update_arg (FxNode *node, int index, const FxValue *value, GError **error)
{
  guint len = node->args.seq->len;
  FxSeq *seq;

  if (index < 0)
    index += (int) len;
  if (index < 0 || (guint) index >= len)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "list assignment index out of range");
      return FALSE;
    }
  seq = fx_seq_new (len);
  for (guint i = 0; i < len; i++)
    seq->items[i] = (int) i == index ? fx_value_copy (value) : fx_value_copy (&node->args.seq->items[i]);
  update_args_kwargs (node, fx_value_take_tuple (seq), fx_value_copy (&node->kwargs));
  return TRUE;
}

void
fx_node_update_kwarg (FxNode *node, const char *key, const FxValue *value)
{
  FxDict *dict = fx_dict_new ();
  const FxValue *k, *v;

  for (guint i = 0; fx_dict_entry (node->kwargs.dict, i, &k, &v); i++)
    fx_dict_set (dict, fx_value_copy (k), fx_value_copy (v));
  fx_dict_set (dict, fx_value_str (key), fx_value_copy (value));
  update_args_kwargs (node, fx_value_copy (&node->args), fx_value_take_dict (dict));
}

typedef struct {
  FxNode *from;
  FxNode *to;
} ReplaceNode;

static FxValue
map_replace (FxNode *node, gpointer user_data)
{
  ReplaceNode *r = user_data;
  return fx_value_node (node == r->from ? r->to : node);
}

static void
replace_in (FxNode *user, FxNode *from, FxNode *to)
{
  ReplaceNode r = { from, to };
  update_args_kwargs (user, fx_value_map_nodes (&user->args, map_replace, &r),
                      fx_value_map_nodes (&user->kwargs, map_replace, &r));
}

GPtrArray *
fx_node_replace_all_uses_with (FxNode *node, FxNode *replacement,
                               FxNodeFilterFunc delete_user_cb, gpointer user_data)
{
  GPtrArray *to_process = fx_node_set_to_array (&node->users);
  GPtrArray *changed = g_ptr_array_new ();

  for (guint i = 0; i < to_process->len; i++)
    {
      FxNode *user = to_process->pdata[i];
      if (delete_user_cb != NULL && !delete_user_cb (user, user_data))
        continue;
      replace_in (user, node, replacement);
      g_ptr_array_add (changed, user);
    }
  g_ptr_array_unref (to_process);
  return changed;
}

void
fx_node_replace_input_with (FxNode *node, FxNode *old_input, FxNode *new_input)
{
  replace_in (node, old_input, new_input);
}

GPtrArray *
fx_node_all_input_nodes (const FxNode *node)
{
  return fx_node_set_to_array (&node->input_nodes);
}

gboolean
fx_node_is_impure (const FxNode *node)
{
  if (node->op == FX_OP_PLACEHOLDER || node->op == FX_OP_OUTPUT)
    return TRUE;
  if (node->op == FX_OP_CALL_FUNCTION && node->target.kind == FX_VALUE_OP)
    return (node->target.op->flags & FX_OP_FLAG_IMPURE) != 0;
  /* 1.13 asks the called module: a true `_is_impure` attribute keeps the call */
  if (node->op == FX_OP_CALL_MODULE && node->target.kind == FX_VALUE_STR
      && node->graph->owning_module != NULL)
    {
      FxModule *m = fx_module_get_submodule (node->graph->owning_module->module,
                                             node->target.s->data, NULL);
      FxValue key = fx_value_str ("_is_impure");
      const FxValue *flag = m != NULL ? fx_dict_get (m->attributes, &key) : NULL;
      gboolean impure = flag != NULL && ((flag->kind == FX_VALUE_BOOL && flag->b)
                                         || (flag->kind == FX_VALUE_INT && flag->i != 0));
      fx_value_clear (&key);
      return impure;
    }
  return FALSE;
}

/* ---------------------------------------------------------------- creation */

/* _target_to_str: __name__ of a callable, or the string with __magic__ stripped; snake_cased
 * into buf (size bytes) when it fits, else into a new string (g_free when not buf). */
static char *
target_to_str (FxNodeOp op, const FxValue *target, char *buf, gsize size)
{
  const char *s;
  gsize len;

  s = target->kind != FX_VALUE_STR ? fx_target_function_name (target) : target->s->data;
  len = strlen (s);
  if (target->kind == FX_VALUE_STR && len >= 4 && s[0] == '_' && s[1] == '_'
      && s[len - 2] == '_' && s[len - 1] == '_')
    {
      s += 2;
      len -= 4;
    }
  return fx_snake_case_buf (s, len, buf, size);
}

static void
insert_node (FxGraph *graph, FxNode *node)
{
  FxNode *anchor = graph->insert_anchor;

  if (graph->insert_after)
    {
      node->prev = anchor;
      node->next = anchor->next;
    }
  else
    {
      node->prev = anchor->prev;
      node->next = anchor;
    }
  node->prev->next = node;
  node->next->prev = node;
}

FxNode *
fx_graph_create_node (FxGraph *graph, FxNodeOp op, const FxValue *target,
                      const FxValue *args, const FxValue *kwargs,
                      const char *name, const char *type, GError **error)
{
  /* a copy of a non-tuple / non-dict is refused by _take with the same message */
  return fx_graph_create_node_take (graph, op, target,
                                    args != NULL ? fx_value_map_nodes (args, map_identity, NULL)
                                                 : empty_tuple (),
                                    kwargs != NULL ? fx_value_map_nodes (kwargs, map_identity, NULL)
                                                   : empty_dict (),
                                    name, type, error);
}

FxNode *
fx_graph_create_node_take (FxGraph *graph, FxNodeOp op, const FxValue *target,
                           FxValue args, FxValue kwargs, const char *name, const char *type,
                           GError **error)
{
  char buf[128];                 /* the candidate name, when it fits (it nearly always does) */
  char *candidate = NULL;
  FxNode *node;

  g_return_val_if_fail (op < FX_OP_ROOT, NULL);
  if (op == FX_OP_CALL_FUNCTION && target->kind != FX_VALUE_OP && target->kind != FX_VALUE_OBJECT)
    g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                 "Node target has type %s but a Callable is expected",
                 fx_value_kind_name (target->kind));
  else if (op != FX_OP_CALL_FUNCTION && target->kind != FX_VALUE_STR)
    g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                 "Node target has type %s but a str is expected",
                 fx_value_kind_name (target->kind));
  else if (args.kind != FX_VALUE_TUPLE)
    g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "args must be a tuple");
  else if (kwargs.kind != FX_VALUE_DICT)
    g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "kwargs must be a dict");
  else
    goto valid;
  fx_value_clear (&args);
  fx_value_clear (&kwargs);
  return NULL;

valid:
  node = fx_new0 (FxNode, 1);
  node->graph = graph;
  node->op = op;
  node->target = fx_value_copy (target);
  node->type = type != NULL ? fx_value_str (type) : fx_value_none ();
  node->meta = fx_dict_new ();
  node->prev = node->next = node;
  node_set_init (&node->users);
  node_set_init (&node->input_nodes);

  if (name == NULL)
    candidate = target_to_str (op, target, buf, sizeof buf);
  node->name = fx_namespace_create_fresh_name (graph->names, name != NULL ? name : candidate, node);
  if (candidate != buf)
    g_free (candidate);

  update_args_kwargs (node, args, kwargs);
  insert_node (graph, node);
  graph->n_nodes++;
  return node;
}

static FxNode *
create_or_die (FxGraph *graph, FxNodeOp op, FxValue target, const FxValue *args,
               const FxValue *kwargs, const char *type)
{
  g_autoptr (GError) error = NULL;
  FxNode *node = fx_graph_create_node (graph, op, &target, args, kwargs, NULL, type, &error);

  fx_value_clear (&target);
  if (node == NULL)
    g_critical ("%s", error->message);
  return node;
}

FxNode *
fx_graph_placeholder (FxGraph *graph, const char *name, const char *type,
                      const FxValue *default_value)
{
  FxValue args = empty_tuple ();
  FxNode *node;

  if (default_value != NULL)
    fx_seq_append (args.seq, fx_value_copy (default_value));
  node = create_or_die (graph, FX_OP_PLACEHOLDER, fx_value_str (name), &args, NULL, type);
  fx_value_clear (&args);
  return node;
}

FxNode *
fx_graph_get_attr (FxGraph *graph, const char *qualified_name, const char *type)
{
  return create_or_die (graph, FX_OP_GET_ATTR, fx_value_str (qualified_name), NULL, NULL, type);
}

FxNode *
fx_graph_call_module (FxGraph *graph, const char *module_name, const FxValue *args,
                      const FxValue *kwargs, const char *type)
{
  return create_or_die (graph, FX_OP_CALL_MODULE, fx_value_str (module_name), args, kwargs, type);
}

FxNode *
fx_graph_call_method (FxGraph *graph, const char *method_name, const FxValue *args,
                      const FxValue *kwargs, const char *type)
{
  return create_or_die (graph, FX_OP_CALL_METHOD, fx_value_str (method_name), args, kwargs, type);
}

FxNode *
fx_graph_call_function (FxGraph *graph, const FxValue *function, const FxValue *args,
                        const FxValue *kwargs, const char *type)
{
  return create_or_die (graph, FX_OP_CALL_FUNCTION, fx_value_copy (function), args, kwargs, type);
}

FxNode *
fx_graph_output (FxGraph *graph, const FxValue *result, const char *type)
{
  FxValue args = empty_tuple ();
  FxNode *node;

  fx_seq_append (args.seq, fx_value_copy (result));
  node = create_or_die (graph, FX_OP_OUTPUT, fx_value_str ("output"), &args, NULL, type);
  fx_value_clear (&args);
  return node;
}

/* ---------------------------------------------------------------- insertion point */

static FxInsertPoint
set_insert_point (FxGraph *graph, FxNode *anchor, gboolean after)
{
  FxInsertPoint previous = {
    graph->insert_anchor == &graph->root ? NULL : graph->insert_anchor,
    graph->insert_after,
  };

  graph->insert_anchor = anchor;
  graph->insert_after = after;
  return previous;
}

/* inserting_before(None) inserts at the start (after the root); torch.fx's
 * inserting_after(None) inserts before the root, i.e. at the end. */
FxInsertPoint
fx_graph_inserting_before (FxGraph *graph, FxNode *node)
{
  if (node == NULL)
    return set_insert_point (graph, &graph->root, TRUE);
  g_return_val_if_fail (node->graph == graph, set_insert_point (graph, graph->insert_anchor, graph->insert_after));
  return set_insert_point (graph, node, FALSE);
}

FxInsertPoint
fx_graph_inserting_after (FxGraph *graph, FxNode *node)
{
  if (node == NULL)
    return set_insert_point (graph, &graph->root, FALSE);
  g_return_val_if_fail (node->graph == graph, set_insert_point (graph, graph->insert_anchor, graph->insert_after));
  return set_insert_point (graph, node, TRUE);
}

void
fx_graph_restore_insert_point (FxGraph *graph, FxInsertPoint point)
{
  set_insert_point (graph, point.anchor != NULL ? point.anchor : &graph->root, point.after);
}

/* ---------------------------------------------------------------- erasing and copying */

static char *
users_dict_repr (const FxNode *node)
{
  GString *s = g_string_new ("{");
  FxNode *user;
  gboolean first = TRUE;

  for (guint i = 0; fx_node_set_iter (&node->users, &i, &user);)
    {
      g_string_append_printf (s, "%s%s: None", first ? "" : ", ", user->name);
      first = FALSE;
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static FxValue
map_to_none (FxNode *node, gpointer user_data)
{
  return fx_value_none ();
}

gboolean
fx_graph_erase_node (FxGraph *graph, FxNode *node, GError **error)
{
  g_return_val_if_fail (node->graph == graph, FALSE);
  if (node->erased)
    return TRUE;
  if (fx_node_set_size (&node->users) > 0)
    {
      g_autofree char *users = users_dict_repr (node);
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                   "Tried to erase Node %s but it still had %u users in the graph: %s!",
                   node->name, fx_node_set_size (&node->users), users);
      return FALSE;
    }
  /* Moving the insertion point off a vanishing anchor keeps later inserts well defined. */
  if (graph->insert_anchor == node)
    {
      graph->insert_anchor = graph->insert_after ? node->prev : node->next;
    }
  unlink_from_list (node);
  node->erased = TRUE;
  graph->n_nodes--;
  update_args_kwargs (node, fx_value_map_nodes (&node->args, map_to_none, NULL),
                      fx_value_map_nodes (&node->kwargs, map_to_none, NULL));
  g_ptr_array_add (graph->erased, node);
  return TRUE;
}

typedef struct {
  FxNodeMapFunc fn;
  gpointer user_data;
} MapClosure;

FxNode *
fx_graph_node_copy (FxGraph *graph, FxNode *node, FxNodeMapFunc map_fn, gpointer user_data,
                    GError **error)
{
  FxValue args = fx_value_map_nodes (&node->args, map_fn ? map_fn : map_identity, user_data);
  FxValue kwargs = fx_value_map_nodes (&node->kwargs, map_fn ? map_fn : map_identity, user_data);
  FxNode *copy;

  copy = fx_graph_create_node (graph, node->op, &node->target, &args, &kwargs, node->name,
                               node->type.kind == FX_VALUE_STR ? node->type.s->data : NULL, error);
  fx_value_clear (&args);
  fx_value_clear (&kwargs);
  if (copy != NULL)
    {
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (node->meta, i, &k, &v); i++)
        fx_dict_set (copy->meta, fx_value_copy (k), fx_value_copy (v));
    }
  return copy;
}

static FxValue
map_through_table (FxNode *node, gpointer user_data)
{
  FxNode *mapped = g_hash_table_lookup (user_data, node);
  return fx_value_node (mapped != NULL ? mapped : node);
}

FxValue
fx_graph_graph_copy (FxGraph *graph, FxGraph *src, GHashTable *val_map, FxNode **src_output,
                     GError **error)
{
  if (src_output != NULL)
    *src_output = NULL;
  for (FxNode *node = fx_graph_first (src); node != NULL; node = fx_node_next (node))
    {
      FxNode *copy;

      if (g_hash_table_contains (val_map, node))
        continue;
      if (node->op == FX_OP_OUTPUT)
        {
          if (src_output != NULL)
            *src_output = node;
          return fx_value_map_nodes (&node->args.seq->items[0], map_through_table, val_map);
        }
      copy = fx_graph_node_copy (graph, node, map_through_table, val_map, error);
      if (copy == NULL)
        return fx_value_none ();
      g_hash_table_insert (val_map, node, copy);
    }
  return fx_value_none ();
}

FxGraph *
fx_graph_copy (FxGraph *graph, GError **error)
{
  g_autoptr (FxGraph) copy = fx_graph_new ();
  g_autoptr (GHashTable) val_map = g_hash_table_new (g_direct_hash, g_direct_equal);
  GError *local_error = NULL;
  FxNode *src_output = NULL;
  FxValue result = fx_graph_graph_copy (copy, graph, val_map, &src_output, &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      fx_value_clear (&result);
      return NULL;
    }
  if (src_output != NULL)
    fx_graph_output (copy, &result,
                     src_output->type.kind == FX_VALUE_STR ? src_output->type.s->data : NULL);
  fx_value_clear (&result);
  return g_steal_pointer (&copy);
}

/* ---------------------------------------------------------------- queries */

GPtrArray *
fx_graph_find_nodes (FxGraph *graph, FxNodeOp op, const FxValue *target)
{
  GPtrArray *out = g_ptr_array_new ();

  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    if (node->op == op && (target == NULL || fx_value_equal (&node->target, target)))
      g_ptr_array_add (out, node);
  return out;
}

FxNode *
fx_graph_find_node_by_name (FxGraph *graph, const char *name)
{
  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    if (strcmp (node->name, name) == 0)
      return node;
  return NULL;
}

/* ---------------------------------------------------------------- lint and DCE */

typedef struct {
  FxGraph *graph;
  FxNode *node;
  GHashTable *seen;
  GError *error;
} LintState;

static void
lint_check_arg (FxNode *arg, gpointer data)
{
  LintState *state = data;
  g_autofree char *graph_str = NULL;

  if (state->error != NULL)
    return;
  if (arg->graph != state->graph)
    {
      graph_str = fx_graph_to_string (state->graph);
      g_set_error (&state->error, FX_ERROR, FX_ERROR_GRAPH,
                   "Argument '%s' of Node '%s' does not belong to this Graph, but was used as an "
                   "argument! If you are copying nodes from another graph, make sure to use "
                   "``arg_transform`` on node_copy() to remap values\n%s",
                   arg->name, state->node->name, graph_str);
    }
  else if (!g_hash_table_contains (state->seen, arg))
    {
      graph_str = fx_graph_to_string (state->graph);
      g_set_error (&state->error, FX_ERROR, FX_ERROR_GRAPH,
                   "Argument '%s' of Node '%s' was used before it has been defined! Please check "
                   "that Nodes in the graph are topologically ordered\n%s",
                   arg->name, state->node->name, graph_str);
    }
}

/* Checks of get_attr/call_module targets against the owning module live with the module. */
gboolean fx_graph_module_lint_node (FxGraphModule *module, FxNode *node, GError **error)
  __attribute__ ((weak));

gboolean
fx_graph_lint (FxGraph *graph, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  LintState state = { graph, NULL, seen, NULL };

  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
    {
      if (node->graph != graph)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "Node '%s' does not belong to this Graph!",
                       node->name);
          return FALSE;
        }
      state.node = node;
      fx_value_foreach_node (&node->args, lint_check_arg, &state);
      fx_value_foreach_node (&node->kwargs, lint_check_arg, &state);
      if (state.error != NULL)
        {
          g_propagate_error (error, state.error);
          return FALSE;
        }
      g_hash_table_add (seen, node);
      if (g_hash_table_contains (names, node->name))
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "Node redefined name %s!", node->name);
          return FALSE;
        }
      g_hash_table_add (names, (gpointer) node->name);
    }
  if (graph->owning_module != NULL && fx_graph_module_lint_node != NULL)
    for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node))
      if (!fx_graph_module_lint_node (graph->owning_module, node, error))
        return FALSE;
  return TRUE;
}

gboolean
fx_graph_eliminate_dead_code (FxGraph *graph, GError **error)
{
  gboolean changed = FALSE;
  FxNode *node, *prev;

  if (!fx_graph_lint (graph, error))
    return FALSE;
  for (node = fx_graph_last (graph); node != NULL; node = prev)
    {
      prev = fx_node_prev (node);
      if (!fx_node_is_impure (node) && fx_node_set_size (&node->users) == 0)
        {
          fx_graph_erase_node (graph, node, NULL);
          changed = TRUE;
        }
    }
  return changed;
}
