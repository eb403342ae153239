/* run.h: running a GraphModule fast from C — the graph compiled once into an execution plan
 * (instructions over value slots, arguments pre-resolved), and torch.fx's Interpreter as a C
 * vtable of hooks built on the same plan. */
#pragma once

#include <glib.h>
#include "ir/value.h"
#include "ir/graph.h"
#include "ir/graph-module.h"

G_BEGIN_DECLS

/* ---- execution plans ---- */

typedef struct _FxExecPlan FxExecPlan;

/* Compiles gm's graph as it is now: checks it (one output, references to earlier nodes,
 * known ops), numbers the values, pre-builds constants, chooses registry ops and records
 * where each value dies. Later edits of the graph do not affect the plan (as a
 * GraphModule runs its last recompile()d code). get_attr and call_module targets are
 * looked up at each run, so replacing a submodule is seen. Call_function targets that
 * are not registry ops (script functions) give FX_ERROR_NOT_IMPLEMENTED; user modules
 * kept as leaves run through fx_module_call() (an error unless a script installed a
 * module caller). */
FxExecPlan *fx_exec_plan_new    (FxGraphModule *gm, GError **error);
FxExecPlan *fx_exec_plan_ref    (FxExecPlan *plan);
void        fx_exec_plan_unref  (FxExecPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxExecPlan, fx_exec_plan_unref)

/* gm(*args, **kwargs): binds args/kwargs to the placeholders like a Python call of
 * forward (defaults, missing / extra arguments are TypeErrors), runs the instructions and
 * writes the value the output node returns (a value tree) into *result. Errors name the
 * node: "while running node 'add_1' (call_function operator.add): ...". A plan may run
 * from one thread at a time. */
gboolean    fx_exec_plan_run    (FxExecPlan *plan, const FxValue *args, int n_args,
                                 const FxDict *kwargs, FxValue *result, GError **error);

/* The GraphModule the plan was made from (borrowed). */
FxGraphModule *fx_exec_plan_get_module (FxExecPlan *plan);
/* Number of instructions (= nodes of the graph at compile time, placeholders and output
 * included). */
guint       fx_exec_plan_n_nodes (FxExecPlan *plan);

/* ---- fusion ----
 * When compiling, consecutive call_module Conv2d → call_module BatchNorm2d [→ an add of
 * another node's value, the residual: operator.add / iadd, torch.add, Tensor.add / add_,
 * without alpha and not writing into the residual] [→ ReLU module, torch.relu / F.relu /
 * Tensor.relu, in place or not] nodes whose intermediate values have exactly one user (the
 * next node: so none is a graph output) become a chain. At each run the chain executes as
 * one fx_tensor_conv2d_fused() step — bit for bit the same result — when the modules it
 * finds then are plain Conv2d (padding_mode 'zeros') and an eval-mode BatchNorm2d holding
 * running stats, with float32 4-d data and a residual of exactly the output's shape
 * (float32, contiguous); the BatchNorm coefficients are computed from its current tensors
 * at each run. Otherwise (training mode, a replaced module, other dtypes, a broadcast
 * residual, an error) the nodes run one by one as usual. The Interpreter never fuses: its
 * hooks see every node. */

/* Number of chains found when compiling. */
guint       fx_exec_plan_n_fused (FxExecPlan *plan);
/* On by default; off runs every node by itself (to compare, or to profile each node). */
void        fx_exec_plan_set_fusion (FxExecPlan *plan, gboolean enabled);

/* ---- per-node profile ---- */

/* Off by default; when on, each run adds each node's wall time and a call count. Turning
 * it on resets the counters. */
void        fx_exec_plan_set_profiling (FxExecPlan *plan, gboolean enabled);
gboolean    fx_exec_plan_get_profiling (FxExecPlan *plan);
void        fx_exec_plan_reset_profile (FxExecPlan *plan);

typedef struct {
  const char *name;      /* node name (owned by the plan) */
  FxNodeOp op;
  const char *target;    /* as print(graph) shows it: "operator.add", "layer1.0.conv1" */
  guint64 calls;         /* runs of this node since profiling was turned on / reset */
  double total_us;       /* cumulative wall time in microseconds */
  double best_us;        /* the fastest call (0 without calls) */
  /* A BatchNorm2d, add or ReLU node of a fused chain (see fx_exec_plan_n_fused): the conv
   * node that heads it, else NULL. While the chain runs fused, its time and calls are
   * counted on the conv node and this node's stay as they are (0 calls when it always ran
   * fused). */
  const char *fused_into;
} FxExecNodeProfile;

/* index: 0 .. fx_exec_plan_n_nodes () - 1, in graph order. FALSE when out of range. */
gboolean    fx_exec_plan_get_node_profile (FxExecPlan *plan, guint index,
                                           FxExecNodeProfile *out);
/* A table of the nodes sorted by cumulative time (name, op, target, calls, total ms,
 * us per call, share), with a total line. g_free. */
char       *fx_exec_plan_format_profile (FxExecPlan *plan);

/* ---- GraphModule calls ---- */

/* gm(*args, **kwargs) through a plan cached on gm; the plan is rebuilt when gm's code
 * changed (fx_graph_module_recompile) or gm's graph was replaced. */
gboolean    fx_graph_module_call (FxGraphModule *gm, const FxValue *args, int n_args,
                                  const FxDict *kwargs, FxValue *result, GError **error);
/* The cached plan (a new reference), compiling it if needed. */
FxExecPlan *fx_graph_module_get_plan (FxGraphModule *gm, GError **error);

/* ---- Interpreter (torch.fx.Interpreter) ----
 * Each hook gets the node being run, its target, and its args/kwargs with node references
 * already replaced by their values (torch's fetch_args_kwargs_from_env). A hook left NULL
 * in a class uses the default, which does what torch.fx 1.13's Interpreter does; an
 * override may call the fx_interpreter_default_* functions to chain up. */

typedef struct _FxInterpreter FxInterpreter;

typedef gboolean (*FxInterpreterOpFunc) (FxInterpreter *interp, FxNode *node,
                                         const FxValue *target, const FxValue *args,
                                         int n_args, const FxDict *kwargs, FxValue *result,
                                         GError **error);

typedef struct {
  /* run_node(n): fetch the node's args from the environment and call the op's hook. */
  gboolean (*run_node) (FxInterpreter *interp, FxNode *node, FxValue *result, GError **error);
  FxInterpreterOpFunc placeholder;
  FxInterpreterOpFunc get_attr;
  FxInterpreterOpFunc call_function;
  FxInterpreterOpFunc call_method;
  FxInterpreterOpFunc call_module;
  FxInterpreterOpFunc output;
} FxInterpreterClass;

struct _FxInterpreter {
  const FxInterpreterClass *klass;
  FxGraphModule *module;        /* owned reference */
  gpointer user_data;
  /* torch's garbage_collect_values: drop each value after its last use (default TRUE). */
  gboolean garbage_collect_values;
  /* private */
  FxExecPlan *plan;
  gpointer run_state;
};

/* klass: NULL for the default Interpreter. The class must outlive the interpreter. */
FxInterpreter *fx_interpreter_new  (FxGraphModule *gm, const FxInterpreterClass *klass,
                                    gpointer user_data, GError **error);
void           fx_interpreter_free (FxInterpreter *interp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxInterpreter, fx_interpreter_free)

/* Interpreter.run(*args): positional inputs fill the placeholders in order (a missing one
 * takes its default, else an error); *result is what the output node returns. */
gboolean fx_interpreter_run (FxInterpreter *interp, const FxValue *args, int n_args,
                             FxValue *result, GError **error);
/* Interpreter.run(*args, initial_env=...): the n_env nodes env_nodes[i] take env_values[i]
 * (copied) instead of being run — partial evaluation, as in 1.13: their inputs still run
 * unless given too, a given placeholder consumes no positional input, a given output node
 * makes the result None, and nodes of other graphs are ignored. */
gboolean fx_interpreter_run_with_env (FxInterpreter *interp, const FxValue *args, int n_args,
                                      FxNode *const *env_nodes, const FxValue *env_values,
                                      int n_env, FxValue *result, GError **error);
/* Interpreter.fetch_attr(target): the parameter/buffer/module/attribute at target. */
gboolean fx_interpreter_fetch_attr (FxInterpreter *interp, const char *target, FxValue *out,
                                    GError **error);
/* The value of an already-run node during a run (borrowed), or NULL (not yet run, or
 * already freed after its last use). */
const FxValue *fx_interpreter_env_get (FxInterpreter *interp, FxNode *node);

gboolean fx_interpreter_default_run_node (FxInterpreter *interp, FxNode *node, FxValue *result,
                                          GError **error);
/* The default hooks, of type FxInterpreterOpFn (the function type behind
 * FxInterpreterOpFunc). */
typedef gboolean FxInterpreterOpFn (FxInterpreter *interp, FxNode *node, const FxValue *target,
                                    const FxValue *args, int n_args, const FxDict *kwargs,
                                    FxValue *result, GError **error);
FxInterpreterOpFn fx_interpreter_default_placeholder;
FxInterpreterOpFn fx_interpreter_default_get_attr;
FxInterpreterOpFn fx_interpreter_default_call_function;
FxInterpreterOpFn fx_interpreter_default_call_method;
FxInterpreterOpFn fx_interpreter_default_call_module;
FxInterpreterOpFn fx_interpreter_default_output;

G_END_DECLS
