/* registry.c: builds the one op table from the groups' FxOpDef arrays (plus the few ops that
 * belong to no group: builtins.getattr, operator.getitem and the Tensor introspection methods)
 * and answers lookups by path, alias and method name. */
#include "ops/op-table.h"
#include "fx-error.h"
#include "tensor/index.h"

#include <string.h>

/* Tensor indexing lives in core/tensor/index.c (Tensor.__getitem__); it may not be there yet.
 * Should index.h declare it differently, this redeclaration stops the build. */
FxTensor *fx_tensor_index (FxTensor *t, const FxValue *index, GError **error) __attribute__ ((weak));

/* ------------------------------------------------------------------------------------------
 * Kernels of the core ops
 * ------------------------------------------------------------------------------------------ */

static const char *
value_type_name (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: return "NoneType";
    case FX_VALUE_TENSOR: return "Tensor";
    case FX_VALUE_DTYPE: return "torch.dtype";
    case FX_VALUE_DEVICE: return "torch.device";
    case FX_VALUE_ELLIPSIS: return "ellipsis";
    case FX_VALUE_TUPLE:
      if (v->seq->type == &fx_tuple_type_size)
        return "torch.Size";
      return v->seq->type && v->seq->type->name ? v->seq->type->name : "tuple";
    case FX_VALUE_OBJECT:
      return v->obj->klass ? v->obj->klass->name : "object";
    default:
      return fx_value_kind_name (v->kind);
    }
}

static FxTensor *
tensor_T (FxTensor *t, GError **error)
{
  int dims[FX_TENSOR_MAX_DIMS];
  if (t->ndim < 2)
    return fx_tensor_ref (t);
  for (int i = 0; i < t->ndim; i++)
    dims[i] = t->ndim - 1 - i;
  return fx_tensor_permute (t, t->ndim, dims, error);
}

/* The attributes FX code reads from tensors; FALSE without error when there is none. */
static gboolean
tensor_attr (FxTensor *t, const char *name, FxValue *result, GError **error)
{
  if (g_str_equal (name, "shape"))
    *result = fx_value_int_tuple (&fx_tuple_type_size, t->ndim, t->shape);
  else if (g_str_equal (name, "dtype"))
    *result = fx_value_dtype (t->dtype);
  else if (g_str_equal (name, "ndim"))
    *result = fx_value_int (t->ndim);
  else if (g_str_equal (name, "device"))
    *result = fx_value_device ("cpu");
  else if (g_str_equal (name, "requires_grad"))
    *result = fx_value_bool (t->requires_grad);
  else if (g_str_equal (name, "is_cuda") || g_str_equal (name, "is_sparse")
           || g_str_equal (name, "is_quantized") || g_str_equal (name, "is_meta"))
    *result = fx_value_bool (FALSE);
  else if (g_str_equal (name, "is_leaf"))
    *result = fx_value_bool (TRUE);
  else if (g_str_equal (name, "grad") || g_str_equal (name, "grad_fn")
           || g_str_equal (name, "names"))
    {
      if (g_str_equal (name, "names"))
        {
          FxSeq *seq = fx_seq_new ((guint) t->ndim);
          *result = fx_value_take_tuple (seq);
        }
      else
        *result = fx_value_none ();
    }
  else if (g_str_equal (name, "data"))
    *result = fx_value_tensor (t);
  else if (g_str_equal (name, "T"))
    {
      FxTensor *r = tensor_T (t, error);
      if (r == NULL)
        return FALSE;
      *result = fx_value_take_tensor (r);
    }
  else if (g_str_equal (name, "is_floating_point"))
    return FALSE;
  else
    return FALSE;
  return TRUE;
}

static gboolean
kernel_getattr (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *obj = &argv[0], *name = &argv[1];
  if (name->kind != FX_VALUE_STR)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "attribute name must be string, not '%s'",
                   value_type_name (name));
      return FALSE;
    }
  if (obj->kind == FX_VALUE_TENSOR)
    {
      GError *local = NULL;
      if (tensor_attr (obj->tensor, name->s->data, result, &local))
        return TRUE;
      if (local)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  /* No such attribute: AttributeError, or the default of the three-argument form. */
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "'%s' object has no attribute '%s'",
               value_type_name (obj), name->s->data);
  return FALSE;
}

static gboolean
kernel_getattr_default (const FxValue *argv, FxValue *result, GError **error)
{
  GError *local = NULL;
  if (kernel_getattr (argv, result, &local))
    return TRUE;
  if (argv[1].kind != FX_VALUE_STR)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  g_error_free (local);
  *result = fx_value_copy (&argv[2]);
  return TRUE;
}

/* Python's slice.indices(). */
static gboolean
slice_indices (const FxSlice *s, int64_t len, int64_t *start, int64_t *stop, int64_t *step,
               GError **error)
{
  const FxValue *parts[3] = { &s->start, &s->stop, &s->step };
  int64_t v[3] = { 0, 0, 1 };
  gboolean given[3];
  for (int i = 0; i < 3; i++)
    {
      given[i] = parts[i]->kind != FX_VALUE_NONE;
      if (parts[i]->kind == FX_VALUE_INT)
        v[i] = parts[i]->i;
      else if (parts[i]->kind == FX_VALUE_BOOL)
        v[i] = parts[i]->b;
      else if (given[i])
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "slice indices must be integers or None or have an __index__ method");
          return FALSE;
        }
    }
  *step = given[2] ? v[2] : 1;
  if (*step == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "slice step cannot be zero");
      return FALSE;
    }
  int64_t lo = *step < 0 ? -1 : 0, hi = *step < 0 ? len - 1 : len;
  for (int i = 0; i < 2; i++)
    {
      int64_t x;
      if (!given[i])
        x = i == 0 ? (*step < 0 ? hi : lo) : (*step < 0 ? lo : hi);
      else
        {
          x = v[i];
          if (x < 0)
            {
              x += len;
              if (x < lo)
                x = lo;
            }
          else if (x > hi)
            x = hi;
        }
      if (i == 0)
        *start = x;
      else
        *stop = x;
    }
  return TRUE;
}

static gboolean
kernel_getitem (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *obj = &argv[0], *idx = &argv[1];

  if (obj->kind == FX_VALUE_TENSOR)
    {
      /* Tensor.__getitem__ when the table has it, so both paths index the same way. */
      const FxOp *method = fx_op_lookup_method ("__getitem__");
      if (method != NULL)
        return fx_op_call (method, argv, 2, NULL, result, error);
      if (fx_tensor_index == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "tensor indexing is not available");
          return FALSE;
        }
      return fx_result_tensor (result, fx_tensor_index (obj->tensor, idx, error));
    }

  if (obj->kind == FX_VALUE_DICT)
    {
      FxValue *v = fx_dict_get (obj->dict, idx);
      if (v == NULL)
        {
          g_autofree char *r = fx_value_to_repr (idx);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "%s", r);
          return FALSE;
        }
      *result = fx_value_copy (v);
      return TRUE;
    }

  if (obj->kind != FX_VALUE_TUPLE && obj->kind != FX_VALUE_LIST)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "'%s' object is not subscriptable",
                   value_type_name (obj));
      return FALSE;
    }

  const char *what = obj->kind == FX_VALUE_LIST ? "list" : "tuple";
  const FxSeq *seq = obj->seq;
  int64_t len = seq->len;
  if (idx->kind == FX_VALUE_INT || idx->kind == FX_VALUE_BOOL
      || (idx->kind == FX_VALUE_TENSOR && idx->tensor->ndim == 0
          && fx_dtype_is_integral (idx->tensor->dtype)))
    {
      int64_t i = idx->kind == FX_VALUE_INT ? idx->i
                  : idx->kind == FX_VALUE_BOOL ? idx->b : fx_tensor_get_int64 (idx->tensor, 0);
      if (i < 0)
        i += len;
      if (i < 0 || i >= len)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "%s index out of range", what);
          return FALSE;
        }
      *result = fx_value_copy (&seq->items[i]);
      return TRUE;
    }
  if (idx->kind == FX_VALUE_SLICE)
    {
      int64_t start, stop, step;
      if (!slice_indices (idx->slice, len, &start, &stop, &step, error))
        return FALSE;
      FxSeq *out = fx_seq_new (0);
      if (step > 0)
        for (int64_t i = start; i < stop; i += step)
          fx_seq_append (out, fx_value_copy (&seq->items[i]));
      else
        for (int64_t i = start; i > stop; i += step)
          fx_seq_append (out, fx_value_copy (&seq->items[i]));
      if (obj->kind == FX_VALUE_LIST)
        *result = fx_value_take_list (out);
      else
        {
          /* torch.Size slices stay torch.Size; other named tuples become plain tuples. */
          if (seq->type == &fx_tuple_type_size)
            out->type = &fx_tuple_type_size;
          *result = fx_value_take_tuple (out);
        }
      return TRUE;
    }
  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "%s indices must be integers or slices, not %s",
               what, value_type_name (idx));
  return FALSE;
}

static gboolean
kernel_size (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  *result = fx_value_int_tuple (&fx_tuple_type_size, t->ndim, t->shape);
  return TRUE;
}

static gboolean
kernel_size_dim (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t d = fx_arg_int (&argv[1]);
  int dim;
  if (t->ndim == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension specified as %" G_GINT64_FORMAT " but tensor has no dimensions", d);
      return FALSE;
    }
  if (d < -t->ndim || d >= t->ndim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got %"
                   G_GINT64_FORMAT ")", -t->ndim, t->ndim - 1, d);
      return FALSE;
    }
  dim = (int) (d < 0 ? d + t->ndim : d);
  *result = fx_value_int (t->shape[dim]);
  return TRUE;
}

/* libfx tensors carry no dimension names: every lookup by name fails as in PyTorch. */
static gboolean
kernel_size_name (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  if (fx_arg_is_none (&argv[1]))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Please look up dimensions by name, got: name = None.");
      return FALSE;
    }
  GString *names = g_string_new (NULL);
  for (int i = 0; i < t->ndim; i++)
    g_string_append (names, i ? ", None" : "None");
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Name '%s' not found in Tensor[%s].",
               argv[1].s->data, names->str);
  g_string_free (names, TRUE);
  return FALSE;
}

static gboolean
kernel_dim (const FxValue *argv, FxValue *result, GError **error)
{
  *result = fx_value_int (fx_arg_tensor (&argv[0])->ndim);
  return TRUE;
}

static gboolean
kernel_numel (const FxValue *argv, FxValue *result, GError **error)
{
  *result = fx_value_int (fx_tensor_numel (fx_arg_tensor (&argv[0])));
  return TRUE;
}

static gboolean
kernel_item (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  if (fx_tensor_numel (t) != 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "only one element tensors can be converted to Python scalars");
      return FALSE;
    }
  if (t->dtype == FX_DTYPE_BOOL)
    *result = fx_value_bool (fx_tensor_get_int64 (t, 0) != 0);
  else if (fx_dtype_is_integral (t->dtype))
    *result = fx_value_int (fx_tensor_get_int64 (t, 0));
  else
    *result = fx_value_float (fx_tensor_get_double (t, 0));
  return TRUE;
}

static const FxOpDef fx_op_defs_core[] = {
  { FX_OP_FUNCTION, "getattr", { NULL }, "python", "Attribute of an object (tensor.shape, ...)",
    0, {
      { "getattr(Any object, Any name) -> Any", kernel_getattr },
      { "getattr(Any object, Any name, Any default) -> Any", kernel_getattr_default },
    } },
  { FX_OP_FUNCTION, "operator.getitem", { NULL }, "python", "Item or slice of a sequence or tensor",
    0, {
      { "getitem(Any a, Any b) -> Any", kernel_getitem },
    } },
  { FX_OP_METHOD, "Tensor.size", { NULL }, "tensor", "Size of the tensor or of one dimension",
    0, {
      { "size(Tensor self, int dim) -> int", kernel_size_dim },
      { "size(Tensor self) -> Any", kernel_size },
      { "size(Tensor self, Dimname dim) -> int", kernel_size_name },
    } },
  { FX_OP_METHOD, "Tensor.dim", { NULL }, "tensor", "Number of dimensions",
    0, { { "dim(Tensor self) -> int", kernel_dim } } },
  { FX_OP_METHOD, "Tensor.numel", { NULL }, "tensor", "Number of elements",
    0, { { "numel(Tensor self) -> int", kernel_numel } } },
  { FX_OP_METHOD, "Tensor.item", { NULL }, "tensor", "The single element as a Python number",
    0, { { "item(Tensor self) -> Scalar", kernel_item } } },
  { .path = NULL },
};

/* ------------------------------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------------------------------ */

static GPtrArray *all_ops;          /* const FxOp *: functions, then methods */
static GHashTable *ops_by_path;     /* path or alias → op */
static GHashTable *ops_by_method;   /* "relu" → Tensor.relu */

static FxOp *
op_from_def (const FxOpDef *def)
{
  FxOp *op = g_new0 (FxOp, 1);
  const char *dot = strrchr (def->path, '.');
  int n_aliases = 0;

  op->kind = def->kind;
  op->qualified_name = def->path;
  op->name = dot ? dot + 1 : def->path;
  while (n_aliases < FX_OP_MAX_ALIASES && def->aliases[n_aliases] != NULL)
    n_aliases++;
  const char **aliases = g_new0 (const char *, n_aliases + 1);
  for (int i = 0; i < n_aliases; i++)
    aliases[i] = def->aliases[i];
  op->aliases = aliases;
  op->category = def->category;
  op->doc = def->doc;
  op->flags = def->flags;
  while (op->n_overloads < FX_OP_MAX_OVERLOADS && def->overloads[op->n_overloads].schema != NULL)
    op->n_overloads++;
  op->overloads = g_new0 (FxOverload, op->n_overloads);
  for (int i = 0; i < op->n_overloads; i++)
    {
      GError *error = NULL;
      if (!fx_schema_parse (def->overloads[i].schema, &op->overloads[i], &error))
        g_error ("op table: %s: bad schema \"%s\": %s", def->path, def->overloads[i].schema,
                 error->message);
      op->overloads[i].kernel = def->overloads[i].kernel;
      if (def->kind == FX_OP_METHOD
          && (op->overloads[i].n_args == 0 || op->overloads[i].args[0].type != FX_ARG_TENSOR))
        g_error ("op table: %s: a method's first argument must be Tensor self: \"%s\"",
                 def->path, def->overloads[i].schema);
    }
  if (op->n_overloads == 0)
    g_error ("op table: %s has no overloads", def->path);
  return op;
}

static void
register_path (const char *path, FxOp *op)
{
  FxOp *old = g_hash_table_lookup (ops_by_path, path);
  if (old != NULL)
    {
      g_critical ("op table: \"%s\" is registered twice (%s and %s)", path,
                  old->qualified_name, op->qualified_name);
      return;
    }
  g_hash_table_insert (ops_by_path, (gpointer) path, op);
}

void
fx_ops_init (void)
{
  static gsize once = 0;
  if (!g_once_init_enter (&once))
    return;

  const FxOpDef *const groups[] = {
    fx_op_defs_elementwise, fx_op_defs_reduce, fx_op_defs_linalg, fx_op_defs_nn,
    fx_op_defs_creation, fx_op_defs_shape, fx_op_defs_more, fx_op_defs_core,
  };
  GPtrArray *methods = g_ptr_array_new ();

  all_ops = g_ptr_array_new ();
  ops_by_path = g_hash_table_new (g_str_hash, g_str_equal);
  ops_by_method = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    for (const FxOpDef *def = groups[g]; def->path != NULL; def++)
      {
        FxOp *op = op_from_def (def);
        register_path (op->qualified_name, op);
        for (int i = 0; op->aliases[i] != NULL; i++)
          register_path (op->aliases[i], op);
        if (op->kind == FX_OP_METHOD)
          {
            if (!g_str_has_prefix (op->qualified_name, "Tensor."))
              g_error ("op table: method %s must be named Tensor.X", op->qualified_name);
            if (!g_hash_table_contains (ops_by_method, op->name))
              g_hash_table_insert (ops_by_method, (gpointer) op->name, op);
            g_ptr_array_add (methods, op);
          }
        else
          g_ptr_array_add (all_ops, op);
      }
  for (guint i = 0; i < methods->len; i++)
    g_ptr_array_add (all_ops, methods->pdata[i]);
  g_ptr_array_free (methods, TRUE);

  g_once_init_leave (&once, 1);
}

const FxOp *
fx_op_lookup (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  fx_ops_init ();
  return g_hash_table_lookup (ops_by_path, path);
}

const FxOp *
fx_op_lookup_method (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  fx_ops_init ();
  if (g_str_has_prefix (name, "Tensor."))
    name += strlen ("Tensor.");
  return g_hash_table_lookup (ops_by_method, name);
}

const FxOp *const *
fx_ops_all (guint *n_ops)
{
  fx_ops_init ();
  if (n_ops)
    *n_ops = all_ops->len;
  return (const FxOp *const *) all_ops->pdata;
}
