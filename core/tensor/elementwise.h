/* elementwise.h: the pointwise math of the tensor engine — unary ops and activations, binary
 * arithmetic, comparisons and logic with broadcasting and PyTorch's type promotion, where,
 * clamp, isclose, fill — each also in the in-place form that writes into its first argument.
 *
 * Python numbers take part as 0-d "wrapped number" tensors (fx_tensor_wrap_double & co.), so
 * that they promote by category only, as in PyTorch: int tensor + 2.5 → float32. */
#pragma once

#include "tensor/tensor.h"

G_BEGIN_DECLS

typedef enum {
  FX_UNARY_NEG,
  FX_UNARY_POSITIVE,      /* + x: rejects bool, else returns x itself */
  FX_UNARY_ABS,
  FX_UNARY_EXP,
  FX_UNARY_EXP2,
  FX_UNARY_EXPM1,
  FX_UNARY_LOG,
  FX_UNARY_LOG2,
  FX_UNARY_LOG10,
  FX_UNARY_LOG1P,
  FX_UNARY_SQRT,
  FX_UNARY_RSQRT,
  FX_UNARY_RECIPROCAL,
  FX_UNARY_SQUARE,
  FX_UNARY_SIN,
  FX_UNARY_COS,
  FX_UNARY_TAN,
  FX_UNARY_ASIN,
  FX_UNARY_ACOS,
  FX_UNARY_ATAN,
  FX_UNARY_SINH,
  FX_UNARY_COSH,
  FX_UNARY_TANH,
  FX_UNARY_ERF,
  FX_UNARY_SIGMOID,
  FX_UNARY_RELU,
  FX_UNARY_RELU6,
  FX_UNARY_GELU,          /* p0 != 0: approximate='tanh' */
  FX_UNARY_SILU,
  FX_UNARY_HARDTANH,      /* p0 = min_val, p1 = max_val */
  FX_UNARY_HARDSWISH,
  FX_UNARY_HARDSIGMOID,
  FX_UNARY_LEAKY_RELU,    /* p0 = negative_slope */
  FX_UNARY_ELU,           /* p0 = alpha */
  FX_UNARY_SOFTPLUS,      /* p0 = beta, p1 = threshold */
  FX_UNARY_FLOOR,
  FX_UNARY_CEIL,
  FX_UNARY_ROUND,         /* p0 = decimals; p1 != 0: the decimals= overload, which (even
                           * with decimals 0) rejects integers */
  FX_UNARY_TRUNC,
  FX_UNARY_FRAC,
  FX_UNARY_SIGN,
  FX_UNARY_LOGICAL_NOT,
  FX_UNARY_BITWISE_NOT,
  FX_UNARY_ISNAN,
  FX_UNARY_ISINF,
  FX_UNARY_ISFINITE,
  FX_UNARY_N
} FxUnaryOp;

typedef enum {
  FX_BINARY_ADD,
  FX_BINARY_SUB,
  FX_BINARY_MUL,
  FX_BINARY_DIV,          /* true division: integers give float32 */
  FX_BINARY_DIV_TRUNC,    /* div(rounding_mode='trunc') */
  FX_BINARY_DIV_FLOOR,    /* div(rounding_mode='floor'), floor_divide, // */
  FX_BINARY_REMAINDER,    /* %: the result takes the divisor's sign */
  FX_BINARY_FMOD,         /* C fmod: the result takes the dividend's sign */
  FX_BINARY_POW,
  FX_BINARY_MAXIMUM,
  FX_BINARY_MINIMUM,
  FX_BINARY_EQ,
  FX_BINARY_NE,
  FX_BINARY_LT,
  FX_BINARY_LE,
  FX_BINARY_GT,
  FX_BINARY_GE,
  FX_BINARY_LOGICAL_AND,
  FX_BINARY_LOGICAL_OR,
  FX_BINARY_LOGICAL_XOR,
  FX_BINARY_BITWISE_AND,
  FX_BINARY_BITWISE_OR,
  FX_BINARY_BITWISE_XOR,
  FX_BINARY_N
} FxBinaryOp;

/* torch.result_type over the operands (wrapped numbers count by category only). */
FxDType   fx_tensor_result_type (int n, FxTensor *const *operands);
/* PyTorch's canCast: float → integral/bool and integral → bool are not allowed. */
gboolean  fx_dtype_can_cast     (FxDType from, FxDType to);
/* c10::ScalarType name as PyTorch's messages print it: "Float", "Long", "Bool", ... */

/* ---- unary ---- */
/* p0/p1 are the op's parameters (see FxUnaryOp); ops without parameters ignore them.
 * Returns a new tensor. */
FxTensor *fx_tensor_unary   (FxUnaryOp op, FxTensor *x, double p0, double p1, GError **error);
/* In place: writes the result into x and returns a new reference to x. */
FxTensor *fx_tensor_unary_  (FxUnaryOp op, FxTensor *x, double p0, double p1, GError **error);

/* ---- binary (broadcasting) ---- */
FxTensor *fx_tensor_binary  (FxBinaryOp op, FxTensor *a, FxTensor *b, GError **error);
/* In place into self (self's shape must be the broadcast shape); returns a new ref to self. */
FxTensor *fx_tensor_binary_ (FxBinaryOp op, FxTensor *self, FxTensor *other, GError **error);
/* add/sub with alpha: a ± alpha * b. alpha is a wrapped number (NULL means 1); its kind is
 * checked as PyTorch does (no float alpha for integral results, bool only for bool). */
FxTensor *fx_tensor_add_alpha (FxTensor *a, FxTensor *b, FxTensor *alpha, gboolean subtract,
                               gboolean inplace, GError **error);
/* pow with the exponent a Python number (tensor ** 2 takes the fast squaring path). */
FxTensor *fx_tensor_pow_scalar (FxTensor *x, FxTensor *exponent, gboolean inplace,
                                GError **error);

/* ---- ternary and friends ---- */
/* min/max: tensors, wrapped numbers (scalar bounds) or NULL (None); not both NULL. */
FxTensor *fx_tensor_clamp   (FxTensor *x, FxTensor *min, FxTensor *max, gboolean inplace,
                             GError **error);
/* torch.where(cond, a, b); a and b may be wrapped numbers. */
FxTensor *fx_tensor_where   (FxTensor *cond, FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_isclose (FxTensor *a, FxTensor *b, double rtol, double atol,
                             gboolean equal_nan, GError **error);
gboolean  fx_tensor_allclose (FxTensor *a, FxTensor *b, double rtol, double atol,
                              gboolean equal_nan, gboolean *result, GError **error);
/* fill_(value): value is a 0-d tensor or wrapped number, converted to t's dtype. */
gboolean  fx_tensor_fill_   (FxTensor *t, FxTensor *value, GError **error);
void      fx_tensor_fill_double_ (FxTensor *t, double value);
void      fx_tensor_zero_   (FxTensor *t);

/* ---- shorthands for the other kernels of the engine ---- */
FxTensor *fx_tensor_add     (FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_sub     (FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_mul     (FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_div     (FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_maximum (FxTensor *a, FxTensor *b, GError **error);
FxTensor *fx_tensor_minimum (FxTensor *a, FxTensor *b, GError **error);
/* t + value / t * value with value a Python float (wrapped number promotion). */
FxTensor *fx_tensor_add_scalar (FxTensor *t, double value, GError **error);
FxTensor *fx_tensor_mul_scalar (FxTensor *t, double value, GError **error);
FxTensor *fx_tensor_neg     (FxTensor *x, GError **error);
FxTensor *fx_tensor_exp     (FxTensor *x, GError **error);
FxTensor *fx_tensor_log     (FxTensor *x, GError **error);
FxTensor *fx_tensor_sqrt    (FxTensor *x, GError **error);
FxTensor *fx_tensor_rsqrt   (FxTensor *x, GError **error);
FxTensor *fx_tensor_tanh    (FxTensor *x, GError **error);
FxTensor *fx_tensor_sigmoid (FxTensor *x, GError **error);
FxTensor *fx_tensor_relu    (FxTensor *x, GError **error);

G_END_DECLS
