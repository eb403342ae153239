/* ops-linalg.c: registry entries of the matrix products (matmul, mm, bmm, mv, dot, addmm,
 * baddbmm, F.linear), convolutions (conv1d, conv2d, conv_transpose1d/2d) and pooling
 * (max/avg/adaptive pools), with PyTorch 1.13's Python signatures. */
#include "ops/op-table.h"
#include "tensor/linalg.h"
#include "tensor/conv.h"
#include "fx-error.h"

#include <string.h>

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
      g_set_error_literal (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                           "out= with a tensor of another shape is not supported");
      return FALSE;
    }
  gboolean ok = fx_tensor_copy_into (o, r, error);
  fx_tensor_unref (r);
  if (ok)
    *result = fx_value_tensor (o);
  return ok;
}

/* ---- products ---- */

#define BINARY_KERNEL(name, fn)                                                         \
  static gboolean                                                                       \
  name (const FxValue *argv, FxValue *result, GError **error)                           \
  {                                                                                     \
    return fx_result_tensor (result, fn (argv[0].tensor, argv[1].tensor, error));       \
  }                                                                                     \
  static gboolean                                                                       \
  name##_out (const FxValue *argv, FxValue *result, GError **error)                     \
  {                                                                                     \
    return result_out (result, fn (argv[0].tensor, argv[1].tensor, error), &argv[2],    \
                       error);                                                          \
  }

BINARY_KERNEL (k_matmul, fx_tensor_matmul)
BINARY_KERNEL (k_mm, fx_tensor_mm)
BINARY_KERNEL (k_bmm, fx_tensor_bmm)
BINARY_KERNEL (k_mv, fx_tensor_mv)
BINARY_KERNEL (k_dot, fx_tensor_dot)

static gboolean
k_addmm (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_addmm (argv[0].tensor, argv[1].tensor,
                                                    argv[2].tensor, fx_arg_float (&argv[3]),
                                                    fx_arg_float (&argv[4]), error));
}

static gboolean
k_addmm_out (const FxValue *argv, FxValue *result, GError **error)
{
  return result_out (result, fx_tensor_addmm (argv[0].tensor, argv[1].tensor, argv[2].tensor,
                                              fx_arg_float (&argv[3]), fx_arg_float (&argv[4]),
                                              error), &argv[5], error);
}

static gboolean
k_baddbmm (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_baddbmm (argv[0].tensor, argv[1].tensor,
                                                      argv[2].tensor, fx_arg_float (&argv[3]),
                                                      fx_arg_float (&argv[4]), error));
}

static gboolean
k_baddbmm_out (const FxValue *argv, FxValue *result, GError **error)
{
  return result_out (result, fx_tensor_baddbmm (argv[0].tensor, argv[1].tensor,
                                                argv[2].tensor, fx_arg_float (&argv[3]),
                                                fx_arg_float (&argv[4]), error),
                     &argv[5], error);
}

static gboolean
k_linear (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_linear (argv[0].tensor, argv[1].tensor,
                                                     fx_arg_tensor (&argv[2]), error));
}


/* ---- convolutions ---- */

/* An int list argument (int[N] binds one int as N copies). */
static int
int_list (const FxValue *v, int64_t *out)
{
  if (v->kind == FX_VALUE_NONE)
    return 0;
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      out[0] = fx_arg_int (v);
      return 1;
    }
  int n = fx_arg_int_list (v, out, FX_CONV_MAX_PARAMS);
  return MIN (n, FX_CONV_MAX_PARAMS);
}

/* argv: input, weight, bias, stride, padding, dilation, groups */
static void
conv_params (const FxValue *argv, FxConvParams *p)
{
  fx_conv_params_init (p);
  p->n_stride = int_list (&argv[3], p->stride);
  if (argv[4].kind == FX_VALUE_STR)
    p->padding_mode = argv[4].s->data;
  else
    p->n_padding = int_list (&argv[4], p->padding);
  p->n_dilation = int_list (&argv[5], p->dilation);
  p->groups = fx_arg_int (&argv[6]);
}

/* argv: input, weight, bias, stride, padding, output_padding, groups, dilation */
static void
conv_transpose_params (const FxValue *argv, FxConvParams *p)
{
  fx_conv_params_init (p);
  p->n_stride = int_list (&argv[3], p->stride);
  p->n_padding = int_list (&argv[4], p->padding);
  p->n_output_padding = int_list (&argv[5], p->output_padding);
  p->groups = fx_arg_int (&argv[6]);
  p->n_dilation = int_list (&argv[7], p->dilation);
}

#define CONV_KERNEL(name, fn, params)                                                   \
  static gboolean                                                                       \
  name (const FxValue *argv, FxValue *result, GError **error)                           \
  {                                                                                     \
    FxConvParams p;                                                                     \
    params (argv, &p);                                                                  \
    return fx_result_tensor (result, fn (argv[0].tensor, argv[1].tensor,                \
                                         fx_arg_tensor (&argv[2]), &p, error));         \
  }

CONV_KERNEL (k_conv1d, fx_tensor_conv1d, conv_params)
CONV_KERNEL (k_conv2d, fx_tensor_conv2d, conv_params)
CONV_KERNEL (k_conv_transpose1d, fx_tensor_conv_transpose1d, conv_transpose_params)
CONV_KERNEL (k_conv_transpose2d, fx_tensor_conv_transpose2d, conv_transpose_params)

/* ---- pooling ---- */

/* argv: input, kernel_size, stride, padding, [dilation,] ceil_mode, ... */
static void
pool_params (const FxValue *argv, gboolean has_dilation, FxPoolParams *p)
{
  int64_t k[FX_CONV_MAX_PARAMS];
  int nk = int_list (&argv[1], k);
  fx_pool_params_init (p, nk, k);
  p->n_stride = int_list (&argv[2], p->stride);
  p->n_padding = int_list (&argv[3], p->padding);
  if (has_dilation)
    p->n_dilation = int_list (&argv[4], p->dilation);
  p->ceil_mode = fx_arg_bool (&argv[has_dilation ? 5 : 4]);
}

static gboolean
result_pair (FxValue *result, FxTensor *a, FxTensor *b)
{
  if (a == NULL)
    {
      g_clear_pointer (&b, fx_tensor_unref);
      return FALSE;
    }
  FxSeq *seq = fx_seq_new (0);
  fx_seq_append (seq, fx_value_take_tensor (a));
  fx_seq_append (seq, fx_value_take_tensor (b));
  *result = fx_value_take_tuple (seq);
  return TRUE;
}

/* F.max_pool1d/2d: return_indices (argv[6]) chooses the result; *_with_indices: always
 * the pair; torch.max_pool1d/2d: no such argument. */
#define MAX_POOL_KERNELS(dims)                                                          \
  static gboolean                                                                       \
  k_max_pool##dims##d (const FxValue *argv, FxValue *result, GError **error)            \
  {                                                                                     \
    FxPoolParams p;                                                                     \
    pool_params (argv, TRUE, &p);                                                       \
    return fx_result_tensor (result, fx_tensor_max_pool##dims##d (argv[0].tensor, &p,   \
                                                                   NULL, error));       \
  }                                                                                     \
  static gboolean                                                                       \
  k_max_pool##dims##d_with_indices (const FxValue *argv, FxValue *result, GError **error) \
  {                                                                                     \
    FxPoolParams p;                                                                     \
    FxTensor *idx = NULL;                                                               \
    pool_params (argv, TRUE, &p);                                                       \
    FxTensor *out = fx_tensor_max_pool##dims##d (argv[0].tensor, &p, &idx, error);      \
    return result_pair (result, out, idx);                                              \
  }                                                                                     \
  static gboolean                                                                       \
  k_f_max_pool##dims##d (const FxValue *argv, FxValue *result, GError **error)          \
  {                                                                                     \
    if (fx_arg_bool (&argv[6]))                                                         \
      return k_max_pool##dims##d_with_indices (argv, result, error);                    \
    return k_max_pool##dims##d (argv, result, error);                                   \
  }

MAX_POOL_KERNELS (1)
MAX_POOL_KERNELS (2)

static gboolean
k_avg_pool2d (const FxValue *argv, FxValue *result, GError **error)
{
  FxPoolParams p;
  pool_params (argv, FALSE, &p);
  p.count_include_pad = fx_arg_bool (&argv[5]);
  p.has_divisor = !fx_arg_is_none (&argv[6]);
  p.divisor_override = p.has_divisor ? fx_arg_int (&argv[6]) : 0;
  return fx_result_tensor (result, fx_tensor_avg_pool2d (argv[0].tensor, &p, error));
}

static gboolean
k_avg_pool1d (const FxValue *argv, FxValue *result, GError **error)
{
  FxPoolParams p;
  pool_params (argv, FALSE, &p);
  p.count_include_pad = fx_arg_bool (&argv[5]);
  return fx_result_tensor (result, fx_tensor_avg_pool1d (argv[0].tensor, &p, error));
}

/* F.adaptive_*_pool2d's output_size: an int, or a tuple/list whose None entries keep the
 * input's size (torch.nn.functional._list_with_default). */
static int
adaptive_sizes (FxTensor *input, const FxValue *v, int64_t *out, GError **error)
{
  if (v->kind == FX_VALUE_INT || v->kind == FX_VALUE_BOOL)
    {
      out[0] = out[1] = fx_arg_int (v);
      return 2;
    }
  if (v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "object of type '%s' has no len()",
                   v->kind == FX_VALUE_NONE ? "NoneType" : fx_value_kind_name (v->kind));
      return -1;
    }
  int n = (int) v->seq->len;
  if (input->ndim <= n)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "Input dimension should be at least %d", n + 1);
      return -1;
    }
  for (int i = 0; i < n && i < FX_CONV_MAX_PARAMS; i++)
    {
      const FxValue *e = &v->seq->items[i];
      if (e->kind == FX_VALUE_NONE)
        out[i] = input->shape[input->ndim - n + i];
      else if (e->kind == FX_VALUE_INT || e->kind == FX_VALUE_BOOL)
        out[i] = fx_arg_int (e);
      else
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "adaptive pooling: output_size must "
                       "hold ints or None, not %s", fx_value_kind_name (e->kind));
          return -1;
        }
    }
  return MIN (n, FX_CONV_MAX_PARAMS);
}

static gboolean
k_adaptive_avg_pool2d (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t os[FX_CONV_MAX_PARAMS];
  int n = adaptive_sizes (argv[0].tensor, &argv[1], os, error);
  if (n < 0)
    return FALSE;
  return fx_result_tensor (result, fx_tensor_adaptive_avg_pool2d (argv[0].tensor, n, os, error));
}

static gboolean
k_adaptive_max_pool2d_with_indices (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t os[FX_CONV_MAX_PARAMS];
  int n = adaptive_sizes (argv[0].tensor, &argv[1], os, error);
  if (n < 0)
    return FALSE;
  FxTensor *idx = NULL;
  FxTensor *out = fx_tensor_adaptive_max_pool2d (argv[0].tensor, n, os, &idx, error);
  return result_pair (result, out, idx);
}

static gboolean
k_adaptive_max_pool2d (const FxValue *argv, FxValue *result, GError **error)
{
  if (fx_arg_bool (&argv[2]))
    return k_adaptive_max_pool2d_with_indices (argv, result, error);
  int64_t os[FX_CONV_MAX_PARAMS];
  int n = adaptive_sizes (argv[0].tensor, &argv[1], os, error);
  if (n < 0)
    return FALSE;
  return fx_result_tensor (result, fx_tensor_adaptive_max_pool2d (argv[0].tensor, n, os, NULL,
                                                                  error));
}

static gboolean
k_adaptive_avg_pool1d (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t os[FX_CONV_MAX_PARAMS];
  int n = int_list (&argv[1], os);
  return fx_result_tensor (result, fx_tensor_adaptive_avg_pool1d (argv[0].tensor, n, os, error));
}

static gboolean
k_adaptive_max_pool1d_with_indices (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t os[FX_CONV_MAX_PARAMS];
  int n = int_list (&argv[1], os);
  FxTensor *idx = NULL;
  FxTensor *out = fx_tensor_adaptive_max_pool1d (argv[0].tensor, n, os, &idx, error);
  return result_pair (result, out, idx);
}

static gboolean
k_adaptive_max_pool1d (const FxValue *argv, FxValue *result, GError **error)
{
  if (fx_arg_bool (&argv[2]))
    return k_adaptive_max_pool1d_with_indices (argv, result, error);
  int64_t os[FX_CONV_MAX_PARAMS];
  int n = int_list (&argv[1], os);
  return fx_result_tensor (result, fx_tensor_adaptive_max_pool1d (argv[0].tensor, n, os, NULL,
                                                                  error));
}

#define CAT_LINALG "linear algebra"
#define CAT_CONV "convolution"
#define CAT_POOL "pooling"

const FxOpDef fx_op_defs_linalg[] = {
  /* ---- products ---- */
  { FX_OP_FUNCTION, "torch.matmul", { NULL }, CAT_LINALG,
    "Matrix product with broadcasting (dot, mv, mm, batched)", 0, {
      { "matmul(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor", k_matmul_out },
    } },
  { FX_OP_METHOD, "Tensor.matmul", { NULL }, CAT_LINALG,
    "Matrix product with broadcasting (dot, mv, mm, batched)", 0, {
      { "matmul(Tensor self, Tensor other) -> Tensor", k_matmul },
    } },
  { FX_OP_FUNCTION, "operator.matmul", { NULL }, CAT_LINALG, "a @ b", 0, {
      { "matmul(Tensor a, Tensor b) -> Tensor", k_matmul },
    } },
  { FX_OP_FUNCTION, "torch.mm", { NULL }, CAT_LINALG, "Product of two matrices", 0, {
      { "mm(Tensor input, Tensor mat2, *, Tensor? out=None) -> Tensor", k_mm_out },
    } },
  { FX_OP_METHOD, "Tensor.mm", { NULL }, CAT_LINALG, "Product of two matrices", 0, {
      { "mm(Tensor self, Tensor mat2) -> Tensor", k_mm },
    } },
  { FX_OP_FUNCTION, "torch.bmm", { NULL }, CAT_LINALG, "Batched product of 3-D tensors", 0, {
      { "bmm(Tensor input, Tensor mat2, *, Tensor? out=None) -> Tensor", k_bmm_out },
    } },
  { FX_OP_METHOD, "Tensor.bmm", { NULL }, CAT_LINALG, "Batched product of 3-D tensors", 0, {
      { "bmm(Tensor self, Tensor mat2) -> Tensor", k_bmm },
    } },
  { FX_OP_FUNCTION, "torch.mv", { NULL }, CAT_LINALG, "Matrix-vector product", 0, {
      { "mv(Tensor input, Tensor vec, *, Tensor? out=None) -> Tensor", k_mv_out },
    } },
  { FX_OP_METHOD, "Tensor.mv", { NULL }, CAT_LINALG, "Matrix-vector product", 0, {
      { "mv(Tensor self, Tensor vec) -> Tensor", k_mv },
    } },
  { FX_OP_FUNCTION, "torch.dot", { NULL }, CAT_LINALG, "Dot product of two 1-D tensors", 0, {
      { "dot(Tensor input, Tensor tensor, *, Tensor? out=None) -> Tensor", k_dot_out },
    } },
  { FX_OP_METHOD, "Tensor.dot", { NULL }, CAT_LINALG, "Dot product of two 1-D tensors", 0, {
      { "dot(Tensor self, Tensor tensor) -> Tensor", k_dot },
    } },
  { FX_OP_FUNCTION, "torch.addmm", { NULL }, CAT_LINALG, "beta * input + alpha * mat1 @ mat2",
    0, {
      { "addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
        "Tensor? out=None) -> Tensor", k_addmm_out },
    } },
  { FX_OP_METHOD, "Tensor.addmm", { NULL }, CAT_LINALG, "beta * self + alpha * mat1 @ mat2",
    0, {
      { "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
        "-> Tensor", k_addmm },
    } },
  { FX_OP_FUNCTION, "torch.baddbmm", { NULL }, CAT_LINALG,
    "beta * input + alpha * batch1 @ batch2 (batched)", 0, {
      { "baddbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
        "Scalar alpha=1, Tensor? out=None) -> Tensor", k_baddbmm_out },
    } },
  { FX_OP_METHOD, "Tensor.baddbmm", { NULL }, CAT_LINALG,
    "beta * self + alpha * batch1 @ batch2 (batched)", 0, {
      { "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
        "Scalar alpha=1) -> Tensor", k_baddbmm },
    } },
  /* F.linear is torch._C._nn.linear itself, and fx prints it under that name. */
  { FX_OP_FUNCTION, "torch._C._nn.linear", { "torch.nn.functional.linear", NULL }, CAT_LINALG,
    "input @ weight.T + bias", 0, {
      { "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", k_linear },
    } },

  /* ---- convolutions ---- */
  { FX_OP_FUNCTION, "torch.conv1d", { "torch.nn.functional.conv1d", NULL }, CAT_CONV,
    "1-d convolution", 0, {
      { "conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
        "int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor", k_conv1d },
      { "conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
        "str padding='valid', int[1] dilation=1, int groups=1) -> Tensor", k_conv1d },
    } },
  { FX_OP_FUNCTION, "torch.conv2d", { "torch.nn.functional.conv2d", NULL }, CAT_CONV,
    "2-d convolution", 0, {
      { "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
        "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor", k_conv2d },
      { "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
        "str padding='valid', int[2] dilation=1, int groups=1) -> Tensor", k_conv2d },
    } },
  { FX_OP_FUNCTION, "torch.conv_transpose1d", { "torch.nn.functional.conv_transpose1d", NULL },
    CAT_CONV, "1-d transposed convolution", 0, {
      { "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
        "int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor",
        k_conv_transpose1d },
    } },
  { FX_OP_FUNCTION, "torch.conv_transpose2d", { "torch.nn.functional.conv_transpose2d", NULL },
    CAT_CONV, "2-d transposed convolution", 0, {
      { "conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
        "int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor",
        k_conv_transpose2d },
    } },

  /* ---- pooling ---- */
  { FX_OP_FUNCTION, "torch.nn.functional.max_pool2d", { NULL }, CAT_POOL,
    "2-d max pooling", 0, {
      { "max_pool2d(Tensor input, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, "
        "int[2] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Any",
        k_f_max_pool2d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.max_pool2d_with_indices", { NULL }, CAT_POOL,
    "2-d max pooling, with the indices of the maxima", 0, {
      { "max_pool2d_with_indices(Tensor input, int[2] kernel_size, int[2]? stride=None, "
        "int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, "
        "bool return_indices=False) -> Any", k_max_pool2d_with_indices },
    } },
  { FX_OP_FUNCTION, "torch.max_pool2d", { NULL }, CAT_POOL, "2-d max pooling", 0, {
      { "max_pool2d(Tensor input, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, "
        "int[2] dilation=1, bool ceil_mode=False) -> Tensor", k_max_pool2d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.max_pool1d", { NULL }, CAT_POOL,
    "1-d max pooling", 0, {
      { "max_pool1d(Tensor input, int[1] kernel_size, int[1]? stride=None, int[1] padding=0, "
        "int[1] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Any",
        k_f_max_pool1d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.max_pool1d_with_indices", { NULL }, CAT_POOL,
    "1-d max pooling, with the indices of the maxima", 0, {
      { "max_pool1d_with_indices(Tensor input, int[1] kernel_size, int[1]? stride=None, "
        "int[1] padding=0, int[1] dilation=1, bool ceil_mode=False, "
        "bool return_indices=False) -> Any", k_max_pool1d_with_indices },
    } },
  { FX_OP_FUNCTION, "torch.max_pool1d", { NULL }, CAT_POOL, "1-d max pooling", 0, {
      { "max_pool1d(Tensor input, int[1] kernel_size, int[1]? stride=None, int[1] padding=0, "
        "int[1] dilation=1, bool ceil_mode=False) -> Tensor", k_max_pool1d },
    } },
  { FX_OP_FUNCTION, "torch._C._nn.avg_pool2d", { "torch.nn.functional.avg_pool2d", NULL },
    CAT_POOL, "2-d average pooling", 0, {
      { "avg_pool2d(Tensor input, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, "
        "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) "
        "-> Tensor", k_avg_pool2d },
    } },
  { FX_OP_FUNCTION, "torch.avg_pool1d", { "torch.nn.functional.avg_pool1d", NULL }, CAT_POOL,
    "1-d average pooling", 0, {
      { "avg_pool1d(Tensor input, int[1] kernel_size, int[1]? stride=None, int[1] padding=0, "
        "bool ceil_mode=False, bool count_include_pad=True) -> Tensor", k_avg_pool1d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.adaptive_avg_pool2d", { NULL }, CAT_POOL,
    "2-d average pooling to a given output size", 0, {
      { "adaptive_avg_pool2d(Tensor input, Any output_size) -> Tensor", k_adaptive_avg_pool2d },
    } },
  { FX_OP_FUNCTION, "torch.adaptive_avg_pool1d", { "torch.nn.functional.adaptive_avg_pool1d",
                                                   NULL }, CAT_POOL,
    "1-d average pooling to a given output size", 0, {
      { "adaptive_avg_pool1d(Tensor input, int[1] output_size) -> Tensor",
        k_adaptive_avg_pool1d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.adaptive_max_pool2d", { NULL }, CAT_POOL,
    "2-d max pooling to a given output size", 0, {
      { "adaptive_max_pool2d(Tensor input, Any output_size, bool return_indices=False) -> Any",
        k_adaptive_max_pool2d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.adaptive_max_pool2d_with_indices", { NULL }, CAT_POOL,
    "2-d max pooling to a given output size, with the indices of the maxima", 0, {
      { "adaptive_max_pool2d_with_indices(Tensor input, Any output_size, "
        "bool return_indices=False) -> Any", k_adaptive_max_pool2d_with_indices },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.adaptive_max_pool1d", { NULL }, CAT_POOL,
    "1-d max pooling to a given output size", 0, {
      { "adaptive_max_pool1d(Tensor input, int[1] output_size, bool return_indices=False) "
        "-> Any", k_adaptive_max_pool1d },
    } },
  { FX_OP_FUNCTION, "torch.nn.functional.adaptive_max_pool1d_with_indices", { NULL }, CAT_POOL,
    "1-d max pooling to a given output size, with the indices of the maxima", 0, {
      { "adaptive_max_pool1d_with_indices(Tensor input, int[1] output_size, "
        "bool return_indices=False) -> Any", k_adaptive_max_pool1d_with_indices },
    } },
  { FX_OP_FUNCTION, "torch.adaptive_max_pool1d", { NULL }, CAT_POOL,
    "1-d max pooling to a given output size, with the indices of the maxima", 0, {
      { "adaptive_max_pool1d(Tensor input, int[1] output_size) -> Any",
        k_adaptive_max_pool1d_with_indices },
    } },
  { .path = NULL },
};
