/* op-table.h: how the op groups declare their entries; registry.c turns these static
 * definitions into FxOp values (parsing each schema once). Internal to libfx. */
#pragma once

#include "ops/op.h"

G_BEGIN_DECLS

#define FX_OP_MAX_ALIASES 6
#define FX_OP_MAX_OVERLOADS 6

typedef struct {
  const char *schema;            /* see fx_schema_parse() */
  FxKernelFunc kernel;
} FxOverloadDef;

typedef struct {
  FxOpKind kind;
  const char *path;              /* qualified name: "torch.relu", "Tensor.relu", "operator.add" */
  const char *aliases[FX_OP_MAX_ALIASES];   /* NULL-ended; same function under other paths */
  const char *category;
  const char *doc;
  FxOpFlags flags;
  FxOverloadDef overloads[FX_OP_MAX_OVERLOADS];  /* tried in order; NULL schema ends */
} FxOpDef;

/* Each group ends its array with an entry whose path is NULL. */
extern const FxOpDef fx_op_defs_elementwise[];
extern const FxOpDef fx_op_defs_reduce[];
extern const FxOpDef fx_op_defs_linalg[];
extern const FxOpDef fx_op_defs_nn[];
extern const FxOpDef fx_op_defs_creation[];
extern const FxOpDef fx_op_defs_shape[];
extern const FxOpDef fx_op_defs_more[];       /* ops-more.c */

G_END_DECLS

/* Accessors for kernels; they rely on the normal form that fx_op_bind() guarantees. */
static inline FxTensor *fx_arg_tensor (const FxValue *v) { return v->kind == FX_VALUE_TENSOR ? v->tensor : NULL; }
static inline gboolean fx_arg_is_none (const FxValue *v) { return v->kind == FX_VALUE_NONE; }
static inline int64_t fx_arg_int (const FxValue *v) { return v->kind == FX_VALUE_BOOL ? v->b : v->i; }
static inline gboolean fx_arg_bool (const FxValue *v) { return v->kind == FX_VALUE_BOOL ? v->b : v->i != 0; }
static inline double
fx_arg_float (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_FLOAT: return v->f;
    case FX_VALUE_INT: return (double) v->i;
    case FX_VALUE_BOOL: return v->b;
    default: return 0.0;
    }
}
/* Copies up to max ints of an int tuple into out; returns how many there are (may exceed max). */
static inline int
fx_arg_int_list (const FxValue *v, int64_t *out, int max)
{
  if (v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST)
    return 0;
  for (guint i = 0; i < v->seq->len && (int) i < max; i++)
    out[i] = fx_arg_int (&v->seq->items[i]);
  return (int) v->seq->len;
}
static inline gboolean
fx_result_tensor (FxValue *result, FxTensor *t)   /* takes t; FALSE when t is NULL */
{
  if (t == NULL)
    return FALSE;
  *result = fx_value_take_tensor (t);
  return TRUE;
}
