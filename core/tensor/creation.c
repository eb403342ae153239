/* creation.c: factories. arange and linspace reproduce torch 1.13's CPU kernels value for
 * value: those compute blocks of one SIMD register with a fused base and then add multiples of
 * the step, and the last partial blocks element by element; the exact rounding of each form was
 * established against torch (tests/conformance/gen_ops_creation.py keeps the evidence). */
#include "tensor/creation.h"

#include <math.h>
#include <string.h>
#include "fx-error.h"


/* ------------------------------------------------------------------ helpers */

static gboolean
check_shape (int ndim, const int64_t *shape, GError **error)
{
  if (ndim < 0 || ndim > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, ndim);
      return FALSE;
    }
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0)
      {
        g_autofree char *s = fx_shape_to_string (ndim, shape);
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": %s",
                     shape[i], s);
        return FALSE;
      }
  return TRUE;
}

static FxTensor *
alloc_failed (GError **error)
{
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
               "DefaultCPUAllocator: not enough memory: you tried to allocate a tensor that is "
               "too large");
  return NULL;
}

static FxTensor *
new_checked (FxDType dtype, int ndim, const int64_t *shape, gboolean zero, GError **error)
{
  FxTensor *t;
  if ((unsigned) dtype >= FX_DTYPE_N)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "invalid dtype");
      return NULL;
    }
  if (!check_shape (ndim, shape, error))
    return NULL;
  t = zero ? fx_tensor_zeros (dtype, ndim, shape) : fx_tensor_new_uninit (dtype, ndim, shape);
  if (t == NULL)
    return alloc_failed (error);
  return t;
}

static inline int64_t
double_to_int64_sat (double v)
{
  if (isnan (v))
    return 0;
  if (v >= 9223372036854775807.0)
    return G_MAXINT64;
  if (v <= -9223372036854775808.0)
    return G_MININT64;
  return (int64_t) v;
}

static void
store_d (void *p, FxDType dt, double v)
{
  switch (dt)
    {
    case FX_DTYPE_BOOL: *(uint8_t *) p = v != 0; break;
    case FX_DTYPE_UINT8: *(uint8_t *) p = (uint8_t) double_to_int64_sat (v); break;
    case FX_DTYPE_INT8: *(int8_t *) p = (int8_t) double_to_int64_sat (v); break;
    case FX_DTYPE_INT16: *(int16_t *) p = (int16_t) double_to_int64_sat (v); break;
    case FX_DTYPE_INT32: *(int32_t *) p = (int32_t) double_to_int64_sat (v); break;
    case FX_DTYPE_INT64: *(int64_t *) p = double_to_int64_sat (v); break;
    case FX_DTYPE_FLOAT16: *(uint16_t *) p = fx_float_to_half ((float) v); break;
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = v; break;
    default: break;
    }
}

static void
store_i (void *p, FxDType dt, int64_t v)
{
  switch (dt)
    {
    case FX_DTYPE_BOOL: *(uint8_t *) p = v != 0; break;
    case FX_DTYPE_UINT8: *(uint8_t *) p = (uint8_t) v; break;
    case FX_DTYPE_INT8: *(int8_t *) p = (int8_t) v; break;
    case FX_DTYPE_INT16: *(int16_t *) p = (int16_t) v; break;
    case FX_DTYPE_INT32: *(int32_t *) p = (int32_t) v; break;
    case FX_DTYPE_INT64: *(int64_t *) p = v; break;
    case FX_DTYPE_FLOAT16: *(uint16_t *) p = fx_float_to_half ((float) v); break;
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = (double) v; break;
    default: break;
    }
}

/* A scalar argument: a number, or a 1-element tensor standing for one. */
typedef struct {
  enum { SC_BOOL, SC_INT, SC_FLOAT } kind;
  int64_t i;
  double f;
} Scalar;

static gboolean
scalar_from_value (const FxValue *v, Scalar *s, GError **error)
{
  switch (v->kind)
    {
    case FX_VALUE_BOOL:
      s->kind = SC_BOOL; s->i = v->b; s->f = v->b;
      return TRUE;
    case FX_VALUE_INT:
      s->kind = SC_INT; s->i = v->i; s->f = (double) v->i;
      return TRUE;
    case FX_VALUE_FLOAT:
      s->kind = SC_FLOAT; s->f = v->f; s->i = double_to_int64_sat (v->f);
      return TRUE;
    case FX_VALUE_TENSOR:
      if (fx_tensor_numel (v->tensor) == 1)
        {
          FxDType dt = v->tensor->dtype;
          if (fx_dtype_is_floating (dt))
            {
              s->kind = SC_FLOAT;
              s->f = fx_tensor_get_double (v->tensor, 0);
              s->i = double_to_int64_sat (s->f);
            }
          else
            {
              s->kind = dt == FX_DTYPE_BOOL ? SC_BOOL : SC_INT;
              s->i = fx_tensor_get_int64 (v->tensor, 0);
              s->f = (double) s->i;
            }
          return TRUE;
        }
      break;
    default:
      break;
    }
  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "expected a number, got %s",
               fx_value_kind_name (v->kind));
  return FALSE;
}

/* c10's type names in "value cannot be converted to type X without overflow" (fill paths). */
static const char *
checked_type_name (FxDType dt)
{
  switch (dt)
    {
    case FX_DTYPE_BOOL: return "bool";
    case FX_DTYPE_UINT8: return "uint8_t";
    case FX_DTYPE_INT8: return "int8_t";
    case FX_DTYPE_INT16: return "int16_t";
    case FX_DTYPE_INT32: return "int";
    case FX_DTYPE_INT64: return "int64_t";
    case FX_DTYPE_FLOAT16: return "at::Half";
    case FX_DTYPE_FLOAT32: return "float";
    case FX_DTYPE_FLOAT64: return "double";
    default: return "?";
    }
}

static void
int_range (FxDType dt, int64_t *lo, int64_t *hi)
{
  switch (dt)
    {
    case FX_DTYPE_UINT8: *lo = 0; *hi = 255; break;
    case FX_DTYPE_INT8: *lo = -128; *hi = 127; break;
    case FX_DTYPE_INT16: *lo = -32768; *hi = 32767; break;
    case FX_DTYPE_INT32: *lo = G_MININT32; *hi = G_MAXINT32; break;
    default: *lo = G_MININT64; *hi = G_MAXINT64; break;
    }
}

/* c10::overflows semantics: unsigned targets accept negative integers down to -max (they
 * wrap), but not negative floats; floats overflow only when finite and beyond the type. */
static gboolean
scalar_overflows (FxDType dt, const Scalar *s)
{
  int64_t lo, hi;
  if (dt == FX_DTYPE_BOOL || dt == FX_DTYPE_FLOAT64)
    return FALSE;
  if (dt == FX_DTYPE_FLOAT32 || dt == FX_DTYPE_FLOAT16)
    {
      double lim = dt == FX_DTYPE_FLOAT32 ? G_MAXFLOAT : 65504.0;
      return s->kind == SC_FLOAT && isfinite (s->f) && fabs (s->f) > lim;
    }
  int_range (dt, &lo, &hi);
  if (s->kind != SC_FLOAT)
    {
      if (dt == FX_DTYPE_UINT8)
        return s->i > hi || s->i < -hi;
      return s->i < lo || s->i > hi;
    }
  if (isnan (s->f))
    return TRUE;
  if (dt == FX_DTYPE_INT64)
    return s->f >= 9223372036854775808.0 || s->f < -9223372036854775808.0;
  return s->f > (double) hi || s->f < (double) lo;
}

/* Fills a contiguous tensor's n elements with one element's bytes. */
static void
splat (FxTensor *t, const void *elem)
{
  int64_t n = fx_tensor_numel (t);
  gsize es = fx_dtype_size (t->dtype);
  char *d = fx_tensor_data (t);
  if (n == 0)
    return;
  memcpy (d, elem, es);
  if (t->dtype == FX_DTYPE_FLOAT32)
    {
      float v = *(float *) d, *p = (float *) d;
      for (int64_t i = 1; i < n; i++)
        p[i] = v;
      return;
    }
  for (int64_t done = 1; done < n;)
    {
      int64_t chunk = MIN (done, n - done);
      memcpy (d + done * es, d, (size_t) chunk * es);
      done += chunk;
    }
}

static void
scalar_to_elem (const Scalar *s, FxDType dt, void *elem)
{
  if (s->kind == SC_FLOAT)
    store_d (elem, dt, s->f);
  else
    store_i (elem, dt, s->i);
}

gboolean
fx_fill_value (FxTensor *t, const FxValue *fill, GError **error)
{
  Scalar s;
  guint64 elem = 0;
  FxStridedIter it;
  char *base;
  gsize es;

  if (!scalar_from_value (fill, &s, error))
    return FALSE;
  if (scalar_overflows (t->dtype, &s))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "value cannot be converted to type %s without overflow",
                   checked_type_name (t->dtype));
      return FALSE;
    }
  scalar_to_elem (&s, t->dtype, &elem);
  if (fx_tensor_is_contiguous (t))
    {
      splat (t, &elem);
      return TRUE;
    }
  es = fx_dtype_size (t->dtype);
  base = fx_tensor_data (t);
  fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
  while (fx_strided_iter_next (&it))
    memcpy (base + it.offset * (int64_t) es, &elem, es);
  return TRUE;
}

/* ------------------------------------------------------------------ zeros, ones, full, eye */

FxTensor *
fx_empty (FxDType dtype, int ndim, const int64_t *shape, GError **error)
{
  /* zero-filled all the same: uninitialised memory would make runs irreproducible */
  return new_checked (dtype, ndim, shape, TRUE, error);
}

FxTensor *
fx_zeros (FxDType dtype, int ndim, const int64_t *shape, GError **error)
{
  return new_checked (dtype, ndim, shape, TRUE, error);
}

FxTensor *
fx_ones (FxDType dtype, int ndim, const int64_t *shape, GError **error)
{
  FxValue one = fx_value_int (1);
  FxTensor *t = new_checked (dtype, ndim, shape, FALSE, error);
  if (t)
    fx_fill_value (t, &one, NULL);
  return t;
}

FxTensor *
fx_full (int ndim, const int64_t *shape, const FxValue *fill, gboolean has_dtype, FxDType dtype,
         GError **error)
{
  Scalar s;
  FxTensor *t;

  if (!scalar_from_value (fill, &s, error))
    return NULL;
  if (!has_dtype)
    dtype = s.kind == SC_BOOL ? FX_DTYPE_BOOL : s.kind == SC_INT ? FX_DTYPE_INT64
                                                                 : FX_DTYPE_DEFAULT_FLOAT;
  t = new_checked (dtype, ndim, shape, FALSE, error);
  if (t && !fx_fill_value (t, fill, error))
    g_clear_pointer (&t, fx_tensor_unref);
  return t;
}

FxTensor *
fx_eye (int64_t n, int64_t m, FxDType dtype, GError **error)
{
  int64_t shape[2];
  FxTensor *t;
  guint64 one = 0;
  gsize es;
  char *d;

  if (n < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "n must be greater or equal to 0, got %" G_GINT64_FORMAT, n);
      return NULL;
    }
  if (m < 0)
    m = n;
  shape[0] = n;
  shape[1] = m;
  t = new_checked (dtype, 2, shape, TRUE, error);
  if (t == NULL)
    return NULL;
  store_i (&one, dtype, 1);
  es = fx_dtype_size (dtype);
  d = fx_tensor_data (t);
  for (int64_t i = 0; i < MIN (n, m); i++)
    memcpy (d + (i * m + i) * (int64_t) es, &one, es);
  return t;
}

/* ------------------------------------------------------------------ arange */

/* How C++ streams print a Scalar in torch's messages: ints as ints, doubles with %g. */
static char *
scalar_string (const Scalar *s)
{
  if (s->kind == SC_FLOAT)
    {
      if (isinf (s->f))
        return g_strdup (s->f > 0 ? "inf" : "-inf");
      if (isnan (s->f))
        return g_strdup ("nan");
      return g_strdup_printf ("%g", s->f);
    }
  if (s->kind == SC_BOOL)
    return g_strdup (s->i ? "true" : "false");
  return g_strdup_printf ("%" G_GINT64_FORMAT, s->i);
}

/* Lanes of one 256-bit register for a dtype: the block size of torch's vector loops. */
static int
vec_lanes (FxDType dt)
{
  gsize es = fx_dtype_size (dt);
  return es ? (int) (32 / es) : 8;
}

static void
arange_fill_float (FxTensor *t, double start, double step)
{
  int64_t n = fx_tensor_numel (t);
  int vec = vec_lanes (t->dtype);
  int64_t full = n - n % (2 * vec);

  if (t->dtype == FX_DTYPE_FLOAT32)
    {
      float *p = fx_tensor_data (t);
      for (int64_t i0 = 0; i0 < full; i0 += vec)
        {
          /* the block base is rounded to float before the lanes add k * step */
          float base = (float) fma (step, (double) i0, start);
          for (int k = 0; k < vec; k++)
            p[i0 + k] = (float) fma ((double) k, step, (double) base);
        }
      for (int64_t i = full; i < n; i++)
        p[i] = (float) fma (step, (double) i, start);
    }
  else if (t->dtype == FX_DTYPE_FLOAT64)
    {
      double *p = fx_tensor_data (t);
      for (int64_t i0 = 0; i0 < full; i0 += vec)
        {
          double base = fma (step, (double) i0, start);
          for (int k = 0; k < vec; k++)
            p[i0 + k] = fma ((double) k, step, base);
        }
      for (int64_t i = full; i < n; i++)
        p[i] = fma (step, (double) i, start);
    }
  else
    {
      /* float16: computed in float */
      uint16_t *p = fx_tensor_data (t);
      float fs = (float) start, fst = (float) step;
      for (int64_t i = 0; i < n; i++)
        p[i] = fx_float_to_half (fmaf (fst, (float) i, fs));
    }
}

FxTensor *
fx_arange (const FxValue *start_v, const FxValue *end_v, const FxValue *step_v,
           gboolean has_dtype, FxDType dtype, GError **error)
{
  Scalar start, end, step;
  double size_d;
  int64_t size;
  FxTensor *t;
  gboolean integral;

  if (!scalar_from_value (start_v, &start, error) || !scalar_from_value (end_v, &end, error)
      || !scalar_from_value (step_v, &step, error))
    return NULL;
  if (!has_dtype)
    dtype = (start.kind == SC_FLOAT || end.kind == SC_FLOAT || step.kind == SC_FLOAT)
            ? FX_DTYPE_DEFAULT_FLOAT : FX_DTYPE_INT64;
  integral = !fx_dtype_is_floating (dtype);
  if (dtype == FX_DTYPE_BOOL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"arange_cpu\" not implemented for 'Bool'");
      return NULL;
    }

  if (integral)
    {
      /* the kernel works on the values converted to the integer type */
      if (step.i == 0)
        goto zero_step;
      if (!((step.i > 0 && end.i >= start.i) || (step.i < 0 && end.i <= start.i)))
        goto bad_sign;
      /* the difference wraps like torch's int64 arithmetic does (without C's UB) */
      size_d = ceil ((double) (int64_t) ((uint64_t) end.i - (uint64_t) start.i) / (double) step.i);
    }
  else
    {
      if (step.f == 0)
        goto zero_step;
      if (!isfinite (start.f) || !isfinite (end.f))
        {
          g_autofree char *a = scalar_string (&start), *b = scalar_string (&end);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "unsupported range: %s -> %s", a, b);
          return NULL;
        }
      if (!((step.f > 0 && end.f >= start.f) || (step.f < 0 && end.f <= start.f)))
        goto bad_sign;
      size_d = ceil ((end.f - start.f) / step.f);
    }
  if (!(size_d >= 0 && size_d <= 9.2233720368547758e18))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "invalid size, possible overflow?");
      return NULL;
    }
  size = (int64_t) size_d;
  t = new_checked (dtype, 1, &size, FALSE, error);
  if (t == NULL)
    return NULL;
  if (integral)
    {
      char *d = fx_tensor_data (t);
      gsize es = fx_dtype_size (dtype);
      for (int64_t i = 0; i < size; i++)
        store_i (d + i * (int64_t) es, dtype,
                 (int64_t) ((uint64_t) start.i + (uint64_t) step.i * (uint64_t) i));
    }
  else
    arange_fill_float (t, start.f, step.f);
  return t;

zero_step:
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "step must be nonzero");
  return NULL;
bad_sign:
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
               "upper bound and larger bound inconsistent with step sign");
  return NULL;
}

/* ------------------------------------------------------------------ linspace */

/* Both halves are computed from their own end (start + step*i, end - step*(n-1-i)), so the
 * last value is exactly `end`. */
FxTensor *
fx_linspace (double start, double end, int64_t steps, FxDType dtype, GError **error)
{
  FxTensor *t;
  int64_t half, full;
  int vec;

  if (steps < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "number of steps must be non-negative");
      return NULL;
    }
  t = new_checked (dtype, 1, &steps, FALSE, error);
  if (t == NULL || steps == 0)
    return t;
  if (steps == 1)
    {
      if (fx_dtype_is_floating (dtype))
        store_d (fx_tensor_data (t), dtype, start);
      else
        store_i (fx_tensor_data (t), dtype, double_to_int64_sat (start));
      return t;
    }
  half = steps / 2;
  vec = vec_lanes (dtype);
  full = steps - steps % (2 * vec);

  if (dtype == FX_DTYPE_FLOAT32 || dtype == FX_DTYPE_FLOAT16)
    {
      float s = (float) start, e = (float) end;
      float step = (e - s) / (float) (steps - 1);
      float *tmp = dtype == FX_DTYPE_FLOAT32 ? fx_tensor_data (t) : g_new (float, steps);
      for (int64_t i0 = 0; i0 < full; i0 += vec)
        {
          float base = i0 < half ? fmaf (step, (float) i0, s)
                                 : fmaf (-step, (float) (steps - i0 - 1), e);
          for (int k = 0; k < vec; k++)
            {
              float kk = (float) k * step;
              tmp[i0 + k] = base + kk;
            }
        }
      for (int64_t i = full; i < steps; i++)
        tmp[i] = i < half ? fmaf (step, (float) i, s) : fmaf (-step, (float) (steps - i - 1), e);
      if (dtype == FX_DTYPE_FLOAT16)
        {
          uint16_t *p = fx_tensor_data (t);
          for (int64_t i = 0; i < steps; i++)
            p[i] = fx_float_to_half (tmp[i]);
          g_free (tmp);
        }
    }
  else if (dtype == FX_DTYPE_FLOAT64)
    {
      double *p = fx_tensor_data (t);
      double step = (end - start) / (double) (steps - 1);
      for (int64_t i0 = 0; i0 < full; i0 += vec)
        {
          double base = i0 < half ? fma (step, (double) i0, start)
                                  : fma (-step, (double) (steps - i0 - 1), end);
          for (int k = 0; k < vec; k++)
            {
              double kk = (double) k * step;
              p[i0 + k] = base + kk;
            }
        }
      for (int64_t i = full; i < steps; i++)
        p[i] = i < half ? fma (step, (double) i, start) : fma (-step, (double) (steps - i - 1), end);
    }
  else
    {
      /* integer dtypes: the ends are converted to the type first, the step is a double */
      int64_t si = double_to_int64_sat (start), ei = double_to_int64_sat (end);
      double s = (double) si, e = (double) ei;
      double step = (e - s) / (double) (steps - 1);
      char *d = fx_tensor_data (t);
      gsize es = fx_dtype_size (dtype);
      for (int64_t i0 = 0; i0 < full; i0 += vec)
        {
          int64_t base = double_to_int64_sat (i0 < half ? fma (step, (double) i0, s)
                                                        : fma (-step, (double) (steps - i0 - 1), e));
          for (int k = 0; k < vec; k++)
            {
              double kk = (double) k * step;
              store_i (d + (i0 + k) * (int64_t) es, dtype,
                       double_to_int64_sat ((double) base + kk));
            }
        }
      for (int64_t i = full; i < steps; i++)
        store_i (d + i * (int64_t) es, dtype,
                 double_to_int64_sat (i < half ? fma (step, (double) i, s)
                                               : fma (-step, (double) (steps - i - 1), e)));
    }
  return t;
}

/* ------------------------------------------------------------------ torch.tensor(data) */

static gboolean
is_seq (const FxValue *v)
{
  return v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST;
}

static const char *
py_type_name (const FxValue *v)
{
  if (v->kind == FX_VALUE_DTYPE)
    return "torch.dtype";
  if (v->kind == FX_VALUE_TENSOR)
    return "Tensor";
  if (v->kind == FX_VALUE_NONE)
    return "NoneType";
  return fx_value_kind_name (v->kind);
}

/* The shape: the lengths along the first items, as torch's compute_sizes walks them. */
static gboolean
infer_shape (const FxValue *data, int *ndim, int64_t *shape, GError **error)
{
  const FxValue *v = data;
  *ndim = 0;
  while (is_seq (v))
    {
      if (*ndim >= FX_TENSOR_MAX_DIMS)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "libfx tensors have at most %d dimensions", FX_TENSOR_MAX_DIMS);
          return FALSE;
        }
      shape[(*ndim)++] = v->seq->len;
      if (v->seq->len == 0)
        break;
      v = &v->seq->items[0];
      if (v->kind == FX_VALUE_STR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "too many dimensions 'str'");
          return FALSE;
        }
    }
  return TRUE;
}

/* The dtype: promoted over every leaf (bool < int64 < float32, tensors by their dtype). */
static gboolean
infer_dtype (const FxValue *v, gboolean *any, FxDType *dt, GError **error)
{
  FxDType d;
  switch (v->kind)
    {
    case FX_VALUE_BOOL: d = FX_DTYPE_BOOL; break;
    case FX_VALUE_INT: d = FX_DTYPE_INT64; break;
    case FX_VALUE_FLOAT: d = FX_DTYPE_DEFAULT_FLOAT; break;
    case FX_VALUE_TENSOR: d = v->tensor->dtype; break;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      for (guint i = 0; i < v->seq->len; i++)
        if (!infer_dtype (&v->seq->items[i], any, dt, error))
          return FALSE;
      return TRUE;
    case FX_VALUE_STR:
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "new(): invalid data type 'str'");
      return FALSE;
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Could not infer dtype of %s",
                   py_type_name (v));
      return FALSE;
    }
  *dt = *any ? fx_dtype_promote (*dt, d) : d;
  *any = TRUE;
  return TRUE;
}

/* torch.tensor's names in its overflow message */
static const char *
short_type_name (FxDType dt)
{
  return fx_dtype_name (dt);
}

static gboolean
store_leaf (const FxValue *v, FxDType dt, char *dst, GError **error)
{
  Scalar s;

  if (v->kind == FX_VALUE_TENSOR)
    {
      if (fx_tensor_numel (v->tensor) != 1)
        {
          if (fx_dtype_is_floating (dt))
            g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                         "only one element tensors can be converted to Python scalars");
          else
            g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                         "only integer tensors of a single element can be converted to an index");
          return FALSE;
        }
    }
  else if (is_seq (v) || v->kind == FX_VALUE_STR)
    {
      const char *tn = fx_value_kind_name (v->kind);
      if (fx_dtype_is_floating (dt))
        g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "must be real number, not %s", tn);
      else
        g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                     "'%s' object cannot be interpreted as an integer", tn);
      return FALSE;
    }
  if (!scalar_from_value (v, &s, error))
    return FALSE;
  /* floats are rounded into float types without complaint; integer types are checked */
  if (!fx_dtype_is_floating (dt) && dt != FX_DTYPE_BOOL && scalar_overflows (dt, &s))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "value cannot be converted to type %s without overflow",
                   short_type_name (dt));
      return FALSE;
    }
  if (dt == FX_DTYPE_BOOL)
    store_i (dst, dt, s.kind == SC_FLOAT ? s.f != 0 : s.i != 0);
  else
    scalar_to_elem (&s, dt, dst);
  return TRUE;
}

static gboolean
store_rec (const FxValue *v, int dim, int ndim, const int64_t *shape, FxDType dt, gsize es,
           char **dst, GError **error)
{
  if (dim == ndim)
    {
      if (!store_leaf (v, dt, *dst, error))
        return FALSE;
      *dst += es;
      return TRUE;
    }
  if (!is_seq (v))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "not a sequence");
      return FALSE;
    }
  if ((int64_t) v->seq->len != shape[dim])
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "expected sequence of length %" G_GINT64_FORMAT " at dim %d (got %u)",
                   shape[dim], dim, v->seq->len);
      return FALSE;
    }
  for (guint i = 0; i < v->seq->len; i++)
    if (!store_rec (&v->seq->items[i], dim + 1, ndim, shape, dt, es, dst, error))
      return FALSE;
  return TRUE;
}

FxTensor *
fx_tensor_from_value (const FxValue *data, gboolean has_dtype, FxDType dtype, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int ndim;
  FxTensor *t;
  char *dst;

  if (data->kind == FX_VALUE_TENSOR)
    {
      FxTensor *src = data->tensor;
      t = fx_tensor_clone (src);
      if (t && has_dtype && dtype != t->dtype)
        {
          FxTensor *c = fx_tensor_to_dtype (t, dtype);
          fx_tensor_unref (t);
          t = c;
        }
      if (t)
        t->requires_grad = FALSE;
      return t ? t : alloc_failed (error);
    }
  if (data->kind == FX_VALUE_STR)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "new(): invalid data type 'str'");
      return NULL;
    }
  if (!infer_shape (data, &ndim, shape, error))
    return NULL;
  if (!has_dtype)
    {
      gboolean any = FALSE;
      dtype = FX_DTYPE_DEFAULT_FLOAT;
      if (!infer_dtype (data, &any, &dtype, error))
        return NULL;
      if (!any)
        dtype = FX_DTYPE_DEFAULT_FLOAT;
    }
  t = new_checked (dtype, ndim, shape, FALSE, error);
  if (t == NULL)
    return NULL;
  dst = fx_tensor_data (t);
  if (!store_rec (data, 0, ndim, shape, dtype, fx_dtype_size (dtype), &dst, error))
    g_clear_pointer (&t, fx_tensor_unref);
  return t;
}

/* ------------------------------------------------------------------ *_like */

static gboolean
dense_strides (const FxTensor *t)
{
  int idx[FX_TENSOR_MAX_DIMS];
  int n = 0;
  int64_t expected = 1;

  for (int i = 0; i < t->ndim; i++)
    {
      if (t->shape[i] == 0)
        return FALSE;
      if (t->strides[i] < 0)
        return FALSE;
      if (t->shape[i] != 1)
        idx[n++] = i;
    }
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && t->strides[idx[j - 1]] > t->strides[idx[j]]; j--)
      {
        int tmp = idx[j];
        idx[j] = idx[j - 1];
        idx[j - 1] = tmp;
      }
  for (int i = 0; i < n; i++)
    {
      if (t->strides[idx[i]] != expected)
        return FALSE;
      expected *= t->shape[idx[i]];
    }
  return TRUE;
}

FxTensor *
fx_empty_like (FxTensor *t, FxDType dtype, GError **error)
{
  FxTensor *r;
  if (dtype == FX_DTYPE_LIKE)
    dtype = t->dtype;
  if (!fx_tensor_is_contiguous (t) && dense_strides (t))
    {
      int64_t n = fx_tensor_numel (t);
      FxStorage *st = fx_storage_new ((gsize) n * fx_dtype_size (dtype));
      if (st == NULL)
        return alloc_failed (error);
      r = fx_tensor_new_view (st, dtype, t->ndim, t->shape, t->strides, 0);
      fx_storage_unref (st);
      return r ? r : alloc_failed (error);
    }
  return new_checked (dtype, t->ndim, t->shape, TRUE, error);
}

FxTensor *
fx_zeros_like (FxTensor *t, FxDType dtype, GError **error)
{
  return fx_empty_like (t, dtype, error);
}

FxTensor *
fx_ones_like (FxTensor *t, FxDType dtype, GError **error)
{
  FxValue one = fx_value_int (1);
  FxTensor *r = fx_empty_like (t, dtype, error);
  if (r)
    fx_fill_value (r, &one, NULL);
  return r;
}

FxTensor *
fx_full_like (FxTensor *t, const FxValue *fill, FxDType dtype, GError **error)
{
  FxTensor *r = fx_empty_like (t, dtype, error);
  if (r && !fx_fill_value (r, fill, error))
    g_clear_pointer (&r, fx_tensor_unref);
  return r;
}

FxTensor *
fx_rand_like (FxTensor *t, FxDType dtype, FxGenerator *gen, GError **error)
{
  FxTensor *r = fx_empty_like (t, dtype, error);
  if (r && !fx_tensor_uniform_ (r, 0.0, 1.0, gen, error))
    g_clear_pointer (&r, fx_tensor_unref);
  return r;
}

FxTensor *
fx_randn_like (FxTensor *t, FxDType dtype, FxGenerator *gen, GError **error)
{
  FxTensor *r = fx_empty_like (t, dtype, error);
  if (r && !fx_tensor_normal_ (r, 0.0, 1.0, gen, error))
    g_clear_pointer (&r, fx_tensor_unref);
  return r;
}

FxTensor *
fx_randint_like (FxTensor *t, int64_t low, int64_t high, FxDType dtype, FxGenerator *gen,
                 GError **error)
{
  FxTensor *r;
  if (low >= high)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "random_ expects 'from' to be less than 'to', but got from=%" G_GINT64_FORMAT
                   " >= to=%" G_GINT64_FORMAT, low, high);
      return NULL;
    }
  r = fx_empty_like (t, dtype, error);
  if (r && !fx_tensor_random_ (r, low, high, gen, error))
    g_clear_pointer (&r, fx_tensor_unref);
  return r;
}
