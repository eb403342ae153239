/* ops-elementwise.c: registry entries of the pointwise ops — torch.X / Tensor.X / Tensor.X_
 * math and comparisons, the torch.nn.functional activations, and the Python operators
 * (operator.add, ...), which also compute on plain Python numbers and sequences with
 * Python's own semantics since FX interpreters call them on ints as often as on tensors. */
#include "ops/op-table.h"
#include "tensor/elementwise.h"
#include "fx-error.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

/* A new reference: tensors as they are, Python numbers as wrapped numbers; NULL otherwise. */
static FxTensor *
value_to_tensor (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_TENSOR: return fx_tensor_ref (v->tensor);
    case FX_VALUE_BOOL:   return fx_tensor_wrap_bool (v->b);
    case FX_VALUE_INT:    return fx_tensor_wrap_int64 (v->i);
    case FX_VALUE_FLOAT:  return fx_tensor_wrap_double (v->f);
    default:              return NULL;
    }
}

/* Borrowed: a tensor as it is, a Python number boxed as a wrapped number in *box (no
 * allocation, valid while box is); NULL otherwise. For ops that keep no reference to their
 * inputs (the binary ones). */
static FxTensor *
value_as_tensor (const FxValue *v, FxScalarBox *box)
{
  switch (v->kind)
    {
    case FX_VALUE_TENSOR: return v->tensor;
    case FX_VALUE_BOOL:   return fx_scalar_box_bool (box, v->b);
    case FX_VALUE_INT:    return fx_scalar_box_int64 (box, v->i);
    case FX_VALUE_FLOAT:  return fx_scalar_box_double (box, v->f);
    default:              return NULL;
    }
}

static gboolean
is_number (const FxValue *v)
{
  return v->kind == FX_VALUE_BOOL || v->kind == FX_VALUE_INT || v->kind == FX_VALUE_FLOAT;
}

/* The result r (taken), or with out= a copy of it in out, which becomes the result. */
static gboolean
finish (FxValue *result, FxTensor *r, const FxValue *out, GError **error)
{
  FxTensor *o;
  gboolean ok;

  if (r == NULL)
    return FALSE;
  if (out == NULL || out->kind != FX_VALUE_TENSOR)
    return fx_result_tensor (result, r);
  o = out->tensor;
  if (!fx_dtype_can_cast (r->dtype, o->dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "result type %s can't be cast to the desired output type %s",
                   fx_dtype_scalar_type_name (r->dtype), fx_dtype_scalar_type_name (o->dtype));
      fx_tensor_unref (r);
      return FALSE;
    }
  if (!fx_tensor_same_shape (o, r))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "out= with a tensor of another shape is not supported");
      fx_tensor_unref (r);
      return FALSE;
    }
  ok = fx_tensor_copy_into (o, r, error);
  fx_tensor_unref (r);
  if (ok)
    *result = fx_value_tensor (o);
  return ok;
}

#define KERNEL(name) static gboolean name (const FxValue *argv, FxValue *result, GError **error)
#define UNUSED_KERNEL(name) G_GNUC_UNUSED KERNEL (name)

/* ------------------------------------------------------------------ unary */

static gboolean
unary (FxUnaryOp op, const FxValue *x, double p0, double p1, gboolean inplace,
       const FxValue *out, FxValue *result, GError **error)
{
  FxTensor *t = x->tensor;
  return finish (result, inplace ? fx_tensor_unary_ (op, t, p0, p1, error)
                                 : fx_tensor_unary (op, t, p0, p1, error), out, error);
}

/* torch.X(input, *, out=None), Tensor.X(self), Tensor.X_(self) / torch.X_(input) */
#define UNARY_KERNELS(name, OP)                                                           \
  UNUSED_KERNEL (k_##name) { return unary (OP, &argv[0], 0, 0, FALSE, &argv[1], result, error); } \
  UNUSED_KERNEL (k_##name##_m) { return unary (OP, &argv[0], 0, 0, FALSE, NULL, result, error); } \
  UNUSED_KERNEL (k_##name##_i) { return unary (OP, &argv[0], 0, 0, TRUE, NULL, result, error); }

UNARY_KERNELS (neg, FX_UNARY_NEG)
UNARY_KERNELS (abs, FX_UNARY_ABS)
UNARY_KERNELS (exp, FX_UNARY_EXP)
UNARY_KERNELS (exp2, FX_UNARY_EXP2)
UNARY_KERNELS (expm1, FX_UNARY_EXPM1)
UNARY_KERNELS (log, FX_UNARY_LOG)
UNARY_KERNELS (log2, FX_UNARY_LOG2)
UNARY_KERNELS (log10, FX_UNARY_LOG10)
UNARY_KERNELS (log1p, FX_UNARY_LOG1P)
UNARY_KERNELS (sqrt, FX_UNARY_SQRT)
UNARY_KERNELS (rsqrt, FX_UNARY_RSQRT)
UNARY_KERNELS (reciprocal, FX_UNARY_RECIPROCAL)
UNARY_KERNELS (square, FX_UNARY_SQUARE)
UNARY_KERNELS (sin, FX_UNARY_SIN)
UNARY_KERNELS (cos, FX_UNARY_COS)
UNARY_KERNELS (tan, FX_UNARY_TAN)
UNARY_KERNELS (asin, FX_UNARY_ASIN)
UNARY_KERNELS (acos, FX_UNARY_ACOS)
UNARY_KERNELS (atan, FX_UNARY_ATAN)
UNARY_KERNELS (sinh, FX_UNARY_SINH)
UNARY_KERNELS (cosh, FX_UNARY_COSH)
UNARY_KERNELS (tanh, FX_UNARY_TANH)
UNARY_KERNELS (erf, FX_UNARY_ERF)
UNARY_KERNELS (sigmoid, FX_UNARY_SIGMOID)
UNARY_KERNELS (relu, FX_UNARY_RELU)
UNARY_KERNELS (floor, FX_UNARY_FLOOR)
UNARY_KERNELS (ceil, FX_UNARY_CEIL)
UNARY_KERNELS (trunc, FX_UNARY_TRUNC)
UNARY_KERNELS (frac, FX_UNARY_FRAC)
UNARY_KERNELS (sign, FX_UNARY_SIGN)
UNARY_KERNELS (logical_not, FX_UNARY_LOGICAL_NOT)
UNARY_KERNELS (bitwise_not, FX_UNARY_BITWISE_NOT)
UNARY_KERNELS (isnan, FX_UNARY_ISNAN)
UNARY_KERNELS (isinf, FX_UNARY_ISINF)
UNARY_KERNELS (isfinite, FX_UNARY_ISFINITE)
UNARY_KERNELS (positive, FX_UNARY_POSITIVE)

/* round(input, *, decimals, out) */
KERNEL (k_round) { return unary (FX_UNARY_ROUND, &argv[0], 0, 0, FALSE, &argv[1], result, error); }
KERNEL (k_round_m) { return unary (FX_UNARY_ROUND, &argv[0], 0, 0, FALSE, NULL, result, error); }
KERNEL (k_round_i) { return unary (FX_UNARY_ROUND, &argv[0], 0, 0, TRUE, NULL, result, error); }
static double
decimals_arg (const FxValue *v)
{
  return (double) CLAMP (fx_arg_int (v), -1000, 1000);
}
KERNEL (k_round_dec) { return unary (FX_UNARY_ROUND, &argv[0], decimals_arg (&argv[1]), 1, FALSE, &argv[2], result, error); }
KERNEL (k_round_dec_m) { return unary (FX_UNARY_ROUND, &argv[0], decimals_arg (&argv[1]), 1, FALSE, NULL, result, error); }
KERNEL (k_round_dec_i) { return unary (FX_UNARY_ROUND, &argv[0], decimals_arg (&argv[1]), 1, TRUE, NULL, result, error); }

/* ------------------------------------------------------------------ activations */

/* torch.nn.functional.X(input, inplace=False) */
#define F_INPLACE_KERNEL(name, OP)                                                        \
  KERNEL (k_f_##name) { return unary (OP, &argv[0], 0, 0, fx_arg_bool (&argv[1]), NULL, result, error); }

F_INPLACE_KERNEL (relu, FX_UNARY_RELU)
F_INPLACE_KERNEL (relu6, FX_UNARY_RELU6)
F_INPLACE_KERNEL (silu, FX_UNARY_SILU)
F_INPLACE_KERNEL (hardswish, FX_UNARY_HARDSWISH)
F_INPLACE_KERNEL (hardsigmoid, FX_UNARY_HARDSIGMOID)

/* hardtanh(input, min_val=-1., max_val=1., inplace=False) */
KERNEL (k_f_hardtanh)
{
  return unary (FX_UNARY_HARDTANH, &argv[0], fx_arg_float (&argv[1]), fx_arg_float (&argv[2]),
                fx_arg_bool (&argv[3]), NULL, result, error);
}
KERNEL (k_hardtanh_i)
{
  return unary (FX_UNARY_HARDTANH, &argv[0], fx_arg_float (&argv[1]), fx_arg_float (&argv[2]),
                TRUE, NULL, result, error);
}
/* leaky_relu(input, negative_slope=0.01, inplace=False) */
KERNEL (k_f_leaky_relu)
{
  return unary (FX_UNARY_LEAKY_RELU, &argv[0], fx_arg_float (&argv[1]), 0,
                fx_arg_bool (&argv[2]), NULL, result, error);
}
KERNEL (k_leaky_relu_i)
{
  return unary (FX_UNARY_LEAKY_RELU, &argv[0], fx_arg_float (&argv[1]), 0, TRUE, NULL, result,
                error);
}
/* elu(input, alpha=1.0, inplace=False) */
KERNEL (k_f_elu)
{
  return unary (FX_UNARY_ELU, &argv[0], fx_arg_float (&argv[1]), 0, fx_arg_bool (&argv[2]),
                NULL, result, error);
}
KERNEL (k_elu_i)
{
  return unary (FX_UNARY_ELU, &argv[0], fx_arg_float (&argv[1]), 0, TRUE, NULL, result, error);
}
/* gelu(input, *, approximate='none') */
KERNEL (k_gelu)
{
  const char *mode = argv[1].kind == FX_VALUE_STR ? argv[1].s->data : "none";
  gboolean tanh_approx = g_str_equal (mode, "tanh");
  if (!tanh_approx && !g_str_equal (mode, "none"))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "approximate argument must be either none or tanh.");
      return FALSE;
    }
  return unary (FX_UNARY_GELU, &argv[0], tanh_approx, 0, FALSE, NULL, result, error);
}
/* softplus(input, beta=1, threshold=20) */
KERNEL (k_softplus)
{
  return unary (FX_UNARY_SOFTPLUS, &argv[0], fx_arg_float (&argv[1]), fx_arg_float (&argv[2]),
                FALSE, NULL, result, error);
}

/* ------------------------------------------------------------------ binary */

static gboolean
binary (FxBinaryOp op, const FxValue *a, const FxValue *b, gboolean inplace, const FxValue *out,
        FxValue *result, GError **error)
{
  FxScalarBox box_a, box_b;
  FxTensor *ta = value_as_tensor (a, &box_a), *tb = value_as_tensor (b, &box_b), *r = NULL;
  if (ta && tb)
    r = inplace ? fx_tensor_binary_ (op, ta, tb, error) : fx_tensor_binary (op, ta, tb, error);
  else
    g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "expected a Tensor or a number");
  return finish (result, r, out, error);
}

/* torch.X(input, other, *, out=None), Tensor.X(self, other), Tensor.X_(self, other) */
#define BINARY_KERNELS(name, OP)                                                          \
  UNUSED_KERNEL (k_##name) { return binary (OP, &argv[0], &argv[1], FALSE, &argv[2], result, error); } \
  UNUSED_KERNEL (k_##name##_m) { return binary (OP, &argv[0], &argv[1], FALSE, NULL, result, error); } \
  UNUSED_KERNEL (k_##name##_i) { return binary (OP, &argv[0], &argv[1], TRUE, NULL, result, error); }

BINARY_KERNELS (mul, FX_BINARY_MUL)
BINARY_KERNELS (true_divide, FX_BINARY_DIV)
BINARY_KERNELS (floor_divide, FX_BINARY_DIV_FLOOR)
BINARY_KERNELS (remainder, FX_BINARY_REMAINDER)
BINARY_KERNELS (fmod, FX_BINARY_FMOD)
BINARY_KERNELS (maximum, FX_BINARY_MAXIMUM)
BINARY_KERNELS (minimum, FX_BINARY_MINIMUM)
BINARY_KERNELS (eq, FX_BINARY_EQ)
BINARY_KERNELS (ne, FX_BINARY_NE)
BINARY_KERNELS (lt, FX_BINARY_LT)
BINARY_KERNELS (le, FX_BINARY_LE)
BINARY_KERNELS (gt, FX_BINARY_GT)
BINARY_KERNELS (ge, FX_BINARY_GE)
BINARY_KERNELS (logical_and, FX_BINARY_LOGICAL_AND)
BINARY_KERNELS (logical_or, FX_BINARY_LOGICAL_OR)
BINARY_KERNELS (logical_xor, FX_BINARY_LOGICAL_XOR)
BINARY_KERNELS (bitwise_and, FX_BINARY_BITWISE_AND)
BINARY_KERNELS (bitwise_or, FX_BINARY_BITWISE_OR)
BINARY_KERNELS (bitwise_xor, FX_BINARY_BITWISE_XOR)

/* add / sub: a ± alpha * b */
static gboolean
add_sub (gboolean sub, const FxValue *a, const FxValue *b, const FxValue *alpha,
         gboolean inplace, const FxValue *out, FxValue *result, GError **error)
{
  FxScalarBox box_a, box_b, box_alpha;
  FxTensor *ta = value_as_tensor (a, &box_a), *tb = value_as_tensor (b, &box_b), *r = NULL;
  FxTensor *tal = alpha && !fx_arg_is_none (alpha) ? value_as_tensor (alpha, &box_alpha) : NULL;
  if (ta && tb)
    r = fx_tensor_add_alpha (ta, tb, tal, sub, inplace, error);
  else
    g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "expected a Tensor or a number");
  return finish (result, r, out, error);
}

/* (input, other, *, alpha, out) / methods (self, other, alpha) / deprecated (input, alpha, other, *, out) */
KERNEL (k_add) { return add_sub (FALSE, &argv[0], &argv[1], &argv[2], FALSE, &argv[3], result, error); }
KERNEL (k_add_m) { return add_sub (FALSE, &argv[0], &argv[1], &argv[2], FALSE, NULL, result, error); }
KERNEL (k_add_i) { return add_sub (FALSE, &argv[0], &argv[1], &argv[2], TRUE, NULL, result, error); }
KERNEL (k_add_dep) { return add_sub (FALSE, &argv[0], &argv[2], &argv[1], FALSE, &argv[3], result, error); }
KERNEL (k_add_dep_m) { return add_sub (FALSE, &argv[0], &argv[2], &argv[1], FALSE, NULL, result, error); }
KERNEL (k_add_dep_i) { return add_sub (FALSE, &argv[0], &argv[2], &argv[1], TRUE, NULL, result, error); }
KERNEL (k_sub) { return add_sub (TRUE, &argv[0], &argv[1], &argv[2], FALSE, &argv[3], result, error); }
KERNEL (k_sub_m) { return add_sub (TRUE, &argv[0], &argv[1], &argv[2], FALSE, NULL, result, error); }
KERNEL (k_sub_i) { return add_sub (TRUE, &argv[0], &argv[1], &argv[2], TRUE, NULL, result, error); }
KERNEL (k_sub_dep) { return add_sub (TRUE, &argv[0], &argv[2], &argv[1], FALSE, &argv[3], result, error); }
KERNEL (k_sub_dep_m) { return add_sub (TRUE, &argv[0], &argv[2], &argv[1], FALSE, NULL, result, error); }
KERNEL (k_sub_dep_i) { return add_sub (TRUE, &argv[0], &argv[2], &argv[1], TRUE, NULL, result, error); }

/* div(input, other, *, rounding_mode=None, out=None) */
static gboolean
div_mode (const FxValue *a, const FxValue *b, const FxValue *mode, gboolean inplace,
          const FxValue *out, FxValue *result, GError **error)
{
  FxBinaryOp op = FX_BINARY_DIV;
  if (mode && mode->kind == FX_VALUE_STR)
    {
      if (g_str_equal (mode->s->data, "trunc"))
        op = FX_BINARY_DIV_TRUNC;
      else if (g_str_equal (mode->s->data, "floor"))
        op = FX_BINARY_DIV_FLOOR;
      else
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                       "found '%s'", mode->s->data);
          return FALSE;
        }
    }
  return binary (op, a, b, inplace, out, result, error);
}

KERNEL (k_div) { return div_mode (&argv[0], &argv[1], NULL, FALSE, &argv[2], result, error); }
KERNEL (k_div_rm) { return div_mode (&argv[0], &argv[1], &argv[2], FALSE, &argv[3], result, error); }
KERNEL (k_div_rm_noout) { return div_mode (&argv[0], &argv[1], &argv[2], FALSE, NULL, result, error); }
KERNEL (k_div_m) { return div_mode (&argv[0], &argv[1], NULL, FALSE, NULL, result, error); }
KERNEL (k_div_rm_m) { return div_mode (&argv[0], &argv[1], &argv[2], FALSE, NULL, result, error); }
KERNEL (k_div_rm_i) { return div_mode (&argv[0], &argv[1], &argv[2], TRUE, NULL, result, error); }

/* pow: tensor ** number takes the scalar-exponent path */
static gboolean
pow_values (const FxValue *a, const FxValue *e, gboolean inplace, const FxValue *out,
            FxValue *result, GError **error)
{
  FxTensor *ta = value_to_tensor (a), *te = value_to_tensor (e), *r = NULL;
  if (ta && te)
    {
      if (a->kind == FX_VALUE_TENSOR && is_number (e))
        r = fx_tensor_pow_scalar (ta, te, inplace, error);
      else
        r = inplace ? fx_tensor_binary_ (FX_BINARY_POW, ta, te, error)
                    : fx_tensor_binary (FX_BINARY_POW, ta, te, error);
    }
  else
    g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "expected a Tensor or a number");
  g_clear_pointer (&ta, fx_tensor_unref);
  g_clear_pointer (&te, fx_tensor_unref);
  return finish (result, r, out, error);
}

KERNEL (k_pow)
{
  const FxValue *out = &argv[2];
  if (out->kind == FX_VALUE_TENSOR && argv[0].kind == FX_VALUE_TENSOR && is_number (&argv[1]))
    {
      /* pow(Tensor, Scalar) writes only into its own result dtype */
      FxTensor *e = value_to_tensor (&argv[1]);
      FxTensor *ins[2] = { argv[0].tensor, e };
      FxDType rdt = fx_tensor_result_type (2, ins);
      fx_tensor_unref (e);
      if (rdt != out->tensor->dtype)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Found dtype %s but expected %s",
                       fx_dtype_scalar_type_name (out->tensor->dtype),
                       fx_dtype_scalar_type_name (rdt));
          return FALSE;
        }
    }
  return pow_values (&argv[0], &argv[1], FALSE, out, result, error);
}
KERNEL (k_pow_m) { return pow_values (&argv[0], &argv[1], FALSE, NULL, result, error); }
KERNEL (k_pow_i) { return pow_values (&argv[0], &argv[1], TRUE, NULL, result, error); }

/* ------------------------------------------------------------------ clamp */

static gboolean
clamp_values (const FxValue *x, const FxValue *lo, const FxValue *hi, gboolean inplace,
              const FxValue *out, FxValue *result, GError **error)
{
  FxTensor *tlo = lo && !fx_arg_is_none (lo) ? value_to_tensor (lo) : NULL;
  FxTensor *thi = hi && !fx_arg_is_none (hi) ? value_to_tensor (hi) : NULL;
  FxTensor *r = fx_tensor_clamp (x->tensor, tlo, thi, inplace, error);
  g_clear_pointer (&tlo, fx_tensor_unref);
  g_clear_pointer (&thi, fx_tensor_unref);
  return finish (result, r, out, error);
}

KERNEL (k_clamp) { return clamp_values (&argv[0], &argv[1], &argv[2], FALSE, &argv[3], result, error); }
KERNEL (k_clamp_m) { return clamp_values (&argv[0], &argv[1], &argv[2], FALSE, NULL, result, error); }
KERNEL (k_clamp_i) { return clamp_values (&argv[0], &argv[1], &argv[2], TRUE, NULL, result, error); }
KERNEL (k_clamp_min) { return clamp_values (&argv[0], &argv[1], NULL, FALSE, &argv[2], result, error); }
KERNEL (k_clamp_min_m) { return clamp_values (&argv[0], &argv[1], NULL, FALSE, NULL, result, error); }
KERNEL (k_clamp_min_i) { return clamp_values (&argv[0], &argv[1], NULL, TRUE, NULL, result, error); }
KERNEL (k_clamp_max) { return clamp_values (&argv[0], NULL, &argv[1], FALSE, &argv[2], result, error); }
KERNEL (k_clamp_max_m) { return clamp_values (&argv[0], NULL, &argv[1], FALSE, NULL, result, error); }
KERNEL (k_clamp_max_i) { return clamp_values (&argv[0], NULL, &argv[1], TRUE, NULL, result, error); }

/* ------------------------------------------------------------------ where */

/* where(condition): the indices of the non-zero elements, one tensor per dim */
KERNEL (k_where1)
{
  FxTensor *c = argv[0].tensor, *b;
  int nd = MAX (c->ndim, 1);
  int64_t n, count = 0, idx[FX_TENSOR_MAX_DIMS] = { 0 };
  const uint8_t *p;
  FxTensor *outs[FX_TENSOR_MAX_DIMS];
  int64_t *dst[FX_TENSOR_MAX_DIMS];
  FxSeq *seq;

  b = fx_tensor_to_dtype (c, FX_DTYPE_BOOL);
  if (b == NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return FALSE;
    }
  if (!fx_tensor_is_contiguous (b))
    {
      FxTensor *cb = fx_tensor_contiguous (b);
      fx_tensor_unref (b);
      b = cb;
    }
  p = fx_tensor_data (b);
  n = fx_tensor_numel (b);
  for (int64_t i = 0; i < n; i++)
    count += p[i] != 0;
  seq = fx_seq_new (0);
  for (int d = 0; d < nd; d++)
    {
      outs[d] = fx_tensor_new_uninit (FX_DTYPE_INT64, 1, &count);
      dst[d] = fx_tensor_data (outs[d]);
    }
  for (int64_t i = 0, k = 0; i < n; i++)
    {
      if (p[i])
        {
          for (int d = 0; d < nd; d++)
            dst[d][k] = c->ndim == 0 ? 0 : idx[d];
          k++;
        }
      for (int d = c->ndim - 1; d >= 0; d--)
        {
          if (++idx[d] < c->shape[d])
            break;
          idx[d] = 0;
        }
    }
  for (int d = 0; d < nd; d++)
    fx_seq_append (seq, fx_value_take_tensor (outs[d]));
  fx_tensor_unref (b);
  *result = fx_value_take_tuple (seq);
  return TRUE;
}

static gboolean
where_values (const FxValue *cond, const FxValue *a, const FxValue *b, const FxValue *out,
              FxValue *result, GError **error)
{
  FxTensor *ta = value_to_tensor (a), *tb = value_to_tensor (b), *r = NULL;
  if (ta && tb)
    r = fx_tensor_where (cond->tensor, ta, tb, error);
  else
    g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE, "expected a Tensor or a number");
  g_clear_pointer (&ta, fx_tensor_unref);
  g_clear_pointer (&tb, fx_tensor_unref);
  return finish (result, r, out, error);
}

KERNEL (k_where) { return where_values (&argv[0], &argv[1], &argv[2], &argv[3], result, error); }
KERNEL (k_where_s) { return where_values (&argv[0], &argv[1], &argv[2], NULL, result, error); }
/* Tensor.where(self, condition, other) */
KERNEL (k_where_m) { return where_values (&argv[1], &argv[0], &argv[2], NULL, result, error); }

/* ------------------------------------------------------------------ isclose, fill, copy */

KERNEL (k_isclose)
{
  return fx_result_tensor (result, fx_tensor_isclose (argv[0].tensor, argv[1].tensor,
                                                      fx_arg_float (&argv[2]),
                                                      fx_arg_float (&argv[3]),
                                                      fx_arg_bool (&argv[4]), error));
}

KERNEL (k_allclose)
{
  gboolean all;
  if (!fx_tensor_allclose (argv[0].tensor, argv[1].tensor, fx_arg_float (&argv[2]),
                           fx_arg_float (&argv[3]), fx_arg_bool (&argv[4]), &all, error))
    return FALSE;
  *result = fx_value_bool (all);
  return TRUE;
}

/* torch._assert(condition, message): Python's truth of the condition (a one-element tensor
 * counts by its value); AssertionError(message) when false. */
KERNEL (k_assert)
{
  const FxValue *c = &argv[0];
  gboolean truth;
  double value;

  switch (c->kind)
    {
    case FX_VALUE_BOOL: truth = c->b; break;
    case FX_VALUE_INT: truth = c->i != 0; break;
    case FX_VALUE_FLOAT: truth = c->f != 0.0; break;
    case FX_VALUE_NONE: truth = FALSE; break;
    case FX_VALUE_TENSOR:
      if (fx_tensor_numel (c->tensor) != 1)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                               "Boolean value of Tensor with more than one value is ambiguous");
          return FALSE;
        }
      if (!fx_tensor_item_double (c->tensor, &value, error))
        return FALSE;
      truth = value != 0.0;
      break;
    default:
      truth = TRUE;
      break;
    }
  if (!truth)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_ASSERTION,
                           argv[1].kind == FX_VALUE_STR ? argv[1].s->data : "");
      return FALSE;
    }
  *result = fx_value_none ();
  return TRUE;
}

KERNEL (k_fill)
{
  FxTensor *v = value_to_tensor (&argv[1]);
  gboolean ok = v && fx_tensor_fill_ (argv[0].tensor, v, error);
  g_clear_pointer (&v, fx_tensor_unref);
  if (ok)
    *result = fx_value_tensor (argv[0].tensor);
  return ok;
}

KERNEL (k_zero)
{
  fx_tensor_zero_ (argv[0].tensor);
  *result = fx_value_tensor (argv[0].tensor);
  return TRUE;
}

KERNEL (k_copy)
{
  FxTensor *src = value_to_tensor (&argv[1]);
  gboolean ok = src && fx_tensor_copy_into (argv[0].tensor, src, error);
  g_clear_pointer (&src, fx_tensor_unref);
  if (ok)
    *result = fx_value_tensor (argv[0].tensor);
  return ok;
}

/* ------------------------------------------------------------------ Python operators */

typedef enum {
  PY_ADD, PY_SUB, PY_MUL, PY_TRUEDIV, PY_FLOORDIV, PY_MOD, PY_POW,
  PY_AND, PY_OR, PY_XOR, PY_EQ, PY_NE, PY_LT, PY_LE, PY_GT, PY_GE,
} PyOp;

static const char *const py_symbols[] = {
  "+", "-", "*", "/", "//", "%", "** or pow()", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=",
};

static const char *
py_type_name (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: return "NoneType";
    case FX_VALUE_TENSOR: return "Tensor";
    case FX_VALUE_TUPLE:
      if (v->seq->type == &fx_tuple_type_size)
        return "Size";
      return v->seq->type && v->seq->type->name ? v->seq->type->name : "tuple";
    case FX_VALUE_OBJECT: return v->obj->klass ? v->obj->klass->name : "object";
    case FX_VALUE_DTYPE: return "dtype";
    case FX_VALUE_DEVICE: return "device";
    case FX_VALUE_ELLIPSIS: return "ellipsis";
    default: return fx_value_kind_name (v->kind);
    }
}

static gboolean
unsupported (PyOp op, const FxValue *a, const FxValue *b, GError **error)
{
  if (op >= PY_LT)
    g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                 "'%s' not supported between instances of '%s' and '%s'", py_symbols[op],
                 py_type_name (a), py_type_name (b));
  else
    g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                 "unsupported operand type(s) for %s: '%s' and '%s'", py_symbols[op],
                 py_type_name (a), py_type_name (b));
  return FALSE;
}

static gboolean
zero_division (const char *msg, GError **error)
{
  g_set_error_literal (error, FX_ERROR, FX_ERROR_ZERO_DIVISION, msg);
  return FALSE;
}

static gboolean
int_overflow (GError **error)
{
  g_set_error_literal (error, FX_ERROR, FX_ERROR_OVERFLOW,
                       "integer result does not fit in 64 bits (libfx ints are 64-bit)");
  return FALSE;
}

/* Python's int ** int for exp >= 0, failing on overflow */
static gboolean
py_int_pow (int64_t base, int64_t exp, int64_t *out)
{
  int64_t r = 1;
  while (exp > 0)
    {
      if ((exp & 1) && __builtin_mul_overflow (r, base, &r))
        return FALSE;
      exp >>= 1;
      if (exp > 0 && __builtin_mul_overflow (base, base, &base))
        return FALSE;
    }
  *out = r;
  return TRUE;
}

/* Python's float ** float */
static gboolean
py_float_pow (double a, double b, FxValue *result, GError **error)
{
  double r;
  if (a == 0 && b < 0)
    return zero_division ("0.0 cannot be raised to a negative power", error);
  if (a < 0 && isfinite (a) && isfinite (b) && b != floor (b))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                           "a negative number raised to a fractional power is complex, which "
                           "libfx does not support");
      return FALSE;
    }
  r = pow (a, b);
  if (isinf (r) && isfinite (a) && isfinite (b))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_OVERFLOW,
                           "(34, 'Numerical result out of range')");
      return FALSE;
    }
  *result = fx_value_float (r);
  return TRUE;
}

/* exact comparison of an int with a float, as Python does: -1 / 0 / 1, 2 when unordered */
static int
cmp_int_float (int64_t i, double f)
{
  double fl;
  if (isnan (f))
    return 2;
  if (f >= 9223372036854775808.0)
    return -1;
  if (f < -9223372036854775808.0)
    return 1;
  fl = floor (f);
  if ((int64_t) fl != i)
    return i < (int64_t) fl ? -1 : 1;
  return f > fl ? -1 : 0;
}

static gboolean
compare_result (PyOp op, int c, FxValue *result)
{
  gboolean r;
  switch (op)
    {
    case PY_EQ: r = c == 0; break;
    case PY_NE: r = c != 0; break;
    case PY_LT: r = c == -1; break;
    case PY_LE: r = c == -1 || c == 0; break;
    case PY_GT: r = c == 1; break;
    default:    r = c == 1 || c == 0; break;
    }
  *result = fx_value_bool (r);
  return TRUE;
}

static gboolean
py_numbers (PyOp op, const FxValue *a, const FxValue *b, FxValue *result, GError **error)
{
  gboolean fa = a->kind == FX_VALUE_FLOAT, fb = b->kind == FX_VALUE_FLOAT;

  if (op >= PY_EQ)
    {
      if (!fa && !fb)
        {
          int64_t x = fx_arg_int (a), y = fx_arg_int (b);
          return compare_result (op, x < y ? -1 : x > y, result);
        }
      if (fa && fb)
        return compare_result (op, isnan (a->f) || isnan (b->f) ? 2 : a->f < b->f ? -1 : a->f > b->f, result);
      if (fa)
        {
          int c = cmp_int_float (fx_arg_int (b), a->f);
          return compare_result (op, c == 2 ? 2 : -c, result);
        }
      return compare_result (op, cmp_int_float (fx_arg_int (a), b->f), result);
    }

  if (op == PY_AND || op == PY_OR || op == PY_XOR)
    {
      int64_t x, y, r;
      if (fa || fb)
        return unsupported (op, a, b, error);
      x = fx_arg_int (a);
      y = fx_arg_int (b);
      r = op == PY_AND ? (x & y) : op == PY_OR ? (x | y) : (x ^ y);
      *result = a->kind == FX_VALUE_BOOL && b->kind == FX_VALUE_BOOL ? fx_value_bool (r != 0)
                                                                     : fx_value_int (r);
      return TRUE;
    }

  if (!fa && !fb)
    {
      int64_t x = fx_arg_int (a), y = fx_arg_int (b), r;
      switch (op)
        {
        case PY_ADD:
          if (__builtin_add_overflow (x, y, &r))
            return int_overflow (error);
          break;
        case PY_SUB:
          if (__builtin_sub_overflow (x, y, &r))
            return int_overflow (error);
          break;
        case PY_MUL:
          if (__builtin_mul_overflow (x, y, &r))
            return int_overflow (error);
          break;
        case PY_TRUEDIV:
          if (y == 0)
            return zero_division ("division by zero", error);
          *result = fx_value_float ((double) x / (double) y);
          return TRUE;
        case PY_FLOORDIV:
        case PY_MOD:
          if (y == 0)
            return zero_division (op == PY_MOD ? "integer modulo by zero"
                                               : "integer division or modulo by zero", error);
          if (x == INT64_MIN && y == -1)
            {
              if (op == PY_MOD)
                r = 0;
              else
                return int_overflow (error);
              break;
            }
          r = op == PY_FLOORDIV ? x / y : x % y;
          if (op == PY_FLOORDIV && (x % y != 0) && ((x < 0) != (y < 0)))
            r--;
          if (op == PY_MOD && r != 0 && ((r < 0) != (y < 0)))
            r += y;
          break;
        case PY_POW:
          if (y < 0)
            return py_float_pow ((double) x, (double) y, result, error);
          if (!py_int_pow (x, y, &r))
            return int_overflow (error);
          break;
        default:
          return unsupported (op, a, b, error);
        }
      *result = fx_value_int (r);
      return TRUE;
    }
  else
    {
      double x = fx_arg_float (a), y = fx_arg_float (b), r;
      switch (op)
        {
        case PY_ADD: r = x + y; break;
        case PY_SUB: r = x - y; break;
        case PY_MUL: r = x * y; break;
        case PY_TRUEDIV:
          if (y == 0)
            return zero_division ("float division by zero", error);
          r = x / y;
          break;
        case PY_FLOORDIV:
        case PY_MOD:
          {
            double mod, div, fl;
            if (y == 0)
              return zero_division (op == PY_MOD ? "float modulo" : "float floor division by zero",
                                    error);
            /* CPython's float_divmod */
            mod = fmod (x, y);
            div = (x - mod) / y;
            if (mod != 0)
              {
                if ((y < 0) != (mod < 0))
                  {
                    mod += y;
                    div -= 1.0;
                  }
              }
            else
              mod = copysign (0.0, y);
            if (div != 0)
              {
                fl = floor (div);
                if (div - fl > 0.5)
                  fl += 1.0;
              }
            else
              fl = copysign (0.0, x / y);
            r = op == PY_MOD ? mod : fl;
            break;
          }
        case PY_POW:
          return py_float_pow (x, y, result, error);
        default:
          return unsupported (op, a, b, error);
        }
      *result = fx_value_float (r);
      return TRUE;
    }
}

static gboolean
is_sequence (const FxValue *v)
{
  return v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST;
}

static int py_compare (const FxValue *a, const FxValue *b, gboolean *ok);

/* Lexicographic order of str / tuple / list / numbers (-1, 0, 1; 2 = unordered) */
static int
py_compare (const FxValue *a, const FxValue *b, gboolean *ok)
{
  if (is_number (a) && is_number (b))
    {
      FxValue r;
      if (py_numbers (PY_LT, a, b, &r, NULL) && r.b)
        return -1;
      if (py_numbers (PY_GT, a, b, &r, NULL) && r.b)
        return 1;
      if (py_numbers (PY_EQ, a, b, &r, NULL) && r.b)
        return 0;
      return 2;
    }
  if (a->kind == FX_VALUE_STR && b->kind == FX_VALUE_STR)
    {
      int c = strcmp (a->s->data, b->s->data);
      return c < 0 ? -1 : c > 0;
    }
  if (is_sequence (a) && a->kind == b->kind)
    {
      guint n = MIN (a->seq->len, b->seq->len);
      for (guint i = 0; i < n; i++)
        {
          const FxValue *x = &a->seq->items[i], *y = &b->seq->items[i];
          if (fx_value_equal (x, y))
            continue;
          return py_compare (x, y, ok);
        }
      return a->seq->len < b->seq->len ? -1 : a->seq->len > b->seq->len;
    }
  *ok = FALSE;
  return 2;
}

static FxSeq *
seq_concat (const FxSeq *x, const FxSeq *y)
{
  FxSeq *s = fx_seq_new (0);
  for (guint i = 0; i < x->len; i++)
    fx_seq_append (s, fx_value_copy (&x->items[i]));
  for (guint i = 0; y && i < y->len; i++)
    fx_seq_append (s, fx_value_copy (&y->items[i]));
  return s;
}

/* seq + seq, seq * n, str + str, str * n */
static gboolean
py_sequences (PyOp op, const FxValue *a, const FxValue *b, gboolean inplace, FxValue *result,
              GError **error)
{
  if (op == PY_ADD && a->kind == FX_VALUE_STR && b->kind == FX_VALUE_STR)
    {
      char *s = g_strconcat (a->s->data, b->s->data, NULL);
      *result = fx_value_str (s);
      g_free (s);
      return TRUE;
    }
  if (op == PY_ADD && is_sequence (a) && is_sequence (b))
    {
      if (a->kind == FX_VALUE_LIST && inplace)
        {
          /* list += iterable extends the list itself */
          FxSeq *copy = seq_concat (b->seq, NULL);
          for (guint i = 0; i < copy->len; i++)
            fx_seq_append (a->seq, fx_value_copy (&copy->items[i]));
          fx_seq_unref (copy);
          *result = fx_value_copy (a);
          return TRUE;
        }
      if (a->kind != b->kind)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "can only concatenate %s (not \"%s\") to %s", py_type_name (a),
                       py_type_name (b), py_type_name (a));
          return FALSE;
        }
      FxSeq *s = seq_concat (a->seq, b->seq);
      if (a->kind == FX_VALUE_LIST)
        *result = fx_value_take_list (s);
      else
        {
          /* torch.Size + tuple stays a torch.Size */
          s->type = a->seq->type == &fx_tuple_type_size ? &fx_tuple_type_size : NULL;
          *result = fx_value_take_tuple (s);
        }
      return TRUE;
    }
  if (op == PY_MUL && ((is_sequence (a) || a->kind == FX_VALUE_STR)
                       && (b->kind == FX_VALUE_INT || b->kind == FX_VALUE_BOOL)))
    {
      int64_t n = fx_arg_int (b);
      if (a->kind == FX_VALUE_STR)
        {
          GString *s = g_string_new (NULL);
          for (int64_t i = 0; i < n; i++)
            g_string_append (s, a->s->data);
          *result = fx_value_str (s->str);
          g_string_free (s, TRUE);
          return TRUE;
        }
      FxSeq *s = fx_seq_new (0);
      for (int64_t i = 0; i < n; i++)
        for (guint j = 0; j < a->seq->len; j++)
          fx_seq_append (s, fx_value_copy (&a->seq->items[j]));
      if (a->kind == FX_VALUE_LIST)
        *result = fx_value_take_list (s);
      else
        {
          s->type = a->seq->type == &fx_tuple_type_size ? &fx_tuple_type_size : NULL;
          *result = fx_value_take_tuple (s);
        }
      return TRUE;
    }
  if (op == PY_MUL && (a->kind == FX_VALUE_INT || a->kind == FX_VALUE_BOOL)
      && (is_sequence (b) || b->kind == FX_VALUE_STR))
    return py_sequences (op, b, a, FALSE, result, error);
  return unsupported (op, a, b, error);
}

static const FxBinaryOp py_tensor_ops[] = {
  [PY_ADD] = FX_BINARY_ADD, [PY_SUB] = FX_BINARY_SUB, [PY_MUL] = FX_BINARY_MUL,
  [PY_TRUEDIV] = FX_BINARY_DIV, [PY_FLOORDIV] = FX_BINARY_DIV_FLOOR,
  [PY_MOD] = FX_BINARY_REMAINDER, [PY_POW] = FX_BINARY_POW,
  [PY_AND] = FX_BINARY_BITWISE_AND, [PY_OR] = FX_BINARY_BITWISE_OR,
  [PY_XOR] = FX_BINARY_BITWISE_XOR, [PY_EQ] = FX_BINARY_EQ, [PY_NE] = FX_BINARY_NE,
  [PY_LT] = FX_BINARY_LT, [PY_LE] = FX_BINARY_LE, [PY_GT] = FX_BINARY_GT, [PY_GE] = FX_BINARY_GE,
};

/* a <op> b with Python's dispatch: tensors (either side), numbers, sequences */
static gboolean
py_binary (PyOp op, const FxValue *a, const FxValue *b, gboolean inplace, FxValue *result,
           GError **error)
{
  gboolean ta = a->kind == FX_VALUE_TENSOR, tb = b->kind == FX_VALUE_TENSOR;

  if (ta || tb)
    {
      const FxValue *other = ta ? b : a;
      if (!ta && inplace)
        inplace = FALSE;   /* number += tensor rebinds to number + tensor */
      if (other->kind != FX_VALUE_TENSOR && !is_number (other))
        {
          if (op == PY_EQ || op == PY_NE)
            {
              *result = fx_value_bool (op == PY_NE);
              return TRUE;
            }
          return unsupported (op, a, b, error);
        }
      if (op == PY_POW)
        return pow_values (a, b, inplace, NULL, result, error);
      return binary (py_tensor_ops[op], a, b, inplace, NULL, result, error);
    }
  if (is_number (a) && is_number (b))
    return py_numbers (op, a, b, result, error);
  if (op == PY_EQ || op == PY_NE)
    {
      gboolean eq = fx_value_equal (a, b);
      *result = fx_value_bool (op == PY_EQ ? eq : !eq);
      return TRUE;
    }
  if (op >= PY_LT)
    {
      gboolean ok = TRUE;
      int c = py_compare (a, b, &ok);
      if (!ok)
        return unsupported (op, a, b, error);
      return compare_result (op, c, result);
    }
  return py_sequences (op, a, b, inplace, result, error);
}

#define PY_KERNELS(name, OP)                                                              \
  KERNEL (k_op_##name) { return py_binary (OP, &argv[0], &argv[1], FALSE, result, error); }

PY_KERNELS (add, PY_ADD)
PY_KERNELS (sub, PY_SUB)
PY_KERNELS (mul, PY_MUL)
PY_KERNELS (truediv, PY_TRUEDIV)
PY_KERNELS (floordiv, PY_FLOORDIV)
PY_KERNELS (mod, PY_MOD)
PY_KERNELS (pow, PY_POW)
PY_KERNELS (and, PY_AND)
PY_KERNELS (or, PY_OR)
PY_KERNELS (xor, PY_XOR)
PY_KERNELS (eq, PY_EQ)
PY_KERNELS (ne, PY_NE)
PY_KERNELS (lt, PY_LT)
PY_KERNELS (le, PY_LE)
PY_KERNELS (gt, PY_GT)
PY_KERNELS (ge, PY_GE)

#define PY_IKERNELS(name, OP)                                                             \
  KERNEL (k_op_i##name) { return py_binary (OP, &argv[0], &argv[1], TRUE, result, error); }

PY_IKERNELS (add, PY_ADD)
PY_IKERNELS (sub, PY_SUB)
PY_IKERNELS (mul, PY_MUL)
PY_IKERNELS (truediv, PY_TRUEDIV)
PY_IKERNELS (floordiv, PY_FLOORDIV)
PY_IKERNELS (mod, PY_MOD)
PY_IKERNELS (pow, PY_POW)
PY_IKERNELS (and, PY_AND)
PY_IKERNELS (or, PY_OR)
PY_IKERNELS (xor, PY_XOR)

static gboolean
bad_unary (const char *sym, const FxValue *a, GError **error)
{
  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "bad operand type for %s: '%s'", sym,
               py_type_name (a));
  return FALSE;
}

KERNEL (k_op_neg)
{
  const FxValue *a = &argv[0];
  if (a->kind == FX_VALUE_TENSOR)
    return unary (FX_UNARY_NEG, a, 0, 0, FALSE, NULL, result, error);
  if (a->kind == FX_VALUE_FLOAT)
    *result = fx_value_float (-a->f);
  else if (a->kind == FX_VALUE_INT || a->kind == FX_VALUE_BOOL)
    {
      int64_t i = fx_arg_int (a);
      if (i == INT64_MIN)
        return int_overflow (error);
      *result = fx_value_int (-i);
    }
  else
    return bad_unary ("unary -", a, error);
  return TRUE;
}

KERNEL (k_op_pos)
{
  const FxValue *a = &argv[0];
  if (a->kind == FX_VALUE_TENSOR)
    return unary (FX_UNARY_POSITIVE, a, 0, 0, FALSE, NULL, result, error);
  if (a->kind == FX_VALUE_FLOAT)
    *result = fx_value_float (a->f);
  else if (a->kind == FX_VALUE_INT || a->kind == FX_VALUE_BOOL)
    *result = fx_value_int (fx_arg_int (a));
  else
    return bad_unary ("unary +", a, error);
  return TRUE;
}

KERNEL (k_op_abs)
{
  const FxValue *a = &argv[0];
  if (a->kind == FX_VALUE_TENSOR)
    return unary (FX_UNARY_ABS, a, 0, 0, FALSE, NULL, result, error);
  if (a->kind == FX_VALUE_FLOAT)
    *result = fx_value_float (fabs (a->f));
  else if (a->kind == FX_VALUE_INT || a->kind == FX_VALUE_BOOL)
    {
      int64_t i = fx_arg_int (a);
      if (i == INT64_MIN)
        return int_overflow (error);
      *result = fx_value_int (i < 0 ? -i : i);
    }
  else
    return bad_unary ("abs()", a, error);
  return TRUE;
}

KERNEL (k_op_invert)
{
  const FxValue *a = &argv[0];
  if (a->kind == FX_VALUE_TENSOR)
    {
      FxDType d = a->tensor->dtype;
      if (d != FX_DTYPE_BOOL && !fx_dtype_is_integral (d))
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_DTYPE,
                               "~ (operator.invert) is only implemented on integer and "
                               "Boolean-type tensors");
          return FALSE;
        }
      return unary (FX_UNARY_BITWISE_NOT, a, 0, 0, FALSE, NULL, result, error);
    }
  if (a->kind == FX_VALUE_INT || a->kind == FX_VALUE_BOOL)
    *result = fx_value_int (~fx_arg_int (a));
  else
    return bad_unary ("unary ~", a, error);
  return TRUE;
}

/* ------------------------------------------------------------------ the table */

#define MATH "math"
#define ACT "activation"
#define ARITH "arithmetic"
#define CMP "comparison"
#define LOGIC "logical"
#define OPER "operator"
#define INPLACE FX_OP_FLAG_INPLACE

#define OUT ", *, Tensor? out=None) -> Tensor"

/* torch.X, torch.X_, Tensor.X, Tensor.X_ of a unary op with kernels k_K* */
#define UNARY_OP(name, K, cat, doc)                                                         \
  { FX_OP_FUNCTION, "torch." name, { NULL }, cat, doc, 0,                                   \
    { { name "(Tensor input" OUT, k_##K } } },                                              \
  { FX_OP_FUNCTION, "torch." name "_", { NULL }, cat, doc, INPLACE,                         \
    { { name "_(Tensor input) -> Tensor", k_##K##_i } } },                                  \
  { FX_OP_METHOD, "Tensor." name, { NULL }, cat, doc, 0,                                    \
    { { name "(Tensor self) -> Tensor", k_##K##_m } } },                                    \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, cat, doc, INPLACE,                          \
    { { name "_(Tensor self) -> Tensor", k_##K##_i } } }

/* the same without torch.X_ */
#define UNARY_OP3(name, K, cat, doc)                                                        \
  { FX_OP_FUNCTION, "torch." name, { NULL }, cat, doc, 0,                                   \
    { { name "(Tensor input" OUT, k_##K } } },                                              \
  { FX_OP_METHOD, "Tensor." name, { NULL }, cat, doc, 0,                                    \
    { { name "(Tensor self) -> Tensor", k_##K##_m } } },                                    \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, cat, doc, INPLACE,                          \
    { { name "_(Tensor self) -> Tensor", k_##K##_i } } }

/* predicates: torch.X(input), Tensor.X(self) */
#define PRED_OP(name, K, doc)                                                               \
  { FX_OP_FUNCTION, "torch." name, { NULL }, MATH, doc, 0,                                  \
    { { name "(Tensor input) -> Tensor", k_##K##_m } } },                                   \
  { FX_OP_METHOD, "Tensor." name, { NULL }, MATH, doc, 0,                                   \
    { { name "(Tensor self) -> Tensor", k_##K##_m } } }

/* binary ops whose torch.X lists (Tensor, Tensor) and (Tensor, Number) */
#define BINARY_OP_TN(name, K, cat, doc)                                                     \
  { FX_OP_FUNCTION, "torch." name, { NULL }, cat, doc, 0,                                   \
    { { name "(Tensor input, Tensor other" OUT, k_##K },                                    \
      { name "(Tensor input, Scalar other" OUT, k_##K } } },                                \
  { FX_OP_METHOD, "Tensor." name, { NULL }, cat, doc, 0,                                    \
    { { name "(Tensor self, Tensor other) -> Tensor", k_##K##_m },                          \
      { name "(Tensor self, Scalar other) -> Tensor", k_##K##_m } } },                      \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, cat, doc, INPLACE,                          \
    { { name "_(Tensor self, Tensor other) -> Tensor", k_##K##_i },                         \
      { name "_(Tensor self, Scalar other) -> Tensor", k_##K##_i } } }

/* (Tensor, Tensor), (Number self, Tensor), (Tensor, Number) as remainder and bitwise_* list */
#define BINARY_OP_TNT(name, K, cat, doc)                                                    \
  { FX_OP_FUNCTION, "torch." name, { NULL }, cat, doc, 0,                                   \
    { { name "(Tensor input, Tensor other" OUT, k_##K },                                    \
      { name "(Scalar self, Tensor other) -> Tensor", k_##K##_m },                          \
      { name "(Tensor input, Scalar other" OUT, k_##K } } },                                \
  { FX_OP_METHOD, "Tensor." name, { NULL }, cat, doc, 0,                                    \
    { { name "(Tensor self, Tensor other) -> Tensor", k_##K##_m },                          \
      { name "(Tensor self, Scalar other) -> Tensor", k_##K##_m } } },                      \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, cat, doc, INPLACE,                          \
    { { name "_(Tensor self, Tensor other) -> Tensor", k_##K##_i },                         \
      { name "_(Tensor self, Scalar other) -> Tensor", k_##K##_i } } }

/* binary ops that take tensors only (maximum, logical_and, ...) */
#define BINARY_OP_T(name, K, cat, doc)                                                      \
  { FX_OP_FUNCTION, "torch." name, { NULL }, cat, doc, 0,                                   \
    { { name "(Tensor input, Tensor other" OUT, k_##K } } },                                \
  { FX_OP_METHOD, "Tensor." name, { NULL }, cat, doc, 0,                                    \
    { { name "(Tensor self, Tensor other) -> Tensor", k_##K##_m } } }

/* binary ops where PyTorch also lets numbers stand for either tensor (mul, true_divide, ...) */
#define BINARY_OP_NUM(name, K, cat, doc)                                                    \
  { FX_OP_FUNCTION, "torch." name, { NULL }, cat, doc, 0,                                   \
    { { name "(Tensor input, Tensor other" OUT, k_##K },                                    \
      { "~" name "(Tensor input, Scalar other" OUT, k_##K },                                \
      { "~" name "(Scalar input, Tensor other" OUT, k_##K },                                \
      { "~" name "(Scalar input, Scalar other" OUT, k_##K } } },                            \
  { FX_OP_METHOD, "Tensor." name, { NULL }, cat, doc, 0,                                    \
    { { name "(Tensor self, Tensor other) -> Tensor", k_##K##_m },                          \
      { "~" name "(Tensor self, Scalar other) -> Tensor", k_##K##_m } } },                  \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, cat, doc, INPLACE,                          \
    { { name "_(Tensor self, Tensor other) -> Tensor", k_##K##_i },                         \
      { "~" name "_(Tensor self, Scalar other) -> Tensor", k_##K##_i } } }

#define PY_OP(name, K, doc)                                                                 \
  { FX_OP_FUNCTION, "operator." name, { NULL }, OPER, doc, 0,                               \
    { { name "(Any a, Any b) -> Any", k_op_##K } } }
#define PY_IOP(name, K, doc)                                                                \
  { FX_OP_FUNCTION, "operator." name, { NULL }, OPER, doc, INPLACE,                         \
    { { name "(Any a, Any b) -> Any", k_op_##K } } }

const FxOpDef fx_op_defs_elementwise[] = {
  /* ---- unary math ---- */
  UNARY_OP ("neg", neg, MATH, "Negation, -x"),
  UNARY_OP ("negative", neg, MATH, "Negation, -x (alias of neg)"),
  UNARY_OP ("abs", abs, MATH, "Absolute value"),
  UNARY_OP ("absolute", abs, MATH, "Absolute value (alias of abs)"),
  UNARY_OP ("exp", exp, MATH, "Exponential e^x"),
  UNARY_OP ("exp2", exp2, MATH, "Base-2 exponential 2^x"),
  UNARY_OP ("expm1", expm1, MATH, "e^x - 1, accurate near zero"),
  UNARY_OP ("log", log, MATH, "Natural logarithm"),
  UNARY_OP ("log2", log2, MATH, "Base-2 logarithm"),
  UNARY_OP ("log10", log10, MATH, "Base-10 logarithm"),
  UNARY_OP ("log1p", log1p, MATH, "log(1 + x), accurate near zero"),
  UNARY_OP ("sqrt", sqrt, MATH, "Square root"),
  UNARY_OP ("rsqrt", rsqrt, MATH, "Reciprocal of the square root"),
  UNARY_OP ("reciprocal", reciprocal, MATH, "1 / x"),
  UNARY_OP ("square", square, MATH, "x * x"),
  UNARY_OP ("sin", sin, MATH, "Sine"),
  UNARY_OP ("cos", cos, MATH, "Cosine"),
  UNARY_OP ("tan", tan, MATH, "Tangent"),
  UNARY_OP ("asin", asin, MATH, "Arcsine"),
  UNARY_OP ("arcsin", asin, MATH, "Arcsine (alias of asin)"),
  UNARY_OP ("acos", acos, MATH, "Arccosine"),
  UNARY_OP ("arccos", acos, MATH, "Arccosine (alias of acos)"),
  UNARY_OP ("atan", atan, MATH, "Arctangent"),
  UNARY_OP ("arctan", atan, MATH, "Arctangent (alias of atan)"),
  UNARY_OP ("sinh", sinh, MATH, "Hyperbolic sine"),
  UNARY_OP ("cosh", cosh, MATH, "Hyperbolic cosine"),
  UNARY_OP ("tanh", tanh, ACT, "Hyperbolic tangent"),
  UNARY_OP ("erf", erf, MATH, "Error function"),
  UNARY_OP ("sigmoid", sigmoid, ACT, "Logistic sigmoid 1 / (1 + e^-x)"),
  UNARY_OP ("floor", floor, MATH, "Round down"),
  UNARY_OP ("ceil", ceil, MATH, "Round up"),
  UNARY_OP ("trunc", trunc, MATH, "Round toward zero"),
  UNARY_OP ("frac", frac, MATH, "Fractional part x - trunc(x)"),
  UNARY_OP3 ("sign", sign, MATH, "Sign: -1, 0 or 1"),
  UNARY_OP3 ("logical_not", logical_not, LOGIC, "Logical not (bool result)"),
  UNARY_OP3 ("bitwise_not", bitwise_not, LOGIC, "Bitwise not (~) of integers and bools"),
  PRED_OP ("isnan", isnan, "Which elements are NaN"),
  PRED_OP ("isinf", isinf, "Which elements are infinite"),
  PRED_OP ("isfinite", isfinite, "Which elements are finite"),
  { FX_OP_FUNCTION, "torch.positive", { NULL }, MATH, "+x: the tensor itself", 0,
    { { "positive(Tensor input) -> Tensor", k_positive_m } } },
  { FX_OP_METHOD, "Tensor.positive", { NULL }, MATH, "+x: the tensor itself", 0,
    { { "positive(Tensor self) -> Tensor", k_positive_m } } },

  /* round(decimals) */
  { FX_OP_FUNCTION, "torch.round", { NULL }, MATH, "Round half to even (to decimals places)", 0,
    { { "round(Tensor input" OUT, k_round },
      { "round(Tensor input, *, int decimals, Tensor? out=None) -> Tensor", k_round_dec } } },
  { FX_OP_FUNCTION, "torch.round_", { NULL }, MATH, "Round half to even, in place", INPLACE,
    { { "round_(Tensor input) -> Tensor", k_round_i },
      { "round_(Tensor input, *, int decimals) -> Tensor", k_round_dec_i } } },
  { FX_OP_METHOD, "Tensor.round", { NULL }, MATH, "Round half to even (to decimals places)", 0,
    { { "round(Tensor self) -> Tensor", k_round_m },
      { "round(Tensor self, *, int decimals) -> Tensor", k_round_dec_m } } },
  { FX_OP_METHOD, "Tensor.round_", { NULL }, MATH, "Round half to even, in place", INPLACE,
    { { "round_(Tensor self) -> Tensor", k_round_i },
      { "round_(Tensor self, *, int decimals) -> Tensor", k_round_dec_i } } },

  /* ---- activations ---- */
  { FX_OP_FUNCTION, "torch.relu", { NULL }, ACT, "Rectified linear unit max(x, 0)", 0,
    { { "relu(Tensor input) -> Tensor", k_relu_m } } },
  { FX_OP_FUNCTION, "torch.relu_", { "torch.nn.functional.relu_", NULL }, ACT,
    "Rectified linear unit, in place", INPLACE,
    { { "relu_(Tensor input) -> Tensor", k_relu_i } } },
  { FX_OP_METHOD, "Tensor.relu", { NULL }, ACT, "Rectified linear unit max(x, 0)", 0,
    { { "relu(Tensor self) -> Tensor", k_relu_m } } },
  { FX_OP_METHOD, "Tensor.relu_", { NULL }, ACT, "Rectified linear unit, in place", INPLACE,
    { { "relu_(Tensor self) -> Tensor", k_relu_i } } },
  { FX_OP_FUNCTION, "torch.nn.functional.relu", { NULL }, ACT, "Rectified linear unit max(x, 0)", 0,
    { { "relu(Tensor input, bool inplace=False) -> Tensor", k_f_relu } } },
  { FX_OP_FUNCTION, "torch.nn.functional.relu6", { NULL }, ACT, "min(max(x, 0), 6)", 0,
    { { "relu6(Tensor input, bool inplace=False) -> Tensor", k_f_relu6 } } },
  { FX_OP_FUNCTION, "torch.nn.functional.silu", { NULL }, ACT, "x * sigmoid(x) (swish)", 0,
    { { "silu(Tensor input, bool inplace=False) -> Tensor", k_f_silu } } },
  { FX_OP_FUNCTION, "torch.nn.functional.hardswish", { NULL }, ACT, "x * relu6(x + 3) / 6", 0,
    { { "hardswish(Tensor input, bool inplace=False) -> Tensor", k_f_hardswish } } },
  { FX_OP_FUNCTION, "torch.nn.functional.hardsigmoid", { NULL }, ACT, "relu6(x + 3) / 6", 0,
    { { "hardsigmoid(Tensor input, bool inplace=False) -> Tensor", k_f_hardsigmoid } } },
  { FX_OP_FUNCTION, "torch.nn.functional.hardtanh", { NULL }, ACT, "Clamp to [min_val, max_val]", 0,
    { { "hardtanh(Tensor input, Scalar min_val=-1.0, Scalar max_val=1.0, bool inplace=False) -> Tensor",
        k_f_hardtanh } } },
  { FX_OP_FUNCTION, "torch._C._nn.hardtanh_", { "torch.nn.functional.hardtanh_", NULL }, ACT,
    "Clamp to [min_val, max_val], in place", INPLACE,
    { { "hardtanh_(Tensor input, Scalar min_val=-1, Scalar max_val=1) -> Tensor", k_hardtanh_i } } },
  { FX_OP_FUNCTION, "torch.nn.functional.leaky_relu", { NULL }, ACT,
    "x for x > 0, negative_slope * x otherwise", 0,
    { { "leaky_relu(Tensor input, Scalar negative_slope=0.01, bool inplace=False) -> Tensor",
        k_f_leaky_relu } } },
  { FX_OP_FUNCTION, "torch._C._nn.leaky_relu_", { "torch.nn.functional.leaky_relu_", NULL }, ACT,
    "Leaky ReLU, in place", INPLACE,
    { { "leaky_relu_(Tensor input, Scalar negative_slope=0.01) -> Tensor", k_leaky_relu_i } } },
  { FX_OP_FUNCTION, "torch.nn.functional.elu", { NULL }, ACT,
    "x for x > 0, alpha * (e^x - 1) otherwise", 0,
    { { "elu(Tensor input, Scalar alpha=1.0, bool inplace=False) -> Tensor", k_f_elu } } },
  { FX_OP_FUNCTION, "torch._C._nn.elu_", { "torch.nn.functional.elu_", NULL }, ACT,
    "ELU, in place", INPLACE,
    { { "elu_(Tensor input, Scalar alpha=1) -> Tensor", k_elu_i } } },
  { FX_OP_FUNCTION, "torch._C._nn.gelu", { "torch.nn.functional.gelu", NULL }, ACT,
    "Gaussian error linear unit (exact or tanh approximation)", 0,
    { { "gelu(Tensor input, *, str approximate='none') -> Tensor", k_gelu } } },
  { FX_OP_FUNCTION, "torch._C._nn.softplus", { "torch.nn.functional.softplus", NULL }, ACT,
    "log(1 + e^(beta * x)) / beta", 0,
    { { "softplus(Tensor input, Scalar beta=1, Scalar threshold=20) -> Tensor", k_softplus } } },
  { FX_OP_FUNCTION, "torch.nn.functional.sigmoid", { NULL }, ACT,
    "Logistic sigmoid (deprecated alias of torch.sigmoid)", 0,
    { { "sigmoid(Tensor input) -> Tensor", k_sigmoid_m } } },
  { FX_OP_FUNCTION, "torch.nn.functional.tanh", { NULL }, ACT,
    "Hyperbolic tangent (deprecated alias of torch.tanh)", 0,
    { { "tanh(Tensor input) -> Tensor", k_tanh_m } } },

  /* ---- clamp ---- */
#define CLAMP_OPS(name, doc)                                                                \
  { FX_OP_FUNCTION, "torch." name, { NULL }, MATH, doc, 0,                                  \
    { { name "(Tensor input, Tensor? min=None, Tensor? max=None" OUT, k_clamp },            \
      { name "(Tensor input, Scalar? min=None, Scalar? max=None" OUT, k_clamp } } },        \
  { FX_OP_FUNCTION, "torch." name "_", { NULL }, MATH, doc, INPLACE,                        \
    { { name "_(Tensor input, Tensor? min=None, Tensor? max=None) -> Tensor", k_clamp_i },  \
      { name "_(Tensor input, Scalar? min=None, Scalar? max=None) -> Tensor", k_clamp_i } } }, \
  { FX_OP_METHOD, "Tensor." name, { NULL }, MATH, doc, 0,                                   \
    { { name "(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", k_clamp_m },    \
      { name "(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", k_clamp_m } } }, \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, MATH, doc, INPLACE,                         \
    { { name "_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", k_clamp_i },   \
      { name "_(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", k_clamp_i } } }
  CLAMP_OPS ("clamp", "Clamp to [min, max] (either bound may be None)"),
  CLAMP_OPS ("clip", "Clamp to [min, max] (alias of clamp)"),
#define CLAMP1_OPS(name, arg, K, doc)                                                       \
  { FX_OP_FUNCTION, "torch." name, { NULL }, MATH, doc, 0,                                  \
    { { name "(Tensor input, Tensor " arg OUT, k_##K },                                     \
      { name "(Tensor input, Scalar " arg OUT, k_##K } } },                                 \
  { FX_OP_FUNCTION, "torch." name "_", { NULL }, MATH, doc, INPLACE,                        \
    { { name "_(Tensor input, Tensor " arg ") -> Tensor", k_##K##_i },                      \
      { name "_(Tensor input, Scalar " arg ") -> Tensor", k_##K##_i } } },                  \
  { FX_OP_METHOD, "Tensor." name, { NULL }, MATH, doc, 0,                                   \
    { { name "(Tensor self, Tensor " arg ") -> Tensor", k_##K##_m },                        \
      { name "(Tensor self, Scalar " arg ") -> Tensor", k_##K##_m } } },                    \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, MATH, doc, INPLACE,                         \
    { { name "_(Tensor self, Tensor " arg ") -> Tensor", k_##K##_i },                       \
      { name "_(Tensor self, Scalar " arg ") -> Tensor", k_##K##_i } } }
  CLAMP1_OPS ("clamp_min", "min", clamp_min, "max(x, min)"),
  CLAMP1_OPS ("clamp_max", "max", clamp_max, "min(x, max)"),

  /* ---- arithmetic ---- */
#define ADD_OPS(name, K, doc)                                                               \
  { FX_OP_FUNCTION, "torch." name, { NULL }, ARITH, doc, 0,                                 \
    { { name "(Tensor input, Tensor other, *, Scalar alpha=1, Tensor? out=None) -> Tensor", k_##K }, \
      { "~" name "(Tensor input, Scalar other, *, Scalar alpha=1, Tensor? out=None) -> Tensor", k_##K }, \
      { "~" name "(Scalar input, Tensor other, *, Scalar alpha=1, Tensor? out=None) -> Tensor", k_##K }, \
      { "~" name "(Scalar input, Scalar other, *, Scalar alpha=1, Tensor? out=None) -> Tensor", k_##K }, \
      { "~" name "(Tensor input, Scalar alpha, Tensor other, *, Tensor? out=None) -> Tensor", k_##K##_dep } } }, \
  { FX_OP_METHOD, "Tensor." name, { NULL }, ARITH, doc, 0,                                  \
    { { name "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", k_##K##_m },       \
      { "~" name "(Tensor self, Scalar other, *, Scalar alpha=1) -> Tensor", k_##K##_m },   \
      { "~" name "(Tensor self, Scalar alpha, Tensor other) -> Tensor", k_##K##_dep_m } } }, \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, ARITH, doc, INPLACE,                        \
    { { name "_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", k_##K##_i },      \
      { "~" name "_(Tensor self, Scalar other, *, Scalar alpha=1) -> Tensor", k_##K##_i },  \
      { "~" name "_(Tensor self, Scalar alpha, Tensor other) -> Tensor", k_##K##_dep_i } } }
  ADD_OPS ("add", add, "input + alpha * other"),
  ADD_OPS ("sub", sub, "input - alpha * other"),
  { FX_OP_FUNCTION, "torch.subtract", { NULL }, ARITH, "input - alpha * other (alias of sub)", 0,
    { { "subtract(Tensor input, Tensor other, *, Scalar alpha=1, Tensor? out=None) -> Tensor", k_sub },
      { "subtract(Tensor input, Scalar other, Scalar alpha=1) -> Tensor", k_sub_m } } },
  { FX_OP_METHOD, "Tensor.subtract", { NULL }, ARITH, "input - alpha * other (alias of sub)", 0,
    { { "subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", k_sub_m },
      { "subtract(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", k_sub_m } } },
  { FX_OP_METHOD, "Tensor.subtract_", { NULL }, ARITH, "In-place subtract", INPLACE,
    { { "subtract_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", k_sub_i },
      { "subtract_(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", k_sub_i } } },
  BINARY_OP_NUM ("mul", mul, ARITH, "Elementwise product"),
  { FX_OP_FUNCTION, "torch.multiply", { NULL }, ARITH, "Elementwise product (alias of mul)", 0,
    { { "multiply(Tensor input, Tensor other" OUT, k_mul },
      { "multiply(Tensor input, Scalar other) -> Tensor", k_mul_m } } },
  { FX_OP_METHOD, "Tensor.multiply", { NULL }, ARITH, "Elementwise product (alias of mul)", 0,
    { { "multiply(Tensor self, Tensor other) -> Tensor", k_mul_m },
      { "multiply(Tensor self, Scalar other) -> Tensor", k_mul_m } } },
  { FX_OP_METHOD, "Tensor.multiply_", { NULL }, ARITH, "In-place multiply", INPLACE,
    { { "multiply_(Tensor self, Tensor other) -> Tensor", k_mul_i },
      { "multiply_(Tensor self, Scalar other) -> Tensor", k_mul_i } } },
  { FX_OP_FUNCTION, "torch.div", { NULL }, ARITH, "Division (true, 'trunc' or 'floor')", 0,
    { { "div(Tensor input, Tensor other" OUT, k_div },
      { "div(Tensor input, Tensor other, *, str? rounding_mode, Tensor? out=None) -> Tensor", k_div_rm },
      { "div(Tensor input, Scalar other, *, str? rounding_mode) -> Tensor", k_div_rm_noout },
      { "~div(Tensor input, Scalar other" OUT, k_div },
      { "~div(Scalar input, Tensor other, *, str? rounding_mode=None, Tensor? out=None) -> Tensor", k_div_rm },
      { "~div(Scalar input, Scalar other, *, str? rounding_mode=None, Tensor? out=None) -> Tensor", k_div_rm } } },
  { FX_OP_FUNCTION, "torch.divide", { NULL }, ARITH, "Division (alias of div)", 0,
    { { "divide(Tensor input, Tensor other" OUT, k_div },
      { "divide(Tensor input, Tensor other, *, str? rounding_mode, Tensor? out=None) -> Tensor", k_div_rm },
      { "divide(Tensor input, Scalar other) -> Tensor", k_div_m },
      { "divide(Tensor input, Scalar other, *, str? rounding_mode) -> Tensor", k_div_rm_noout } } },
#define DIV_METHODS(name)                                                                   \
  { FX_OP_METHOD, "Tensor." name, { NULL }, ARITH, "Division (true, 'trunc' or 'floor')", 0, \
    { { name "(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", k_div_rm_m }, \
      { "~" name "(Tensor self, Scalar other, *, str? rounding_mode=None) -> Tensor", k_div_rm_m } } }, \
  { FX_OP_METHOD, "Tensor." name "_", { NULL }, ARITH, "In-place division", INPLACE,        \
    { { name "_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", k_div_rm_i }, \
      { "~" name "_(Tensor self, Scalar other, *, str? rounding_mode=None) -> Tensor", k_div_rm_i } } }
  DIV_METHODS ("div"),
  DIV_METHODS ("divide"),
  BINARY_OP_NUM ("true_divide", true_divide, ARITH, "True division (alias of div)"),
  BINARY_OP_NUM ("floor_divide", floor_divide, ARITH, "Floor division, Python's //"),
  BINARY_OP_TNT ("remainder", remainder, ARITH, "Python's %: the result has the divisor's sign"),
  BINARY_OP_TN ("fmod", fmod, ARITH, "C's fmod: the result has the dividend's sign"),
  { FX_OP_FUNCTION, "torch.pow", { NULL }, ARITH, "Power", 0,
    { { "pow(Tensor input, Tensor exponent" OUT, k_pow },
      { "pow(Scalar self, Tensor exponent" OUT, k_pow },
      { "pow(Tensor input, Scalar exponent" OUT, k_pow } } },
  { FX_OP_METHOD, "Tensor.pow", { NULL }, ARITH, "Power", 0,
    { { "pow(Tensor self, Tensor exponent) -> Tensor", k_pow_m },
      { "pow(Tensor self, Scalar exponent) -> Tensor", k_pow_m } } },
  { FX_OP_METHOD, "Tensor.pow_", { NULL }, ARITH, "Power, in place", INPLACE,
    { { "pow_(Tensor self, Tensor exponent) -> Tensor", k_pow_i },
      { "pow_(Tensor self, Scalar exponent) -> Tensor", k_pow_i } } },
  BINARY_OP_T ("maximum", maximum, ARITH, "Elementwise maximum (NaN propagates)"),
  BINARY_OP_T ("minimum", minimum, ARITH, "Elementwise minimum (NaN propagates)"),

  /* ---- comparison and logic ---- */
  BINARY_OP_TN ("eq", eq, CMP, "input == other"),
  BINARY_OP_TN ("ne", ne, CMP, "input != other"),
  BINARY_OP_TN ("not_equal", ne, CMP, "input != other (alias of ne)"),
  BINARY_OP_TN ("lt", lt, CMP, "input < other"),
  BINARY_OP_TN ("less", lt, CMP, "input < other (alias of lt)"),
  BINARY_OP_TN ("le", le, CMP, "input <= other"),
  BINARY_OP_TN ("less_equal", le, CMP, "input <= other (alias of le)"),
  BINARY_OP_TN ("gt", gt, CMP, "input > other"),
  BINARY_OP_TN ("greater", gt, CMP, "input > other (alias of gt)"),
  BINARY_OP_TN ("ge", ge, CMP, "input >= other"),
  BINARY_OP_TN ("greater_equal", ge, CMP, "input >= other (alias of ge)"),
  BINARY_OP_T ("logical_and", logical_and, LOGIC, "Logical and (bool result)"),
  { FX_OP_METHOD, "Tensor.logical_and_", { NULL }, LOGIC, "Logical and, in place", INPLACE,
    { { "logical_and_(Tensor self, Tensor other) -> Tensor", k_logical_and_i } } },
  BINARY_OP_T ("logical_or", logical_or, LOGIC, "Logical or (bool result)"),
  { FX_OP_METHOD, "Tensor.logical_or_", { NULL }, LOGIC, "Logical or, in place", INPLACE,
    { { "logical_or_(Tensor self, Tensor other) -> Tensor", k_logical_or_i } } },
  BINARY_OP_T ("logical_xor", logical_xor, LOGIC, "Logical xor (bool result)"),
  { FX_OP_METHOD, "Tensor.logical_xor_", { NULL }, LOGIC, "Logical xor, in place", INPLACE,
    { { "logical_xor_(Tensor self, Tensor other) -> Tensor", k_logical_xor_i } } },
  BINARY_OP_TNT ("bitwise_and", bitwise_and, LOGIC, "Bitwise and (&) of integers and bools"),
  BINARY_OP_TNT ("bitwise_or", bitwise_or, LOGIC, "Bitwise or (|) of integers and bools"),
  BINARY_OP_TNT ("bitwise_xor", bitwise_xor, LOGIC, "Bitwise xor (^) of integers and bools"),
  { FX_OP_FUNCTION, "torch.where", { NULL }, LOGIC, "Pick from input where condition, else other", 0,
    { { "where(Tensor condition) -> Tensor[]", k_where1 },
      { "where(Tensor condition, Tensor input, Tensor other" OUT, k_where },
      { "where(Tensor condition, Scalar self, Tensor other) -> Tensor", k_where_s },
      { "where(Tensor condition, Tensor input, Scalar other) -> Tensor", k_where_s },
      { "where(Tensor condition, Scalar self, Scalar other) -> Tensor", k_where_s } } },
  { FX_OP_METHOD, "Tensor.where", { NULL }, LOGIC, "Pick from self where condition, else other", 0,
    { { "where(Tensor self, Tensor condition, Tensor other) -> Tensor", k_where_m } } },
  { FX_OP_FUNCTION, "torch.isclose", { NULL }, CMP, "|input - other| <= atol + rtol * |other|", 0,
    { { "isclose(Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor", k_isclose } } },
  { FX_OP_METHOD, "Tensor.isclose", { NULL }, CMP, "|self - other| <= atol + rtol * |other|", 0,
    { { "isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor", k_isclose } } },
  { FX_OP_FUNCTION, "torch._assert", { NULL }, CMP, "Raises AssertionError(message) unless condition",
    FX_OP_FLAG_IMPURE | FX_OP_FLAG_PYTHON_FUNCTION,
    { { "_assert(Any condition, str message) -> Any", k_assert } } },
  { FX_OP_FUNCTION, "torch.allclose", { NULL }, CMP, "Whether all elements are close (a bool)", 0,
    { { "allclose(Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool", k_allclose } } },
  { FX_OP_METHOD, "Tensor.allclose", { NULL }, CMP, "Whether all elements are close (a bool)", 0,
    { { "allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool", k_allclose } } },

  /* ---- filling ---- */
  { FX_OP_FUNCTION, "torch.fill_", { NULL }, "creation", "Fill with a value, in place", INPLACE,
    { { "fill_(Tensor input, Tensor value) -> Tensor", k_fill },
      { "fill_(Tensor input, Scalar value) -> Tensor", k_fill } } },
  { FX_OP_METHOD, "Tensor.fill_", { NULL }, "creation", "Fill with a value, in place", INPLACE,
    { { "fill_(Tensor self, Tensor value) -> Tensor", k_fill },
      { "fill_(Tensor self, Scalar value) -> Tensor", k_fill } } },
  { FX_OP_FUNCTION, "torch.zero_", { NULL }, "creation", "Fill with zeros, in place", INPLACE,
    { { "zero_(Tensor input) -> Tensor", k_zero } } },
  { FX_OP_METHOD, "Tensor.zero_", { NULL }, "creation", "Fill with zeros, in place", INPLACE,
    { { "zero_(Tensor self) -> Tensor", k_zero } } },
  { FX_OP_METHOD, "Tensor.copy_", { NULL }, "creation", "Copy src into self (broadcasting, converting)", INPLACE,
    { { "copy_(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", k_copy },
      { "~copy_(Tensor self, Scalar src, bool non_blocking=False) -> Tensor", k_copy } } },

  /* ---- Python operators ---- */
  PY_OP ("add", add, "a + b"),
  PY_OP ("sub", sub, "a - b"),
  PY_OP ("mul", mul, "a * b"),
  PY_OP ("truediv", truediv, "a / b"),
  PY_OP ("floordiv", floordiv, "a // b"),
  PY_OP ("mod", mod, "a % b"),
  PY_OP ("pow", pow, "a ** b"),
  PY_OP ("and_", and, "a & b"),
  PY_OP ("or_", or, "a | b"),
  PY_OP ("xor", xor, "a ^ b"),
  PY_OP ("eq", eq, "a == b"),
  PY_OP ("ne", ne, "a != b"),
  PY_OP ("lt", lt, "a < b"),
  PY_OP ("le", le, "a <= b"),
  PY_OP ("gt", gt, "a > b"),
  PY_OP ("ge", ge, "a >= b"),
  PY_IOP ("iadd", iadd, "a += b"),
  PY_IOP ("isub", isub, "a -= b"),
  PY_IOP ("imul", imul, "a *= b"),
  PY_IOP ("itruediv", itruediv, "a /= b"),
  PY_IOP ("ifloordiv", ifloordiv, "a //= b"),
  PY_IOP ("imod", imod, "a %= b"),
  PY_IOP ("ipow", ipow, "a **= b"),
  PY_IOP ("iand", iand, "a &= b"),
  PY_IOP ("ior", ior, "a |= b"),
  PY_IOP ("ixor", ixor, "a ^= b"),
  { FX_OP_FUNCTION, "operator.neg", { NULL }, OPER, "-a", 0, { { "neg(Any a) -> Any", k_op_neg } } },
  { FX_OP_FUNCTION, "operator.pos", { NULL }, OPER, "+a", 0, { { "pos(Any a) -> Any", k_op_pos } } },
  { FX_OP_FUNCTION, "operator.abs", { NULL }, OPER, "abs(a)", 0, { { "abs(Any a) -> Any", k_op_abs } } },
  { FX_OP_FUNCTION, "operator.invert", { NULL }, OPER, "~a", 0,
    { { "invert(Any a) -> Any", k_op_invert } } },
  { .path = NULL },
};
