/* tracer.c: torch.fx's hot paths in C — Proxy operators, create_proxy / create_arg /
 * create_node / proxy, and the nn.Module __call__ / __getattr__ that Tracer.trace patches —
 * taken only while the tracer's class keeps torch.fx's own hook (a script override is called
 * instead, as 1.13 would), plus the FxTracer vtable of hooks overridable from C. */
#include "script/internal.h"
#include "script/fx-ir.h"
#include "script/nn-bind.h"
#include "trace/tracer.h"
#include "fx-error.h"

#include <string.h>

/* One per interpreter, shared by its natives. Classes and default hooks are borrowed: they
 * live in torch.fx's module dicts, which outlive every trace. */
typedef struct {
  FxScriptClass *proxy_cls, *attribute_cls, *graph_cls, *sequential_cls;
  /* the objects torch.fx.Tracer's own hooks are, to tell them from overrides */
  FxObject *def_create_proxy, *def_create_arg, *def_create_node, *def_proxy, *def_call_module,
           *def_path_of_module, *def_is_leaf_module, *def_getattr, *graph_create_node;
  FxStr *n_tracer, *n_node, *n_graph, *n_root, *n_attr, *n__node, *n_create_arg_py, *n_create_proxy, *n_create_arg, *n_create_node, *n_proxy,
        *n_call_module, *n_path_of_module, *n_is_leaf_module, *n_getattr, *n_forward;
  FxValue k_call_function, k_call_method, k_call_module;
} TraceState;

static void
state_release_cb (gpointer p)
{
  TraceState *st = p;
  fx_value_clear (&st->k_call_function);
  fx_value_clear (&st->k_call_method);
  fx_value_clear (&st->k_call_module);
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

/* tracer's class (and instance) keep torch.fx's hook `name`, whose object is def. */
static gboolean
is_default (FxScript *S, const FxValue *tracer, FxStr *name, FxObject *def)
{
  ScInstance *inst = sc_value_instance (tracer);
  FxValue *found;

  if (inst == NULL || def == NULL)
    return FALSE;
  if (inst->dict != NULL && sc_dict_get_str (inst->dict, name) != NULL)
    return FALSE;
  found = sc_type_lookup (S, inst->cls, name);
  return found != NULL && found->kind == FX_VALUE_OBJECT && found->obj == def;
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
                                     const FxValue *a, FxValue *out);

/* TracerBase/Tracer.create_arg for what needs no Python: proxies, plain values and the
 * containers of them; anything else goes to the Python definition (tensors, modules,
 * namedtuples, __fx_create_arg__, errors). */
static gboolean
create_arg_default (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *a,
                    FxValue *out)
{
  switch (a->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR: case FX_VALUE_ELLIPSIS: case FX_VALUE_DTYPE: case FX_VALUE_DEVICE:
      *out = fx_value_copy (a);
      return TRUE;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      if (a->seq->type != NULL)
        break;
      {
        FxSeq *seq = fx_seq_new (a->seq->len);
        for (guint i = 0; i < a->seq->len; i++)
          if (!dispatch_create_arg (S, st, tracer, &a->seq->items[i], &seq->items[i]))
            {
              fx_seq_unref (seq);
              return FALSE;
            }
        *out = a->kind == FX_VALUE_TUPLE ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
        return TRUE;
      }
    case FX_VALUE_DICT:
      {
        const FxValue *k, *v;
        FxDict *d;
        for (guint i = 0; fx_dict_entry (a->dict, i, &k, &v); i++)
          if (k->kind != FX_VALUE_STR)
            goto python;   /* keys that may hold proxies: 1.13's checks, in Python */
        d = fx_dict_new ();
        for (guint i = 0; fx_dict_entry (a->dict, i, &k, &v); i++)
          {
            FxValue lowered;
            if (!dispatch_create_arg (S, st, tracer, v, &lowered))
              {
                fx_dict_unref (d);
                return FALSE;
              }
            fx_dict_set (d, fx_value_copy (k), lowered);
          }
        *out = fx_value_take_dict (d);
        return TRUE;
      }
    case FX_VALUE_SLICE:
      {
        FxValue parts[3] = { { 0 } };
        const FxValue *in[3] = { &a->slice->start, &a->slice->stop, &a->slice->step };
        for (int i = 0; i < 3; i++)
          if (!dispatch_create_arg (S, st, tracer, in[i], &parts[i]))
            {
              for (int j = 0; j < i; j++)
                fx_value_clear (&parts[j]);
              return FALSE;
            }
        *out = fx_value_take_slice (fx_slice_new (parts[0], parts[1], parts[2]));
        return TRUE;
      }
    case FX_VALUE_OBJECT:
      if (st->proxy_cls != NULL && sc_isinstance (S, a, st->proxy_cls))
        return instance_attr (S, a, st->n_node, out);
      break;
    default:
      break;
    }
python:
  return call_hook (S, tracer, st->n_create_arg_py, a, 1, out);
}

static gboolean
dispatch_create_arg (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *a,
                     FxValue *out)
{
  if (!is_default (S, tracer, st->n_create_arg, st->def_create_arg))
    return call_hook (S, tracer, st->n_create_arg, a, 1, out);
  return create_arg_default (S, st, tracer, a, out);
}

/* Graph.create_node(kind, target, args, kwargs) of libfx's own Graph, with its checks. */
static gboolean
graph_create_node (FxScript *S, const FxValue *graph_value, const FxValue *kind,
                   const FxValue *target, const FxValue *args, const FxValue *kwargs,
                   const FxValue *name, const FxValue *type_expr, FxValue *out)
{
  g_autofree char *type = NULL;
  FxGraph *graph = sc_fx_graph_get (graph_value);
  g_auto (FxValue) margs = { 0 };
  g_auto (FxValue) mkwargs = { 0 };
  GError *error = NULL;
  FxNodeOp op;
  FxNode *node;
  const FxValue *k, *v;

  if (graph == NULL || kind->kind != FX_VALUE_STR || !fx_node_op_from_name (kind->s->data, &op)
      || op == FX_OP_ROOT
      || (op == FX_OP_CALL_FUNCTION
          ? target->kind != FX_VALUE_OP && !(target->kind == FX_VALUE_OBJECT && sc_callable (S, target))
          : target->kind != FX_VALUE_STR))
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  for (guint i = 0; fx_dict_entry (kwargs->dict, i, &k, &v); i++)
    if (k->kind != FX_VALUE_STR)
      return sc_raise (S, SC_T_TYPE_ERROR, "kwargs keys must be str, not '%s'", sc_type_name (S, k));
  if (name->kind != FX_VALUE_NONE && name->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "name must be a str, not '%s'", sc_type_name (S, name));
  if (!sc_fx_value_from_script (S, args, &margs) || !sc_fx_value_from_script (S, kwargs, &mkwargs)
      || !sc_fx_type_to_str (S, type_expr, &type))
    return FALSE;
  node = fx_graph_create_node (graph, op, target, &margs, &mkwargs,
                               name->kind == FX_VALUE_STR ? name->s->data : NULL, type, &error);
  if (node == NULL)
    {
      sc_raise_gerror (S, error);
      g_error_free (error);
      return FALSE;
    }
  *out = sc_fx_node_wrap (S, node);
  return TRUE;
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

  if (!is_default (S, tracer, st->n_create_node, st->def_create_node))
    return call_hook (S, tracer, st->n_create_node, hargs, 6, out);
  if (!instance_attr (S, tracer, st->n_graph, &graph))
    return FALSE;
  graph_type = sc_type_of (S, &graph);
  found = sc_type_lookup (S, graph_type, st->n_create_node);
  if (found == NULL || found->kind != FX_VALUE_OBJECT || found->obj != st->graph_create_node)
    return call_hook (S, &graph, st->n_create_node, hargs, 6, out);
  return graph_create_node (S, &graph, kind, target, args, kwargs, name, type_expr, out);
}

static gboolean
dispatch_proxy (FxScript *S, TraceState *st, const FxValue *tracer, const FxValue *node,
                FxValue *out)
{
  FxDict *dict;
  if (!is_default (S, tracer, st->n_proxy, st->def_proxy) || st->proxy_cls == NULL)
    return call_hook (S, tracer, st->n_proxy, node, 1, out);
  /* Proxy(node, tracer) */
  *out = sc_instance_new (S, st->proxy_cls);
  dict = sc_instance_dict ((ScInstance *) out->obj);
  fx_dict_set (dict, sc_str_value (st->n_tracer), fx_value_copy (tracer));
  fx_dict_set (dict, sc_str_value (st->n_node), fx_value_copy (node));
  return TRUE;
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

  if (!dispatch_create_arg (S, st, tracer, args, &node_args)
      || !dispatch_create_arg (S, st, tracer, kwargs, &node_kwargs))
    return FALSE;
  /* 1.13 asserts these, with no message */
  if (node_args.kind != FX_VALUE_TUPLE || node_kwargs.kind != FX_VALUE_DICT)
    return sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  if (!dispatch_create_node (S, st, tracer, kind, target, &node_args, &node_kwargs, name,
                             type_expr, &node))
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
  if (!is_default (S, tracer, st->n_create_proxy, st->def_create_proxy))
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
  return create_arg_default (S, data, &args[0], &args[1], result);
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
  GHashTable *paths;                 /* module FxObject* → FxStr* qualified name */
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
    g_hash_table_unref (w->paths);
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

static gboolean
module_call (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  WrapperData *w = data;
  TraceState *st = w->st;
  const FxValue *mod = &args[0];
  FxValue *fwd;
  gboolean leaf;
  FxStr *path;
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

  if (!is_default (S, &w->tracer, st->n_call_module, st->def_call_module))
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

  if (!is_default (S, &w->tracer, st->n_path_of_module, st->def_path_of_module))
    {
      if (!call_hook (S, &w->tracer, st->n_path_of_module, mod, 1, &path_value))
        return FALSE;
      if (path_value.kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "path_of_module must return a str, not '%s'",
                         sc_type_name (S, &path_value));
    }
  else
    {
      path = mod->kind == FX_VALUE_OBJECT ? g_hash_table_lookup (w->paths, mod->obj) : NULL;
      if (path == NULL)
        return sc_raise (S, SC_T_NAME_ERROR, "module is not installed as a submodule");
      path_value = sc_str_value (path);
    }

  if (!is_default (S, &w->tracer, st->n_is_leaf_module, st->def_is_leaf_module))
    {
      FxValue hargs[2] = { *mod, path_value };
      g_auto (FxValue) r = { 0 };
      if (!call_hook (S, &w->tracer, st->n_is_leaf_module, hargs, 2, &r)
          || !sc_truth (S, &r, &leaf))
        return FALSE;
    }
  else
    {
      leaf = default_is_leaf (S, st, mod);
      if (w->c_tracer != NULL && w->c_tracer->klass->is_leaf_module != NULL)
        {
          FxScriptClass *cls = sc_type_of (S, mod);
          leaf = w->c_tracer->klass->is_leaf_module (w->c_tracer, cls->name->data,
                                                     cls->module ? cls->module->data : "",
                                                     path_value.s->data, leaf);
        }
    }

  if (!leaf)
    return sc_call_dict (S, &w->original, args, n_args, kwargs, result);
  {
    g_auto (FxValue) call_args = args_tuple (args + 1, n_args - 1);
    g_auto (FxValue) call_kwargs = kwargs != NULL ? fx_value_take_dict (fx_dict_ref (kwargs))
                                                  : empty_dict ();
    return dispatch_create_proxy (S, st, &w->tracer, &st->k_call_module, &path_value,
                                  &call_args, &call_kwargs, result);
  }
}

static FxTracer *
capsule_tracer (const FxValue *v);

/* module_call_wrapper(tracer, original_call, autowrap_check, paths): Tracer.trace's
 * nn.Module.__call__ during a trace; paths: submodule_paths, id → (module, qualified name). */
static gboolean
glue_module_call_wrapper (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                          FxValue *result, gpointer data)
{
  WrapperData *w;
  g_auto (FxValue) capsule = { 0 };

  const FxValue *k, *pair;

  if (n_args != 4 || args[3].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "module_call_wrapper(tracer, original_call, autowrap_check, paths)");
  w = wrapper_data_new (data, &args[0], &args[1], &args[2]);
  w->paths = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) fx_str_unref);
  w->visited = g_hash_table_new (NULL, NULL);
  for (guint i = 0; fx_dict_entry (args[3].dict, i, &k, &pair); i++)
    {
      if ((pair->kind == FX_VALUE_TUPLE || pair->kind == FX_VALUE_LIST) && pair->seq->len == 2
          && pair->seq->items[0].kind == FX_VALUE_OBJECT && pair->seq->items[1].kind == FX_VALUE_STR
          && !g_hash_table_contains (w->paths, pair->seq->items[0].obj))
        g_hash_table_insert (w->paths, pair->seq->items[0].obj,
                             fx_str_ref (pair->seq->items[1].s));
    }
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
                      || !is_default (S, &w->tracer, w->st->n_getattr, w->st->def_getattr)))
    {
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
  *result = sc_native_new ("torch.fx._symbolic_trace", "module_getattr_wrapper", SC_NATIVE_METHOD,
                           module_getattr, wrapper_data_new (data, &args[0], &args[1], &args[2]),
                           wrapper_data_free);
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
  g_auto (FxValue) iter = { 0 };
  FxDict *kw;
  FxSeq *list = NULL;
  gboolean ok;

  if (n_args != 3 || args[1].kind != FX_VALUE_DICT || args[2].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "scan_modules(root, tensor_attrs, submodule_paths)");
  kw = fx_dict_new ();
  fx_dict_set (kw, fx_value_str ("remove_duplicate"), fx_value_bool (FALSE));
  ok = fx_script_call_method (S, &args[0], "named_modules", NULL, 0, kw, &iter)
       && fx_script_to_list (S, &iter, &list);
  fx_dict_unref (kw);
  if (!ok)
    return FALSE;
  for (guint i = 0; i < list->len; i++)
    {
      const FxValue *pair = &list->items[i];
      const FxValue *name, *mod, *k, *v;
      FxValue id;
      ScInstance *inst;
      g_auto (FxValue) dict = { 0 };

      if (pair->kind != FX_VALUE_TUPLE || pair->seq->len != 2
          || pair->seq->items[0].kind != FX_VALUE_STR || pair->seq->items[1].kind != FX_VALUE_OBJECT)
        continue;
      name = &pair->seq->items[0];
      mod = &pair->seq->items[1];
      id = fx_value_int ((int64_t) (guintptr) mod->obj);   /* id(m), as builtins.c has it */
      if (fx_dict_get (args[2].dict, &id) == NULL)
        {
          FxSeq *entry = fx_seq_new (2);
          entry->items[0] = fx_value_copy (mod);
          entry->items[1] = fx_value_copy (name);
          fx_dict_set (args[2].dict, id, fx_value_take_tuple (entry));
        }
      /* an instance's own dict is its __dict__ but for the config of native layers, which
       * holds no tensors: no need to build that */
      inst = sc_value_instance (mod);
      if (inst != NULL)
        dict = inst->dict != NULL ? fx_value_take_dict (fx_dict_ref (inst->dict)) : fx_value_none ();
      else if (!sc_getattr (S, mod, sc_n.dict, &dict))
        {
          fx_seq_unref (list);
          return FALSE;
        }
      for (guint j = 0; dict.kind == FX_VALUE_DICT && fx_dict_entry (dict.dict, j, &k, &v); j++)
        if (v->kind == FX_VALUE_TENSOR && k->kind == FX_VALUE_STR)
          {
            FxSeq *entry = fx_seq_new (2);
            g_autofree char *qualified = name->s->len > 0
                                         ? g_strconcat (name->s->data, ".", k->s->data, NULL)
                                         : g_strdup (k->s->data);
            entry->items[0] = fx_value_copy (v);
            entry->items[1] = fx_value_str (qualified);
            fx_dict_set (args[1].dict, fx_value_int ((int64_t) (guintptr) v->tensor),
                         fx_value_take_tuple (entry));
          }
    }
  fx_seq_unref (list);
  *result = fx_value_none ();
  return TRUE;
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
      /* id() of a callable, as builtins.c computes it */
      id = fx_value_int ((int64_t) (v->kind == FX_VALUE_OP ? (guintptr) v->op : (guintptr) v->obj));
      if (!sc_contains (S, &args[1], &id, &member))
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
  st->def_create_proxy = class_hook (S, tracer_cls, "create_proxy");
  st->def_create_arg = class_hook (S, tracer_cls, "create_arg");
  st->def_create_node = class_hook (S, tracer_cls, "create_node");
  st->def_proxy = class_hook (S, tracer_cls, "proxy");
  st->def_call_module = class_hook (S, tracer_cls, "call_module");
  st->def_path_of_module = class_hook (S, tracer_cls, "path_of_module");
  st->def_is_leaf_module = class_hook (S, tracer_cls, "is_leaf_module");
  st->def_getattr = class_hook (S, tracer_cls, "getattr");
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
