/* torch-tensor.c: the torch.Tensor class of the script front end — the class of every
 * FX_VALUE_TENSOR — with the op registry's Tensor methods and the Python protocol (repr,
 * truth, numbers, len, iteration, properties) as PyTorch 1.13 has them. */
#include "script/torch-private.h"
#include "ops/grad.h"
#include "tensor/print.h"

#include <string.h>

/* ------------------------------------------------------------------ helpers */

static gboolean
raise_error (FxScript *S, const char *cls, const char *msg)
{
  return fx_script_raise (S, cls, "%s", msg);
}

static gboolean
no_args (FxScript *S, const char *fname, int n_args, FxDict *kwargs)
{
  if (n_args > 1)
    return fx_script_raise (S, "TypeError", "%s() takes no arguments (%d given)", fname, n_args - 1);
  if (kwargs && fx_dict_len (kwargs))
    return fx_script_raise (S, "TypeError", "%s() takes no keyword arguments", fname);
  return TRUE;
}

#define SELF_OR_FAIL(fname)                          \
  FxTensor *t = torch_self (S, &args[0], fname);     \
  if (t == NULL)                                     \
    return FALSE

/* A registry method bound as a class attribute: user_data is the op. */
static gboolean
tensor_op_method (TORCH_ARGS)
{
  if (n_args < 1)
    return fx_script_raise (S, "TypeError", "descriptor '%s' of 'torch._C._TensorBase' object needs an argument",
                            ((const FxOp *) data)->name);
  return sc_torch_call_op (S, data, args, n_args, kwargs, result);
}

/* ------------------------------------------------------------------ properties */

static gboolean
prop_shape (TORCH_ARGS)
{
  SELF_OR_FAIL ("shape");
  *result = fx_value_int_tuple (&fx_tuple_type_size, t->ndim, t->shape);
  return TRUE;
}

static gboolean
prop_dtype (TORCH_ARGS)
{
  SELF_OR_FAIL ("dtype");
  *result = fx_value_dtype (t->dtype);
  return TRUE;
}

static gboolean
prop_device (TORCH_ARGS)
{
  SELF_OR_FAIL ("device");
  *result = fx_value_device ("cpu");
  return TRUE;
}

static gboolean
prop_ndim (TORCH_ARGS)
{
  SELF_OR_FAIL ("ndim");
  *result = fx_value_int (t->ndim);
  return TRUE;
}

static gboolean
prop_T (TORCH_ARGS)
{
  int dims[FX_TENSOR_MAX_DIMS];
  GError *error = NULL;
  FxTensor *r;
  SELF_OR_FAIL ("T");
  for (int i = 0; i < t->ndim; i++)
    dims[i] = t->ndim - 1 - i;
  r = fx_tensor_permute (t, t->ndim, dims, &error);
  if (r == NULL)
    return torch_raise_gerror (S, error);
  fx_grad_record_view ("PermuteBackward0", t, r);
  *result = fx_value_take_tensor (r);
  return TRUE;
}

static gboolean
prop_mT (TORCH_ARGS)
{
  GError *error = NULL;
  FxTensor *r;
  SELF_OR_FAIL ("mT");
  if (t->ndim < 2)
    return raise_error (S, "RuntimeError", "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
  r = fx_tensor_transpose (t, -2, -1, &error);
  if (r == NULL)
    return torch_raise_gerror (S, error);
  fx_grad_record_view ("TransposeBackward0", t, r);
  *result = fx_value_take_tensor (r);
  return TRUE;
}

static gboolean
prop_data (TORCH_ARGS)
{
  FxTensor *r;
  SELF_OR_FAIL ("data");
  /* .data shares storage but is a new tensor that does not require grad */
  r = fx_tensor_new_view (t->storage, t->dtype, t->ndim, t->shape, t->strides, t->offset);
  *result = fx_value_take_tensor (r);
  return TRUE;
}

static gboolean
prop_data_set (TORCH_ARGS)
{
  FxTensor *src;
  SELF_OR_FAIL ("data");
  if (!sc_torch_unwrap_tensor (S, &args[1], &src))
    return fx_script_raise (S, "TypeError", "data must be a Tensor, not %s", sc_type_name (S, &args[1]));
  if (args[0].kind != FX_VALUE_TENSOR && sc_torch_set_instance_tensor (S, &args[0], src))
    return TRUE;
  /* A plain tensor value cannot change identity: take over src's view in place. */
  if (src != t)
    {
      FxStorage *old = t->storage;
      t->storage = fx_storage_ref (src->storage);
      fx_storage_unref (old);
      t->dtype = src->dtype;
      t->ndim = src->ndim;
      memcpy (t->shape, src->shape, sizeof t->shape);
      memcpy (t->strides, src->strides, sizeof t->strides);
      t->offset = src->offset;
    }
  return TRUE;
}

static gboolean
prop_requires_grad (TORCH_ARGS)
{
  SELF_OR_FAIL ("requires_grad");
  *result = fx_value_bool (t->requires_grad);
  return TRUE;
}

/* PyTorch's refusal to change requires_grad of a result (with its advice when asked to turn
 * it off). */
static gboolean
not_a_leaf (FxScript *S, gboolean turning_off)
{
  return fx_script_raise (S, "RuntimeError", "you can only change requires_grad flags of leaf "
                          "variables.%s", turning_off ? " If you want to use a computed variable "
                          "in a subgraph that doesn't require differentiation use var_no_grad = "
                          "var.detach()." : "");
}

static gboolean
set_requires_grad (FxScript *S, FxTensor *t, gboolean flag)
{
  if (flag && !fx_dtype_is_floating (t->dtype))
    return raise_error (S, "RuntimeError", "only Tensors of floating point dtype can require gradients");
  if (t->grad_fn != NULL)   /* a result: asking for what it already is does nothing */
    return flag || not_a_leaf (S, TRUE);
  t->requires_grad = flag;
  return TRUE;
}

static gboolean
prop_requires_grad_set (TORCH_ARGS)
{
  gboolean flag;
  SELF_OR_FAIL ("requires_grad");
  if (args[1].kind != FX_VALUE_BOOL)
    return fx_script_raise (S, "TypeError", "requires_grad must be a bool");
  flag = args[1].b;
  if (t->grad_fn != NULL)   /* the attribute, unlike requires_grad_(), refuses both ways */
    return not_a_leaf (S, !flag);
  return set_requires_grad (S, t, flag);
}

/* ---- grad_fn: a node object per backward node name (a class of that name, as in PyTorch:
 * type(y.grad_fn).__name__ == 'MulBackward0'), with name() and its repr */

static gpointer
node_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  return g_new0 (const char *, 1);
}

static gboolean
node_repr (TORCH_ARGS)
{
  const char **name = fx_script_instance_payload (&args[0]);
  g_autofree char *text = g_strdup_printf ("<%s object at %p>", name && *name ? *name : "?",
                                           (void *) name);
  *result = fx_value_str (text);
  return TRUE;
}

static gboolean
node_name (TORCH_ARGS)
{
  const char **name = fx_script_instance_payload (&args[0]);
  *result = fx_value_str (name && *name ? *name : "?");
  return TRUE;
}

static gboolean
prop_grad_fn (TORCH_ARGS)
{
  TorchState *st = data;
  SELF_OR_FAIL ("grad_fn");
  if (t->grad_fn == NULL)
    {
      *result = fx_value_none ();
      return TRUE;
    }
  if (st->node_classes == NULL)
    st->node_classes = g_hash_table_new (g_str_hash, g_str_equal);
  FxScriptClass *cls = g_hash_table_lookup (st->node_classes, t->grad_fn);
  if (cls == NULL)
    {
      FxScriptClassInfo info = { .module = "builtins", .name = t->grad_fn,
                                 .payload_new = node_payload_new, .payload_free = g_free };
      cls = fx_script_class_new (S, &info, NULL);
      fx_script_class_add_method (cls, "__repr__", node_repr, NULL);
      fx_script_class_add_method (cls, "name", node_name, NULL);
      g_hash_table_insert (st->node_classes, (gpointer) t->grad_fn, cls);
    }
  *result = fx_script_instance_new (S, cls);
  const char **name = fx_script_instance_payload (result);
  if (name != NULL)
    *name = t->grad_fn;
  return TRUE;
}

static gboolean
prop_is_leaf (TORCH_ARGS)
{
  SELF_OR_FAIL ("is_leaf");
  *result = fx_value_bool (t->grad_fn == NULL);
  return TRUE;
}

/* _base: the tensor this one is a view of, or None */
static gboolean
prop_base (TORCH_ARGS)
{
  SELF_OR_FAIL ("_base");
  *result = t->view_base ? fx_value_tensor (t->view_base) : fx_value_none ();
  return TRUE;
}

static gboolean
prop_none (TORCH_ARGS)
{
  SELF_OR_FAIL ("grad");
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
prop_grad_set (TORCH_ARGS)
{
  SELF_OR_FAIL ("grad");
  if (args[1].kind != FX_VALUE_NONE)
    return raise_error (S, "NotImplementedError",
                        "Tensor.grad cannot be assigned: fx tensors have no autograd");
  return TRUE;
}

static gboolean
prop_false (TORCH_ARGS)
{
  SELF_OR_FAIL ("is_cuda");
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
prop_layout (TORCH_ARGS)
{
  FxValue torch_mod;
  SELF_OR_FAIL ("layout");
  if (!fx_script_import (S, "torch", &torch_mod))
    return FALSE;
  {
    gboolean ok = fx_script_getattr (S, &torch_mod, "strided", result);
    fx_value_clear (&torch_mod);
    return ok;
  }
}

static gboolean
prop_names (TORCH_ARGS)
{
  FxSeq *seq;
  SELF_OR_FAIL ("names");
  seq = fx_seq_new ((guint) t->ndim);
  *result = fx_value_take_tuple (seq);
  return TRUE;
}

/* ------------------------------------------------------------------ own attributes */

static void
attr_key_free (gpointer t)
{
  fx_tensor_unref (t);
}

static void
attr_dict_free (gpointer d)
{
  fx_dict_unref (d);
}

/* t.foo = value: properties as usual, anything else into the tensor's own attributes */
static gboolean
tensor_setattr (TORCH_ARGS)
{
  TorchState *st = data;
  FxValue *d;
  FxDict *dict;
  if (n_args != 3 || args[1].kind != FX_VALUE_STR)
    return fx_script_raise (S, "TypeError", "__setattr__ expects a name and a value");
  d = sc_type_lookup (S, sc_type_of (S, &args[0]), args[1].s);
  if (args[0].kind != FX_VALUE_TENSOR || (d && sc_is_klass (d, &sc_property_klass)))
    return fx_script_generic_setattr (S, &args[0], args[1].s->data, &args[2]);
  if (st->tensor_attrs == NULL)
    st->tensor_attrs = g_hash_table_new_full (NULL, NULL, attr_key_free, attr_dict_free);
  dict = g_hash_table_lookup (st->tensor_attrs, args[0].tensor);
  if (dict == NULL)
    {
      dict = fx_dict_new ();
      g_hash_table_insert (st->tensor_attrs, fx_tensor_ref (args[0].tensor), dict);
    }
  fx_dict_set (dict, fx_value_copy (&args[1]), fx_value_copy (&args[2]));
  return TRUE;
}

static gboolean
tensor_getattr (TORCH_ARGS)
{
  TorchState *st = data;
  FxDict *dict;
  FxValue *v;
  if (n_args != 2 || args[1].kind != FX_VALUE_STR)
    return fx_script_raise (S, "TypeError", "__getattr__ expects a name");
  dict = args[0].kind == FX_VALUE_TENSOR && st->tensor_attrs
         ? g_hash_table_lookup (st->tensor_attrs, args[0].tensor) : NULL;
  v = dict ? fx_dict_get (dict, &args[1]) : NULL;
  if (v == NULL)
    return sc_raise_attribute_error (S, &args[0], args[1].s);
  *result = fx_value_copy (v);
  return TRUE;
}

/* ------------------------------------------------------------------ dunders */

static gboolean
tensor_repr (TORCH_ARGS)
{
  GString *s;
  SELF_OR_FAIL ("__repr__");
  s = g_string_new (NULL);
  fx_tensor_repr (t, s);
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
tensor_format (TORCH_ARGS)
{
  const char *spec;
  SELF_OR_FAIL ("__format__");
  if (n_args != 2 || (spec = fx_script_to_str (S, &args[1])) == NULL)
    return fx_script_raise (S, "TypeError", "__format__() takes exactly one argument");
  if (t->ndim == 0)
    {
      FxValue item;
      GString *s;
      gboolean ok;
      if (t->dtype == FX_DTYPE_BOOL)
        item = fx_value_bool (fx_tensor_get_int64 (t, 0) != 0);
      else if (fx_dtype_is_integral (t->dtype))
        item = fx_value_int (fx_tensor_get_int64 (t, 0));
      else
        item = fx_value_float (fx_tensor_get_double (t, 0));
      s = g_string_new (NULL);
      ok = sc_format (S, &item, spec, s);
      if (ok)
        *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
      g_string_free (s, TRUE);
      return ok;
    }
  if (*spec)
    return raise_error (S, "TypeError", "unsupported format string passed to Tensor.__format__");
  return tensor_repr (S, args, 1, NULL, result, data);
}

static gboolean
tensor_bool (TORCH_ARGS)
{
  int64_t n;
  SELF_OR_FAIL ("__bool__");
  n = fx_tensor_numel (t);
  if (n != 1)
    return raise_error (S, "RuntimeError", n == 0
                        ? "Boolean value of Tensor with no values is ambiguous"
                        : "Boolean value of Tensor with more than one value is ambiguous");
  *result = fx_value_bool (fx_tensor_get_double (t, 0) != 0);
  return TRUE;
}

static gboolean
tensor_float (TORCH_ARGS)
{
  SELF_OR_FAIL ("__float__");
  if (fx_tensor_numel (t) != 1)
    return raise_error (S, "ValueError", "only one element tensors can be converted to Python scalars");
  *result = fx_value_float (fx_tensor_get_double (t, 0));
  return TRUE;
}

static gboolean
tensor_int (TORCH_ARGS)
{
  SELF_OR_FAIL ("__int__");
  if (fx_tensor_numel (t) != 1)
    return raise_error (S, "ValueError", "only one element tensors can be converted to Python scalars");
  if (fx_dtype_is_floating (t->dtype))
    {
      double d = fx_tensor_get_double (t, 0);
      if (d != d)
        return raise_error (S, "ValueError", "cannot convert float NaN to integer");
      if (d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)
        return raise_error (S, "OverflowError", "cannot convert float infinity to integer");
      *result = fx_value_int ((int64_t) d);
    }
  else
    *result = fx_value_int (fx_tensor_get_int64 (t, 0));
  return TRUE;
}

static gboolean
tensor_index (TORCH_ARGS)
{
  SELF_OR_FAIL ("__index__");
  if (fx_tensor_numel (t) != 1 || !(fx_dtype_is_integral (t->dtype) || t->dtype == FX_DTYPE_BOOL))
    return raise_error (S, "TypeError", "only integer tensors of a single element can be converted to an index");
  *result = fx_value_int (fx_tensor_get_int64 (t, 0));
  return TRUE;
}

static gboolean
tensor_hash (TORCH_ARGS)
{
  if (n_args < 1)
    return fx_script_raise (S, "TypeError", "__hash__() needs an argument");
  if (args[0].kind == FX_VALUE_OBJECT)
    *result = fx_value_int ((int64_t) ((guintptr) args[0].obj >> 4));
  else
    {
      gint64 h;
      if (!sc_hash (S, &args[0], &h))
        return FALSE;
      *result = fx_value_int (h);
    }
  return TRUE;
}

static gboolean
tensor_len (TORCH_ARGS)
{
  SELF_OR_FAIL ("__len__");
  if (t->ndim == 0)
    return raise_error (S, "TypeError", "len() of a 0-d tensor");
  *result = fx_value_int (t->shape[0]);
  return TRUE;
}

/* The rows along dim 0, as a list. */
static gboolean
tensor_rows (FxScript *S, FxTensor *t, FxSeq **out)
{
  FxSeq *seq = fx_seq_new (0);
  for (int64_t i = 0; i < t->shape[0]; i++)
    {
      GError *error = NULL;
      FxTensor *row = fx_tensor_select (t, 0, i, &error);
      if (row == NULL)
        {
          fx_seq_unref (seq);
          return torch_raise_gerror (S, error);
        }
      fx_seq_append (seq, fx_value_take_tensor (row));
    }
  *out = seq;
  return TRUE;
}

static gboolean
tensor_iter (TORCH_ARGS)
{
  FxSeq *rows = NULL;
  FxValue list;
  gboolean ok;
  SELF_OR_FAIL ("__iter__");
  if (t->ndim == 0)
    return raise_error (S, "TypeError", "iteration over a 0-d tensor");
  if (!tensor_rows (S, t, &rows))
    return FALSE;
  list = fx_value_take_list (rows);
  ok = sc_get_iter (S, &list, result);
  fx_value_clear (&list);
  return ok;
}

static gboolean
call_op_path (FxScript *S, const char *path, const FxValue *args, int n, FxValue *out)
{
  const FxOp *op = fx_op_lookup (path);
  if (op == NULL)
    return fx_script_raise (S, "NotImplementedError", "%s is not available in this build", path);
  return sc_torch_call_op (S, op, args, n, NULL, out);
}

/* reversed(t) is t flipped along dim 0 (a 0-d tensor stays as it is) */
static gboolean
tensor_reversed (TORCH_ARGS)
{
  FxValue a[2];
  gboolean ok;
  SELF_OR_FAIL ("__reversed__");
  if (t->ndim == 0)
    {
      *result = fx_value_copy (&args[0]);
      return TRUE;
    }
  a[0] = args[0];
  a[1] = fx_value_int_tuple (NULL, 1, (int64_t[]) { 0 });
  ok = call_op_path (S, "torch.flip", a, 2, result);
  fx_value_clear (&a[1]);
  return ok;
}

static gboolean
tensor_contains (TORCH_ARGS)
{
  FxValue eq, any, a[2];
  gboolean ok, truth;
  SELF_OR_FAIL ("__contains__");
  if (n_args != 2)
    return fx_script_raise (S, "TypeError", "__contains__() takes exactly one argument");
  if (!(args[1].kind == FX_VALUE_TENSOR || args[1].kind == FX_VALUE_INT || args[1].kind == FX_VALUE_FLOAT
        || args[1].kind == FX_VALUE_BOOL || sc_torch_is_tensor (S, &args[1])))
    {
      FxValue cv = sc_class_value (sc_type_of (S, &args[1]));
      char *r = fx_script_value_repr (S, &cv);
      fx_value_clear (&cv);
      if (r == NULL)
        return FALSE;
      fx_script_raise (S, "RuntimeError",
                       "Tensor.__contains__ only supports Tensor or scalar, but you passed in a %s.", r);
      g_free (r);
      return FALSE;
    }
  a[0] = args[0];
  a[1] = args[1];
  if (!call_op_path (S, "torch.eq", a, 2, &eq))
    return FALSE;
  ok = call_op_path (S, "torch.any", &eq, 1, &any);
  fx_value_clear (&eq);
  if (!ok)
    return FALSE;
  ok = sc_truth (S, &any, &truth);
  fx_value_clear (&any);
  if (ok)
    *result = fx_value_bool (truth);
  return ok;
}

/* == and != (the interpreter compares other kinds by identity once a class defines them) */
static gboolean
tensor_compare (TORCH_ARGS)
{
  SELF_OR_FAIL ((const char *) data);
  if (n_args != 2)
    return fx_script_raise (S, "TypeError", "expected 1 argument, got %d", n_args - 1);
  return call_op_path (S, g_str_equal (data, "__eq__") ? "operator.eq" : "operator.ne", args, 2, result);
}

static gboolean
tensor_deepcopy (TORCH_ARGS)
{
  SELF_OR_FAIL ("__deepcopy__");
  if (args[0].kind != FX_VALUE_TENSOR)
    return raise_error (S, "NotImplementedError",
                        "copy.deepcopy() of a Tensor subclass instance is not supported");
  if (t->grad_fn != NULL)
    return raise_error (S, "RuntimeError", "Only Tensors created explicitly by the user (graph "
                        "leaves) support the deepcopy protocol at the moment");
  {
    FxTensor *c = fx_tensor_clone (t);
    c->requires_grad = t->requires_grad;
    *result = fx_value_take_tensor (c);
  }
  return TRUE;
}

/* ------------------------------------------------------------------ methods */

static gboolean
tolist_rec (FxTensor *t, int dim, int64_t offset, FxValue *out)
{
  if (dim == t->ndim)
    {
      /* a 0-d view of the element; offset is relative to the view's first element */
      FxTensor scalar = *t;
      int64_t idx = 0;
      scalar.ndim = 0;
      scalar.offset = t->offset + offset;
      if (t->dtype == FX_DTYPE_BOOL)
        *out = fx_value_bool (fx_tensor_get_int64 (&scalar, idx) != 0);
      else if (fx_dtype_is_integral (t->dtype))
        *out = fx_value_int (fx_tensor_get_int64 (&scalar, idx));
      else
        *out = fx_value_float (fx_tensor_get_double (&scalar, idx));
      return TRUE;
    }
  {
    FxSeq *seq = fx_seq_new ((guint) t->shape[dim]);
    for (int64_t i = 0; i < t->shape[dim]; i++)
      tolist_rec (t, dim + 1, offset + i * t->strides[dim], &seq->items[i]);
    *out = fx_value_take_list (seq);
  }
  return TRUE;
}

static gboolean
tensor_tolist (TORCH_ARGS)
{
  SELF_OR_FAIL ("tolist");
  if (!no_args (S, "tolist", n_args, kwargs))
    return FALSE;
  return tolist_rec (t, 0, 0, result);
}

static gboolean
tensor_type (TORCH_ARGS)
{
  static const char *const names[] = { "dtype", "non_blocking" };
  const FxValue *a[2];
  FxDType dt;
  SELF_OR_FAIL ("type");
  if (!fx_script_parse_args (S, "type", args + 1, n_args - 1, kwargs, names, 2, 2, 0, a))
    return FALSE;
  if (a[0] == NULL || a[0]->kind == FX_VALUE_NONE)
    {
      *result = fx_value_str (fx_dtype_legacy_name (t->dtype));
      return TRUE;
    }
  if (a[0]->kind == FX_VALUE_DTYPE)
    dt = a[0]->dtype;
  else if (a[0]->kind == FX_VALUE_STR)
    {
      const char *s = a[0]->s->data;
      gboolean found = FALSE;
      for (int d = 0; d < FX_DTYPE_N && !found; d++)
        if (g_str_equal (s, fx_dtype_legacy_name (d)))
          {
            dt = d;
            found = TRUE;
          }
      if (!found)
        return fx_script_raise (S, "ValueError", "invalid type: '%s'", s);
    }
  else
    return fx_script_raise (S, "TypeError", "type() argument 'dtype' must be torch.dtype or str, not %s",
                            sc_type_name (S, a[0]));
  *result = fx_value_take_tensor (fx_tensor_to_dtype (t, dt));
  return TRUE;
}

static gboolean
tensor_cuda (TORCH_ARGS)
{
  SELF_OR_FAIL ("cuda");
  return raise_error (S, "AssertionError", "Torch not compiled with CUDA enabled");
}

static gboolean
tensor_numpy (TORCH_ARGS)
{
  SELF_OR_FAIL ("numpy");
  if (t->requires_grad)   /* PyTorch refuses before anything else */
    return raise_error (S, "RuntimeError", "Can't call numpy() on Tensor that requires grad. "
                        "Use tensor.detach().numpy() instead.");
  return raise_error (S, "NotImplementedError",
                      "Tensor.numpy() is not supported: fx has no NumPy (use tolist())");
}

static gboolean
tensor_backward (TORCH_ARGS)
{
  SELF_OR_FAIL ("backward");
  return raise_error (S, "NotImplementedError",
                      "Tensor.backward() is not supported: fx tensors have no autograd");
}

static gboolean
tensor_no_autograd (TORCH_ARGS)
{
  SELF_OR_FAIL ((const char *) data);
  return fx_script_raise (S, "NotImplementedError",
                          "Tensor.%s() is not supported: fx tensors have no autograd", (const char *) data);
}

/* retain_grad(): nothing to keep without backward(), but PyTorch's refusal stays */
static gboolean
tensor_retain_grad (TORCH_ARGS)
{
  SELF_OR_FAIL ("retain_grad");
  if (!no_args (S, "retain_grad", n_args, kwargs))
    return FALSE;
  if (!t->requires_grad)
    return raise_error (S, "RuntimeError",
                        "can't retain_grad on Tensor that has requires_grad=False");
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
tensor_requires_grad_ (TORCH_ARGS)
{
  static const char *const names[] = { "requires_grad" };
  const FxValue *a[1];
  gboolean flag = TRUE;
  SELF_OR_FAIL ("requires_grad_");
  if (!fx_script_parse_args (S, "requires_grad_", args + 1, n_args - 1, kwargs, names, 1, 1, 0, a))
    return FALSE;
  if (a[0] && !fx_script_to_bool (S, a[0], &flag))
    return FALSE;
  if (!set_requires_grad (S, t, flag))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
tensor_element_size (TORCH_ARGS)
{
  SELF_OR_FAIL ("element_size");
  if (!no_args (S, "element_size", n_args, kwargs))
    return FALSE;
  *result = fx_value_int ((int64_t) fx_tensor_element_size (t));
  return TRUE;
}

static gboolean
tensor_nelement (TORCH_ARGS)
{
  SELF_OR_FAIL ("nelement");
  if (!no_args (S, "nelement", n_args, kwargs))
    return FALSE;
  *result = fx_value_int (fx_tensor_numel (t));
  return TRUE;
}

static gboolean
tensor_ndimension (TORCH_ARGS)
{
  SELF_OR_FAIL ("ndimension");
  if (!no_args (S, "ndimension", n_args, kwargs))
    return FALSE;
  *result = fx_value_int (t->ndim);
  return TRUE;
}

static gboolean
tensor_stride (TORCH_ARGS)
{
  static const char *const names[] = { "dim" };
  const FxValue *a[1];
  SELF_OR_FAIL ("stride");
  if (!fx_script_parse_args (S, "stride", args + 1, n_args - 1, kwargs, names, 1, 1, 0, a))
    return FALSE;
  if (a[0] == NULL || a[0]->kind == FX_VALUE_NONE)
    {
      *result = fx_value_int_tuple (NULL, t->ndim, t->strides);
      return TRUE;
    }
  {
    int64_t d;
    int dim;
    GError *error = NULL;
    if (!fx_script_to_int (S, a[0], &d))
      return FALSE;
    if (d < -t->ndim - (t->ndim == 0) || d >= MAX (t->ndim, 1)
        || !fx_tensor_wrap_dim ((int) d, MAX (t->ndim, 1), &dim, &error))
      {
        if (error)
          return torch_raise_gerror (S, error);
        return fx_script_raise (S, "IndexError",
                                "Dimension out of range (expected to be in range of [%d, %d], but got %" G_GINT64_FORMAT ")",
                                -MAX (t->ndim, 1), MAX (t->ndim, 1) - 1, d);
      }
    *result = fx_value_int (t->ndim == 0 ? 1 : t->strides[dim]);
  }
  return TRUE;
}

static gboolean
tensor_storage_offset (TORCH_ARGS)
{
  SELF_OR_FAIL ("storage_offset");
  *result = fx_value_int (t->offset);
  return TRUE;
}

static gboolean
tensor_is_contiguous (TORCH_ARGS)
{
  SELF_OR_FAIL ("is_contiguous");
  *result = fx_value_bool (fx_tensor_is_contiguous (t));
  return TRUE;
}

static gboolean
tensor_is_floating_point (TORCH_ARGS)
{
  SELF_OR_FAIL ("is_floating_point");
  if (!no_args (S, "is_floating_point", n_args, kwargs))
    return FALSE;
  *result = fx_value_bool (fx_dtype_is_floating (t->dtype));
  return TRUE;
}

static gboolean
tensor_is_complex (TORCH_ARGS)
{
  SELF_OR_FAIL ("is_complex");
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
tensor_get_device (TORCH_ARGS)
{
  SELF_OR_FAIL ("get_device");
  *result = fx_value_int (-1);
  return TRUE;
}

static gboolean
tensor_data_ptr (TORCH_ARGS)
{
  SELF_OR_FAIL ("data_ptr");
  *result = fx_value_int ((int64_t) (guintptr) fx_tensor_data (t));
  return TRUE;
}

static gboolean
tensor_self_method (TORCH_ARGS)
{
  SELF_OR_FAIL ((const char *) data);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

/* ------------------------------------------------------------------ construction */

gboolean
torch_tensor_construct (FxScript *S, FxDType dtype, const FxValue *args, int n_args,
                        FxDict *kwargs, const char *fname, FxValue *result)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  gboolean all_ints = n_args > 0;
  FxTensor *src;

  if (kwargs && fx_dict_len (kwargs))
    {
      const FxValue *k;
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, NULL); i++)
        if (k->kind != FX_VALUE_STR || !g_str_equal (k->s->data, "device"))
          return fx_script_raise (S, "TypeError", "%s() got an unexpected keyword argument '%s'",
                                  fname, k->kind == FX_VALUE_STR ? k->s->data : "?");
    }
  if (n_args == 0)
    {
      int64_t zero = 0;
      *result = fx_value_take_tensor (fx_tensor_zeros (dtype, 1, &zero));
      return TRUE;
    }
  if (n_args == 1 && args[0].kind == FX_VALUE_TUPLE && args[0].seq->type == &fx_tuple_type_size)
    {
      const FxSeq *sizes = args[0].seq;
      args = sizes->items;
      n_args = (int) sizes->len;
      if (n_args == 0)
        {
          *result = fx_value_take_tensor (fx_tensor_zeros (dtype, 0, shape));
          return TRUE;
        }
    }
  for (int i = 0; i < n_args; i++)
    if (args[i].kind != FX_VALUE_INT)
      all_ints = FALSE;
  if (all_ints)
    {
      if (n_args > FX_TENSOR_MAX_DIMS)
        return fx_script_raise (S, "RuntimeError", "too many dimensions");
      for (int i = 0; i < n_args; i++)
        {
          if (args[i].i < 0)
            return fx_script_raise (S, "RuntimeError",
                                    "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": [%"
                                    G_GINT64_FORMAT "]", args[i].i, args[i].i);
          shape[i] = args[i].i;
        }
      *result = fx_value_take_tensor (fx_tensor_zeros (dtype, n_args, shape));
      return TRUE;
    }
  if (n_args != 1)
    return fx_script_raise (S, "TypeError", "%s() received an invalid combination of arguments", fname);
  if (sc_torch_unwrap_tensor (S, &args[0], &src))
    {
      if (src->dtype != dtype)
        return fx_script_raise (S, "TypeError", "expected %s (got %s)", fx_dtype_legacy_name (dtype),
                                fx_dtype_legacy_name (src->dtype));
      *result = fx_value_tensor (src);
      return TRUE;
    }
  {
    const FxOp *op = fx_op_lookup ("torch.tensor");
    FxDict *kw = fx_dict_new ();
    gboolean ok;
    if (op == NULL)
      {
        fx_dict_unref (kw);
        return fx_script_raise (S, "NotImplementedError", "torch.tensor is not available");
      }
    fx_dict_set (kw, fx_value_str ("dtype"), fx_value_dtype (dtype));
    ok = sc_torch_call_op (S, op, args, 1, kw, result);
    fx_dict_unref (kw);
    return ok;
  }
}

static gboolean
tensor_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                  gpointer data)
{
  return torch_tensor_construct (S, FX_DTYPE_FLOAT32, args, n_args, kwargs, "Tensor", result);
}

/* ------------------------------------------------------------------ the class */

/* A method of torch.Tensor; PyTorch defines them on torch._C._TensorBase, which is what
 * their repr names ("<method 'relu' of 'torch._C._TensorBase' objects>"). */
static void
add_method (FxScriptClass *cls, const char *name, FxScriptFunc func, gpointer data)
{
  sc_dict_set_str (cls->dict, name, sc_native_new ("torch._C._TensorBase", name, SC_NATIVE_METHOD,
                                                   func, data, NULL));
}

static gpointer
tensor_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  return g_new0 (TorchTensorPayload, 1);
}

static void
tensor_payload_free (gpointer p)
{
  TorchTensorPayload *tp = p;
  if (tp->tensor)
    fx_tensor_unref (tp->tensor);
  g_free (tp);
}

void
torch_tensor_class_init (FxScript *S, TorchState *st)
{
  static const FxScriptClassInfo info = {
    .module = "torch", .name = "Tensor",
    .payload_new = tensor_payload_new, .payload_free = tensor_payload_free,
  };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  guint n_ops;
  const FxOp *const *ops = fx_ops_all (&n_ops);

  st->tensor_cls = cls;
  cls->construct = tensor_construct;

  /* the registry's Tensor methods (the first op of each name, as fx_op_lookup_method
   * answers), then the protocol and the methods the registry does not have */
  {
    GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
    for (guint i = 0; i < n_ops; i++)
      if (ops[i]->kind == FX_OP_METHOD && g_hash_table_add (seen, (gpointer) ops[i]->name))
        add_method (cls, ops[i]->name, tensor_op_method, (gpointer) ops[i]);
    g_hash_table_destroy (seen);
  }

  fx_script_class_add_property (cls, "shape", prop_shape, NULL, st);
  fx_script_class_add_property (cls, "dtype", prop_dtype, NULL, st);
  fx_script_class_add_property (cls, "device", prop_device, NULL, st);
  fx_script_class_add_property (cls, "ndim", prop_ndim, NULL, st);
  fx_script_class_add_property (cls, "T", prop_T, NULL, st);
  fx_script_class_add_property (cls, "mT", prop_mT, NULL, st);
  fx_script_class_add_property (cls, "data", prop_data, prop_data_set, st);
  fx_script_class_add_property (cls, "requires_grad", prop_requires_grad, prop_requires_grad_set, st);
  fx_script_class_add_property (cls, "grad", prop_none, prop_grad_set, st);
  fx_script_class_add_property (cls, "grad_fn", prop_grad_fn, NULL, st);
  fx_script_class_add_property (cls, "is_leaf", prop_is_leaf, NULL, st);
  fx_script_class_add_property (cls, "_base", prop_base, NULL, st);
  fx_script_class_add_property (cls, "is_cuda", prop_false, NULL, st);
  fx_script_class_add_property (cls, "is_sparse", prop_false, NULL, st);
  fx_script_class_add_property (cls, "is_quantized", prop_false, NULL, st);
  fx_script_class_add_property (cls, "is_meta", prop_false, NULL, st);
  fx_script_class_add_property (cls, "is_mkldnn", prop_false, NULL, st);
  fx_script_class_add_property (cls, "layout", prop_layout, NULL, st);
  fx_script_class_add_property (cls, "names", prop_names, NULL, st);

  add_method (cls, "__repr__", tensor_repr, st);
  add_method (cls, "__setattr__", tensor_setattr, st);
  add_method (cls, "__getattr__", tensor_getattr, st);
  add_method (cls, "__format__", tensor_format, st);
  add_method (cls, "__bool__", tensor_bool, st);
  add_method (cls, "__float__", tensor_float, st);
  add_method (cls, "__int__", tensor_int, st);
  add_method (cls, "__index__", tensor_index, st);
  add_method (cls, "__hash__", tensor_hash, st);
  add_method (cls, "__len__", tensor_len, st);
  add_method (cls, "__iter__", tensor_iter, st);
  add_method (cls, "__reversed__", tensor_reversed, st);
  add_method (cls, "__contains__", tensor_contains, st);
  add_method (cls, "__eq__", tensor_compare, (gpointer) "__eq__");
  add_method (cls, "__ne__", tensor_compare, (gpointer) "__ne__");
  add_method (cls, "__deepcopy__", tensor_deepcopy, st);

  add_method (cls, "tolist", tensor_tolist, st);
  add_method (cls, "type", tensor_type, st);
  add_method (cls, "cuda", tensor_cuda, st);
  add_method (cls, "numpy", tensor_numpy, st);
  add_method (cls, "backward", tensor_backward, st);
  add_method (cls, "retain_grad", tensor_retain_grad, st);
  add_method (cls, "register_hook", tensor_no_autograd, (gpointer) "register_hook");
  add_method (cls, "requires_grad_", tensor_requires_grad_, st);
  add_method (cls, "element_size", tensor_element_size, st);
  add_method (cls, "nelement", tensor_nelement, st);
  add_method (cls, "ndimension", tensor_ndimension, st);
  add_method (cls, "stride", tensor_stride, st);
  add_method (cls, "storage_offset", tensor_storage_offset, st);
  add_method (cls, "is_contiguous", tensor_is_contiguous, st);
  add_method (cls, "is_floating_point", tensor_is_floating_point, st);
  add_method (cls, "is_complex", tensor_is_complex, st);
  add_method (cls, "is_pinned", tensor_is_complex, st);
  add_method (cls, "is_shared", tensor_is_complex, st);
  add_method (cls, "get_device", tensor_get_device, st);
  add_method (cls, "data_ptr", tensor_data_ptr, st);
  add_method (cls, "share_memory_", tensor_self_method, (gpointer) "share_memory_");
  add_method (cls, "pin_memory", tensor_self_method, (gpointer) "pin_memory");

  sc_type_modified (S);
  fx_script_set_kind_class (S, FX_VALUE_TENSOR, cls);
}
