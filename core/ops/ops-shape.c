/* ops-shape.c: the registry entries of shape manipulation and indexing — cat, stack, split,
 * views (view, reshape, permute, transpose, expand, squeeze, ...), gather/scatter, masks,
 * dtype conversions (to, float, ...), Tensor.__getitem__ and operator.setitem. Schemas follow
 * PyTorch 1.13's Python signatures. */
#include "ops/op-table.h"
#include "tensor/shape.h"
#include "tensor/index.h"
#include "fx-error.h"

#include <string.h>

#define CAT "shape"
#define CONV "conversion"
#define INPLACE FX_OP_FLAG_INPLACE

/* ------------------------------------------------------------------ argument helpers */

static gboolean
too_many_dims (int n, GError **error)
{
  if (n > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, n);
      return TRUE;
    }
  return FALSE;
}

/* An int list argument (at most FX_TENSOR_MAX_DIMS long); -1 with an error otherwise. */
static int
arg_ints (const FxValue *v, int64_t *out, GError **error)
{
  int n = fx_arg_int_list (v, out, FX_TENSOR_MAX_DIMS);
  return too_many_dims (n, error) ? -1 : n;
}

/* The tensors of a Tensor[] argument, borrowed. */
static FxTensor **
arg_tensors (const FxValue *v, int *n)
{
  FxTensor **ts;
  *n = (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST) ? (int) v->seq->len : 0;
  ts = g_new0 (FxTensor *, *n + 1);
  for (int i = 0; i < *n; i++)
    ts[i] = v->seq->items[i].tensor;
  return ts;
}

/* A Python number argument as the 0-d wrapped tensor the kernels take. */
static FxTensor *
arg_scalar (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_BOOL:  return fx_tensor_wrap_bool (v->b);
    case FX_VALUE_INT:   return fx_tensor_wrap_int64 (v->i);
    case FX_VALUE_FLOAT: return fx_tensor_wrap_double (v->f);
    case FX_VALUE_TENSOR: return fx_tensor_ref (v->tensor);
    default:             return fx_tensor_wrap_int64 (0);
    }
}

static gboolean
result_parts (FxValue *result, GPtrArray *parts)
{
  FxSeq *seq;
  if (parts == NULL)
    return FALSE;
  seq = fx_seq_new (0);
  for (guint i = 0; i < parts->len; i++)
    fx_seq_append (seq, fx_value_tensor (parts->pdata[i]));
  g_ptr_array_unref (parts);
  *result = fx_value_take_tuple (seq);
  return TRUE;
}

static gboolean
result_self (FxValue *result, const FxValue *self)
{
  *result = fx_value_copy (self);
  return TRUE;
}

/* Can a value of dtype `from` be written to an out= tensor of dtype `to` (torch.can_cast)? */
static gboolean
can_cast (FxDType from, FxDType to)
{
  if (fx_dtype_is_floating (from) && !fx_dtype_is_floating (to))
    return FALSE;
  if (from != FX_DTYPE_BOOL && to == FX_DTYPE_BOOL)
    return FALSE;
  return TRUE;
}

/* out=: r is written into the given tensor, which is resized (new storage) when its shape
 * differs, as PyTorch's resize_output does. Takes r. */
static gboolean
finish_out (const char *name, const FxValue *out_arg, FxTensor *r, FxValue *result,
            GError **error)
{
  FxTensor *out;
  gboolean ok;

  if (r == NULL)
    return FALSE;
  if (fx_arg_is_none (out_arg))
    return fx_result_tensor (result, r);
  out = out_arg->tensor;
  if (g_str_equal (name, "torch.cat") ? !can_cast (r->dtype, out->dtype) : r->dtype != out->dtype)
    {
      if (g_str_equal (name, "torch.cat"))
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "torch.cat(): input types can't be cast to the desired output type %s",
                     fx_dtype_scalar_type_name (out->dtype));
      else
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Expected out tensor to have dtype %s, but got %s instead",
                     fx_dtype_name (r->dtype), fx_dtype_name (out->dtype));
      fx_tensor_unref (r);
      return FALSE;
    }
  if (!fx_tensor_same_shape (out, r))
    {
      FxTensor *fresh = fx_tensor_new_uninit (out->dtype, r->ndim, r->shape);
      FxStorage *old = out->storage;
      out->storage = fx_storage_ref (fresh->storage);
      fx_storage_unref (old);
      out->ndim = r->ndim;
      memcpy (out->shape, fresh->shape, sizeof out->shape);
      memcpy (out->strides, fresh->strides, sizeof out->strides);
      out->offset = 0;
      fx_tensor_unref (fresh);
    }
  ok = fx_tensor_copy_into (out, r, error);
  fx_tensor_unref (r);
  if (ok)
    *result = fx_value_tensor (out);
  return ok;
}

/* ------------------------------------------------------------------ joining and splitting */

static gboolean
k_cat (const FxValue *argv, FxValue *result, GError **error)
{
  int n;
  FxTensor **ts = arg_tensors (&argv[0], &n);
  FxTensor *r = fx_tensor_cat (ts, n, fx_arg_int (&argv[1]), error);
  g_free (ts);
  return finish_out ("torch.cat", &argv[2], r, result, error);
}

static gboolean
k_stack (const FxValue *argv, FxValue *result, GError **error)
{
  int n;
  FxTensor **ts = arg_tensors (&argv[0], &n);
  FxTensor *r = fx_tensor_stack (ts, n, fx_arg_int (&argv[1]), error);
  g_free (ts);
  return finish_out ("torch.stack", &argv[2], r, result, error);
}

static gboolean
k_hstack (const FxValue *argv, FxValue *result, GError **error)
{
  int n;
  FxTensor **ts = arg_tensors (&argv[0], &n);
  FxTensor *r = fx_tensor_hstack (ts, n, error);
  g_free (ts);
  return finish_out ("torch.hstack", &argv[1], r, result, error);
}

static gboolean
k_vstack (const FxValue *argv, FxValue *result, GError **error)
{
  int n;
  FxTensor **ts = arg_tensors (&argv[0], &n);
  FxTensor *r = fx_tensor_vstack (ts, n, error);
  g_free (ts);
  return finish_out ("torch.vstack", &argv[1], r, result, error);
}

/* torch.functional.split and Tensor.split (Python): an int splits evenly, anything else goes
 * to split_with_sizes, whose C++ binding reports bad types. */
static gboolean
k_split_any (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  const FxValue *s = &argv[1];
  int64_t dim = fx_arg_int (&argv[2]);

  if (s->kind == FX_VALUE_INT || s->kind == FX_VALUE_BOOL)
    return result_parts (result, fx_tensor_split (t, fx_arg_int (s), dim, error));
  if (s->kind == FX_VALUE_TENSOR && fx_tensor_numel (s->tensor) == 1)
    {
      int64_t v = fx_dtype_is_floating (s->tensor->dtype)
                  ? (int64_t) fx_tensor_get_double (s->tensor, 0)
                  : fx_tensor_get_int64 (s->tensor, 0);
      return result_parts (result, fx_tensor_split (t, v, dim, error));
    }
  if (s->kind == FX_VALUE_TUPLE || s->kind == FX_VALUE_LIST)
    {
      guint n = s->seq->len;
      int64_t *sizes = g_new (int64_t, n + 1);
      gboolean ok = TRUE;
      for (guint i = 0; i < n && ok; i++)
        {
          const FxValue *e = &s->seq->items[i];
          if (e->kind == FX_VALUE_INT || e->kind == FX_VALUE_BOOL)
            sizes[i] = fx_arg_int (e);
          else if (e->kind == FX_VALUE_TENSOR && e->tensor->ndim == 0
                   && fx_dtype_is_integral (e->tensor->dtype))
            sizes[i] = fx_tensor_get_int64 (e->tensor, 0);
          else
            ok = FALSE;
        }
      if (ok)
        {
          GPtrArray *parts = fx_tensor_split_with_sizes (t, (int) n, sizes, dim, error);
          g_free (sizes);
          return result_parts (result, parts);
        }
      g_free (sizes);
    }
  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
               "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, "
               "not %s", s->kind == FX_VALUE_TENSOR ? "Tensor" : fx_value_kind_name (s->kind));
  return FALSE;
}

static gboolean
k_split_with_sizes (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *s = &argv[1];
  guint n = s->seq->len;
  int64_t *sizes = g_new (int64_t, n + 1);
  GPtrArray *parts;
  for (guint i = 0; i < n; i++)
    sizes[i] = fx_arg_int (&s->seq->items[i]);
  parts = fx_tensor_split_with_sizes (fx_arg_tensor (&argv[0]), (int) n, sizes,
                                      fx_arg_int (&argv[2]), error);
  g_free (sizes);
  return result_parts (result, parts);
}

static gboolean
k_chunk (const FxValue *argv, FxValue *result, GError **error)
{
  return result_parts (result, fx_tensor_chunk (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                                fx_arg_int (&argv[2]), error));
}

static gboolean
k_unbind (const FxValue *argv, FxValue *result, GError **error)
{
  return result_parts (result, fx_tensor_unbind (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                                 error));
}

/* torch.tensor_split(input, sections | indices, dim=0) */
static gboolean
tensor_split_common (FxTensor *t, gboolean by_sections, int64_t sections, int n_idx,
                     const int64_t *idx, int64_t dim, FxValue *result, GError **error)
{
  GPtrArray *parts;
  int d;
  int64_t size;

  if (t->ndim == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "tensor_split expected at least a 1-dimensional tensor, but got a tensor with "
                   "%d dims", t->ndim);
      return FALSE;
    }
  if (dim < -t->ndim || dim >= t->ndim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got %"
                   G_GINT64_FORMAT ")", -t->ndim, t->ndim - 1, dim);
      return FALSE;
    }
  d = (int) (dim < 0 ? dim + t->ndim : dim);
  size = t->shape[d];
  parts = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_tensor_unref);
  if (by_sections)
    {
      int64_t base, extra, start = 0;
      if (sections <= 0)
        {
          g_ptr_array_unref (parts);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "number of sections must be larger than 0, got %" G_GINT64_FORMAT,
                       sections);
          return FALSE;
        }
      base = size / sections;
      extra = size % sections;
      for (int64_t i = 0; i < sections; i++)
        {
          int64_t len = base + (i < extra ? 1 : 0);
          g_ptr_array_add (parts, fx_tensor_slice (t, d, start, start + len, 1, NULL));
          start += len;
        }
    }
  else
    {
      int64_t start = 0;
      for (int i = 0; i <= n_idx; i++)
        {
          int64_t stop = i < n_idx ? idx[i] : size;
          g_ptr_array_add (parts, fx_tensor_slice (t, d, start, stop, 1, NULL));
          start = stop;
        }
    }
  return result_parts (result, parts);
}

static gboolean
k_tensor_split_sections (const FxValue *argv, FxValue *result, GError **error)
{
  return tensor_split_common (fx_arg_tensor (&argv[0]), TRUE, fx_arg_int (&argv[1]), 0, NULL,
                              fx_arg_int (&argv[2]), result, error);
}

/* tensor_split(input, tensor_indices_or_sections, dim): a 0-d tensor gives sections, a 1-d one
 * indices. */
static gboolean
k_tensor_split_tensor (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *s = fx_arg_tensor (&argv[1]);
  int64_t n = fx_tensor_numel (s), *idx;
  gboolean ok;

  if (s->dtype != FX_DTYPE_INT64)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "tensor_split expected tensor_indices_or_sections to have dtype of long, but "
                   "got %s", fx_dtype_scalar_type_name (s->dtype));
      return FALSE;
    }
  if (s->ndim > 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                   "one-dimensional tensor, but got a tensor with %d dims", s->ndim);
      return FALSE;
    }
  if (s->ndim == 0)
    return tensor_split_common (fx_arg_tensor (&argv[0]), TRUE, fx_tensor_get_int64 (s, 0), 0,
                                NULL, fx_arg_int (&argv[2]), result, error);
  idx = g_new (int64_t, n + 1);
  for (int64_t i = 0; i < n; i++)
    idx[i] = fx_tensor_get_int64 (s, i);
  ok = tensor_split_common (fx_arg_tensor (&argv[0]), FALSE, 0, (int) n, idx,
                            fx_arg_int (&argv[2]), result, error);
  g_free (idx);
  return ok;
}

static gboolean
k_tensor_split_indices (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *s = &argv[1];
  guint n = s->seq->len;
  int64_t *idx = g_new (int64_t, n + 1);
  gboolean ok;
  for (guint i = 0; i < n; i++)
    idx[i] = fx_arg_int (&s->seq->items[i]);
  ok = tensor_split_common (fx_arg_tensor (&argv[0]), FALSE, 0, (int) n, idx,
                            fx_arg_int (&argv[2]), result, error);
  g_free (idx);
  return ok;
}

/* ------------------------------------------------------------------ views */

static gboolean
k_view (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[1], shape, error);
  return n >= 0 && fx_result_tensor (result, fx_tensor_view (fx_arg_tensor (&argv[0]), n, shape,
                                                             error));
}

static gboolean
k_view_dtype (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_view_dtype (fx_arg_tensor (&argv[0]), argv[1].dtype,
                                                         error));
}

static gboolean
k_reshape (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[1], shape, error);
  return n >= 0 && fx_result_tensor (result, fx_tensor_reshape (fx_arg_tensor (&argv[0]), n,
                                                                shape, error));
}

static gboolean
k_permute (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t d64[FX_TENSOR_MAX_DIMS];
  int dims[FX_TENSOR_MAX_DIMS];
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int n = fx_arg_int_list (&argv[1], d64, FX_TENSOR_MAX_DIMS);
  if (n != t->ndim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "permute(sparse_coo): number of dimensions in the tensor input does not match "
                   "the length of the desired ordering of dimensions i.e. input.dim() = %d is not "
                   "equal to len(dims) = %d", t->ndim, n);
      return FALSE;
    }
  for (int i = 0; i < n; i++)
    {
      int64_t nd = t->ndim > 0 ? t->ndim : 1;
      if (d64[i] < -nd || d64[i] >= nd)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT
                       ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")", -nd, nd - 1,
                       d64[i]);
          return FALSE;
        }
      dims[i] = (int) d64[i];
    }
  return fx_result_tensor (result, fx_tensor_permute (t, n, dims, error));
}

/* Dims that fit an int; bigger ones fail the range check of the kernel as PyTorch's do. */
static int
small_dim (int64_t d)
{
  return d > G_MAXINT / 2 ? G_MAXINT / 2 : d < -G_MAXINT / 2 ? -G_MAXINT / 2 : (int) d;
}

static gboolean
k_transpose (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_transpose (fx_arg_tensor (&argv[0]),
                                                        small_dim (fx_arg_int (&argv[1])),
                                                        small_dim (fx_arg_int (&argv[2])), error));
}

static gboolean
k_t (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_t (fx_arg_tensor (&argv[0]), error));
}

static gboolean
k_expand (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[1], shape, error);
  return n >= 0 && fx_result_tensor (result, fx_tensor_expand (fx_arg_tensor (&argv[0]), n,
                                                               shape, error));
}

static gboolean
k_expand_as (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_expand_as (fx_arg_tensor (&argv[0]),
                                                        fx_arg_tensor (&argv[1]), error));
}

static gboolean
k_view_as (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_view_as (fx_arg_tensor (&argv[0]),
                                                      fx_arg_tensor (&argv[1]), error));
}

static gboolean
k_reshape_as (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_reshape_as (fx_arg_tensor (&argv[0]),
                                                         fx_arg_tensor (&argv[1]), error));
}

static gboolean
k_squeeze (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_squeeze (fx_arg_tensor (&argv[0]), error));
}

static gboolean
k_squeeze_dim (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_squeeze_dim (fx_arg_tensor (&argv[0]),
                                                          small_dim (fx_arg_int (&argv[1])),
                                                          error));
}

static gboolean
k_unsqueeze (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_unsqueeze (fx_arg_tensor (&argv[0]),
                                                        small_dim (fx_arg_int (&argv[1])), error));
}

static gboolean
k_narrow (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *s = &argv[2];
  int64_t start;
  if (s->kind == FX_VALUE_TENSOR)
    {
      if (s->tensor->ndim != 0 || !fx_dtype_is_integral (s->tensor->dtype))
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "start must be an 0-dim integral Tensor.");
          return FALSE;
        }
      start = fx_tensor_get_int64 (s->tensor, 0);
    }
  else
    start = fx_arg_int (s);
  return fx_result_tensor (result, fx_tensor_narrow (fx_arg_tensor (&argv[0]),
                                                     small_dim (fx_arg_int (&argv[1])), start,
                                                     fx_arg_int (&argv[3]), error));
}

static gboolean
k_select (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_select (fx_arg_tensor (&argv[0]),
                                                     small_dim (fx_arg_int (&argv[1])),
                                                     fx_arg_int (&argv[2]), error));
}

static gboolean
k_flatten (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_flatten (fx_arg_tensor (&argv[0]),
                                                      fx_arg_int (&argv[1]),
                                                      fx_arg_int (&argv[2]), error));
}

static gboolean
k_unflatten (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t sizes[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[2], sizes, error);
  return n >= 0 && fx_result_tensor (result, fx_tensor_unflatten (fx_arg_tensor (&argv[0]),
                                                                  fx_arg_int (&argv[1]), n,
                                                                  sizes, error));
}

/* PyTorch's error for a view with a negative size */
static gboolean
size_overflow (int n, const int64_t *shape, const int64_t *strides, GError **error)
{
  GString *m = g_string_new ("Storage size calculation overflowed with sizes=");
  fx_shape_append (m, n, shape);
  g_string_append (m, " and strides=");
  fx_shape_append (m, n, strides);
  g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, m->str);
  g_string_free (m, TRUE);
  return FALSE;
}

/* unfold(dimension, size, step): the windows of `size` elements, `step` apart, along one
 * dim — that dim counts the windows and a new last dim runs through each (a view) */
static gboolean
k_unfold (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t size = fx_arg_int (&argv[2]), step = fx_arg_int (&argv[3]);
  int d;
  if (!fx_tensor_wrap_dim (small_dim (fx_arg_int (&argv[1])), t->ndim, &d, error))
    return FALSE;
  int64_t extent = t->ndim == 0 ? 1 : t->shape[d];
  if (size > extent)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "maximum size for tensor at dimension %d is %" G_GINT64_FORMAT
                   " but size is %" G_GINT64_FORMAT, d, extent, size);
      return FALSE;
    }
  if (step <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "step is %" G_GINT64_FORMAT
                   " but must be > 0", step);
      return FALSE;
    }
  int64_t shape[FX_TENSOR_MAX_DIMS + 1], strides[FX_TENSOR_MAX_DIMS + 1];
  int n = t->ndim + 1;
  if (n > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "unfold: more than %d dimensions", FX_TENSOR_MAX_DIMS);
      return FALSE;
    }
  if (t->ndim == 0)
    {
      n = 1;
      shape[0] = size;
      strides[0] = 1;
    }
  else
    {
      memcpy (shape, t->shape, sizeof (int64_t) * t->ndim);
      memcpy (strides, t->strides, sizeof (int64_t) * t->ndim);
      shape[d] = (extent - size) / step + 1;
      strides[d] = t->strides[d] * step;
      shape[t->ndim] = size;
      strides[t->ndim] = t->strides[d];
    }
  if (size < 0)
    return size_overflow (n, shape, strides, error);
  return fx_result_tensor (result, fx_tensor_new_view (t->storage, t->dtype, n, shape, strides,
                                                       t->offset));
}

/* as_strided(size, stride, storage_offset=None): any view of the storage that stays inside it */
static gboolean
k_as_strided (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t shape[FX_TENSOR_MAX_DIMS], strides[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[1], shape, error);
  if (n < 0)
    return FALSE;
  int ns = arg_ints (&argv[2], strides, error);
  if (ns < 0)
    return FALSE;
  if (ns != n)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "mismatch in length of strides and shape");
      return FALSE;
    }
  /* fx_tensor_as_strided checks the rest (negative strides first, as here, then the offset
   * and the storage's bounds); a negative size is as_strided's own message */
  gboolean negative_stride = FALSE;
  for (int i = 0; i < n; i++)
    negative_stride |= strides[i] < 0;
  for (int i = 0; i < n && !negative_stride; i++)
    if (shape[i] < 0)
      return size_overflow (n, shape, strides, error);
  int64_t offset = argv[3].kind == FX_VALUE_NONE ? t->offset : fx_arg_int (&argv[3]);
  return fx_result_tensor (result, fx_tensor_as_strided (t, n, shape, strides, offset, error));
}

static gboolean
k_movedim (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t src[FX_TENSOR_MAX_DIMS], dst[FX_TENSOR_MAX_DIMS];
  int ns, nd;
  if (argv[1].kind == FX_VALUE_INT)
    {
      src[0] = argv[1].i;
      dst[0] = fx_arg_int (&argv[2]);
      ns = nd = 1;
    }
  else
    {
      ns = fx_arg_int_list (&argv[1], src, FX_TENSOR_MAX_DIMS);
      nd = fx_arg_int_list (&argv[2], dst, FX_TENSOR_MAX_DIMS);
      if (too_many_dims (ns, error) || too_many_dims (nd, error))
        return FALSE;
    }
  return fx_result_tensor (result, fx_tensor_movedim (fx_arg_tensor (&argv[0]), ns, src, nd,
                                                      dst, error));
}

static gboolean
k_contiguous (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_contiguous (fx_arg_tensor (&argv[0])));
}

static gboolean
k_clone (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_clone (fx_arg_tensor (&argv[0]));
  if (r == NULL)
    g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "DefaultCPUAllocator: not enough memory");
  return fx_result_tensor (result, r);
}

static gboolean
k_detach (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_detach (fx_arg_tensor (&argv[0])));
}

/* detach_(): self, out of autograd — not for a view, whose base autograd still follows */
static gboolean
k_detach_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  if (t->view_base != NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "Can't detach views in-place. Use detach() instead. If you are using "
                           "DistributedDataParallel (DDP) for training, and "
                           "gradient_as_bucket_view is set as True, gradients are views of DDP "
                           "buckets, and hence detach_() cannot be called on these gradients. To "
                           "fix this error, please refer to the Optimizer.zero_grad() function in "
                           "torch/optim/optimizer.py as the solution.");
      return FALSE;
    }
  t->requires_grad = FALSE;
  t->grad_fn = NULL;
  t->grad_leaf_view = FALSE;
  t->grad_view_output = 0;
  *result = fx_value_tensor (t);
  return TRUE;
}

static gboolean
k_self (const FxValue *argv, FxValue *result, GError **error)
{
  return result_self (result, &argv[0]);
}

/* In-place view ops (unsqueeze_, t_, ...) give the tensor object itself the view's layout,
 * as PyTorch does; other references to it see the change. Takes v. */
static gboolean
restride_self (const FxValue *self, FxTensor *v, FxValue *result)
{
  FxTensor *t = fx_arg_tensor (self);
  if (v == NULL)
    return FALSE;
  t->ndim = v->ndim;
  memcpy (t->shape, v->shape, sizeof t->shape);
  memcpy (t->strides, v->strides, sizeof t->strides);
  t->offset = v->offset;
  fx_tensor_unref (v);
  return result_self (result, self);
}

static gboolean
k_unsqueeze_ (const FxValue *argv, FxValue *result, GError **error)
{
  return restride_self (&argv[0], fx_tensor_unsqueeze (fx_arg_tensor (&argv[0]),
                                                       small_dim (fx_arg_int (&argv[1])), error),
                        result);
}

static gboolean
k_squeeze_ (const FxValue *argv, FxValue *result, GError **error)
{
  return restride_self (&argv[0], fx_tensor_squeeze (fx_arg_tensor (&argv[0]), error), result);
}

static gboolean
k_squeeze_dim_ (const FxValue *argv, FxValue *result, GError **error)
{
  return restride_self (&argv[0], fx_tensor_squeeze_dim (fx_arg_tensor (&argv[0]),
                                                         small_dim (fx_arg_int (&argv[1])),
                                                         error), result);
}

static gboolean
k_transpose_ (const FxValue *argv, FxValue *result, GError **error)
{
  return restride_self (&argv[0], fx_tensor_transpose (fx_arg_tensor (&argv[0]),
                                                       small_dim (fx_arg_int (&argv[1])),
                                                       small_dim (fx_arg_int (&argv[2])), error),
                        result);
}

static gboolean
k_t_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  if (t->ndim > 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "t_() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
      return FALSE;
    }
  return restride_self (&argv[0], fx_tensor_t (t, error), result);
}

/* ------------------------------------------------------------------ copies */

static gboolean
k_repeat (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t reps[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[1], reps, error);
  return n >= 0 && fx_result_tensor (result, fx_tensor_repeat (fx_arg_tensor (&argv[0]), n, reps,
                                                               error));
}

static gboolean
k_tile (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t reps[FX_TENSOR_MAX_DIMS];
  int n = arg_ints (&argv[1], reps, error);
  return n >= 0 && fx_result_tensor (result, fx_tensor_tile (fx_arg_tensor (&argv[0]), n, reps,
                                                             error));
}

static gboolean
k_flip (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t dims[FX_TENSOR_MAX_DIMS + 1];
  int n = fx_arg_int_list (&argv[1], dims, FX_TENSOR_MAX_DIMS + 1);
  if (n > FX_TENSOR_MAX_DIMS + 1)
    n = FX_TENSOR_MAX_DIMS + 1;   /* a repeat is certain among that many */
  return fx_result_tensor (result, fx_tensor_flip (fx_arg_tensor (&argv[0]), n, dims, error));
}

static gboolean
k_fliplr (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t d = 1;
  if (t->ndim < 2)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "Input must be >= 2-d.");
      return FALSE;
    }
  return fx_result_tensor (result, fx_tensor_flip (t, 1, &d, error));
}

static gboolean
k_flipud (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t d = 0;
  if (t->ndim < 1)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "Input must be >= 1-d.");
      return FALSE;
    }
  return fx_result_tensor (result, fx_tensor_flip (t, 1, &d, error));
}

static gboolean
k_roll (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shifts[FX_TENSOR_MAX_DIMS], dims[FX_TENSOR_MAX_DIMS];
  int ns = arg_ints (&argv[1], shifts, error), nd;
  if (ns < 0)
    return FALSE;
  nd = arg_ints (&argv[2], dims, error);
  return nd >= 0 && fx_result_tensor (result, fx_tensor_roll (fx_arg_tensor (&argv[0]), ns,
                                                              shifts, nd, dims, error));
}

/* ------------------------------------------------------------------ gather, scatter, masks */

static gboolean
k_gather (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_gather (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                  fx_arg_tensor (&argv[2]), error);
  return finish_out ("torch.gather", &argv[4], r, result, error);
}

static gboolean
k_gather_method (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_gather (fx_arg_tensor (&argv[0]),
                                                     fx_arg_int (&argv[1]),
                                                     fx_arg_tensor (&argv[2]), error));
}

static const char *
arg_reduce (const FxValue *v)
{
  return v->kind == FX_VALUE_STR ? v->s->data : NULL;
}

static gboolean
k_scatter_src (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_scatter (fx_arg_tensor (&argv[0]),
                                                      fx_arg_int (&argv[1]),
                                                      fx_arg_tensor (&argv[2]),
                                                      fx_arg_tensor (&argv[3]), FALSE,
                                                      arg_reduce (&argv[4]), error));
}

static gboolean
k_scatter_value (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *v = arg_scalar (&argv[3]);
  FxTensor *r = fx_tensor_scatter (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                   fx_arg_tensor (&argv[2]), v, TRUE, arg_reduce (&argv[4]),
                                   error);
  fx_tensor_unref (v);
  return fx_result_tensor (result, r);
}

static gboolean
k_scatter_src_ (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_tensor_scatter_ (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                             fx_arg_tensor (&argv[2]), fx_arg_tensor (&argv[3]), FALSE,
                             arg_reduce (&argv[4]), error)
         && result_self (result, &argv[0]);
}

static gboolean
k_scatter_value_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *v = arg_scalar (&argv[3]);
  gboolean ok = fx_tensor_scatter_ (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                    fx_arg_tensor (&argv[2]), v, TRUE, arg_reduce (&argv[4]),
                                    error);
  fx_tensor_unref (v);
  return ok && result_self (result, &argv[0]);
}

static gboolean
k_scatter_add (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_scatter_add (fx_arg_tensor (&argv[0]),
                                                          fx_arg_int (&argv[1]),
                                                          fx_arg_tensor (&argv[2]),
                                                          fx_arg_tensor (&argv[3]), error));
}

static gboolean
k_scatter_add_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  FxTensor *r = fx_tensor_scatter_add (t, fx_arg_int (&argv[1]), fx_arg_tensor (&argv[2]),
                                       fx_arg_tensor (&argv[3]), error);
  gboolean ok;
  if (r == NULL)
    return FALSE;
  ok = fx_tensor_copy_into (t, r, error);
  fx_tensor_unref (r);
  return ok && result_self (result, &argv[0]);
}

static gboolean
k_index_select (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_index_select (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                        fx_arg_tensor (&argv[2]), error);
  return finish_out ("torch.index_select", &argv[3], r, result, error);
}

static gboolean
k_index_select_method (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_index_select (fx_arg_tensor (&argv[0]),
                                                           fx_arg_int (&argv[1]),
                                                           fx_arg_tensor (&argv[2]), error));
}

static gboolean
k_take (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_take (fx_arg_tensor (&argv[0]),
                                                   fx_arg_tensor (&argv[1]), error));
}

static gboolean
k_masked_fill (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *v = arg_scalar (&argv[2]);
  FxTensor *r = fx_tensor_masked_fill (fx_arg_tensor (&argv[0]), fx_arg_tensor (&argv[1]), v,
                                       error);
  fx_tensor_unref (v);
  return fx_result_tensor (result, r);
}

static gboolean
k_masked_fill_ (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *v = arg_scalar (&argv[2]);
  gboolean ok = fx_tensor_masked_fill_ (fx_arg_tensor (&argv[0]), fx_arg_tensor (&argv[1]), v,
                                        error);
  fx_tensor_unref (v);
  return ok && result_self (result, &argv[0]);
}

static gboolean
k_masked_select (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *r = fx_tensor_masked_select (fx_arg_tensor (&argv[0]), fx_arg_tensor (&argv[1]),
                                         error);
  return finish_out ("torch.masked_select", &argv[2], r, result, error);
}

static gboolean
k_masked_select_method (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_masked_select (fx_arg_tensor (&argv[0]),
                                                            fx_arg_tensor (&argv[1]), error));
}

static gboolean
k_nonzero (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  FxTensor *nz = fx_tensor_nonzero (t);
  if (nz == NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "DefaultCPUAllocator: not enough memory");
      return FALSE;
    }
  if (fx_arg_bool (&argv[1]))
    {
      /* as_tuple: one index tensor per dim (a 0-d input counts as 1-d) */
      FxSeq *seq = fx_seq_new (0);
      if (t->ndim == 0)
        {
          int64_t n = nz->shape[0];
          fx_seq_append (seq, fx_value_take_tensor (fx_tensor_zeros (FX_DTYPE_INT64, 1, &n)));
        }
      for (int d = 0; d < t->ndim; d++)
        {
          FxTensor *col = fx_tensor_select (nz, 1, d, NULL);
          fx_seq_append (seq, fx_value_take_tensor (fx_tensor_contiguous (col)));
          fx_tensor_unref (col);
        }
      fx_tensor_unref (nz);
      *result = fx_value_take_tuple (seq);
      return TRUE;
    }
  return fx_result_tensor (result, nz);
}

/* ------------------------------------------------------------------ dtype conversions */

static gboolean
check_device (const FxValue *v, GError **error)
{
  const char *name;
  if (v->kind != FX_VALUE_DEVICE && v->kind != FX_VALUE_STR)
    return TRUE;
  name = v->s->data;
  if (g_str_equal (name, "cpu") || g_str_has_prefix (name, "cpu:"))
    return TRUE;
  if (g_str_has_prefix (name, "cuda"))
    g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "Torch not compiled with CUDA enabled");
  else
    g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                 "libfx tensors live on the cpu; cannot move to device '%s'", name);
  return FALSE;
}

static gboolean
convert (FxTensor *t, FxDType dtype, gboolean copy, FxValue *result, GError **error)
{
  FxTensor *r;
  if (copy)
    r = t->dtype == dtype ? fx_tensor_clone (t) : fx_tensor_to_dtype (t, dtype);
  else
    r = fx_tensor_to_dtype (t, dtype);
  if (r == NULL)
    g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "DefaultCPUAllocator: not enough memory");
  return fx_result_tensor (result, r);
}

/* to(device=None, dtype=None, non_blocking=False, copy=False, *, memory_format=None) */
static gboolean
k_to_device (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  if (!check_device (&argv[1], error))
    return FALSE;
  return convert (t, argv[2].kind == FX_VALUE_DTYPE ? argv[2].dtype : t->dtype,
                  fx_arg_bool (&argv[4]), result, error);
}

/* to(dtype, non_blocking=False, copy=False, *, memory_format=None) */
static gboolean
k_to_dtype (const FxValue *argv, FxValue *result, GError **error)
{
  return convert (fx_arg_tensor (&argv[0]), argv[1].dtype, fx_arg_bool (&argv[3]), result, error);
}

/* to(tensor, non_blocking=False, copy=False, *, memory_format=None) */
static gboolean
k_to_other (const FxValue *argv, FxValue *result, GError **error)
{
  return convert (fx_arg_tensor (&argv[0]), fx_arg_tensor (&argv[1])->dtype,
                  fx_arg_bool (&argv[3]), result, error);
}

static gboolean
k_type_as (const FxValue *argv, FxValue *result, GError **error)
{
  return convert (fx_arg_tensor (&argv[0]), fx_arg_tensor (&argv[1])->dtype, FALSE, result, error);
}

#define DTYPE_METHOD(NAME, DTYPE)                                                    \
  static gboolean                                                                    \
  k_##NAME (const FxValue *argv, FxValue *result, GError **error)                    \
  {                                                                                  \
    return convert (fx_arg_tensor (&argv[0]), DTYPE, FALSE, result, error);          \
  }
DTYPE_METHOD (float, FX_DTYPE_FLOAT32)
DTYPE_METHOD (double, FX_DTYPE_FLOAT64)
DTYPE_METHOD (half, FX_DTYPE_FLOAT16)
DTYPE_METHOD (long, FX_DTYPE_INT64)
DTYPE_METHOD (int, FX_DTYPE_INT32)
DTYPE_METHOD (short, FX_DTYPE_INT16)
DTYPE_METHOD (char, FX_DTYPE_INT8)
DTYPE_METHOD (byte, FX_DTYPE_UINT8)
DTYPE_METHOD (bool, FX_DTYPE_BOOL)

/* ------------------------------------------------------------------ indexing */

static gboolean
k_getitem (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_tensor_index (fx_arg_tensor (&argv[0]), &argv[1], error));
}

static gboolean
k_setitem_method (const FxValue *argv, FxValue *result, GError **error)
{
  *result = fx_value_none ();
  return fx_tensor_index_put (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], error);
}

/* operator.setitem(a, b, c): a[b] = c for tensors, lists and dicts. */
static gboolean
k_setitem (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *obj = &argv[0], *key = &argv[1];
  *result = fx_value_none ();
  switch (obj->kind)
    {
    case FX_VALUE_TENSOR:
      return fx_tensor_index_put (obj->tensor, key, &argv[2], error);
    case FX_VALUE_DICT:
      fx_dict_set (obj->dict, fx_value_copy (key), fx_value_copy (&argv[2]));
      return TRUE;
    case FX_VALUE_LIST:
      {
        FxSeq *seq = obj->seq;
        int64_t i;
        if (key->kind != FX_VALUE_INT && key->kind != FX_VALUE_BOOL)
          {
            g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                         "list indices must be integers or slices, not %s",
                         fx_value_kind_name (key->kind));
            return FALSE;
          }
        i = fx_arg_int (key);
        if (i < 0)
          i += seq->len;
        if (i < 0 || i >= (int64_t) seq->len)
          {
            g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                                 "list assignment index out of range");
            return FALSE;
          }
        fx_value_clear (&seq->items[i]);
        seq->items[i] = fx_value_copy (&argv[2]);
        return TRUE;
      }
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                   "'%s' object does not support item assignment",
                   obj->kind == FX_VALUE_OBJECT && obj->obj->klass ? obj->obj->klass->name
                   : fx_value_kind_name (obj->kind));
      return FALSE;
    }
}

/* The indices argument of index_put_: a tuple or list of tensors. `arg` is its position as
 * PyTorch's messages count it. */
static FxTensor **
arg_index_tensors (const FxValue *v, const char *name, int arg, int *n, GError **error)
{
  FxTensor **ts;
  if (v->kind != FX_VALUE_TUPLE && v->kind != FX_VALUE_LIST)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                   "%s(): argument 'indices' (position %d) must be tuple of Tensors, not %s",
                   name, arg + 1, v->kind == FX_VALUE_TENSOR ? "Tensor"
                   : fx_value_kind_name (v->kind));
      return NULL;
    }
  *n = (int) v->seq->len;
  ts = g_new0 (FxTensor *, *n + 1);
  for (int i = 0; i < *n; i++)
    {
      const FxValue *e = &v->seq->items[i];
      if (e->kind != FX_VALUE_TENSOR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "expected Tensor as element %d in argument %d, but got %s", i, arg,
                       fx_value_kind_name (e->kind));
          g_free (ts);
          return NULL;
        }
      ts[i] = e->tensor;
    }
  return ts;
}

static gboolean
k_index_put_ (const FxValue *argv, FxValue *result, GError **error)
{
  int n;
  FxTensor **ts = arg_index_tensors (&argv[1], "index_put_", 0, &n, error);
  gboolean ok;
  if (ts == NULL)
    return FALSE;
  ok = fx_tensor_index_put_tensors (fx_arg_tensor (&argv[0]), ts, n, fx_arg_tensor (&argv[2]),
                                    fx_arg_bool (&argv[3]), error);
  g_free (ts);
  return ok && result_self (result, &argv[0]);
}

static gboolean
index_put_common (const FxValue *argv, int arg, FxValue *result, GError **error)
{
  int n;
  FxTensor **ts = arg_index_tensors (&argv[1], "index_put", arg, &n, error);
  FxTensor *copy;
  gboolean ok;
  if (ts == NULL)
    return FALSE;
  copy = fx_tensor_clone (fx_arg_tensor (&argv[0]));
  ok = fx_tensor_index_put_tensors (copy, ts, n, fx_arg_tensor (&argv[2]),
                                    fx_arg_bool (&argv[3]), error);
  g_free (ts);
  if (!ok)
    {
      fx_tensor_unref (copy);
      return FALSE;
    }
  return fx_result_tensor (result, copy);
}

static gboolean
k_index_put (const FxValue *argv, FxValue *result, GError **error)
{
  return index_put_common (argv, 0, result, error);
}

static gboolean
k_torch_index_put (const FxValue *argv, FxValue *result, GError **error)
{
  return index_put_common (argv, 1, result, error);
}

/* ------------------------------------------------------------------ the table */

#define MEMFMT "*, MemoryFormat? memory_format=None"
#define DTYPE_ENTRY(NAME, DOC)                                                        \
  { FX_OP_METHOD, "Tensor." #NAME, { NULL }, CONV, DOC, 0, {                          \
      { #NAME "(Tensor self, " MEMFMT ") -> Tensor", k_##NAME } } }

const FxOpDef fx_op_defs_shape[] = {
  /* joining */
  { FX_OP_FUNCTION, "torch.cat", { NULL }, CAT, "Concatenates tensors along a dim", 0, {
      { "cat(Tensor[] tensors, int dim=0, *, Tensor? out=None) -> Tensor", k_cat } } },
  { FX_OP_FUNCTION, "torch.concat", { NULL }, CAT, "Concatenates tensors along a dim", 0, {
      { "concat(Tensor[] tensors, int dim=0, *, Tensor? out=None) -> Tensor", k_cat } } },
  { FX_OP_FUNCTION, "torch.stack", { NULL }, CAT, "Stacks tensors along a new dim", 0, {
      { "stack(Tensor[] tensors, int dim=0, *, Tensor? out=None) -> Tensor", k_stack } } },
  { FX_OP_FUNCTION, "torch.hstack", { NULL }, CAT, "Concatenates tensors column-wise", 0, {
      { "hstack(Tensor[] tensors, *, Tensor? out=None) -> Tensor", k_hstack } } },
  { FX_OP_FUNCTION, "torch.vstack", { NULL }, CAT, "Concatenates tensors row-wise", 0, {
      { "vstack(Tensor[] tensors, *, Tensor? out=None) -> Tensor", k_vstack } } },

  /* splitting */
  { FX_OP_FUNCTION, "torch.functional.split", { "torch.split", NULL }, CAT,
    "Splits into parts of a size or of given sizes", 0, {
      { "split(Tensor tensor, Any split_size_or_sections, int dim=0) -> Tensor[]",
        k_split_any } } },
  { FX_OP_METHOD, "Tensor.split", { NULL }, CAT, "Splits into parts of a size or of given sizes",
    0, { { "split(Tensor self, Any split_size, int dim=0) -> Tensor[]", k_split_any } } },
  { FX_OP_FUNCTION, "torch.split_with_sizes", { NULL }, CAT, "Splits into parts of given sizes",
    0, { { "split_with_sizes(Tensor input, SymInt[] split_sizes, int dim=0) -> Tensor[]",
           k_split_with_sizes } } },
  { FX_OP_METHOD, "Tensor.split_with_sizes", { NULL }, CAT, "Splits into parts of given sizes",
    0, { { "split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]",
           k_split_with_sizes } } },
  { FX_OP_FUNCTION, "torch.tensor_split", { NULL }, CAT, "Splits into sections or at indices",
    0, {
      { "tensor_split(Tensor input, Tensor tensor_indices_or_sections, int dim=0) -> "
        "Tensor[]", k_tensor_split_tensor },
      { "tensor_split(Tensor input, int sections, int dim=0) -> Tensor[]",
        k_tensor_split_sections },
      { "tensor_split(Tensor input, int[] indices, int dim=0) -> Tensor[]",
        k_tensor_split_indices } } },
  { FX_OP_METHOD, "Tensor.tensor_split", { NULL }, CAT, "Splits into sections or at indices",
    0, {
      { "tensor_split(Tensor self, Tensor tensor_indices_or_sections, int dim=0) -> "
        "Tensor[]", k_tensor_split_tensor },
      { "tensor_split(Tensor self, int sections, int dim=0) -> Tensor[]",
        k_tensor_split_sections },
      { "tensor_split(Tensor self, int[] indices, int dim=0) -> Tensor[]",
        k_tensor_split_indices } } },
  { FX_OP_FUNCTION, "torch.chunk", { NULL }, CAT, "Splits into a number of chunks", 0, {
      { "chunk(Tensor input, int chunks, int dim=0) -> Tensor[]", k_chunk } } },
  { FX_OP_METHOD, "Tensor.chunk", { NULL }, CAT, "Splits into a number of chunks", 0, {
      { "chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", k_chunk } } },
  { FX_OP_FUNCTION, "torch.unbind", { NULL }, CAT, "Removes a dim, returning its slices", 0, {
      { "unbind(Tensor input, int dim=0) -> Tensor[]", k_unbind } } },
  { FX_OP_METHOD, "Tensor.unbind", { NULL }, CAT, "Removes a dim, returning its slices", 0, {
      { "unbind(Tensor self, int dim=0) -> Tensor[]", k_unbind } } },

  /* views */
  { FX_OP_METHOD, "Tensor.view", { NULL }, CAT, "Same data with another shape (no copy)", 0, {
      { "view(Tensor self, ScalarType dtype) -> Tensor", k_view_dtype },
      { "view(Tensor self, SymInt... size) -> Tensor", k_view } } },
  { FX_OP_METHOD, "Tensor.view_as", { NULL }, CAT, "View with another tensor's shape", 0, {
      { "view_as(Tensor self, Tensor other) -> Tensor", k_view_as } } },
  { FX_OP_FUNCTION, "torch.reshape", { NULL }, CAT, "Another shape (a view when possible)", 0, {
      { "reshape(Tensor input, SymInt[] shape) -> Tensor", k_reshape } } },
  { FX_OP_METHOD, "Tensor.reshape", { NULL }, CAT, "Another shape (a view when possible)", 0, {
      { "reshape(Tensor self, SymInt... shape) -> Tensor", k_reshape } } },
  { FX_OP_METHOD, "Tensor.reshape_as", { NULL }, CAT, "Reshape to another tensor's shape", 0, {
      { "reshape_as(Tensor self, Tensor other) -> Tensor", k_reshape_as } } },
  { FX_OP_FUNCTION, "torch.flatten", { NULL }, CAT, "Flattens a range of dims into one", 0, {
      { "flatten(Tensor input, int start_dim=0, int end_dim=-1) -> Tensor", k_flatten } } },
  { FX_OP_METHOD, "Tensor.flatten", { NULL }, CAT, "Flattens a range of dims into one", 0, {
      { "flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", k_flatten } } },
  { FX_OP_FUNCTION, "torch.unflatten", { NULL }, CAT, "Expands a dim into several", 0, {
      { "unflatten(Tensor input, int dim, int[] sizes) -> Tensor", k_unflatten } } },
  { FX_OP_METHOD, "Tensor.unflatten", { NULL }, CAT, "Expands a dim into several", 0, {
      { "unflatten(Tensor self, int dim, int[] sizes) -> Tensor", k_unflatten } } },
  { FX_OP_FUNCTION, "torch.permute", { NULL }, CAT, "Reorders the dims", 0, {
      { "permute(Tensor input, int[] dims) -> Tensor", k_permute } } },
  { FX_OP_METHOD, "Tensor.permute", { NULL }, CAT, "Reorders the dims", 0, {
      { "permute(Tensor self, int... dims) -> Tensor", k_permute } } },
  { FX_OP_FUNCTION, "torch.transpose", { NULL }, CAT, "Swaps two dims", 0, {
      { "transpose(Tensor input, int dim0, int dim1) -> Tensor", k_transpose } } },
  { FX_OP_METHOD, "Tensor.transpose", { NULL }, CAT, "Swaps two dims", 0, {
      { "transpose(Tensor self, int dim0, int dim1) -> Tensor", k_transpose } } },
  { FX_OP_FUNCTION, "torch.swapaxes", { NULL }, CAT, "Swaps two dims", 0, {
      { "swapaxes(Tensor input, int axis0, int axis1) -> Tensor", k_transpose } } },
  { FX_OP_METHOD, "Tensor.swapaxes", { NULL }, CAT, "Swaps two dims", 0, {
      { "swapaxes(Tensor self, int axis0, int axis1) -> Tensor", k_transpose } } },
  { FX_OP_FUNCTION, "torch.swapdims", { NULL }, CAT, "Swaps two dims", 0, {
      { "swapdims(Tensor input, int dim0, int dim1) -> Tensor", k_transpose } } },
  { FX_OP_METHOD, "Tensor.swapdims", { NULL }, CAT, "Swaps two dims", 0, {
      { "swapdims(Tensor self, int dim0, int dim1) -> Tensor", k_transpose } } },
  { FX_OP_FUNCTION, "torch.t", { NULL }, CAT, "Transpose of a matrix", 0, {
      { "t(Tensor input) -> Tensor", k_t } } },
  { FX_OP_METHOD, "Tensor.t", { NULL }, CAT, "Transpose of a matrix", 0, {
      { "t(Tensor self) -> Tensor", k_t } } },
  { FX_OP_FUNCTION, "torch.movedim", { NULL }, CAT, "Moves dims to new positions", 0, {
      { "movedim(Tensor input, int source, int destination) -> Tensor", k_movedim },
      { "movedim(Tensor input, int[] source, int[] destination) -> Tensor", k_movedim } } },
  { FX_OP_METHOD, "Tensor.movedim", { NULL }, CAT, "Moves dims to new positions", 0, {
      { "movedim(Tensor self, int source, int destination) -> Tensor", k_movedim },
      { "movedim(Tensor self, int[] source, int[] destination) -> Tensor", k_movedim } } },
  { FX_OP_FUNCTION, "torch.moveaxis", { NULL }, CAT, "Moves dims to new positions", 0, {
      { "moveaxis(Tensor input, int source, int destination) -> Tensor", k_movedim },
      { "moveaxis(Tensor input, int[] source, int[] destination) -> Tensor", k_movedim } } },
  { FX_OP_METHOD, "Tensor.moveaxis", { NULL }, CAT, "Moves dims to new positions", 0, {
      { "moveaxis(Tensor self, int source, int destination) -> Tensor", k_movedim },
      { "moveaxis(Tensor self, int[] source, int[] destination) -> Tensor", k_movedim } } },
  { FX_OP_METHOD, "Tensor.expand", { NULL }, CAT, "Broadcasts size-1 dims (no copy)", 0, {
      { "expand(Tensor self, SymInt... size, *, bool implicit=False) -> Tensor", k_expand } } },
  { FX_OP_METHOD, "Tensor.expand_as", { NULL }, CAT, "Broadcasts to another tensor's shape", 0, {
      { "expand_as(Tensor self, Tensor other) -> Tensor", k_expand_as } } },
  { FX_OP_FUNCTION, "torch.squeeze", { NULL }, CAT, "Removes size-1 dims", 0, {
      { "squeeze(Tensor input) -> Tensor", k_squeeze },
      { "squeeze(Tensor input, int dim) -> Tensor", k_squeeze_dim } } },
  { FX_OP_METHOD, "Tensor.squeeze", { NULL }, CAT, "Removes size-1 dims", 0, {
      { "squeeze(Tensor self) -> Tensor", k_squeeze },
      { "squeeze(Tensor self, int dim) -> Tensor", k_squeeze_dim } } },
  { FX_OP_FUNCTION, "torch.unsqueeze", { NULL }, CAT, "Inserts a size-1 dim", 0, {
      { "unsqueeze(Tensor input, int dim) -> Tensor", k_unsqueeze } } },
  { FX_OP_METHOD, "Tensor.unsqueeze", { NULL }, CAT, "Inserts a size-1 dim", 0, {
      { "unsqueeze(Tensor self, int dim) -> Tensor", k_unsqueeze } } },
  { FX_OP_METHOD, "Tensor.unsqueeze_", { NULL }, CAT, "Inserts a size-1 dim, in place", INPLACE, {
      { "unsqueeze_(Tensor(a!) self, int dim) -> Tensor", k_unsqueeze_ } } },
  { FX_OP_METHOD, "Tensor.squeeze_", { NULL }, CAT, "Removes size-1 dims, in place", INPLACE, {
      { "squeeze_(Tensor(a!) self) -> Tensor", k_squeeze_ },
      { "squeeze_(Tensor(a!) self, int dim) -> Tensor", k_squeeze_dim_ } } },
  { FX_OP_METHOD, "Tensor.transpose_", { NULL }, CAT, "Swaps two dims, in place", INPLACE, {
      { "transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor", k_transpose_ } } },
  { FX_OP_METHOD, "Tensor.t_", { NULL }, CAT, "Transposes a matrix, in place", INPLACE, {
      { "t_(Tensor(a!) self) -> Tensor", k_t_ } } },
  { FX_OP_FUNCTION, "torch.narrow", { NULL }, CAT, "A range of one dim (no copy)", 0, {
      { "narrow(Tensor input, int dim, Tensor start, int length) -> Tensor", k_narrow },
      { "narrow(Tensor input, int dim, int start, int length) -> Tensor", k_narrow } } },
  { FX_OP_METHOD, "Tensor.unfold", { NULL }, CAT, "Windows along one dim (no copy)", 0, {
      { "unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", k_unfold } } },
  { FX_OP_FUNCTION, "torch.as_strided", { NULL }, CAT, "Any view of the storage", 0, {
      { "as_strided(Tensor(a) input, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
        k_as_strided } } },
  { FX_OP_METHOD, "Tensor.as_strided", { NULL }, CAT, "Any view of the storage", 0, {
      { "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
        k_as_strided } } },
  { FX_OP_METHOD, "Tensor.narrow", { NULL }, CAT, "A range of one dim (no copy)", 0, {
      { "narrow(Tensor self, int dim, Tensor start, int length) -> Tensor", k_narrow },
      { "narrow(Tensor self, int dim, int start, int length) -> Tensor", k_narrow } } },
  { FX_OP_FUNCTION, "torch.select", { NULL }, CAT, "One index of a dim, removing it", 0, {
      { "select(Tensor input, int dim, int index) -> Tensor", k_select } } },
  { FX_OP_METHOD, "Tensor.select", { NULL }, CAT, "One index of a dim, removing it", 0, {
      { "select(Tensor self, int dim, int index) -> Tensor", k_select } } },
  { FX_OP_METHOD, "Tensor.contiguous", { NULL }, CAT, "Contiguous data (a copy if needed)", 0, {
      { "contiguous(Tensor self, *, MemoryFormat memory_format=torch.contiguous_format) -> Tensor",
        k_contiguous } } },
  { FX_OP_FUNCTION, "torch.clone", { NULL }, CAT, "A copy", 0, {
      { "clone(Tensor input, " MEMFMT ") -> Tensor", k_clone } } },
  { FX_OP_METHOD, "Tensor.clone", { NULL }, CAT, "A copy", 0, {
      { "clone(Tensor self, " MEMFMT ") -> Tensor", k_clone } } },
  { FX_OP_FUNCTION, "torch.detach", { NULL }, CAT, "A view outside autograd", 0, {
      { "detach(Tensor input) -> Tensor", k_detach } } },
  { FX_OP_METHOD, "Tensor.detach", { NULL }, CAT, "A view outside autograd", 0, {
      { "detach(Tensor self) -> Tensor", k_detach } } },
  { FX_OP_METHOD, "Tensor.detach_", { NULL }, CAT, "Itself, out of autograd (not a view)", 0, {
      { "detach_(Tensor(a!) self) -> Tensor(a!)", k_detach_ } } },
  { FX_OP_METHOD, "Tensor.cpu", { NULL }, CONV, "The tensor on the cpu (itself)", 0, {
      { "cpu(Tensor self, " MEMFMT ") -> Tensor", k_self } } },

  /* copies */
  { FX_OP_METHOD, "Tensor.repeat", { NULL }, CAT, "Tiles the tensor along each dim", 0, {
      { "repeat(Tensor self, SymInt... repeats) -> Tensor", k_repeat } } },
  { FX_OP_FUNCTION, "torch.tile", { NULL }, CAT, "Tiles the tensor along each dim", 0, {
      { "tile(Tensor input, int[] dims) -> Tensor", k_tile } } },
  { FX_OP_METHOD, "Tensor.tile", { NULL }, CAT, "Tiles the tensor along each dim", 0, {
      { "tile(Tensor self, int... dims) -> Tensor", k_tile } } },
  { FX_OP_FUNCTION, "torch.flip", { NULL }, CAT, "Reverses the order along dims", 0, {
      { "flip(Tensor input, int[] dims) -> Tensor", k_flip } } },
  { FX_OP_METHOD, "Tensor.flip", { NULL }, CAT, "Reverses the order along dims", 0, {
      { "flip(Tensor self, int... dims) -> Tensor", k_flip } } },
  { FX_OP_FUNCTION, "torch.fliplr", { NULL }, CAT, "Reverses the columns", 0, {
      { "fliplr(Tensor input) -> Tensor", k_fliplr } } },
  { FX_OP_FUNCTION, "torch.flipud", { NULL }, CAT, "Reverses the rows", 0, {
      { "flipud(Tensor input) -> Tensor", k_flipud } } },
  { FX_OP_FUNCTION, "torch.roll", { NULL }, CAT, "Rotates elements along dims", 0, {
      { "roll(Tensor input, int[1] shifts, int[1] dims=[]) -> Tensor", k_roll } } },
  { FX_OP_METHOD, "Tensor.roll", { NULL }, CAT, "Rotates elements along dims", 0, {
      { "roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor", k_roll } } },

  /* gathering and scattering */
  { FX_OP_FUNCTION, "torch.gather", { NULL }, "indexing", "Values along a dim at given indices",
    0, {
      { "gather(Tensor input, int dim, Tensor index, *, bool sparse_grad=False, "
        "Tensor? out=None) -> Tensor", k_gather } } },
  { FX_OP_METHOD, "Tensor.gather", { NULL }, "indexing", "Values along a dim at given indices",
    0, {
      { "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
        k_gather_method } } },
  { FX_OP_FUNCTION, "torch.scatter", { NULL }, "indexing", "Writes values along a dim at indices",
    0, {
      { "scatter(Tensor input, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor",
        k_scatter_src },
      { "scatter(Tensor input, int dim, Tensor index, Scalar value, *, str? reduce=None) -> "
        "Tensor", k_scatter_value } } },
  { FX_OP_METHOD, "Tensor.scatter", { NULL }, "indexing", "Writes values along a dim at indices",
    0, {
      { "scatter(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor",
        k_scatter_src },
      { "scatter(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> "
        "Tensor", k_scatter_value } } },
  { FX_OP_METHOD, "Tensor.scatter_", { NULL }, "indexing", "Writes values along a dim at indices",
    INPLACE, {
      { "scatter_(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> "
        "Tensor", k_scatter_src_ },
      { "scatter_(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> "
        "Tensor", k_scatter_value_ } } },
  { FX_OP_FUNCTION, "torch.scatter_add", { NULL }, "indexing", "Adds values along a dim at indices",
    0, {
      { "scatter_add(Tensor input, int dim, Tensor index, Tensor src) -> Tensor",
        k_scatter_add } } },
  { FX_OP_METHOD, "Tensor.scatter_add", { NULL }, "indexing", "Adds values along a dim at indices",
    0, {
      { "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
        k_scatter_add } } },
  { FX_OP_METHOD, "Tensor.scatter_add_", { NULL }, "indexing",
    "Adds values along a dim at indices", INPLACE, {
      { "scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor",
        k_scatter_add_ } } },
  { FX_OP_FUNCTION, "torch.index_select", { NULL }, "indexing", "Slices of a dim at indices", 0, {
      { "index_select(Tensor input, int dim, Tensor index, *, Tensor? out=None) -> Tensor",
        k_index_select } } },
  { FX_OP_METHOD, "Tensor.index_select", { NULL }, "indexing", "Slices of a dim at indices", 0, {
      { "index_select(Tensor self, int dim, Tensor index) -> Tensor", k_index_select_method } } },
  { FX_OP_FUNCTION, "torch.take", { NULL }, "indexing", "Elements at flat indices", 0, {
      { "take(Tensor input, Tensor index) -> Tensor", k_take } } },
  { FX_OP_METHOD, "Tensor.take", { NULL }, "indexing", "Elements at flat indices", 0, {
      { "take(Tensor self, Tensor index) -> Tensor", k_take } } },
  { FX_OP_FUNCTION, "torch.masked_fill", { NULL }, "indexing", "Fills where a mask is True", 0, {
      { "masked_fill(Tensor input, Tensor mask, Tensor value) -> Tensor", k_masked_fill },
      { "masked_fill(Tensor input, Tensor mask, Scalar value) -> Tensor", k_masked_fill } } },
  { FX_OP_METHOD, "Tensor.masked_fill", { NULL }, "indexing", "Fills where a mask is True", 0, {
      { "masked_fill(Tensor self, Tensor mask, Tensor value) -> Tensor", k_masked_fill },
      { "masked_fill(Tensor self, Tensor mask, Scalar value) -> Tensor", k_masked_fill } } },
  { FX_OP_METHOD, "Tensor.masked_fill_", { NULL }, "indexing", "Fills where a mask is True",
    INPLACE, {
      { "masked_fill_(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor", k_masked_fill_ },
      { "masked_fill_(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor", k_masked_fill_ } } },
  { FX_OP_FUNCTION, "torch.masked_select", { NULL }, "indexing", "Elements where a mask is True",
    0, {
      { "masked_select(Tensor input, Tensor mask, *, Tensor? out=None) -> Tensor",
        k_masked_select } } },
  { FX_OP_METHOD, "Tensor.masked_select", { NULL }, "indexing", "Elements where a mask is True",
    0, { { "masked_select(Tensor self, Tensor mask) -> Tensor", k_masked_select_method } } },
  { FX_OP_FUNCTION, "torch.nonzero", { NULL }, "indexing", "Indices of the non-zero elements", 0, {
      { "nonzero(Tensor input, *, bool as_tuple=False) -> Any", k_nonzero } } },
  { FX_OP_METHOD, "Tensor.nonzero", { NULL }, "indexing", "Indices of the non-zero elements", 0, {
      { "nonzero(Tensor self, *, bool as_tuple=False) -> Any", k_nonzero } } },
  { FX_OP_METHOD, "Tensor.index_put_", { NULL }, "indexing", "Writes values at index tensors",
    INPLACE, {
      { "index_put_(Tensor(a!) self, Any indices, Tensor values, bool accumulate=False) -> Tensor",
        k_index_put_ } } },
  { FX_OP_METHOD, "Tensor.index_put", { NULL }, "indexing", "Writes values at index tensors", 0, {
      { "index_put(Tensor self, Any indices, Tensor values, bool accumulate=False) -> Tensor",
        k_index_put } } },
  { FX_OP_FUNCTION, "torch.index_put", { NULL }, "indexing", "Writes values at index tensors", 0, {
      { "index_put(Tensor input, Any indices, Tensor values, bool accumulate=False) -> Tensor",
        k_torch_index_put } } },
  { FX_OP_METHOD, "Tensor.__getitem__", { NULL }, "indexing", "x[index]", 0, {
      { "__getitem__(Tensor self, Any indices) -> Tensor", k_getitem } } },
  { FX_OP_METHOD, "Tensor.__setitem__", { NULL }, "indexing", "x[index] = value", INPLACE, {
      { "__setitem__(Tensor(a!) self, Any indices, Any value) -> Any", k_setitem_method } } },
  { FX_OP_FUNCTION, "operator.setitem", { NULL }, "python", "a[b] = c", INPLACE, {
      { "setitem(Any a, Any b, Any c) -> Any", k_setitem } } },

  /* dtype conversions */
  { FX_OP_METHOD, "Tensor.to", { NULL }, CONV, "Converts the dtype (or device)", 0, {
      { "to(Tensor self, Device? device=None, ScalarType? dtype=None, bool non_blocking=False, "
        "bool copy=False, " MEMFMT ") -> Tensor", k_to_device },
      { "to(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False, " MEMFMT
        ") -> Tensor", k_to_dtype },
      { "to(Tensor self, Tensor tensor, bool non_blocking=False, bool copy=False, " MEMFMT
        ") -> Tensor", k_to_other } } },
  { FX_OP_METHOD, "Tensor.type_as", { NULL }, CONV, "Converts to another tensor's dtype", 0, {
      { "type_as(Tensor self, Tensor other) -> Tensor", k_type_as } } },
  DTYPE_ENTRY (float, "Converts to float32"),
  DTYPE_ENTRY (double, "Converts to float64"),
  DTYPE_ENTRY (half, "Converts to float16"),
  DTYPE_ENTRY (long, "Converts to int64"),
  DTYPE_ENTRY (int, "Converts to int32"),
  DTYPE_ENTRY (short, "Converts to int16"),
  DTYPE_ENTRY (char, "Converts to int8"),
  DTYPE_ENTRY (byte, "Converts to uint8"),
  DTYPE_ENTRY (bool, "Converts to bool"),
  { .path = NULL },
};
