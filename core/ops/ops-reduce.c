/* ops-reduce.c: registry entries of the reductions, scans, sort/topk and softmax
 * (torch.X, Tensor.X, torch.nn.functional.softmax/log_softmax, torch.functional.norm). */
#include "ops/op-table.h"
#include "tensor/reduce.h"
#include "fx-error.h"

#include <math.h>
#include <string.h>

/* torch.max(a, b) is the elementwise maximum, which elementwise.c provides; it may not be
 * linked in yet. */
FxTensor *fx_tensor_maximum (FxTensor *a, FxTensor *b, GError **error) __attribute__ ((weak));
FxTensor *fx_tensor_minimum (FxTensor *a, FxTensor *b, GError **error) __attribute__ ((weak));

static const char *const max_fields[] = { "values", "indices" };
static const char *const aminmax_fields[] = { "min", "max" };
static const FxTupleType type_max = { "torch.return_types.max", 2, max_fields };
static const FxTupleType type_min = { "torch.return_types.min", 2, max_fields };
static const FxTupleType type_sort = { "torch.return_types.sort", 2, max_fields };
static const FxTupleType type_topk = { "torch.return_types.topk", 2, max_fields };
static const FxTupleType type_aminmax = { "torch.return_types.aminmax", 2, aminmax_fields };

/* ---- argument helpers ---- */

/* dims of an int[]? argument: *dims NULL for None (the caller frees *dims). */
static int
arg_dims (const FxValue *v, int64_t **dims)
{
  *dims = NULL;
  if (fx_arg_is_none (v) || (v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST))
    return 0;
  int n = (int) v->seq->len;
  *dims = g_new (int64_t, MAX (n, 1));
  fx_arg_int_list (v, *dims, n);
  return n;
}

static FxDType
arg_dtype (const FxValue *v)
{
  return v->kind == FX_VALUE_DTYPE ? v->dtype : FX_DTYPE_N;
}

static gboolean
result_pair (FxValue *result, const FxTupleType *type, FxTensor *a, FxTensor *b)
{
  FxSeq *seq = fx_seq_new (0);
  seq->type = type;
  fx_seq_append (seq, fx_value_take_tensor (a));
  fx_seq_append (seq, fx_value_take_tensor (b));
  *result = fx_value_take_tuple (seq);
  return TRUE;
}

/* out=: the result is copied into the given tensor, which becomes the result. */
static gboolean
result_out (FxValue *result, FxTensor *r, const FxValue *out, GError **error)
{
  if (r == NULL)
    return FALSE;
  if (out == NULL || fx_arg_is_none (out))
    return fx_result_tensor (result, r);
  FxTensor *o = fx_arg_tensor (out);
  if (o == NULL || !fx_tensor_same_shape (o, r))
    {
      fx_tensor_unref (r);
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "out= with a tensor of another shape is not supported");
      return FALSE;
    }
  gboolean ok = fx_tensor_copy_into (o, r, error);
  fx_tensor_unref (r);
  if (ok)
    *result = fx_value_tensor (o);
  return ok;
}

static gboolean
no_tuple_out (const FxValue *out, GError **error)
{
  if (out == NULL || fx_arg_is_none (out))
    return TRUE;
  g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "out= is not supported here");
  return FALSE;
}

/* The named-tensor overloads: libfx tensors have no names, so these fail as PyTorch does on
 * unnamed tensors. */
static gboolean
kernel_dimname (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  (void) result;
  if (fx_arg_is_none (&argv[1]))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Please look up dimensions by name, got: name = None.");
      return FALSE;
    }
  GString *s = g_string_new (NULL);
  for (int i = 0; t && i < t->ndim; i++)
    g_string_append (s, i ? ", None" : "None");
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Name '%s' not found in Tensor[%s].",
               argv[1].kind == FX_VALUE_STR ? argv[1].s->data : "", s->str);
  g_string_free (s, TRUE);
  return FALSE;
}

static gboolean
dimname_unsupported (const char *name, GError **error)
{
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
               "%s: You passed a dimname (string) to this op in place of a dimension index but "
               "it does not yet support this behavior. Please pass a dimension index to work "
               "around this.", name);
  return FALSE;
}

/* ---- sum, nansum, mean, prod ---- */

typedef FxTensor *(*SumFunc) (FxTensor *, const int64_t *, int, gboolean, FxDType, GError **);

/* (input, *, dtype) */
static gboolean
sum_all_common (SumFunc f, const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, f (fx_arg_tensor (&argv[0]), NULL, 0, FALSE,
                                      arg_dtype (&argv[1]), error));
}

/* (input, dim, keepdim, *, dtype[, out]) */
static gboolean
sum_dim_common (SumFunc f, const FxValue *argv, int n_argv, FxValue *result, GError **error)
{
  int64_t *dims;
  int n = arg_dims (&argv[1], &dims);
  FxTensor *r = f (fx_arg_tensor (&argv[0]), dims, n, fx_arg_bool (&argv[2]),
                   arg_dtype (&argv[3]), error);
  g_free (dims);
  return result_out (result, r, n_argv > 4 ? &argv[4] : NULL, error);
}

static gboolean k_sum_all (const FxValue *a, FxValue *r, GError **e) { return sum_all_common (fx_tensor_sum, a, r, e); }
static gboolean k_sum_dim (const FxValue *a, FxValue *r, GError **e) { return sum_dim_common (fx_tensor_sum, a, 4, r, e); }
static gboolean k_sum_dim_out (const FxValue *a, FxValue *r, GError **e) { return sum_dim_common (fx_tensor_sum, a, 5, r, e); }
static gboolean k_mean_all (const FxValue *a, FxValue *r, GError **e) { return sum_all_common (fx_tensor_mean, a, r, e); }
static gboolean k_mean_dim (const FxValue *a, FxValue *r, GError **e) { return sum_dim_common (fx_tensor_mean, a, 4, r, e); }
static gboolean k_mean_dim_out (const FxValue *a, FxValue *r, GError **e) { return sum_dim_common (fx_tensor_mean, a, 5, r, e); }
static gboolean k_nansum (const FxValue *a, FxValue *r, GError **e) { return sum_dim_common (fx_tensor_nansum, a, 4, r, e); }
static gboolean k_nansum_out (const FxValue *a, FxValue *r, GError **e) { return sum_dim_common (fx_tensor_nansum, a, 5, r, e); }

static gboolean
k_prod_all (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_prod (fx_arg_tensor (&argv[0]), FALSE, 0, FALSE,
                                                   arg_dtype (&argv[1]), error));
}

/* (input, dim, keepdim, *, dtype[, out]) */
static gboolean
k_prod_dim (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_prod (fx_arg_tensor (&argv[0]), TRUE, fx_arg_int (&argv[1]),
                                fx_arg_bool (&argv[2]), arg_dtype (&argv[3]), error);
  return fx_result_tensor (result, r);
}

static gboolean
k_prod_dim_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_prod (fx_arg_tensor (&argv[0]), TRUE, fx_arg_int (&argv[1]),
                                fx_arg_bool (&argv[2]), arg_dtype (&argv[3]), error);
  return result_out (result, r, &argv[4], error);
}

/* ---- max, min ---- */

static gboolean
k_max_all (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_max_all (fx_arg_tensor (&argv[0]), error));
}

static gboolean
k_min_all (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_min_all (fx_arg_tensor (&argv[0]), error));
}

static gboolean
binary_extremum (const FxValue *argv, FxValue *result, gboolean is_max, GError **error)
{
  FxTensor *(*f) (FxTensor *, FxTensor *, GError **) = is_max ? fx_tensor_maximum
                                                               : fx_tensor_minimum;
  if (f == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "torch.%s(input, other) needs the elementwise %s, which is not built in",
                   is_max ? "max" : "min", is_max ? "maximum" : "minimum");
      return FALSE;
    }
  return fx_result_tensor (result, f (fx_arg_tensor (&argv[0]), fx_arg_tensor (&argv[1]), error));
}

static gboolean k_max_other (const FxValue *a, FxValue *r, GError **e) { return binary_extremum (a, r, TRUE, e); }
static gboolean k_min_other (const FxValue *a, FxValue *r, GError **e) { return binary_extremum (a, r, FALSE, e); }

static gboolean
k_max_other_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue tmp;
  if (!k_max_other (argv, &tmp, error))
    return FALSE;
  FxTensor *r = fx_tensor_ref (tmp.tensor);
  fx_value_clear (&tmp);
  return result_out (result, r, &argv[2], error);
}

static gboolean
k_min_other_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue tmp;
  if (!k_min_other (argv, &tmp, error))
    return FALSE;
  FxTensor *r = fx_tensor_ref (tmp.tensor);
  fx_value_clear (&tmp);
  return result_out (result, r, &argv[2], error);
}

/* (input, dim, keepdim[, *, out]) */
static gboolean
minmax_dim_common (const FxValue *argv, int n_argv, FxValue *result, gboolean is_max,
                   GError **error)
{
  FxTensor *v, *i;
  if (n_argv > 3 && !no_tuple_out (&argv[3], error))
    return FALSE;
  gboolean ok = (is_max ? fx_tensor_max_dim : fx_tensor_min_dim) (
      fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]), fx_arg_bool (&argv[2]), &v, &i, error);
  return ok && result_pair (result, is_max ? &type_max : &type_min, v, i);
}

static gboolean k_max_dim (const FxValue *a, FxValue *r, GError **e) { return minmax_dim_common (a, 3, r, TRUE, e); }
static gboolean k_max_dim_out (const FxValue *a, FxValue *r, GError **e) { return minmax_dim_common (a, 4, r, TRUE, e); }
static gboolean k_min_dim (const FxValue *a, FxValue *r, GError **e) { return minmax_dim_common (a, 3, r, FALSE, e); }
static gboolean k_min_dim_out (const FxValue *a, FxValue *r, GError **e) { return minmax_dim_common (a, 4, r, FALSE, e); }

/* (input, dim=[], keepdim[, *, out]) */
static gboolean
amax_common (const FxValue *argv, int n_argv, FxValue *result, gboolean is_max, GError **error)
{
  int64_t *dims;
  int n = arg_dims (&argv[1], &dims);
  FxTensor *r = (is_max ? fx_tensor_amax : fx_tensor_amin) (fx_arg_tensor (&argv[0]), dims, n,
                                                            fx_arg_bool (&argv[2]), error);
  g_free (dims);
  return result_out (result, r, n_argv > 3 ? &argv[3] : NULL, error);
}

static gboolean k_amax (const FxValue *a, FxValue *r, GError **e) { return amax_common (a, 3, r, TRUE, e); }
static gboolean k_amax_out (const FxValue *a, FxValue *r, GError **e) { return amax_common (a, 4, r, TRUE, e); }
static gboolean k_amin (const FxValue *a, FxValue *r, GError **e) { return amax_common (a, 3, r, FALSE, e); }
static gboolean k_amin_out (const FxValue *a, FxValue *r, GError **e) { return amax_common (a, 4, r, FALSE, e); }

/* (input, dim=None, keepdim=False) */
static gboolean
argmax_common (const FxValue *argv, FxValue *result, gboolean is_max, GError **error)
{
  gboolean has_dim = !fx_arg_is_none (&argv[1]);
  FxTensor *r = (is_max ? fx_tensor_argmax : fx_tensor_argmin) (
      fx_arg_tensor (&argv[0]), has_dim, has_dim ? fx_arg_int (&argv[1]) : 0,
      fx_arg_bool (&argv[2]), error);
  return fx_result_tensor (result, r);
}

static gboolean k_argmax (const FxValue *a, FxValue *r, GError **e) { return argmax_common (a, r, TRUE, e); }
static gboolean k_argmin (const FxValue *a, FxValue *r, GError **e) { return argmax_common (a, r, FALSE, e); }

/* (input, *, dim=None, keepdim=False[, out]) */
static gboolean
k_aminmax (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *mn, *mx;
  gboolean has_dim = !fx_arg_is_none (&argv[1]);
  if (!no_tuple_out (&argv[3], error))
    return FALSE;
  if (!fx_tensor_aminmax (fx_arg_tensor (&argv[0]), has_dim,
                          has_dim ? fx_arg_int (&argv[1]) : 0, fx_arg_bool (&argv[2]), &mn, &mx,
                          error))
    return FALSE;
  return result_pair (result, &type_aminmax, mn, mx);
}

static gboolean
k_aminmax_method (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue a[4] = { argv[0], argv[1], argv[2], fx_value_none () };
  return k_aminmax (a, result, error);
}

/* ---- var, std, var_mean, std_mean ---- */

typedef enum { VS_VAR, VS_STD, VS_VAR_MEAN, VS_STD_MEAN } VarKind;

static gboolean
var_common (FxTensor *t, const FxValue *dimv, double correction, gboolean keepdim,
            VarKind kind, const FxValue *out, FxValue *result, GError **error)
{
  int64_t *dims = NULL;
  int n = dimv ? arg_dims (dimv, &dims) : 0;
  gboolean ok;

  if (kind == VS_VAR || kind == VS_STD)
    {
      FxTensor *r = kind == VS_VAR ? fx_tensor_var (t, dims, n, correction, keepdim, error)
                                   : fx_tensor_std (t, dims, n, correction, keepdim, error);
      g_free (dims);
      return result_out (result, r, out, error);
    }
  FxTensor *a, *b;
  ok = fx_tensor_var_mean (t, dims, n, correction, keepdim, kind == VS_STD_MEAN, &a, &b, error);
  g_free (dims);
  return ok && result_pair (result, NULL, a, b);
}

/* (input, dim, *, correction=None, keepdim=False[, out]) */
static gboolean
var_correction (const FxValue *argv, int n_argv, VarKind kind, FxValue *result, GError **error)
{
  double corr = fx_arg_is_none (&argv[2]) ? 1.0 : (double) fx_arg_int (&argv[2]);
  return var_common (fx_arg_tensor (&argv[0]), &argv[1], corr, fx_arg_bool (&argv[3]), kind,
                     n_argv > 4 ? &argv[4] : NULL, result, error);
}

/* (input, dim, unbiased=True, keepdim=False[, *, out]) */
static gboolean
var_dim (const FxValue *argv, int n_argv, VarKind kind, FxValue *result, GError **error)
{
  return var_common (fx_arg_tensor (&argv[0]), &argv[1], fx_arg_bool (&argv[2]) ? 1.0 : 0.0,
                     fx_arg_bool (&argv[3]), kind, n_argv > 4 ? &argv[4] : NULL, result, error);
}

/* (input, unbiased=True) */
static gboolean
var_all (const FxValue *argv, VarKind kind, FxValue *result, GError **error)
{
  return var_common (fx_arg_tensor (&argv[0]), NULL, fx_arg_bool (&argv[1]) ? 1.0 : 0.0, FALSE,
                     kind, NULL, result, error);
}

#define VAR_KERNELS(PFX, KIND)                                                                \
  static gboolean G_GNUC_UNUSED PFX##_corr (const FxValue *a, FxValue *r, GError **e) { return var_correction (a, 4, KIND, r, e); } \
  static gboolean G_GNUC_UNUSED PFX##_corr_out (const FxValue *a, FxValue *r, GError **e) { return var_correction (a, 5, KIND, r, e); } \
  static gboolean G_GNUC_UNUSED PFX##_dim (const FxValue *a, FxValue *r, GError **e) { return var_dim (a, 4, KIND, r, e); } \
  static gboolean G_GNUC_UNUSED PFX##_dim_out (const FxValue *a, FxValue *r, GError **e) { return var_dim (a, 5, KIND, r, e); } \
  static gboolean G_GNUC_UNUSED PFX##_all (const FxValue *a, FxValue *r, GError **e) { return var_all (a, KIND, r, e); }

VAR_KERNELS (k_var, VS_VAR)
VAR_KERNELS (k_std, VS_STD)
VAR_KERNELS (k_var_mean, VS_VAR_MEAN)
VAR_KERNELS (k_std_mean, VS_STD_MEAN)

/* ---- norm (torch.functional.norm and Tensor.norm, written in Python in PyTorch) ---- */

static gboolean
norm_dims_of (const FxValue *v, int64_t **dims, int *n, GError **error)
{
  *dims = NULL;
  *n = 0;
  if (fx_arg_is_none (v))
    return TRUE;
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      *dims = g_new (int64_t, 1);
      (*dims)[0] = fx_arg_int (v);
      *n = 1;
      return TRUE;
    }
  if (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST)
    {
      *n = (int) v->seq->len;
      *dims = g_new (int64_t, MAX (*n, 1));
      for (int i = 0; i < *n; i++)
        {
          const FxValue *e = &v->seq->items[i];
          if (e->kind != FX_VALUE_INT && e->kind != FX_VALUE_BOOL)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                           "norm(): argument 'dim' must be tuple of ints, but found element "
                           "of type %s at pos %d", fx_value_kind_name (e->kind), i);
              g_clear_pointer (dims, g_free);
              return FALSE;
            }
          (*dims)[i] = fx_arg_int (e);
        }
      return TRUE;
    }
  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
               "norm(): argument 'dim' must be tuple of ints, not %s",
               fx_value_kind_name (v->kind));
  return FALSE;
}

/* torch.functional.norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None) */
static gboolean
norm_common (FxTensor *t, const FxValue *p, const FxValue *dimv, gboolean keepdim,
             const FxValue *out, const FxValue *dtypev, FxValue *result, GError **error)
{
  FxDType dtype = FX_DTYPE_N;
  int64_t *dims = NULL;
  int n_dims = 0;
  FxTensor *r = NULL;

  if (dtypev && !fx_arg_is_none (dtypev))
    {
      if (dtypev->kind != FX_VALUE_DTYPE)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "norm(): argument 'dtype' must be torch.dtype, not %s",
                       fx_value_kind_name (dtypev->kind));
          return FALSE;
        }
      dtype = dtypev->dtype;
    }
  if (!norm_dims_of (dimv, &dims, &n_dims, error))
    return FALSE;

  if (p->kind == FX_VALUE_STR)
    {
      const char *ps = p->s->data;
      if (g_str_equal (ps, "fro"))
        {
          /* the default-case shortcut and the explicit path differ only in the dtype check */
          if (dtype != FX_DTYPE_N)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           "dtype argument is not supported in frobenius norm");
              g_free (dims);
              return FALSE;
            }
          r = fx_tensor_frobenius_norm (t, dims, n_dims, keepdim, error);
        }
      else if (g_str_equal (ps, "nuc"))
        {
          if (dtype != FX_DTYPE_N)
            g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                         "dtype argument is not supported in nuclear norm");
          else
            g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                         "norm(): the nuclear norm (p='nuc') is not supported");
        }
      else
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "only valid string values are 'fro' and 'nuc', found %s", ps);
    }
  else
    {
      double pv;
      switch (p->kind)
        {
        case FX_VALUE_NONE: pv = 2.0; break;
        case FX_VALUE_INT: pv = (double) p->i; break;
        case FX_VALUE_BOOL: pv = p->b; break;
        case FX_VALUE_FLOAT: pv = p->f; break;
        default:
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "norm(): argument 'p' must be Number, not %s",
                       fx_value_kind_name (p->kind));
          g_free (dims);
          return FALSE;
        }
      r = fx_tensor_norm (t, pv, dims, n_dims, keepdim, dtype, error);
    }
  g_free (dims);
  if (r == NULL)
    return FALSE;
  return result_out (result, r, out, error);
}

static gboolean
k_norm (const FxValue *argv, FxValue *result, GError **error)
{
  return norm_common (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], fx_arg_bool (&argv[3]),
                      &argv[4], &argv[5], result, error);
}

static gboolean
k_norm_method (const FxValue *argv, FxValue *result, GError **error)
{
  return norm_common (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], fx_arg_bool (&argv[3]),
                      NULL, &argv[4], result, error);
}

/* ---- any, all, count_nonzero, logsumexp ---- */

static gboolean
any_all_common (const FxValue *argv, gboolean has_dim, const FxValue *out, gboolean is_any,
                FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  FxTensor *r = has_dim ? (is_any ? fx_tensor_any : fx_tensor_all) (t, TRUE, fx_arg_int (&argv[1]),
                                                                     fx_arg_bool (&argv[2]), error)
                        : (is_any ? fx_tensor_any : fx_tensor_all) (t, FALSE, 0, FALSE, error);
  return result_out (result, r, out, error);
}

static gboolean k_any_all (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, FALSE, NULL, TRUE, r, e); }
static gboolean k_any_all_out (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, FALSE, &a[1], TRUE, r, e); }
static gboolean k_any_dim (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, TRUE, NULL, TRUE, r, e); }
static gboolean k_any_dim_out (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, TRUE, &a[3], TRUE, r, e); }
static gboolean k_all_all (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, FALSE, NULL, FALSE, r, e); }
static gboolean k_all_all_out (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, FALSE, &a[1], FALSE, r, e); }
static gboolean k_all_dim (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, TRUE, NULL, FALSE, r, e); }
static gboolean k_all_dim_out (const FxValue *a, FxValue *r, GError **e) { return any_all_common (a, TRUE, &a[3], FALSE, r, e); }

static gboolean
k_any_dimname (const FxValue *argv, FxValue *result, GError **error)
{
  (void) argv; (void) result;
  return dimname_unsupported ("any", error);
}

static gboolean
k_all_dimname (const FxValue *argv, FxValue *result, GError **error)
{
  (void) argv; (void) result;
  return dimname_unsupported ("all", error);
}

static gboolean
k_count_nonzero (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t *dims = NULL;
  int n = 0;
  if (argv[1].kind == FX_VALUE_INT || argv[1].kind == FX_VALUE_BOOL)
    {
      dims = g_new (int64_t, 1);
      dims[0] = fx_arg_int (&argv[1]);
      n = 1;
    }
  else
    n = arg_dims (&argv[1], &dims);
  FxTensor *r = fx_tensor_count_nonzero (fx_arg_tensor (&argv[0]), dims, n, error);
  g_free (dims);
  return fx_result_tensor (result, r);
}

/* (input, dim, keepdim=False[, *, out]) */
static gboolean
logsumexp_common (const FxValue *argv, const FxValue *out, FxValue *result, GError **error)
{
  int64_t *dims;
  int n = arg_dims (&argv[1], &dims);
  FxTensor *r = fx_tensor_logsumexp (fx_arg_tensor (&argv[0]), dims, n, fx_arg_bool (&argv[2]),
                                     error);
  g_free (dims);
  return result_out (result, r, out, error);
}

static gboolean k_logsumexp (const FxValue *a, FxValue *r, GError **e) { return logsumexp_common (a, NULL, r, e); }
static gboolean k_logsumexp_out (const FxValue *a, FxValue *r, GError **e) { return logsumexp_common (a, &a[3], r, e); }

/* ---- sort, argsort, topk ---- */

static gboolean
sort_result (FxTensor *t, int64_t dim, gboolean descending, gboolean stable, FxValue *result,
             GError **error)
{
  FxTensor *v, *i;
  if (!fx_tensor_sort (t, dim, descending, stable, &v, &i, error))
    return FALSE;
  return result_pair (result, &type_sort, v, i);
}

/* (input, *, stable, dim=-1, descending=False[, out]) */
static gboolean
k_sort_stable (const FxValue *argv, FxValue *result, GError **error)
{
  return sort_result (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[2]), fx_arg_bool (&argv[3]),
                      !fx_arg_is_none (&argv[1]) && fx_arg_bool (&argv[1]), result, error);
}

static gboolean
k_sort_stable_out (const FxValue *argv, FxValue *result, GError **error)
{
  return no_tuple_out (&argv[4], error) && k_sort_stable (argv, result, error);
}

/* (input, dim=-1, descending=False[, *, out]) */
static gboolean
k_sort (const FxValue *argv, FxValue *result, GError **error)
{
  return sort_result (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]), fx_arg_bool (&argv[2]),
                      FALSE, result, error);
}

static gboolean
k_sort_out (const FxValue *argv, FxValue *result, GError **error)
{
  return no_tuple_out (&argv[3], error) && k_sort (argv, result, error);
}

static gboolean
k_sort_dimname (const FxValue *argv, FxValue *result, GError **error)
{
  (void) argv; (void) result;
  return dimname_unsupported ("sort", error);
}

static gboolean
k_argsort_stable (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_argsort (fx_arg_tensor (&argv[0]),
                                                      fx_arg_int (&argv[2]),
                                                      fx_arg_bool (&argv[3]),
                                                      fx_arg_bool (&argv[1]), error));
}

static gboolean
k_argsort (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_argsort (fx_arg_tensor (&argv[0]),
                                                      fx_arg_int (&argv[1]),
                                                      fx_arg_bool (&argv[2]), FALSE, error));
}

static gboolean
k_argsort_dimname (const FxValue *argv, FxValue *result, GError **error)
{
  (void) argv; (void) result;
  return dimname_unsupported ("sort", error);
}

/* (input, k, dim=-1, largest=True, sorted=True[, *, out]) */
static gboolean
k_topk (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *v, *i;
  if (!fx_tensor_topk (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]), fx_arg_int (&argv[2]),
                       fx_arg_bool (&argv[3]), fx_arg_bool (&argv[4]), &v, &i, error))
    return FALSE;
  return result_pair (result, &type_topk, v, i);
}

static gboolean
k_topk_out (const FxValue *argv, FxValue *result, GError **error)
{
  return no_tuple_out (&argv[5], error) && k_topk (argv, result, error);
}

/* ---- cumsum, cumprod ---- */

/* (input, dim, *, dtype=None[, out]) */
static gboolean
k_cumsum (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_cumsum (fx_arg_tensor (&argv[0]),
                                                     fx_arg_int (&argv[1]),
                                                     arg_dtype (&argv[2]), error));
}

static gboolean
k_cumsum_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_cumsum (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                  arg_dtype (&argv[2]), error);
  return result_out (result, r, &argv[3], error);
}

static gboolean
k_cumprod (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_cumprod (fx_arg_tensor (&argv[0]),
                                                      fx_arg_int (&argv[1]),
                                                      arg_dtype (&argv[2]), error));
}

static gboolean
k_cumprod_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_cumprod (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                   arg_dtype (&argv[2]), error);
  return result_out (result, r, &argv[3], error);
}

/* ---- softmax, log_softmax ---- */

/* torch.softmax / Tensor.softmax: (input, dim, dtype=None[, *, out]) */
static gboolean
k_softmax (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_softmax (fx_arg_tensor (&argv[0]),
                                                      fx_arg_int (&argv[1]),
                                                      arg_dtype (&argv[2]), error));
}

static gboolean
k_softmax_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_softmax (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                   arg_dtype (&argv[2]), error);
  return result_out (result, r, &argv[3], error);
}

static gboolean
k_log_softmax (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_log_softmax (fx_arg_tensor (&argv[0]),
                                                          fx_arg_int (&argv[1]),
                                                          arg_dtype (&argv[2]), error));
}

static gboolean
k_log_softmax_out (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_log_softmax (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                       arg_dtype (&argv[2]), error);
  return result_out (result, r, &argv[3], error);
}

/* F.softmax(input, dim=None, _stacklevel=3, dtype=None): dim None picks
 * _get_softmax_dim's choice (0 for 0-, 1- and 3-d inputs, else 1). */
static gboolean
functional_softmax (const FxValue *argv, FxValue *result, gboolean logsm, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t dim = fx_arg_is_none (&argv[1]) ? fx_softmax_default_dim (t->ndim)
                                          : fx_arg_int (&argv[1]);
  FxDType dtype = arg_dtype (&argv[3]);
  return fx_result_tensor (result, logsm ? fx_tensor_log_softmax (t, dim, dtype, error)
                                         : fx_tensor_softmax (t, dim, dtype, error));
}

static gboolean k_f_softmax (const FxValue *a, FxValue *r, GError **e) { return functional_softmax (a, r, FALSE, e); }
static gboolean k_f_log_softmax (const FxValue *a, FxValue *r, GError **e) { return functional_softmax (a, r, TRUE, e); }

/* ------------------------------------------------------------------ the table */

#define CAT "reduction"

const FxOpDef fx_op_defs_reduce[] = {
  /* sums and means */
  { FX_OP_FUNCTION, "torch.sum", { NULL }, CAT, "Sum of elements, over all or some dims", 0, {
      { "sum(Tensor input, *, ScalarType? dtype=None) -> Tensor", k_sum_all },
      { "sum(Tensor input, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", k_sum_dim_out },
    } },
  { FX_OP_METHOD, "Tensor.sum", { NULL }, CAT, "Sum of elements, over all or some dims", 0, {
      { "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", k_sum_all },
      { "sum(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", k_sum_dim },
    } },
  { FX_OP_FUNCTION, "torch.nansum", { NULL }, CAT, "Sum of elements, treating NaN as zero", 0, {
      { "nansum(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", k_nansum_out },
    } },
  { FX_OP_METHOD, "Tensor.nansum", { NULL }, CAT, "Sum of elements, treating NaN as zero", 0, {
      { "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", k_nansum },
    } },
  { FX_OP_FUNCTION, "torch.mean", { NULL }, CAT, "Mean of elements, over all or some dims", 0, {
      { "mean(Tensor input, *, ScalarType? dtype=None) -> Tensor", k_mean_all },
      { "mean(Tensor input, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", k_mean_dim_out },
    } },
  { FX_OP_METHOD, "Tensor.mean", { NULL }, CAT, "Mean of elements, over all or some dims", 0, {
      { "mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", k_mean_all },
      { "mean(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", k_mean_dim },
    } },
  { FX_OP_FUNCTION, "torch.prod", { NULL }, CAT, "Product of elements, over all or one dim", 0, {
      { "prod(Tensor input, *, ScalarType? dtype=None) -> Tensor", k_prod_all },
      { "prod(Tensor input, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", k_prod_dim_out },
      { "prod(Tensor input, Dimname dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.prod", { NULL }, CAT, "Product of elements, over all or one dim", 0, {
      { "prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", k_prod_all },
      { "prod(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", k_prod_dim },
      { "prod(Tensor self, Dimname dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },

  /* extrema */
  { FX_OP_FUNCTION, "torch.max", { NULL }, CAT, "Maximum: of all elements, along a dim (values, indices), or elementwise", 0, {
      { "max(Tensor input) -> Tensor", k_max_all },
      { "max(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor", k_max_other_out },
      { "max(Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)", k_max_dim_out },
      { "max(Tensor input, Dimname dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.max", { NULL }, CAT, "Maximum: of all elements, along a dim (values, indices), or elementwise", 0, {
      { "max(Tensor self) -> Tensor", k_max_all },
      { "max(Tensor self, Tensor other) -> Tensor", k_max_other },
      { "max(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)", k_max_dim },
      { "max(Tensor self, Dimname dim, bool keepdim=False) -> (Tensor, Tensor)", kernel_dimname },
    } },
  { FX_OP_FUNCTION, "torch.min", { NULL }, CAT, "Minimum: of all elements, along a dim (values, indices), or elementwise", 0, {
      { "min(Tensor input) -> Tensor", k_min_all },
      { "min(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor", k_min_other_out },
      { "min(Tensor input, int dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)", k_min_dim_out },
      { "min(Tensor input, Dimname dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.min", { NULL }, CAT, "Minimum: of all elements, along a dim (values, indices), or elementwise", 0, {
      { "min(Tensor self) -> Tensor", k_min_all },
      { "min(Tensor self, Tensor other) -> Tensor", k_min_other },
      { "min(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)", k_min_dim },
      { "min(Tensor self, Dimname dim, bool keepdim=False) -> (Tensor, Tensor)", kernel_dimname },
    } },
  { FX_OP_FUNCTION, "torch.amax", { NULL }, CAT, "Maximum over dims (NaN propagates)", 0, {
      { "amax(Tensor input, int[1]? dim=[], bool keepdim=False, *, Tensor? out=None) -> Tensor", k_amax_out },
    } },
  { FX_OP_METHOD, "Tensor.amax", { NULL }, CAT, "Maximum over dims (NaN propagates)", 0, {
      { "amax(Tensor self, int[1]? dim=[], bool keepdim=False) -> Tensor", k_amax },
    } },
  { FX_OP_FUNCTION, "torch.amin", { NULL }, CAT, "Minimum over dims (NaN propagates)", 0, {
      { "amin(Tensor input, int[1]? dim=[], bool keepdim=False, *, Tensor? out=None) -> Tensor", k_amin_out },
    } },
  { FX_OP_METHOD, "Tensor.amin", { NULL }, CAT, "Minimum over dims (NaN propagates)", 0, {
      { "amin(Tensor self, int[1]? dim=[], bool keepdim=False) -> Tensor", k_amin },
    } },
  { FX_OP_FUNCTION, "torch.aminmax", { NULL }, CAT, "Minimum and maximum together", 0, {
      { "aminmax(Tensor input, *, int? dim=None, bool keepdim=False, Tensor[]? out=None) -> (Tensor, Tensor)", k_aminmax },
    } },
  { FX_OP_METHOD, "Tensor.aminmax", { NULL }, CAT, "Minimum and maximum together", 0, {
      { "aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor, Tensor)", k_aminmax_method },
    } },
  { FX_OP_FUNCTION, "torch.argmax", { NULL }, CAT, "Index of the maximum (first occurrence)", 0, {
      { "argmax(Tensor input, int? dim=None, bool keepdim=False) -> Tensor", k_argmax },
    } },
  { FX_OP_METHOD, "Tensor.argmax", { NULL }, CAT, "Index of the maximum (first occurrence)", 0, {
      { "argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", k_argmax },
    } },
  { FX_OP_FUNCTION, "torch.argmin", { NULL }, CAT, "Index of the minimum (first occurrence)", 0, {
      { "argmin(Tensor input, int? dim=None, bool keepdim=False) -> Tensor", k_argmin },
    } },
  { FX_OP_METHOD, "Tensor.argmin", { NULL }, CAT, "Index of the minimum (first occurrence)", 0, {
      { "argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", k_argmin },
    } },

  /* statistics and norms */
  { FX_OP_FUNCTION, "torch.var", { NULL }, CAT, "Variance (unbiased by default)", 0, {
      { "var(Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False, Tensor? out=None) -> Tensor", k_var_corr_out },
      { "var(Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_var_dim_out },
      { "var(Tensor input, bool unbiased=True) -> Tensor", k_var_all },
    } },
  { FX_OP_METHOD, "Tensor.var", { NULL }, CAT, "Variance (unbiased by default)", 0, {
      { "var(Tensor self, int[1]? dim, *, int? correction=None, bool keepdim=False) -> Tensor", k_var_corr },
      { "var(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", k_var_dim },
      { "var(Tensor self, bool unbiased=True) -> Tensor", k_var_all },
    } },
  { FX_OP_FUNCTION, "torch.std", { NULL }, CAT, "Standard deviation (unbiased by default)", 0, {
      { "std(Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False, Tensor? out=None) -> Tensor", k_std_corr_out },
      { "std(Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_std_dim_out },
      { "std(Tensor input, bool unbiased=True) -> Tensor", k_std_all },
    } },
  { FX_OP_METHOD, "Tensor.std", { NULL }, CAT, "Standard deviation (unbiased by default)", 0, {
      { "std(Tensor self, int[1]? dim, *, int? correction=None, bool keepdim=False) -> Tensor", k_std_corr },
      { "std(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor", k_std_dim },
      { "std(Tensor self, bool unbiased=True) -> Tensor", k_std_all },
    } },
  { FX_OP_FUNCTION, "torch.var_mean", { NULL }, CAT, "Variance and mean together", 0, {
      { "var_mean(Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False) -> (Tensor, Tensor)", k_var_mean_corr },
      { "var_mean(Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", k_var_mean_dim },
      { "var_mean(Tensor input, bool unbiased=True) -> (Tensor, Tensor)", k_var_mean_all },
    } },
  { FX_OP_FUNCTION, "torch.std_mean", { NULL }, CAT, "Standard deviation and mean together", 0, {
      { "std_mean(Tensor input, int[1]? dim, *, int? correction=None, bool keepdim=False) -> (Tensor, Tensor)", k_std_mean_corr },
      { "std_mean(Tensor input, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", k_std_mean_dim },
      { "std_mean(Tensor input, bool unbiased=True) -> (Tensor, Tensor)", k_std_mean_all },
    } },
  { FX_OP_FUNCTION, "torch.functional.norm", { "torch.norm", NULL }, CAT, "Vector or Frobenius norm over all or some dims", 0, {
      { "norm(Tensor input, Any p='fro', Any dim=None, bool keepdim=False, Any out=None, Any dtype=None) -> Tensor", k_norm },
    } },
  { FX_OP_METHOD, "Tensor.norm", { NULL }, CAT, "Vector or Frobenius norm over all or some dims", 0, {
      { "norm(Tensor self, Any p='fro', Any dim=None, bool keepdim=False, Any dtype=None) -> Tensor", k_norm_method },
    } },

  /* logic and counting */
  { FX_OP_FUNCTION, "torch.any", { NULL }, CAT, "Whether any element is non-zero", 0, {
      { "any(Tensor input, *, Tensor? out=None) -> Tensor", k_any_all_out },
      { "any(Tensor input, int dim, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_any_dim_out },
      { "any(Tensor input, Dimname dim, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_any_dimname },
    } },
  { FX_OP_METHOD, "Tensor.any", { NULL }, CAT, "Whether any element is non-zero", 0, {
      { "any(Tensor self) -> Tensor", k_any_all },
      { "any(Tensor self, int dim, bool keepdim=False) -> Tensor", k_any_dim },
      { "any(Tensor self, Dimname dim, bool keepdim=False) -> Tensor", k_any_dimname },
    } },
  { FX_OP_FUNCTION, "torch.all", { NULL }, CAT, "Whether all elements are non-zero", 0, {
      { "all(Tensor input, *, Tensor? out=None) -> Tensor", k_all_all_out },
      { "all(Tensor input, int dim, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_all_dim_out },
      { "all(Tensor input, Dimname dim, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_all_dimname },
    } },
  { FX_OP_METHOD, "Tensor.all", { NULL }, CAT, "Whether all elements are non-zero", 0, {
      { "all(Tensor self) -> Tensor", k_all_all },
      { "all(Tensor self, int dim, bool keepdim=False) -> Tensor", k_all_dim },
      { "all(Tensor self, Dimname dim, bool keepdim=False) -> Tensor", k_all_dimname },
    } },
  { FX_OP_FUNCTION, "torch.count_nonzero", { NULL }, CAT, "Number of non-zero elements", 0, {
      { "count_nonzero(Tensor input, int[] dim) -> Tensor", k_count_nonzero },
      { "count_nonzero(Tensor input, int? dim=None) -> Tensor", k_count_nonzero },
    } },
  { FX_OP_METHOD, "Tensor.count_nonzero", { NULL }, CAT, "Number of non-zero elements", 0, {
      { "count_nonzero(Tensor self, int[] dim) -> Tensor", k_count_nonzero },
      { "count_nonzero(Tensor self, int? dim=None) -> Tensor", k_count_nonzero },
    } },
  { FX_OP_FUNCTION, "torch.logsumexp", { NULL }, CAT, "log(sum(exp(x))) over dims, computed stably", 0, {
      { "logsumexp(Tensor input, int[1] dim, bool keepdim=False, *, Tensor? out=None) -> Tensor", k_logsumexp_out },
      { "logsumexp(Tensor input, Dimname dim, bool keepdim=False, *, Tensor? out=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.logsumexp", { NULL }, CAT, "log(sum(exp(x))) over dims, computed stably", 0, {
      { "logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", k_logsumexp },
      { "logsumexp(Tensor self, Dimname dim, bool keepdim=False) -> Tensor", kernel_dimname },
    } },

  /* ordering */
  { FX_OP_FUNCTION, "torch.sort", { NULL }, "sorting", "Sorted values and their indices along a dim", 0, {
      { "sort(Tensor input, *, bool? stable, int dim=-1, bool descending=False, Tensor[]? out=None) -> (Tensor, Tensor)", k_sort_stable_out },
      { "sort(Tensor input, int dim=-1, bool descending=False, *, Tensor[]? out=None) -> (Tensor, Tensor)", k_sort_out },
      { "sort(Tensor input, *, bool? stable, Dimname dim, bool descending=False, Tensor[]? out=None) -> (Tensor, Tensor)", k_sort_dimname },
      { "sort(Tensor input, Dimname dim, bool descending=False, *, Tensor[]? out=None) -> (Tensor, Tensor)", k_sort_dimname },
    } },
  { FX_OP_METHOD, "Tensor.sort", { NULL }, "sorting", "Sorted values and their indices along a dim", 0, {
      { "sort(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor, Tensor)", k_sort_stable },
      { "sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor, Tensor)", k_sort },
      { "sort(Tensor self, *, bool? stable, Dimname dim, bool descending=False) -> (Tensor, Tensor)", k_sort_dimname },
      { "sort(Tensor self, Dimname dim, bool descending=False) -> (Tensor, Tensor)", k_sort_dimname },
    } },
  { FX_OP_FUNCTION, "torch.argsort", { NULL }, "sorting", "Indices that sort a tensor along a dim", 0, {
      { "argsort(Tensor input, *, bool stable, int dim=-1, bool descending=False) -> Tensor", k_argsort_stable },
      { "argsort(Tensor input, int dim=-1, bool descending=False) -> Tensor", k_argsort },
      { "argsort(Tensor input, Dimname dim, bool descending=False) -> Tensor", k_argsort_dimname },
    } },
  { FX_OP_METHOD, "Tensor.argsort", { NULL }, "sorting", "Indices that sort a tensor along a dim", 0, {
      { "argsort(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor", k_argsort_stable },
      { "argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", k_argsort },
      { "argsort(Tensor self, Dimname dim, bool descending=False) -> Tensor", k_argsort_dimname },
    } },
  { FX_OP_FUNCTION, "torch.topk", { NULL }, "sorting", "The k largest (or smallest) values and their indices", 0, {
      { "topk(Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor[]? out=None) -> (Tensor, Tensor)", k_topk_out },
    } },
  { FX_OP_METHOD, "Tensor.topk", { NULL }, "sorting", "The k largest (or smallest) values and their indices", 0, {
      { "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor, Tensor)", k_topk },
    } },

  /* scans */
  { FX_OP_FUNCTION, "torch.cumsum", { NULL }, CAT, "Cumulative sum along a dim", 0, {
      { "cumsum(Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", k_cumsum_out },
      { "cumsum(Tensor input, Dimname dim, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.cumsum", { NULL }, CAT, "Cumulative sum along a dim", 0, {
      { "cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", k_cumsum },
      { "cumsum(Tensor self, Dimname dim, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_FUNCTION, "torch.cumprod", { NULL }, CAT, "Cumulative product along a dim", 0, {
      { "cumprod(Tensor input, int dim, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", k_cumprod_out },
      { "cumprod(Tensor input, Dimname dim, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.cumprod", { NULL }, CAT, "Cumulative product along a dim", 0, {
      { "cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", k_cumprod },
      { "cumprod(Tensor self, Dimname dim, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },

  /* softmax */
  { FX_OP_FUNCTION, "torch.softmax", { NULL }, "activation", "Softmax along a dim", 0, {
      { "softmax(Tensor input, int dim, ScalarType? dtype=None, *, Tensor? out=None) -> Tensor", k_softmax_out },
      { "softmax(Tensor input, Dimname dim, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.softmax", { NULL }, "activation", "Softmax along a dim", 0, {
      { "softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", k_softmax },
      { "softmax(Tensor self, Dimname dim, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_FUNCTION, "torch.log_softmax", { NULL }, "activation", "Log of the softmax along a dim", 0, {
      { "log_softmax(Tensor input, int dim, ScalarType? dtype=None, *, Tensor? out=None) -> Tensor", k_log_softmax_out },
      { "log_softmax(Tensor input, Dimname dim, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_METHOD, "Tensor.log_softmax", { NULL }, "activation", "Log of the softmax along a dim", 0, {
      { "log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", k_log_softmax },
      { "log_softmax(Tensor self, Dimname dim, *, ScalarType? dtype=None) -> Tensor", kernel_dimname },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.softmax", { NULL }, "activation", "Softmax along a dim (dim=None picks one as PyTorch does)", 0, {
      { "softmax(Tensor input, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor", k_f_softmax },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.log_softmax", { NULL }, "activation", "Log-softmax along a dim (dim=None picks one as PyTorch does)", 0, {
      { "log_softmax(Tensor input, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor", k_f_log_softmax },
    } },
  { .path = NULL },
};
