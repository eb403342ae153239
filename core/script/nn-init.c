/* nn-init.c: torch.nn.init for scripts — the registry's init ops (uniform_, kaiming_normal_,
 * calculate_gain, ...) plus trunc_normal_ and the fan helpers, drawing from torch's default
 * generator in PyTorch's order. */
#include "script/nn-private.h"
#include "tensor/random.h"
#include "ops/op.h"

#include <math.h>
#include <string.h>

/* erfinv in double: a rational first guess refined by Newton steps on erf. */
static double
erfinv_double (double y)
{
  double w, x;
  if (y <= -1.0)
    return y == -1.0 ? -INFINITY : NAN;
  if (y >= 1.0)
    return y == 1.0 ? INFINITY : NAN;
  w = -log ((1.0 - y) * (1.0 + y));
  if (w < 5.0)
    {
      w -= 2.5;
      x = 2.81022636e-08;
      x = 3.43273939e-07 + x * w;
      x = -3.5233877e-06 + x * w;
      x = -4.39150654e-06 + x * w;
      x = 0.00021858087 + x * w;
      x = -0.00125372503 + x * w;
      x = -0.00417768164 + x * w;
      x = 0.246640727 + x * w;
      x = 1.50140941 + x * w;
    }
  else
    {
      w = sqrt (w) - 3.0;
      x = -0.000200214257;
      x = 0.000100950558 + x * w;
      x = 0.00134934322 + x * w;
      x = -0.00367342844 + x * w;
      x = 0.00573950773 + x * w;
      x = -0.0076224613 + x * w;
      x = 0.00943887047 + x * w;
      x = 1.00167406 + x * w;
      x = 2.83297682 + x * w;
    }
  x *= y;
  for (int i = 0; i < 3; i++)
    x -= (erf (x) - y) / (2.0 / sqrt (G_PI) * exp (-x * x));
  return x;
}

static double
norm_cdf (double x)
{
  return (1.0 + erf (x / sqrt (2.0))) / 2.0;
}

static gboolean
as_float (FxScript *S, const FxValue *v, double dflt, double *out)
{
  if (v == NULL)
    {
      *out = dflt;
      return TRUE;
    }
  return fx_script_to_float (S, v, out);
}

/* trunc_normal_(tensor, mean=0., std=1., a=-2., b=2.) */
static gboolean
init_trunc_normal (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  static const char *const names[] = { "tensor", "mean", "std", "a", "b" };
  const FxValue *a[5] = { NULL };
  double mean, std, lo, hi, l, u, scale;
  GError *error = NULL;
  FxTensor *t;
  FxStridedIter it;
  (void) data;
  if (!fx_script_parse_args (S, "trunc_normal_", args, n_args, kwargs, names, 5, 5, 1, a)
      || !as_float (S, a[1], 0.0, &mean) || !as_float (S, a[2], 1.0, &std)
      || !as_float (S, a[3], -2.0, &lo) || !as_float (S, a[4], 2.0, &hi))
    return FALSE;
  if (a[0]->kind != FX_VALUE_TENSOR)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'uniform_'",
                     sc_type_name (S, a[0]));
  t = a[0]->tensor;
  if (t->dtype != FX_DTYPE_FLOAT32 && t->dtype != FX_DTYPE_FLOAT64)
    return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "trunc_normal_ supports float32 and float64 "
                     "tensors in libfx, not %s", fx_dtype_name (t->dtype));
  if (mean < lo - 2 * std || mean > hi + 2 * std)
    if (!sc_warn (S, "UserWarning", "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                  "The distribution of values may be incorrect.", 2))
      return FALSE;
  l = norm_cdf ((lo - mean) / std);
  u = norm_cdf ((hi - mean) / std);
  if (!fx_init_uniform_ (t, 2 * l - 1, 2 * u - 1, NULL, &error))
    return nn_raise_gerror (S, error);
  scale = std * sqrt (2.0);
  fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
  while (fx_strided_iter_next (&it))
    {
      if (t->dtype == FX_DTYPE_FLOAT32)
        {
          float *p = (float *) fx_tensor_data (t) + it.offset;
          float x = (float) erfinv_double (*p);
          x = x * (float) scale;
          x = x + (float) mean;
          *p = x < (float) lo ? (float) lo : x > (float) hi ? (float) hi : x;
        }
      else
        {
          double *p = (double *) fx_tensor_data (t) + it.offset;
          double x = erfinv_double (*p) * scale + mean;
          *p = x < lo ? lo : x > hi ? hi : x;
        }
    }
  *result = fx_value_copy (a[0]);
  return TRUE;
}

/* orthogonal_(tensor, gain=1): a normal draw of shape (rows, numel / rows), made orthonormal
 * by QR with R's diagonal made positive — computed here by modified Gram-Schmidt in double,
 * which yields that same Q. */
static gboolean
init_orthogonal (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                 FxValue *result, gpointer data)
{
  static const char *const names[] = { "tensor", "gain" };
  const FxValue *a[2] = { NULL, NULL };
  double gain;
  GError *error = NULL;
  FxTensor *t, *draw;
  int64_t rows, cols, m, n, shape[2];
  double *q;
  gboolean transposed;
  (void) data;
  if (!fx_script_parse_args (S, "orthogonal_", args, n_args, kwargs, names, 2, 2, 1, a)
      || !as_float (S, a[1], 1.0, &gain))
    return FALSE;
  if (a[0]->kind != FX_VALUE_TENSOR)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'ndimension'",
                     sc_type_name (S, a[0]));
  t = a[0]->tensor;
  if (t->ndim < 2)
    return sc_raise (S, SC_T_VALUE_ERROR, "Only tensors with 2 or more dimensions are supported");
  if (t->dtype != FX_DTYPE_FLOAT32 && t->dtype != FX_DTYPE_FLOAT64)
    return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "orthogonal_ supports float32 and float64 "
                     "tensors in libfx, not %s", fx_dtype_name (t->dtype));
  if (fx_tensor_numel (t) == 0)
    {
      *result = fx_value_copy (a[0]);
      return TRUE;
    }
  rows = t->shape[0];
  cols = fx_tensor_numel (t) / rows;
  shape[0] = rows;
  shape[1] = cols;
  draw = fx_tensor_zeros (t->dtype, 2, shape);
  if (!fx_init_normal_ (draw, 0.0, 1.0, NULL, &error))
    {
      fx_tensor_unref (draw);
      return nn_raise_gerror (S, error);
    }
  transposed = rows < cols;
  m = transposed ? cols : rows;   /* the matrix factored is m x n, m >= n */
  n = transposed ? rows : cols;
  q = g_new (double, m * n);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      q[i * n + j] = fx_tensor_get_double (draw, transposed ? j * cols + i : i * cols + j);
  fx_tensor_unref (draw);
  for (int64_t j = 0; j < n; j++)
    {
      double norm = 0.0;
      for (int64_t k = 0; k < j; k++)
        {
          double r = 0.0;
          for (int64_t i = 0; i < m; i++)
            r += q[i * n + k] * q[i * n + j];
          for (int64_t i = 0; i < m; i++)
            q[i * n + j] -= r * q[i * n + k];
        }
      for (int64_t i = 0; i < m; i++)
        norm += q[i * n + j] * q[i * n + j];
      norm = sqrt (norm);
      for (int64_t i = 0; i < m; i++)
        q[i * n + j] = norm > 0.0 ? q[i * n + j] / norm : 0.0;
    }
  {
    /* tensor.view_as(q).copy_(q); tensor.mul_(gain) — row-major over the tensor's elements */
    FxStridedIter it;
    int64_t flat = 0;
    fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
    while (fx_strided_iter_next (&it))
      {
        int64_t r = flat / cols, c = flat % cols;
        double v = transposed ? q[c * n + r] : q[r * n + c];
        if (t->dtype == FX_DTYPE_FLOAT32)
          {
            float *p = (float *) fx_tensor_data (t) + it.offset;
            *p = (float) v * (float) gain;
          }
        else
          {
            double *p = (double *) fx_tensor_data (t) + it.offset;
            *p = v * gain;
          }
        flat++;
      }
  }
  g_free (q);
  *result = fx_value_copy (a[0]);
  return TRUE;
}

static gboolean
init_fan_in_and_out (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer data)
{
  static const char *const names[] = { "tensor" };
  const FxValue *a[1];
  int64_t fan_in, fan_out;
  GError *error = NULL;
  (void) data;
  if (!fx_script_parse_args (S, "_calculate_fan_in_and_fan_out", args, n_args, kwargs, names, 1,
                             1, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_TENSOR)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'dim'",
                     sc_type_name (S, a[0]));
  if (!fx_init_fan_in_and_out (a[0]->tensor, &fan_in, &fan_out, &error))
    return nn_raise_gerror (S, error);
  {
    int64_t v[2] = { fan_in, fan_out };
    *result = fx_value_int_tuple (NULL, 2, v);
  }
  return TRUE;
}

static gboolean
init_correct_fan (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                  FxValue *result, gpointer data)
{
  static const char *const names[] = { "tensor", "mode" };
  const FxValue *a[2];
  int64_t fan_in, fan_out;
  GError *error = NULL;
  const char *mode;
  (void) data;
  if (!fx_script_parse_args (S, "_calculate_correct_fan", args, n_args, kwargs, names, 2, 2, 2, a))
    return FALSE;
  if (a[1]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'lower'",
                     sc_type_name (S, a[1]));
  if (a[0]->kind != FX_VALUE_TENSOR)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute 'dim'",
                     sc_type_name (S, a[0]));
  mode = a[1]->s->data;
  if (g_ascii_strcasecmp (mode, "fan_in") != 0 && g_ascii_strcasecmp (mode, "fan_out") != 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "Mode %s not supported, please use one of fan_in, "
                     "fan_out", g_ascii_strdown (mode, -1));
  if (!fx_init_fan_in_and_out (a[0]->tensor, &fan_in, &fan_out, &error))
    return nn_raise_gerror (S, error);
  *result = fx_value_int (g_ascii_strcasecmp (mode, "fan_in") == 0 ? fan_in : fan_out);
  return TRUE;
}

gboolean
nn_init_module_init (FxScript *S, FxScriptModule *mod, gpointer user_data)
{
  const FxOp *const *ops;
  guint n;
  (void) user_data;
  fx_ops_init ();
  ops = fx_ops_all (&n);
  for (guint i = 0; i < n; i++)
    {
      const FxOp *op = ops[i];
      const char *prefix = "torch.nn.init.";
      if (op->kind == FX_OP_FUNCTION && g_str_has_prefix (op->qualified_name, prefix)
          && strchr (op->qualified_name + strlen (prefix), '.') == NULL)
        fx_script_module_set (mod, op->qualified_name + strlen (prefix), fx_value_op (op));
    }
  fx_script_module_add_function (mod, "trunc_normal_", init_trunc_normal, NULL);
  fx_script_module_add_function (mod, "orthogonal_", init_orthogonal, NULL);
  fx_script_module_add_function (mod, "_calculate_fan_in_and_fan_out", init_fan_in_and_out, NULL);
  fx_script_module_add_function (mod, "_calculate_correct_fan", init_correct_fan, NULL);
  return TRUE;
}
