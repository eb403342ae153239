/* plan.c: FxExecPlan — a GraphModule's graph compiled once into an array of instructions over
 * value slots, so that running it costs no name lookups or argument parsing per node beyond
 * what the kernels need; also the per-node profile and the plan cached on a GraphModule. */
#include "run/run-private.h"
#include "ops/op.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------
 * Compiling
 * ------------------------------------------------------------------------------------------ */

static void
plan_arg_clear (PlanArg *a)
{
  fx_value_clear (&a->value);
}

/* A node's slot, or -1 when the node is not part of the plan's graph. */
static int
slot_of (ExecPlan *plan, FxNode *node)
{
  gpointer v = g_hash_table_lookup (plan->slots, node);
  return v ? GPOINTER_TO_INT (v) - 1 : -1;
}

typedef struct {
  ExecPlan *plan;
  int here;              /* index of the instruction being compiled */
  gboolean bad;
  const char *bad_name;
} RefCheck;

static void
check_ref (FxNode *node, gpointer data)
{
  RefCheck *rc = data;
  int s = slot_of (rc->plan, node);
  if (s < 0 || s >= rc->here)
    {
      rc->bad = TRUE;
      rc->bad_name = node->name;
      return;
    }
  rc->plan->n_uses[s]++;
  /* The last instruction reading a slot frees it. */
  if (rc->plan->last_use[s] < rc->here)
    rc->plan->last_use[s] = rc->here;
}

static gboolean
compile_arg (ExecPlan *plan, int here, const FxValue *v, PlanArg *out, GError **error)
{
  RefCheck rc = { plan, here, FALSE, NULL };
  out->value = fx_value_none ();
  out->slot = -1;
  fx_value_foreach_node (v, check_ref, &rc);
  if (rc.bad)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                   "node '%s' uses '%s', which is not an earlier node of the graph",
                   plan->instrs[here].name, rc.bad_name);
      return FALSE;
    }
  if (v->kind == FX_VALUE_NODE)
    {
      out->kind = PLAN_ARG_SLOT;
      out->slot = slot_of (plan, v->node);
    }
  else
    {
      out->kind = PLAN_ARG_CONST;
      out->value = fx_value_copy (v);
    }
  return TRUE;
}

static void
count_ref (FxNode *node, gpointer data)
{
  (void) node;
  (*(int *) data)++;
}

/* Arguments that are trees holding node references are rebuilt at each run. */
static void
classify_tree (PlanArg *a)
{
  int n = 0;
  if (a->kind != PLAN_ARG_CONST)
    return;
  fx_value_foreach_node (&a->value, count_ref, &n);
  if (n > 0)
    a->kind = PLAN_ARG_TREE;
}

/* The first overload binds positional values in normal form to itself unchanged; when the
 * graph gives only positional args and the rest have defaults, the kernel can be called
 * directly with borrowed values (see exec_op). */
static void
prepare_fast_call (Instr *in)
{
  const FxOverload *ov;
  in->fast_ov = NULL;
  if (in->fop == NULL || in->fop->n_overloads == 0 || in->n_kwargs > 0)
    return;
  ov = &in->fop->overloads[0];
  if (ov->kernel == NULL || in->n_args > ov->n_args)
    return;
  for (int i = 0; i < ov->n_args; i++)
    {
      const FxArgSpec *spec = &ov->args[i];
      if (spec->varargs)
        return;
      if (i < in->n_args && spec->kwarg_only)
        return;
      if (i >= in->n_args && !spec->has_default)
        return;
    }
  in->fast_ov = ov;
  in->fast_argv = g_new0 (FxValue, ov->n_args > 0 ? ov->n_args : 1);
  for (int i = in->n_args; i < ov->n_args; i++)
    in->fast_argv[i] = fx_value_copy (&ov->args[i].default_value);
}

/* Python builtins seen through a script (getattr, len: _get_qualified_name gives them
 * bare) are objects as targets; the registry has the same functions. */
const FxOp *
fx_run_target_op (const FxValue *target)
{
  if (target->kind == FX_VALUE_OP)
    return target->op;
  const char *q = target->kind == FX_VALUE_OBJECT ? fx_target_qualified_name (target) : NULL;
  if (q == NULL)
    return NULL;
  if (g_str_has_prefix (q, "builtins."))
    q += strlen ("builtins.");
  else if (strchr (q, '.') != NULL)
    return NULL;   /* a user's function */
  return fx_op_lookup (q);
}

static char *
split_path (const char *target, GPtrArray *keys)
{
  g_auto (GStrv) atoms = g_strsplit (target, ".", -1);
  for (guint i = 0; atoms[i] != NULL; i++)
    if (atoms[i][0] != '\0')
      g_ptr_array_add (keys, fx_str_new (atoms[i]));
  return g_strdup (target);
}

static void
instr_clear (Instr *in)
{
  for (int i = 0; i < in->n_args; i++)
    plan_arg_clear (&in->args[i]);
  g_free (in->args);
  for (int i = 0; i < in->n_kwargs; i++)
    {
      fx_value_clear (&in->kw_keys[i]);
      plan_arg_clear (&in->kw_values[i]);
    }
  g_free (in->kw_keys);
  g_free (in->kw_values);
  if (in->fast_ov)
    {
      for (int i = in->n_args; i < in->fast_ov->n_args; i++)
        fx_value_clear (&in->fast_argv[i]);
    }
  g_free (in->fast_argv);
  g_free (in->name);
  g_free (in->target_str);
  g_free (in->path);
  if (in->path_keys)
    g_ptr_array_unref (in->path_keys);
  g_free (in->path_spots);
  fx_run_fuse_spots_free (in->fuse_spots);
  fx_value_clear (&in->default_value);
  g_free (in->frees);
}

static gboolean
compile_node (ExecPlan *plan, int here, FxNode *node, GError **error)
{
  Instr *in = &plan->instrs[here];
  const FxSeq *args = node->args.kind == FX_VALUE_TUPLE ? node->args.seq : NULL;
  const FxDict *kwargs = node->kwargs.kind == FX_VALUE_DICT ? node->kwargs.dict : NULL;

  in->node = node;
  in->op = node->op;
  in->name = g_strdup (node->name);
  in->target_str = fx_node_pretty_target (node);
  in->default_value = fx_value_none ();

  in->n_args = args ? (int) args->len : 0;
  in->args = g_new0 (PlanArg, in->n_args > 0 ? in->n_args : 1);
  for (int i = 0; i < in->n_args; i++)
    {
      if (!compile_arg (plan, here, &args->items[i], &in->args[i], error))
        return FALSE;
      classify_tree (&in->args[i]);
    }
  in->n_kwargs = kwargs ? (int) fx_dict_len (kwargs) : 0;
  in->kw_keys = g_new0 (FxValue, in->n_kwargs > 0 ? in->n_kwargs : 1);
  in->kw_values = g_new0 (PlanArg, in->n_kwargs > 0 ? in->n_kwargs : 1);
  for (int i = 0; i < in->n_kwargs; i++)
    {
      const FxValue *k, *v;
      fx_dict_entry (kwargs, (guint) i, &k, &v);
      in->kw_keys[i] = fx_value_copy (k);
      if (!compile_arg (plan, here, v, &in->kw_values[i], error))
        return FALSE;
      classify_tree (&in->kw_values[i]);
    }

  switch (node->op)
    {
    case FX_OP_PLACEHOLDER:
      {
        const char *t = node->target.kind == FX_VALUE_STR ? node->target.s->data : node->name;
        in->placeholder_index = plan->n_placeholders++;
        in->star = g_str_has_prefix (t, "**") ? 2 : g_str_has_prefix (t, "*") ? 1 : 0;
        in->path = g_strdup (t + in->star);
        if (in->n_args > 0 && in->args[0].kind == PLAN_ARG_CONST)
          {
            in->has_default = TRUE;
            in->default_value = fx_value_copy (&in->args[0].value);
          }
        break;
      }
    case FX_OP_GET_ATTR:
    case FX_OP_CALL_MODULE:
      if (node->target.kind != FX_VALUE_STR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "node '%s': %s target must be a string",
                       node->name, fx_node_op_name (node->op));
          return FALSE;
        }
      in->path_keys = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_str_unref);
      in->path = split_path (node->target.s->data, in->path_keys);
      if (node->op == FX_OP_CALL_MODULE)
        in->path_spots = g_new0 (DictSpot, MAX (in->path_keys->len, 1));   /* dict NULL: none */
      break;
    case FX_OP_CALL_FUNCTION:
      in->fop = fx_run_target_op (&node->target);
      if (in->fop == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "node '%s' calls %s, which is not a registry op: it runs only in a script",
                       node->name, in->target_str);
          return FALSE;
        }
      prepare_fast_call (in);
      break;
    case FX_OP_CALL_METHOD:
      if (node->target.kind != FX_VALUE_STR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "node '%s': method name must be a string",
                       node->name);
          return FALSE;
        }
      if (in->n_args == 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                       "node '%s' calls method '%s' without self", node->name,
                       node->target.s->data);
          return FALSE;
        }
      in->fop = fx_op_lookup_method (node->target.s->data);
      if (in->fop == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "node '%s' calls method '%s', which libfx does not know", node->name,
                       node->target.s->data);
          return FALSE;
        }
      prepare_fast_call (in);
      break;
    case FX_OP_OUTPUT:
      if (in->n_args != 1)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "output node '%s' must have one argument",
                       node->name);
          return FALSE;
        }
      break;
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "node '%s' has an unknown opcode", node->name);
      return FALSE;
    }
  if (in->fop != NULL && (in->fop->flags & (FX_OP_FLAG_INPLACE | FX_OP_FLAG_RANDOM
                                            | FX_OP_FLAG_IMPURE)))
    plan->pure = FALSE;
  if (node->op == FX_OP_CALL_MODULE || node->op == FX_OP_GET_ATTR)
    plan->pure = FALSE;   /* a module may hold state (BatchNorm in training) */
  for (int i = 0; i < in->n_kwargs; i++)
    if (in->fop && in->kw_keys[i].kind == FX_VALUE_STR
        && strcmp (in->kw_keys[i].s->data, "inplace") == 0)
      plan->pure = FALSE;
  return TRUE;
}

void
fx_exec_plan_free_internal (ExecPlan *plan)
{
  for (int i = 0; i < plan->n_instrs; i++)
    instr_clear (&plan->instrs[i]);
  g_free (plan->instrs);
  g_free (plan->last_use);
  g_free (plan->n_uses);
  g_free (plan->env);
  if (plan->slots)
    g_hash_table_unref (plan->slots);
  if (plan->graph)
    fx_graph_unref (plan->graph);
  if (plan->root)
    fx_module_unref (plan->root);
  g_free (plan);
}

FxExecPlan *
fx_exec_plan_new (FxGraphModule *gm, GError **error)
{
  g_return_val_if_fail (gm != NULL && gm->graph != NULL, NULL);
  ExecPlan *plan = g_new0 (ExecPlan, 1);
  FxGraph *graph = gm->graph;
  int n = (int) fx_graph_n_nodes (graph), i = 0;

  fx_ops_init ();
  g_atomic_ref_count_init (&plan->ref);
  plan->graph = fx_graph_ref (graph);
  plan->root = fx_module_ref (gm->module);
  plan->pure = TRUE;
  plan->output = -1;
  plan->fusion = TRUE;
  plan->n_uses = g_new0 (int, n > 0 ? n : 1);
  plan->instrs = g_new0 (Instr, n > 0 ? n : 1);
  plan->last_use = g_new0 (int, n > 0 ? n : 1);
  plan->env = g_new0 (FxValue, n > 0 ? n : 1);
  plan->slots = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node), i++)
    {
      g_hash_table_insert (plan->slots, node, GINT_TO_POINTER (i + 1));
      plan->last_use[i] = i;
    }
  plan->n_instrs = n;
  i = 0;
  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node), i++)
    {
      if (plan->output >= 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                       "node '%s' follows the output node '%s'", node->name,
                       plan->instrs[plan->output].name);
          goto fail;
        }
      if (!compile_node (plan, i, node, error))
        goto fail;
      if (node->op == FX_OP_OUTPUT)
        plan->output = i;
    }
  if (plan->output < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_GRAPH, "the graph has no output node");
      goto fail;
    }

  /* Each instruction lists the slots it is the last reader of. */
  {
    int *counts = g_new0 (int, n);
    for (int s = 0; s < n; s++)
      counts[plan->last_use[s]]++;
    for (int k = 0; k < n; k++)
      {
        plan->instrs[k].frees = g_new (int, counts[k] > 0 ? counts[k] : 1);
        plan->instrs[k].n_frees = 0;
      }
    for (int s = 0; s < n; s++)
      {
        Instr *in = &plan->instrs[plan->last_use[s]];
        in->frees[in->n_frees++] = s;
      }
    g_free (counts);
  }
  fx_run_fuse_detect (plan, plan->n_uses);
  g_clear_pointer (&plan->n_uses, g_free);
  return (FxExecPlan *) plan;

fail:
  fx_exec_plan_free_internal (plan);
  return NULL;
}

FxExecPlan *
fx_exec_plan_ref (FxExecPlan *plan)
{
  g_atomic_ref_count_inc (&((ExecPlan *) plan)->ref);
  return plan;
}

void
fx_exec_plan_unref (FxExecPlan *plan)
{
  ExecPlan *p = (ExecPlan *) plan;
  if (p == NULL || !g_atomic_ref_count_dec (&p->ref))
    return;
  fx_exec_plan_free_internal (p);
}

guint
fx_exec_plan_n_nodes (FxExecPlan *plan)
{
  return (guint) ((ExecPlan *) plan)->n_instrs;
}

/* ------------------------------------------------------------------------------------------
 * Profile
 * ------------------------------------------------------------------------------------------ */

void
fx_exec_plan_reset_profile (FxExecPlan *plan)
{
  ExecPlan *p = (ExecPlan *) plan;
  for (int i = 0; i < p->n_instrs; i++)
    {
      p->instrs[i].calls = 0;
      p->instrs[i].time_ns = 0;
      p->instrs[i].best_ns = 0;
    }
}

void
fx_exec_plan_set_profiling (FxExecPlan *plan, gboolean enabled)
{
  ExecPlan *p = (ExecPlan *) plan;
  if (enabled && !p->profiling)
    fx_exec_plan_reset_profile (plan);
  p->profiling = !!enabled;
}

gboolean
fx_exec_plan_get_profiling (FxExecPlan *plan)
{
  return ((ExecPlan *) plan)->profiling;
}

gboolean
fx_exec_plan_get_node_profile (FxExecPlan *plan, guint index, FxExecNodeProfile *out)
{
  ExecPlan *p = (ExecPlan *) plan;
  if (index >= (guint) p->n_instrs)
    return FALSE;
  const Instr *in = &p->instrs[index];
  out->name = in->name;
  out->op = in->op;
  out->target = in->target_str;
  out->calls = in->calls;
  out->total_us = (double) in->time_ns / 1e3;
  out->best_us = in->calls ? (double) in->best_ns / 1e3 : 0.0;
  out->fused_into = in->fused_head >= 0 ? p->instrs[in->fused_head].name : NULL;
  return TRUE;
}

guint
fx_exec_plan_n_fused (FxExecPlan *plan)
{
  return (guint) ((ExecPlan *) plan)->n_fused;
}

void
fx_exec_plan_set_fusion (FxExecPlan *plan, gboolean enabled)
{
  ((ExecPlan *) plan)->fusion = !!enabled;
}

static int
by_time_desc (gconstpointer a, gconstpointer b)
{
  const Instr *x = *(const Instr *const *) a, *y = *(const Instr *const *) b;
  return x->time_ns < y->time_ns ? 1 : x->time_ns > y->time_ns ? -1 : 0;
}

char *
fx_exec_plan_format_profile (FxExecPlan *plan)
{
  ExecPlan *p = (ExecPlan *) plan;
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  GString *out = g_string_new (NULL);
  gint64 total = 0;
  int wname = 4, wtarget = 6;

  for (int i = 0; i < p->n_instrs; i++)
    {
      Instr *in = &p->instrs[i];
      g_ptr_array_add (order, in);
      total += in->time_ns;
      wname = MAX (wname, (int) strlen (in->name));
      wtarget = MAX (wtarget, (int) strlen (in->target_str));
    }
  g_ptr_array_sort (order, by_time_desc);
  wname = MIN (wname, 40);
  wtarget = MIN (wtarget, 48);
  g_string_append_printf (out, "%-*s  %-13s  %-*s  %8s  %10s  %10s  %10s  %6s\n", wname, "node",
                          "opcode", wtarget, "target", "calls", "total ms", "us/call", "best us",
                          "share");
  for (guint i = 0; i < order->len; i++)
    {
      const Instr *in = order->pdata[i];
      double ms = (double) in->time_ns / 1e6;
      g_string_append_printf (out, "%-*s  %-13s  %-*s  %8" G_GUINT64_FORMAT "  %10.3f  %10.2f  %10.2f  %5.1f%%\n",
                              wname, in->name, fx_node_op_name (in->op), wtarget, in->target_str,
                              in->calls, ms,
                              in->calls ? (double) in->time_ns / 1e3 / (double) in->calls : 0.0,
                              in->calls ? (double) in->best_ns / 1e3 : 0.0,
                              total > 0 ? 100.0 * (double) in->time_ns / (double) total : 0.0);
    }
  g_string_append_printf (out, "total %.3f ms over %d nodes\n", (double) total / 1e6,
                          p->n_instrs);
  if (p->n_fused > 0 && p->fusion)
    g_string_append_printf (out, "%d conv→batchnorm(→add)(→relu) chain%s ran as one step: its time "
                            "and calls are on the conv node\n", p->n_fused,
                            p->n_fused == 1 ? "" : "s");
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------------------------
 * The plan cached on a GraphModule
 * ------------------------------------------------------------------------------------------ */

FxExecPlan *
fx_graph_module_get_plan (FxGraphModule *gm, GError **error)
{
  /* gm->code changes only through recompile(), which drops the cache, so a cached plan
   * always stands for the code gm runs; a replaced graph goes through recompile too. */
  ExecPlan *cached = gm->exec_cache;
  if (cached != NULL && cached->graph == gm->graph && cached->root == gm->module)
    return fx_exec_plan_ref ((FxExecPlan *) cached);
  FxExecPlan *plan = fx_exec_plan_new (gm, error);
  if (plan == NULL)
    return NULL;
  if (gm->exec_cache != NULL)
    gm->exec_cache_free (gm->exec_cache);
  gm->exec_cache = fx_exec_plan_ref (plan);
  gm->exec_cache_free = (GDestroyNotify) fx_exec_plan_unref;
  return plan;
}

gboolean
fx_graph_module_call (FxGraphModule *gm, const FxValue *args, int n_args, const FxDict *kwargs,
                      FxValue *result, GError **error)
{
  g_autoptr (FxExecPlan) plan = fx_graph_module_get_plan (gm, error);
  if (plan == NULL)
    return FALSE;
  return fx_exec_plan_run (plan, args, n_args, kwargs, result, error);
}
