/* exec.c: running an FxExecPlan — the instruction loop, binding inputs to placeholders,
 * direct kernel and layer calls — and FxInterpreter, torch.fx's Interpreter with C hooks
 * driven by the same loop. */
#include "run/run-private.h"
#include "ops/grad.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <string.h>
#include <time.h>

typedef struct {
  ExecPlan *plan;
  FxValue *env;
  guint8 *live;          /* interpreter runs: which slots hold a value */
  FxInterpreter *interp;
  const FxValue *args;
  int n_args;
  const FxDict *kwargs;
  int cursor;            /* interpreter: next positional input */
  int current;
  guint8 *given;         /* interpreter: slots filled from initial_env, not run */
  gboolean cache;        /* the run has the plan to itself: lookups may use and update the
                          * instructions' spots (fx_run_resolve_module) */
} RunState;

/* Interpreter.run's initial_env: values for some nodes, given instead of computed. */
typedef struct {
  FxNode *const *nodes;
  const FxValue *values;
  int n;
} InitialEnv;

static gint64
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ------------------------------------------------------------------------------------------
 * Arguments
 * ------------------------------------------------------------------------------------------ */

static FxValue
map_to_env (FxNode *node, gpointer data)
{
  RunState *st = data;
  gpointer v = g_hash_table_lookup (st->plan->slots, node);
  return v ? fx_value_copy (&st->env[GPOINTER_TO_INT (v) - 1]) : fx_value_none ();
}

/* *out borrows for constants and slots; trees are rebuilt and owned (*owned set). */
static inline void
arg_get (RunState *st, const PlanArg *a, FxValue *out, gboolean *owned)
{
  switch (a->kind)
    {
    case PLAN_ARG_SLOT:
      *out = st->env[a->slot];
      *owned = FALSE;
      break;
    case PLAN_ARG_CONST:
      *out = a->value;
      *owned = FALSE;
      break;
    default:
      *out = fx_value_map_nodes (&a->value, map_to_env, st);
      *owned = TRUE;
      break;
    }
}

/* Positional args (owned copies) and kwargs (a new dict or NULL) of an instruction. */
static void
args_collect (RunState *st, const Instr *in, FxValue *argv, FxDict **kwargs)
{
  for (int i = 0; i < in->n_args; i++)
    {
      gboolean owned;
      FxValue v;
      arg_get (st, &in->args[i], &v, &owned);
      argv[i] = owned ? v : fx_value_copy (&v);
    }
  *kwargs = NULL;
  if (in->n_kwargs > 0)
    {
      *kwargs = fx_dict_new ();
      for (int i = 0; i < in->n_kwargs; i++)
        {
          gboolean owned;
          FxValue v;
          arg_get (st, &in->kw_values[i], &v, &owned);
          fx_dict_set (*kwargs, fx_value_copy (&in->kw_keys[i]), owned ? v : fx_value_copy (&v));
        }
    }
}

static void
args_clear (FxValue *argv, int n, FxDict *kwargs)
{
  for (int i = 0; i < n; i++)
    fx_value_clear (&argv[i]);
  if (kwargs)
    fx_dict_unref (kwargs);
}

/* ------------------------------------------------------------------------------------------
 * Inputs
 * ------------------------------------------------------------------------------------------ */

static const char *
kw_name (const FxValue *k)
{
  return k->kind == FX_VALUE_STR ? k->s->data : "?";
}

/* Python's checks of a call of forward(self, ...): too many positional, unknown or repeated
 * keywords, missing arguments. */
static gboolean
check_inputs (ExecPlan *plan, const FxValue *args, int n_args, const FxDict *kwargs,
              GError **error)
{
  int n_pos = 0;
  gboolean var_pos = FALSE, var_kw = FALSE;
  g_autoptr (GPtrArray) missing = g_ptr_array_new ();

  for (int i = 0; i < plan->n_instrs; i++)
    {
      const Instr *in = &plan->instrs[i];
      if (in->op != FX_OP_PLACEHOLDER)
        continue;
      if (in->star == 1)
        var_pos = TRUE;
      else if (in->star == 2)
        var_kw = TRUE;
      else
        {
          FxValue key = fx_value_str (in->path);
          gboolean by_kw = kwargs && fx_dict_get (kwargs, &key) != NULL;
          fx_value_clear (&key);
          if (n_pos < n_args && by_kw)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                           "forward() got multiple values for argument '%s'", in->path);
              return FALSE;
            }
          if (n_pos >= n_args && !by_kw && !in->has_default)
            g_ptr_array_add (missing, in->path);
          n_pos++;
        }
    }
  if (n_args > n_pos && !var_pos)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                   "forward() takes %d positional argument%s but %d %s given", n_pos + 1,
                   n_pos + 1 == 1 ? "" : "s", n_args + 1, n_args + 1 == 1 ? "was" : "were");
      return FALSE;
    }
  const FxValue *k, *v;
  for (guint j = 0; kwargs && !var_kw && fx_dict_entry (kwargs, j, &k, &v); j++)
    {
      gboolean known = FALSE;
      for (int i = 0; i < plan->n_instrs && !known; i++)
        known = plan->instrs[i].op == FX_OP_PLACEHOLDER && plan->instrs[i].star == 0
                && k->kind == FX_VALUE_STR && strcmp (plan->instrs[i].path, k->s->data) == 0;
      if (!known)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "forward() got an unexpected keyword argument '%s'", kw_name (k));
          return FALSE;
        }
    }
  if (missing->len > 0)
    {
      GString *names = g_string_new (NULL);
      for (guint i = 0; i < missing->len; i++)
        {
          if (i > 0)
            g_string_append (names, missing->len == 2 ? " and " :
                             i + 1 == missing->len ? ", and " : ", ");
          g_string_append_printf (names, "'%s'", (const char *) missing->pdata[i]);
        }
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                   "forward() missing %u required positional argument%s: %s", missing->len,
                   missing->len == 1 ? "" : "s", names->str);
      g_string_free (names, TRUE);
      return FALSE;
    }
  return TRUE;
}

/* The value of a placeholder in a checked call. */
static void
bind_placeholder (RunState *st, const Instr *in, FxValue *result)
{
  if (in->star == 1)
    {
      FxSeq *seq = fx_seq_new (0);
      for (int i = in->placeholder_index; i < st->n_args; i++)
        fx_seq_append (seq, fx_value_copy (&st->args[i]));
      *result = fx_value_take_tuple (seq);
      return;
    }
  if (in->star == 2)
    {
      FxDict *d = fx_dict_new ();
      const FxValue *k, *v;
      for (guint j = 0; st->kwargs && fx_dict_entry (st->kwargs, j, &k, &v); j++)
        {
          gboolean named = FALSE;
          for (int i = 0; i < st->plan->n_instrs && !named; i++)
            named = st->plan->instrs[i].op == FX_OP_PLACEHOLDER && st->plan->instrs[i].star == 0
                    && k->kind == FX_VALUE_STR
                    && strcmp (st->plan->instrs[i].path, k->s->data) == 0;
          if (!named)
            fx_dict_set (d, fx_value_copy (k), fx_value_copy (v));
        }
      *result = fx_value_take_dict (d);
      return;
    }
  if (in->placeholder_index < st->n_args)
    {
      *result = fx_value_copy (&st->args[in->placeholder_index]);
      return;
    }
  if (st->kwargs)
    {
      FxValue key = fx_value_str (in->path);
      const FxValue *v = fx_dict_get (st->kwargs, &key);
      fx_value_clear (&key);
      if (v != NULL)
        {
          *result = fx_value_copy (v);
          return;
        }
    }
  *result = fx_value_copy (&in->default_value);
}

/* ------------------------------------------------------------------------------------------
 * Modules and attributes
 * ------------------------------------------------------------------------------------------ */

FxValue *
fx_run_dict_lookup (const FxDict *dict, const FxValue *key, DictSpot *spot)
{
  if (dict == NULL)
    return NULL;
  if (spot == NULL)
    return fx_dict_get (dict, key);
  guint64 version = fx_dict_keys_version (dict);
  if (spot->dict != dict || spot->version != version)
    *spot = (DictSpot) { dict, version, fx_dict_find (dict, key) };
  return spot->entry >= 0 ? fx_dict_entry_value (dict, spot->entry) : NULL;
}

FxModule *
fx_run_resolve_module (ExecPlan *plan, const Instr *in, gboolean cache, GError **error)
{
  FxModule *m = plan->root;
  for (guint i = 0; i < in->path_keys->len; i++)
    {
      FxValue key = { .kind = FX_VALUE_STR, .s = in->path_keys->pdata[i] };
      FxValue *v = fx_run_dict_lookup (m->children, &key,
                                       cache && in->path_spots ? &in->path_spots[i] : NULL);
      FxModule *child = v ? fx_value_get_module (v) : NULL;
      if (child == NULL)
        return fx_module_get_submodule (plan->root, in->path, error);
      m = child;
    }
  return m;
}

/* get_attr's value (a new reference): the same walk with the last atom looked up in the
 * owner's tables; anything unusual (a missing name, an attribute of a non-module) goes
 * through fx_module_get_attr for its behaviour and messages. */
static gboolean
resolve_attr (ExecPlan *plan, const Instr *in, FxValue *out, GError **error)
{
  FxModule *m = plan->root;
  guint n = in->path_keys->len;
  for (guint i = 0; m != NULL && i + 1 < n; i++)
    {
      FxValue key = { .kind = FX_VALUE_STR, .s = in->path_keys->pdata[i] };
      FxValue *v = m->children ? fx_dict_get (m->children, &key) : NULL;
      m = v ? fx_value_get_module (v) : NULL;
    }
  if (m != NULL && n > 0)
    {
      FxValue key = { .kind = FX_VALUE_STR, .s = in->path_keys->pdata[n - 1] };
      FxDict *tables[] = { m->parameters, m->buffers, m->children, m->attributes };
      for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
        {
          FxValue *v = tables[t] ? fx_dict_get (tables[t], &key) : NULL;
          if (v != NULL)
            {
              *out = fx_value_copy (v);
              return TRUE;
            }
        }
    }
  return fx_module_get_attr (plan->root, in->path, out, error);
}

typedef struct {
  gboolean ok;
  FxOverload ov;
  gboolean all_tensors;
} LayerForward;

/* Parsed forward schemas of builtin layers, by kind (never freed: a fixed small table). */
static const LayerForward *
layer_forward (const FxLayerKind *kind)
{
  static GMutex lock;
  static GHashTable *table;
  LayerForward *lf;

  g_mutex_lock (&lock);
  if (table == NULL)
    table = g_hash_table_new (g_direct_hash, g_direct_equal);
  lf = g_hash_table_lookup (table, kind);
  if (lf == NULL)
    {
      lf = g_new0 (LayerForward, 1);
      lf->ok = kind->forward_schema != NULL && kind->forward != NULL
               && fx_schema_parse (kind->forward_schema, &lf->ov, NULL);
      lf->all_tensors = lf->ok;
      for (int i = 0; lf->ok && i < lf->ov.n_args; i++)
        if (lf->ov.args[i].type != FX_ARG_TENSOR || lf->ov.args[i].optional
            || lf->ov.args[i].varargs || lf->ov.args[i].kwarg_only)
          lf->all_tensors = FALSE;
      g_hash_table_insert (table, (gpointer) kind, lf);
    }
  g_mutex_unlock (&lock);
  return lf;
}

/* module(*args, **kwargs): builtin layers whose forward takes only tensors, given tensors,
 * go straight to their forward; others bind through the layer table or, for user
 * modules, through the module caller a script installs. */
static gboolean
call_module (FxModule *m, const char *path, const FxValue *argv, int n_args,
             const FxDict *kwargs, FxValue *result, GError **error)
{
  if (m->layer != NULL && m->layer->forward != NULL)
    {
      if (kwargs == NULL)
        {
          const LayerForward *lf = layer_forward (m->layer);
          gboolean direct = lf->all_tensors && lf->ov.n_args == n_args;
          for (int i = 0; direct && i < n_args; i++)
            direct = argv[i].kind == FX_VALUE_TENSOR;
          if (direct)
            {
              *result = fx_value_none ();
              if (m->layer->forward (m, argv, result, error))
                return TRUE;
              fx_value_clear (result);
              return FALSE;
            }
        }
      return fx_module_forward_layer (m, argv, n_args, kwargs, result, error);
    }
  GError *local = NULL;
  if (fx_module_call (m, argv, n_args, kwargs, result, &local))
    return TRUE;
  /* Without a script's module caller, layers.c only knows builtin layers: say why. */
  if (local->code == FX_ERROR_NOT_IMPLEMENTED && strstr (local->message, "missing the required"))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "module '%s' (%s) is not a builtin layer: its forward runs only in the "
                   "script that defines it", path, m->type_name);
      g_error_free (local);
    }
  else
    g_propagate_error (error, local);
  return FALSE;
}

/* ------------------------------------------------------------------------------------------
 * Ops
 * ------------------------------------------------------------------------------------------ */

/* Whether v is already what fx_op_bind() would pass for spec (so binding is the identity). */
static inline gboolean
normal_form (const FxArgSpec *spec, const FxValue *v)
{
  if (v->kind == FX_VALUE_NONE)
    return spec->optional || spec->type == FX_ARG_ANY;
  switch (spec->type)
    {
    case FX_ARG_ANY: return TRUE;
    case FX_ARG_TENSOR: return v->kind == FX_VALUE_TENSOR;
    case FX_ARG_INT: return v->kind == FX_VALUE_INT;
    case FX_ARG_FLOAT: return v->kind == FX_VALUE_FLOAT;
    case FX_ARG_BOOL: return v->kind == FX_VALUE_BOOL;
    case FX_ARG_SCALAR:
      return v->kind == FX_VALUE_INT || v->kind == FX_VALUE_FLOAT || v->kind == FX_VALUE_BOOL;
    case FX_ARG_STR: return v->kind == FX_VALUE_STR;
    case FX_ARG_DTYPE: return v->kind == FX_VALUE_DTYPE;
    case FX_ARG_DEVICE: return v->kind == FX_VALUE_DEVICE;
    default: return FALSE;
    }
}

static gboolean
exec_op (RunState *st, Instr *in, FxValue *result, GError **error)
{
  FxValue stack[8];
  FxValue *argv = in->n_args <= 8 ? stack : g_new (FxValue, in->n_args);
  gboolean any_tree = FALSE, ok;
  FxDict *kwargs = NULL;

  for (int i = 0; i < in->n_args; i++)
    {
      gboolean owned;
      arg_get (st, &in->args[i], &argv[i], &owned);
      any_tree |= owned;
    }
  if (in->fast_ov != NULL)
    {
      const FxOverload *ov = in->fast_ov;
      gboolean fast = TRUE;
      for (int i = 0; fast && i < in->n_args; i++)
        fast = normal_form (&ov->args[i], &argv[i]);
      if (fast)
        {
          /* borrowed values: the given args, then the defaults compiled into fast_argv
           * (read only, so concurrent runs of one plan do not meet here) */
          FxValue kstack[16];
          FxValue *kargv = ov->n_args <= 16 ? kstack : g_new (FxValue, ov->n_args);
          memcpy (kargv, argv, sizeof (FxValue) * (gsize) in->n_args);
          memcpy (kargv + in->n_args, in->fast_argv + in->n_args,
                  sizeof (FxValue) * (gsize) (ov->n_args - in->n_args));
          *result = fx_value_none ();
          ok = fx_grad_check_inplace (in->fop, ov, kargv, error)
               && ov->kernel (kargv, result, error);
          if (ok)
            fx_grad_record (in->fop, ov, kargv, result);
          if (kargv != kstack)
            g_free (kargv);
          if (!ok)
            fx_value_clear (result);
          goto out;
        }
    }
  if (in->n_kwargs > 0)
    {
      kwargs = fx_dict_new ();
      for (int i = 0; i < in->n_kwargs; i++)
        {
          gboolean owned;
          FxValue v;
          arg_get (st, &in->kw_values[i], &v, &owned);
          fx_dict_set (kwargs, fx_value_copy (&in->kw_keys[i]), owned ? v : fx_value_copy (&v));
        }
    }
  ok = fx_op_call (in->fop, argv, in->n_args, kwargs, result, error);
  if (kwargs)
    fx_dict_unref (kwargs);

out:
  if (any_tree)   /* only rebuilt trees are owned */
    for (int i = 0; i < in->n_args; i++)
      if (in->args[i].kind == PLAN_ARG_TREE)
        fx_value_clear (&argv[i]);
  if (argv != stack)
    g_free (argv);
  return ok;
}

static gboolean
exec_module (RunState *st, Instr *in, FxValue *result, GError **error)
{
  FxModule *m = fx_run_resolve_module (st->plan, in, st->cache, error);
  if (m == NULL)
    return FALSE;
  FxValue stack[8];
  FxValue *argv = in->n_args <= 8 ? stack : g_new (FxValue, in->n_args);
  FxDict *kwargs = NULL;
  args_collect (st, in, argv, &kwargs);
  gboolean ok = call_module (m, in->path, argv, in->n_args, kwargs, result, error);
  args_clear (argv, in->n_args, kwargs);
  if (argv != stack)
    g_free (argv);
  return ok;
}

/* The fast path: one instruction, no hooks. */
static gboolean
exec_instr (RunState *st, Instr *in, FxValue *result, GError **error)
{
  switch (in->op)
    {
    case FX_OP_PLACEHOLDER:
      bind_placeholder (st, in, result);
      return TRUE;
    case FX_OP_GET_ATTR:
      return resolve_attr (st->plan, in, result, error);
    case FX_OP_CALL_FUNCTION:
    case FX_OP_CALL_METHOD:
      return exec_op (st, in, result, error);
    case FX_OP_CALL_MODULE:
      return exec_module (st, in, result, error);
    case FX_OP_OUTPUT:
      {
        gboolean owned;
        FxValue v;
        arg_get (st, &in->args[0], &v, &owned);
        *result = owned ? v : fx_value_copy (&v);
        return TRUE;
      }
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "unknown opcode");
      return FALSE;
    }
}

/* ------------------------------------------------------------------------------------------
 * The loop
 * ------------------------------------------------------------------------------------------ */

static gboolean interp_run_node (FxInterpreter *interp, Instr *in, FxValue *result,
                                 GError **error);

static void
prefix_node_error (const Instr *in, GError **error)
{
  if (error == NULL || *error == NULL)
    return;
  if (in->op == FX_OP_PLACEHOLDER || in->op == FX_OP_OUTPUT)
    g_prefix_error (error, "while running node '%s' (%s): ", in->name, fx_node_op_name (in->op));
  else
    g_prefix_error (error, "while running node '%s' (%s %s): ", in->name,
                    fx_node_op_name (in->op), in->target_str);
}

/* A fused chain (fuse.c) on the conv node's input; FALSE: run its nodes one by one. An
 * error of the fused step falls back too, so that the nodes report it exactly as they do
 * without fusion. */
static gboolean
run_fused (RunState *st, const Instr *in, FxValue *result)
{
  gboolean owned;
  FxValue input, residual, second;
  GError *local = NULL;
  arg_get (st, &in->args[0], &input, &owned);   /* a slot or a constant: borrowed */
  const PlanArg *res_arg = fx_run_fuse_residual_arg (in);
  if (res_arg != NULL)
    arg_get (st, res_arg, &residual, &owned);   /* a slot: borrowed */
  if (in->fuse_pair)
    arg_get (st, &in[2].args[0], &second, &owned);   /* the second conv's input */
  FxFuseResult fr = fx_run_fuse_exec (st->plan, in, &input, res_arg ? &residual : NULL,
                                      in->fuse_pair ? &second : NULL, st->cache, result,
                                      &local);
  g_clear_error (&local);
  return fr == FX_FUSE_DONE;
}

static void
profile_add (Instr *in, gint64 ns)
{
  in->best_ns = in->calls == 0 ? ns : MIN (in->best_ns, ns);
  in->time_ns += ns;
  in->calls++;
}

/* prefix: name the failing node in the message (scripts report errors their own way). */
static gboolean
run_loop (ExecPlan *plan, FxInterpreter *interp, const FxValue *args, int n_args,
          const FxDict *kwargs, const InitialEnv *initial, gboolean prefix, gboolean gc,
          FxValue *result, GError **error)
{
  RunState st = { plan, NULL, NULL, interp, args, n_args, kwargs, 0, 0, NULL };
  gboolean ok = TRUE, own_env;
  int n = plan->n_instrs;

  *result = fx_value_none ();
  if (interp == NULL && !check_inputs (plan, args, n_args, kwargs, error))
    return FALSE;
  /* A re-entrant run (a graph calling itself through a module) or one on another thread
   * gets slots of its own; the profile counters are then only approximate. */
  own_env = !g_atomic_int_compare_and_exchange (&plan->running, FALSE, TRUE);
  st.env = own_env ? g_new0 (FxValue, n > 0 ? n : 1) : plan->env;
  st.cache = !own_env;
  if (interp != NULL)
    st.live = g_new0 (guint8, n > 0 ? n : 1);
  if (interp != NULL)
    interp->run_state = &st;
  /* As 1.13: a node already in the environment is not run (its inputs still are, unless
   * given too); a given placeholder takes no positional input; nodes of other graphs are
   * ignored. */
  for (int j = 0; initial != NULL && j < initial->n; j++)
    {
      gpointer v = g_hash_table_lookup (plan->slots, initial->nodes[j]);
      int s = v ? GPOINTER_TO_INT (v) - 1 : -1;
      if (s < 0)
        continue;
      if (st.given == NULL)
        st.given = g_new0 (guint8, n);
      fx_value_clear (&st.env[s]);
      st.env[s] = fx_value_copy (&initial->values[j]);
      st.live[s] = st.given[s] = TRUE;
    }

  for (int i = 0; i < n; i++)
    {
      Instr *in = &plan->instrs[i];
      FxValue v;
      gint64 t0 = plan->profiling ? now_ns () : 0;
      st.current = i;
      if (st.given != NULL && st.given[i])
        continue;   /* 1.13 frees nothing for it either; a given output ends the run with None */
      if (in->fuse_len > 0 && interp == NULL && plan->fusion)
        {
          int last = i + in->fuse_len - 1;
          if (run_fused (&st, in, &v))
            {
              if (plan->profiling)
                profile_add (in, now_ns () - t0);
              /* the chain's intermediate slots stay empty; each node's frees still apply */
              st.env[last] = v;
              for (int j = i; gc && j <= last; j++)
                for (int k = 0; k < plan->instrs[j].n_frees; k++)
                  fx_value_clear (&st.env[plan->instrs[j].frees[k]]);
              i = last;
              continue;
            }
        }
      ok = interp ? interp_run_node (interp, in, &v, error) : exec_instr (&st, in, &v, error);
      if (plan->profiling)
        profile_add (in, now_ns () - t0);
      if (!ok)
        {
          prefix ? prefix_node_error (in, error) : (void) 0;
          break;
        }
      if (in->op == FX_OP_OUTPUT)
        {
          *result = v;
          break;
        }
      st.env[i] = v;
      if (st.live)
        st.live[i] = TRUE;
      if (gc)
        for (int k = 0; k < in->n_frees; k++)
          {
            fx_value_clear (&st.env[in->frees[k]]);
            if (st.live)
              st.live[in->frees[k]] = FALSE;
          }
    }

  for (int i = 0; i < n; i++)
    if (st.env[i].kind != FX_VALUE_NONE)
      fx_value_clear (&st.env[i]);
  if (own_env)
    g_free (st.env);
  else
    g_atomic_int_set (&plan->running, FALSE);
  g_free (st.live);
  g_free (st.given);
  if (interp != NULL)
    interp->run_state = NULL;
  return ok;
}

gboolean
fx_exec_plan_run (FxExecPlan *plan, const FxValue *args, int n_args, const FxDict *kwargs,
                  FxValue *result, GError **error)
{
  g_return_val_if_fail (plan != NULL && result != NULL, FALSE);
  g_return_val_if_fail (n_args == 0 || args != NULL, FALSE);
  return run_loop ((ExecPlan *) plan, NULL, args, n_args, kwargs, NULL, TRUE, TRUE, result, error);
}

/* For the script binding: errors without the node prefix. */
gboolean
fx_exec_plan_run_plain (FxExecPlan *plan, const FxValue *args, int n_args,
                        const FxDict *kwargs, FxValue *result, GError **error)
{
  return run_loop ((ExecPlan *) plan, NULL, args, n_args, kwargs, NULL, FALSE, TRUE, result, error);
}

gboolean
fx_exec_plan_is_pure (FxExecPlan *plan)
{
  return ((ExecPlan *) plan)->pure;
}

/* ------------------------------------------------------------------------------------------
 * Interpreter
 * ------------------------------------------------------------------------------------------ */

static const FxInterpreterClass default_class = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };

FxInterpreter *
fx_interpreter_new (FxGraphModule *gm, const FxInterpreterClass *klass, gpointer user_data,
                    GError **error)
{
  FxExecPlan *plan = fx_exec_plan_new (gm, error);
  if (plan == NULL)
    return NULL;
  FxInterpreter *interp = g_new0 (FxInterpreter, 1);
  interp->klass = klass ? klass : &default_class;
  interp->module = fx_graph_module_ref (gm);
  interp->user_data = user_data;
  interp->garbage_collect_values = TRUE;
  interp->plan = plan;
  return interp;
}

void
fx_interpreter_free (FxInterpreter *interp)
{
  if (interp == NULL)
    return;
  fx_exec_plan_unref (interp->plan);
  fx_graph_module_unref (interp->module);
  g_free (interp);
}

gboolean
fx_interpreter_run (FxInterpreter *interp, const FxValue *args, int n_args, FxValue *result,
                    GError **error)
{
  return fx_interpreter_run_with_env (interp, args, n_args, NULL, NULL, 0, result, error);
}

gboolean
fx_interpreter_run_with_env (FxInterpreter *interp, const FxValue *args, int n_args,
                             FxNode *const *env_nodes, const FxValue *env_values, int n_env,
                             FxValue *result, GError **error)
{
  InitialEnv initial = { env_nodes, env_values, n_env };

  g_return_val_if_fail (interp != NULL && result != NULL, FALSE);
  g_return_val_if_fail (n_env == 0 || (env_nodes != NULL && env_values != NULL), FALSE);
  if (interp->run_state != NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Interpreter.run() is already running");
      return FALSE;
    }
  return run_loop ((ExecPlan *) interp->plan, interp, args, n_args, NULL,
                   n_env > 0 ? &initial : NULL, TRUE, interp->garbage_collect_values, result,
                   error);
}

gboolean
fx_interpreter_fetch_attr (FxInterpreter *interp, const char *target, FxValue *out,
                           GError **error)
{
  return fx_module_get_attr (interp->module->module, target, out, error);
}

const FxValue *
fx_interpreter_env_get (FxInterpreter *interp, FxNode *node)
{
  RunState *st = interp->run_state;
  if (st == NULL)
    return NULL;
  gpointer v = g_hash_table_lookup (st->plan->slots, node);
  int s = v ? GPOINTER_TO_INT (v) - 1 : -1;
  return s >= 0 && st->live[s] ? &st->env[s] : NULL;
}

static Instr *
instr_of (FxInterpreter *interp, FxNode *node)
{
  RunState *st = interp->run_state;
  ExecPlan *plan = (ExecPlan *) interp->plan;
  if (st != NULL && plan->instrs[st->current].node == node)
    return &plan->instrs[st->current];
  gpointer v = g_hash_table_lookup (plan->slots, node);
  return v ? &plan->instrs[GPOINTER_TO_INT (v) - 1] : NULL;
}

static gboolean
interp_run_node (FxInterpreter *interp, Instr *in, FxValue *result, GError **error)
{
  *result = fx_value_none ();
  if (interp->klass->run_node)
    return interp->klass->run_node (interp, in->node, result, error);
  return fx_interpreter_default_run_node (interp, in->node, result, error);
}

gboolean
fx_interpreter_default_run_node (FxInterpreter *interp, FxNode *node, FxValue *result,
                                 GError **error)
{
  const FxInterpreterClass *k = interp->klass;
  Instr *in = instr_of (interp, node);
  RunState *st = interp->run_state;
  FxInterpreterOpFunc hook = NULL;

  *result = fx_value_none ();
  if (in == NULL || st == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "node '%s' is not being run by this interpreter",
                   node->name);
      return FALSE;
    }
  switch (in->op)
    {
    case FX_OP_PLACEHOLDER: hook = k->placeholder ? k->placeholder : fx_interpreter_default_placeholder; break;
    case FX_OP_GET_ATTR: hook = k->get_attr ? k->get_attr : fx_interpreter_default_get_attr; break;
    case FX_OP_CALL_FUNCTION: hook = k->call_function ? k->call_function : fx_interpreter_default_call_function; break;
    case FX_OP_CALL_METHOD: hook = k->call_method ? k->call_method : fx_interpreter_default_call_method; break;
    case FX_OP_CALL_MODULE: hook = k->call_module ? k->call_module : fx_interpreter_default_call_module; break;
    case FX_OP_OUTPUT: hook = k->output ? k->output : fx_interpreter_default_output; break;
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "unknown opcode");
      return FALSE;
    }
  FxValue stack[8];
  FxValue *argv = in->n_args <= 8 ? stack : g_new (FxValue, in->n_args);
  FxDict *kwargs = NULL;
  args_collect (st, in, argv, &kwargs);
  gboolean ok = hook (interp, node, &node->target, argv, in->n_args, kwargs, result, error);
  args_clear (argv, in->n_args, kwargs);
  if (argv != stack)
    g_free (argv);
  return ok;
}

gboolean
fx_interpreter_default_placeholder (FxInterpreter *interp, FxNode *node, const FxValue *target,
                                    const FxValue *args, int n_args, const FxDict *kwargs,
                                    FxValue *result, GError **error)
{
  RunState *st = interp->run_state;
  const char *name = target->kind == FX_VALUE_STR ? target->s->data : node->name;
  (void) kwargs;
  if (name[0] == '*')
    {
      FxSeq *seq = fx_seq_new (0);
      for (; st->cursor < st->n_args; st->cursor++)
        fx_seq_append (seq, fx_value_copy (&st->args[st->cursor]));
      *result = fx_value_take_list (seq);
      return TRUE;
    }
  if (st->cursor < st->n_args)
    {
      *result = fx_value_copy (&st->args[st->cursor++]);
      return TRUE;
    }
  if (n_args > 0)
    {
      *result = fx_value_copy (&args[0]);
      return TRUE;
    }
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
               "Expected positional argument for parameter %s, but one was not passed in!", name);
  return FALSE;
}

gboolean
fx_interpreter_default_get_attr (FxInterpreter *interp, FxNode *node, const FxValue *target,
                                 const FxValue *args, int n_args, const FxDict *kwargs,
                                 FxValue *result, GError **error)
{
  (void) node; (void) args; (void) n_args; (void) kwargs;
  if (target->kind != FX_VALUE_STR)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "get_attr target must be a string");
      return FALSE;
    }
  return fx_interpreter_fetch_attr (interp, target->s->data, result, error);
}

gboolean
fx_interpreter_default_call_function (FxInterpreter *interp, FxNode *node,
                                      const FxValue *target, const FxValue *args, int n_args,
                                      const FxDict *kwargs, FxValue *result, GError **error)
{
  const FxOp *op = fx_run_target_op (target);
  (void) interp;
  if (op == NULL)
    {
      g_autofree char *t = fx_node_pretty_target (node);
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "%s is not a registry op: it runs only in a script", t);
      return FALSE;
    }
  return fx_op_call (op, args, n_args, kwargs, result, error);
}

gboolean
fx_interpreter_default_call_method (FxInterpreter *interp, FxNode *node, const FxValue *target,
                                    const FxValue *args, int n_args, const FxDict *kwargs,
                                    FxValue *result, GError **error)
{
  (void) interp; (void) node;
  const FxOp *op = target->kind == FX_VALUE_STR ? fx_op_lookup_method (target->s->data) : NULL;
  if (op == NULL || n_args < 1)
    {
      g_autofree char *t = fx_value_to_repr (target);
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "no method %s to call", t);
      return FALSE;
    }
  return fx_op_call (op, args, n_args, kwargs, result, error);
}

gboolean
fx_interpreter_default_call_module (FxInterpreter *interp, FxNode *node, const FxValue *target,
                                    const FxValue *args, int n_args, const FxDict *kwargs,
                                    FxValue *result, GError **error)
{
  (void) node;
  if (target->kind != FX_VALUE_STR)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "call_module target must be a string");
      return FALSE;
    }
  FxModule *m = fx_module_get_submodule (interp->module->module, target->s->data, error);
  if (m == NULL)
    return FALSE;
  return call_module (m, target->s->data, args, n_args, kwargs, result, error);
}

gboolean
fx_interpreter_default_output (FxInterpreter *interp, FxNode *node, const FxValue *target,
                               const FxValue *args, int n_args, const FxDict *kwargs,
                               FxValue *result, GError **error)
{
  (void) interp; (void) node; (void) target; (void) kwargs;
  if (n_args < 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "output takes one argument");
      return FALSE;
    }
  *result = fx_value_copy (&args[0]);
  return TRUE;
}
