/* elementwise.c: pointwise kernels. One strided loop engine — broadcasting, dim coalescing,
 * and per-block load/convert/store — drives small per-op kernels written for three compute
 * types (float, double, int64) plus bytes for booleans. Every dtype, view and broadcast goes
 * through the same path; inputs already in the compute type with unit or zero stride are
 * handed to the kernels in place, so contiguous float32 runs as flat vectorisable loops.
 *
 * PyTorch semantics worth knowing here: inputs are first converted to the common dtype (a
 * wrapped -1 compared with uint8 is 255), float16 is computed in float and rounded on store,
 * float32 is computed in float (not double) so results match bit for bit where libm does. */
#include "tensor/elementwise.h"

#include <tgmath.h>
#include <string.h>

#include "fx-error.h"
#include "tensor/blas.h"

/* ------------------------------------------------------------------ dtype facts */

/* caffe2::TypeMeta names, which a few messages (clamp_) print instead */
static const char *
type_meta_name (FxDType d)
{
  static const char *const names[FX_DTYPE_N] = {
    "bool", "unsigned char", "signed char", "short int", "int", "long int", "c10::Half",
    "float", "double",
  };
  return (unsigned) d < FX_DTYPE_N ? names[d] : "unknown";
}

gboolean
fx_dtype_can_cast (FxDType from, FxDType to)
{
  if (fx_dtype_is_floating (from) && !fx_dtype_is_floating (to))
    return FALSE;
  if (from != FX_DTYPE_BOOL && to == FX_DTYPE_BOOL)
    return FALSE;
  return TRUE;
}

#define DTYPE_UNDEF FX_DTYPE_N

static FxDType
promote_undef (FxDType a, FxDType b)
{
  if (a == DTYPE_UNDEF)
    return b;
  if (b == DTYPE_UNDEF)
    return a;
  return fx_dtype_promote (a, b);
}

/* A higher priority category (dim > zero-dim > wrapped) wins unless the lower one is of a
 * higher kind (float over int over bool). */
static FxDType
combine_categories (FxDType higher, FxDType lower)
{
  if (higher == DTYPE_UNDEF)
    return lower;
  if (lower == DTYPE_UNDEF)
    return higher;
  if (fx_dtype_is_floating (higher))
    return higher;
  if (higher == FX_DTYPE_BOOL || fx_dtype_is_floating (lower))
    return fx_dtype_promote (higher, lower);
  return higher;
}

FxDType
fx_tensor_result_type (int n, FxTensor *const *operands)
{
  FxDType dim = DTYPE_UNDEF, zero = DTYPE_UNDEF, wrapped = DTYPE_UNDEF;

  for (int i = 0; i < n; i++)
    {
      const FxTensor *t = operands[i];
      if (t == NULL)
        continue;
      if (t->wrapped_number)
        wrapped = promote_undef (wrapped, fx_dtype_is_floating (t->dtype)
                                          ? FX_DTYPE_DEFAULT_FLOAT : t->dtype);
      else if (t->ndim == 0)
        zero = promote_undef (zero, t->dtype);
      else
        dim = promote_undef (dim, t->dtype);
    }
  dim = combine_categories (dim, combine_categories (zero, wrapped));
  return dim == DTYPE_UNDEF ? FX_DTYPE_DEFAULT_FLOAT : dim;
}

static gboolean
error_not_implemented (GError **error, const char *kname, FxDType dtype)
{
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "\"%s\" not implemented for '%s'", kname,
               fx_dtype_scalar_type_name (dtype));
  return FALSE;
}

static gboolean
error_cast (GError **error, FxDType from, FxDType to, gboolean meta_names)
{
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
               "result type %s can't be cast to the desired output type %s",
               fx_dtype_scalar_type_name (from), meta_names ? type_meta_name (to) : fx_dtype_scalar_type_name (to));
  return FALSE;
}

/* ------------------------------------------------------------------ scalar conversions */

/* Float to integer as PyTorch does on x86: the 64-bit conversion yields INT64_MIN when out of
 * range or NaN, narrower types go through int32 and wrap. */
static inline int64_t
d2i64 (double x)
{
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
    return INT64_MIN;
  return (int64_t) x;
}

static inline int32_t
d2i32 (double x)
{
  if (!(x > -2147483649.0 && x < 2147483648.0))
    return INT32_MIN;
  return (int32_t) x;
}

static inline float h2f (uint16_t h) { return fx_half_to_float (h); }
static inline uint16_t f2h (float f) { return fx_float_to_half (f); }

/* ------------------------------------------------------------------ compute types */


typedef enum { CT_F32, CT_F64, CT_I64, CT_U8 } Ct;

static Ct
ct_of (FxDType d)
{
  switch (d)
    {
    case FX_DTYPE_FLOAT16:
    case FX_DTYPE_FLOAT32: return CT_F32;
    case FX_DTYPE_FLOAT64: return CT_F64;
    default:               return CT_I64;
    }
}

/* Whether a dtype's storage is the compute type's own representation. */
static gboolean
ct_native (Ct ct, FxDType d)
{
  switch (ct)
    {
    case CT_F32: return d == FX_DTYPE_FLOAT32;
    case CT_F64: return d == FX_DTYPE_FLOAT64;
    case CT_I64: return d == FX_DTYPE_INT64;
    case CT_U8:  return d == FX_DTYPE_BOOL || d == FX_DTYPE_UINT8;
    default:     return FALSE;
    }
}

#define LOAD_LOOP(ST, DT, CONV)                                             \
  do {                                                                      \
    const ST *s_ = (const ST *) src;                                        \
    DT *d_ = dst;                                                           \
    if (stride == 1)                                                        \
      for (int64_t i_ = 0; i_ < n; i_++)                                    \
        d_[i_] = CONV (s_[i_]);                                             \
    else                                                                    \
      for (int64_t i_ = 0; i_ < n; i_++)                                    \
        d_[i_] = CONV (s_[i_ * stride]);                                    \
  } while (0)

#define LOAD_ANY(DT, CI, CF, CH)                                                \
  switch (dt)                                                                   \
    {                                                                           \
    case FX_DTYPE_BOOL:                                                         \
    case FX_DTYPE_UINT8:   LOAD_LOOP (uint8_t, DT, CI); break;                  \
    case FX_DTYPE_INT8:    LOAD_LOOP (int8_t, DT, CI); break;                   \
    case FX_DTYPE_INT16:   LOAD_LOOP (int16_t, DT, CI); break;                  \
    case FX_DTYPE_INT32:   LOAD_LOOP (int32_t, DT, CI); break;                  \
    case FX_DTYPE_INT64:   LOAD_LOOP (int64_t, DT, CI); break;                  \
    case FX_DTYPE_FLOAT16: LOAD_LOOP (uint16_t, DT, CH); break;                 \
    case FX_DTYPE_FLOAT32: LOAD_LOOP (float, DT, CF); break;                    \
    case FX_DTYPE_FLOAT64: LOAD_LOOP (double, DT, CF); break;                   \
    default: break;                                                             \
    }

#define CV_F(x) ((float) (x))
#define CV_D(x) ((double) (x))
#define CV_HF(x) h2f (x)
#define CV_HD(x) ((double) h2f (x))
#define CV_I(x) ((int64_t) (x))
#define CV_FI(x) d2i64 ((double) (x))
#define CV_HI(x) d2i64 ((double) h2f (x))
#define CV_NZ(x) ((uint8_t) ((x) != 0))
#define CV_HNZ(x) ((uint8_t) (((x) & 0x7fffu) != 0))

/* n elements of dtype dt at src (stride in elements) into a contiguous compute buffer */
static void
load_block (Ct ct, FxDType dt, const void *src, int64_t stride, int64_t n, void *dst)
{
  switch (ct)
    {
    case CT_F32: LOAD_ANY (float, CV_F, CV_F, CV_HF); break;
    case CT_F64: LOAD_ANY (double, CV_D, CV_D, CV_HD); break;
    case CT_I64: LOAD_ANY (int64_t, CV_I, CV_FI, CV_HI); break;
    case CT_U8:  LOAD_ANY (uint8_t, CV_NZ, CV_NZ, CV_HNZ); break;
    }
}

/* PyTorch converts inputs to the common dtype before computing; values loaded from a wider
 * type have to pass through it (int32 + 2**40 adds 0, uint8 == -1 compares with 255). */
static gboolean
needs_narrowing (FxDType common, FxDType src)
{
  if (common == src)
    return FALSE;
  switch (common)
    {
    case FX_DTYPE_BOOL:
    case FX_DTYPE_UINT8:
    case FX_DTYPE_INT8:
    case FX_DTYPE_INT16:
    case FX_DTYPE_INT32:
    case FX_DTYPE_FLOAT16:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
narrow_block (Ct ct, FxDType common, void *buf, int64_t n)
{
  if (ct == CT_I64)
    {
      int64_t *b = buf;
      for (int64_t i = 0; i < n; i++)
        switch (common)
          {
          case FX_DTYPE_BOOL:  b[i] = b[i] != 0; break;
          case FX_DTYPE_UINT8: b[i] = (uint8_t) b[i]; break;
          case FX_DTYPE_INT8:  b[i] = (int8_t) b[i]; break;
          case FX_DTYPE_INT16: b[i] = (int16_t) b[i]; break;
          case FX_DTYPE_INT32: b[i] = (int32_t) b[i]; break;
          default: break;
          }
    }
  else if (ct == CT_F32 && common == FX_DTYPE_FLOAT16)
    {
      float *b = buf;
      for (int64_t i = 0; i < n; i++)
        b[i] = h2f (f2h (b[i]));
    }
}

#define STORE_LOOP(ST, DT, CONV)                                            \
  do {                                                                      \
    const ST *s_ = src;                                                     \
    DT *d_ = (DT *) dst;                                                    \
    if (stride == 1)                                                        \
      for (int64_t i_ = 0; i_ < n; i_++)                                    \
        d_[i_] = CONV (s_[i_]);                                             \
    else                                                                    \
      for (int64_t i_ = 0; i_ < n; i_++)                                    \
        d_[i_ * stride] = CONV (s_[i_]);                                    \
  } while (0)

#define S_NZ(x) ((uint8_t) ((x) != 0))
#define S_U8F(x) ((uint8_t) (uint32_t) d2i32 (x))
#define S_I8F(x) ((int8_t) d2i32 (x))
#define S_I16F(x) ((int16_t) d2i32 (x))
#define S_I32F(x) d2i32 (x)
#define S_I64F(x) d2i64 (x)
#define S_HF(x) f2h ((float) (x))
#define S_F(x) ((float) (x))
#define S_D(x) ((double) (x))
#define S_U8I(x) ((uint8_t) (x))
#define S_I8I(x) ((int8_t) (x))
#define S_I16I(x) ((int16_t) (x))
#define S_I32I(x) ((int32_t) (x))
#define S_I64I(x) ((int64_t) (x))

#define STORE_ANY(ST, SU8, SI8, SI16, SI32, SI64)                               \
  switch (dt)                                                                   \
    {                                                                           \
    case FX_DTYPE_BOOL:    STORE_LOOP (ST, uint8_t, S_NZ); break;               \
    case FX_DTYPE_UINT8:   STORE_LOOP (ST, uint8_t, SU8); break;                \
    case FX_DTYPE_INT8:    STORE_LOOP (ST, int8_t, SI8); break;                 \
    case FX_DTYPE_INT16:   STORE_LOOP (ST, int16_t, SI16); break;               \
    case FX_DTYPE_INT32:   STORE_LOOP (ST, int32_t, SI32); break;               \
    case FX_DTYPE_INT64:   STORE_LOOP (ST, int64_t, SI64); break;               \
    case FX_DTYPE_FLOAT16: STORE_LOOP (ST, uint16_t, S_HF); break;              \
    case FX_DTYPE_FLOAT32: STORE_LOOP (ST, float, S_F); break;                  \
    case FX_DTYPE_FLOAT64: STORE_LOOP (ST, double, S_D); break;                 \
    default: break;                                                             \
    }

/* n compute values into dtype dt at dst (stride in elements) */
static void
store_block (Ct ct, const void *src, int64_t n, FxDType dt, void *dst, int64_t stride)
{
  switch (ct)
    {
    case CT_F32: STORE_ANY (float, S_U8F, S_I8F, S_I16F, S_I32F, S_I64F); break;
    case CT_F64: STORE_ANY (double, S_U8F, S_I8F, S_I16F, S_I32F, S_I64F); break;
    case CT_I64: STORE_ANY (int64_t, S_U8I, S_I8I, S_I16I, S_I32I, S_I64I); break;
    case CT_U8:  STORE_ANY (uint8_t, S_U8I, S_I8I, S_I16I, S_I32I, S_I64I); break;
    }
}

/* ------------------------------------------------------------------ the loop engine */

#define MAX_IN 3
#define BLOCK 512

/* Kernel parameters, copied into locals by each kernel (the engine's buffers may alias
 * anything, so reading them through the pointer inside a loop would block vectorisation). */
typedef struct {
  double d[4];
  int64_t i[4];
  int zero_div;     /* set by integer division kernels on a zero divisor */
} Params;

/* n elements: out[i] = f(in[0][i * s[0]], ...), each s[k] being 0 (broadcast) or 1. */
typedef void (*KernelFn) (Params *P, int64_t n, void *out, const void *const *in,
                          const int64_t *s);

typedef struct {
  int nin;
  FxTensor *out;
  FxTensor *in[MAX_IN];
  Ct in_ct[MAX_IN];
  Ct out_ct;
  FxDType common;       /* the dtype inputs are converted to before computing */
  KernelFn fn;
  Params p;
} Loop;

typedef union {
  double d[BLOCK];
  int64_t i[BLOCK];
  float f[BLOCK];
  uint8_t u[BLOCK];
} Buf;

static void
loop_row (Loop *L, char *const *ptr, const int64_t *rs, int64_t n, const gboolean *narrow)
{
  Buf buf[MAX_IN], obuf;
  const void *inp[MAX_IN];
  int64_t s[MAX_IN];
  gboolean direct[MAX_IN], direct_out, all_direct;
  FxDType odt = L->out->dtype;
  gsize oes = fx_dtype_size (odt);
  int64_t step;

  all_direct = direct_out = ct_native (L->out_ct, odt) && rs[0] == 1;
  for (int k = 0; k < L->nin; k++)
    {
      FxDType dt = L->in[k]->dtype;
      direct[k] = ct_native (L->in_ct[k], dt) && !narrow[k] && (rs[k + 1] == 0 || rs[k + 1] == 1);
      all_direct = all_direct && direct[k];
    }
  step = all_direct ? n : BLOCK;
  for (int64_t start = 0; start < n; start += step)
    {
      int64_t len = MIN (step, n - start);
      char *po = ptr[0] + start * rs[0] * (int64_t) oes;
      for (int k = 0; k < L->nin; k++)
        {
          FxDType dt = L->in[k]->dtype;
          const char *p = ptr[k + 1] + start * rs[k + 1] * (int64_t) fx_dtype_size (dt);
          if (direct[k])
            {
              inp[k] = p;
              s[k] = rs[k + 1];
            }
          else
            {
              int64_t cnt = rs[k + 1] == 0 ? 1 : len;
              load_block (L->in_ct[k], dt, p, rs[k + 1], cnt, &buf[k]);
              if (narrow[k])
                narrow_block (L->in_ct[k], L->common, &buf[k], cnt);
              inp[k] = &buf[k];
              s[k] = rs[k + 1] == 0 ? 0 : 1;
            }
        }
      L->fn (&L->p, len, direct_out ? (void *) po : (void *) &obuf, inp, s);
      if (!direct_out)
        store_block (L->out_ct, &obuf, len, odt, po, rs[0]);
    }
}

/* Elementwise work big enough to split between threads (elements): below it, waking a
 * thread costs more than it saves. */
#define PARALLEL_MIN 32768

/* A part of one row: elements [begin, end) of ptr/rs. */
typedef struct {
  Loop *L;
  char *ptr[MAX_IN + 1];
  int64_t rs[MAX_IN + 1];
  gsize es[MAX_IN + 1];
  const gboolean *narrow;
  int zero_div;
} RowJob;

static void
row_job (int64_t begin, int64_t end, gpointer data)
{
  RowJob *j = data;
  Loop l = *j->L;     /* its own Params: kernels write zero_div */
  char *ptr[MAX_IN + 1];
  for (int k = 0; k <= l.nin; k++)
    ptr[k] = j->ptr[k] + begin * j->rs[k] * (int64_t) j->es[k];
  loop_row (&l, ptr, j->rs, end - begin, j->narrow);
  if (l.p.zero_div)
    g_atomic_int_set (&j->zero_div, 1);
}

/* Parts of a row may run in any order unless the output shares memory with an input other
 * than element for element (in-place ops on the same view are fine). */
static gboolean
parallel_safe (const Loop *L)
{
  for (int k = 0; k < L->nin; k++)
    {
      const FxTensor *in = L->in[k];
      if (in->storage != L->out->storage)
        continue;
      if (fx_tensor_data (in) != fx_tensor_data (L->out) || in->ndim != L->out->ndim
          || memcmp (in->strides, L->out->strides, sizeof (int64_t) * in->ndim) != 0
          || memcmp (in->shape, L->out->shape, sizeof (int64_t) * in->ndim) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The whole of loop_run for small work in one kernel call, skipping the dim coalescing: the
 * output is contiguous with at most BLOCK elements, and each input is either contiguous with
 * as many elements (then it lines up with the output element for element, since broadcasting
 * cannot have expanded it) or a single element (broadcast with stride 0). Loads, narrowing
 * and stores are loop_row's, so results are the same. FALSE, doing nothing, otherwise. */
static gboolean
loop_run_small (Loop *L)
{
  FxTensor *out = L->out;
  int64_t n = fx_tensor_numel (out);
  char *ptr[MAX_IN + 1];
  int64_t rs[MAX_IN + 1];
  gboolean narrow[MAX_IN];

  if (n > BLOCK || !fx_tensor_is_contiguous (out))
    return FALSE;
  if (n == 0)
    return TRUE;
  ptr[0] = fx_tensor_data (out);
  rs[0] = 1;
  for (int k = 0; k < L->nin; k++)
    {
      FxTensor *t = L->in[k];
      int64_t tn = fx_tensor_numel (t);
      ptr[k + 1] = fx_tensor_data (t);
      /* an input sharing memory with the output must be that very view */
      if (t->storage == out->storage && (ptr[k + 1] != ptr[0] || tn != n))
        return FALSE;
      if (tn == 1)
        rs[k + 1] = 0;
      else if (tn == n && fx_tensor_is_contiguous (t))
        rs[k + 1] = 1;
      else
        return FALSE;
      narrow[k] = L->in_ct[k] != CT_U8 && needs_narrowing (L->common, t->dtype);
    }
  loop_row (L, ptr, rs, n, narrow);
  return TRUE;
}

/* Runs L over every element of L->out; the inputs broadcast to its shape. */
static void
loop_run_general (Loop *L)
{
  FxTensor *out = L->out;
  int nops = L->nin + 1, nd = out->ndim, m = 0;
  int64_t shape[FX_TENSOR_MAX_DIMS], st[MAX_IN + 1][FX_TENSOR_MAX_DIMS];
  int64_t ist[MAX_IN + 1][FX_TENSOR_MAX_DIMS];
  int64_t idx[FX_TENSOR_MAX_DIMS] = { 0 }, off[MAX_IN + 1] = { 0 }, rs[MAX_IN + 1];
  char *base[MAX_IN + 1], *ptr[MAX_IN + 1];
  gsize es[MAX_IN + 1];
  gboolean narrow[MAX_IN];
  int64_t numel = fx_tensor_numel (out), n, outer;

  if (numel == 0)
    return;
  base[0] = fx_tensor_data (out);
  es[0] = fx_dtype_size (out->dtype);
  for (int d = 0; d < nd; d++)
    ist[0][d] = out->strides[d];
  for (int k = 0; k < L->nin; k++)
    {
      FxTensor *t = L->in[k];
      int lead = nd - t->ndim;
      base[k + 1] = fx_tensor_data (t);
      es[k + 1] = fx_dtype_size (t->dtype);
      for (int d = 0; d < nd; d++)
        ist[k + 1][d] = (d < lead || t->shape[d - lead] == 1) ? 0 : t->strides[d - lead];
      narrow[k] = L->in_ct[k] != CT_U8 && needs_narrowing (L->common, t->dtype);
    }
  /* drop size-1 dims and merge dims that are adjacent in memory for every operand */
  for (int d = 0; d < nd; d++)
    {
      gboolean merge = m > 0;
      if (out->shape[d] == 1)
        continue;
      for (int k = 0; merge && k < nops; k++)
        merge = st[k][m - 1] == ist[k][d] * out->shape[d];
      if (merge)
        {
          shape[m - 1] *= out->shape[d];
          for (int k = 0; k < nops; k++)
            st[k][m - 1] = ist[k][d];
          continue;
        }
      shape[m] = out->shape[d];
      for (int k = 0; k < nops; k++)
        st[k][m] = ist[k][d];
      m++;
    }
  if (m == 0)
    {
      shape[0] = 1;
      for (int k = 0; k < nops; k++)
        st[k][0] = 0;
      m = 1;
    }
  n = shape[m - 1];
  outer = numel / n;
  for (int k = 0; k < nops; k++)
    rs[k] = st[k][m - 1];
  if (outer == 1 && n >= PARALLEL_MIN && parallel_safe (L))
    {
      /* one long row: split it between the threads */
      RowJob j = { L, { 0 }, { 0 }, { 0 }, narrow, 0 };
      for (int k = 0; k < nops; k++)
        {
          j.ptr[k] = base[k];
          j.rs[k] = rs[k];
          j.es[k] = es[k];
        }
      fx_parallel_for (n, PARALLEL_MIN / 2, row_job, &j);
      if (g_atomic_int_get (&j.zero_div))
        L->p.zero_div = 1;
      return;
    }
  for (int64_t o = 0; o < outer; o++)
    {
      for (int k = 0; k < nops; k++)
        ptr[k] = base[k] + off[k] * (int64_t) es[k];
      loop_row (L, ptr, rs, n, narrow);
      for (int d = m - 2; d >= 0; d--)
        {
          idx[d]++;
          for (int k = 0; k < nops; k++)
            off[k] += st[k][d];
          if (idx[d] < shape[d])
            break;
          for (int k = 0; k < nops; k++)
            off[k] -= st[k][d] * shape[d];
          idx[d] = 0;
        }
    }
}

static void
loop_run (Loop *L)
{
  if (!loop_run_small (L))
    loop_run_general (L);
}

/* ------------------------------------------------------------------ memory overlap */

static gboolean
has_internal_overlap (const FxTensor *t)
{
  for (int d = 0; d < t->ndim; d++)
    if (t->strides[d] == 0 && t->shape[d] > 1)
      return TRUE;
  return FALSE;
}

static gboolean
non_overlapping_and_dense (const FxTensor *t)
{
  int order[FX_TENSOR_MAX_DIMS], n = 0;
  int64_t expected = 1;

  for (int d = 0; d < t->ndim; d++)
    if (t->shape[d] != 1)
      order[n++] = d;
  /* insertion sort by stride (ties by size) */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0; j--)
      {
        int a = order[j - 1], b = order[j];
        if (t->strides[a] > t->strides[b]
            || (t->strides[a] == t->strides[b] && t->shape[a] > t->shape[b]))
          {
            order[j - 1] = b;
            order[j] = a;
          }
      }
  for (int i = 0; i < n; i++)
    {
      if (t->strides[order[i]] != expected)
        return FALSE;
      expected *= t->shape[order[i]];
    }
  return TRUE;
}

static void
element_span (const FxTensor *t, int64_t *lo, int64_t *hi)
{
  int64_t es = (int64_t) fx_dtype_size (t->dtype), min = t->offset, max = t->offset;
  for (int d = 0; d < t->ndim; d++)
    {
      int64_t ext = (t->shape[d] - 1) * t->strides[d];
      if (ext < 0)
        min += ext;
      else
        max += ext;
    }
  *lo = min * es;
  *hi = (max + 1) * es;
}

static gboolean
same_layout (const FxTensor *a, const FxTensor *b)
{
  if (a->storage != b->storage || a->offset != b->offset || a->dtype != b->dtype
      || !fx_tensor_same_shape (a, b))
    return FALSE;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] > 1 && a->strides[d] != b->strides[d])
      return FALSE;
  return TRUE;
}

static const char msg_internal_overlap[] =
  "unsupported operation: more than one element of the written-to tensor refers to a single "
  "memory location. Please clone() the tensor before performing the operation.";
static const char msg_partial_overlap[] =
  "unsupported operation: some elements of the input tensor and the written-to tensor refer "
  "to a single memory location. Please clone() the tensor before performing the operation.";

static gboolean
check_output (FxTensor *self, GError **error)
{
  if (has_internal_overlap (self))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, msg_internal_overlap);
      return FALSE;
    }
  return TRUE;
}

/* The tensor to read for input `in` of an op writing into `self` (a new reference): `in`
 * itself, or a snapshot when the two overlap in a way PyTorch does not detect (so that our
 * result is still well defined); NULL with PyTorch's error when it reports the overlap. */
static FxTensor *
inplace_input (FxTensor *self, FxTensor *in, GError **error)
{
  int64_t alo, ahi, blo, bhi;

  if (in == NULL)
    return NULL;
  if (in == self || in->storage != self->storage || fx_tensor_numel (in) == 0
      || fx_tensor_numel (self) == 0 || same_layout (self, in))
    return fx_tensor_ref (in);
  element_span (self, &alo, &ahi);
  element_span (in, &blo, &bhi);
  if (!(alo < bhi && blo < ahi))
    return fx_tensor_ref (in);
  if (non_overlapping_and_dense (self) && non_overlapping_and_dense (in))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, msg_partial_overlap);
      return NULL;
    }
  return fx_tensor_clone (in);
}

/* ------------------------------------------------------------------ shapes */

static gboolean
broadcast_general (int n, FxTensor *const *ts, int *ndim, int64_t *shape, GError **error)
{
  int nd = 0;
  int64_t sh[FX_TENSOR_MAX_DIMS] = { 0 };

  for (int i = 0; i < n; i++)
    {
      if (ts[i] == NULL)
        continue;
      if (!fx_broadcast_shapes (nd, sh, ts[i]->ndim, ts[i]->shape, &nd, sh, error))
        return FALSE;
    }
  *ndim = nd;
  memcpy (shape, sh, sizeof (int64_t) * nd);
  return TRUE;
}

static gboolean
broadcast_all (int n, FxTensor *const *ts, int *ndim, int64_t *shape, GError **error)
{
  const FxTensor *widest = NULL;
  gboolean trivial = TRUE;

  /* the common cases — equal shapes, or 0-d operands (numbers) next to one shape — need no
   * dim-by-dim work */
  for (int i = 0; i < n && trivial; i++)
    {
      const FxTensor *t = ts[i];
      if (t == NULL || t->ndim == 0)
        continue;
      if (widest == NULL)
        widest = t;
      else
        trivial = fx_tensor_same_shape (t, widest);
    }
  if (trivial)
    {
      *ndim = widest ? widest->ndim : 0;
      if (widest)
        memcpy (shape, widest->shape, sizeof (int64_t) * widest->ndim);
      return TRUE;
    }
  return broadcast_general (n, ts, ndim, shape, error);
}

static gboolean
check_inplace_shape (FxTensor *self, int ndim, const int64_t *shape, GError **error)
{
  if (ndim != self->ndim || memcmp (shape, self->shape, sizeof (int64_t) * ndim) != 0)
    {
      GString *s = g_string_new ("output with shape ");
      fx_shape_append (s, self->ndim, self->shape);
      g_string_append (s, " doesn't match the broadcast shape ");
      fx_shape_append (s, ndim, shape);
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  return TRUE;
}

static FxTensor *
new_output (FxDType dtype, int ndim, const int64_t *shape, GError **error)
{
  FxTensor *t = fx_tensor_new_uninit (dtype, ndim, shape);
  if (t == NULL)
    g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
  return t;
}

/* ------------------------------------------------------------------ kernels */

#define KFN(name)                                                               \
  static void name (Params *P, int64_t n, void *out_, const void *const *in_,   \
                    const int64_t *s)

/* parameters as locals of the kernel's type */
#define FPARAMS(T)                                                              \
  G_GNUC_UNUSED const T p0 = (T) P->d[0], p1 = (T) P->d[1], p2 = (T) P->d[2],   \
                        p3 = (T) P->d[3]
#define IPARAMS                                                                 \
  G_GNUC_UNUSED const int64_t q0 = P->i[0], q1 = P->i[1]

#define UNARY_LOOP(T, TO, EXPR)                                                 \
  {                                                                             \
    const T *a_ = in_[0];                                                       \
    TO *o_ = out_;                                                              \
    if (s[0])                                                                   \
      for (int64_t i_ = 0; i_ < n; i_++)                                        \
        {                                                                       \
          const T x = a_[i_];                                                   \
          o_[i_] = (EXPR);                                                      \
          (void) x;                                                             \
        }                                                                       \
    else if (n > 0)                                                             \
      {                                                                         \
        const T x = a_[0];                                                      \
        const TO v_ = (EXPR);                                                   \
        (void) x;                                                               \
        for (int64_t i_ = 0; i_ < n; i_++)                                      \
          o_[i_] = v_;                                                          \
      }                                                                         \
  }

#define BINARY_LOOP(T, TO, EXPR)                                                \
  {                                                                             \
    const T *a_ = in_[0], *b_ = in_[1];                                         \
    TO *o_ = out_;                                                              \
    int64_t i_;                                                                 \
    if (s[0] && s[1])                                                           \
      for (i_ = 0; i_ < n; i_++)                                                \
        {                                                                       \
          const T x = a_[i_], y = b_[i_];                                       \
          o_[i_] = (EXPR);                                                      \
        }                                                                       \
    else if (s[0])                                                              \
      {                                                                         \
        const T y = b_[0];                                                      \
        for (i_ = 0; i_ < n; i_++)                                              \
          {                                                                     \
            const T x = a_[i_];                                                 \
            o_[i_] = (EXPR);                                                    \
          }                                                                     \
      }                                                                         \
    else if (s[1])                                                              \
      {                                                                         \
        const T x = a_[0];                                                      \
        for (i_ = 0; i_ < n; i_++)                                              \
          {                                                                     \
            const T y = b_[i_];                                                 \
            o_[i_] = (EXPR);                                                    \
          }                                                                     \
      }                                                                         \
    else if (n > 0)                                                             \
      {                                                                         \
        const T x = a_[0], y = b_[0];                                           \
        const TO v_ = (EXPR);                                                   \
        for (i_ = 0; i_ < n; i_++)                                              \
          o_[i_] = v_;                                                          \
      }                                                                         \
  }

/* float and double kernels from one expression (tgmath picks expf for float) */
#define UNARY_F(name, EXPR)                                                     \
  KFN (name##_f32) { typedef float T; FPARAMS (T); UNARY_LOOP (T, T, EXPR) }    \
  KFN (name##_f64) { typedef double T; FPARAMS (T); UNARY_LOOP (T, T, EXPR) }
#define UNARY_I(name, EXPR)                                                     \
  KFN (name##_i64) { typedef int64_t T; IPARAMS; UNARY_LOOP (T, T, EXPR) }
#define UNARY_PRED(name, EXPR_F, EXPR_I)                                        \
  KFN (name##_f32) { typedef float T; UNARY_LOOP (T, uint8_t, EXPR_F) }         \
  KFN (name##_f64) { typedef double T; UNARY_LOOP (T, uint8_t, EXPR_F) }        \
  KFN (name##_i64) { typedef int64_t T; UNARY_LOOP (T, uint8_t, EXPR_I) }
#define BINARY_F(name, EXPR)                                                    \
  KFN (name##_f32) { typedef float T; FPARAMS (T); BINARY_LOOP (T, T, EXPR) }   \
  KFN (name##_f64) { typedef double T; FPARAMS (T); BINARY_LOOP (T, T, EXPR) }
#define BINARY_I(name, EXPR)                                                    \
  KFN (name##_i64) { typedef int64_t T; IPARAMS; BINARY_LOOP (T, T, EXPR) }
#define BINARY_PRED(name, EXPR)                                                 \
  KFN (name##_f32) { typedef float T; BINARY_LOOP (T, uint8_t, EXPR) }          \
  KFN (name##_f64) { typedef double T; BINARY_LOOP (T, uint8_t, EXPR) }         \
  KFN (name##_i64) { typedef int64_t T; BINARY_LOOP (T, uint8_t, EXPR) }

/* int64 arithmetic that wraps like PyTorch's instead of overflowing into UB */
#define WADD(a, b) ((int64_t) ((uint64_t) (a) + (uint64_t) (b)))
#define WSUB(a, b) ((int64_t) ((uint64_t) (a) - (uint64_t) (b)))
#define WMUL(a, b) ((int64_t) ((uint64_t) (a) * (uint64_t) (b)))

/* ---- unary ---- */
UNARY_F (neg, -x)
UNARY_I (neg, WSUB (0, x))
UNARY_F (abs, fabs (x))
UNARY_I (abs, x < 0 ? WSUB (0, x) : x)
UNARY_F (exp, exp (x))
UNARY_F (exp2, exp2 (x))
UNARY_F (expm1, expm1 (x))
UNARY_F (log, log (x))
UNARY_F (log2, log2 (x))
UNARY_F (log10, log10 (x))
UNARY_F (log1p, log1p (x))
UNARY_F (sqrt, sqrt (x))
UNARY_F (rsqrt, (T) 1 / sqrt (x))
UNARY_F (reciprocal, (T) 1 / x)
UNARY_F (square, x * x)
UNARY_I (square, WMUL (x, x))
UNARY_F (sin, sin (x))
UNARY_F (cos, cos (x))
UNARY_F (tan, tan (x))
UNARY_F (asin, asin (x))
UNARY_F (acos, acos (x))
UNARY_F (atan, atan (x))
UNARY_F (sinh, sinh (x))
UNARY_F (cosh, cosh (x))
UNARY_F (tanh, tanh (x))
UNARY_F (erf, erf (x))
UNARY_F (sigmoid, (T) 1 / ((T) 1 + exp (-x)))
UNARY_F (relu, x < 0 ? (T) 0 : x)
UNARY_I (relu, x < 0 ? 0 : x)
/* scalar bounds p0 <= x <= p1 (min applied first, as torch does: lo > hi gives hi) */
UNARY_F (clamp, (x < p0 ? p0 : x) > p1 ? p1 : (x < p0 ? p0 : x))
UNARY_I (clamp, (x < q0 ? q0 : x) > q1 ? q1 : (x < q0 ? q0 : x))
UNARY_F (gelu, x * (T) 0.5 * ((T) 1 + erf (x * (T) M_SQRT1_2)))
UNARY_F (gelu_tanh,
         (T) 0.5 * x * ((T) 1 + tanh ((T) (M_SQRT2 * M_2_SQRTPI * 0.5)
                                      * (x + (T) 0.044715 * x * x * x))))
UNARY_F (silu, x / ((T) 1 + exp (-x)))
#define HARD6(T, v) ((T) 6 < ((v) < 0 ? (T) 0 : (v)) ? (T) 6 : ((v) < 0 ? (T) 0 : (v)))
UNARY_F (hardswish, x * HARD6 (T, x + (T) 3) / (T) 6)
UNARY_F (hardsigmoid, HARD6 (T, x + (T) 3) / (T) 6)
UNARY_F (leaky_relu, x > 0 ? x : x * p0)
UNARY_F (elu, x <= 0 ? (exp (x) - (T) 1) * p0 : x)
UNARY_F (softplus, x * p0 > p1 ? x : log1p (exp (x * p0)) / p0)
UNARY_F (floor, floor (x))
UNARY_F (ceil, ceil (x))
UNARY_F (round, nearbyint (x))
UNARY_F (round_pos, nearbyint (x * p0) / p0)
UNARY_F (round_neg, nearbyint (x / p0) * p0)
UNARY_F (trunc, trunc (x))
UNARY_F (frac, x - trunc (x))
UNARY_I (identity, x)
UNARY_F (sign, (T) ((0 < x) - (x < 0)))
UNARY_I (sign, (int64_t) ((0 < x) - (x < 0)))
UNARY_I (bitwise_not, ~x)
UNARY_PRED (logical_not, x == 0, x == 0)
UNARY_PRED (isnan, isnan (x), 0)
UNARY_PRED (isinf, isinf (x), 0)
UNARY_PRED (isfinite, isfinite (x), 1)

/* pow with a scalar exponent (p0 / q0): PyTorch's special cases keep x ** 2 exact and fast */
UNARY_F (pow_2, x * x)
UNARY_F (pow_3, x * x * x)
UNARY_F (pow_half, sqrt (x))
UNARY_F (pow_mhalf, (T) 1 / sqrt (x))
UNARY_F (pow_m1, (T) 1 / x)
UNARY_F (pow_m2, (T) 1 / (x * x))
UNARY_F (pow_s, pow (x, p0))

static inline int64_t
ipow (int64_t base, int64_t exp)
{
  uint64_t r = 1, b = (uint64_t) base;
  if (exp < 0)
    return base == 1 ? 1 : base == -1 ? ((exp & 1) ? -1 : 1) : 0;
  while (exp)
    {
      if (exp & 1)
        r *= b;
      b *= b;
      exp >>= 1;
    }
  return (int64_t) r;
}
UNARY_I (pow_s, ipow (x, q0))

/* ---- binary ---- */
BINARY_F (add, x + y)
BINARY_I (add, WADD (x, y))
BINARY_F (add_alpha, fma (y, p0, x))
BINARY_I (add_alpha, WADD (x, WMUL (q0, y)))
BINARY_F (sub, x - y)
BINARY_I (sub, WSUB (x, y))
BINARY_F (sub_alpha, fma (y, -p0, x))
BINARY_I (sub_alpha, WSUB (x, WMUL (q0, y)))
BINARY_F (mul, x * y)
BINARY_I (mul, WMUL (x, y))
BINARY_F (div, x / y)
BINARY_F (div_trunc, trunc (x / y))
BINARY_F (fmod, fmod (x, y))
BINARY_F (pow, pow (x, y))
BINARY_I (pow, ipow (x, y))
BINARY_F (maximum, (x != x || y != y) ? x + y : (x < y ? y : x))
BINARY_I (maximum, x < y ? y : x)
BINARY_F (minimum, (x != x || y != y) ? x + y : (y < x ? y : x))
BINARY_I (minimum, y < x ? y : x)
BINARY_I (bitwise_and, x & y)
BINARY_I (bitwise_or, x | y)
BINARY_I (bitwise_xor, x ^ y)
BINARY_PRED (eq, x == y)
BINARY_PRED (ne, x != y)
BINARY_PRED (lt, x < y)
BINARY_PRED (le, x <= y)
BINARY_PRED (gt, x > y)
BINARY_PRED (ge, x >= y)
BINARY_PRED (logical_and, (x != 0) && (y != 0))
BINARY_PRED (logical_or, (x != 0) || (y != 0))
BINARY_PRED (logical_xor, (x != 0) != (y != 0))

/* Python's float floor division: exact quotient of the remainder-corrected dividend. */
#define FLOORDIV(T, a, b)                                                       \
  static inline T floordiv_##T (T a, T b)                                       \
  {                                                                             \
    T mod, div, fl;                                                             \
    if (b == 0)                                                                 \
      return a / b;                                                             \
    mod = fmod (a, b);                                                          \
    div = (a - mod) / b;                                                        \
    if (mod != 0 && (b < 0) != (mod < 0))                                       \
      div -= 1;                                                                 \
    if (div != 0)                                                               \
      {                                                                         \
        fl = floor (div);                                                       \
        if (div - fl > (T) 0.5)                                                 \
          fl += 1;                                                              \
        return fl;                                                              \
      }                                                                         \
    return copysign ((T) 0, a / b);                                             \
  }
FLOORDIV (float, a, b)
FLOORDIV (double, a, b)
KFN (div_floor_f32) { typedef float T; BINARY_LOOP (T, T, floordiv_float (x, y)) }
KFN (div_floor_f64) { typedef double T; BINARY_LOOP (T, T, floordiv_double (x, y)) }

/* torch's remainder keeps fmod's -0.0 (Python would give +0.0) */
#define REMAINDER(T)                                                            \
  static inline T remainder_##T (T a, T b)                                      \
  {                                                                             \
    T m = fmod (a, b);                                                          \
    return (m != 0 && ((b < 0) != (m < 0))) ? m + b : m;                        \
  }
REMAINDER (float)
REMAINDER (double)
KFN (remainder_f32) { typedef float T; BINARY_LOOP (T, T, remainder_float (x, y)) }
KFN (remainder_f64) { typedef double T; BINARY_LOOP (T, T, remainder_double (x, y)) }

/* integer division: a zero divisor is PyTorch's "ZeroDivisionError"; INT64_MIN / -1 wraps
 * (PyTorch itself traps there) */
static inline int64_t
idiv_trunc (int64_t a, int64_t b, int *z)
{
  if (b == 0)
    {
      *z = 1;
      return 0;
    }
  return b == -1 ? WSUB (0, a) : a / b;
}

static inline int64_t
idiv_floor (int64_t a, int64_t b, int *z)
{
  int64_t q;
  if (b == 0)
    {
      *z = 1;
      return 0;
    }
  if (b == -1)
    return WSUB (0, a);
  q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

static inline int64_t
imod (int64_t a, int64_t b, int *z, gboolean python)
{
  int64_t r;
  if (b == 0)
    {
      *z = 1;
      return 0;
    }
  if (b == -1)
    return 0;
  r = a % b;
  if (python && r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

KFN (div_trunc_i64) { typedef int64_t T; int z = 0; BINARY_LOOP (T, T, idiv_trunc (x, y, &z)) P->zero_div |= z; }
KFN (div_floor_i64) { typedef int64_t T; int z = 0; BINARY_LOOP (T, T, idiv_floor (x, y, &z)) P->zero_div |= z; }
KFN (remainder_i64) { typedef int64_t T; int z = 0; BINARY_LOOP (T, T, imod (x, y, &z, TRUE)) P->zero_div |= z; }
KFN (fmod_i64) { typedef int64_t T; int z = 0; BINARY_LOOP (T, T, imod (x, y, &z, FALSE)) P->zero_div |= z; }

/* isclose: |a - b| <= atol + |rtol * b| (p0 = rtol, p1 = atol, q0 = equal_nan) */
#define ISCLOSE_F(T)                                                            \
  static inline uint8_t isclose_##T (T a, T b, T rtol, T atol, int64_t eqnan)   \
  {                                                                             \
    T actual;                                                                   \
    if (a == b || (eqnan && a != a && b != b))                                  \
      return 1;                                                                 \
    actual = fabs (a - b);                                                      \
    return isfinite (actual) && actual <= atol + fabs (rtol * b);               \
  }
ISCLOSE_F (float)
ISCLOSE_F (double)
/* integers: PyTorch computes the allowed error in float32 and compares the int64 difference
 * converted to it */
static inline uint8_t
isclose_int64_t (int64_t a, int64_t b, double rtol, double atol)
{
  float allowed, actual;
  int64_t d;
  if (a == b)
    return 1;
  d = WSUB (a, b);
  actual = (float) (d < 0 ? WSUB (0, d) : d);
  allowed = (float) atol + fabs ((float) rtol * (float) b);
  return actual <= allowed;
}
KFN (isclose_f32) { typedef float T; FPARAMS (T); IPARAMS; BINARY_LOOP (T, uint8_t, isclose_float (x, y, p0, p1, q0)) }
KFN (isclose_f64) { typedef double T; FPARAMS (T); IPARAMS; BINARY_LOOP (T, uint8_t, isclose_double (x, y, p0, p1, q0)) }
KFN (isclose_i64) { typedef int64_t T; BINARY_LOOP (T, uint8_t, isclose_int64_t (x, y, P->d[0], P->d[1])) }

/* ---- ternary (operands may each be broadcast: s[k] is 0 or 1) ---- */
#define TERNARY_LOOP(T0, T, TO, EXPR)                                           \
  {                                                                             \
    const T0 *a_ = in_[0];                                                      \
    const T *b_ = in_[1], *c_ = in_[2];                                         \
    TO *o_ = out_;                                                              \
    const int64_t sa = s[0], sb = s[1], sc = s[2];                              \
    for (int64_t i_ = 0; i_ < n; i_++)                                          \
      {                                                                         \
        const T0 x = a_[i_ * sa];                                               \
        const T y = b_[i_ * sb], z = c_[i_ * sc];                               \
        o_[i_] = (EXPR);                                                        \
      }                                                                         \
  }
KFN (where_f32) { TERNARY_LOOP (uint8_t, float, float, x ? y : z) }
KFN (where_f64) { TERNARY_LOOP (uint8_t, double, double, x ? y : z) }
KFN (where_i64) { TERNARY_LOOP (uint8_t, int64_t, int64_t, x ? y : z) }

/* clamp with tensor bounds: min(max(x, lo), hi), NaN anywhere propagating */
static inline float maxp_f (float a, float b) { return (a != a || b != b) ? a + b : (a < b ? b : a); }
static inline float minp_f (float a, float b) { return (a != a || b != b) ? a + b : (b < a ? b : a); }
static inline double maxp_d (double a, double b) { return (a != a || b != b) ? a + b : (a < b ? b : a); }
static inline double minp_d (double a, double b) { return (a != a || b != b) ? a + b : (b < a ? b : a); }
KFN (clamp_t_f32) { TERNARY_LOOP (float, float, float, minp_f (maxp_f (x, y), z)) }
KFN (clamp_t_f64) { TERNARY_LOOP (double, double, double, minp_d (maxp_d (x, y), z)) }
KFN (clamp_t_i64) { TERNARY_LOOP (int64_t, int64_t, int64_t, MIN (MAX (x, y), z)) }
UNARY_F (nan, (T) NAN)


/* ------------------------------------------------------------------ op tables */

#define A(d) (1u << FX_DTYPE_##d)
#define A_BOOL A (BOOL)
#define A_INT (A (UINT8) | A (INT8) | A (INT16) | A (INT32) | A (INT64))
#define A_HALF A (FLOAT16)
#define A_FLOAT (A (FLOAT32) | A (FLOAT64))
#define A_ALL (A_BOOL | A_INT | A_HALF | A_FLOAT)

typedef enum {
  R_SAME,     /* result dtype = common dtype */
  R_FLOAT,    /* integers and bool are promoted to the default float first */
  R_BOOL,     /* computes in the common dtype, returns bool */
} ResultKind;

typedef struct {
  const char *kname;     /* PyTorch's kernel name, for "not implemented for 'Half'" */
  guint allow;           /* common dtypes the kernel handles */
  ResultKind result;
  KernelFn k[3];         /* by compute type: float, double, int64 */
} OpDesc;

#define KF(name) { name##_f32, name##_f64, NULL }
#define KFI(name) { name##_f32, name##_f64, name##_i64 }
#define KI(name) { NULL, NULL, name##_i64 }

static const OpDesc unary_ops[FX_UNARY_N] = {
  [FX_UNARY_NEG]         = { "neg_cpu", A_ALL, R_SAME, KFI (neg) },
  [FX_UNARY_POSITIVE]    = { "positive", A_ALL, R_SAME, { NULL, NULL, NULL } },
  [FX_UNARY_ABS]         = { "abs_cpu", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (abs) },
  [FX_UNARY_EXP]         = { "exp_vml_cpu", A_FLOAT, R_FLOAT, KF (exp) },
  [FX_UNARY_EXP2]        = { "exp2_cpu", A_FLOAT | A_HALF, R_FLOAT, KF (exp2) },
  [FX_UNARY_EXPM1]       = { "expm1_vml_cpu", A_FLOAT, R_FLOAT, KF (expm1) },
  [FX_UNARY_LOG]         = { "log_vml_cpu", A_FLOAT, R_FLOAT, KF (log) },
  [FX_UNARY_LOG2]        = { "log2_vml_cpu", A_FLOAT, R_FLOAT, KF (log2) },
  [FX_UNARY_LOG10]       = { "log10_vml_cpu", A_FLOAT, R_FLOAT, KF (log10) },
  [FX_UNARY_LOG1P]       = { "log1p_vml_cpu", A_FLOAT, R_FLOAT, KF (log1p) },
  [FX_UNARY_SQRT]        = { "sqrt_vml_cpu", A_FLOAT, R_FLOAT, KF (sqrt) },
  [FX_UNARY_RSQRT]       = { "rsqrt_cpu", A_FLOAT, R_FLOAT, KF (rsqrt) },
  [FX_UNARY_RECIPROCAL]  = { "reciprocal_cpu", A_FLOAT | A_HALF, R_FLOAT, KF (reciprocal) },
  [FX_UNARY_SQUARE]      = { "mul_cpu", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (square) },
  [FX_UNARY_SIN]         = { "sin_vml_cpu", A_FLOAT, R_FLOAT, KF (sin) },
  [FX_UNARY_COS]         = { "cos_vml_cpu", A_FLOAT, R_FLOAT, KF (cos) },
  [FX_UNARY_TAN]         = { "tan_vml_cpu", A_FLOAT, R_FLOAT, KF (tan) },
  [FX_UNARY_ASIN]        = { "asin_vml_cpu", A_FLOAT, R_FLOAT, KF (asin) },
  [FX_UNARY_ACOS]        = { "acos_vml_cpu", A_FLOAT, R_FLOAT, KF (acos) },
  [FX_UNARY_ATAN]        = { "atan_vml_cpu", A_FLOAT, R_FLOAT, KF (atan) },
  [FX_UNARY_SINH]        = { "sinh_cpu", A_FLOAT, R_FLOAT, KF (sinh) },
  [FX_UNARY_COSH]        = { "cosh_cpu", A_FLOAT, R_FLOAT, KF (cosh) },
  [FX_UNARY_TANH]        = { "tanh_vml_cpu", A_FLOAT, R_FLOAT, KF (tanh) },
  [FX_UNARY_ERF]         = { "erf_vml_cpu", A_FLOAT, R_FLOAT, KF (erf) },
  [FX_UNARY_SIGMOID]     = { "sigmoid_cpu", A_FLOAT, R_FLOAT, KF (sigmoid) },
  [FX_UNARY_RELU]        = { "clamp_min_cpu", A_INT | A_FLOAT, R_SAME, KFI (relu) },
  [FX_UNARY_RELU6]       = { "clamp_scalar_cpu", A_INT | A_FLOAT, R_SAME, KFI (clamp) },
  [FX_UNARY_GELU]        = { "GeluKernelImpl", A_FLOAT, R_SAME, KF (gelu) },
  [FX_UNARY_SILU]        = { "silu_cpu", A_FLOAT, R_SAME, KF (silu) },
  [FX_UNARY_HARDTANH]    = { "clamp_scalar_cpu", A_INT | A_FLOAT, R_SAME, KFI (clamp) },
  [FX_UNARY_HARDSWISH]   = { "hardswish_cpu", A_FLOAT, R_SAME, KF (hardswish) },
  [FX_UNARY_HARDSIGMOID] = { "hardsigmoid_cpu", A_FLOAT, R_SAME, KF (hardsigmoid) },
  [FX_UNARY_LEAKY_RELU]  = { "leaky_relu_cpu", A_FLOAT, R_SAME, KF (leaky_relu) },
  [FX_UNARY_ELU]         = { "elu_cpu", A_FLOAT, R_SAME, KF (elu) },
  [FX_UNARY_SOFTPLUS]    = { "softplus_cpu", A_FLOAT, R_SAME, KF (softplus) },
  [FX_UNARY_FLOOR]       = { "floor_vml_cpu", A_INT | A_FLOAT, R_SAME, { floor_f32, floor_f64, identity_i64 } },
  [FX_UNARY_CEIL]        = { "ceil_vml_cpu", A_INT | A_FLOAT, R_SAME, { ceil_f32, ceil_f64, identity_i64 } },
  [FX_UNARY_ROUND]       = { "round_vml_cpu", A_INT | A_FLOAT, R_SAME, { round_f32, round_f64, identity_i64 } },
  [FX_UNARY_TRUNC]       = { "trunc_vml_cpu", A_INT | A_FLOAT, R_SAME, { trunc_f32, trunc_f64, identity_i64 } },
  [FX_UNARY_FRAC]        = { "frac_cpu", A_HALF | A_FLOAT, R_SAME, KF (frac) },
  [FX_UNARY_SIGN]        = { "sign_cpu", A_ALL, R_SAME, KFI (sign) },
  [FX_UNARY_LOGICAL_NOT] = { "logical_not_cpu", A_ALL, R_BOOL, KFI (logical_not) },
  [FX_UNARY_BITWISE_NOT] = { "bitwise_not_cpu", A_BOOL | A_INT, R_SAME, KI (bitwise_not) },
  [FX_UNARY_ISNAN]       = { "isnan", A_ALL, R_BOOL, KFI (isnan) },
  [FX_UNARY_ISINF]       = { "isinf", A_ALL, R_BOOL, KFI (isinf) },
  [FX_UNARY_ISFINITE]    = { "isfinite", A_ALL, R_BOOL, KFI (isfinite) },
};

static const OpDesc binary_ops[FX_BINARY_N] = {
  [FX_BINARY_ADD]         = { "add_cpu", A_ALL, R_SAME, KFI (add) },
  [FX_BINARY_SUB]         = { "sub_cpu", A_ALL, R_SAME, KFI (sub) },
  [FX_BINARY_MUL]         = { "mul_cpu", A_ALL, R_SAME, KFI (mul) },
  [FX_BINARY_DIV]         = { "div_true_cpu", A_ALL, R_FLOAT, KF (div) },
  [FX_BINARY_DIV_TRUNC]   = { "div_trunc_cpu", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (div_trunc) },
  [FX_BINARY_DIV_FLOOR]   = { "div_floor_cpu", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (div_floor) },
  [FX_BINARY_REMAINDER]   = { "remainder_cpu", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (remainder) },
  [FX_BINARY_FMOD]        = { "fmod_cpu", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (fmod) },
  [FX_BINARY_POW]         = { "pow", A_INT | A_HALF | A_FLOAT, R_SAME, KFI (pow) },
  [FX_BINARY_MAXIMUM]     = { "maximum_cpu", A_ALL, R_SAME, KFI (maximum) },
  [FX_BINARY_MINIMUM]     = { "minimum_cpu", A_ALL, R_SAME, KFI (minimum) },
  [FX_BINARY_EQ]          = { "eq_cpu", A_ALL, R_BOOL, KFI (eq) },
  [FX_BINARY_NE]          = { "ne_cpu", A_ALL, R_BOOL, KFI (ne) },
  [FX_BINARY_LT]          = { "lt_cpu", A_ALL, R_BOOL, KFI (lt) },
  [FX_BINARY_LE]          = { "le_cpu", A_ALL, R_BOOL, KFI (le) },
  [FX_BINARY_GT]          = { "gt_cpu", A_ALL, R_BOOL, KFI (gt) },
  [FX_BINARY_GE]          = { "ge_cpu", A_ALL, R_BOOL, KFI (ge) },
  [FX_BINARY_LOGICAL_AND] = { "logical_and_cpu", A_ALL, R_BOOL, KFI (logical_and) },
  [FX_BINARY_LOGICAL_OR]  = { "logical_or_cpu", A_ALL, R_BOOL, KFI (logical_or) },
  [FX_BINARY_LOGICAL_XOR] = { "logical_xor_cpu", A_ALL, R_BOOL, KFI (logical_xor) },
  [FX_BINARY_BITWISE_AND] = { "bitwise_and_cpu", A_BOOL | A_INT, R_SAME, KI (bitwise_and) },
  [FX_BINARY_BITWISE_OR]  = { "bitwise_or_cpu", A_BOOL | A_INT, R_SAME, KI (bitwise_or) },
  [FX_BINARY_BITWISE_XOR] = { "bitwise_xor_cpu", A_BOOL | A_INT, R_SAME, KI (bitwise_xor) },
};

static KernelFn
pick (const KernelFn *k, Ct ct)
{
  return ct <= CT_I64 ? k[ct] : NULL;
}

static const char msg_neg_bool[] =
  "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert "
  "a mask, use the `~` or `logical_not()` operator instead.";
static const char msg_sub_bools[] =
  "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
  "`logical_xor()` operator instead.";
static const char msg_sub_bool[] =
  "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
  "invert a mask, use the `~` or `logical_not()` operator instead.";

/* ------------------------------------------------------------------ unary driver */

/* Runs a one-input kernel: out == NULL makes a new tensor of dtype rdt, else writes into out. */
static FxTensor *
run_unary (FxTensor *x, FxTensor *out, FxDType rdt, FxDType cdt, Ct in_ct, Ct out_ct,
           KernelFn fn, const Params *p, GError **error)
{
  Loop L = { 0 };

  if (out == NULL)
    {
      out = new_output (rdt, x->ndim, x->shape, error);
      if (out == NULL)
        return NULL;
    }
  else
    fx_tensor_ref (out);
  L.nin = 1;
  L.out = out;
  L.in[0] = x;
  L.in_ct[0] = in_ct;
  L.out_ct = out_ct;
  L.common = cdt;
  L.fn = fn;
  if (p)
    L.p = *p;
  loop_run (&L);
  return out;
}

static FxTensor *
unary_impl (FxUnaryOp op, FxTensor *x, double p0, double p1, gboolean inplace, GError **error)
{
  const OpDesc *D;
  FxDType rdt, cdt;
  KernelFn fn;
  Params P = { { p0, p1, 0, 0 }, { 0, 0, 0, 0 }, 0 };
  Ct ct, out_ct;

  g_return_val_if_fail (x != NULL, NULL);
  if ((unsigned) op >= FX_UNARY_N)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "unknown unary op %d", op);
      return NULL;
    }
  D = &unary_ops[op];

  /* checks PyTorch makes before it looks at the kernel */
  if (x->dtype == FX_DTYPE_BOOL)
    switch (op)
      {
      case FX_UNARY_NEG:
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, msg_neg_bool);
        return NULL;
      case FX_UNARY_POSITIVE:
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "The `+` operator, on a bool tensor is not supported.");
        return NULL;
      case FX_UNARY_RELU:
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "Boolean inputs not supported for relu");
        return NULL;
      case FX_UNARY_RELU6:
      case FX_UNARY_HARDTANH:
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "Bool inputs not supported for hardtanh");
        return NULL;
      default:
        break;
      }
  if (op == FX_UNARY_RELU6)
    {
      P.d[0] = 0;
      P.d[1] = 6;
    }
  if (op == FX_UNARY_HARDTANH && x->dtype == FX_DTYPE_UINT8 && (p0 < 0 || p1 < 0))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "cannot do hardtanh on an unsigned type with negative limits");
      return NULL;
    }
  if (op == FX_UNARY_POSITIVE)
    return fx_tensor_ref (x);
  if (op == FX_UNARY_SQUARE)
    {
      /* torch.square is pow(x, 2), with its promotion (bool squares to int64) */
      FxTensor *two = fx_tensor_wrap_int64 (2), *r;
      r = fx_tensor_pow_scalar (x, two, inplace, error);
      fx_tensor_unref (two);
      return r;
    }

  if (inplace && !check_output (x, error))
    return NULL;

  switch (D->result)
    {
    case R_FLOAT:
      rdt = cdt = fx_dtype_is_floating (x->dtype) ? x->dtype : FX_DTYPE_DEFAULT_FLOAT;
      break;
    case R_BOOL:
      rdt = FX_DTYPE_BOOL;
      cdt = x->dtype;
      break;
    default:
      rdt = cdt = x->dtype;
      break;
    }
  if (inplace && !fx_dtype_can_cast (rdt, x->dtype))
    {
      error_cast (error, rdt, x->dtype, FALSE);
      return NULL;
    }
  if (op == FX_UNARY_ROUND && p1 != 0 && p0 == 0 && !fx_dtype_is_floating (cdt))
    return error_not_implemented (error, D->kname, cdt), NULL;
  if (op == FX_UNARY_ROUND && p0 != 0)
    {
      /* round(decimals=d) is a separate, float-only kernel */
      int dec = isnan (p0) ? 0 : (int) CLAMP (p0, -400, 400);
      if (!fx_dtype_is_floating (cdt) || cdt == FX_DTYPE_FLOAT16)
        return error_not_implemented (error, "round_cpu", cdt), NULL;
      P.d[0] = pow (10.0, (double) ABS (dec));
      ct = ct_of (cdt);
      fn = dec > 0 ? (ct == CT_F32 ? round_pos_f32 : round_pos_f64)
                   : (ct == CT_F32 ? round_neg_f32 : round_neg_f64);
      return run_unary (x, inplace ? x : NULL, rdt, cdt, ct, ct, fn, &P, error);
    }
  if (!(D->allow & (1u << cdt)))
    return error_not_implemented (error, D->kname, cdt), NULL;

  ct = ct_of (cdt);
  out_ct = D->result == R_BOOL ? CT_U8 : ct;
  fn = pick (D->k, ct);
  if (op == FX_UNARY_GELU && p0 != 0)
    fn = ct == CT_F32 ? gelu_tanh_f32 : gelu_tanh_f64;
  if (op == FX_UNARY_BITWISE_NOT && cdt == FX_DTYPE_BOOL)
    {
      /* ~True is False: on bool this is the logical not */
      out_ct = CT_U8;
      fn = logical_not_i64;
    }
  if (op == FX_UNARY_RELU6 || op == FX_UNARY_HARDTANH)
    {
      if (ct == CT_I64)
        {
          P.i[0] = d2i64 (P.d[0]);
          P.i[1] = d2i64 (P.d[1]);
        }
      else if (isnan (P.d[0]) || isnan (P.d[1]))
        fn = ct == CT_F32 ? nan_f32 : nan_f64;
    }
  if (fn == NULL)
    return error_not_implemented (error, D->kname, cdt), NULL;
  return run_unary (x, inplace ? x : NULL, rdt, cdt, ct, out_ct, fn, &P, error);
}

FxTensor *
fx_tensor_unary (FxUnaryOp op, FxTensor *x, double p0, double p1, GError **error)
{
  return unary_impl (op, x, p0, p1, FALSE, error);
}

FxTensor *
fx_tensor_unary_ (FxUnaryOp op, FxTensor *x, double p0, double p1, GError **error)
{
  return unary_impl (op, x, p0, p1, TRUE, error);
}

/* ------------------------------------------------------------------ n-ary driver */

/* Runs fn over the broadcast of ins (nin of them; none NULL) into a new tensor of dtype rdt
 * (shape nd/shape) or, with self, into self after PyTorch's overlap rules. */
static FxTensor *
run_nary (int nin, FxTensor *const *ins, FxTensor *self, int nd, const int64_t *shape,
          FxDType rdt, FxDType common, const Ct *in_ct, Ct out_ct, KernelFn fn, Params *P,
          GError **error)
{
  Loop L = { 0 };
  FxTensor *out;
  gboolean ok = TRUE;

  L.nin = nin;
  for (int k = 0; k < nin; k++)
    {
      /* the caller holds ins for the whole call: only in-place snapshots need a reference */
      L.in[k] = self ? inplace_input (self, ins[k], error) : ins[k];
      if (L.in[k] == NULL)
        ok = FALSE;
      L.in_ct[k] = in_ct[k];
    }
  out = !ok ? NULL : self ? fx_tensor_ref (self) : new_output (rdt, nd, shape, error);
  if (out)
    {
      L.out = out;
      L.out_ct = out_ct;
      L.common = common;
      L.fn = fn;
      L.p = *P;
      loop_run (&L);
      if (L.p.zero_div)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "ZeroDivisionError");
          g_clear_pointer (&out, fx_tensor_unref);
        }
    }
  for (int k = 0; self && k < nin; k++)
    if (L.in[k])
      fx_tensor_unref (L.in[k]);
  return out;
}

static gboolean
scalar_value (FxTensor *t, double *d, int64_t *i)
{
  if (fx_tensor_numel (t) != 1)
    return FALSE;
  *d = fx_tensor_get_double (t, 0);
  *i = fx_tensor_get_int64 (t, 0);
  return TRUE;
}

/* an integer as the integral dtype d stores it */
static int64_t
wrap_int (FxDType d, int64_t v)
{
  switch (d)
    {
    case FX_DTYPE_BOOL:  return v != 0;
    case FX_DTYPE_UINT8: return (uint8_t) v;
    case FX_DTYPE_INT8:  return (int8_t) v;
    case FX_DTYPE_INT16: return (int16_t) v;
    case FX_DTYPE_INT32: return (int32_t) v;
    default:             return v;
    }
}

/* ------------------------------------------------------------------ binary */

/* A float32 operand the small path can read directly: contiguous, not a wrapped number. */
static gboolean
small_f32 (const FxTensor *t)
{
  return t->dtype == FX_DTYPE_FLOAT32 && !t->wrapped_number && fx_tensor_is_contiguous (t);
}

/* A 0-d operand that promotes to float32 next to a float32 tensor: a wrapped int or float
 * (bool is left to the general path, which has its own errors for it), or a float32 0-d. */
static gboolean
small_scalar (const FxTensor *t)
{
  return t->ndim == 0 && (t->wrapped_number ? t->dtype != FX_DTYPE_BOOL
                                            : t->dtype == FX_DTYPE_FLOAT32);
}

/* The common small case of a binary op: float32 with float32 of the same shape or with a
 * number (or float32 0-d), contiguous, at most BLOCK elements, no alpha. The result dtype is
 * then float32 (bool for comparisons) and the general path would run this very kernel on
 * these very values in one block; this runs it without the broadcasting, promotion and loop
 * set-up, which cost ten times the arithmetic on a tiny tensor. NULL when it does not apply. */
static FxTensor *
binary_small (FxBinaryOp op, FxTensor *a, FxTensor *b, gboolean inplace)
{
  const OpDesc *D = &binary_ops[op];
  KernelFn fn = D->k[CT_F32];
  Params P = { { 0 }, { 0 }, 0 };
  FxTensor *full, *out;
  const void *in[2];
  int64_t s[2], n;
  float scalar;
  int k;

  if (fn == NULL || !(D->allow & A (FLOAT32)))
    return NULL;
  if (small_f32 (a) && small_f32 (b) && fx_tensor_same_shape (a, b))
    {
      full = a;
      k = -1;
    }
  else if (small_f32 (a) && small_scalar (b))
    {
      full = a;
      k = 1;
    }
  else if (!inplace && small_scalar (a) && small_f32 (b))
    {
      full = b;
      k = 0;
    }
  else
    return NULL;
  n = fx_tensor_numel (full);
  if (n > BLOCK)
    return NULL;
  if (inplace)
    {
      /* into a: only ops whose result is float32, reading nothing else in a's memory */
      if (D->result == R_BOOL || (b != a && b->storage == a->storage))
        return NULL;
      out = fx_tensor_ref (a);
    }
  else
    out = fx_tensor_new_uninit (D->result == R_BOOL ? FX_DTYPE_BOOL : FX_DTYPE_FLOAT32,
                                full->ndim, full->shape);
  if (out == NULL || n == 0)
    return out;
  in[0] = fx_tensor_data (a);
  in[1] = fx_tensor_data (b);
  s[0] = s[1] = 1;
  if (k >= 0)
    {
      /* the number converted to the common dtype, as loop_row loads a broadcast input */
      load_block (CT_F32, (k ? b : a)->dtype, in[k], 0, 1, &scalar);
      in[k] = &scalar;
      s[k] = 0;
    }
  fn (&P, n, fx_tensor_data (out), in, s);
  return out;
}

static FxTensor *
binary_impl (FxBinaryOp op, FxTensor *a, FxTensor *b, FxTensor *alpha, gboolean inplace,
             GError **error)
{
  const OpDesc *D;
  FxTensor *ins[2] = { a, b };
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int nd;
  FxDType common, rdt;
  Params P = { { 0 }, { 0 }, 0 };
  KernelFn fn;
  Ct ct, in_ct[2];

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  if ((unsigned) op >= FX_BINARY_N)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "unknown binary op %d", op);
      return NULL;
    }
  /* alpha = 1 (add's default) changes nothing on float32, the small path's only dtype */
  if (alpha == NULL
      || (alpha->dtype != FX_DTYPE_BOOL && fx_tensor_numel (alpha) == 1
          && (float) fx_tensor_get_double (alpha, 0) == 1.0f))
    {
      FxTensor *r = binary_small (op, a, b, inplace);
      if (r != NULL)
        return r;
    }
  D = &binary_ops[op];
  if (op == FX_BINARY_SUB)
    {
      if (a->dtype == FX_DTYPE_BOOL && b->dtype == FX_DTYPE_BOOL)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, msg_sub_bools);
          return NULL;
        }
      if (a->dtype == FX_DTYPE_BOOL || b->dtype == FX_DTYPE_BOOL)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, msg_sub_bool);
          return NULL;
        }
    }
  if (inplace && !check_output (a, error))
    return NULL;
  if (!broadcast_all (2, ins, &nd, shape, error))
    return NULL;
  if (inplace && !check_inplace_shape (a, nd, shape, error))
    return NULL;
  common = fx_tensor_result_type (2, ins);
  if (D->result == R_FLOAT && !fx_dtype_is_floating (common))
    common = FX_DTYPE_DEFAULT_FLOAT;
  rdt = D->result == R_BOOL ? FX_DTYPE_BOOL : common;
  if (inplace && D->result != R_BOOL && !fx_dtype_can_cast (rdt, a->dtype))
    return error_cast (error, rdt, a->dtype, FALSE), NULL;
  ct = ct_of (common);
  fn = pick (D->k, ct);
  if (alpha && (op == FX_BINARY_ADD || op == FX_BINARY_SUB))
    {
      double ad;
      int64_t ai;
      if (alpha->dtype == FX_DTYPE_BOOL && common != FX_DTYPE_BOOL)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "Boolean alpha only supported for Boolean results.");
          return NULL;
        }
      if (fx_dtype_is_floating (alpha->dtype) && !fx_dtype_is_floating (common))
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "For integral input tensors, argument alpha must not be a "
                               "floating point number.");
          return NULL;
        }
      if (!scalar_value (alpha, &ad, &ai))
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                               "alpha must be a number");
          return NULL;
        }
      if (ct == CT_F32)
        ad = (float) ad;   /* PyTorch converts alpha to the tensor type first */
      if (ct == CT_I64 ? ai != 1 : ad != 1)
        {
          P.d[0] = ad;
          P.i[0] = ai;
          fn = op == FX_BINARY_ADD ? pick ((KernelFn[]) KFI (add_alpha), ct)
                                   : pick ((KernelFn[]) KFI (sub_alpha), ct);
        }
    }
  if (!(D->allow & (1u << common)) || fn == NULL)
    return error_not_implemented (error, D->kname, common), NULL;
  in_ct[0] = in_ct[1] = ct;
  return run_nary (2, ins, inplace ? a : NULL, nd, shape, rdt, common, in_ct,
                   D->result == R_BOOL ? CT_U8 : ct, fn, &P, error);
}

FxTensor *
fx_tensor_binary (FxBinaryOp op, FxTensor *a, FxTensor *b, GError **error)
{
  return binary_impl (op, a, b, NULL, FALSE, error);
}

FxTensor *
fx_tensor_binary_ (FxBinaryOp op, FxTensor *self, FxTensor *other, GError **error)
{
  return binary_impl (op, self, other, NULL, TRUE, error);
}

FxTensor *
fx_tensor_add_alpha (FxTensor *a, FxTensor *b, FxTensor *alpha, gboolean subtract,
                     gboolean inplace, GError **error)
{
  return binary_impl (subtract ? FX_BINARY_SUB : FX_BINARY_ADD, a, b, alpha, inplace, error);
}

/* ------------------------------------------------------------------ pow */

FxTensor *
fx_tensor_pow_scalar (FxTensor *x, FxTensor *exponent, gboolean inplace, GError **error)
{
  FxTensor *ins[2] = { x, exponent };
  FxDType common;
  Params P = { { 0 }, { 0 }, 0 };
  KernelFn fn;
  double e;
  int64_t ei;
  Ct ct;

  g_return_val_if_fail (x != NULL && exponent != NULL, NULL);
  if (!exponent->wrapped_number || !scalar_value (exponent, &e, &ei))
    return binary_impl (FX_BINARY_POW, x, exponent, NULL, inplace, error);
  if ((fx_dtype_is_integral (x->dtype) || x->dtype == FX_DTYPE_BOOL)
      && !fx_dtype_is_floating (exponent->dtype) && ei < 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "Integers to negative integer powers are not allowed.");
      return NULL;
    }
  if (inplace && !check_output (x, error))
    return NULL;
  common = fx_tensor_result_type (2, ins);
  if (inplace && common != x->dtype)
    {
      /* pow(Tensor, Scalar) writes only into its own result dtype */
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Found dtype %s but expected %s",
                   fx_dtype_scalar_type_name (x->dtype), fx_dtype_scalar_type_name (common));
      return NULL;
    }
  if (!(binary_ops[FX_BINARY_POW].allow & (1u << common)))
    return error_not_implemented (error, "pow", common), NULL;
  ct = ct_of (common);
  if (ct == CT_I64)
    {
      P.i[0] = ei;
      fn = pow_s_i64;
    }
  else
    {
      gboolean f = ct == CT_F32;
      if (f)
        e = (float) e;
      P.d[0] = e;
      fn = e == 2 ? (f ? pow_2_f32 : pow_2_f64)
         : e == 3 ? (f ? pow_3_f32 : pow_3_f64)
         : e == 0.5 ? (f ? pow_half_f32 : pow_half_f64)
         : e == -0.5 ? (f ? pow_mhalf_f32 : pow_mhalf_f64)
         : e == -1 ? (f ? pow_m1_f32 : pow_m1_f64)
         : e == -2 ? (f ? pow_m2_f32 : pow_m2_f64)
         : (f ? pow_s_f32 : pow_s_f64);
    }
  return run_unary (x, inplace ? x : NULL, common, common, ct, ct, fn, &P, error);
}

/* ------------------------------------------------------------------ clamp */

FxTensor *
fx_tensor_clamp (FxTensor *x, FxTensor *min, FxTensor *max, gboolean inplace, GError **error)
{
  FxTensor *ins[3] = { x, min, max };
  gboolean scalars;
  FxDType common;
  Params P = { { 0 }, { 0 }, 0 };
  Ct ct;

  g_return_val_if_fail (x != NULL, NULL);
  if (min == NULL && max == NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "torch.clamp: At least one of 'min' or 'max' must not be None");
      return NULL;
    }
  scalars = (min == NULL || min->wrapped_number) && (max == NULL || max->wrapped_number);
  if (inplace && !check_output (x, error))
    return NULL;
  common = fx_tensor_result_type (3, ins);
  ct = ct_of (common);
  if (scalars)
    {
      const char *kname = min && max ? "clamp_scalar_cpu" : min ? "clamp_min_cpu"
                                                               : "clamp_max_cpu";
      double lo = -INFINITY, hi = INFINITY;
      int64_t ilo = INT64_MIN, ihi = INT64_MAX, v = 0;
      KernelFn fn;

      if (inplace && !fx_dtype_can_cast (common, x->dtype))
        return error_cast (error, common, x->dtype, TRUE), NULL;
      if (!((A_INT | A_FLOAT) & (1u << common)))
        return error_not_implemented (error, kname, common), NULL;
      if (min)
        scalar_value (min, &lo, &v), ilo = wrap_int (common, v);
      if (max)
        scalar_value (max, &hi, &v), ihi = wrap_int (common, v);
      if (ct == CT_F32)
        lo = (float) lo, hi = (float) hi;
      P.d[0] = lo;
      P.d[1] = hi;
      P.i[0] = ilo;
      P.i[1] = ihi;
      fn = pick ((KernelFn[]) KFI (clamp), ct);
      if (ct != CT_I64 && (isnan (lo) || isnan (hi)))
        fn = ct == CT_F32 ? nan_f32 : nan_f64;
      return run_unary (x, inplace ? x : NULL, common, common, ct, ct, fn, &P, error);
    }
  else
    {
      int64_t shape[FX_TENSOR_MAX_DIMS];
      int nd, nin = 0;
      FxTensor *use[3];
      Ct in_ct[3] = { ct, ct, ct };
      KernelFn fn;

      if (!broadcast_all (3, ins, &nd, shape, error))
        return NULL;
      if (inplace && !check_inplace_shape (x, nd, shape, error))
        return NULL;
      if (inplace && !fx_dtype_can_cast (common, x->dtype))
        return error_cast (error, common, x->dtype, FALSE), NULL;
      if (!((A_INT | A_HALF | A_FLOAT) & (1u << common)))
        return error_not_implemented (error, min && max ? "clamp_cpu" : min ? "clamp_min_cpu"
                                                                      : "clamp_max_cpu", common), NULL;
      use[nin++] = x;
      if (min)
        use[nin++] = min;
      if (max)
        use[nin++] = max;
      if (min && max)
        fn = pick ((KernelFn[]) KFI (clamp_t), ct);
      else if (min)
        fn = pick ((KernelFn[]) KFI (maximum), ct);
      else
        fn = pick ((KernelFn[]) KFI (minimum), ct);
      return run_nary (nin, use, inplace ? x : NULL, nd, shape, common, common, in_ct, ct, fn,
                       &P, error);
    }
}

/* ------------------------------------------------------------------ where */

FxTensor *
fx_tensor_where (FxTensor *cond, FxTensor *a, FxTensor *b, GError **error)
{
  FxTensor *ins[3] = { cond, a, b };
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int nd;
  FxDType common;
  Params P = { { 0 }, { 0 }, 0 };
  Ct ct, in_ct[3];

  g_return_val_if_fail (cond != NULL && a != NULL && b != NULL, NULL);
  if (cond->dtype != FX_DTYPE_BOOL && cond->dtype != FX_DTYPE_UINT8)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "where expected condition to be a boolean tensor, but got a tensor with "
                   "dtype %s", fx_dtype_scalar_type_name (cond->dtype));
      return NULL;
    }
  common = fx_tensor_result_type (2, ins + 1);
  if (!broadcast_all (3, ins, &nd, shape, error))
    return NULL;
  ct = ct_of (common);
  in_ct[0] = CT_U8;
  in_ct[1] = in_ct[2] = ct;
  return run_nary (3, ins, NULL, nd, shape, common, common, in_ct, ct,
                   pick ((KernelFn[]) KFI (where), ct), &P, error);
}

/* ------------------------------------------------------------------ isclose */

FxTensor *
fx_tensor_isclose (FxTensor *a, FxTensor *b, double rtol, double atol, gboolean equal_nan,
                   GError **error)
{
  FxTensor *ins[2] = { a, b };
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int nd;
  Params P = { { rtol, atol, 0, 0 }, { equal_nan ? 1 : 0, 0, 0, 0 }, 0 };
  Ct ct, in_ct[2];

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  if (a->dtype != b->dtype)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "%s did not match %s",
                   fx_dtype_scalar_type_name (a->dtype), fx_dtype_scalar_type_name (b->dtype));
      return NULL;
    }
  if (!(rtol >= 0))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "rtol must be greater than or equal to zero, but got %g", rtol);
      return NULL;
    }
  if (!(atol >= 0))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "atol must be greater than or equal to zero, but got %g", atol);
      return NULL;
    }
  if (!broadcast_all (2, ins, &nd, shape, error))
    return NULL;
  ct = ct_of (a->dtype);
  in_ct[0] = in_ct[1] = ct;
  return run_nary (2, ins, NULL, nd, shape, FX_DTYPE_BOOL, a->dtype, in_ct, CT_U8,
                   pick ((KernelFn[]) KFI (isclose), ct), &P, error);
}

gboolean
fx_tensor_allclose (FxTensor *a, FxTensor *b, double rtol, double atol, gboolean equal_nan,
                    gboolean *result, GError **error)
{
  FxTensor *c = fx_tensor_isclose (a, b, rtol, atol, equal_nan, error);
  const uint8_t *p;
  int64_t n;
  gboolean all = TRUE;

  if (c == NULL)
    return FALSE;
  p = fx_tensor_data (c);
  n = fx_tensor_numel (c);
  for (int64_t i = 0; i < n && all; i++)
    all = p[i] != 0;
  fx_tensor_unref (c);
  *result = all;
  return TRUE;
}

/* ------------------------------------------------------------------ fill */

/* Writes the element at src (es bytes) to every element of t, expanded views included. */
static void
fill_bytes (FxTensor *t, const void *src, gsize es)
{
  int64_t n = fx_tensor_numel (t);
  char *data = fx_tensor_data (t);
  FxStridedIter it;

  if (n == 0)
    return;
  if (fx_tensor_is_contiguous (t))
    {
      switch (es)
        {
        case 1: memset (data, *(const uint8_t *) src, (size_t) n); return;
        case 2: { uint16_t v, *p = (uint16_t *) data; memcpy (&v, src, 2); for (int64_t i = 0; i < n; i++) p[i] = v; return; }
        case 4: { uint32_t v, *p = (uint32_t *) data; memcpy (&v, src, 4); for (int64_t i = 0; i < n; i++) p[i] = v; return; }
        default: { uint64_t v, *p = (uint64_t *) data; memcpy (&v, src, 8); for (int64_t i = 0; i < n; i++) p[i] = v; return; }
        }
    }
  fx_strided_iter_init (&it, t->ndim, t->shape, t->strides);
  while (fx_strided_iter_next (&it))
    memcpy (data + it.offset * (int64_t) es, src, es);
}

gboolean
fx_tensor_fill_ (FxTensor *t, FxTensor *value, GError **error)
{
  FxTensor *v;

  g_return_val_if_fail (t != NULL && value != NULL, FALSE);
  if (value->ndim != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "fill_ only supports 0-dimension value tensor but got tensor with %d "
                   "dimensions.", value->ndim);
      return FALSE;
    }
  v = fx_tensor_to_dtype (value, t->dtype);
  if (v == NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return FALSE;
    }
  fill_bytes (t, fx_tensor_data (v), fx_dtype_size (t->dtype));
  fx_tensor_unref (v);
  return TRUE;
}

void
fx_tensor_fill_double_ (FxTensor *t, double value)
{
  FxTensor *v = fx_tensor_scalar_double (t->dtype, value);
  if (v)
    {
      fill_bytes (t, fx_tensor_data (v), fx_dtype_size (t->dtype));
      fx_tensor_unref (v);
    }
}

void
fx_tensor_zero_ (FxTensor *t)
{
  static const uint64_t zero = 0;
  fill_bytes (t, &zero, fx_dtype_size (t->dtype));
}

/* ------------------------------------------------------------------ shorthands */

FxTensor *fx_tensor_add (FxTensor *a, FxTensor *b, GError **error) { return fx_tensor_binary (FX_BINARY_ADD, a, b, error); }
FxTensor *fx_tensor_sub (FxTensor *a, FxTensor *b, GError **error) { return fx_tensor_binary (FX_BINARY_SUB, a, b, error); }
FxTensor *fx_tensor_mul (FxTensor *a, FxTensor *b, GError **error) { return fx_tensor_binary (FX_BINARY_MUL, a, b, error); }
FxTensor *fx_tensor_div (FxTensor *a, FxTensor *b, GError **error) { return fx_tensor_binary (FX_BINARY_DIV, a, b, error); }
FxTensor *fx_tensor_maximum (FxTensor *a, FxTensor *b, GError **error) { return fx_tensor_binary (FX_BINARY_MAXIMUM, a, b, error); }
FxTensor *fx_tensor_minimum (FxTensor *a, FxTensor *b, GError **error) { return fx_tensor_binary (FX_BINARY_MINIMUM, a, b, error); }

static FxTensor *
binary_with_double (FxBinaryOp op, FxTensor *t, double value, GError **error)
{
  FxTensor *w = fx_tensor_wrap_double (value), *r;
  r = fx_tensor_binary (op, t, w, error);
  fx_tensor_unref (w);
  return r;
}

FxTensor *fx_tensor_add_scalar (FxTensor *t, double value, GError **error) { return binary_with_double (FX_BINARY_ADD, t, value, error); }
FxTensor *fx_tensor_mul_scalar (FxTensor *t, double value, GError **error) { return binary_with_double (FX_BINARY_MUL, t, value, error); }
FxTensor *fx_tensor_neg (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_NEG, x, 0, 0, error); }
FxTensor *fx_tensor_exp (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_EXP, x, 0, 0, error); }
FxTensor *fx_tensor_log (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_LOG, x, 0, 0, error); }
FxTensor *fx_tensor_sqrt (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_SQRT, x, 0, 0, error); }
FxTensor *fx_tensor_rsqrt (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_RSQRT, x, 0, 0, error); }
FxTensor *fx_tensor_tanh (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_TANH, x, 0, 0, error); }
FxTensor *fx_tensor_sigmoid (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_SIGMOID, x, 0, 0, error); }
FxTensor *fx_tensor_relu (FxTensor *x, GError **error) { return fx_tensor_unary (FX_UNARY_RELU, x, 0, 0, error); }
