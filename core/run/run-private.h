/* run-private.h: the insides of FxExecPlan shared by the plan compiler (plan.c) and the
 * executor / Interpreter (exec.c). Not installed. */
#pragma once

#include "run/run.h"
#include "ir/module.h"
#include "ops/op.h"

G_BEGIN_DECLS

typedef enum {
  PLAN_ARG_CONST,        /* a value built at compile time */
  PLAN_ARG_SLOT,         /* a node reference: the value of slot */
  PLAN_ARG_TREE,         /* a container holding node references: rebuilt at each run */
} PlanArgKind;

typedef struct {
  PlanArgKind kind;
  int slot;
  FxValue value;         /* CONST: the value; TREE: the template with node references */
} PlanArg;

/* Where a run found a key in a dict (fx_dict_find), good while the dict's keys version is
 * the one recorded: later runs then read the entry's value without hashing or probing. */
typedef struct {
  const FxDict *dict;
  guint64 version;
  gint64 entry;          /* -1: the key was not there */
} DictSpot;

typedef struct _FuseSpots FuseSpots;

typedef struct {
  FxNode *node;          /* the node compiled (alive as long as the plan's graph ref) */
  FxNodeOp op;
  char *name;
  char *target_str;      /* pretty target, for errors and the profile */
  int n_args;
  PlanArg *args;
  int n_kwargs;
  FxValue *kw_keys;
  PlanArg *kw_values;
  const FxOp *fop;       /* call_function / call_method: the registry op */
  /* Direct kernel call (see prepare_fast_call): the overload and, from index n_args on,
   * its defaults (never written after compiling). */
  const FxOverload *fast_ov;
  FxValue *fast_argv;
  /* placeholder: name, *args or **kwargs, default; get_attr / call_module: the path. */
  char *path;
  GPtrArray *path_keys;  /* FxStr atoms of the path */
  DictSpot *path_spots;  /* call_module: each atom's spot in its parent's children */
  int placeholder_index;
  int star;              /* 1: *args, 2: **kwargs */
  gboolean has_default;
  FxValue default_value;
  /* slots whose last reader this instruction is */
  int *frees;
  int n_frees;
  /* Conv2d → BatchNorm2d (→ add) (→ ReLU) (→ MaxPool2d) fusion (fuse.c): on the conv
   * instruction, the length of the chain it heads (0: none); on the others, the head's index
   * (-1: not in a chain). */
  int fuse_len;
  int fused_head;
  /* on the head: which argument of the chain's third node is the residual it adds (0 or 1;
   * -1: the chain has no add) */
  int fuse_residual_arg;
  /* on the head: the chain ends with a MaxPool2d of its value (chains without an add) */
  gboolean fuse_pool;
  /* on the head of a conv → BatchNorm chain whose value only the next chain adds: the two run
   * as one step (fuse_len covers both; the second stays a head of its own) */
  gboolean fuse_pair;
  /* on the head: the chain's value is read only by chains (as their conv's input or their
   * residual), which take its planes padded to whole cache lines (FxConvEpilogue.pad_planes) */
  gboolean fuse_pad_planes;
  /* on the head: where the chain's modules keep their attributes (fuse.c) */
  FuseSpots *fuse_spots;
  /* profile */
  guint64 calls;
  gint64 time_ns;
  gint64 best_ns;          /* the fastest of those calls */
} Instr;

typedef struct {
  gatomicrefcount ref;
  FxGraph *graph;
  FxModule *root;
  int n_instrs;
  Instr *instrs;
  int *last_use;
  int *n_uses;           /* while compiling: argument references to each slot */
  FxValue *env;          /* one slot per instruction; empty between runs */
  GHashTable *slots;     /* FxNode* → slot + 1 */
  int n_placeholders;
  int output;
  /* No in-place, random or module ops: a failed run changed nothing, so a script may run
   * the graph again through its generated code to report the error its own way. */
  gboolean pure;
  gboolean profiling;
  gboolean fusion;       /* run chains as one step (default TRUE) */
  int n_fused;           /* chains found when compiling */
  gint running;          /* atomic: a run uses env */
} ExecPlan;

void fx_exec_plan_free_internal (ExecPlan *plan);
/* The registry op a call_function target stands for, or NULL. */
const FxOp *fx_run_target_op (const FxValue *target);
gboolean fx_exec_plan_is_pure (FxExecPlan *plan);
/* fx_exec_plan_run without naming the node in errors (the script binding). */
gboolean fx_exec_plan_run_plain (FxExecPlan *plan, const FxValue *args, int n_args,
                                 const FxDict *kwargs, FxValue *result, GError **error);

/* exec.c: the submodule at call_module in's path, borrowed; looked up at each run (by
 * interned atoms) so that a module replaced after compiling is the one that runs. cache:
 * step through in->path_spots, and keep them up to date — only for a run that has the plan
 * to itself (FALSE elsewhere: another thread may be running it). */
FxModule *fx_run_resolve_module (ExecPlan *plan, const Instr *in, gboolean cache,
                                 GError **error);
/* key's value in dict (NULL: dict or key missing), borrowed; with a spot (else NULL), from
 * the entry the spot remembers while the dict's keys are as they were, and the spot filled
 * anew when they are not. */
FxValue  *fx_run_dict_lookup    (const FxDict *dict, const FxValue *key, DictSpot *spot);

/* fuse.c. n_uses: how many argument references each slot has. */
void fx_run_fuse_detect (ExecPlan *plan, const int *n_uses);

typedef enum {
  FX_FUSE_DONE,          /* *result holds the chain's last value */
  FX_FUSE_FALLBACK,      /* the modules or the input do not fit now: run the nodes */
  FX_FUSE_ERROR,
} FxFuseResult;

/* The add's argument that the chain headed by head adds as its residual, or NULL. */
const PlanArg *fx_run_fuse_residual_arg (const Instr *head);
/* Runs the chain headed by head on the conv's input (and the residual's value, when the
 * chain has one; second_input: a pair's second conv's input). cache: as
 * fx_run_resolve_module's (the chain's modules and attributes). */
FxFuseResult fx_run_fuse_exec (ExecPlan *plan, const Instr *head, const FxValue *input,
                               const FxValue *residual, const FxValue *second_input,
                               gboolean cache, FxValue *result, GError **error);
void         fx_run_fuse_spots_free (FuseSpots *spots);

G_END_DECLS
