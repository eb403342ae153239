/* tracer.c: torch.fx's hot paths in C — Proxy operators, create_proxy / create_arg /
 * create_node / proxy (fused into one pass while all are torch.fx's own), the nn.Module
 * __call__ / __getattr__ that Tracer.trace patches, and its per-trace module scan and
 * autowrap patching — taken only while the tracer's class keeps torch.fx's own hook (a
 * script override is called instead, as 1.13 would), plus the FxTracer vtable of hooks
 * overridable from C. */
#include "script/internal.h"
#include "script/fx-ir.h"
#include "script/nn-bind.h"
#include "trace/tracer.h"
#include "fx-error.h"

#include <string.h>

/* The hooks is_default answers about, each with its slot of answers. */
typedef enum {
  HOOK_CREATE_ARG,
  HOOK_CREATE_NODE,
  HOOK_PROXY,
  HOOK_CREATE_PROXY,
  HOOK_PATH_OF_MODULE,
  HOOK_IS_LEAF_MODULE,
  HOOK_CALL_MODULE,
  HOOK_GETATTR,
  N_HOOKS
} HookId;

/* One per interpreter, shared by its natives. Classes and default hooks are borrowed: they
 * live in torch.fx's module dicts, which outlive every trace. */
typedef struct {
  FxScriptClass *proxy_cls, *attribute_cls, *graph_cls, *sequential_cls;
  FxObject *graph_create_node;
  FxStr *n_tracer, *n_node, *n_graph, *n_root, *n_attr, *n__node, *n_create_arg_py, *n_create_proxy, *n_create_arg, *n_create_node, *n_proxy,
        *n_call_module, *n_path_of_module, *n_is_leaf_module, *n_getattr, *n_forward,
        *n_fx_c_tracer;
  FxValue k_call_function, k_call_method, k_call_module;
  /* The hooks is_default answers about: each hook's name and the object torch.fx.Tracer's
   * own hook is (to tell it from overrides), then its answer by tracer class, valid while no
   * class changes: every node asks several; each holds a reference on its class so the
   * address is not reused. */
  struct {
    FxStr *name;
    FxObject *def;
    FxScriptClass *cls;
    guint version;
    guint64 dict_version;        /* of the instance dict checked (0: none) */
    gboolean overridden;         /* the instance dict has the name */
    const FxValue *found;        /* the class dict slot the hook resolves to (or NULL) */
  } hooks[N_HOOKS];
} TraceState;

static void
state_release_cb (gpointer p)
{
  TraceState *st = p;
  fx_value_clear (&st->k_call_function);
  fx_value_clear (&st->k_call_method);
  fx_value_clear (&st->k_call_module);
  for (guint i = 0; i < G_N_ELEMENTS (st->hooks); i++)
    if (st->hooks[i].cls != NULL)
      fx_object_unref (&st->hooks[i].cls->base);
}

static void
state_release (gpointer p)
{
  g_rc_box_release_full (p, state_release_cb);
}

static FxValue
native_value (TraceState *st, const char *name, FxScriptFunc func, ScNativeKind kind, gpointer data,
              GDestroyNotify destroy)
{
  (void) st;
  return sc_native_new ("torch.fx._glue", name, kind, func, data, destroy);
}

/* ------------------------------------------------------------------ hooks */

/* tracer's class (and instance) keep torch.fx's own hook `slot` (st->hooks[slot]'s name and
 * def). Asked several times per node: the answer's parts are kept (in the hook's slot) while
 * the class's lookups and the instance dict's keys stay as they were. */
static gboolean
is_default (FxScript *S, TraceState *st, const FxValue *tracer, HookId slot)
{
  FxStr *name = st->hooks[slot].name;
  ScInstance *inst = sc_value_instance (tracer);
  const FxValue *found;
  guint64 dict_version;

  if (inst == NULL || st->hooks[slot].def == NULL)
    return FALSE;
  dict_version = inst->dict != NULL ? fx_dict_keys_version (inst->dict) : 0;
  if (!(st->hooks[slot].cls == inst->cls && st->hooks[slot].version == S->type_version
        && st->hooks[slot].dict_version == dict_version))
    {
      if (st->hooks[slot].cls != inst->cls)
        {
          if (st->hooks[slot].cls != NULL)
            fx_object_unref (&st->hooks[slot].cls->base);
          fx_object_ref (&inst->cls->base);
          st->hooks[slot].cls = inst->cls;
        }
      st->hooks[slot].version = S->type_version;
      st->hooks[slot].dict_version = dict_version;
      st->hooks[slot].overridden = inst->dict != NULL && fx_dict_len (inst->dict) > 0
                                     && sc_dict_get_str (inst->dict, name) != NULL;
      st->hooks[slot].found = sc_type_lookup (S, inst->cls, name);
    }
  if (st->hooks[slot].overridden)
    return FALSE;
  /* the slot is compared live: replacing a hook in a class dict keeps its slot (and the
   * type version) */
  found = st->hooks[slot].found;
  return found != NULL && found->kind == FX_VALUE_OBJECT && found->obj == st->hooks[slot].def;
}

static gboolean
call_hook (FxScript *S, const FxValue *obj, FxStr *name, const FxValue *args, int n,
           FxValue *out)
{
  return fx_script_call_method (S, obj, name->data, args, n, NULL, out);
}

/* An attribute of an instance from its dict when it is there (the common case for the
 * tracer's graph and a Proxy's tracer / node), else by the full lookup. */
static gboolean
instance_attr (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out)
{
  ScInstance *inst = sc_value_instance (obj);
  FxValue *v;
  if (inst != NULL && inst->dict != NULL && (v = sc_dict_get_str (inst->dict, name)) != NULL)
    {
      *out = fx_value_copy (v);
      return TRUE;
    }
  return sc_getattr (S, obj, name, out);
}

static gboolean dispatch_create_arg (FxScript *S, TraceState *st, const FxValue *tracer,
                                     FxTracer *ct, const FxValue *a, FxValue *out);

/* What a C tracer's create_arg hook is asked about: anything but the containers create_arg
 * walks (tuples, lists, dicts, slices; it is asked about their items) and proxies. */
static gboolean
is_leaf_arg (FxScript *S, TraceState *st, const FxValue *a)
{
  switch (a->kind)
    {
    case FX_VALUE_TUPLE: case FX_VALUE_LIST: case FX_VALUE_DICT: case FX_VALUE_SLICE:
      return FALSE;
    case FX_VALUE_OBJECT:
      return st->proxy_cls == NULL || !sc_isinstance (S, a, st->proxy_cls);
    default:
      return TRUE;
    }
}

/* How lower() treats a value: create_arg's (Python for what C does not do) or the fused
 * create_arg + Graph.create_node lowering (which leaves such values to the full path). */
typedef enum {
  LOWER_CREATE_ARG,              /* Node wrappers out; nested items through create_arg */
  LOWER_DIRECT,                  /* FX_VALUE_NODE references out, for the node itself */
} LowerMode;

/* 1 done, 0 (LOWER_DIRECT only: nothing run, nothing raised) the value needs the full path,
 * -1 an exception. LOWER_CREATE_ARG is TracerBase/Tracer.create_arg for what needs no Python
 * (proxies, plain values and containers of them); the rest (tensors, modules, namedtuples,
 * __fx_create_arg__, non-str dict keys, errors) goes to the Python definition. */
static int
lower (FxScript *S, TraceState *st, const FxValue *tracer, FxTracer *ct, const FxValue *a,
       LowerMode mode, int depth, FxValue *out)
{
  /* a C tracer's create_arg first, as a subclass's override would be (create_node_direct
   * leaves LOWER_DIRECT to tracers without one) */
  if (mode == LOWER_CREATE_ARG && ct != NULL && ct->klass->create_arg != NULL
      && is_leaf_arg (S, st, a) && ct->klass->create_arg (ct, a, out))
    return 1;
  switch (a->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR: case FX_VALUE_ELLIPSIS: case FX_VALUE_DTYPE: case FX_VALUE_DEVICE:
      *out = fx_value_copy (a);
      return 1;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      if (a->seq->type != NULL || depth > 32)
        break;
      {
        FxSeq *seq = fx_seq_new (a->seq->len);
        for (guint i = 0; i < a->seq->len; i++)
          {
            int r = mode == LOWER_DIRECT
                    ? lower (S, st, tracer, ct, &a->seq->items[i], mode, depth + 1, &seq->items[i])
                    : dispatch_create_arg (S, st, tracer, ct, &a->seq->items[i], &seq->items[i]) ? 1 : -1;
            if (r <= 0)
              {
                fx_seq_unref (seq);
                return r;
              }
          }
        *out = a->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
        return 1;
      }
    case FX_VALUE_DICT:
      {
        const FxValue *k, *v;
        FxDict *d;
        for (guint i = 0; fx_dict_entry (a->dict, i, &k, &v); i++)
          if (k->kind != FX_VALUE_STR)
            goto full;   /* keys that may hold proxies: 1.13's checks, in Python */
        if (depth > 32)
          break;
        d = fx_dict_new ();
        for (guint i = 0; fx_dict_entry (a->dict, i, &k, &v); i++)
          {
            FxValue lowered;
            int r = mode == LOWER_DIRECT ? lower (S, st, tracer, ct, v, mode, depth + 1, &lowered)
                    : dispatch_create_arg (S, st, tracer, ct, v, &lowered) ? 1 : -1;
            if (r <= 0)
              {
                fx_dict_unref (d);
                return r;
              }
            fx_dict_set (d, fx_value_copy (k), lowered);
          }
        *out = fx_value_take_dict (d);
        return 1;
      }
    case FX_VALUE_SLICE:
      if (depth > 32)
        break;
      {
        FxValue parts[3] = { { 0 } };
        const FxValue *in[3] = { &a->slice->start, &a->slice->stop, &a->slice->step };
        for (int i = 0; i < 3; i++)
          {
            int r = mode == LOWER_DIRECT ? lower (S, st, tracer, ct, in[i], mode, depth + 1, &parts[i])
                    : dispatch_create_arg (S, st, tracer, ct, in[i], &parts[i]) ? 1 : -1;
            if (r <= 0)
              {
                for (int j = 0; j < i; j++)
                  fx_value_clear (&parts[j]);
                return r;
              }
          }
        *out = fx_value_take_slice (fx_slice_new (parts[0], parts[1], parts[2]));
        return 1;
      }
    case FX_VALUE_OBJECT:
      if (st->proxy_cls == NULL || !sc_isinstance (S, a, st->proxy_cls))
        break;
      if (mode == LOWER_CREATE_ARG)
        return instance_attr (S, a, st->n_node, out) ? 1 : -1;
      {
        /* the proxy's node from its dict: an Attribute makes its node when asked (full path) */
        ScInstance *inst = sc_value_instance (a);
        FxValue *nv = inst != NULL && inst->dict != NULL ? sc_dict_get_str (inst->dict, st->n_node)
                                                       : NULL;
        FxNode *node = nv != NULL && nv->kind == FX_VALUE_OBJECT ? sc_fx_node_get (nv) : NULL;
        if (node == NULL)
          return 0;
        *out = fx_value_node (node);
        return 1;
      }
    default:
      break;
    }
full:
  if (mode == LOWER_DIRECT)
    return 0;
  return call_hook (S, tracer, st->n_create_arg_py, a, 1, out) ? 1 : -1;
}

static gboolean
dispatch_create_arg (FxScript *S, TraceState *st, const FxValue *tracer, FxTracer *ct,
                     const FxValue *a, FxValue *out)
{
  if (!is_default (S, st, tracer, HOOK_CREATE_ARG))
    return call_hook (S, tracer, st->n_create_arg, a, 1, out);
  return lower (S, st, tracer, ct, a, LOWER_CREATE_ARG, 0, out) > 0;
}

static FxTracer *capsule_tracer (const FxValue *v);

/* The C tracer (tracer.h) a trace runs with: fx_tracer_trace_file puts its capsule in the
 * tracer's _fx_c_tracer. NULL for script tracers. */
static FxTracer *
c_tracer_of (TraceState *st, const FxValue *tracer)
{
  ScInstance *inst = sc_value_instance (tracer);
  FxValue *v = inst != NULL && inst->dict != NULL ? sc_dict_get_str (inst->dict, st->n_fx_c_tracer)
                                                 : NULL;
  return v != NULL ? capsule_tracer (v) : NULL;
}

/* A C tracer's create_node or create_proxy hook (which) on the node just made (a Node
 * wrapper). */
static gboolean
c_node_hook (FxScript *S, FxTracer *ct, const FxValue *node_value, gboolean create_proxy)
{
  gboolean (*hook) (FxTracer *, FxNode *, GError **);
  GError *error = NULL;
  FxNode *node;

  if (ct == NULL)
    return TRUE;
  hook = create_proxy ? ct->klass->create_proxy : ct->klass->create_node;
  if (hook == NULL || (node = sc_fx_node_get (node_value)) == NULL)
    return TRUE;
  if (hook (ct, node, &error))
    return TRUE;
  if (error == NULL)
    return sc_raise (S, SC_T_RUNTIME_ERROR, "the tracer's %s hook failed on %s",
                     create_proxy ? "create_proxy" : "create_node", node->name);
  sc_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

static gboolean
c_node_created (FxScript *S, FxTracer *ct, const FxValue *node_value)
{
  return c_node_hook (S, ct, node_value, FALSE);
}

/* Graph.create_node's checks of kind, target, kwargs' keys and name; *op: the kind's. */
static gboolean
check_create_node (FxScript *S, const FxValue *kind, const FxValue *target,
                   const FxValue *kwargs, const FxValue *name, FxNodeOp *op)
{
  const FxValue *k, *v;

  if (kind->kind != FX_VALUE_STR || !fx_node_op_from_name (kind->s->data, op)
      || *op == FX_OP_ROOT
      || (*op == FX_OP_CALL_FUNCTION
          ? target->kind != FX_VALUE_OP && !(target->kind == FX_VALUE_OBJECT && sc_callable (S, target))
          : target->kind != FX_VALUE_STR))
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  for (guint i = 0; fx_dict_entry (kwargs->dict, i, &k, &v); i++)
    if (k->kind != FX_VALUE_STR)
      return sc_raise (S, SC_T_TYPE_ERROR, "kwargs keys must be str, not '%s'", sc_type_name (S, k));
  if (name->kind != FX_VALUE_NONE && name->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "name must be a str, not '%s'", sc_type_name (S, name));
  return TRUE;
}

/* The node of a checked Graph.create_node, from args and kwargs already lowered to FxValue
 * trees of the node's own (taken). */
static gboolean
graph_create_lowered (FxScript *S, FxTracer *ct, const FxValue *graph_value, FxNodeOp op,
                      const FxValue *target, FxValue margs, FxValue mkwargs, const FxValue *name,
                      const FxValue *type_expr, FxValue *out)
{
  g_autofree char *type = NULL;
  FxGraph *graph = sc_fx_graph_get (graph_value);
  GError *error = NULL;
  FxNode *node;

  if (!sc_fx_type_to_str (S, type_expr, &type))
    {
      fx_value_clear (&margs);
      fx_value_clear (&mkwargs);
      return FALSE;
    }
  node = fx_graph_create_node_take (graph, op, target, margs, mkwargs,
                                    name->kind == FX_VALUE_STR ? name->s->data : NULL, type, &error);
  if (node == NULL)
    {
      sc_raise_gerror (S, error);
      g_error_free (error);
      return FALSE;
    }
  *out = sc_fx_node_wrap_new (S, graph_value, node);
  return c_node_created (S, ct, out);
}

/* Graph.create_node(kind, target, args, kwargs) of libfx's own Graph, with its checks. */
static gboolean
graph_create_node (FxScript *S, FxTracer *ct, const FxValue *graph_value, const FxValue *kind,
                   const FxValue *target, const FxValue *args, const FxValue *kwargs,
                   const FxValue *name, const FxValue *type_expr, FxValue *out)
{
  FxGraph *graph = sc_fx_graph_get (graph_value);
  FxValue margs = { 0 }, mkwargs = { 0 };
  FxNodeOp op;

  if (graph == NULL)
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  if (!check_create_node (S, kind, target, kwargs, name, &op))
    return FALSE;
  if (!sc_fx_value_from_script (S, args, &margs))
    return FALSE;
  if (!sc_fx_value_from_script (S, kwargs, &mkwargs))
    {
      fx_value_clear (&margs);
      return FALSE;
    }
  /* from_script builds every container anew: the node can take them */
  return graph_create_lowered (S, ct, graph_value, op, target, margs, mkwargs, name, type_expr,
                               out);
}

/* tracer.create_node(kind, target, args, kwargs, name, type_expr), as 1.13's create_proxy
 * calls it; the default asks tracer.graph. */
static gboolean
dispatch_create_node (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *kind,
                      const FxValue *target, const FxValue *args, const FxValue *kwargs,
                      const FxValue *name, const FxValue *type_expr, FxValue *out)
{
  g_auto (FxValue) graph = { 0 };
  FxValue hargs[6] = { *kind, *target, *args, *kwargs, *name, *type_expr };
  FxScriptClass *graph_type;
  FxValue *found;

  if (!is_default (S, st, tracer, HOOK_CREATE_NODE))
    return call_hook (S, tracer, st->n_create_node, hargs, 6, out);
  if (!instance_attr (S, tracer, st->n_graph, &graph))
    return FALSE;
  graph_type = sc_type_of (S, &graph);
  found = sc_type_lookup (S, graph_type, st->n_create_node);
  if (found == NULL || found->kind != FX_VALUE_OBJECT || found->obj != st->graph_create_node)
    return call_hook (S, &graph, st->n_create_node, hargs, 6, out);
  return graph_create_node (S, c_tracer_of (st, tracer), &graph, kind, target, args, kwargs, name,
                            type_expr, out);
}

static gboolean
dispatch_proxy (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *node,
                FxValue *out)
{
  FxDict *dict;
  if (!is_default (S, st, tracer, HOOK_PROXY) || st->proxy_cls == NULL)
    return call_hook (S, tracer, st->n_proxy, node, 1, out);
  /* Proxy(node, tracer) */
  *out = sc_instance_new (S, st->proxy_cls);
  dict = sc_instance_dict ((ScInstance *) out->obj);
  fx_dict_set (dict, sc_str_value (st->n_tracer), fx_value_copy (tracer));
  fx_dict_set (dict, sc_str_value (st->n_node), fx_value_copy (node));
  return TRUE;
}

/* create_arg of args and kwargs then create_node, when both are torch.fx's own and the
 * tracer's graph is libfx's Graph: one pass from the script values to the node's FxValue
 * trees (lower (LOWER_DIRECT)), no intermediate Node-wrapper copies. 1 made (*out: the Node),
 * 0 not applicable (nothing run: the caller takes the full path), -1 an exception. */
static int
create_node_direct (FxScript *S, TraceState *st, const FxValue *tracer, FxTracer *ct,
                    const FxValue *kind,
                    const FxValue *target, const FxValue *args, const FxValue *kwargs,
                    const FxValue *name, const FxValue *type_expr, FxValue *out)
{
  g_auto (FxValue) graph_value = { 0 };
  FxValue margs = { 0 }, mkwargs = { 0 };
  FxValue *found;
  FxNodeOp op;

  /* a C create_arg hook is asked in create_arg's order, by the full path */
  if (args->kind != FX_VALUE_TUPLE || kwargs->kind != FX_VALUE_DICT
      || (ct != NULL && ct->klass->create_arg != NULL)
      || !is_default (S, st, tracer, HOOK_CREATE_ARG)
      || !is_default (S, st, tracer, HOOK_CREATE_NODE))
    return 0;
  if (!instance_attr (S, tracer, st->n_graph, &graph_value))
    return -1;
  if (sc_fx_graph_get (&graph_value) == NULL)
    return 0;
  found = sc_type_lookup (S, sc_type_of (S, &graph_value), st->n_create_node);
  if (found == NULL || found->kind != FX_VALUE_OBJECT || found->obj != st->graph_create_node
      || lower (S, st, tracer, ct, args, LOWER_DIRECT, 0, &margs) <= 0)
    return 0;
  if (lower (S, st, tracer, ct, kwargs, LOWER_DIRECT, 0, &mkwargs) <= 0)
    {
      fx_value_clear (&margs);
      return 0;
    }
  if (!check_create_node (S, kind, target, &mkwargs, name, &op))
    {
      fx_value_clear (&margs);
      fx_value_clear (&mkwargs);
      return -1;
    }
  return graph_create_lowered (S, ct, &graph_value, op, target, margs, mkwargs, name, type_expr,
                               out) ? 1 : -1;
}

/* TracerBase.create_proxy: create_arg of args and kwargs, create_node, then proxy (or
 * proxy_factory_fn) of the node. name, type_expr, factory: None when not given. */
static gboolean
create_proxy_body (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *kind,
                   const FxValue *target, const FxValue *args, const FxValue *kwargs,
                   const FxValue *name, const FxValue *type_expr, const FxValue *factory,
                   FxValue *out)
{
  g_auto (FxValue) node_args = { 0 };
  g_auto (FxValue) node_kwargs = { 0 };
  g_auto (FxValue) node = { 0 };

  FxTracer *ct = c_tracer_of (st, tracer);
  /* torch.fx's own create_arg and create_node on libfx's Graph: straight to the node */
  int direct = create_node_direct (S, st, tracer, ct, kind, target, args, kwargs, name,
                                   type_expr, &node);

  if (direct < 0)
    return FALSE;
  if (direct == 0)
    {
      if (!dispatch_create_arg (S, st, tracer, ct, args, &node_args)
          || !dispatch_create_arg (S, st, tracer, ct, kwargs, &node_kwargs))
        return FALSE;
      /* 1.13 asserts these, with no message */
      if (node_args.kind != FX_VALUE_TUPLE || node_kwargs.kind != FX_VALUE_DICT)
        return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
      if (!dispatch_create_node (S, st, tracer, kind, target, &node_args, &node_kwargs, name,
                                 type_expr, &node))
        return FALSE;
    }
  if (!c_node_hook (S, ct, &node, TRUE))
    return FALSE;
  if (factory->kind != FX_VALUE_NONE)
    return sc_call1 (S, factory, &node, out);
  return dispatch_proxy (S, st, tracer, &node, out);
}

/* tracer.create_proxy(kind, target, args, kwargs); args a tuple, kwargs a dict. */
static gboolean
dispatch_create_proxy (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *kind,
                       const FxValue *target, const FxValue *args, const FxValue *kwargs,
                       FxValue *out)
{
  FxValue none = fx_value_none ();
  if (!is_default (S, st, tracer, HOOK_CREATE_PROXY))
    {
      FxValue hargs[4] = { *kind, *target, *args, *kwargs };
      return call_hook (S, tracer, st->n_create_proxy, hargs, 4, out);
    }
  return create_proxy_body (S, st, tracer, kind, target, args, kwargs, &none, &none, &none, out);
}

/* TracerBase.create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None,
 * proxy_factory_fn=None) */
static gboolean
glue_create_proxy (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  static const char *const names[] = { "kind", "target", "args", "kwargs", "name", "type_expr",
                                       "proxy_factory_fn" };
  const FxValue *a[7];
  FxValue none = fx_value_none ();

  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "create_proxy() needs self");
  if (!sc_bind_args (S, "create_proxy", args + 1, n_args - 1, kwargs, names, 7, 7, a))
    return FALSE;
  for (int i = 0; i < 4; i++)
    if (a[i] == NULL)
      return sc_raise (S, SC_T_TYPE_ERROR,
                       "create_proxy() missing required positional argument: '%s'", names[i]);
  return create_proxy_body (S, data, &args[0], a[0], a[1], a[2], a[3], a[4] ? a[4] : &none,
                            a[5] ? a[5] : &none, a[6] ? a[6] : &none, result);
}

/* Tracer.create_arg(self, a) */
static gboolean
glue_create_arg (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                 gpointer data)
{
  if (n_args != 2 || (kwargs != NULL && fx_dict_len (kwargs) > 0))
    return sc_raise (S, SC_T_TYPE_ERROR, "create_arg() takes exactly one argument (%d given)",
                     n_args - 1);
  return lower (S, data, &args[0], c_tracer_of (data, &args[0]), &args[1], LOWER_CREATE_ARG, 0,
                result) > 0;
}

/* Proxy.__getattr__(self, k): Attribute(self, k), a node only once used as a value. */
static gboolean
glue_proxy_getattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                    FxValue *result, gpointer data)
{
  TraceState *st = data;
  FxValue tracer;
  FxDict *dict;

  if (n_args != 2 || args[1].kind != FX_VALUE_STR || st->attribute_cls == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "__getattr__ expects one str argument");
  if (!instance_attr (S, &args[0], st->n_tracer, &tracer))
    return FALSE;
  *result = sc_instance_new (S, st->attribute_cls);
  dict = sc_instance_dict ((ScInstance *) result->obj);
  fx_dict_set (dict, sc_str_value (st->n_root), fx_value_copy (&args[0]));
  fx_dict_set (dict, sc_str_value (st->n_attr), fx_value_copy (&args[1]));
  fx_dict_set (dict, sc_str_value (st->n_tracer), tracer);
  fx_dict_set (dict, sc_str_value (st->n__node), fx_value_none ());
  return TRUE;
}

/* Attribute.__call__(self, *args, **kwargs): call_method self.attr on (self.root, *args). */
static gboolean
glue_attribute_call (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  TraceState *st = data;
  g_auto (FxValue) tracer = { 0 };
  g_auto (FxValue) attr = { 0 };
  g_auto (FxValue) call_args = { 0 };
  g_auto (FxValue) call_kwargs = { 0 };
  FxSeq *seq;

  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "__call__() needs self");
  seq = fx_seq_new ((guint) n_args);
  call_args = fx_value_take_tuple (seq);
  if (!instance_attr (S, &args[0], st->n_tracer, &tracer)
      || !instance_attr (S, &args[0], st->n_attr, &attr)
      || !instance_attr (S, &args[0], st->n_root, &seq->items[0]))
    return FALSE;
  for (int i = 1; i < n_args; i++)
    seq->items[i] = fx_value_copy (&args[i]);
  call_kwargs = kwargs != NULL ? fx_value_take_dict (fx_dict_ref (kwargs))
                               : fx_value_take_dict (fx_dict_new ());
  return dispatch_create_proxy (S, st, &tracer, &st->k_call_method, &attr, &call_args,
                                &call_kwargs, result);
}

/* ------------------------------------------------------------------ Proxy operators */

typedef struct {
  TraceState *st;
  FxValue target;                /* operator.X */
  FxValue tensor_method;         /* reflected: the Tensor method 1.13 records; else None */
  gboolean reflected;
} OperatorData;

static void
operator_data_free (gpointer p)
{
  OperatorData *d = p;
  fx_value_clear (&d->target);
  fx_value_clear (&d->tensor_method);
  state_release (d->st);
  g_free (d);
}

static FxValue
empty_dict (void)
{
  return fx_value_take_dict (fx_dict_new ());
}

static FxValue
args_tuple (const FxValue *args, int n)
{
  FxSeq *seq = fx_seq_new ((guint) n);
  for (int i = 0; i < n; i++)
    seq->items[i] = fx_value_copy (&args[i]);
  return fx_value_take_tuple (seq);
}

/* Proxy.__add__(self, *rest) & co.: a call_function node of operator.X on all arguments;
 * Proxy.__radd__(self, lhs): operator.X(lhs, self), or lhs's Tensor method when lhs is a
 * real tensor (1.13 reaches the Proxy through the Tensor's own operator). */
static gboolean
proxy_operator (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  OperatorData *d = data;
  g_auto (FxValue) tracer = { 0 };
  g_auto (FxValue) call_args = { 0 };
  g_auto (FxValue) call_kwargs = { 0 };

  if (n_args < 1 || (d->reflected && (n_args != 2 || kwargs != NULL)))
    return sc_raise (S, SC_T_TYPE_ERROR, "Proxy operator called with %d arguments", n_args);
  if (!instance_attr (S, &args[0], d->st->n_tracer, &tracer))
    return FALSE;
  call_kwargs = kwargs != NULL ? fx_value_take_dict (fx_dict_ref (kwargs)) : empty_dict ();
  if (d->reflected)
    {
      FxValue swapped[2] = { args[1], args[0] };
      call_args = args_tuple (swapped, 2);
      if (args[1].kind == FX_VALUE_TENSOR)
        return dispatch_create_proxy (S, d->st, &tracer, &d->st->k_call_method, &d->tensor_method,
                                      &call_args, &call_kwargs, result);
    }
  else
    call_args = args_tuple (args, n_args);
  return dispatch_create_proxy (S, d->st, &tracer, &d->st->k_call_function, &d->target,
                                &call_args, &call_kwargs, result);
}

/* proxy_operator(target[, tensor_method]): the method recording operator target. */
static gboolean
glue_proxy_operator (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  OperatorData *d;
  if (n_args < 1 || n_args > 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "proxy_operator(target[, tensor_method])");
  d = g_new0 (OperatorData, 1);
  d->st = g_rc_box_acquire ((TraceState *) data);
  d->target = fx_value_copy (&args[0]);
  d->reflected = n_args == 2;
  d->tensor_method = n_args == 2 ? fx_value_copy (&args[1]) : fx_value_none ();
  *result = sc_native_new ("torch.fx.proxy", "record", SC_NATIVE_METHOD, proxy_operator, d,
                           operator_data_free);
  return TRUE;
}

/* ------------------------------------------------------------------ patched nn.Module */

typedef struct {
  TraceState *st;
  FxValue tracer, original, extra;   /* extra: autowrap_check(globals) / parameter cache */
  FxDict *paths;                     /* submodule_paths: id(m) → (m, qualified name) */
  GHashTable *visited;               /* globals FxDict* already autowrap-checked */
  FxTracer *c_tracer;
} WrapperData;

static void
wrapper_data_free (gpointer p)
{
  WrapperData *w = p;
  fx_value_clear (&w->tracer);
  fx_value_clear (&w->original);
  fx_value_clear (&w->extra);
  if (w->paths)
    fx_dict_unref (w->paths);
  if (w->visited)
    g_hash_table_unref (w->visited);
  state_release (w->st);
  g_free (w);
}

static WrapperData *
wrapper_data_new (TraceState *st, const FxValue *tracer, const FxValue *original,
                  const FxValue *extra)
{
  WrapperData *w = g_new0 (WrapperData, 1);
  w->st = g_rc_box_acquire (st);
  w->tracer = fx_value_copy (tracer);
  w->original = fx_value_copy (original);
  w->extra = fx_value_copy (extra);
  return w;
}

/* torch.fx's Tracer.is_leaf_module: torch.nn's (and torch.ao.nn's) modules but Sequential. */
static gboolean
default_is_leaf (FxScript *S, TraceState *st, const FxValue *m)
{
  FxScriptClass *cls = sc_type_of (S, m);
  const char *module = cls->module != NULL ? cls->module->data : "";
  return (g_str_has_prefix (module, "torch.nn") || g_str_has_prefix (module, "torch.ao.nn"))
         && !(st->sequential_cls != NULL && sc_isinstance (S, m, st->sequential_cls));
}

/* `forward` as 1.13's call_module gets it: the module's original __call__ on m. */
static gboolean
bound_forward (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  WrapperData *w = data;
  FxValue *all = g_new (FxValue, n_args + 1);
  gboolean ok;
  all[0] = w->extra;   /* the module */
  if (n_args)
    memcpy (all + 1, args, sizeof (FxValue) * n_args);
  ok = sc_call_dict (S, &w->original, all, n_args + 1, kwargs, result);
  g_free (all);
  return ok;
}

/* path_of_module(mod) as Tracer.call_module asks it: a script override, else torch.fx's
 * (the paths the module scan found) with the C tracer's path_of_module hook. */
static gboolean
module_path (FxScript *S, WrapperData *w, const FxValue *mod, FxValue *path_value)
{
  TraceState *st = w->st;

  if (!is_default (S, st, &w->tracer, HOOK_PATH_OF_MODULE))
    {
      if (!call_hook (S, &w->tracer, st->n_path_of_module, mod, 1, path_value))
        return FALSE;
      if (path_value->kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "path_of_module must return a str, not '%s'",
                         sc_type_name (S, path_value));
      return TRUE;
    }
  {
    FxValue id = fx_value_int ((int64_t) (guintptr) (mod->kind == FX_VALUE_OBJECT ? mod->obj : NULL));
    const FxValue *pair = mod->kind == FX_VALUE_OBJECT ? fx_dict_get (w->paths, &id) : NULL;
    if (pair == NULL || (pair->kind != FX_VALUE_TUPLE && pair->kind != FX_VALUE_LIST)
        || pair->seq->len != 2 || pair->seq->items[0].kind != FX_VALUE_OBJECT
        || pair->seq->items[0].obj != mod->obj || pair->seq->items[1].kind != FX_VALUE_STR)
      return sc_raise (S, SC_T_NAME_ERROR, "module is not installed as a submodule");
    *path_value = fx_value_copy (&pair->seq->items[1]);
  }
  if (w->c_tracer != NULL && w->c_tracer->klass->path_of_module != NULL)
    {
      FxScriptClass *cls = sc_type_of (S, mod);
      char *renamed = w->c_tracer->klass->path_of_module (w->c_tracer, cls->name->data,
                                                          cls->module ? cls->module->data : "",
                                                          path_value->s->data);
      if (renamed != NULL)
        {
          fx_value_clear (path_value);
          *path_value = fx_value_take_str (fx_str_new (renamed));
          g_free (renamed);
        }
    }
  return TRUE;
}

/* is_leaf_module(mod, path): a script override, else torch.fx's answer with the C
 * tracer's is_leaf_module hook. */
static gboolean
module_is_leaf (FxScript *S, WrapperData *w, const FxValue *mod, const FxValue *path_value,
                gboolean *leaf)
{
  TraceState *st = w->st;

  if (!is_default (S, st, &w->tracer, HOOK_IS_LEAF_MODULE))
    {
      FxValue hargs[2] = { *mod, *path_value };
      g_auto (FxValue) r = { 0 };
      return call_hook (S, &w->tracer, st->n_is_leaf_module, hargs, 2, &r)
             && sc_truth (S, &r, leaf);
    }
  *leaf = default_is_leaf (S, st, mod);
  if (w->c_tracer != NULL && w->c_tracer->klass->is_leaf_module != NULL)
    {
      FxScriptClass *cls = sc_type_of (S, mod);
      *leaf = w->c_tracer->klass->is_leaf_module (w->c_tracer, cls->name->data,
                                                  cls->module ? cls->module->data : "",
                                                  path_value->s->data, *leaf);
    }
  return TRUE;
}

/* create_proxy('call_module', target, args, kwargs) of a module call; args[0] the module. */
static gboolean
module_call_leaf (FxScript *S, WrapperData *w, const FxValue *args, int n_args, FxDict *kwargs,
                  const FxValue *target, FxValue *result)
{
  g_auto (FxValue) call_args = args_tuple (args + 1, n_args - 1);
  g_auto (FxValue) call_kwargs = kwargs != NULL ? fx_value_take_dict (fx_dict_ref (kwargs))
                                                : empty_dict ();
  return dispatch_create_proxy (S, w->st, &w->tracer, &w->st->k_call_module, target, &call_args,
                                &call_kwargs, result);
}

/* 1.13's Tracer.call_module, path_value (None: not asked yet) kept for the caller. */
static gboolean
module_call_default (FxScript *S, WrapperData *w, const FxValue *args, int n_args,
                     FxDict *kwargs, FxValue *path_value, FxValue *result)
{
  gboolean leaf;

  if (path_value->kind == FX_VALUE_NONE && !module_path (S, w, &args[0], path_value))
    return FALSE;
  if (!module_is_leaf (S, w, &args[0], path_value, &leaf))
    return FALSE;
  if (!leaf)
    return sc_call_dict (S, &w->original, args, n_args, kwargs, result);
  return module_call_leaf (S, w, args, n_args, kwargs, path_value, result);
}

struct _FxModuleCall {
  FxScript *S;
  WrapperData *w;
  const FxValue *args;           /* the module, then the call's arguments */
  int n_args;
  FxDict *kwargs;
  FxValue path;                  /* path_of_module's answer; None until asked */
  FxValue result;                /* the last answer's; None */
  gboolean answered;
};

/* An answer (or the path) failed: the exception stays pending for module_call to raise as
 * it is; error gets its text. */
static gboolean
module_call_failed (FxModuleCall *call, GError **error)
{
  FxScript *S = call->S;
  g_autoptr (GString) tmp = g_string_new (NULL);
  if (error != NULL && *error == NULL)
    g_set_error (error, FX_ERROR, FX_ERROR_TRACE, "%s: %s", sc_type_name (S, &S->exc),
                 sc_exc_message (S, &S->exc, tmp));
  return FALSE;
}

const char *
fx_module_call_class_name (const FxModuleCall *call)
{
  return sc_type_of (call->S, &call->args[0])->name->data;
}

const char *
fx_module_call_class_module (const FxModuleCall *call)
{
  FxScriptClass *cls = sc_type_of (call->S, &call->args[0]);
  return cls->module != NULL ? cls->module->data : "";
}

const char *
fx_module_call_path (FxModuleCall *call, GError **error)
{
  if (call->path.kind == FX_VALUE_NONE
      && !module_path (call->S, call->w, &call->args[0], &call->path))
    return module_call_failed (call, error), NULL;
  return call->path.s->data;
}

/* Keeps a successful answer's result (the call's, unless a later one replaces it). */
static gboolean
module_call_answer (FxModuleCall *call, gboolean ok, FxValue result, GError **error)
{
  if (!ok)
    return module_call_failed (call, error);
  fx_value_clear (&call->result);
  call->result = result;
  call->answered = TRUE;
  return TRUE;
}

gboolean
fx_module_call_default (FxModuleCall *call, GError **error)
{
  FxValue r = { 0 };
  gboolean ok = module_call_default (call->S, call->w, call->args, call->n_args, call->kwargs,
                                     &call->path, &r);
  return module_call_answer (call, ok, r, error);
}

gboolean
fx_module_call_forward (FxModuleCall *call, GError **error)
{
  FxValue r = { 0 };
  gboolean ok = sc_call_dict (call->S, &call->w->original, call->args, call->n_args,
                              call->kwargs, &r);
  return module_call_answer (call, ok, r, error);
}

gboolean
fx_module_call_leaf (FxModuleCall *call, const char *target, GError **error)
{
  g_auto (FxValue) target_value = { 0 };
  FxValue r = { 0 };
  gboolean ok;

  if (target != NULL)
    target_value = fx_value_str (target);
  else if (fx_module_call_path (call, error) == NULL)
    return FALSE;
  else
    target_value = fx_value_copy (&call->path);
  ok = module_call_leaf (call->S, call->w, call->args, call->n_args, call->kwargs,
                         &target_value, &r);
  return module_call_answer (call, ok, r, error);
}

FxNode *
fx_module_call_result_node (FxModuleCall *call)
{
  TraceState *st = call->w->st;
  g_auto (FxValue) node = { 0 };

  if (!call->answered || st->proxy_cls == NULL
      || !sc_isinstance (call->S, &call->result, st->proxy_cls))
    return NULL;
  /* an Attribute makes its node when asked, which may raise: no node then */
  if (!instance_attr (call->S, &call->result, st->n_node, &node))
    {
      sc_clear_exc (call->S);
      return NULL;
    }
  return sc_fx_node_get (&node);
}

/* The C tracer's call_module hook on a module call (args[0] the module). */
static gboolean
module_call_c_hook (FxScript *S, WrapperData *w, const FxValue *args, int n_args,
                    FxDict *kwargs, FxValue *result)
{
  FxModuleCall call = { S, w, args, n_args, kwargs, { 0 }, { 0 }, FALSE };
  GError *error = NULL;
  gboolean ok = w->c_tracer->klass->call_module (w->c_tracer, &call, &error);

  if (!ok)
    {
      fx_value_clear (&call.path);
      fx_value_clear (&call.result);
      if (fx_script_exception_pending (S))
        {
          /* an answer's exception, raised as it was */
          g_clear_error (&error);
          return FALSE;
        }
      if (error == NULL)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "the tracer's call_module hook failed on %s",
                         fx_module_call_class_name (&call));
      sc_raise_gerror (S, error);
      g_error_free (error);
      return FALSE;
    }
  g_clear_error (&error);
  if (fx_script_exception_pending (S))
    sc_clear_exc (S);
  ok = TRUE;
  if (call.answered)
    {
      *result = call.result;
      call.result = fx_value_none ();
    }
  else
    ok = module_call_default (S, w, args, n_args, kwargs, &call.path, result);
  fx_value_clear (&call.path);
  return ok;
}

static gboolean
module_call (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  WrapperData *w = data;
  TraceState *st = w->st;
  const FxValue *mod = &args[0];
  FxValue *fwd;
  g_auto (FxValue) path_value = { 0 };

  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "Module.__call__() needs self");
  /* autowrap the functions of the forward's globals, once per namespace */
  fwd = sc_type_lookup (S, sc_type_of (S, mod), st->n_forward);
  if (fwd != NULL && sc_is_klass (fwd, &sc_function_klass))
    {
      FxDict *globals = ((ScFunction *) fwd->obj)->globals;
      if (!g_hash_table_contains (w->visited, globals))
        {
          FxValue g = fx_value_take_dict (fx_dict_ref (globals));
          FxValue r;
          gboolean ok = sc_call1 (S, &w->extra, &g, &r);
          fx_value_clear (&g);
          if (!ok)
            return FALSE;
          fx_value_clear (&r);
          g_hash_table_add (w->visited, globals);
        }
    }

  if (!is_default (S, st, &w->tracer, HOOK_CALL_MODULE))
    {
      WrapperData *fd = wrapper_data_new (st, &w->tracer, &w->original, mod);
      FxValue hargs[4];
      gboolean ok;
      hargs[0] = *mod;
      hargs[1] = sc_native_new ("torch.fx._symbolic_trace", "forward", SC_NATIVE_FUNCTION,
                                bound_forward, fd, wrapper_data_free);
      hargs[2] = args_tuple (args + 1, n_args - 1);
      hargs[3] = kwargs != NULL ? fx_value_take_dict (fx_dict_ref (kwargs)) : empty_dict ();
      ok = call_hook (S, &w->tracer, st->n_call_module, hargs, 4, result);
      for (int i = 1; i < 4; i++)
        fx_value_clear (&hargs[i]);
      return ok;
    }
  if (w->c_tracer != NULL && w->c_tracer->klass->call_module != NULL)
    return module_call_c_hook (S, w, args, n_args, kwargs, result);
  path_value = fx_value_none ();
  return module_call_default (S, w, args, n_args, kwargs, &path_value, result);
}

/* module_call_wrapper(tracer, original_call, autowrap_check, paths): Tracer.trace's
 * nn.Module.__call__ during a trace; paths: submodule_paths, id → (module, qualified name). */
static gboolean
glue_module_call_wrapper (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                          FxValue *result, gpointer data)
{
  WrapperData *w;
  g_auto (FxValue) capsule = { 0 };

  if (n_args != 4 || args[3].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "module_call_wrapper(tracer, original_call, autowrap_check, paths)");
  w = wrapper_data_new (data, &args[0], &args[1], &args[2]);
  /* looked up live, by id as path_of_module does: no table of its own to build per trace */
  w->paths = fx_dict_ref (args[3].dict);
  w->visited = g_hash_table_new (NULL, NULL);
  if (sc_getattr_opt (S, &args[0], sc_intern_cstr ("_fx_c_tracer"), &capsule) < 0)
    {
      wrapper_data_free (w);
      return FALSE;
    }
  w->c_tracer = capsule_tracer (&capsule);
  *result = sc_native_new ("torch.fx._symbolic_trace", "module_call_wrapper", SC_NATIVE_METHOD,
                           module_call, w, wrapper_data_free);
  return TRUE;
}

/* nn.Module.__getattr__ during a trace: the original, then tracer.getattr — which only acts
 * on tensors while it is torch.fx's own. */
static gboolean
module_getattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  WrapperData *w = data;
  g_auto (FxValue) value = { 0 };

  if (!sc_call_dict (S, &w->original, args, n_args, kwargs, &value))
    return FALSE;
  if (n_args == 2 && (value.kind == FX_VALUE_TENSOR
                      || !is_default (S, w->st, &w->tracer, HOOK_GETATTR)))
    {
      /* a C tracer's getattr may keep a tensor attribute out of torch.fx's own getattr */
      if (value.kind == FX_VALUE_TENSOR && w->c_tracer != NULL
          && w->c_tracer->klass->getattr != NULL && args[1].kind == FX_VALUE_STR
          && is_default (S, w->st, &w->tracer, HOOK_GETATTR)
          && !w->c_tracer->klass->getattr (w->c_tracer, args[1].s->data, &value))
        {
          *result = value;
          value = fx_value_none ();
          return TRUE;
        }
      FxValue hargs[3] = { args[1], value, w->extra };
      return call_hook (S, &w->tracer, w->st->n_getattr, hargs, 3, result);
    }
  *result = value;
  value = fx_value_none ();
  return TRUE;
}

/* module_getattr_wrapper(tracer, original_getattr, parameter_proxy_cache) */
static gboolean
glue_module_getattr_wrapper (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                             FxValue *result, gpointer data)
{
  if (n_args != 3)
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "module_getattr_wrapper(tracer, original_getattr, parameter_proxy_cache)");
  {
    WrapperData *w = wrapper_data_new (data, &args[0], &args[1], &args[2]);
    g_auto (FxValue) capsule = { 0 };
    if (sc_getattr_opt (S, &args[0], ((TraceState *) data)->n_fx_c_tracer, &capsule) < 0)
      {
        wrapper_data_free (w);
        return FALSE;
      }
    w->c_tracer = capsule_tracer (&capsule);
    *result = sc_native_new ("torch.fx._symbolic_trace", "module_getattr_wrapper",
                             SC_NATIVE_METHOD, module_getattr, w, wrapper_data_free);
  }
  return TRUE;
}

/* ------------------------------------------------------------------ per-trace scans */

/* scan_modules(root, tensor_attrs, submodule_paths): one walk of root.named_modules(
 * remove_duplicate=False), in pre-order as 1.13's collect_tensor_attrs recurses:
 * tensor_attrs[id(t)] = (t, qualified name) for every plain tensor attribute (a module
 * __dict__'s tensors; a later path wins) and submodule_paths[id(m)] = (m, qualified name)
 * for each module's first path (what named_modules() gives). */
static gboolean
glue_scan_modules (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) mods = g_ptr_array_new ();   /* borrowed FxObject* */
  FxSeq *list = NULL;

  if (n_args != 3 || args[1].kind != FX_VALUE_DICT || args[2].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "scan_modules(root, tensor_attrs, submodule_paths)");
  /* Module's own named_modules walked in C; an override is asked */
  if (!sc_nn_named_modules_all (S, &args[0], names, mods))
    {
      g_auto (FxValue) iter = { 0 };
      FxDict *kw = fx_dict_new ();
      gboolean ok;
      fx_dict_set (kw, fx_value_str ("remove_duplicate"), fx_value_bool (FALSE));
      ok = fx_script_call_method (S, &args[0], "named_modules", NULL, 0, kw, &iter)
           && fx_script_to_list (S, &iter, &list);
      fx_dict_unref (kw);
      if (!ok)
        return FALSE;
      for (guint i = 0; i < list->len; i++)
        {
          const FxValue *pair = &list->items[i];
          if (pair->kind != FX_VALUE_TUPLE || pair->seq->len != 2
              || pair->seq->items[0].kind != FX_VALUE_STR
              || pair->seq->items[1].kind != FX_VALUE_OBJECT)
            continue;
          g_ptr_array_add (names, g_strdup (pair->seq->items[0].s->data));
          g_ptr_array_add (mods, pair->seq->items[1].obj);
        }
    }
  for (guint i = 0; i < mods->len; i++)
    {
      const char *name = names->pdata[i];
      FxValue mod = { .kind = FX_VALUE_OBJECT, .obj = mods->pdata[i] };   /* borrowed */
      const FxValue *k, *v;
      FxValue id = fx_value_int ((int64_t) (guintptr) mod.obj);   /* id(m), as builtins.c has it */
      ScInstance *inst;
      g_auto (FxValue) dict = { 0 };

      if (fx_dict_get (args[2].dict, &id) == NULL)
        {
          FxSeq *entry = fx_seq_new (2);
          entry->items[0] = fx_value_copy (&mod);
          entry->items[1] = fx_value_str (name);
          fx_dict_set (args[2].dict, id, fx_value_take_tuple (entry));
        }
      /* an instance's own dict is its __dict__ but for the config of native layers, which
       * holds no tensors: no need to build that */
      inst = sc_value_instance (&mod);
      if (inst != NULL)
        dict = inst->dict != NULL ? fx_value_take_dict (fx_dict_ref (inst->dict)) : fx_value_none ();
      else if (!sc_getattr (S, &mod, sc_n.dict, &dict))
        {
          if (list != NULL)
            fx_seq_unref (list);
          return FALSE;
        }
      for (guint j = 0; dict.kind == FX_VALUE_DICT && fx_dict_entry (dict.dict, j, &k, &v); j++)
        if (v->kind == FX_VALUE_TENSOR && k->kind == FX_VALUE_STR)
          {
            FxSeq *entry = fx_seq_new (2);
            g_autofree char *qualified = name[0] != '\0' ? g_strconcat (name, ".", k->s->data, NULL)
                                                         : g_strdup (k->s->data);
            entry->items[0] = fx_value_copy (v);
            entry->items[1] = fx_value_str (qualified);
            fx_dict_set (args[1].dict, fx_value_int ((int64_t) (guintptr) v->tensor),
                         fx_value_take_tuple (entry));
          }
    }
  if (list != NULL)
    fx_seq_unref (list);
  *result = fx_value_none ();
  return TRUE;
}

/* id() of a callable, as builtins.c computes it */
static FxValue
callable_id (const FxValue *v)
{
  return fx_value_int ((int64_t) (v->kind == FX_VALUE_OP ? (guintptr) v->op : (guintptr) v->obj));
}

/* autowrap_names(namespace, function_ids): the names _autowrap_check patches — public,
 * callable, and whose id is one of function_ids (a set). */
static gboolean
glue_autowrap_names (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  FxSeq *out;
  const FxValue *k, *v;

  if (n_args != 2 || args[0].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "autowrap_names(namespace, function_ids)");
  out = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (args[0].dict, i, &k, &v); i++)
    {
      FxValue id;
      gboolean member = FALSE;
      if (k->kind != FX_VALUE_STR || k->s->data[0] == '_' || !sc_callable (S, v))
        continue;
      id = callable_id (v);
      /* the set Tracer.__init__ made: its table asked directly (ids are ints: no __eq__) */
      if (sc_is_klass (&args[1], &sc_set_klass))
        member = fx_dict_get (((ScSet *) args[1].obj)->d, &id) != NULL;
      else if (!sc_contains (S, &args[1], &id, &member))
        {
          fx_seq_unref (out);
          return FALSE;
        }
      if (member)
        fx_seq_append (out, fx_value_copy (k));
    }
  *result = fx_value_take_list (out);
  return TRUE;
}

/* autowrap_ids(autowrap_modules, autowrap_functions): Tracer.__init__'s set of the ids of
 * the public callables of the modules' dicts and of the functions (made per Tracer). */
static gboolean
glue_autowrap_ids (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  g_auto (FxValue) set = { 0 };
  FxSeq *modules = NULL, *functions = NULL;
  FxDict *ids;
  gboolean ok = TRUE;

  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "autowrap_ids(autowrap_modules, autowrap_functions)");
  if (!fx_script_to_list (S, &args[0], &modules))
    return FALSE;
  if (!fx_script_to_list (S, &args[1], &functions))
    {
      fx_seq_unref (modules);
      return FALSE;
    }
  set = sc_set_new (S, FALSE);
  ids = ((ScSet *) set.obj)->d;
  for (guint i = 0; ok && i < modules->len; i++)
    {
      g_auto (FxValue) dict = { 0 };
      const FxValue *k, *v;
      if (!(ok = sc_getattr (S, &modules->items[i], sc_n.dict, &dict)))
        break;
      if (dict.kind != FX_VALUE_DICT)
        continue;
      for (guint j = 0; fx_dict_entry (dict.dict, j, &k, &v); j++)
        if (k->kind == FX_VALUE_STR && k->s->data[0] != '_' && sc_callable (S, v))
          fx_dict_set (ids, callable_id (v), fx_value_none ());
    }
  for (guint i = 0; ok && i < functions->len; i++)
    fx_dict_set (ids, callable_id (&functions->items[i]), fx_value_none ());
  fx_seq_unref (modules);
  fx_seq_unref (functions);
  if (!ok)
    return FALSE;
  *result = set;
  set = fx_value_none ();
  return TRUE;
}

/* The undo entries of one autowrap_patch call in one object: (name, original) pairs of one
 * namespace, put back in reverse order by patch_undo (what that many (namespace, name,
 * original, False) tuples would do, without a tuple each). */
typedef struct {
  FxObject base;
  FxDict *namespace;
  GArray *pairs;                 /* of FxValue: name, original, name, original, ... */
} UndoBlock;

static void
undo_block_finalize (FxObject *obj)
{
  UndoBlock *b = (UndoBlock *) obj;
  for (guint i = 0; i < b->pairs->len; i++)
    fx_value_clear (&g_array_index (b->pairs, FxValue, i));
  g_array_unref (b->pairs);
  fx_dict_unref (b->namespace);
  g_free (b);
}

static const FxObjectClass undo_block_klass = {
  .name = "_PatchUndo",
  .finalize = undo_block_finalize,
};

/* autowrap_patch(undo, namespace, function_ids, stand_ins, wrap_function): the body of
 * _autowrap_check, run on every trace for math's ~50 functions. Each public callable of
 * namespace whose id is in function_ids is replaced by its stand-in (stand_ins: id →
 * (original, wrap_function(original)), made once), as _Patcher.patch does it: the stand-in
 * is marked __fx_already_patched, a value already so marked stays, and undo gets one
 * entry (an UndoBlock) that patch_undo turns back. */
static gboolean
glue_autowrap_patch (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  g_auto (FxValue) names = { 0 };
  FxStr *mark = sc_intern_cstr ("__fx_already_patched");
  FxValue yes = fx_value_bool (TRUE);
  UndoBlock *undo;

  if (n_args != 5 || args[0].kind != FX_VALUE_LIST || args[1].kind != FX_VALUE_DICT
      || args[3].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "autowrap_patch(undo, namespace, function_ids, stand_ins, wrap_function)");
  if (!glue_autowrap_names (S, &args[1], 2, NULL, &names, data))
    return FALSE;
  undo = g_new0 (UndoBlock, 1);
  fx_object_init (&undo->base, &undo_block_klass);
  undo->namespace = fx_dict_ref (args[1].dict);
  undo->pairs = g_array_new (FALSE, FALSE, sizeof (FxValue));
  /* on the undo list first: what is patched is undone even if a later name fails */
  fx_seq_append (args[0].seq, fx_value_take_object (&undo->base));
  for (guint i = 0; i < names.seq->len; i++)
    {
      const FxValue *name = &names.seq->items[i];
      FxValue *cur = fx_dict_get (args[1].dict, name);
      FxValue id, *known, stand_in, name_copy;
      const FxValue *marked;
      g_auto (FxValue) flag = { 0 };
      gboolean patched = FALSE;
      int r;

      if (cur == NULL)
        continue;
      id = fx_value_int ((int64_t) (cur->kind == FX_VALUE_OP ? (guintptr) cur->op
                                                             : (guintptr) cur->obj));
      known = fx_dict_get (args[3].dict, &id);
      if (known == NULL || known->kind != FX_VALUE_TUPLE || known->seq->len != 2
          || known->seq->items[0].kind != cur->kind
          || (cur->kind == FX_VALUE_OP ? known->seq->items[0].op != cur->op
                                       : known->seq->items[0].obj != cur->obj))
        {
          FxSeq *pair = fx_seq_new (2);
          pair->items[0] = fx_value_copy (cur);
          if (!sc_call1 (S, &args[4], &pair->items[0], &pair->items[1]))
            {
              fx_seq_unref (pair);
              return FALSE;
            }
          fx_dict_set (args[3].dict, id, fx_value_take_tuple (pair));
          known = fx_dict_get (args[3].dict, &id);
          /* wrap_function may have changed the namespace */
          if ((cur = fx_dict_get (args[1].dict, name)) == NULL)
            continue;
        }
      stand_in = fx_value_copy (&known->seq->items[1]);
      /* Patcher.patch(namespace, name, stand_in). The mark is set on every trace, as 1.13
       * does; a stand-in whose own dict already holds True is left as it is. */
      marked = sc_is_klass (&stand_in, &sc_function_klass) && ((ScFunction *) stand_in.obj)->dict != NULL
               ? sc_dict_get_str (((ScFunction *) stand_in.obj)->dict, mark) : NULL;
      if (!(marked != NULL && marked->kind == FX_VALUE_BOOL && marked->b)
          && !sc_setattr (S, &stand_in, mark, &yes))
        {
          fx_value_clear (&stand_in);
          return FALSE;
        }
      /* setattr runs no script code on a function, but a class's may: look the slot up anew */
      if ((cur = fx_dict_get (args[1].dict, name)) == NULL
          || (r = sc_getattr_opt (S, cur, mark, &flag)) < 0
          || (r > 0 && !sc_truth (S, &flag, &patched)))
        {
          fx_value_clear (&stand_in);
          if (cur == NULL)
            continue;
          return FALSE;
        }
      if (patched || (cur = fx_dict_get (args[1].dict, name)) == NULL)
        {
          fx_value_clear (&stand_in);
          continue;
        }
      /* the original moves from the namespace's slot into the undo block, the stand-in in
       * (what fx_dict_set does to an existing key, without its key copies) */
      name_copy = fx_value_copy (name);
      g_array_append_val (undo->pairs, name_copy);
      g_array_append_val (undo->pairs, *cur);
      *cur = stand_in;
    }
  *result = fx_value_none ();
  return TRUE;
}

/* patch_undo(undo, missing): _Patcher.__exit__'s loop — pops (owner, name, original,
 * is_attr) entries (and autowrap_patch's blocks of them) from the end of undo and puts each
 * original back (setattr for class attributes; a `missing` original deletes the dict
 * entry). */
static gboolean
glue_patch_undo (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                 FxValue *result, gpointer data)
{
  FxSeq *undo;

  if (n_args != 2 || args[0].kind != FX_VALUE_LIST)
    return sc_raise (S, SC_T_TYPE_ERROR, "patch_undo(undo, missing)");
  undo = args[0].seq;
  while (undo->len > 0)
    {
      g_auto (FxValue) item = undo->items[undo->len - 1];
      const FxValue *owner, *name, *original;
      gboolean is_attr, ok;

      undo->items[--undo->len] = fx_value_none ();
      if (item.kind == FX_VALUE_OBJECT && item.obj->klass == &undo_block_klass)
        {
          UndoBlock *b = (UndoBlock *) item.obj;
          /* the block goes with item: its originals move back into their slots */
          for (guint i = b->pairs->len; i >= 2; i -= 2)
            {
              FxValue *key = &g_array_index (b->pairs, FxValue, i - 2);
              FxValue *original = &g_array_index (b->pairs, FxValue, i - 1);
              FxValue *slot = fx_dict_get (b->namespace, key);
              if (slot != NULL)
                {
                  fx_value_clear (slot);
                  *slot = *original;
                }
              else
                fx_dict_set (b->namespace, fx_value_copy (key), *original);
              *original = fx_value_none ();
            }
          continue;
        }
      if (item.kind != FX_VALUE_TUPLE || item.seq->len != 4 || item.seq->items[1].kind != FX_VALUE_STR
          || !sc_truth (S, &item.seq->items[3], &is_attr))
        return sc_raise (S, SC_T_TYPE_ERROR, "patch_undo: malformed entry");
      owner = &item.seq->items[0];
      name = &item.seq->items[1];
      original = &item.seq->items[2];
      if (is_attr)
        ok = sc_setattr (S, owner, sc_intern (name->s->data, name->s->len), original);
      else if (original->kind == FX_VALUE_OBJECT && args[1].kind == FX_VALUE_OBJECT
               && original->obj == args[1].obj)
        ok = sc_delitem (S, owner, name);
      else
        ok = sc_setitem (S, owner, name, original);
      if (!ok)
        return FALSE;
    }
  *result = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ C tracer hooks */

/* The C tracer of args[0] (a tracer) and the FxNode of args[1] (a proxy or a Node). */
static gboolean
hook_args (FxScript *S, TraceState *st, const FxValue *args, int n_args, const char *fname,
           FxTracer **ct, FxNode **node)
{
  g_auto (FxValue) nv = { 0 };

  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s(tracer, proxy)", fname);
  *ct = c_tracer_of (st, &args[0]);
  *node = sc_fx_node_get (&args[1]);
  if (*node == NULL && st->proxy_cls != NULL && sc_isinstance (S, &args[1], st->proxy_cls))
    {
      if (!instance_attr (S, &args[1], st->n_node, &nv))
        return FALSE;
      *node = sc_fx_node_get (&nv);
    }
  return TRUE;
}

/* c_node_created(tracer, node): TracerBase.create_node's call of the create_node hook. */
static gboolean
glue_c_node_created (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "c_node_created(tracer, node)");
  if (!c_node_created (S, c_tracer_of (data, &args[0]), &args[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

/* c_hook(name, tracer, proxy): the answer of the C tracer's to_bool (a bool), iter (the
 * number of items) or keys (a list of str) hook about proxy; None when there is none. */
static gboolean
glue_c_hook (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  FxTracer *ct;
  FxNode *node;
  const char *which;

  if (n_args != 3 || args[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "c_hook(name, tracer, proxy)");
  if (!hook_args (S, data, args + 1, 2, "c_hook", &ct, &node))
    return FALSE;
  which = args[0].s->data;
  *result = fx_value_none ();
  if (ct == NULL || node == NULL)
    return TRUE;
  if (strcmp (which, "to_bool") == 0 && ct->klass->to_bool != NULL)
    {
      gboolean answer = FALSE;
      if (ct->klass->to_bool (ct, node, &answer))
        *result = fx_value_bool (answer);
    }
  else if (strcmp (which, "iter") == 0 && ct->klass->iter != NULL)
    {
      guint n = 0;
      if (ct->klass->iter (ct, node, &n))
        *result = fx_value_int (n);
    }
  else if (strcmp (which, "keys") == 0 && ct->klass->keys != NULL)
    {
      char **keys = NULL;
      if (ct->klass->keys (ct, node, &keys))
        {
          FxSeq *list = fx_seq_new (0);
          for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
            fx_seq_append (list, fx_value_str (keys[i]));
          g_strfreev (keys);
          *result = fx_value_take_list (list);
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ setup */

static FxObject *
class_hook (FxScript *S, FxScriptClass *cls, const char *name)
{
  FxValue *v = sc_type_lookup_c (S, cls, name);
  return v != NULL && v->kind == FX_VALUE_OBJECT ? v->obj : NULL;
}

/* tracer_setup(Proxy, Attribute, Tracer, Graph, Sequential): what the fast paths compare
 * against. */
static gboolean
glue_tracer_setup (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  TraceState *st = data;
  FxScriptClass *tracer_cls;

  if (n_args != 5)
    return sc_raise (S, SC_T_TYPE_ERROR, "tracer_setup(Proxy, Attribute, Tracer, Graph, Sequential)");
  for (int i = 0; i < 5; i++)
    if (!sc_value_class (&args[i]))
      return sc_raise (S, SC_T_TYPE_ERROR, "tracer_setup() takes classes");
  st->proxy_cls = sc_value_class (&args[0]);
  st->attribute_cls = sc_value_class (&args[1]);
  tracer_cls = sc_value_class (&args[2]);
  st->graph_cls = sc_value_class (&args[3]);
  st->sequential_cls = sc_value_class (&args[4]);
  for (int h = 0; h < N_HOOKS; h++)
    st->hooks[h].def = class_hook (S, tracer_cls, st->hooks[h].name->data);
  st->graph_create_node = class_hook (S, st->graph_cls, "create_node");
  *result = fx_value_none ();
  return TRUE;
}

void
fx_tracer_natives_add (FxScriptModule *glue)
{
  TraceState *st = g_rc_box_new0 (TraceState);
  static const struct {
    const char *name;
    FxScriptFunc func;
    ScNativeKind kind;           /* methods are installed on torch.fx's classes */
  } natives[] = {
    { "tracer_setup", glue_tracer_setup, SC_NATIVE_FUNCTION },
    { "proxy_operator", glue_proxy_operator, SC_NATIVE_FUNCTION },
    { "module_call_wrapper", glue_module_call_wrapper, SC_NATIVE_FUNCTION },
    { "module_getattr_wrapper", glue_module_getattr_wrapper, SC_NATIVE_FUNCTION },
    { "scan_modules", glue_scan_modules, SC_NATIVE_FUNCTION },
    { "autowrap_names", glue_autowrap_names, SC_NATIVE_FUNCTION },
    { "autowrap_patch", glue_autowrap_patch, SC_NATIVE_FUNCTION },
    { "autowrap_ids", glue_autowrap_ids, SC_NATIVE_FUNCTION },
    { "c_node_created", glue_c_node_created, SC_NATIVE_FUNCTION },
    { "c_hook", glue_c_hook, SC_NATIVE_FUNCTION },
    { "patch_undo", glue_patch_undo, SC_NATIVE_FUNCTION },
    { "create_proxy", glue_create_proxy, SC_NATIVE_METHOD },
    { "create_arg", glue_create_arg, SC_NATIVE_METHOD },
    { "proxy_getattr", glue_proxy_getattr, SC_NATIVE_METHOD },
    { "attribute_call", glue_attribute_call, SC_NATIVE_METHOD },
  };

  st->n_tracer = sc_intern_cstr ("tracer");
  st->n_node = sc_intern_cstr ("node");
  st->n_graph = sc_intern_cstr ("graph");
  st->n_root = sc_intern_cstr ("root");
  st->n_attr = sc_intern_cstr ("attr");
  st->n__node = sc_intern_cstr ("_node");
  st->n_create_arg_py = sc_intern_cstr ("_create_arg_py");
  st->n_create_proxy = sc_intern_cstr ("create_proxy");
  st->n_create_arg = sc_intern_cstr ("create_arg");
  st->n_create_node = sc_intern_cstr ("create_node");
  st->n_proxy = sc_intern_cstr ("proxy");
  st->n_call_module = sc_intern_cstr ("call_module");
  st->n_path_of_module = sc_intern_cstr ("path_of_module");
  st->n_is_leaf_module = sc_intern_cstr ("is_leaf_module");
  st->n_getattr = sc_intern_cstr ("getattr");
  st->n_forward = sc_intern_cstr ("forward");
  st->n_fx_c_tracer = sc_intern_cstr ("_fx_c_tracer");
  st->hooks[HOOK_CREATE_ARG].name = st->n_create_arg;
  st->hooks[HOOK_CREATE_NODE].name = st->n_create_node;
  st->hooks[HOOK_PROXY].name = st->n_proxy;
  st->hooks[HOOK_CREATE_PROXY].name = st->n_create_proxy;
  st->hooks[HOOK_PATH_OF_MODULE].name = st->n_path_of_module;
  st->hooks[HOOK_IS_LEAF_MODULE].name = st->n_is_leaf_module;
  st->hooks[HOOK_CALL_MODULE].name = st->n_call_module;
  st->hooks[HOOK_GETATTR].name = st->n_getattr;
  st->k_call_function = fx_value_str ("call_function");
  st->k_call_method = fx_value_str ("call_method");
  st->k_call_module = fx_value_str ("call_module");
  for (guint i = 0; i < G_N_ELEMENTS (natives); i++)
    fx_script_module_set (glue, natives[i].name,
                          native_value (st, natives[i].name, natives[i].func,
                                        natives[i].kind, g_rc_box_acquire (st),
                                        state_release));
  state_release (st);
}

/* ------------------------------------------------------------------ C tracers */

typedef struct {
  FxObject base;
  FxTracer *tracer;
} TracerCapsule;

static void
capsule_finalize (FxObject *obj)
{
  g_free (obj);
}

static const FxObjectClass capsule_klass = {
  .name = "FxTracer",
  .finalize = capsule_finalize,
};

FxValue
fx_tracer_capsule_new (FxTracer *tracer)
{
  TracerCapsule *c = g_new0 (TracerCapsule, 1);
  fx_object_init (&c->base, &capsule_klass);
  c->tracer = tracer;
  return fx_value_take_object (&c->base);
}

static FxTracer *
capsule_tracer (const FxValue *v)
{
  if (v->kind == FX_VALUE_OBJECT && v->obj->klass == &capsule_klass)
    return ((TracerCapsule *) v->obj)->tracer;
  return NULL;
}
