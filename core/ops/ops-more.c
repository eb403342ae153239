/* ops-more.c: registry entries of commonly used ops added late: triu/tril/diag/diagonal/trace,
 * outer, repeat_interleave, meshgrid, einsum, cdist, diff, and torch.nn.functional
 * activations (logsigmoid, shrinks, glu, mish, selu, ...), distances and losses with
 * PyTorch 1.13's signatures. Numeric kernels compute in float64 and return the inputs' dtype. */
#include "ops/op-table.h"
#include "tensor/elementwise.h"
#include "tensor/reduce.h"
#include "tensor/linalg.h"
#include "fx-error.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static gboolean
fail (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

/* PyTorch's C++ checks raise RuntimeError. */
static gboolean
fail (GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, msg);
  g_free (msg);
  return FALSE;
}

/* The checks torch.nn.functional makes in Python raise ValueError. */
static gboolean
fail_value (GError **error, const char *msg)
{
  g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, msg);
  return FALSE;
}

static int64_t
numel_of (int ndim, const int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  return n;
}

/* A contiguous float64 copy (owned) of t. */
static FxTensor *
as_f64 (FxTensor *t)
{
  FxTensor *d = fx_tensor_to_dtype (t, FX_DTYPE_FLOAT64);
  FxTensor *c = fx_tensor_clone (d);
  fx_tensor_unref (d);
  return c;
}

/* Takes d (float64) and returns it converted to dtype. */
static FxTensor *
finish (FxTensor *d, FxDType dtype)
{
  if (d == NULL)
    return NULL;
  FxTensor *r = fx_tensor_to_dtype (d, dtype);
  fx_tensor_unref (d);
  return r;
}

static gboolean
wrap_dim (int64_t dim, int ndim, int *out, GError **error)
{
  if (dim < G_MININT || dim > G_MAXINT)
    return fail (error, "Dimension out of range (expected to be in range of [%d, %d], but got %"
                 G_GINT64_FORMAT ")", -MAX (ndim, 1), MAX (ndim, 1) - 1, dim);
  return fx_tensor_wrap_dim ((int) dim, ndim, out, error);
}

/* ------------------------------------------------------------------ triu / tril / diag */

static FxTensor *
tri (FxTensor *x, int64_t diagonal, gboolean upper, GError **error)
{
  if (x->ndim < 2)
    {
      int dummy;
      fx_tensor_wrap_dim (-2, x->ndim, &dummy, error);   /* PyTorch's dim -2 range error */
      return NULL;
    }
  FxTensor *r = fx_tensor_clone (x);
  int64_t rows = x->shape[x->ndim - 2], cols = x->shape[x->ndim - 1];
  int64_t mats = rows * cols != 0 ? numel_of (x->ndim, x->shape) / (rows * cols) : 0;
  gsize es = fx_dtype_size (x->dtype);
  char *p = fx_tensor_data (r);
  for (int64_t m = 0; m < mats; m++)
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++)
        {
          gboolean keep = upper ? j - i >= diagonal : j - i <= diagonal;
          if (!keep)
            memset (p + ((m * rows + i) * cols + j) * es, 0, es);
        }
  return r;
}

static gboolean
k_triu (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, tri (argv[0].tensor, fx_arg_int (&argv[1]), TRUE, error));
}

static gboolean
k_tril (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, tri (argv[0].tensor, fx_arg_int (&argv[1]), FALSE, error));
}

static gboolean
k_triu_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = tri (argv[0].tensor, fx_arg_int (&argv[1]), TRUE, error);
  if (r == NULL || !fx_tensor_copy_into (argv[0].tensor, r, error))
    {
      if (r) fx_tensor_unref (r);
      return FALSE;
    }
  fx_tensor_unref (r);
  *result = fx_value_tensor (argv[0].tensor);
  return TRUE;
}

static gboolean
k_tril_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = tri (argv[0].tensor, fx_arg_int (&argv[1]), FALSE, error);
  if (r == NULL || !fx_tensor_copy_into (argv[0].tensor, r, error))
    {
      if (r) fx_tensor_unref (r);
      return FALSE;
    }
  fx_tensor_unref (r);
  *result = fx_value_tensor (argv[0].tensor);
  return TRUE;
}

static gboolean
k_diag (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  int64_t d = fx_arg_int (&argv[1]);
  gsize es = fx_dtype_size (x->dtype);
  FxTensor *c = fx_tensor_contiguous (x);
  const char *src = fx_tensor_data (c);
  FxTensor *r = NULL;
  if (x->ndim == 1)
    {
      int64_t n = x->shape[0] + (d < 0 ? -d : d);
      int64_t shape[2] = { n, n };
      r = fx_tensor_zeros (x->dtype, 2, shape);
      char *dst = fx_tensor_data (r);
      for (int64_t i = 0; i < x->shape[0]; i++)
        {
          int64_t row = d >= 0 ? i : i - d, col = d >= 0 ? i + d : i;
          memcpy (dst + (row * n + col) * es, src + i * es, es);
        }
    }
  else if (x->ndim == 2)
    {
      int64_t rows = x->shape[0], cols = x->shape[1];
      int64_t r0 = d >= 0 ? 0 : -d, c0 = d >= 0 ? d : 0;
      int64_t n = MIN (rows - r0, cols - c0);
      if (n < 0)   /* PyTorch 1.13 sizes the result negative and fails so */
        {
          fx_tensor_unref (c);
          return fail (error, "numel: integer multiplication overflow");
        }
      r = fx_tensor_zeros (x->dtype, 1, &n);
      char *dst = fx_tensor_data (r);
      for (int64_t i = 0; i < n; i++)
        memcpy (dst + i * es, src + ((r0 + i) * cols + c0 + i) * es, es);
    }
  else
    fail (error, "matrix or a vector expected");
  fx_tensor_unref (c);
  return fx_result_tensor (result, r);
}

/* ------------------------------------------------------------------ bilinear */

/* torch.bilinear(input1, input2, weight, bias): y[..., o] = x1ᵀ W[o] x2 + b[o]. One matmul
 * of x1 (B×in1) with W laid out as in1×(out·in2), then a product with x2 summed over in2. */
static gboolean
k_bilinear (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x1 = argv[0].tensor, *x2 = argv[1].tensor, *w = argv[2].tensor;
  FxTensor *bias = fx_arg_is_none (&argv[3]) ? NULL : argv[3].tensor;
  FxTensor *parts[4] = { NULL, NULL, NULL, NULL }, *y = NULL;
  int64_t batch = 1, out_f, in1, in2;
  int nd = x1->ndim;

  if (x1->ndim != x2->ndim)
    return fail (error, "bilinear(): input dimensions do not match: got %d and %d",
                 x1->ndim, x2->ndim);
  for (int i = 0; i < nd - 1; i++)
    {
      if (x1->shape[i] != x2->shape[i])
        return fail (error, "bilinear(): input batch dimensions do not match at dim %d: got %"
                     G_GINT64_FORMAT " and %" G_GINT64_FORMAT, i, x1->shape[i], x2->shape[i]);
      batch *= x1->shape[i];
    }
  if (nd == 0)
    return fail (error, "bilinear(): input1 must have at least one dimension");
  if (w->ndim < 3)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "Dimension out of range (expected to be in "
                   "range of [%d, %d], but got 2)", -MAX (w->ndim, 1), MAX (w->ndim, 1) - 1);
      return FALSE;
    }
  out_f = w->shape[0];
  in1 = x1->shape[nd - 1];
  in2 = x2->shape[nd - 1];
  if (in1 != w->shape[1])
    return fail (error, "bilinear(): input1 size does not match weight size: got %"
                 G_GINT64_FORMAT " but expected %" G_GINT64_FORMAT, in1, w->shape[1]);
  if (in2 != w->shape[2])
    return fail (error, "bilinear(): input2 size does not match weight size: got %"
                 G_GINT64_FORMAT " but expected %" G_GINT64_FORMAT, in2, w->shape[2]);
  if (bias != NULL && (bias->ndim == 0 || bias->shape[0] != out_f))
    return fail (error, "bilinear(): bias size does not match weight size: got %"
                 G_GINT64_FORMAT " but expected %" G_GINT64_FORMAT,
                 bias->ndim ? bias->shape[0] : 1, out_f);
  {
    FxTensor *others[3] = { x2, w, bias };
    for (int i = 0; i < 3; i++)
      if (others[i] != NULL && others[i]->dtype != x1->dtype)
        return fail (error, "expected scalar type %s but found %s",
                     fx_dtype_scalar_type_name (x1->dtype),
                     fx_dtype_scalar_type_name (others[i]->dtype));
  }
  {
    int64_t s1[2] = { batch, in1 }, s2[3] = { batch, 1, in2 }, sw[2] = { in1, out_f * in2 };
    int64_t st[3] = { batch, out_f, in2 }, sum_dim = 2;
    int perm[3] = { 1, 0, 2 };
    FxTensor *wp = fx_tensor_permute (w, 3, perm, error);
    parts[0] = wp ? fx_tensor_reshape (wp, 2, sw, error) : NULL;
    if (wp)
      fx_tensor_unref (wp);
    parts[1] = parts[0] ? fx_tensor_reshape (x1, 2, s1, error) : NULL;
    parts[2] = parts[1] ? fx_tensor_matmul (parts[1], parts[0], error) : NULL;
    parts[3] = parts[2] ? fx_tensor_reshape (parts[2], 3, st, error) : NULL;
    if (parts[3])
      {
        FxTensor *x2r = fx_tensor_reshape (x2, 3, s2, error);
        FxTensor *prod = x2r ? fx_tensor_mul (parts[3], x2r, error) : NULL;
        y = prod ? fx_tensor_sum (prod, &sum_dim, 1, FALSE, FX_DTYPE_N, error) : NULL;
        if (x2r)
          fx_tensor_unref (x2r);
        if (prod)
          fx_tensor_unref (prod);
      }
    for (int i = 0; i < 4; i++)
      if (parts[i])
        fx_tensor_unref (parts[i]);
  }
  if (y != NULL && bias != NULL)
    {
      FxTensor *yb = fx_tensor_add (y, bias, error);
      fx_tensor_unref (y);
      y = yb;
    }
  if (y != NULL)
    {
      /* back to the inputs' batch shape, with out_features last */
      int64_t shape[FX_TENSOR_MAX_DIMS];
      memcpy (shape, x1->shape, sizeof (int64_t) * (nd - 1));
      shape[nd - 1] = out_f;
      FxTensor *r = fx_tensor_reshape (y, nd, shape, error);
      fx_tensor_unref (y);
      y = r;
    }
  return fx_result_tensor (result, y);
}

/* ------------------------------------------------------------------ outer / diff */

static gboolean
k_outer (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor;
  if (a->ndim != 1 || b->ndim != 1)
    return fail (error, "outer: Expected 1-D argument self, but got %d-D",
                 a->ndim != 1 ? a->ndim : b->ndim);
  FxTensor *a2 = fx_tensor_unsqueeze (a, 1, error);
  if (a2 == NULL)
    return FALSE;
  FxTensor *r = fx_tensor_mul (a2, b, error);
  fx_tensor_unref (a2);
  return fx_result_tensor (result, r);
}

static gboolean
k_diff (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  int64_t n = fx_arg_int (&argv[1]);
  int dim;
  if (x->ndim == 0)
    return fail (error, "diff expects input to be at least one-dimensional");
  /* a negative n returns the input unchanged, as PyTorch 1.13 does */
  if (!wrap_dim (fx_arg_int (&argv[2]), x->ndim, &dim, error))
    return FALSE;
  FxTensor *cur = fx_tensor_ref (x);
  /* prepend / append join along dim */
  for (int side = 0; side < 2; side++)
    {
      const FxValue *v = &argv[3 + side];
      if (fx_arg_is_none (v))
        continue;
      FxTensor *o = v->tensor;
      if (o->ndim != cur->ndim)
        {
          fx_tensor_unref (cur);
          return fail (error, "diff expects prepend or append to be the same dimension as input");
        }
      for (int i = 0; i < cur->ndim; i++)
        if (i != dim && o->shape[i] != cur->shape[i])
          {
            fx_tensor_unref (cur);
            return fail (error, "diff expects the shape of tensor to prepend or append to match "
                         "that of input except along the differencing dimension");
          }
      int64_t shape[FX_TENSOR_MAX_DIMS];
      memcpy (shape, cur->shape, sizeof shape);
      shape[dim] += o->shape[dim];
      FxDType dt = fx_dtype_promote (cur->dtype, o->dtype);
      FxTensor *joined = fx_tensor_zeros (dt, cur->ndim, shape);
      FxTensor *first = side == 0 ? o : cur, *second = side == 0 ? cur : o;
      FxTensor *s1 = fx_tensor_narrow (joined, dim, 0, first->shape[dim], error);
      FxTensor *s2 = fx_tensor_narrow (joined, dim, first->shape[dim], second->shape[dim], error);
      gboolean ok = s1 && s2 && fx_tensor_copy_into (s1, first, error)
                    && fx_tensor_copy_into (s2, second, error);
      if (s1) fx_tensor_unref (s1);
      if (s2) fx_tensor_unref (s2);
      fx_tensor_unref (cur);
      cur = joined;
      if (!ok)
        {
          fx_tensor_unref (cur);
          return FALSE;
        }
    }
  for (int64_t k = 0; k < n && cur->shape[dim] > 0; k++)
    {
      int64_t len = cur->shape[dim] - 1;
      FxTensor *hi = fx_tensor_narrow (cur, dim, 1, len, error);
      FxTensor *lo = fx_tensor_narrow (cur, dim, 0, len, error);
      FxTensor *d = NULL;
      if (hi && lo)
        d = cur->dtype == FX_DTYPE_BOOL ? fx_tensor_binary (FX_BINARY_LOGICAL_XOR, hi, lo, error)
                                        : fx_tensor_sub (hi, lo, error);
      if (hi) fx_tensor_unref (hi);
      if (lo) fx_tensor_unref (lo);
      fx_tensor_unref (cur);
      if (d == NULL)
        return FALSE;
      cur = d;
    }
  FxTensor *r = fx_tensor_contiguous (cur);
  fx_tensor_unref (cur);
  return fx_result_tensor (result, r);
}

/* ------------------------------------------------------------------ repeat_interleave */

/* Repeats slice i of x along dim (all of x flattened when dim is None) counts[i] times, or
 * counts[0] times each when n_counts is 1. */
static FxTensor *
repeat_slices (FxTensor *x, const FxValue *dim_arg, const int64_t *counts, int64_t n_counts,
               GError **error)
{
  FxTensor *src;
  int dim;
  for (int64_t i = 0; i < n_counts; i++)
    if (counts[i] < 0)
      {
        fail (error, "repeats can not be negative");
        return NULL;
      }
  if (fx_arg_is_none (dim_arg))
    {
      int64_t n = numel_of (x->ndim, x->shape);
      src = fx_tensor_reshape (x, 1, &n, error);
      dim = 0;
    }
  else
    {
      if (!wrap_dim (fx_arg_int (dim_arg), x->ndim, &dim, error))
        return NULL;
      src = fx_tensor_ref (x);
    }
  if (src == NULL)
    return NULL;
  FxTensor *c = fx_tensor_contiguous (src);
  fx_tensor_unref (src);
  int nd = MAX (c->ndim, 1);
  int64_t shape[FX_TENSOR_MAX_DIMS];
  if (c->ndim == 0)
    shape[0] = 1;
  else
    memcpy (shape, c->shape, sizeof shape);
  int64_t outer = numel_of (dim, shape), len = shape[dim];
  int64_t inner = numel_of (nd - dim - 1, shape + dim + 1);
  if (n_counts != 1 && n_counts != len)
    {
      fx_tensor_unref (c);
      fail (error, "repeats must have the same size as input along dim");
      return NULL;
    }
  int64_t total = 0;
  for (int64_t i = 0; i < len; i++)
    total += counts[n_counts == 1 ? 0 : i];
  shape[dim] = total;
  FxTensor *r = fx_tensor_new_uninit (c->dtype, nd, shape);
  gsize row = inner * fx_dtype_size (c->dtype);
  const char *s = fx_tensor_data (c);
  char *d = fx_tensor_data (r);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < len; i++)
      for (int64_t k = 0; k < counts[n_counts == 1 ? 0 : i]; k++)
        {
          memcpy (d, s + (o * len + i) * row, row);
          d += row;
        }
  fx_tensor_unref (c);
  return r;
}

static gboolean
k_repeat_interleave (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t reps = fx_arg_int (&argv[1]);
  return fx_result_tensor (result, repeat_slices (argv[0].tensor, &argv[2], &reps, 1, error));
}

/* The repeat counts of a 0-d or 1-d integer tensor (a new array). */
static int64_t *
repeat_counts (FxTensor *repeats, int64_t *n, GError **error)
{
  if (repeats->ndim > 1)
    {
      fail (error, "repeats must be 0-dim or 1-dim tensor");
      return NULL;
    }
  if (repeats->dtype != FX_DTYPE_INT64 && repeats->dtype != FX_DTYPE_INT32)
    {
      fail (error, "\"repeat_interleave_cpu\" not implemented for '%s'",
            fx_dtype_scalar_type_name (repeats->dtype));
      return NULL;
    }
  FxTensor *t = fx_tensor_to_dtype (repeats, FX_DTYPE_INT64), *c = fx_tensor_clone (t);
  fx_tensor_unref (t);
  *n = numel_of (c->ndim, c->shape);
  int64_t *out = g_new (int64_t, MAX (*n, 1));
  memcpy (out, fx_tensor_data (c), *n * sizeof (int64_t));
  fx_tensor_unref (c);
  return out;
}

static gboolean
k_repeat_interleave_t (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t n;
  g_autofree int64_t *counts = repeat_counts (argv[1].tensor, &n, error);
  if (counts == NULL)
    return FALSE;
  return fx_result_tensor (result, repeat_slices (argv[0].tensor, &argv[2], counts, n, error));
}

/* repeat_interleave(repeats): each index i repeated repeats[i] times */
static gboolean
k_repeat_interleave_self (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *rep = argv[0].tensor;
  if (rep->ndim != 1)
    return fail (error, "repeat_interleave only accept 1D vector as repeat");
  int64_t n;
  g_autofree int64_t *counts = repeat_counts (rep, &n, error);
  if (counts == NULL)
    return FALSE;
  FxTensor *idx = fx_tensor_new_uninit (FX_DTYPE_INT64, 1, &n);
  int64_t *p = fx_tensor_data (idx);
  for (int64_t i = 0; i < n; i++)
    p[i] = i;
  FxValue none = fx_value_none ();
  FxTensor *r = repeat_slices (idx, &none, counts, n, error);
  fx_tensor_unref (idx);
  return fx_result_tensor (result, r);
}

/* ------------------------------------------------------------------ meshgrid */

static gboolean
meshgrid (const FxValue *list, const FxValue *indexing_arg, FxValue *result, GError **error)
{
  const char *indexing = fx_arg_is_none (indexing_arg) ? "ij" : indexing_arg->s->data;
  int n = (int) list->seq->len;
  gboolean xy;
  if (strcmp (indexing, "ij") == 0)
    xy = FALSE;
  else if (strcmp (indexing, "xy") == 0)
    xy = TRUE;
  else
    return fail (error, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s",
                 indexing);
  if (n == 0)
    return fail (error, "meshgrid expects a non-empty TensorList");
  if (n > FX_TENSOR_MAX_DIMS)
    return fail (error, "meshgrid: too many tensors");
  int64_t shape[FX_TENSOR_MAX_DIMS];
  for (int i = 0; i < n; i++)
    {
      FxTensor *t = list->seq->items[i].tensor;
      if (t->ndim > 1)   /* PyTorch prints the whole tensor after "got: " */
        return fail (error, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list");
      if (t->dtype != list->seq->items[0].tensor->dtype)
        return fail (error, "torch.meshgrid: Expected all tensors in the tensor list to have "
                     "the same dtype");
      shape[i] = t->ndim ? t->shape[0] : 1;
    }
  gboolean swap = xy && n >= 2;
  if (swap)
    {
      int64_t tmp = shape[0]; shape[0] = shape[1]; shape[1] = tmp;
    }
  FxSeq *seq = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    {
      FxTensor *t = list->seq->items[i].tensor;
      int pos = swap && i < 2 ? 1 - i : i;
      int64_t vshape[FX_TENSOR_MAX_DIMS];
      for (int k = 0; k < n; k++)
        vshape[k] = k == pos ? shape[k] : 1;
      FxTensor *v = fx_tensor_reshape (t, n, vshape, error);
      FxTensor *e = v ? fx_tensor_expand (v, n, shape, error) : NULL;
      if (v) fx_tensor_unref (v);
      if (e == NULL)
        {
          fx_seq_unref (seq);
          return FALSE;
        }
      seq->items[i] = fx_value_take_tensor (e);
    }
  *result = fx_value_take_tuple (seq);
  return TRUE;
}

static gboolean
k_meshgrid (const FxValue *argv, FxValue *result, GError **error)
{
  return meshgrid (&argv[0], &argv[1], result, error);
}

/* meshgrid(a, b, ...): the positional tensors gathered into a list */
#define MESHGRID_N(n)                                                                   \
  static gboolean                                                                       \
  k_meshgrid##n (const FxValue *argv, FxValue *result, GError **error)                  \
  {                                                                                     \
    FxSeq *seq = fx_seq_new (0);                                                        \
    for (int i = 0; i < n; i++)                                                         \
      fx_seq_append (seq, fx_value_copy (&argv[i]));                                    \
    FxValue list = fx_value_take_tuple (seq);                                           \
    gboolean ok = meshgrid (&list, &argv[n], result, error);                            \
    fx_value_clear (&list);                                                             \
    return ok;                                                                          \
  }
MESHGRID_N (2)
MESHGRID_N (3)
MESHGRID_N (4)
MESHGRID_N (5)

/* ------------------------------------------------------------------ einsum */

/* One operand reduced to distinct letters: repeated letters become a diagonal view. */
typedef struct {
  FxTensor *t;
  int n;
  char letters[FX_TENSOR_MAX_DIMS];
} EinOperand;

static gboolean
ein_prepare (FxTensor *x, const char *subs, int n_subs, int index, int64_t *sizes,
             EinOperand *out, GError **error)
{
  if (n_subs != x->ndim)
    return fail (error, "einsum(): the number of subscripts in the equation (%d) does not match "
                 "the number of dimensions (%d) for operand %d and no ellipsis was given",
                 n_subs, x->ndim, index);
  int64_t shape[FX_TENSOR_MAX_DIMS], strides[FX_TENSOR_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < n_subs; i++)
    {
      int c = (unsigned char) subs[i];
      if (sizes[c] >= 0 && sizes[c] != x->shape[i] && x->shape[i] != 1 && sizes[c] != 1)
        return fail (error, "einsum(): subscript %c has size %" G_GINT64_FORMAT " for operand %d "
                     "which does not broadcast with previously seen size %" G_GINT64_FORMAT,
                     c, x->shape[i], index, sizes[c]);
      int k;
      for (k = 0; k < n; k++)
        if (out->letters[k] == c)
          break;
      if (k < n)
        {
          if (shape[k] != x->shape[i])
            return fail (error, "einsum(): subscript %c is repeated for operand %d but the sizes "
                         "don't match, %" G_GINT64_FORMAT " != %" G_GINT64_FORMAT,
                         c, index, shape[k], x->shape[i]);
          strides[k] += x->strides[i];
          continue;
        }
      out->letters[n] = (char) c;
      shape[n] = x->shape[i];
      strides[n] = x->strides[i];
      n++;
      if (sizes[c] < 0 || sizes[c] == 1)
        sizes[c] = x->shape[i];
    }
  out->n = n;
  out->t = fx_tensor_as_strided (x, n, shape, strides, x->offset, error);
  return out->t != NULL;
}

static int
ein_find (const EinOperand *op, char c)
{
  for (int i = 0; i < op->n; i++)
    if (op->letters[i] == c)
      return i;
  return -1;
}

/* Sums away the letters of op not in keep (a NUL-ended letter set). */
static gboolean
ein_sum_unused (EinOperand *op, const char *keep1, const char *keep2, GError **error)
{
  int64_t dims[FX_TENSOR_MAX_DIMS];
  int nd = 0, n = 0;
  char letters[FX_TENSOR_MAX_DIMS];
  for (int i = 0; i < op->n; i++)
    if (strchr (keep1, op->letters[i]) == NULL && (keep2 == NULL || strchr (keep2, op->letters[i]) == NULL))
      dims[nd++] = i;
    else
      letters[n++] = op->letters[i];
  if (nd == 0)
    return TRUE;
  FxTensor *s = fx_tensor_sum (op->t, dims, nd, FALSE, FX_DTYPE_N, error);
  if (s == NULL)
    return FALSE;
  fx_tensor_unref (op->t);
  op->t = s;
  op->n = n;
  memcpy (op->letters, letters, n);
  return TRUE;
}

/* Permutes op's dims into the letter order given (all of them present). */
static FxTensor *
ein_permute (const EinOperand *op, const char *order, int n, GError **error)
{
  int perm[FX_TENSOR_MAX_DIMS];
  for (int i = 0; i < n; i++)
    perm[i] = ein_find (op, order[i]);
  return fx_tensor_permute (op->t, n, perm, error);
}

static gboolean einsum_chain (const char *eq, const FxValue *list, FxValue *result,
                              GError **error);

static gboolean
k_einsum (const FxValue *argv, FxValue *result, GError **error)
{
  const char *eq = argv[0].s->data;
  const FxValue *list = &argv[1];
  int n_ops = (int) list->seq->len;
  char subs[2][64] = { "", "" }, outs[64] = "";
  int n_subs[2] = { 0, 0 }, n_out = 0, cur = 0;
  gboolean explicit_out = FALSE;
  int64_t sizes[256];
  EinOperand ops[2] = { { NULL, 0, "" }, { NULL, 0, "" } };
  gboolean ok = FALSE;

  if (n_ops > 2 && strchr (eq, '.') == NULL)
    return einsum_chain (eq, list, result, error);
  for (int i = 0; i < 256; i++)
    sizes[i] = -1;
  for (const char *p = eq; *p; p++)
    {
      if (*p == ' ')
        continue;
      if (*p == ',')
        {
          if (explicit_out)
            return fail (error, "einsum(): found ',' for operand %d after '->'", cur + 1);
          if (++cur >= 2)
            return fail (error, "einsum(): more than two operands with an ellipsis are not "
                         "supported");
          continue;
        }
      if (*p == '-' && p[1] == '>')
        {
          if (explicit_out)
            return fail (error, "einsum(): found '->' more than once in equation");
          explicit_out = TRUE;
          p++;
          continue;
        }
      if (*p == '.')
        {
          /* "..." is kept as one '.' until the operands' ranks are known */
          char *seen = explicit_out ? outs : subs[cur];
          if (p[1] != '.' || p[2] != '.')
            return fail (error, "einsum(): found '.' for operand %d that is not part of any "
                         "ellipsis", cur);
          if (memchr (seen, '.', explicit_out ? n_out : n_subs[cur]) != NULL)
            return fail (error, "einsum(): found '.' for operand %d for which an ellipsis was "
                         "already found", cur);
          if (explicit_out)
            outs[n_out++] = '.';
          else
            subs[cur][n_subs[cur]++] = '.';
          p += 2;
          continue;
        }
      if (!g_ascii_isalpha (*p))
        return fail (error, "einsum(): invalid subscript given at index %d in the equation "
                     "string, subscripts must be in [a-zA-Z]", (int) (p - eq));
      if (explicit_out)
        {
          if (strchr (outs, *p))
            return fail (error, "einsum(): output subscript %c appears more than once in the "
                         "output", *p);
          if (n_out >= FX_TENSOR_MAX_DIMS)
            return fail (error, "einsum(): too many output subscripts");
          outs[n_out++] = *p;
        }
      else
        {
          if (n_subs[cur] >= 63)
            return fail (error, "einsum(): too many subscripts");
          subs[cur][n_subs[cur]++] = *p;
        }
    }
  if (cur + 1 > n_ops)
    return fail (error, "einsum(): fewer operands were provided than specified in the equation");
  if (cur + 1 < n_ops)
    return fail (error, "einsum(): more operands were provided than specified in the equation");
  /* The ellipsis becomes placeholder subscripts \1, \2, ... for the broadcast dims,
   * right-aligned across operands. */
  int n_ell = 0;
  for (int k = 0; k <= cur; k++)
    {
      char *dot = memchr (subs[k], '.', n_subs[k]);
      if (dot == NULL)
        continue;
      int nd = list->seq->items[k].tensor->ndim, e = nd - (n_subs[k] - 1);
      if (e < 0)
        return fail (error, "einsum(): the number of subscripts in the equation (%d) is more "
                     "than the number of dimensions (%d) for operand %d", n_subs[k] - 1, nd, k);
      n_ell = MAX (n_ell, e);
    }
  for (int k = 0; k <= cur; k++)
    {
      char *dot = memchr (subs[k], '.', n_subs[k]);
      if (dot == NULL)
        continue;
      int e = list->seq->items[k].tensor->ndim - (n_subs[k] - 1), at = (int) (dot - subs[k]);
      char tail[64];
      int n_tail = n_subs[k] - at - 1;
      if (n_subs[k] - 1 + e >= 63)
        return fail (error, "einsum(): too many subscripts");
      memcpy (tail, dot + 1, n_tail);
      for (int j = 0; j < e; j++)
        subs[k][at + j] = (char) (1 + n_ell - e + j);
      memcpy (subs[k] + at + e, tail, n_tail);
      n_subs[k] += e - 1;
      subs[k][n_subs[k]] = '\0';
    }
  if (explicit_out)
    {
      char *dot = memchr (outs, '.', n_out);
      if (dot != NULL)
        {
          int at = (int) (dot - outs), n_tail = n_out - at - 1;
          char tail[64];
          if (n_out - 1 + n_ell > FX_TENSOR_MAX_DIMS)
            return fail (error, "einsum(): too many output subscripts");
          memcpy (tail, dot + 1, n_tail);
          for (int j = 0; j < n_ell; j++)
            outs[at + j] = (char) (1 + j);
          memcpy (outs + at + n_ell, tail, n_tail);
          n_out += n_ell - 1;
          outs[n_out] = '\0';
        }
    }
  else
    {
      /* implicit output: the ellipsis dims, then the letters seen exactly once in
       * alphabetical order */
      int count[256] = { 0 };
      for (int j = 0; j < n_ell; j++)
        outs[n_out++] = (char) (1 + j);
      for (int k = 0; k <= cur; k++)
        for (int i = 0; i < n_subs[k]; i++)
          count[(unsigned char) subs[k][i]]++;
      for (int c = 'A'; c <= 'z'; c++)
        if (count[c] == 1 && n_out < FX_TENSOR_MAX_DIMS)
          outs[n_out++] = (char) c;
    }
  for (int k = 0; k <= cur; k++)
    if (!ein_prepare (list->seq->items[k].tensor, subs[k], n_subs[k], k, sizes, &ops[k], error))
      goto out;
  for (int i = 0; i < n_out; i++)
    if (sizes[(unsigned char) outs[i]] < 0)
      {
        fail (error, "einsum(): output subscript %c does not appear in the equation for any "
              "input operand", outs[i]);
        goto out;
      }

  FxTensor *r = NULL;
  if (cur == 0)
    {
      if (!ein_sum_unused (&ops[0], outs, NULL, error))
        goto out;
      r = ein_permute (&ops[0], outs, n_out, error);
    }
  else
    {
      /* letters only in one operand and not in the output are summed first */
      char l0[FX_TENSOR_MAX_DIMS + 1] = "", l1[FX_TENSOR_MAX_DIMS + 1] = "";
      memcpy (l0, ops[0].letters, ops[0].n);
      memcpy (l1, ops[1].letters, ops[1].n);
      if (!ein_sum_unused (&ops[0], outs, l1, error) || !ein_sum_unused (&ops[1], outs, l0, error))
        goto out;
      char batch[FX_TENSOR_MAX_DIMS], left[FX_TENSOR_MAX_DIMS], right[FX_TENSOR_MAX_DIMS],
           contr[FX_TENSOR_MAX_DIMS];
      int nb = 0, nl = 0, nr = 0, nc = 0;
      for (int i = 0; i < ops[0].n; i++)
        {
          char c = ops[0].letters[i];
          gboolean in_b = ein_find (&ops[1], c) >= 0, in_out = memchr (outs, c, n_out) != NULL;
          if (in_b && in_out)
            batch[nb++] = c;
          else if (in_b)
            contr[nc++] = c;
          else
            left[nl++] = c;
        }
      for (int i = 0; i < ops[1].n; i++)
        if (ein_find (&ops[0], ops[1].letters[i]) < 0)
          right[nr++] = ops[1].letters[i];
      /* A -> (batch, left, contr), B -> (batch, contr, right); broadcast size-1 dims */
      char order_a[FX_TENSOR_MAX_DIMS], order_b[FX_TENSOR_MAX_DIMS];
      int na = 0, nbb = 0;
      for (int i = 0; i < nb; i++) order_a[na++] = batch[i];
      for (int i = 0; i < nl; i++) order_a[na++] = left[i];
      for (int i = 0; i < nc; i++) order_a[na++] = contr[i];
      for (int i = 0; i < nb; i++) order_b[nbb++] = batch[i];
      for (int i = 0; i < nc; i++) order_b[nbb++] = contr[i];
      for (int i = 0; i < nr; i++) order_b[nbb++] = right[i];
      FxTensor *pa = ein_permute (&ops[0], order_a, na, error);
      FxTensor *pb = pa ? ein_permute (&ops[1], order_b, nbb, error) : NULL;
      if (pb == NULL)
        {
          if (pa) fx_tensor_unref (pa);
          goto out;
        }
      int64_t bs = 1, ls = 1, rs = 1, cs = 1, ea[FX_TENSOR_MAX_DIMS], eb[FX_TENSOR_MAX_DIMS];
      for (int i = 0; i < na; i++)
        ea[i] = sizes[(unsigned char) order_a[i]];
      for (int i = 0; i < nbb; i++)
        eb[i] = sizes[(unsigned char) order_b[i]];
      for (int i = 0; i < nb; i++) bs *= sizes[(unsigned char) batch[i]];
      for (int i = 0; i < nl; i++) ls *= sizes[(unsigned char) left[i]];
      for (int i = 0; i < nr; i++) rs *= sizes[(unsigned char) right[i]];
      for (int i = 0; i < nc; i++) cs *= sizes[(unsigned char) contr[i]];
      FxTensor *xa = fx_tensor_expand (pa, na, ea, error);
      FxTensor *xb = xa ? fx_tensor_expand (pb, nbb, eb, error) : NULL;
      fx_tensor_unref (pa);
      fx_tensor_unref (pb);
      int64_t sa[3] = { bs, ls, cs }, sb[3] = { bs, cs, rs };
      FxTensor *ma = xb ? fx_tensor_reshape (xa, 3, sa, error) : NULL;
      FxTensor *mb = ma ? fx_tensor_reshape (xb, 3, sb, error) : NULL;
      if (xa) fx_tensor_unref (xa);
      if (xb) fx_tensor_unref (xb);
      FxTensor *prod = NULL;
      if (mb)
        {
          if (ma->dtype != mb->dtype)
            fail (error, "expected scalar type %s but found %s",
                  fx_dtype_scalar_type_name (ma->dtype), fx_dtype_scalar_type_name (mb->dtype));
          else
            prod = fx_tensor_bmm (ma, mb, error);
        }
      if (ma) fx_tensor_unref (ma);
      if (mb) fx_tensor_unref (mb);
      if (prod == NULL)
        goto out;
      /* (batch..., left..., right...) then into output order */
      int64_t full[FX_TENSOR_MAX_DIMS];
      EinOperand res = { NULL, 0, "" };
      for (int i = 0; i < nb; i++) res.letters[res.n++] = batch[i];
      for (int i = 0; i < nl; i++) res.letters[res.n++] = left[i];
      for (int i = 0; i < nr; i++) res.letters[res.n++] = right[i];
      for (int i = 0; i < res.n; i++)
        full[i] = sizes[(unsigned char) res.letters[i]];
      res.t = fx_tensor_reshape (prod, res.n, full, error);
      fx_tensor_unref (prod);
      if (res.t == NULL)
        goto out;
      r = ein_permute (&res, outs, n_out, error);
      fx_tensor_unref (res.t);
    }
  if (r != NULL)
    {
      FxTensor *c = fx_tensor_contiguous (r);
      fx_tensor_unref (r);
      ok = fx_result_tensor (result, c);
    }
out:
  for (int k = 0; k < 2; k++)
    if (ops[k].t)
      fx_tensor_unref (ops[k].t);
  return ok;
}

/* ------------------------------------------------------------------ cdist */

static gboolean
k_cdist (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor;
  double p = fx_arg_float (&argv[2]);
  if (a->ndim < 2)
    return fail (error, "cdist only supports at least 2D tensors, X1 got: %dD", a->ndim);
  if (b->ndim < 2)
    return fail (error, "cdist only supports at least 2D tensors, X2 got: %dD", b->ndim);
  int64_t ca = a->shape[a->ndim - 1], cb = b->shape[b->ndim - 1];
  if (ca != cb)
    return fail (error, "X1 and X2 must have the same number of columns. X1: %" G_GINT64_FORMAT
                 " X2: %" G_GINT64_FORMAT, ca, cb);
  if (!fx_dtype_is_floating (a->dtype) || !fx_dtype_is_floating (b->dtype))
    return fail (error, "cdist only supports floating-point dtypes, X1 got: %s",
                 fx_dtype_scalar_type_name (a->dtype));
  if (p < 0)
    return fail (error, "cdist only supports non-negative p values");
  /* broadcast the batch dims */
  int nbd;
  int64_t bshape[FX_TENSOR_MAX_DIMS];
  if (!fx_broadcast_shapes (a->ndim - 2, a->shape, b->ndim - 2, b->shape, &nbd, bshape, error))
    return FALSE;
  int64_t r1 = a->shape[a->ndim - 2], r2 = b->shape[b->ndim - 2];
  int64_t sa[FX_TENSOR_MAX_DIMS], sb[FX_TENSOR_MAX_DIMS], so[FX_TENSOR_MAX_DIMS];
  memcpy (sa, bshape, nbd * sizeof (int64_t));
  memcpy (sb, bshape, nbd * sizeof (int64_t));
  memcpy (so, bshape, nbd * sizeof (int64_t));
  sa[nbd] = r1; sa[nbd + 1] = ca;
  sb[nbd] = r2; sb[nbd + 1] = ca;
  so[nbd] = r1; so[nbd + 1] = r2;
  FxTensor *ea = fx_tensor_expand (a, nbd + 2, sa, error);
  FxTensor *eb = ea ? fx_tensor_expand (b, nbd + 2, sb, error) : NULL;
  if (eb == NULL)
    {
      if (ea) fx_tensor_unref (ea);
      return FALSE;
    }
  FxTensor *da = as_f64 (ea), *db = as_f64 (eb);
  fx_tensor_unref (ea);
  fx_tensor_unref (eb);
  FxTensor *out = fx_tensor_new_uninit (FX_DTYPE_FLOAT64, nbd + 2, so);
  const double *pa = fx_tensor_data (da), *pb = fx_tensor_data (db);
  double *po = fx_tensor_data (out);
  int64_t batches = numel_of (nbd, bshape);
  for (int64_t bi = 0; bi < batches; bi++)
    for (int64_t i = 0; i < r1; i++)
      for (int64_t j = 0; j < r2; j++)
        {
          const double *x = pa + (bi * r1 + i) * ca, *y = pb + (bi * r2 + j) * ca;
          double acc = 0.0;
          for (int64_t k = 0; k < ca; k++)
            {
              double d = fabs (x[k] - y[k]);
              if (p == 0.0)
                acc += d != 0.0;
              else if (isinf (p))
                acc = MAX (acc, d);
              else if (p == 1.0)
                acc += d;
              else if (p == 2.0)
                acc += d * d;
              else
                acc += pow (d, p);
            }
          if (p == 2.0)
            acc = sqrt (acc);
          else if (p != 0.0 && p != 1.0 && !isinf (p))
            acc = pow (acc, 1.0 / p);
          po[(bi * r1 + i) * r2 + j] = acc;
        }
  fx_tensor_unref (da);
  fx_tensor_unref (db);
  return fx_result_tensor (result, finish (out, fx_dtype_promote (a->dtype, b->dtype)));
}

/* ------------------------------------------------------------------ nn.functional: activations */

/* Applies fn(x, p0, p1) to every element of a float64 copy of x; the result keeps x's
 * dtype. name: the kernel named in the error for non-floating input (NULL: any dtype). */
typedef double (*MapFunc) (double x, double p0, double p1);

static FxTensor *
map_unary (FxTensor *x, MapFunc fn, double p0, double p1, const char *name, GError **error)
{
  if (name != NULL && !fx_dtype_is_floating (x->dtype))
    {
      fail (error, "\"%s\" not implemented for '%s'", name, fx_dtype_scalar_type_name (x->dtype));
      return NULL;
    }
  FxTensor *d = as_f64 (x);
  double *p = fx_tensor_data (d);
  int64_t n = numel_of (d->ndim, d->shape);
  for (int64_t i = 0; i < n; i++)
    p[i] = fn (p[i], p0, p1);
  return finish (d, x->dtype);
}

/* inplace=True: writes the mapped values back into x and returns x. */
static gboolean
map_result (FxTensor *x, FxTensor *r, gboolean inplace, FxValue *result, GError **error)
{
  if (r == NULL)
    return FALSE;
  if (!inplace)
    return fx_result_tensor (result, r);
  gboolean ok = fx_tensor_copy_into (x, r, error);
  fx_tensor_unref (r);
  if (ok)
    *result = fx_value_tensor (x);
  return ok;
}

static double f_logsigmoid (double x, double a, double b) { (void) a; (void) b; return MIN (x, 0.0) - log1p (exp (-fabs (x))); }
static double f_hardshrink (double x, double l, double b) { (void) b; return (x >= -l && x <= l) ? 0.0 : x; }
static double f_softshrink (double x, double l, double b) { (void) b; return x > l ? x - l : x < -l ? x + l : 0.0; }
static double f_threshold (double x, double t, double v) { return x > t ? x : v; }
static double
f_mish (double x, double a, double b)
{
  (void) a; (void) b;
  double sp = x > 20.0 ? x : log1p (exp (x));
  return x * tanh (sp);
}
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946
static double f_selu (double x, double a, double b) { (void) a; (void) b; return SELU_SCALE * (x > 0 ? x : SELU_ALPHA * expm1 (x)); }
static double f_celu (double x, double a, double b) { (void) b; return x > 0 ? x : a * expm1 (x / a); }

static gboolean
k_logsigmoid (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, map_unary (argv[0].tensor, f_logsigmoid, 0, 0,
                                              "log_sigmoid_cpu", error));
}

static gboolean
k_hardshrink (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, map_unary (argv[0].tensor, f_hardshrink,
                                              fx_arg_float (&argv[1]), 0, "hardshrink_cpu", error));
}

static gboolean
k_softshrink (const FxValue *argv, FxValue *result, GError **error)
{
  double l = fx_arg_float (&argv[1]);
  if (l < 0)
    {
      GString *s = g_string_new ("lambda must be greater or equal to 0, but found to be ");
      g_string_append_printf (s, "%g.", l);
      fail (error, "%s", s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  return fx_result_tensor (result, map_unary (argv[0].tensor, f_softshrink, l, 0, "softshrink_cpu",
                                              error));
}

static gboolean
k_threshold (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  return map_result (x, map_unary (x, f_threshold, fx_arg_float (&argv[1]),
                                   fx_arg_float (&argv[2]), NULL, error),
                     fx_arg_bool (&argv[3]), result, error);
}

static gboolean
k_threshold_i (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  return map_result (x, map_unary (x, f_threshold, fx_arg_float (&argv[1]),
                                   fx_arg_float (&argv[2]), NULL, error),
                     TRUE, result, error);
}

static gboolean
k_mish (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  return map_result (x, map_unary (x, f_mish, 0, 0, "mish_cpu", error), fx_arg_bool (&argv[1]),
                     result, error);
}

static gboolean
k_selu (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  return map_result (x, map_unary (x, f_selu, 0, 0, "elu_cpu", error), fx_arg_bool (&argv[1]),
                     result, error);
}

static gboolean
k_celu (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  double alpha = fx_arg_float (&argv[1]);
  if (alpha == 0.0)
    return fail (error, "ZeroDivisionError: alpha cannot be 0 for CELU");
  return map_result (x, map_unary (x, f_celu, alpha, 0, "elu_cpu", error), fx_arg_bool (&argv[2]),
                     result, error);
}

static gboolean
k_softmin (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  int64_t dim = fx_arg_is_none (&argv[1]) ? fx_softmax_default_dim (x->ndim) : fx_arg_int (&argv[1]);
  FxDType dt = argv[3].kind == FX_VALUE_DTYPE ? argv[3].dtype : FX_DTYPE_N;
  FxTensor *n = fx_tensor_neg (x, error);
  if (n == NULL)
    return FALSE;
  FxTensor *r = fx_tensor_softmax (n, dim, dt, error);
  fx_tensor_unref (n);
  return fx_result_tensor (result, r);
}

static gboolean
k_glu (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  int dim;
  if (x->ndim == 0)
    return fail (error, "glu does not support scalars because halving size must be even");
  if (!wrap_dim (fx_arg_int (&argv[1]), x->ndim, &dim, error))
    return FALSE;
  if (x->shape[dim] % 2 != 0)
    return fail (error, "Halving dimension must be even, but dimension %d is size %" G_GINT64_FORMAT,
                 dim, x->shape[dim]);
  int64_t half = x->shape[dim] / 2;
  FxTensor *a = fx_tensor_narrow (x, dim, 0, half, error);
  FxTensor *b = a ? fx_tensor_narrow (x, dim, half, half, error) : NULL;
  FxTensor *s = b ? fx_tensor_sigmoid (b, error) : NULL;
  FxTensor *r = s ? fx_tensor_mul (a, s, error) : NULL;
  if (a) fx_tensor_unref (a);
  if (b) fx_tensor_unref (b);
  if (s) fx_tensor_unref (s);
  return fx_result_tensor (result, r);
}

static gboolean
k_prelu (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor, *w = argv[1].tensor;
  int64_t nw = numel_of (w->ndim, w->shape);
  int64_t channels = x->ndim >= 2 ? x->shape[1] : 1;
  if (nw != 1 && (x->ndim == 0 || nw != channels))
    {
      if (x->ndim == 0)
        return fail (error, "Not allow zero-dim input tensor.");
      return fail (error, "Mismatch of parameter numbers and input channel size. Found parameter "
                   "numbers = %" G_GINT64_FORMAT " and channel size = %" G_GINT64_FORMAT ".",
                   nw, channels);
    }
  if (w->ndim > 1)
    return fail (error, "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = %d",
                 w->ndim);
  FxTensor *dx = as_f64 (x), *dw = as_f64 (w);
  double *px = fx_tensor_data (dx);
  const double *pw = fx_tensor_data (dw);
  int64_t n = numel_of (x->ndim, x->shape);
  int64_t inner = x->ndim >= 2 ? numel_of (x->ndim - 2, x->shape + 2) : 1;
  for (int64_t i = 0; i < n; i++)
    if (px[i] < 0)
      px[i] *= nw == 1 ? pw[0] : pw[(i / inner) % channels];
  fx_tensor_unref (dw);
  return fx_result_tensor (result, finish (dx, fx_dtype_promote (x->dtype, w->dtype)));
}

static gboolean
k_normalize (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  int64_t dim = fx_arg_int (&argv[2]);
  double eps = fx_arg_float (&argv[3]);
  FxTensor *nrm = fx_tensor_norm (x, fx_arg_float (&argv[1]), &dim, 1, TRUE, FX_DTYPE_N, error);
  if (nrm == NULL)
    return FALSE;
  FxTensor *d = as_f64 (nrm);
  fx_tensor_unref (nrm);
  double *p = fx_tensor_data (d);
  for (int64_t i = 0, n = numel_of (d->ndim, d->shape); i < n; i++)
    p[i] = MAX (p[i], eps);
  FxTensor *den = finish (d, x->dtype);
  FxTensor *r = fx_tensor_div (x, den, error);
  fx_tensor_unref (den);
  return fx_result_tensor (result, r);
}

/* ------------------------------------------------------------------ losses */

typedef enum { RED_NONE, RED_MEAN, RED_SUM, RED_BATCHMEAN } Reduction;

/* reduction=, or the legacy size_average/reduce pair when either is given. */
static gboolean
get_reduction (const FxValue *size_average, const FxValue *reduce, const FxValue *reduction,
               gboolean allow_batchmean, Reduction *out, GError **error)
{
  if (!fx_arg_is_none (size_average) || !fx_arg_is_none (reduce))
    {
      gboolean sa = fx_arg_is_none (size_average) || fx_arg_bool (size_average);
      gboolean rd = fx_arg_is_none (reduce) || fx_arg_bool (reduce);
      *out = sa && rd ? RED_MEAN : rd ? RED_SUM : RED_NONE;
      return TRUE;
    }
  const char *r = reduction->s->data;
  if (strcmp (r, "none") == 0)
    *out = RED_NONE;
  else if (strcmp (r, "mean") == 0)
    *out = RED_MEAN;
  else if (strcmp (r, "sum") == 0)
    *out = RED_SUM;
  else if (allow_batchmean && strcmp (r, "batchmean") == 0)
    *out = RED_BATCHMEAN;
  else
    {
      g_autofree char *msg = g_strdup_printf ("%s is not a valid value for reduction", r);
      return fail_value (error, msg);
    }
  return TRUE;
}

/* Takes the per-element losses l (float64) and reduces them; the result has dtype dt. */
static FxTensor *
reduce_loss (FxTensor *l, Reduction red, FxDType dt)
{
  if (red == RED_NONE)
    return finish (l, dt);
  const double *p = fx_tensor_data (l);
  int64_t n = numel_of (l->ndim, l->shape);
  double s = 0.0;
  for (int64_t i = 0; i < n; i++)
    s += p[i];
  if (red == RED_MEAN)
    s = n ? s / n : NAN;
  else if (red == RED_BATCHMEAN && l->ndim > 0)
    s /= l->shape[0];
  fx_tensor_unref (l);
  return finish (fx_tensor_scalar_double (FX_DTYPE_FLOAT64, s), dt);
}

static gboolean
size_string (const FxTensor *t, GString *s)
{
  g_string_append (s, "torch.Size([");
  for (int i = 0; i < t->ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", t->shape[i]);
  g_string_append (s, "])");
  return TRUE;
}

/* Expands input and target to their broadcast shape and copies them to float64. */
static gboolean
broadcast_pair (FxTensor *x, FxTensor *y, FxTensor **dx, FxTensor **dy, GError **error)
{
  int nd;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  if (!fx_broadcast_shapes (x->ndim, x->shape, y->ndim, y->shape, &nd, shape, error))
    return FALSE;
  FxTensor *ex = fx_tensor_expand (x, nd, shape, error);
  FxTensor *ey = ex ? fx_tensor_expand (y, nd, shape, error) : NULL;
  if (ey == NULL)
    {
      if (ex) fx_tensor_unref (ex);
      return FALSE;
    }
  *dx = as_f64 (ex);
  *dy = as_f64 (ey);
  fx_tensor_unref (ex);
  fx_tensor_unref (ey);
  return TRUE;
}

typedef double (*PairLoss) (double x, double y, double p);
static double l_mse (double x, double y, double p) { (void) p; return (x - y) * (x - y); }
static double l_l1 (double x, double y, double p) { (void) p; return fabs (x - y); }
static double
l_smooth_l1 (double x, double y, double beta)
{
  double d = fabs (x - y);
  if (beta == 0.0)
    return d;
  return d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
}
static double
l_kl (double x, double y, double log_target)
{
  if (log_target != 0.0)
    return exp (y) * (y - x);
  if (isnan (y))
    return NAN;
  return y == 0.0 ? 0.0 : y * (log (y) - x);
}

/* (input, target, size_average, reduce, reduction[, param]) */
static gboolean
pair_loss (const FxValue *argv, PairLoss fn, double param, gboolean batchmean, const char *name,
           FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor, *y = argv[1].tensor, *dx, *dy;
  Reduction red;
  if (!get_reduction (&argv[2], &argv[3], &argv[4], batchmean, &red, error))
    return FALSE;
  FxDType dt = fx_dtype_promote (x->dtype, y->dtype);
  if (!fx_dtype_is_floating (dt))
    {
      if (batchmean)
        return fail (error, "kl_div: Integral inputs not supported.");
      return fail (error, "\"%s\" not implemented for '%s'", name, fx_dtype_scalar_type_name (dt));
    }
  if (!broadcast_pair (x, y, &dx, &dy, error))
    return FALSE;
  double *px = fx_tensor_data (dx);
  const double *py = fx_tensor_data (dy);
  for (int64_t i = 0, n = numel_of (dx->ndim, dx->shape); i < n; i++)
    px[i] = fn (px[i], py[i], param);
  fx_tensor_unref (dy);
  return fx_result_tensor (result, reduce_loss (dx, red, dt));
}

static gboolean
k_mse_loss (const FxValue *argv, FxValue *result, GError **error)
{
  return pair_loss (argv, l_mse, 0, FALSE, "mse_cpu", result, error);
}

static gboolean
k_l1_loss (const FxValue *argv, FxValue *result, GError **error)
{
  return pair_loss (argv, l_l1, 0, FALSE, "l1_cpu", result, error);
}

static gboolean
k_smooth_l1_loss (const FxValue *argv, FxValue *result, GError **error)
{
  double beta = fx_arg_float (&argv[5]);
  if (beta < 0)
    return fail (error, "smooth_l1_loss does not support negative values for beta.");
  return pair_loss (argv, l_smooth_l1, beta, FALSE, "smooth_l1_cpu", result, error);
}

static gboolean
k_kl_div (const FxValue *argv, FxValue *result, GError **error)
{
  return pair_loss (argv, l_kl, fx_arg_bool (&argv[5]) ? 1.0 : 0.0, TRUE, "kl_div", result, error);
}

/* weight (may be NULL) expanded to shape and copied to float64; NULL when absent. */
static gboolean
expand_weight (FxTensor *w, FxTensor *like, FxTensor **out, GError **error)
{
  *out = NULL;
  if (w == NULL)
    return TRUE;
  FxTensor *e = fx_tensor_expand (w, like->ndim, like->shape, error);
  if (e == NULL)
    return FALSE;
  *out = as_f64 (e);
  fx_tensor_unref (e);
  return TRUE;
}

/* binary_cross_entropy(input, target, weight, size_average, reduce, reduction) */
static gboolean
k_binary_cross_entropy (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor, *y = argv[1].tensor, *dw = NULL;
  Reduction red;
  if (!get_reduction (&argv[3], &argv[4], &argv[5], FALSE, &red, error))
    return FALSE;
  if (!fx_tensor_same_shape (x, y))
    {
      GString *s = g_string_new ("Using a target size (");
      size_string (y, s);
      g_string_append (s, ") that is different to the input size (");
      size_string (x, s);
      g_string_append (s, ") is deprecated. Please ensure they have the same size.");
      fail_value (error, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  if (!expand_weight (fx_arg_is_none (&argv[2]) ? NULL : argv[2].tensor, x, &dw, error))
    return FALSE;
  FxTensor *dx = as_f64 (x), *dy = as_f64 (y);
  double *px = fx_tensor_data (dx);
  const double *py = fx_tensor_data (dy), *pw = dw ? fx_tensor_data (dw) : NULL;
  gboolean ok = TRUE;
  for (int64_t i = 0, n = numel_of (dx->ndim, dx->shape); i < n; i++)
    {
      double v = px[i];
      if (!(v >= 0.0 && v <= 1.0))
        {
          ok = fail (error, "all elements of input should be between 0 and 1");
          break;
        }
      double lx = MAX (log (v), -100.0), l1x = MAX (log1p (-v), -100.0);
      px[i] = -(py[i] * lx + (1.0 - py[i]) * l1x) * (pw ? pw[i] : 1.0);
    }
  fx_tensor_unref (dy);
  if (dw) fx_tensor_unref (dw);
  if (!ok)
    {
      fx_tensor_unref (dx);
      return FALSE;
    }
  return fx_result_tensor (result, reduce_loss (dx, red, fx_dtype_promote (x->dtype, y->dtype)));
}

/* binary_cross_entropy_with_logits(input, target, weight, size_average, reduce, reduction,
 * pos_weight) */
static gboolean
k_bce_with_logits (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor, *y = argv[1].tensor, *dw = NULL, *dpw = NULL;
  Reduction red;
  if (!get_reduction (&argv[3], &argv[4], &argv[5], FALSE, &red, error))
    return FALSE;
  if (!fx_tensor_same_shape (x, y))
    {
      GString *s = g_string_new ("Target size (");
      size_string (y, s);
      g_string_append (s, ") must be the same as input size (");
      size_string (x, s);
      g_string_append (s, ")");
      fail_value (error, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  if (!expand_weight (fx_arg_is_none (&argv[2]) ? NULL : argv[2].tensor, x, &dw, error)
      || !expand_weight (fx_arg_is_none (&argv[6]) ? NULL : argv[6].tensor, x, &dpw, error))
    {
      if (dw) fx_tensor_unref (dw);
      return FALSE;
    }
  FxTensor *dx = as_f64 (x), *dy = as_f64 (y);
  double *px = fx_tensor_data (dx);
  const double *py = fx_tensor_data (dy), *pw = dw ? fx_tensor_data (dw) : NULL;
  const double *ppw = dpw ? fx_tensor_data (dpw) : NULL;
  for (int64_t i = 0, n = numel_of (dx->ndim, dx->shape); i < n; i++)
    {
      double v = px[i], t = py[i];
      double sp = log1p (exp (-fabs (v))) + MAX (-v, 0.0);   /* -log(sigmoid(v)) */
      double lw = ppw ? (ppw[i] - 1.0) * t + 1.0 : 1.0;
      px[i] = ((1.0 - t) * v + lw * sp) * (pw ? pw[i] : 1.0);
    }
  fx_tensor_unref (dy);
  if (dw) fx_tensor_unref (dw);
  if (dpw) fx_tensor_unref (dpw);
  return fx_result_tensor (result, reduce_loss (dx, red, fx_dtype_promote (x->dtype, y->dtype)));
}

/* Class-index losses over log-probabilities lp laid out (N, C, inner). */
static FxTensor *
nll_core (FxTensor *logp, FxTensor *target, FxTensor *weight, int64_t ignore_index,
          Reduction red, double smoothing, GError **error)
{
  int nd = logp->ndim;
  if (nd < 1)
    {
      fail (error, "input tensor should be 1D or 2D");
      return NULL;
    }
  int64_t N = nd == 1 ? 1 : logp->shape[0], C = nd == 1 ? logp->shape[0] : logp->shape[1];
  int64_t inner = nd > 2 ? numel_of (nd - 2, logp->shape + 2) : 1;
  /* the checks in PyTorch's order: batch size, target shape, then the target's dtype */
  if (nd >= 2 && target->ndim >= 1 && target->shape[0] != N)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "Expected input batch_size (%" G_GINT64_FORMAT ") to match target "
                   "batch_size (%" G_GINT64_FORMAT ").", N, target->shape[0]);
      return NULL;
    }
  if (nd <= 2 && target->ndim > 1)
    {
      fail (error, "0D or 1D target tensor expected, multi-target not supported");
      return NULL;
    }
  if (nd == 1 && target->ndim != 0)
    {
      fail (error, "size mismatch (got input: [%" G_GINT64_FORMAT "], target: [%" G_GINT64_FORMAT
            "])", C, target->shape[0]);
      return NULL;
    }
  gboolean shape_ok = nd < 3 || target->ndim == nd - 1;
  for (int i = 2; shape_ok && i < nd; i++)
    shape_ok = target->shape[i - 1] == logp->shape[i];
  if (!shape_ok)
    {
      GString *msg = g_string_new ("Expected target size [");
      g_string_append_printf (msg, "%" G_GINT64_FORMAT, N);
      for (int i = 2; i < nd; i++)
        g_string_append_printf (msg, ", %" G_GINT64_FORMAT, logp->shape[i]);
      g_string_append (msg, "], got [");
      for (int i = 0; i < target->ndim; i++)
        g_string_append_printf (msg, "%s%" G_GINT64_FORMAT, i ? ", " : "", target->shape[i]);
      g_string_append (msg, "]");
      fail (error, "%s", msg->str);
      g_string_free (msg, TRUE);
      return NULL;
    }
  if (target->dtype != FX_DTYPE_INT64)
    {
      fail (error, "expected scalar type Long but found %s",
            fx_dtype_scalar_type_name (target->dtype));
      return NULL;
    }
  if (weight != NULL && (weight->ndim != 1 || weight->shape[0] != C))
    {
      fail (error, "weight tensor should be defined either for all %" G_GINT64_FORMAT
            " classes or no classes but got weight tensor of shape: [%" G_GINT64_FORMAT "]",
            C, weight->ndim ? weight->shape[0] : 1);
      return NULL;
    }
  FxTensor *lp = as_f64 (logp);
  FxTensor *tg = fx_tensor_to_dtype (target, FX_DTYPE_INT64);
  FxTensor *tc = fx_tensor_clone (tg);
  fx_tensor_unref (tg);
  FxTensor *wd = weight ? as_f64 (weight) : NULL;
  const double *p = fx_tensor_data (lp), *w = wd ? fx_tensor_data (wd) : NULL;
  const int64_t *t = fx_tensor_data (tc);
  int64_t shape[FX_TENSOR_MAX_DIMS], ns = N * inner;
  memcpy (shape, target->shape, sizeof shape);
  FxTensor *out = fx_tensor_new_uninit (FX_DTYPE_FLOAT64, target->ndim, shape);
  double *o = fx_tensor_data (out), wsum = 0.0, total = 0.0;
  int64_t counted = 0;
  for (int64_t s = 0; s < ns; s++)
    {
      int64_t n = s / inner, k = s % inner, c = t[s];
      if (c == ignore_index)
        {
          o[s] = 0.0;
          continue;
        }
      if (c < 0 || c >= C)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "Target %" G_GINT64_FORMAT
                       " is out of bounds.", c);
          fx_tensor_unref (out);
          out = NULL;
          break;
        }
      double wc = w ? w[c] : 1.0;
      double l = -wc * p[(n * C + c) * inner + k];
      if (smoothing > 0.0)
        {
          double sm = 0.0;
          for (int64_t j = 0; j < C; j++)
            sm -= (w ? w[j] : 1.0) * p[(n * C + j) * inner + k];
          l = (1.0 - smoothing) * l + smoothing / C * sm;
        }
      o[s] = l;
      total += l;
      wsum += wc;
      counted++;
    }
  fx_tensor_unref (lp);
  fx_tensor_unref (tc);
  if (wd) fx_tensor_unref (wd);
  if (out == NULL || red == RED_NONE)
    return out;
  double v;
  if (red == RED_SUM)
    v = total;
  else if (smoothing > 0.0 && w == NULL)
    v = total / counted;  /* smoothing without weights averages over the counted targets */
  else
    v = total / wsum;
  fx_tensor_unref (out);
  return fx_tensor_scalar_double (FX_DTYPE_FLOAT64, v);
}

/* nll_loss(input, target, weight, size_average, ignore_index, reduce, reduction) */
static gboolean
k_nll_loss (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  Reduction red;
  if (!get_reduction (&argv[3], &argv[5], &argv[6], FALSE, &red, error))
    return FALSE;
  return fx_result_tensor (result,
                           finish (nll_core (x, argv[1].tensor,
                                             fx_arg_is_none (&argv[2]) ? NULL : argv[2].tensor,
                                             fx_arg_int (&argv[4]), red, 0.0, error),
                                   x->dtype));
}

/* cross_entropy(input, target, weight, size_average, ignore_index, reduce, reduction,
 * label_smoothing) */
static gboolean
k_cross_entropy (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor, *y = argv[1].tensor;
  FxTensor *weight = fx_arg_is_none (&argv[2]) ? NULL : argv[2].tensor;
  double eps = fx_arg_float (&argv[7]);
  Reduction red;
  if (!get_reduction (&argv[3], &argv[5], &argv[6], FALSE, &red, error))
    return FALSE;
  if (eps < 0.0 || eps > 1.0)
    return fail (error, "label_smoothing must be between 0.0 and 1.0. Got: %g", eps);
  if (x->ndim == 0)
    return fail (error, "Dimension specified as 1 but tensor has no dimensions");
  int cdim = x->ndim == 1 ? 0 : 1;
  FxTensor *lsm = fx_tensor_log_softmax (x, cdim, FX_DTYPE_N, error);
  if (lsm == NULL)
    return FALSE;
  if (!fx_tensor_same_shape (x, y))
    {
      FxTensor *r = nll_core (lsm, y, weight, fx_arg_int (&argv[4]), red, eps, error);
      fx_tensor_unref (lsm);
      return fx_result_tensor (result, finish (r, x->dtype));
    }
  /* class probabilities: a target of the input's shape */
  if (!fx_dtype_is_floating (y->dtype))
    {
      fx_tensor_unref (lsm);
      return fail (error, "Expected floating point type for target with class probabilities, "
                   "got %s", fx_dtype_scalar_type_name (y->dtype));
    }
  int64_t C = x->shape[cdim], N = x->ndim == 1 ? 1 : x->shape[0];
  int64_t inner = x->ndim > 2 ? numel_of (x->ndim - 2, x->shape + 2) : 1;
  FxTensor *lp = as_f64 (lsm), *tp = as_f64 (y), *wd = weight ? as_f64 (weight) : NULL;
  fx_tensor_unref (lsm);
  const double *p = fx_tensor_data (lp), *t = fx_tensor_data (tp);
  const double *w = wd ? fx_tensor_data (wd) : NULL;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int ond = 0;
  for (int i = 0; i < x->ndim; i++)
    if (i != cdim)
      shape[ond++] = x->shape[i];
  FxTensor *out = fx_tensor_new_uninit (FX_DTYPE_FLOAT64, ond, shape);
  double *o = fx_tensor_data (out);
  for (int64_t s = 0; s < N * inner; s++)
    {
      int64_t n = s / inner, k = s % inner;
      double l = 0.0;
      for (int64_t c = 0; c < C; c++)
        {
          double tv = t[(n * C + c) * inner + k] * (1.0 - eps) + eps / C;
          l -= (w ? w[c] : 1.0) * tv * p[(n * C + c) * inner + k];
        }
      o[s] = l;
    }
  fx_tensor_unref (lp);
  fx_tensor_unref (tp);
  if (wd) fx_tensor_unref (wd);
  if (red == RED_MEAN)
    {
      /* the mean is over the batch elements, not divided by class weights */
      double sum = 0.0;
      for (int64_t s = 0; s < N * inner; s++)
        sum += o[s];
      fx_tensor_unref (out);
      out = fx_tensor_scalar_double (FX_DTYPE_FLOAT64, x->ndim == 1 ? sum : sum / (N * inner));
      return fx_result_tensor (result, finish (out, x->dtype));
    }
  return fx_result_tensor (result, reduce_loss (out, red, x->dtype));
}

static gboolean
k_threshold_i3 (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  return fx_result_tensor (result, map_unary (x, f_threshold, fx_arg_float (&argv[1]),
                                              fx_arg_float (&argv[2]), NULL, error));
}

static gboolean
k_selu1 (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, map_unary (argv[0].tensor, f_selu, 0, 0, "elu_cpu", error));
}

/* Three or more operands without an ellipsis: contracted pairwise, left to right, each
 * step keeping the subscripts that the output or a later operand still uses. */
static gboolean
einsum_chain (const char *eq, const FxValue *list, FxValue *result, GError **error)
{
  g_autofree char *clean = g_strdup (eq);
  char *w = clean;
  for (const char *p = eq; *p; p++)
    if (*p != ' ')
      *w++ = *p;
  *w = '\0';
  char *arrow = strstr (clean, "->");
  g_autofree char *out = NULL;
  if (arrow)
    {
      out = g_strdup (arrow + 2);
      *arrow = '\0';
    }
  g_auto (GStrv) parts = g_strsplit (clean, ",", -1);
  int n = (int) g_strv_length (parts);
  if (n != (int) list->seq->len)
    return fail (error, n > (int) list->seq->len
                 ? "einsum(): fewer operands were provided than specified in the equation"
                 : "einsum(): more operands were provided than specified in the equation");
  if (out == NULL)
    {
      int count[256] = { 0 };
      GString *o = g_string_new (NULL);
      for (int k = 0; k < n; k++)
        for (const char *c = parts[k]; *c; c++)
          count[(unsigned char) *c]++;
      for (int c = 'A'; c <= 'z'; c++)
        if (count[c] == 1 && g_ascii_isalpha (c))
          g_string_append_c (o, (char) c);
      out = g_string_free (o, FALSE);
    }
  FxValue acc = fx_value_copy (&list->seq->items[0]);
  g_autofree char *acc_subs = g_strdup (parts[0]);
  gboolean ok = TRUE;
  for (int k = 1; k < n && ok; k++)
    {
      GString *keep = g_string_new (NULL);
      g_autofree char *both = g_strconcat (acc_subs, parts[k], NULL);
      for (const char *c = both; *c; c++)
        {
          gboolean needed = strchr (out, *c) != NULL;
          for (int j = k + 1; j < n && !needed; j++)
            needed = strchr (parts[j], *c) != NULL;
          if (k == n - 1)
            needed = FALSE;
          if (needed && strchr (keep->str, *c) == NULL)
            g_string_append_c (keep, *c);
        }
      g_autofree char *step_out = g_string_free (keep, FALSE);
      g_autofree char *step = g_strdup_printf ("%s,%s->%s", acc_subs, parts[k],
                                               k == n - 1 ? out : step_out);
      FxSeq *pair = fx_seq_new (0);
      fx_seq_append (pair, fx_value_copy (&acc));
      fx_seq_append (pair, fx_value_copy (&list->seq->items[k]));
      FxValue args[2] = { fx_value_str (step), fx_value_take_tuple (pair) }, next;
      ok = k_einsum (args, &next, error);
      fx_value_clear (&args[0]);
      fx_value_clear (&args[1]);
      if (ok)
        {
          fx_value_clear (&acc);
          acc = next;
          g_free (acc_subs);
          acc_subs = g_strdup (step_out);
        }
    }
  if (!ok)
    {
      fx_value_clear (&acc);
      return FALSE;
    }
  *result = acc;
  return TRUE;
}

static gboolean
k_einsum_n (const FxValue *argv, int n, FxValue *result, GError **error)
{
  FxSeq *seq = fx_seq_new (0);
  for (int i = 0; i < n; i++)
    fx_seq_append (seq, fx_value_copy (&argv[1 + i]));
  FxValue args[2] = { fx_value_copy (&argv[0]), fx_value_take_tuple (seq) };
  gboolean ok = k_einsum (args, result, error);
  fx_value_clear (&args[0]);
  fx_value_clear (&args[1]);
  return ok;
}

static gboolean
k_einsum1 (const FxValue *argv, FxValue *result, GError **error)
{
  return k_einsum_n (argv, 1, result, error);
}

static gboolean
k_einsum2 (const FxValue *argv, FxValue *result, GError **error)
{
  return k_einsum_n (argv, 2, result, error);
}

static gboolean
k_einsum3 (const FxValue *argv, FxValue *result, GError **error)
{
  return k_einsum_n (argv, 3, result, error);
}

/* ------------------------------------------------------------------ late additions */

static gboolean
k_softsign (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  FxTensor *a = fx_tensor_unary (FX_UNARY_ABS, x, 0, 0, error);
  FxTensor *d = a ? fx_tensor_add_scalar (a, 1.0, error) : NULL;
  FxTensor *r = d ? fx_tensor_div (x, d, error) : NULL;
  if (a) fx_tensor_unref (a);
  if (d) fx_tensor_unref (d);
  return fx_result_tensor (result, r);
}

static gboolean
k_tanhshrink (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  FxTensor *t = fx_tensor_tanh (x, error);
  FxTensor *r = t ? fx_tensor_sub (x, t, error) : NULL;
  if (t) fx_tensor_unref (t);
  return fx_result_tensor (result, r);
}

static double
l_huber (double x, double y, double delta)
{
  double d = fabs (x - y);
  return d < delta ? 0.5 * d * d : delta * (d - 0.5 * delta);
}

/* huber_loss(input, target, reduction='mean', delta=1.0) */
static gboolean
k_huber_loss (const FxValue *argv, FxValue *result, GError **error)
{
  double delta = fx_arg_float (&argv[3]);
  if (delta <= 0)
    return fail (error, "huber_loss does not support non-positive values for delta.");
  FxValue args[5] = { argv[0], argv[1], fx_value_none (), fx_value_none (), argv[2] };
  return pair_loss (args, l_huber, delta, FALSE, "huber_cpu", result, error);
}

static FxTensor *
diagonal_view (FxTensor *x, int64_t offset, int64_t dim1_arg, int64_t dim2_arg, GError **error)
{
  int d1, d2;
  if (!wrap_dim (dim1_arg, x->ndim, &d1, error) || !wrap_dim (dim2_arg, x->ndim, &d2, error))
    return NULL;
  if (d1 == d2)
    {
      fail (error, "diagonal dimensions cannot be identical %" G_GINT64_FORMAT ", %"
            G_GINT64_FORMAT, dim1_arg, dim2_arg);
      return NULL;
    }
  int64_t shape[FX_TENSOR_MAX_DIMS], strides[FX_TENSOR_MAX_DIMS], start = x->offset, len;
  if (offset >= 0)
    {
      len = MAX (0, MIN (x->shape[d1], x->shape[d2] - offset));
      if (len > 0)
        start += offset * x->strides[d2];
    }
  else
    {
      len = MAX (0, MIN (x->shape[d1] + offset, x->shape[d2]));
      if (len > 0)
        start -= offset * x->strides[d1];
    }
  int n = 0;
  for (int i = 0; i < x->ndim; i++)
    if (i != d1 && i != d2)
      {
        shape[n] = x->shape[i];
        strides[n++] = x->strides[i];
      }
  shape[n] = len;
  strides[n++] = x->strides[d1] + x->strides[d2];
  return fx_tensor_as_strided (x, n, shape, strides, start, error);
}

static gboolean
k_diagonal (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, diagonal_view (argv[0].tensor, fx_arg_int (&argv[1]),
                                                  fx_arg_int (&argv[2]), fx_arg_int (&argv[3]),
                                                  error));
}

static gboolean
k_trace (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  if (x->ndim != 2)
    return fail (error, "trace: expected a matrix, but got tensor with dim %d", x->ndim);
  FxTensor *d = diagonal_view (x, 0, 0, 1, error);
  if (d == NULL)
    return FALSE;
  FxTensor *r = fx_tensor_sum (d, NULL, 0, FALSE, FX_DTYPE_N, error);
  fx_tensor_unref (d);
  return fx_result_tensor (result, r);
}

static gboolean
k_pairwise_distance (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor;
  FxTensor *d = fx_tensor_sub (a, b, error);
  FxTensor *e = d ? fx_tensor_add_scalar (d, fx_arg_float (&argv[3]), error) : NULL;
  if (d) fx_tensor_unref (d);
  if (e == NULL)
    return FALSE;
  int64_t dim = -1;
  FxTensor *r = fx_tensor_norm (e, fx_arg_float (&argv[2]), &dim, e->ndim ? 1 : 0,
                                fx_arg_bool (&argv[4]), FX_DTYPE_N, error);
  fx_tensor_unref (e);
  return fx_result_tensor (result, r);
}

/* Each operand is divided by its norm (squared norm clamped to eps^2) before the dot
 * product, as PyTorch 1.13 does. */
static gboolean
k_cosine_similarity (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor, *da, *db;
  double eps = fx_arg_float (&argv[3]);
  int d;
  if (!broadcast_pair (a, b, &da, &db, error))
    return FALSE;
  if (!wrap_dim (fx_arg_int (&argv[2]), da->ndim, &d, error))
    {
      fx_tensor_unref (da);
      fx_tensor_unref (db);
      return FALSE;
    }
  int nd = da->ndim;
  int64_t len = nd ? da->shape[d] : 1, outer = numel_of (d, da->shape);
  int64_t inner = nd ? numel_of (nd - d - 1, da->shape + d + 1) : 1;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < nd; i++)
    if (i != d)
      shape[n++] = da->shape[i];
  FxTensor *out = fx_tensor_new_uninit (FX_DTYPE_FLOAT64, n, shape);
  const double *pa = fx_tensor_data (da), *pb = fx_tensor_data (db);
  double *o = fx_tensor_data (out);
  for (int64_t i = 0; i < outer; i++)
    for (int64_t k = 0; k < inner; k++)
      {
        double s1 = 0, s2 = 0, dot = 0;
        for (int64_t j = 0; j < len; j++)
          {
            double x = pa[(i * len + j) * inner + k], y = pb[(i * len + j) * inner + k];
            s1 += x * x;
            s2 += y * y;
          }
        double n1 = sqrt (MAX (s1, eps * eps)), n2 = sqrt (MAX (s2, eps * eps));
        for (int64_t j = 0; j < len; j++)
          dot += (pa[(i * len + j) * inner + k] / n1) * (pb[(i * len + j) * inner + k] / n2);
        o[i * inner + k] = dot;
      }
  fx_tensor_unref (da);
  fx_tensor_unref (db);
  return fx_result_tensor (result, finish (out, fx_dtype_promote (a->dtype, b->dtype)));
}

static gboolean
k_atan2 (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor, *da, *db;
  FxDType dt = fx_dtype_promote (a->dtype, b->dtype);
  if (!fx_dtype_is_floating (dt))
    dt = FX_DTYPE_FLOAT32;
  if (!broadcast_pair (a, b, &da, &db, error))
    return FALSE;
  double *pa = fx_tensor_data (da);
  const double *pb = fx_tensor_data (db);
  for (int64_t i = 0, n = numel_of (da->ndim, da->shape); i < n; i++)
    pa[i] = atan2 (pa[i], pb[i]);
  fx_tensor_unref (db);
  return fx_result_tensor (result, finish (da, dt));
}

/* lerp(input, end, weight: Scalar) */
static gboolean
k_lerp (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor, *da, *db;
  double w = fx_arg_float (&argv[2]);
  if (a->dtype != b->dtype)
    return fail (error, "expected dtype %s for `end` but got dtype %s",
                 fx_dtype_typemeta_name (a->dtype), fx_dtype_typemeta_name (b->dtype));
  if (!fx_dtype_is_floating (a->dtype))
    return fail (error, "\"lerp_kernel_scalar\" not implemented for '%s'",
                 fx_dtype_scalar_type_name (a->dtype));
  if (!broadcast_pair (a, b, &da, &db, error))
    return FALSE;
  double *pa = fx_tensor_data (da);
  const double *pb = fx_tensor_data (db);
  for (int64_t i = 0, n = numel_of (da->ndim, da->shape); i < n; i++)
    pa[i] = fabs (w) < 0.5 ? pa[i] + w * (pb[i] - pa[i]) : pb[i] - (pb[i] - pa[i]) * (1.0 - w);
  fx_tensor_unref (db);
  return fx_result_tensor (result, finish (da, a->dtype));
}

static double f_nan_to_num (double x, double nan_v, double unused) { (void) unused; return isnan (x) ? nan_v : x; }

static gboolean
k_nan_to_num (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *x = argv[0].tensor;
  if (!fx_dtype_is_floating (x->dtype))
    return fx_result_tensor (result, fx_tensor_clone (x));
  double big = x->dtype == FX_DTYPE_FLOAT64 ? G_MAXDOUBLE
               : x->dtype == FX_DTYPE_FLOAT16 ? 65504.0 : (double) G_MAXFLOAT;
  double posinf = fx_arg_is_none (&argv[2]) ? big : fx_arg_float (&argv[2]);
  double neginf = fx_arg_is_none (&argv[3]) ? -big : fx_arg_float (&argv[3]);
  FxTensor *d = as_f64 (x);
  double *p = fx_tensor_data (d);
  double nan_v = fx_arg_is_none (&argv[1]) ? 0.0 : fx_arg_float (&argv[1]);
  for (int64_t i = 0, n = numel_of (d->ndim, d->shape); i < n; i++)
    p[i] = isinf (p[i]) ? (p[i] > 0 ? posinf : neginf) : f_nan_to_num (p[i], nan_v, 0);
  return fx_result_tensor (result, finish (d, x->dtype));
}

/* tensordot(a, b, dims): dims is an int (last n of a with first n of b) or two lists. */
static gboolean
k_tensordot (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor;
  const FxValue *dims = &argv[2];
  int64_t da[FX_TENSOR_MAX_DIMS], db[FX_TENSOR_MAX_DIMS];
  int n;
  if (dims->kind == FX_VALUE_INT || dims->kind == FX_VALUE_BOOL)
    {
      int64_t k = fx_arg_int (dims);
      if (k < 0)
        return fail (error, "tensordot expects dims >= 0, but got dims=%" G_GINT64_FORMAT, k);
      if (k > FX_TENSOR_MAX_DIMS)
        k = FX_TENSOR_MAX_DIMS + 1;   /* more than any tensor has: the range error follows */
      n = (int) MIN (k, FX_TENSOR_MAX_DIMS);
      for (int i = 0; i < n; i++)
        {
          da[i] = i - k;   /* PyTorch counts a's dims from the end */
          db[i] = i;
        }
    }
  else if ((dims->kind == FX_VALUE_TUPLE || dims->kind == FX_VALUE_LIST) && dims->seq->len == 2)
    {
      const FxValue *l0 = &dims->seq->items[0], *l1 = &dims->seq->items[1];
      if (l0->kind == FX_VALUE_INT && l1->kind == FX_VALUE_INT)
        {
          n = 1;
          da[0] = l0->i;
          db[0] = l1->i;
        }
      else
        {
          int n0 = fx_arg_int_list (l0, da, FX_TENSOR_MAX_DIMS);
          int n1 = fx_arg_int_list (l1, db, FX_TENSOR_MAX_DIMS);
          if (n0 != n1)
            return fail (error, "both dimension lists should have same length");
          n = MIN (n0, FX_TENSOR_MAX_DIMS);
        }
    }
  else
    return fail (error, "tensordot expects dims to be an int or a pair of dimension lists");
  gboolean used_a[FX_TENSOR_MAX_DIMS] = { FALSE }, used_b[FX_TENSOR_MAX_DIMS] = { FALSE };
  int perm_a[FX_TENSOR_MAX_DIMS], perm_b[FX_TENSOR_MAX_DIMS], pa = 0, pb = 0;
  int64_t out_shape[FX_TENSOR_MAX_DIMS], M = 1, N = 1, K = 1;
  int n_out = 0;
  int wa[FX_TENSOR_MAX_DIMS], wb[FX_TENSOR_MAX_DIMS];
  for (int i = 0; i < n; i++)
    {
      if (!wrap_dim (da[i], a->ndim, &wa[i], error) || !wrap_dim (db[i], b->ndim, &wb[i], error))
        return FALSE;
      if (a->shape[wa[i]] != b->shape[wb[i]])
        return fail (error, "contracted dimensions need to match, but first has size %"
                     G_GINT64_FORMAT " in dim %" G_GINT64_FORMAT " and second has size %"
                     G_GINT64_FORMAT " in dim %" G_GINT64_FORMAT,
                     a->shape[wa[i]], da[i], b->shape[wb[i]], db[i]);
      used_a[wa[i]] = used_b[wb[i]] = TRUE;
      K *= a->shape[wa[i]];
    }
  for (int i = 0; i < a->ndim; i++)
    if (!used_a[i])
      {
        perm_a[pa++] = i;
        out_shape[n_out++] = a->shape[i];
        M *= a->shape[i];
      }
  for (int i = 0; i < n; i++)
    perm_a[pa++] = wa[i];
  for (int i = 0; i < n; i++)
    perm_b[pb++] = wb[i];
  for (int i = 0; i < b->ndim; i++)
    if (!used_b[i])
      {
        perm_b[pb++] = i;
        out_shape[n_out++] = b->shape[i];
        N *= b->shape[i];
      }
  if (pa != a->ndim || pb != b->ndim)
    return fail (error, "tensordot: a dimension is contracted more than once");
  int64_t sa[2] = { M, K }, sb[2] = { K, N };
  FxTensor *ta = fx_tensor_permute (a, a->ndim, perm_a, error);
  FxTensor *tb = ta ? fx_tensor_permute (b, b->ndim, perm_b, error) : NULL;
  FxTensor *ma = tb ? fx_tensor_reshape (ta, 2, sa, error) : NULL;
  FxTensor *mb = ma ? fx_tensor_reshape (tb, 2, sb, error) : NULL;
  FxTensor *prod = mb ? fx_tensor_mm (ma, mb, error) : NULL;
  FxTensor *r = prod ? fx_tensor_reshape (prod, n_out, out_shape, error) : NULL;
  if (ta) fx_tensor_unref (ta);
  if (tb) fx_tensor_unref (tb);
  if (ma) fx_tensor_unref (ma);
  if (mb) fx_tensor_unref (mb);
  if (prod) fx_tensor_unref (prod);
  return fx_result_tensor (result, r);
}

/* tril_indices / triu_indices(row, col, offset, *, dtype, layout, device): a 2 x N tensor of
 * the (row, col) coordinates in the triangle, row-major. */
static gboolean
tri_indices (const FxValue *argv, gboolean upper, FxValue *result, GError **error)
{
  int64_t rows = fx_arg_int (&argv[0]), cols = fx_arg_int (&argv[1]), off = fx_arg_int (&argv[2]);
  FxDType dt = argv[3].kind == FX_VALUE_DTYPE ? argv[3].dtype : FX_DTYPE_INT64;
  const char *name = upper ? "triu_indices" : "tril_indices";
  if (rows < 0)
    return fail (error, "row must be non-negative, got%" G_GINT64_FORMAT, rows);
  if (cols < 0)
    return fail (error, "col must be non-negative, got%" G_GINT64_FORMAT, cols);
  if (dt != FX_DTYPE_INT64 && dt != FX_DTYPE_INT32)
    return fail (error, "\"%s\" not implemented for '%s'", name, fx_dtype_scalar_type_name (dt));
  int64_t count = 0;
  for (int64_t i = 0; i < rows; i++)
    {
      /* columns j with j - i >= off (upper) or j - i <= off (lower) */
      int64_t lo = upper ? MAX (0, i + off) : 0, hi = upper ? cols : MIN (cols, i + off + 1);
      count += MAX (0, hi - lo);
    }
  int64_t shape[2] = { 2, count };
  FxTensor *r = fx_tensor_new_uninit (FX_DTYPE_INT64, 2, shape);
  int64_t *p = fx_tensor_data (r), k = 0;
  for (int64_t i = 0; i < rows; i++)
    {
      int64_t lo = upper ? MAX (0, i + off) : 0, hi = upper ? cols : MIN (cols, i + off + 1);
      for (int64_t j = lo; j < hi; j++, k++)
        {
          p[k] = i;
          p[count + k] = j;
        }
    }
  FxTensor *c = fx_tensor_to_dtype (r, dt);
  fx_tensor_unref (r);
  return fx_result_tensor (result, c);
}

static gboolean
k_tril_indices (const FxValue *argv, FxValue *result, GError **error)
{
  return tri_indices (argv, FALSE, result, error);
}

static gboolean
k_triu_indices (const FxValue *argv, FxValue *result, GError **error)
{
  return tri_indices (argv, TRUE, result, error);
}

static double p_logaddexp (double x, double y) { double m = MAX (x, y); return isinf (m) && x == y ? x : m + log1p (exp (-fabs (x - y))); }
static double p_hypot (double x, double y) { return hypot (x, y); }

static gboolean
float_pair_map (const FxValue *argv, double (*fn) (double, double), const char *name,
                FxValue *result, GError **error)
{
  FxTensor *a = argv[0].tensor, *b = argv[1].tensor, *da, *db;
  FxDType dt = fx_dtype_promote (a->dtype, b->dtype);
  if (!fx_dtype_is_floating (dt))
    return fail (error, "\"%s\" not implemented for '%s'", name, fx_dtype_scalar_type_name (dt));
  if (!broadcast_pair (a, b, &da, &db, error))
    return FALSE;
  double *pa = fx_tensor_data (da);
  const double *pb = fx_tensor_data (db);
  for (int64_t i = 0, n = numel_of (da->ndim, da->shape); i < n; i++)
    pa[i] = fn (pa[i], pb[i]);
  fx_tensor_unref (db);
  return fx_result_tensor (result, finish (da, dt));
}

static gboolean
k_logaddexp (const FxValue *argv, FxValue *result, GError **error)
{
  return float_pair_map (argv, p_logaddexp, "logaddexp_cpu", result, error);
}

static gboolean
k_hypot (const FxValue *argv, FxValue *result, GError **error)
{
  return float_pair_map (argv, p_hypot, "hypot_cpu", result, error);
}

/* ------------------------------------------------------------------ table */

#define PYFN FX_OP_FLAG_PYTHON_FUNCTION
#define LOSS_ARGS "Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, " \
                  "str reduction='mean'"

const FxOpDef fx_op_defs_more[] = {
  { FX_OP_FUNCTION, "torch.triu", { NULL }, "shape", "Upper triangle of the last two dims", 0,
    { { "triu(Tensor input, int diagonal=0, *, Tensor? out=None) -> Tensor", k_triu } } },
  { FX_OP_FUNCTION, "torch.tril", { NULL }, "shape", "Lower triangle of the last two dims", 0,
    { { "tril(Tensor input, int diagonal=0, *, Tensor? out=None) -> Tensor", k_tril } } },
  { FX_OP_METHOD, "Tensor.triu", { NULL }, "shape", "Upper triangle of the last two dims", 0,
    { { "triu(Tensor self, int diagonal=0) -> Tensor", k_triu } } },
  { FX_OP_METHOD, "Tensor.tril", { NULL }, "shape", "Lower triangle of the last two dims", 0,
    { { "tril(Tensor self, int diagonal=0) -> Tensor", k_tril } } },
  { FX_OP_METHOD, "Tensor.triu_", { NULL }, "shape", "Upper triangle, in place",
    FX_OP_FLAG_INPLACE, { { "triu_(Tensor self, int diagonal=0) -> Tensor", k_triu_ } } },
  { FX_OP_METHOD, "Tensor.tril_", { NULL }, "shape", "Lower triangle, in place",
    FX_OP_FLAG_INPLACE, { { "tril_(Tensor self, int diagonal=0) -> Tensor", k_tril_ } } },
  { FX_OP_FUNCTION, "torch.diag", { NULL }, "shape",
    "Diagonal of a matrix, or a matrix with a vector on its diagonal", 0,
    { { "diag(Tensor input, int diagonal=0, *, Tensor? out=None) -> Tensor", k_diag } } },
  { FX_OP_METHOD, "Tensor.diag", { NULL }, "shape",
    "Diagonal of a matrix, or a matrix with a vector on its diagonal", 0,
    { { "diag(Tensor self, int diagonal=0) -> Tensor", k_diag } } },
  { FX_OP_FUNCTION, "torch.bilinear", { "torch.nn.functional.bilinear", NULL }, "linalg",
    "Bilinear map x₁ᵀ A x₂ + b", 0,
    { { "bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor",
        k_bilinear } } },
  { FX_OP_FUNCTION, "torch.outer", { "torch.ger", NULL }, "linalg", "Outer product of two vectors", 0,
    { { "outer(Tensor input, Tensor vec2, *, Tensor? out=None) -> Tensor", k_outer } } },
  { FX_OP_METHOD, "Tensor.outer", { NULL }, "linalg", "Outer product of two vectors", 0,
    { { "outer(Tensor self, Tensor vec2) -> Tensor", k_outer } } },
  { FX_OP_FUNCTION, "torch.diff", { NULL }, "arithmetic", "n-th forward difference along dim", 0,
    { { "diff(Tensor input, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, *, "
        "Tensor? out=None) -> Tensor", k_diff } } },
  { FX_OP_METHOD, "Tensor.diff", { NULL }, "arithmetic", "n-th forward difference along dim", 0,
    { { "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) "
        "-> Tensor", k_diff } } },
  { FX_OP_FUNCTION, "torch.repeat_interleave", { NULL }, "shape",
    "Repeats each element (along dim, or of the flattened input)", 0,
    { { "repeat_interleave(Tensor input, int repeats, int? dim=None, *, int? output_size=None) "
        "-> Tensor", k_repeat_interleave },
      { "repeat_interleave(Tensor input, Tensor repeats, int? dim=None, *, "
        "int? output_size=None) -> Tensor", k_repeat_interleave_t },
      { "repeat_interleave(Tensor repeats, *, int? output_size=None) -> Tensor",
        k_repeat_interleave_self } } },
  { FX_OP_METHOD, "Tensor.repeat_interleave", { NULL }, "shape",
    "Repeats each element (along dim, or of the flattened input)", 0,
    { { "repeat_interleave(Tensor self, int repeats, int? dim=None, *, int? output_size=None) "
        "-> Tensor", k_repeat_interleave },
      { "repeat_interleave(Tensor self, Tensor repeats, int? dim=None, *, "
        "int? output_size=None) -> Tensor", k_repeat_interleave_t } } },
  { FX_OP_FUNCTION, "torch.functional.meshgrid", { "torch.meshgrid", NULL }, "shape",
    "Coordinate grids from 1-D tensors", PYFN,
    { { "meshgrid(Tensor[] tensors, *, str? indexing=None) -> Tensor[]", k_meshgrid },
      { "meshgrid(Tensor t0, Tensor t1, *, str? indexing=None) -> Tensor[]", k_meshgrid2 },
      { "meshgrid(Tensor t0, Tensor t1, Tensor t2, *, str? indexing=None) -> Tensor[]",
        k_meshgrid3 },
      { "meshgrid(Tensor t0, Tensor t1, Tensor t2, Tensor t3, *, str? indexing=None) "
        "-> Tensor[]", k_meshgrid4 },
      { "meshgrid(Tensor t0, Tensor t1, Tensor t2, Tensor t3, Tensor t4, *, "
        "str? indexing=None) -> Tensor[]", k_meshgrid5 } } },
  { FX_OP_FUNCTION, "torch.functional.einsum", { "torch.einsum", NULL }, "linalg",
    "Einstein summation over one or two operands", PYFN,
    { { "einsum(str equation, Tensor[] operands) -> Tensor", k_einsum },
      { "einsum(str equation, Tensor a) -> Tensor", k_einsum1 },
      { "einsum(str equation, Tensor a, Tensor b) -> Tensor", k_einsum2 },
      { "einsum(str equation, Tensor a, Tensor b, Tensor c) -> Tensor", k_einsum3 } } },
  { FX_OP_FUNCTION, "torch.functional.cdist", { "torch.cdist", NULL }, "linalg",
    "Pairwise p-norm distances between row sets", PYFN,
    { { "cdist(Tensor x1, Tensor x2, float p=2.0, "
        "str compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor", k_cdist } } },

  { FX_OP_FUNCTION, "torch.nn.functional.normalize", { NULL }, "normalization",
    "x / max(||x||_p, eps) along dim", 0,
    { { "normalize(Tensor input, float p=2.0, int dim=1, float eps=1e-12, Tensor? out=None) "
        "-> Tensor", k_normalize } } },
  { FX_OP_FUNCTION, "torch._C._nn.log_sigmoid", { "torch.nn.functional.logsigmoid", NULL },
    "activation", "log(sigmoid(x))", 0,
    { { "log_sigmoid(Tensor input) -> Tensor", k_logsigmoid } } },
  { FX_OP_FUNCTION, "torch.hardshrink", { "torch.nn.functional.hardshrink", NULL },
    "activation", "x where |x| > lambd, else 0", 0,
    { { "hardshrink(Tensor input, Scalar lambd=0.5) -> Tensor", k_hardshrink } } },
  { FX_OP_METHOD, "Tensor.hardshrink", { NULL }, "activation", "x where |x| > lambd, else 0", 0,
    { { "hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", k_hardshrink } } },
  { FX_OP_FUNCTION, "torch._C._nn.softshrink", { "torch.nn.functional.softshrink", NULL },
    "activation", "Shrinks x towards 0 by lambd", 0,
    { { "softshrink(Tensor input, Scalar lambd=0.5) -> Tensor", k_softshrink } } },
  { FX_OP_FUNCTION, "torch.nn.functional._threshold", { "torch.nn.functional.threshold", NULL },
    "activation", "x where x > threshold, else value", 0,
    { { "_threshold(Tensor input, float threshold, float value, bool inplace=False) -> Tensor",
        k_threshold } } },
  { FX_OP_FUNCTION, "torch.threshold", { NULL }, "activation",
    "x where x > threshold, else value", 0,
    { { "threshold(Tensor input, Scalar threshold, Scalar value) -> Tensor", k_threshold_i3 } } },
  { FX_OP_FUNCTION, "torch.threshold_", { "torch.nn.functional.threshold_", NULL }, "activation",
    "x where x > threshold, else value; in place", FX_OP_FLAG_INPLACE,
    { { "threshold_(Tensor input, Scalar threshold, Scalar value) -> Tensor", k_threshold_i } } },
  { FX_OP_FUNCTION, "torch.nn.functional.softmin", { NULL }, "activation",
    "softmax(-x) along dim", 0,
    { { "softmin(Tensor input, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) "
        "-> Tensor", k_softmin } } },
  { FX_OP_FUNCTION, "torch.nn.functional.glu", { NULL }, "activation",
    "Gated linear unit a * sigmoid(b) of the two halves of dim", 0,
    { { "glu(Tensor input, int dim=-1) -> Tensor", k_glu } } },
  { FX_OP_FUNCTION, "torch.nn.functional.mish", { NULL }, "activation", "x * tanh(softplus(x))", 0,
    { { "mish(Tensor input, bool inplace=False) -> Tensor", k_mish } } },
  { FX_OP_FUNCTION, "torch.nn.functional.selu", { NULL }, "activation", "Scaled ELU", 0,
    { { "selu(Tensor input, bool inplace=False) -> Tensor", k_selu } } },
  { FX_OP_FUNCTION, "torch.selu", { NULL }, "activation", "Scaled ELU", 0,
    { { "selu(Tensor input) -> Tensor", k_selu1 } } },
  { FX_OP_FUNCTION, "torch.nn.functional.celu", { NULL }, "activation",
    "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))", 0,
    { { "celu(Tensor input, float alpha=1.0, bool inplace=False) -> Tensor", k_celu } } },
  { FX_OP_FUNCTION, "torch.prelu", { "torch.nn.functional.prelu", NULL }, "activation",
    "Leaky ReLU with a learned slope per channel", 0,
    { { "prelu(Tensor input, Tensor weight) -> Tensor", k_prelu } } },
  { FX_OP_METHOD, "Tensor.prelu", { NULL }, "activation",
    "Leaky ReLU with a learned slope per channel", 0,
    { { "prelu(Tensor self, Tensor weight) -> Tensor", k_prelu } } },
  { FX_OP_FUNCTION, "torch.cosine_similarity", { "torch.nn.functional.cosine_similarity", NULL },
    "distance", "Cosine of the angle between x1 and x2 along dim", 0,
    { { "cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor",
        k_cosine_similarity } } },

  { FX_OP_FUNCTION, "torch.nn.functional.mse_loss", { NULL }, "loss", "Mean squared error", 0,
    { { "mse_loss(" LOSS_ARGS ") -> Tensor", k_mse_loss } } },
  { FX_OP_FUNCTION, "torch.nn.functional.l1_loss", { NULL }, "loss", "Mean absolute error", 0,
    { { "l1_loss(" LOSS_ARGS ") -> Tensor", k_l1_loss } } },
  { FX_OP_FUNCTION, "torch.nn.functional.smooth_l1_loss", { NULL }, "loss",
    "Huber-like loss: quadratic below beta, linear above", 0,
    { { "smooth_l1_loss(" LOSS_ARGS ", float beta=1.0) -> Tensor", k_smooth_l1_loss } } },
  { FX_OP_FUNCTION, "torch.nn.functional.kl_div", { NULL }, "loss",
    "Kullback-Leibler divergence of log-probabilities", 0,
    { { "kl_div(" LOSS_ARGS ", bool log_target=False) -> Tensor", k_kl_div } } },
  { FX_OP_FUNCTION, "torch.nn.functional.cross_entropy", { NULL }, "loss",
    "Cross entropy of logits against class indices or probabilities", 0,
    { { "cross_entropy(Tensor input, Tensor target, Tensor? weight=None, "
        "bool? size_average=None, int ignore_index=-100, bool? reduce=None, "
        "str reduction='mean', float label_smoothing=0.0) -> Tensor", k_cross_entropy } } },
  { FX_OP_FUNCTION, "torch.nn.functional.nll_loss", { NULL }, "loss",
    "Negative log-likelihood of class indices", 0,
    { { "nll_loss(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, "
        "int ignore_index=-100, bool? reduce=None, str reduction='mean') -> Tensor",
        k_nll_loss } } },
  { FX_OP_FUNCTION, "torch.nn.functional.binary_cross_entropy", { NULL }, "loss",
    "Binary cross entropy of probabilities", 0,
    { { "binary_cross_entropy(Tensor input, Tensor target, Tensor? weight=None, "
        "bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
        k_binary_cross_entropy } } },
  { FX_OP_FUNCTION, "torch.nn.functional.binary_cross_entropy_with_logits", { NULL }, "loss",
    "Binary cross entropy of logits", 0,
    { { "binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, "
        "bool? size_average=None, bool? reduce=None, str reduction='mean', "
        "Tensor? pos_weight=None) -> Tensor", k_bce_with_logits } } },
  { FX_OP_FUNCTION, "torch.nn.functional.huber_loss", { NULL }, "loss",
    "Quadratic below delta, linear above", 0,
    { { "huber_loss(Tensor input, Tensor target, str reduction='mean', float delta=1.0) "
        "-> Tensor", k_huber_loss } } },
  { FX_OP_FUNCTION, "torch.nn.functional.softsign", { NULL }, "activation", "x / (1 + |x|)", 0,
    { { "softsign(Tensor input) -> Tensor", k_softsign } } },
  { FX_OP_FUNCTION, "torch.nn.functional.tanhshrink", { NULL }, "activation", "x - tanh(x)", 0,
    { { "tanhshrink(Tensor input) -> Tensor", k_tanhshrink } } },
  { FX_OP_FUNCTION, "torch.pairwise_distance", { "torch.nn.functional.pairwise_distance", NULL },
    "distance", "p-norm of x1 - x2 + eps over the last dim", 0,
    { { "pairwise_distance(Tensor x1, Tensor x2, float p=2.0, float eps=1e-06, "
        "bool keepdim=False) -> Tensor", k_pairwise_distance } } },
  { FX_OP_FUNCTION, "torch.diagonal", { NULL }, "shape", "View of a diagonal of two dims", 0,
    { { "diagonal(Tensor input, int offset=0, int dim1=0, int dim2=1) -> Tensor",
        k_diagonal } } },
  { FX_OP_METHOD, "Tensor.diagonal", { NULL }, "shape", "View of a diagonal of two dims", 0,
    { { "diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor",
        k_diagonal } } },
  { FX_OP_FUNCTION, "torch.trace", { NULL }, "reduction", "Sum of a matrix's diagonal", 0,
    { { "trace(Tensor input) -> Tensor", k_trace } } },
  { FX_OP_METHOD, "Tensor.trace", { NULL }, "reduction", "Sum of a matrix's diagonal", 0,
    { { "trace(Tensor self) -> Tensor", k_trace } } },
  { FX_OP_FUNCTION, "torch.atan2", { "torch.arctan2", NULL }, "arithmetic",
    "Angle of (other, input) in radians", 0,
    { { "atan2(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor", k_atan2 } } },
  { FX_OP_METHOD, "Tensor.atan2", { NULL }, "arithmetic", "Angle of (other, self) in radians", 0,
    { { "atan2(Tensor self, Tensor other) -> Tensor", k_atan2 } } },
  { FX_OP_FUNCTION, "torch.lerp", { NULL }, "arithmetic",
    "input + weight * (end - input)", 0,
    { { "lerp(Tensor input, Tensor end, Scalar weight, *, Tensor? out=None) -> Tensor",
        k_lerp } } },
  { FX_OP_METHOD, "Tensor.lerp", { NULL }, "arithmetic", "self + weight * (end - self)", 0,
    { { "lerp(Tensor self, Tensor end, Scalar weight) -> Tensor", k_lerp } } },
  { FX_OP_FUNCTION, "torch.nan_to_num", { NULL }, "arithmetic",
    "Replaces NaN and infinities with finite values", 0,
    { { "nan_to_num(Tensor input, float? nan=None, float? posinf=None, float? neginf=None, *, "
        "Tensor? out=None) -> Tensor", k_nan_to_num } } },
  { FX_OP_METHOD, "Tensor.nan_to_num", { NULL }, "arithmetic",
    "Replaces NaN and infinities with finite values", 0,
    { { "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) "
        "-> Tensor", k_nan_to_num } } },
  { FX_OP_FUNCTION, "torch.functional.tensordot", { "torch.tensordot", NULL }, "linalg",
    "Contracts given dims of a and b", PYFN,
    { { "tensordot(Tensor a, Tensor b, Any dims=2, Tensor? out=None) -> Tensor",
        k_tensordot } } },
  { FX_OP_FUNCTION, "torch.tril_indices", { NULL }, "creation",
    "Coordinates of a lower triangle (2 x N)", FX_OP_FLAG_CREATION,
    { { "tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None) -> Tensor", k_tril_indices } } },
  { FX_OP_FUNCTION, "torch.triu_indices", { NULL }, "creation",
    "Coordinates of an upper triangle (2 x N)", FX_OP_FLAG_CREATION,
    { { "triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None) -> Tensor", k_triu_indices } } },
  { FX_OP_FUNCTION, "torch.logaddexp", { NULL }, "arithmetic", "log(exp(x) + exp(y))", 0,
    { { "logaddexp(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor", k_logaddexp } } },
  { FX_OP_METHOD, "Tensor.logaddexp", { NULL }, "arithmetic", "log(exp(x) + exp(y))", 0,
    { { "logaddexp(Tensor self, Tensor other) -> Tensor", k_logaddexp } } },
  { FX_OP_FUNCTION, "torch.hypot", { NULL }, "arithmetic", "sqrt(x^2 + y^2)", 0,
    { { "hypot(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor", k_hypot } } },
  { FX_OP_METHOD, "Tensor.hypot", { NULL }, "arithmetic", "sqrt(x^2 + y^2)", 0,
    { { "hypot(Tensor self, Tensor other) -> Tensor", k_hypot } } },
  { 0, NULL, { NULL }, NULL, NULL, 0, { { NULL, NULL } } },
};
