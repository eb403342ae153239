/* op.h: the op registry — one table of every torch function, Tensor method, nn.functional op
 * and Python operator that libfx knows, each with its Python-visible names, argument schema,
 * kernel and catalog metadata. Script bindings, the interpreter, codegen, shape propagation
 * and the editor's "insert node" catalog all look ops up here. */
#pragma once

#include <glib.h>
#include "ir/value.h"

G_BEGIN_DECLS

/* A kernel gets one value per schema argument, in schema order, already checked and
 * converted by fx_op_bind(), and writes a new reference into *result. The normal form that
 * binding guarantees, per schema type (an optional T? may also be None):
 *   Tensor      FX_VALUE_TENSOR           Tensor[]   FX_VALUE_TUPLE of tensors
 *   int         FX_VALUE_INT (bool too)   int[]/int[N]/int...  FX_VALUE_TUPLE of ints
 *                                                    (int[N] given one int: N copies)
 *   float       FX_VALUE_FLOAT (ints widened)        float[]    FX_VALUE_TUPLE of floats
 *   bool        FX_VALUE_BOOL             Scalar     FX_VALUE_BOOL, _INT or _FLOAT as given
 *   str         FX_VALUE_STR              ScalarType FX_VALUE_DTYPE
 *   Device      FX_VALUE_DEVICE           Any        whatever was passed */
typedef gboolean (*FxKernelFunc) (const FxValue *argv, FxValue *result, GError **error);

typedef enum {
  FX_ARG_ANY,
  FX_ARG_TENSOR,
  FX_ARG_INT,
  FX_ARG_FLOAT,
  FX_ARG_BOOL,
  FX_ARG_SCALAR,       /* bool, int or float; a 1-element tensor is accepted and unwrapped */
  FX_ARG_STR,
  FX_ARG_DTYPE,
  FX_ARG_DEVICE,       /* str or device */
  FX_ARG_INT_LIST,     /* int[] / int[N]: a list/tuple of ints (an int when N is given) */
  FX_ARG_FLOAT_LIST,
  FX_ARG_TENSOR_LIST,
} FxArgType;

typedef struct {
  const char *name;
  FxArgType type;
  int list_len;          /* N of int[N]; 0 for any length */
  gboolean optional;     /* T?: accepts None */
  gboolean kwarg_only;   /* after '*' */
  gboolean varargs;      /* "int... size": f(2, 3) and f((2, 3)) both bind a list */
  gboolean has_default;
  FxValue default_value;
} FxArgSpec;

typedef struct {
  const char *text;      /* the schema as written in the table */
  int n_args;
  FxArgSpec *args;
  FxKernelFunc kernel;
} FxOverload;

typedef enum {
  FX_OP_FUNCTION,        /* torch.X, torch.nn.functional.X, operator.X, builtins */
  FX_OP_METHOD,          /* Tensor.X: first argument is self */
} FxOpKind;

typedef enum {
  FX_OP_FLAG_INPLACE  = 1 << 0,  /* mutates its first argument (add_, relu_, F.relu(inplace=True)) */
  FX_OP_FLAG_RANDOM   = 1 << 1,  /* draws from the generator */
  FX_OP_FLAG_IMPURE   = 1 << 2,  /* never removed by dead code elimination */
  FX_OP_FLAG_CREATION = 1 << 3,  /* makes a tensor from sizes/values (zeros, arange, ...) */
  /* PyTorch defines it in Python (str() is "<function NAME at 0x...>"), where its path alone
   * does not say so (torch._assert); torch.nn.functional.* is assumed to be. */
  FX_OP_FLAG_PYTHON_FUNCTION = 1 << 4,
} FxOpFlags;

struct _FxOp {
  FxOpKind kind;
  /* Name that codegen prints for call_function targets ("torch.relu", "operator.add",
   * "torch.nn.functional.relu", "getattr"); for methods, "Tensor.relu". */
  const char *qualified_name;
  const char *name;                 /* last component: "relu" */
  const char *const *aliases;       /* other paths bound to this same function, NULL-ended */
  const char *category;             /* catalog group: "activation", "arithmetic", ... */
  const char *doc;                  /* one line for the catalog */
  FxOpFlags flags;
  int n_overloads;
  FxOverload *overloads;
};

/* Registers the whole table once (thread-safe, idempotent). */
void         fx_ops_init            (void);
/* A function by any of its paths ("torch.relu", "torch.nn.functional.relu", "operator.add"). */
const FxOp  *fx_op_lookup           (const char *path);
/* A Tensor method by name ("relu", "add_", "view", "size"). */
const FxOp  *fx_op_lookup_method    (const char *name);
/* All ops, functions then methods, in table order (for the catalog). */
const FxOp *const *fx_ops_all       (guint *n_ops);

/* Binds positional args and kwargs (str keys; may be NULL) to one overload of op, choosing
 * the first overload whose types accept them; argv receives overload->n_args new values
 * (the caller clears them). Errors read like PyTorch's TypeErrors. */
gboolean     fx_op_bind             (const FxOp *op, const FxValue *args, int n_args,
                                     const FxDict *kwargs, const FxOverload **overload,
                                     FxValue *argv, GError **error);
/* bind + kernel. */
gboolean     fx_op_call             (const FxOp *op, const FxValue *args, int n_args,
                                     const FxDict *kwargs, FxValue *result, GError **error);

/* Parses one schema line, e.g.
 *   "sum(Tensor input, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
 * Types: Tensor, Tensor[], int, int[], int[N], float, float[], bool, Scalar, str,
 * ScalarType, Device, Any; '?' for optional; '*' marks the start of keyword-only arguments;
 * "int... size" is a varargs size. Defaults: None, True, False, ints, floats, 'str', [1, 2],
 * torch.float32. */
gboolean     fx_schema_parse        (const char *text, FxOverload *out, GError **error);
void         fx_overload_clear      (FxOverload *overload);
/* The index of the parameter called name in overload's schema, or -1 (name may be NULL). */
int          fx_overload_param      (const FxOverload *overload, const char *name);

G_END_DECLS
