/* shape.c: joining, splitting, reordering and gathering tensors with PyTorch 1.13's semantics.
 * Data movement goes through fx_tensor_copy_into() on views wherever it can (it converts
 * dtypes and coalesces strides), and through flat byte loops over element sizes otherwise. */
#include "tensor/shape.h"
#include "fx-error.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ small helpers */

/* maybe_wrap_dim with 64-bit user values (a 0-d tensor takes dims -1 and 0). */
static gboolean
wrap_dim (int64_t dim, int ndim, int *out, GError **error)
{
  int64_t n = ndim > 0 ? ndim : 1;
  if (dim < -n || dim >= n)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")", -n, n - 1, dim);
      return FALSE;
    }
  *out = (int) (dim < 0 ? dim + n : dim);
  return TRUE;
}

/* t.size(dim): like wrap_dim, but a 0-d tensor has no size to give. */
static gboolean
size_dim (const FxTensor *t, int64_t dim, int *out, GError **error)
{
  if (!wrap_dim (dim, t->ndim, out, error))
    return FALSE;
  if (t->ndim == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension specified as %" G_GINT64_FORMAT " but tensor has no dimensions",
                   dim);
      return FALSE;
    }
  return TRUE;
}

static int64_t
numel_of (int ndim, const int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  return n;
}

static void
set_oom (GError **error)
{
  g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                       "DefaultCPUAllocator: not enough memory");
}

FxTensor *
fx_tensor_empty_checked (FxDType dtype, int ndim, const int64_t *shape, GError **error)
{
  FxTensor *t;

  if (ndim < 0 || ndim > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, ndim);
      return NULL;
    }
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0)
      {
        char *s = fx_shape_to_string (ndim, shape);
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": %s",
                     shape[i], s);
        g_free (s);
        return NULL;
      }
  t = fx_tensor_new_uninit (dtype, ndim, shape);
  if (t == NULL)
    set_oom (error);
  return t;
}

/* A view of t's storage with the given layout (strides may be negative or zero). */
static FxTensor *
view_of (const FxTensor *t, int ndim, const int64_t *shape, const int64_t *strides,
         int64_t offset)
{
  FxTensor *v = fx_tensor_new_view (t->storage, t->dtype, ndim, shape, strides, offset);
  v->requires_grad = t->requires_grad;
  return v;
}

/* Copies src into dst (same shape, fresh dst), which cannot fail on overlap. */
static void
copy_fresh (FxTensor *dst, const FxTensor *src)
{
  GError *local = NULL;
  if (!fx_tensor_copy_into (dst, src, &local))
    {
      g_warning ("shape: internal copy failed: %s", local->message);
      g_error_free (local);
    }
}

/* ------------------------------------------------------------------ element access */

static double
load_f64 (const char *p, FxDType dtype)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:
    case FX_DTYPE_UINT8:   return *(const uint8_t *) p;
    case FX_DTYPE_INT8:    return *(const int8_t *) p;
    case FX_DTYPE_INT16:   return *(const int16_t *) p;
    case FX_DTYPE_INT32:   return *(const int32_t *) p;
    case FX_DTYPE_INT64:   return (double) *(const int64_t *) p;
    case FX_DTYPE_FLOAT16: return fx_half_to_float (*(const uint16_t *) p);
    case FX_DTYPE_FLOAT32: return *(const float *) p;
    case FX_DTYPE_FLOAT64: return *(const double *) p;
    default:               return 0;
    }
}

static int64_t
load_i64 (const char *p, FxDType dtype)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:
    case FX_DTYPE_UINT8:   return *(const uint8_t *) p;
    case FX_DTYPE_INT8:    return *(const int8_t *) p;
    case FX_DTYPE_INT16:   return *(const int16_t *) p;
    case FX_DTYPE_INT32:   return *(const int32_t *) p;
    case FX_DTYPE_INT64:   return *(const int64_t *) p;
    default:               return (int64_t) load_f64 (p, dtype);
    }
}

/* Stores a value that is already in range for dtype. */
static void
store_f64 (char *p, FxDType dtype, double v)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:    *(uint8_t *) p = v != 0; break;
    case FX_DTYPE_UINT8:   *(uint8_t *) p = (uint8_t) (int64_t) v; break;
    case FX_DTYPE_INT8:    *(int8_t *) p = (int8_t) (int64_t) v; break;
    case FX_DTYPE_INT16:   *(int16_t *) p = (int16_t) (int64_t) v; break;
    case FX_DTYPE_INT32:   *(int32_t *) p = (int32_t) (int64_t) v; break;
    case FX_DTYPE_INT64:   *(int64_t *) p = (int64_t) v; break;
    case FX_DTYPE_FLOAT16: *(uint16_t *) p = fx_float_to_half ((float) v); break;
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = v; break;
    default: break;
    }
}

static void
store_i64 (char *p, FxDType dtype, int64_t v)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:    *(uint8_t *) p = v != 0; break;
    case FX_DTYPE_UINT8:   *(uint8_t *) p = (uint8_t) v; break;
    case FX_DTYPE_INT8:    *(int8_t *) p = (int8_t) v; break;
    case FX_DTYPE_INT16:   *(int16_t *) p = (int16_t) v; break;
    case FX_DTYPE_INT32:   *(int32_t *) p = (int32_t) v; break;
    case FX_DTYPE_INT64:   *(int64_t *) p = v; break;
    default:               store_f64 (p, dtype, (double) v); break;
    }
}

static inline void
copy_elem (char *dst, const char *src, gsize es)
{
  switch (es)
    {
    case 1: *(uint8_t *) dst = *(const uint8_t *) src; break;
    case 2: memcpy (dst, src, 2); break;
    case 4: memcpy (dst, src, 4); break;
    default: memcpy (dst, src, 8); break;
    }
}

/* The C++ type names of PyTorch's "value cannot be converted" message. */
static const char *
cpp_type_name (FxDType dtype)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:    return "bool";
    case FX_DTYPE_UINT8:   return "uint8_t";
    case FX_DTYPE_INT8:    return "int8_t";
    case FX_DTYPE_INT16:   return "int16_t";
    case FX_DTYPE_INT32:   return "int";
    case FX_DTYPE_INT64:   return "int64_t";
    case FX_DTYPE_FLOAT16: return "at::Half";
    case FX_DTYPE_FLOAT32: return "float";
    case FX_DTYPE_FLOAT64: return "double";
    default:               return "?";
    }
}

static void
int_range (FxDType dtype, int64_t *lo, int64_t *hi)
{
  switch (dtype)
    {
    case FX_DTYPE_UINT8: *lo = 0; *hi = 255; break;
    case FX_DTYPE_INT8:  *lo = -128; *hi = 127; break;
    case FX_DTYPE_INT16: *lo = -32768; *hi = 32767; break;
    case FX_DTYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    default:             *lo = INT64_MIN; *hi = INT64_MAX; break;
    }
}

gboolean
fx_scalar_to_dtype (const FxTensor *value, FxDType dtype, void *out, GError **error)
{
  gboolean overflow = FALSE;
  char *p = out;

  if (dtype == FX_DTYPE_BOOL)
    {
      *(uint8_t *) p = fx_dtype_is_floating (value->dtype) ? fx_tensor_get_double (value, 0) != 0
                                                            : fx_tensor_get_int64 (value, 0) != 0;
      return TRUE;
    }
  if (fx_dtype_is_floating (value->dtype))
    {
      double v = fx_tensor_get_double (value, 0);
      if (fx_dtype_is_integral (dtype))
        {
          int64_t lo, hi;
          int_range (dtype, &lo, &hi);
          /* 2^63 is the first double above INT64_MAX */
          if (isnan (v) || v < (double) lo
              || (dtype == FX_DTYPE_INT64 ? v >= 9223372036854775808.0 : v > (double) hi))
            overflow = TRUE;
          else
            store_i64 (p, dtype, (int64_t) v);
        }
      else if (dtype == FX_DTYPE_FLOAT32 && isfinite (v) && (v < -FLT_MAX || v > FLT_MAX))
        overflow = TRUE;
      else if (dtype == FX_DTYPE_FLOAT16 && isfinite (v) && (v < -65504.0 || v > 65504.0))
        overflow = TRUE;
      else
        store_f64 (p, dtype, v);
    }
  else
    {
      int64_t v = fx_tensor_get_int64 (value, 0);
      if (dtype == FX_DTYPE_UINT8)
        {
          /* negative values wrap around (two's complement), as PyTorch allows */
          if (v > 255 || (v < 0 && (uint64_t) 0 - (uint64_t) v > 255))
            overflow = TRUE;
          else
            store_i64 (p, dtype, v);
        }
      else if (fx_dtype_is_integral (dtype))
        {
          int64_t lo, hi;
          int_range (dtype, &lo, &hi);
          if (v < lo || v > hi)
            overflow = TRUE;
          else
            store_i64 (p, dtype, v);
        }
      else if (dtype == FX_DTYPE_FLOAT16 && (v < -65504 || v > 65504))
        overflow = TRUE;
      else
        store_i64 (p, dtype, v);
    }
  if (overflow)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "value cannot be converted to type %s without overflow",
                   cpp_type_name (dtype));
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ strided row loops */

/* Visits the elements of `shape` for n_ops operands row by row (the last coalesced dim is the
 * row); fn gets each operand's element offset at the row start and its row stride. */
typedef void (*RowFunc) (gpointer data, const int64_t *offs, const int64_t *steps, int64_t n);

#define MAX_OPS 3

static void
loop_rows (int ndim, const int64_t *shape, int n_ops, const int64_t *const *strides,
           RowFunc fn, gpointer data)
{
  int64_t cs[FX_TENSOR_MAX_DIMS], cst[MAX_OPS][FX_TENSOR_MAX_DIMS];
  int64_t idx[FX_TENSOR_MAX_DIMS] = { 0 };
  int64_t offs[MAX_OPS] = { 0 }, steps[MAX_OPS];
  int n = 0;
  int64_t rows = 1;

  if (numel_of (ndim, shape) == 0)
    return;
  for (int i = 0; i < ndim; i++)
    {
      gboolean merge = n > 0;
      if (shape[i] == 1)
        continue;
      for (int k = 0; k < n_ops && merge; k++)
        if (cst[k][n - 1] != strides[k][i] * shape[i])
          merge = FALSE;
      if (merge)
        {
          cs[n - 1] *= shape[i];
          for (int k = 0; k < n_ops; k++)
            cst[k][n - 1] = strides[k][i];
          continue;
        }
      cs[n] = shape[i];
      for (int k = 0; k < n_ops; k++)
        cst[k][n] = strides[k][i];
      n++;
    }
  if (n == 0)
    {
      for (int k = 0; k < n_ops; k++)
        steps[k] = 0;
      fn (data, offs, steps, 1);
      return;
    }
  for (int k = 0; k < n_ops; k++)
    steps[k] = cst[k][n - 1];
  for (int i = 0; i < n - 1; i++)
    rows *= cs[i];
  for (int64_t r = 0; r < rows; r++)
    {
      fn (data, offs, steps, cs[n - 1]);
      for (int d = n - 2; d >= 0; d--)
        {
          for (int k = 0; k < n_ops; k++)
            offs[k] += cst[k][d];
          if (++idx[d] < cs[d])
            break;
          for (int k = 0; k < n_ops; k++)
            offs[k] -= cst[k][d] * cs[d];
          idx[d] = 0;
        }
    }
}

/* Strides of t broadcast (right-aligned) to a shape of ndim dims. */
static void
broadcast_strides (const FxTensor *t, int ndim, int64_t *out)
{
  for (int i = 0; i < ndim; i++)
    {
      int ti = i - (ndim - t->ndim);
      out[i] = (ti < 0 || t->shape[ti] == 1) ? 0 : t->strides[ti];
    }
}

/* ------------------------------------------------------------------ cat and stack */

static gboolean
cat_skipped (const FxTensor *t)
{
  return t->ndim == 1 && t->shape[0] == 0;
}

FxTensor *
fx_tensor_cat (FxTensor *const *tensors, int n, int64_t dim, GError **error)
{
  int valid = -1, d = 0;
  FxDType dtype;
  int64_t shape[FX_TENSOR_MAX_DIMS], at = 0, total = 0;
  gboolean requires_grad = FALSE;
  FxTensor *out;

  for (int i = 0; i < n; i++)
    if (tensors[i]->ndim == 0)
      {
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "zero-dimensional tensor (at position %d) cannot be concatenated", i);
        return NULL;
      }
  for (int i = 0; i < n && valid < 0; i++)
    if (!cat_skipped (tensors[i]))
      valid = i;
  if (valid >= 0 && !wrap_dim (dim, tensors[valid]->ndim, &d, error))
    return NULL;
  if (n == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "torch.cat(): expected a non-empty list of Tensors");
      return NULL;
    }
  dtype = tensors[0]->dtype;
  for (int i = 0; i < n; i++)
    {
      dtype = fx_dtype_promote (dtype, tensors[i]->dtype);
      requires_grad |= tensors[i]->requires_grad;
    }
  if (valid < 0)
    {
      int64_t zero = 0;
      out = fx_tensor_empty_checked (dtype, 1, &zero, error);
      if (out)
        out->requires_grad = requires_grad;
      return out;
    }

  const FxTensor *first = tensors[valid];
  for (int i = 0; i < n; i++)
    {
      const FxTensor *t = tensors[i];
      if (cat_skipped (t))
        continue;
      if (t->ndim != first->ndim)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                       "Tensors must have same number of dimensions: got %d and %d",
                       first->ndim, t->ndim);
          return NULL;
        }
      for (int k = 0; k < first->ndim; k++)
        if (k != d && t->shape[k] != first->shape[k])
          {
            g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                         "Sizes of tensors must match except in dimension %d. Expected size %"
                         G_GINT64_FORMAT " but got size %" G_GINT64_FORMAT " for tensor number "
                         "%d in the list.", d, first->shape[k], t->shape[k], i);
            return NULL;
          }
      total += t->shape[d];
    }
  memcpy (shape, first->shape, sizeof (int64_t) * first->ndim);
  shape[d] = total;
  out = fx_tensor_empty_checked (dtype, first->ndim, shape, error);
  if (out == NULL)
    return NULL;
  for (int i = 0; i < n; i++)
    {
      const FxTensor *t = tensors[i];
      FxTensor *part;
      if (cat_skipped (t) || t->shape[d] == 0)
        continue;
      shape[d] = t->shape[d];
      part = fx_tensor_new_view (out->storage, dtype, out->ndim, shape, out->strides,
                                 at * out->strides[d]);
      copy_fresh (part, t);
      fx_tensor_unref (part);
      at += t->shape[d];
    }
  out->requires_grad = requires_grad;
  return out;
}

FxTensor *
fx_tensor_stack (FxTensor *const *tensors, int n, int64_t dim, GError **error)
{
  FxTensor **parts, *out = NULL;
  int d;

  if (n == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "stack expects a non-empty TensorList");
      return NULL;
    }
  if (!wrap_dim (dim, tensors[0]->ndim + 1, &d, error))
    return NULL;
  for (int i = 1; i < n; i++)
    if (!fx_tensor_same_shape (tensors[i], tensors[0]))
      {
        char *a = fx_shape_to_string (tensors[0]->ndim, tensors[0]->shape);
        char *b = fx_shape_to_string (tensors[i]->ndim, tensors[i]->shape);
        g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                     "stack expects each tensor to be equal size, but got %s at entry 0 and %s "
                     "at entry %d", a, b, i);
        g_free (a);
        g_free (b);
        return NULL;
      }
  parts = g_new0 (FxTensor *, n);
  for (int i = 0; i < n; i++)
    if ((parts[i] = fx_tensor_unsqueeze (tensors[i], d, error)) == NULL)
      goto out;
  out = fx_tensor_cat (parts, n, d, error);
out:
  for (int i = 0; i < n; i++)
    if (parts[i])
      fx_tensor_unref (parts[i]);
  g_free (parts);
  return out;
}

/* atleast_1d / atleast_2d */
static FxTensor *
at_least (FxTensor *t, int nd, GError **error)
{
  int64_t one[2] = { 1, 1 };
  if (t->ndim >= nd)
    return fx_tensor_ref (t);
  if (t->ndim == 0)
    return fx_tensor_reshape (t, nd, one, error);
  return fx_tensor_unsqueeze (t, 0, error);
}

static FxTensor *
stack_like (FxTensor *const *tensors, int n, int nd, const char *name, GError **error)
{
  FxTensor **parts, *out = NULL;
  if (n == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "%s expects a non-empty TensorList", name);
      return NULL;
    }
  parts = g_new0 (FxTensor *, n);
  for (int i = 0; i < n; i++)
    if ((parts[i] = at_least (tensors[i], nd, error)) == NULL)
      goto out;
  out = fx_tensor_cat (parts, n, nd == 1 && parts[0]->ndim != 1 ? 1 : 0, error);
out:
  for (int i = 0; i < n; i++)
    if (parts[i])
      fx_tensor_unref (parts[i]);
  g_free (parts);
  return out;
}

FxTensor *
fx_tensor_hstack (FxTensor *const *tensors, int n, GError **error)
{
  return stack_like (tensors, n, 1, "hstack", error);
}

FxTensor *
fx_tensor_vstack (FxTensor *const *tensors, int n, GError **error)
{
  return stack_like (tensors, n, 2, "vstack", error);
}

/* ------------------------------------------------------------------ splitting */

static GPtrArray *
new_parts (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) fx_tensor_unref);
}

GPtrArray *
fx_tensor_split (FxTensor *t, int64_t split_size, int64_t dim, GError **error)
{
  int d;
  int64_t size, n_splits = 1;
  GPtrArray *parts;

  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "split expects at least a 1-dimensional tensor");
      return NULL;
    }
  if (split_size < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "split expects split_size be non-negative, but got split_size=%"
                   G_GINT64_FORMAT, split_size);
      return NULL;
    }
  if (!wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  size = t->shape[d];
  if (split_size == 0 && size != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "split_size can only be 0 if dimension size is 0, but got dimension size of %"
                   G_GINT64_FORMAT, size);
      return NULL;
    }
  if (split_size != 0)
    n_splits = MAX (size / split_size + (size % split_size != 0), 1);
  parts = new_parts ();
  for (int64_t i = 0; i < n_splits; i++)
    {
      int64_t start = i * split_size;
      int64_t len = i < n_splits - 1 ? split_size : size - start;
      FxTensor *p = fx_tensor_narrow (t, d, start, len, error);
      if (p == NULL)
        {
          g_ptr_array_unref (parts);
          return NULL;
        }
      g_ptr_array_add (parts, p);
    }
  return parts;
}

GPtrArray *
fx_tensor_split_with_sizes (FxTensor *t, int n, const int64_t *sizes, int64_t dim,
                            GError **error)
{
  int d;
  int64_t start = 0;
  GPtrArray *parts;

  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "split expects at least a 1-dimensional tensor");
      return NULL;
    }
  if (!wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  for (int i = 0; i < n; i++)
    if (sizes[i] < 0)
      {
        char *s = fx_shape_to_string (n, sizes);
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "split_with_sizes expects split_sizes have only non-negative entries, but "
                     "got split_sizes=%s", s);
        g_free (s);
        return NULL;
      }
  for (int i = 0; i < n; i++)
    start += sizes[i];
  if (start != t->shape[d])
    {
      char *s = fx_shape_to_string (n, sizes);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "split_with_sizes expects split_sizes to sum exactly to %" G_GINT64_FORMAT
                   " (input tensor's size at dimension %" G_GINT64_FORMAT "), but got "
                   "split_sizes=%s", t->shape[d], dim, s);
      g_free (s);
      return NULL;
    }
  parts = new_parts ();
  start = 0;
  for (int i = 0; i < n; i++)
    {
      g_ptr_array_add (parts, fx_tensor_narrow (t, d, start, sizes[i], NULL));
      start += sizes[i];
    }
  return parts;
}

GPtrArray *
fx_tensor_chunk (FxTensor *t, int64_t chunks, int64_t dim, GError **error)
{
  int d;
  int64_t size, split;

  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "chunk expects at least a 1-dimensional tensor");
      return NULL;
    }
  if (chunks <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "chunk expects `chunks` to be greater than 0, got: %" G_GINT64_FORMAT, chunks);
      return NULL;
    }
  if (!wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  size = t->shape[d];
  split = size / chunks + (size % chunks != 0);
  if (split == 0 && size == 0)
    {
      /* split() would give one part; chunk promises `chunks` empty ones */
      GPtrArray *parts = new_parts ();
      for (int64_t i = 0; i < chunks && i < G_MAXINT; i++)
        g_ptr_array_add (parts, fx_tensor_narrow (t, d, 0, 0, NULL));
      return parts;
    }
  return fx_tensor_split (t, split, d, error);
}

GPtrArray *
fx_tensor_unbind (FxTensor *t, int64_t dim, GError **error)
{
  int d;
  GPtrArray *parts;

  if (!size_dim (t, dim, &d, error))
    return NULL;
  parts = new_parts ();
  for (int64_t i = 0; i < t->shape[d]; i++)
    g_ptr_array_add (parts, fx_tensor_select (t, d, i, NULL));
  return parts;
}

/* ------------------------------------------------------------------ reshaping */

FxTensor *
fx_tensor_flatten (FxTensor *t, int64_t start_dim, int64_t end_dim, GError **error)
{
  int s, e, n = 0;
  int64_t shape[FX_TENSOR_MAX_DIMS], one = 1;

  if (!wrap_dim (start_dim, t->ndim, &s, error) || !wrap_dim (end_dim, t->ndim, &e, error))
    return NULL;
  if (s > e)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "flatten() has invalid args: start_dim cannot come after end_dim");
      return NULL;
    }
  if (t->ndim == 0)
    return fx_tensor_reshape (t, 1, &one, error);
  if (s == e)
    return fx_tensor_ref (t);   /* PyTorch hands back the very same tensor */
  for (int i = 0; i < s; i++)
    shape[n++] = t->shape[i];
  shape[n++] = numel_of (e - s + 1, t->shape + s);
  for (int i = e + 1; i < t->ndim; i++)
    shape[n++] = t->shape[i];
  return fx_tensor_reshape (t, n, shape, error);
}

FxTensor *
fx_tensor_unflatten (FxTensor *t, int64_t dim, int n, const int64_t *sizes, GError **error)
{
  int d, infer = -1, nd = 0;
  int64_t shape[FX_TENSOR_MAX_DIMS], inferred[FX_TENSOR_MAX_DIMS], prod = 1, size;
  const char *problem = NULL;

  if (!wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  if (n == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "unflatten: sizes must be non-empty");
      return NULL;
    }
  if (t->ndim == 0)
    {
      size_dim (t, dim, &d, error);
      return NULL;
    }
  if (t->ndim - 1 + n > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS,
                   t->ndim - 1 + n);
      return NULL;
    }
  size = t->shape[d];
  for (int i = 0; i < n; i++)
    {
      inferred[i] = sizes[i];
      if (sizes[i] == -1)
        {
          if (infer >= 0)
            problem = "only one dimension can be inferred";
          infer = i;
        }
      else if (sizes[i] < 0)
        problem = "invalid shape dimension";
      else if (__builtin_mul_overflow (prod, sizes[i], &prod))
        problem = "invalid";
    }
  if (problem == NULL)
    {
      if (infer >= 0 && prod == 0)
        problem = size == 0 ? "ambiguous" : "invalid";
      else if (infer >= 0 && size % prod == 0)
        inferred[infer] = size / prod;
      else if (infer >= 0 || prod != size)
        problem = "invalid";
    }
  if (problem != NULL)
    {
      if (g_str_equal (problem, "invalid"))
        {
          char *s = fx_shape_to_string (n, sizes);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%"
                       G_GINT64_FORMAT ") in the input tensor", s, d, size);
          g_free (s);
        }
      else
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "unflatten got an unexpected error:");
      return NULL;
    }
  for (int i = 0; i < d; i++)
    shape[nd++] = t->shape[i];
  for (int i = 0; i < n; i++)
    shape[nd++] = inferred[i];
  for (int i = d + 1; i < t->ndim; i++)
    shape[nd++] = t->shape[i];
  return fx_tensor_view (t, nd, shape, error);
}

FxTensor *
fx_tensor_expand_as (FxTensor *t, const FxTensor *other, GError **error)
{
  return fx_tensor_expand (t, other->ndim, other->shape, error);
}

FxTensor *
fx_tensor_view_as (FxTensor *t, const FxTensor *other, GError **error)
{
  return fx_tensor_view (t, other->ndim, other->shape, error);
}

FxTensor *
fx_tensor_reshape_as (FxTensor *t, const FxTensor *other, GError **error)
{
  return fx_tensor_reshape (t, other->ndim, other->shape, error);
}

static gboolean
all_unique (int n, const int *dims)
{
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (dims[i] == dims[j])
        return FALSE;
  return TRUE;
}

FxTensor *
fx_tensor_movedim (FxTensor *t, int n, const int64_t *source, int n_dst,
                   const int64_t *destination, GError **error)
{
  int src[FX_TENSOR_MAX_DIMS + 1], dst[FX_TENSOR_MAX_DIMS + 1], order[FX_TENSOR_MAX_DIMS];
  gboolean src_used[FX_TENSOR_MAX_DIMS] = { FALSE }, dst_used[FX_TENSOR_MAX_DIMS] = { FALSE };
  int nd = t->ndim;
  int n_src = n, k;

  if (n != n_dst)
    {
      char *a = fx_shape_to_string (n, source), *b = fx_shape_to_string (n_dst, destination);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "movedim: Invalid source or destination dims: source (%s dims) should contain "
                   "the same number of dims as destination (%s dims)", a, b);
      g_free (a);
      g_free (b);
      return NULL;
    }
  if (n > FX_TENSOR_MAX_DIMS + 1)
    n = FX_TENSOR_MAX_DIMS + 1;   /* more dims than any tensor has: a repeat is certain */
  for (int i = 0; i < n; i++)
    if (!wrap_dim (source[i], nd, &src[i], error))
      return NULL;
  for (int i = 0; i < n; i++)
    if (!wrap_dim (destination[i], nd, &dst[i], error))
      return NULL;
  if (!all_unique (n, src) || !all_unique (n, dst))
    {
      gboolean in_src = !all_unique (n, src);
      char *s = fx_shape_to_string (n_src, in_src ? source : destination);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "movedim: repeated dim in `%s` (%s)",
                   in_src ? "source" : "destination", s);
      g_free (s);
      return NULL;
    }
  if (nd == 0)
    return view_of (t, 0, NULL, NULL, t->offset);
  for (int i = 0; i < nd; i++)
    order[i] = -1;
  for (int i = 0; i < n; i++)
    {
      order[dst[i]] = src[i];
      src_used[src[i]] = TRUE;
      dst_used[dst[i]] = TRUE;
    }
  /* the other dims keep their relative order in the free destination slots */
  k = 0;
  for (int i = 0; i < nd; i++)
    {
      if (dst_used[i])
        continue;
      while (k < nd && src_used[k])
        k++;
      order[i] = k++;
    }
  return fx_tensor_permute (t, nd, order, error);
}

FxTensor *
fx_tensor_view_dtype (FxTensor *t, FxDType dtype, GError **error)
{
  int64_t es = (int64_t) fx_dtype_size (t->dtype), ns = (int64_t) fx_dtype_size (dtype);
  int64_t shape[FX_TENSOR_MAX_DIMS], strides[FX_TENSOR_MAX_DIMS];
  int last = t->ndim - 1;
  FxTensor *v;

  if (dtype == t->dtype)
    return fx_tensor_ref (t);
  if (es == ns)
    {
      v = fx_tensor_new_view (t->storage, dtype, t->ndim, t->shape, t->strides, t->offset);
      v->requires_grad = t->requires_grad;
      return v;
    }
  if (t->ndim == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "self.dim() cannot be 0 to view %s as %s (different element sizes)",
                   fx_dtype_scalar_type_name (t->dtype), fx_dtype_scalar_type_name (dtype));
      return NULL;
    }
  memcpy (shape, t->shape, sizeof (int64_t) * t->ndim);
  if (es > ns)
    {
      int64_t ratio = es / ns;
      if (t->strides[last] != 1)
        goto bad_stride;
      for (int i = 0; i < last; i++)
        strides[i] = t->strides[i] * ratio;
      strides[last] = 1;
      shape[last] *= ratio;
      v = fx_tensor_new_view (t->storage, dtype, t->ndim, shape, strides, t->offset * ratio);
    }
  else
    {
      int64_t ratio = ns / es;
      if (t->shape[last] % ratio != 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "self.size(-1) must be divisible by %" G_GINT64_FORMAT " to view %s as %s "
                       "(different element sizes), but got %" G_GINT64_FORMAT, ratio,
                       fx_dtype_scalar_type_name (t->dtype), fx_dtype_scalar_type_name (dtype),
                       t->shape[last]);
          return NULL;
        }
      if (t->offset % ratio != 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "self.storage_offset() must be divisible by %" G_GINT64_FORMAT " to view "
                       "%s as %s (different element sizes), but got %" G_GINT64_FORMAT, ratio,
                       fx_dtype_scalar_type_name (t->dtype), fx_dtype_scalar_type_name (dtype),
                       t->offset);
          return NULL;
        }
      if (t->strides[last] != 1)
        goto bad_stride;
      for (int i = 0; i < last; i++)
        {
          if (t->strides[i] % ratio != 0)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                           "self.stride(%d) must be divisible by %" G_GINT64_FORMAT " to view %s "
                           "as %s (different element sizes), but got %" G_GINT64_FORMAT, i,
                           ratio, fx_dtype_scalar_type_name (t->dtype),
                           fx_dtype_scalar_type_name (dtype), t->strides[i]);
              return NULL;
            }
          strides[i] = t->strides[i] / ratio;
        }
      strides[last] = 1;
      shape[last] /= ratio;
      v = fx_tensor_new_view (t->storage, dtype, t->ndim, shape, strides, t->offset / ratio);
    }
  v->requires_grad = t->requires_grad;
  return v;

bad_stride:
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
               "self.stride(-1) must be 1 to view %s as %s (different element sizes), but got %"
               G_GINT64_FORMAT, fx_dtype_scalar_type_name (t->dtype),
               fx_dtype_scalar_type_name (dtype), t->strides[last]);
  return NULL;
}

FxTensor *
fx_tensor_detach (FxTensor *t)
{
  FxTensor *v = fx_tensor_new_view (t->storage, t->dtype, t->ndim, t->shape, t->strides,
                                    t->offset);
  v->requires_grad = FALSE;
  return v;
}

/* ------------------------------------------------------------------ repeat, tile, flip, roll */

FxTensor *
fx_tensor_repeat (FxTensor *t, int n, const int64_t *repeats, GError **error)
{
  int64_t padded[FX_TENSOR_MAX_DIMS], target[FX_TENSOR_MAX_DIMS];
  int64_t shape2[FX_TENSOR_MAX_DIMS], sstr2[FX_TENSOR_MAX_DIMS], dstr2[FX_TENSOR_MAX_DIMS];
  int pad;
  FxTensor *out, *src, *dst;

  if (n < t->ndim)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor");
      return NULL;
    }
  if (n > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, n);
      return NULL;
    }
  pad = n - t->ndim;
  for (int i = 0; i < n; i++)
    {
      padded[i] = i < pad ? 1 : t->shape[i - pad];
      if (__builtin_mul_overflow (padded[i], repeats[i], &target[i]))
        {
          set_oom (error);
          return NULL;
        }
    }
  out = fx_tensor_empty_checked (t->dtype, n, target, error);
  if (out == NULL || fx_tensor_numel (out) == 0)
    return out;
  out->requires_grad = t->requires_grad;
  if (2 * n > FX_TENSOR_MAX_DIMS)
    {
      /* too many dims to pair up: repeat one dim at a time through cat */
      FxTensor *cur = fx_tensor_ref (t), *next;
      int64_t one[FX_TENSOR_MAX_DIMS];
      for (int i = 0; i < n; i++)
        one[i] = padded[i];
      next = fx_tensor_reshape (cur, n, one, error);
      fx_tensor_unref (cur);
      cur = next;
      for (int i = 0; i < n && cur != NULL; i++)
        {
          FxTensor **copies;
          if (repeats[i] == 1)
            continue;
          copies = g_new (FxTensor *, repeats[i]);
          for (int64_t r = 0; r < repeats[i]; r++)
            copies[r] = cur;
          next = fx_tensor_cat (copies, (int) repeats[i], i, error);
          g_free (copies);
          fx_tensor_unref (cur);
          cur = next;
        }
      fx_tensor_unref (out);
      return cur;
    }
  /* out viewed as [r0, s0, r1, s1, ...] receives t broadcast along the r dims */
  for (int i = 0; i < n; i++)
    {
      shape2[2 * i] = repeats[i];
      shape2[2 * i + 1] = padded[i];
      sstr2[2 * i] = 0;
      sstr2[2 * i + 1] = i < pad ? 0 : t->strides[i - pad];
      dstr2[2 * i] = padded[i] * out->strides[i];
      dstr2[2 * i + 1] = out->strides[i];
    }
  src = fx_tensor_new_view (t->storage, t->dtype, 2 * n, shape2, sstr2, t->offset);
  dst = fx_tensor_new_view (out->storage, out->dtype, 2 * n, shape2, dstr2, 0);
  copy_fresh (dst, src);
  fx_tensor_unref (src);
  fx_tensor_unref (dst);
  return out;
}

FxTensor *
fx_tensor_tile (FxTensor *t, int n, const int64_t *reps, GError **error)
{
  int64_t full[FX_TENSOR_MAX_DIMS];
  int pad = t->ndim - n;

  if (pad <= 0)
    return fx_tensor_repeat (t, n, reps, error);
  for (int i = 0; i < t->ndim; i++)
    full[i] = i < pad ? 1 : reps[i - pad];
  return fx_tensor_repeat (t, t->ndim, full, error);
}

/* Wraps a dim list and rejects repeats, as flip and friends do. */
static gboolean
dim_list (const FxTensor *t, int n, const int64_t *dims, gboolean *seen, GError **error)
{
  for (int i = 0; i < FX_TENSOR_MAX_DIMS; i++)
    seen[i] = FALSE;
  for (int i = 0; i < n; i++)
    {
      int d;
      if (!wrap_dim (dims[i], t->ndim, &d, error))
        return FALSE;
      if (seen[d])
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "dim %d appears multiple times in the list of dims", d);
          return FALSE;
        }
      seen[d] = TRUE;
    }
  return TRUE;
}

FxTensor *
fx_tensor_flip (FxTensor *t, int n, const int64_t *dims, GError **error)
{
  gboolean seen[FX_TENSOR_MAX_DIMS];
  int64_t strides[FX_TENSOR_MAX_DIMS], offset = t->offset;
  FxTensor *v, *out;

  if (!dim_list (t, n, dims, seen, error))
    return NULL;
  if (fx_tensor_numel (t) == 0)
    return fx_tensor_clone (t);
  /* a view that walks the flipped dims backwards, then one contiguous copy */
  for (int i = 0; i < t->ndim; i++)
    {
      strides[i] = t->strides[i];
      if (seen[i])
        {
          offset += (t->shape[i] - 1) * t->strides[i];
          strides[i] = -t->strides[i];
        }
    }
  v = view_of (t, t->ndim, t->shape, strides, offset);
  out = fx_tensor_clone (v);
  fx_tensor_unref (v);
  if (out == NULL)
    set_oom (error);
  return out;
}

static FxTensor *
roll_one (FxTensor *t, int64_t shift, int64_t dim, GError **error)
{
  int d;
  int64_t size, start, shape[FX_TENSOR_MAX_DIMS];
  FxTensor *out, *part, *piece;

  if (fx_tensor_numel (t) == 0)
    return fx_tensor_clone (t);
  if (!size_dim (t, dim, &d, error))
    return NULL;
  size = t->shape[d];
  start = (size - shift % size) % size;
  if (start < 0)
    start += size;
  out = fx_tensor_empty_checked (t->dtype, t->ndim, t->shape, error);
  if (out == NULL)
    return NULL;
  out->requires_grad = t->requires_grad;
  memcpy (shape, t->shape, sizeof (int64_t) * t->ndim);
  /* out[0 : size-start] = t[start : size]; out[size-start : size] = t[0 : start] */
  shape[d] = size - start;
  part = fx_tensor_new_view (out->storage, out->dtype, out->ndim, shape, out->strides, 0);
  piece = fx_tensor_narrow (t, d, start, size - start, NULL);
  copy_fresh (part, piece);
  fx_tensor_unref (part);
  fx_tensor_unref (piece);
  if (start > 0)
    {
      shape[d] = start;
      part = fx_tensor_new_view (out->storage, out->dtype, out->ndim, shape, out->strides,
                                 (size - start) * out->strides[d]);
      piece = fx_tensor_narrow (t, d, 0, start, NULL);
      copy_fresh (part, piece);
      fx_tensor_unref (part);
      fx_tensor_unref (piece);
    }
  return out;
}

FxTensor *
fx_tensor_roll (FxTensor *t, int n_shifts, const int64_t *shifts, int n_dims,
                const int64_t *dims, GError **error)
{
  FxTensor *cur;

  if (n_shifts == 1 && n_dims == 1)
    return roll_one (t, shifts[0], dims[0], error);
  if (n_shifts == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "`shifts` required");
      return NULL;
    }
  if (n_dims == 0 && n_shifts == 1)
    {
      FxTensor *flat, *rolled, *out;
      int64_t numel = fx_tensor_numel (t);
      flat = fx_tensor_reshape (t, 1, &numel, error);
      if (flat == NULL)
        return NULL;
      rolled = roll_one (flat, shifts[0], 0, error);
      fx_tensor_unref (flat);
      if (rolled == NULL)
        return NULL;
      out = fx_tensor_view (rolled, t->ndim, t->shape, error);
      fx_tensor_unref (rolled);
      return out;
    }
  if (n_shifts != n_dims)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "shifts and dimensions must align. shifts: %d, dims:%d", n_shifts, n_dims);
      return NULL;
    }
  cur = fx_tensor_ref (t);
  for (int i = 0; i < n_dims; i++)
    {
      FxTensor *next = roll_one (cur, shifts[i], dims[i], error);
      fx_tensor_unref (cur);
      if (next == NULL)
        return NULL;
      cur = next;
    }
  return cur;
}

/* ------------------------------------------------------------------ gather and scatter */

/* A tensor seen as having at least one dim (PyTorch's ensure_nonempty_*). */
static int
nonempty_ndim (const FxTensor *t)
{
  return t->ndim > 0 ? t->ndim : 1;
}

static int64_t
nonempty_size (const FxTensor *t, int d)
{
  return t->ndim > 0 ? t->shape[d] : 1;
}

static int64_t
nonempty_stride (const FxTensor *t, int d)
{
  return t->ndim > 0 ? t->strides[d] : 1;
}

/* Row-major walk over `index`'s elements, tracking the element offsets of up to three
 * tensors of at least index's sizes; operand skip_op does not move along skip_dim (the
 * indexed dim, whose offset the caller adds). */
typedef struct {
  int ndim;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t pos[FX_TENSOR_MAX_DIMS];
  int64_t st[MAX_OPS][FX_TENSOR_MAX_DIMS];
  int64_t off[MAX_OPS];
  int n_ops;
} Walk;

static void
walk_init (Walk *w, const FxTensor *index, int n_ops, const FxTensor *const *ops, int skip_op,
           int skip_dim)
{
  memset (w, 0, sizeof *w);
  w->ndim = nonempty_ndim (index);
  w->n_ops = n_ops;
  for (int i = 0; i < w->ndim; i++)
    w->shape[i] = nonempty_size (index, i);
  for (int k = 0; k < n_ops; k++)
    for (int i = 0; i < w->ndim; i++)
      w->st[k][i] = (k == skip_op && i == skip_dim) ? 0 : nonempty_stride (ops[k], i);
}

static void
walk_next (Walk *w)
{
  for (int d = w->ndim - 1; d >= 0; d--)
    {
      for (int k = 0; k < w->n_ops; k++)
        w->off[k] += w->st[k][d];
      if (++w->pos[d] < w->shape[d])
        return;
      for (int k = 0; k < w->n_ops; k++)
        w->off[k] -= w->st[k][d] * w->shape[d];
      w->pos[d] = 0;
    }
}

/* Checks every index value against [0, size); returns FALSE with PyTorch's message. */
static gboolean
check_index_range (const FxTensor *index, int dim, int64_t size, GError **error)
{
  const int64_t *ip = fx_tensor_data (index);
  const FxTensor *ops[1] = { index };
  int64_t n = fx_tensor_numel (index);
  Walk w;

  walk_init (&w, index, 1, ops, -1, -1);
  for (int64_t i = 0; i < n; i++, walk_next (&w))
    {
      int64_t v = ip[w.off[0]];
      if (v < 0 || v >= size)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "index %" G_GINT64_FORMAT " is out of bounds for dimension %d with size %"
                       G_GINT64_FORMAT, v, dim, size);
          return FALSE;
        }
    }
  return TRUE;
}

FxTensor *
fx_tensor_gather (FxTensor *t, int64_t dim, const FxTensor *index, GError **error)
{
  int d, nd;
  int64_t n;
  gsize es = fx_dtype_size (t->dtype);
  FxTensor *out;

  if (!wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  n = fx_tensor_numel (index);
  if (n == 0)
    {
      out = fx_tensor_empty_checked (t->dtype, index->ndim, index->shape, error);
      if (out)
        out->requires_grad = t->requires_grad;
      return out;
    }
  if (index->dtype != FX_DTYPE_INT64)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "gather(): Expected dtype int64 for index");
      return NULL;
    }
  nd = nonempty_ndim (t);
  if (nd != nonempty_ndim (index))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "Index tensor must have the same number of dimensions as input tensor");
      return NULL;
    }
  for (int i = 0; i < nd; i++)
    if (i != d && nonempty_size (index, i) > nonempty_size (t, i))
      {
        char *a = fx_shape_to_string (index->ndim, index->shape);
        char *b = fx_shape_to_string (t->ndim, t->shape);
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Size does not match at dimension %d expected index %s to be smaller than "
                     "self %s apart from dimension %d", i, a, b, d);
        g_free (a);
        g_free (b);
        return NULL;
      }
  if (!check_index_range (index, d, nonempty_size (t, d), error))
    return NULL;
  out = fx_tensor_empty_checked (t->dtype, index->ndim, index->shape, error);
  if (out == NULL)
    return NULL;
  out->requires_grad = t->requires_grad;
  {
    const FxTensor *ops[3] = { index, t, out };
    const int64_t *ip = fx_tensor_data (index);
    const char *sp = fx_tensor_data (t);
    char *op = fx_tensor_data (out);
    int64_t dstride = nonempty_stride (t, d);
    Walk w;
    walk_init (&w, index, 3, ops, 1, d);
    for (int64_t i = 0; i < n; i++, walk_next (&w))
      copy_elem (op + w.off[2] * (int64_t) es,
                 sp + (w.off[1] + ip[w.off[0]] * dstride) * (int64_t) es, es);
  }
  return out;
}

typedef enum { REDUCE_NONE, REDUCE_ADD, REDUCE_MULTIPLY } Reduce;

gboolean
fx_tensor_scatter_ (FxTensor *t, int64_t dim, const FxTensor *index, const FxTensor *src,
                    gboolean src_is_value, const char *reduce, GError **error)
{
  int d, nd;
  int64_t n;
  gboolean wrong = FALSE;
  Reduce red = REDUCE_NONE;
  gsize es = fx_dtype_size (t->dtype);
  union { double d; int64_t i; uint8_t b[8]; } value;

  if (!wrap_dim (dim, t->ndim, &d, error))
    return FALSE;
  n = fx_tensor_numel (index);
  if (n != 0 && index->dtype != FX_DTYPE_INT64)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "scatter(): Expected dtype int64 for index");
      return FALSE;
    }
  if (!src_is_value && src->dtype != t->dtype)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "scatter(): Expected self.dtype to be equal to src.dtype");
      return FALSE;
    }
  nd = nonempty_ndim (t);
  if (n != 0)
    {
      if (nd != nonempty_ndim (index))
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "Index tensor must have the same number of dimensions as self "
                               "tensor");
          return FALSE;
        }
      for (int i = 0; i < nd && !wrong; i++)
        if (i != d && nonempty_size (index, i) > nonempty_size (t, i))
          wrong = TRUE;
      if (!src_is_value)
        {
          if (nonempty_ndim (src) != nonempty_ndim (index))
            {
              g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                                   "Index tensor must have the same number of dimensions as "
                                   "src tensor");
              return FALSE;
            }
          for (int i = 0; i < nd && !wrong; i++)
            if (nonempty_size (index, i) > nonempty_size (src, i))
              wrong = TRUE;
        }
      if (wrong)
        {
          char *a = fx_shape_to_string (index->ndim, index->shape);
          char *b = fx_shape_to_string (t->ndim, t->shape);
          char *c = src_is_value ? NULL : fx_shape_to_string (src->ndim, src->shape);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Expected index %s to be smaller than self %s apart from dimension %d%s%s",
                       a, b, d, c ? " and to be smaller size than src " : "", c ? c : "");
          g_free (a);
          g_free (b);
          g_free (c);
          return FALSE;
        }
    }
  if (reduce != NULL)
    {
      if (g_str_equal (reduce, "add"))
        red = REDUCE_ADD;
      else if (g_str_equal (reduce, "multiply"))
        red = REDUCE_MULTIPLY;
      else
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "reduce argument must be either add or multiply.");
          return FALSE;
        }
    }
  if (src_is_value && !fx_scalar_to_dtype (src, t->dtype, value.b, error))
    return FALSE;
  if (n == 0)
    return TRUE;
  if (!check_index_range (index, d, nonempty_size (t, d), error))
    return FALSE;
  {
    const FxTensor *ops[3] = { index, t, src_is_value ? index : src };
    const int64_t *ip = fx_tensor_data (index);
    char *tp = fx_tensor_data (t);
    const char *sp = src_is_value ? (const char *) value.b : fx_tensor_data (src);
    int64_t dstride = nonempty_stride (t, d);
    gboolean fl = fx_dtype_is_floating (t->dtype);
    Walk w;
    walk_init (&w, index, 3, ops, 1, d);
    for (int64_t i = 0; i < n; i++, walk_next (&w))
      {
        char *dst = tp + (w.off[1] + ip[w.off[0]] * dstride) * (int64_t) es;
        const char *s = src_is_value ? sp : sp + w.off[2] * (int64_t) es;
        if (red == REDUCE_NONE)
          copy_elem (dst, s, es);
        else if (fl)
          store_f64 (dst, t->dtype, red == REDUCE_ADD ? load_f64 (dst, t->dtype) + load_f64 (s, t->dtype)
                                                      : load_f64 (dst, t->dtype) * load_f64 (s, t->dtype));
        else if (t->dtype == FX_DTYPE_BOOL)
          store_i64 (dst, t->dtype, red == REDUCE_ADD ? (load_i64 (dst, t->dtype) | load_i64 (s, t->dtype))
                                                      : (load_i64 (dst, t->dtype) & load_i64 (s, t->dtype)));
        else
          {
            /* wrap around like C++ integer arithmetic on the dtype */
            uint64_t a = (uint64_t) load_i64 (dst, t->dtype), b = (uint64_t) load_i64 (s, t->dtype);
            store_i64 (dst, t->dtype, (int64_t) (red == REDUCE_ADD ? a + b : a * b));
          }
      }
  }
  return TRUE;
}

FxTensor *
fx_tensor_scatter (FxTensor *t, int64_t dim, const FxTensor *index, const FxTensor *src,
                   gboolean src_is_value, const char *reduce, GError **error)
{
  FxTensor *out = fx_tensor_clone (t);
  if (out == NULL)
    {
      set_oom (error);
      return NULL;
    }
  if (!fx_tensor_scatter_ (out, dim, index, src, src_is_value, reduce, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  out->requires_grad = t->requires_grad || (!src_is_value && src->requires_grad);
  return out;
}

FxTensor *
fx_tensor_scatter_add (FxTensor *t, int64_t dim, const FxTensor *index, const FxTensor *src,
                       GError **error)
{
  GError *local = NULL;
  FxTensor *out = fx_tensor_scatter (t, dim, index, src, FALSE, "add", &local);
  if (local && g_str_has_prefix (local->message, "scatter():"))
    {
      /* the same checks, under scatter_add's name */
      g_set_error (error, FX_ERROR, local->code, "scatter_add%s",
                   local->message + strlen ("scatter"));
      g_error_free (local);
      return NULL;
    }
  if (local)
    g_propagate_error (error, local);
  return out;
}

FxTensor *
fx_tensor_index_select (FxTensor *t, int64_t dim, const FxTensor *index, GError **error)
{
  int d;
  int64_t n = fx_tensor_numel (index), size, outer = 1, inner = 1;
  int64_t shape[FX_TENSOR_MAX_DIMS], *idx;
  gsize es = fx_dtype_size (t->dtype);
  FxTensor *src, *out;

  if (!wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  if (index->ndim > 1)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                           "index_select(): Index is supposed to be a vector");
      return NULL;
    }
  if (index->dtype != FX_DTYPE_INT64 && index->dtype != FX_DTYPE_INT32)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "index_select(): Expected dtype int32 or int64 for index");
      return NULL;
    }
  size = nonempty_size (t, d);
  idx = g_new (int64_t, n > 0 ? n : 1);
  for (int64_t i = 0; i < n; i++)
    {
      idx[i] = fx_tensor_get_int64 (index, i);
      if (idx[i] < 0 || idx[i] >= size)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX, "index out of range in self");
          g_free (idx);
          return NULL;
        }
    }
  if (t->ndim == 0)
    {
      g_free (idx);
      return fx_tensor_clone (t);
    }
  memcpy (shape, t->shape, sizeof (int64_t) * t->ndim);
  shape[d] = n;
  out = fx_tensor_empty_checked (t->dtype, t->ndim, shape, error);
  if (out == NULL || fx_tensor_numel (out) == 0)
    {
      g_free (idx);
      return out;
    }
  out->requires_grad = t->requires_grad;
  /* rows of `inner` contiguous elements, picked out of a contiguous copy of t */
  src = fx_tensor_contiguous (t);
  for (int i = 0; i < d; i++)
    outer *= t->shape[i];
  for (int i = d + 1; i < t->ndim; i++)
    inner *= t->shape[i];
  {
    const char *sp = fx_tensor_data (src);
    char *op = fx_tensor_data (out);
    gsize row = (gsize) inner * es;
    for (int64_t o = 0; o < outer; o++)
      for (int64_t i = 0; i < n; i++)
        memcpy (op + ((o * n + i) * inner) * (int64_t) es,
                sp + ((o * size + idx[i]) * inner) * (int64_t) es, row);
  }
  fx_tensor_unref (src);
  g_free (idx);
  return out;
}

FxTensor *
fx_tensor_take (FxTensor *t, const FxTensor *index, GError **error)
{
  int64_t n = fx_tensor_numel (index), numel = fx_tensor_numel (t);
  gsize es = fx_dtype_size (t->dtype);
  FxTensor *src, *out;

  if (index->dtype != FX_DTYPE_INT64)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "take(): Expected a long tensor for index, but got %s",
                   fx_dtype_scalar_type_name (index->dtype));
      return NULL;
    }
  for (int64_t i = 0; i < n; i++)
    {
      int64_t v = fx_tensor_get_int64 (index, i);
      if (v < -numel || v >= numel)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "out of range: tried to access index %" G_GINT64_FORMAT " on a tensor of %"
                       G_GINT64_FORMAT " elements.", v, numel);
          return NULL;
        }
    }
  out = fx_tensor_empty_checked (t->dtype, index->ndim, index->shape, error);
  if (out == NULL)
    return NULL;
  out->requires_grad = t->requires_grad;
  src = fx_tensor_contiguous (t);
  {
    const char *sp = fx_tensor_data (src);
    char *op = fx_tensor_data (out);
    for (int64_t i = 0; i < n; i++)
      {
        int64_t v = fx_tensor_get_int64 (index, i);
        if (v < 0)
          v += numel;
        copy_elem (op + i * (int64_t) es, sp + v * (int64_t) es, es);
      }
  }
  fx_tensor_unref (src);
  return out;
}

/* ------------------------------------------------------------------ masks */

typedef struct {
  char *dst;
  const char *mask;
  FxDType mask_dtype;
  gsize es, mask_es;
  uint8_t value[8];
  gboolean bad_mask;
} FillCtx;

static void
fill_row (gpointer data, const int64_t *offs, const int64_t *steps, int64_t n)
{
  FillCtx *c = data;
  char *d = c->dst + offs[0] * (int64_t) c->es;
  const char *m = c->mask + offs[1] * (int64_t) c->mask_es;
  int64_t ds = steps[0] * (int64_t) c->es, ms = steps[1] * (int64_t) c->mask_es;

  if (c->bad_mask)
    return;
  if (c->mask_dtype == FX_DTYPE_BOOL && c->es == 4 && ds == 4 && ms == 1)
    {
      /* the float32 / int32 contiguous case, in a loop the compiler can vectorise */
      uint32_t v, *dd = (uint32_t *) d;
      const uint8_t *mm = (const uint8_t *) m;
      memcpy (&v, c->value, 4);
      for (int64_t i = 0; i < n; i++)
        dd[i] = mm[i] ? v : dd[i];
      return;
    }
  for (int64_t i = 0; i < n; i++, d += ds, m += ms)
    {
      /* non-bool masks are read byte-wise, as PyTorch's kernel does */
      uint8_t mv = *(const uint8_t *) m;
      if (c->mask_dtype != FX_DTYPE_BOOL && mv > 1)
        {
          c->bad_mask = TRUE;
          return;
        }
      if (mv)
        copy_elem (d, (const char *) c->value, c->es);
    }
}

gboolean
fx_tensor_masked_fill_ (FxTensor *t, const FxTensor *mask, const FxTensor *value,
                        GError **error)
{
  int bnd;
  int64_t bshape[FX_TENSOR_MAX_DIMS], mstr[FX_TENSOR_MAX_DIMS];
  FillCtx c = { 0 };

  if (value->ndim != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                   "%d dimension(s).", value->ndim);
      return FALSE;
    }
  if (!fx_broadcast_shapes (t->ndim, t->shape, mask->ndim, mask->shape, &bnd, bshape, error))
    return FALSE;
  if (bnd != t->ndim || memcmp (bshape, t->shape, sizeof (int64_t) * bnd) != 0)
    {
      char *a = fx_shape_to_string (t->ndim, t->shape), *b = fx_shape_to_string (bnd, bshape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "output with shape %s doesn't match the broadcast shape %s", a, b);
      g_free (a);
      g_free (b);
      return FALSE;
    }
  if (!fx_scalar_to_dtype (value, t->dtype, c.value, error))
    return FALSE;
  broadcast_strides (mask, t->ndim, mstr);
  c.dst = fx_tensor_data (t);
  c.mask = fx_tensor_data (mask);
  c.mask_dtype = mask->dtype;
  c.es = fx_dtype_size (t->dtype);
  c.mask_es = fx_dtype_size (mask->dtype);
  {
    const int64_t *strides[2] = { t->strides, mstr };
    loop_rows (t->ndim, t->shape, 2, strides, fill_row, &c);
  }
  if (c.bad_mask)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "Mask tensor can take 0 and 1 values only");
      return FALSE;
    }
  return TRUE;
}

FxTensor *
fx_tensor_masked_fill (FxTensor *t, const FxTensor *mask, const FxTensor *value,
                       GError **error)
{
  int bnd;
  int64_t bshape[FX_TENSOR_MAX_DIMS];
  FxTensor *expanded, *out;

  if (!fx_broadcast_shapes (mask->ndim, mask->shape, t->ndim, t->shape, &bnd, bshape, error))
    return NULL;
  expanded = fx_tensor_expand (t, bnd, bshape, error);
  if (expanded == NULL)
    return NULL;
  out = fx_tensor_clone (expanded);
  fx_tensor_unref (expanded);
  if (out == NULL)
    {
      set_oom (error);
      return NULL;
    }
  if (!fx_tensor_masked_fill_ (out, mask, value, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  return out;
}

typedef struct {
  const char *src, *mask;
  char *dst;
  gsize es;
  int64_t count;
  gboolean counting;
} SelectCtx;

static void
select_row (gpointer data, const int64_t *offs, const int64_t *steps, int64_t n)
{
  SelectCtx *c = data;
  const char *m = c->mask + offs[0];
  const char *s = c->src + offs[1] * (int64_t) c->es;
  int64_t ss = steps[1] * (int64_t) c->es;

  for (int64_t i = 0; i < n; i++, m += steps[0], s += ss)
    if (*(const uint8_t *) m)
      {
        if (!c->counting)
          copy_elem (c->dst + c->count * (int64_t) c->es, s, c->es);
        c->count++;
      }
}

FxTensor *
fx_tensor_masked_select (FxTensor *t, const FxTensor *mask, GError **error)
{
  int bnd;
  int64_t bshape[FX_TENSOR_MAX_DIMS], mstr[FX_TENSOR_MAX_DIMS], sstr[FX_TENSOR_MAX_DIMS];
  SelectCtx c = { 0 };
  FxTensor *out;

  if (mask->dtype != FX_DTYPE_BOOL && mask->dtype != FX_DTYPE_UINT8)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "masked_select: expected BoolTensor or ByteTensor for mask");
      return NULL;
    }
  if (!fx_broadcast_shapes (mask->ndim, mask->shape, t->ndim, t->shape, &bnd, bshape, error))
    return NULL;
  broadcast_strides (mask, bnd, mstr);
  broadcast_strides (t, bnd, sstr);
  c.src = fx_tensor_data (t);
  c.mask = fx_tensor_data (mask);
  c.es = fx_dtype_size (t->dtype);
  c.counting = TRUE;
  {
    const int64_t *strides[2] = { mstr, sstr };
    loop_rows (bnd, bshape, 2, strides, select_row, &c);
    out = fx_tensor_empty_checked (t->dtype, 1, &c.count, error);
    if (out == NULL)
      return NULL;
    c.dst = fx_tensor_data (out);
    c.counting = FALSE;
    c.count = 0;
    loop_rows (bnd, bshape, 2, strides, select_row, &c);
  }
  out->requires_grad = t->requires_grad;
  return out;
}

FxTensor *
fx_tensor_nonzero (const FxTensor *t)
{
  int64_t n = 0, numel = fx_tensor_numel (t), shape[2];
  int64_t pos[FX_TENSOR_MAX_DIMS] = { 0 };
  const char *p = fx_tensor_data (t);
  gsize es = fx_dtype_size (t->dtype);
  FxStridedIter it;
  FxTensor *out;
  int64_t *op;

  fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
  while (fx_strided_iter_next (&it))
    n += load_f64 (p + it.offset * (int64_t) es, t->dtype) != 0;
  shape[0] = n;
  shape[1] = t->ndim;
  out = fx_tensor_new_uninit (FX_DTYPE_INT64, 2, shape);
  if (out == NULL || n == 0)
    return out;
  op = fx_tensor_data (out);
  fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
  for (int64_t i = 0; i < numel && fx_strided_iter_next (&it); i++)
    {
      if (load_f64 (p + it.offset * (int64_t) es, t->dtype) != 0)
        {
          memcpy (op, pos, sizeof (int64_t) * t->ndim);
          op += t->ndim;
        }
      for (int d = t->ndim - 1; d >= 0; d--)
        {
          if (++pos[d] < t->shape[d])
            break;
          pos[d] = 0;
        }
    }
  return out;
}
