/* reduce.c: reductions, scans, sort/topk and softmax on strided tensors.
 *
 * Every reduction goes through one plan: the kept dims and the reduced dims are each
 * coalesced into as few strided dims as the layout allows, and the driver then either feeds
 * runs of the innermost reduced dim into one accumulator per output ("row" mode: reducing the
 * last, contiguous dim), or feeds the innermost kept dim into a vector of accumulators
 * ("lanes" mode: column sums, reducing outer dims). Kernels exist for the three compute
 * dtypes int64, float32 and float64 (plus bytes for any/all); other dtypes are converted
 * first, which is exact, and the result is converted back where PyTorch keeps the dtype. */
#include "tensor/reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fx-error.h"

#define MAXD FX_TENSOR_MAX_DIMS
#define NO_DTYPE FX_DTYPE_N

/* GCC at -O2 only vectorises loops of a known trip count, so the kernels below work in
 * fixed-size blocks, and are compiled twice on x86-64 (AVX2 and baseline, picked at load
 * time): AVX2 makes them 3-4x faster. No FMA, so both versions round identically. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__GLIBC__) \
    && defined(__has_attribute)   /* clang refuses target_clones next to `unused` */
#if __has_attribute (target_clones)
#define FX_HOT __attribute__ ((target_clones ("avx2", "default")))
#endif
#endif
#ifndef FX_HOT
#define FX_HOT
#endif

/* Eight floats at a time with GCC/Clang vector extensions (lowered to whatever the target
 * has). Vectors stay local to functions, so no vector crosses a call boundary. */
typedef float v8sf __attribute__ ((vector_size (32)));
typedef int32_t v8si __attribute__ ((vector_size (32)));
#define V8_SPLAT(f) ((v8sf) { f, f, f, f, f, f, f, f })
#define V8I_SPLAT(i) ((v8si) { i, i, i, i, i, i, i, i })
/* mask ? a : b, lane by lane (masks are all-ones or zero) */
#define V8_SELECT(m, a, b) ((v8sf) (((m) & (v8si) (a)) | (~(m) & (v8si) (b))))

/* y[0..8) = exp (x[0..8)) in float, within 1e-7 relative of the exact value (the Cephes
 * polynomial on [-ln2/2, ln2/2] and a two-step power of two, so results that underflow to
 * subnormals or overflow to inf come out right); NaN stays NaN. */
static inline __attribute__ ((always_inline)) void
exp8f (float *y, const float *xp, float shift)
{
  v8sf x, xc, k, r, p, a, b, res;
  v8si nan, n, n1;

  memcpy (&x, xp, sizeof x);
  x = x - shift;
  nan = x != x;
  xc = V8_SELECT (x < V8_SPLAT (-104.0f), V8_SPLAT (-104.0f), x);
  xc = V8_SELECT (xc > V8_SPLAT (89.0f), V8_SPLAT (89.0f), xc);
  xc = V8_SELECT (nan, V8_SPLAT (0.0f), xc);
  /* round to nearest through the 1.5 * 2^23 trick: exact for |v| < 2^22 */
  k = (xc * V8_SPLAT (1.44269504088896341f) + V8_SPLAT (12582912.0f)) - V8_SPLAT (12582912.0f);
  n = __builtin_convertvector (k, v8si);
  r = xc - k * V8_SPLAT (0.693359375f);
  r = r - k * V8_SPLAT (-2.12194440e-4f);
  p = V8_SPLAT (1.9875691500E-4f);
  p = p * r + V8_SPLAT (1.3981999507E-3f);
  p = p * r + V8_SPLAT (8.3334519073E-3f);
  p = p * r + V8_SPLAT (4.1665795894E-2f);
  p = p * r + V8_SPLAT (1.6666665459E-1f);
  p = p * r + V8_SPLAT (5.0000001201E-1f);
  p = p * r * r + r + V8_SPLAT (1.0f);
  n1 = n >> 1;
  a = (v8sf) ((n1 + V8I_SPLAT (127)) << 23);
  b = (v8sf) ((n - n1 + V8I_SPLAT (127)) << 23);
  res = V8_SELECT (nan, x, p * a * b);
  memcpy (y, &res, sizeof res);
}

/* y = exp (x - shift) for n floats (y may be x), returning the sum of y in double. The tail
 * goes through a padded block so every element is computed the same way. */
static double FX_HOT
exp_shift_sum_f32 (float *y, const float *x, float shift, int64_t n)
{
  double a[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  int64_t i = 0;

  for (; i + 8 <= n; i += 8)
    {
      exp8f (y + i, x + i, shift);
      for (int k = 0; k < 8; k++)
        a[k] += y[i + k];
    }
  if (i < n)
    {
      float in[8] = { 0 }, out[8];
      memcpy (in, x + i, (n - i) * sizeof (float));
      exp8f (out, in, shift);
      memcpy (y + i, out, (n - i) * sizeof (float));
      for (int64_t k = 0; k < n - i; k++)
        a[k] += out[k];
    }
  return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

/* ------------------------------------------------------------------ small helpers */

static void
set_not_implemented (GError **error, const char *kernel, FxDType dtype)
{
  /* PyTorch's dispatch macros raise RuntimeError with this text. */
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "\"%s\" not implemented for '%s'", kernel,
               fx_dtype_scalar_type_name (dtype));
}

static gboolean
is_float (FxDType d)
{
  return d == FX_DTYPE_FLOAT16 || d == FX_DTYPE_FLOAT32 || d == FX_DTYPE_FLOAT64;
}

/* The dtype kernels run in: int64 for bool and integers, float32 for float16. */
static FxDType
compute_dtype (FxDType d)
{
  if (d == FX_DTYPE_FLOAT64)
    return FX_DTYPE_FLOAT64;
  if (d == FX_DTYPE_FLOAT32 || d == FX_DTYPE_FLOAT16)
    return FX_DTYPE_FLOAT32;
  return FX_DTYPE_INT64;
}

/* Replaces *t (a reference the caller owns) by its conversion to dtype. */
static void
convert_owned (FxTensor **t, FxDType dtype)
{
  if ((*t)->dtype != dtype)
    {
      FxTensor *c = fx_tensor_to_dtype (*t, dtype);
      fx_tensor_unref (*t);
      *t = c;
    }
}

static gboolean
wrap_dim64 (int64_t dim, int ndim, int *out, GError **error)
{
  int64_t n = ndim > 0 ? ndim : 1;

  if (dim < -n || dim >= n)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")",
                   -n, n - 1, dim);
      return FALSE;
    }
  *out = (int) (dim < 0 ? dim + n : dim);
  return TRUE;
}

/* dims → mask over t's dims; every dim when n_dims == 0. PyTorch wraps all dims before it
 * looks for duplicates, so an out-of-range dim wins over a repeated one. */
static gboolean
dims_to_mask (const int64_t *dims, int n_dims, int ndim, gboolean *mask, GError **error)
{
  gboolean seen[MAXD] = { FALSE };
  int w;

  if (dims == NULL || n_dims <= 0)
    {
      for (int d = 0; d < ndim; d++)
        mask[d] = TRUE;
      return TRUE;
    }
  for (int d = 0; d < ndim; d++)
    mask[d] = FALSE;
  for (int i = 0; i < n_dims; i++)
    if (!wrap_dim64 (dims[i], ndim, &w, error))
      return FALSE;
  for (int i = 0; i < n_dims; i++)
    {
      wrap_dim64 (dims[i], ndim, &w, NULL);
      if (seen[w])
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "dim %d appears multiple times in the list of dims", w);
          return FALSE;
        }
      seen[w] = TRUE;
      if (ndim > 0)
        mask[w] = TRUE;
    }
  return TRUE;
}

static gboolean
mask_single (int64_t dim, int ndim, gboolean *mask, int *wrapped, GError **error)
{
  int w;

  if (!wrap_dim64 (dim, ndim, &w, error))
    return FALSE;
  for (int d = 0; d < ndim; d++)
    mask[d] = d == w;
  if (wrapped)
    *wrapped = w;
  return TRUE;
}

static int64_t
size_or_one (const FxTensor *t, int dim)
{
  return t->ndim == 0 ? 1 : t->shape[dim];
}

/* ------------------------------------------------------------------ the reduction plan */

typedef struct {
  int out_ndim;
  int64_t out_shape[MAXD];
  int64_t n_out, n_red;
  int nk, nr;                          /* kept / reduced dims after coalescing */
  int64_t kshape[MAXD], kstride[MAXD];
  int64_t rshape[MAXD], rstride[MAXD];
} Plan;

/* Appends a dim to a coalesced list; size-1 dims take no part in iteration. */
static void
push_dim (int *n, int64_t *shape, int64_t *stride, int64_t size, int64_t st)
{
  if (size == 1)
    return;
  if (*n > 0 && shape[*n - 1] != 0 && size != 0 && stride[*n - 1] == st * size)
    {
      shape[*n - 1] *= size;
      stride[*n - 1] = st;
      return;
    }
  shape[*n] = size;
  stride[*n] = st;
  (*n)++;
}

static void
plan_init (Plan *pl, const FxTensor *t, const gboolean *mask, gboolean keepdim)
{
  pl->out_ndim = 0;
  pl->n_out = 1;
  pl->n_red = 1;
  pl->nk = pl->nr = 0;
  for (int d = 0; d < t->ndim; d++)
    {
      int64_t size = t->shape[d], st = t->strides[d];
      if (mask[d])
        {
          pl->n_red *= size;
          if (keepdim)
            pl->out_shape[pl->out_ndim++] = 1;
          push_dim (&pl->nr, pl->rshape, pl->rstride, size, st);
        }
      else
        {
          pl->n_out *= size;
          pl->out_shape[pl->out_ndim++] = size;
          push_dim (&pl->nk, pl->kshape, pl->kstride, size, st);
        }
    }
  if (pl->nr == 0)
    {
      pl->rshape[0] = 1;
      pl->rstride[0] = 0;
      pl->nr = 1;
    }
}

/* Steps a row-major multi-index over shape, keeping *off (elements) in step; FALSE after the
 * last position. */
static inline gboolean
odo_next (int n, const int64_t *shape, const int64_t *stride, int64_t *idx, int64_t *off)
{
  for (int d = n - 1; d >= 0; d--)
    {
      if (++idx[d] < shape[d])
        {
          *off += stride[d];
          return TRUE;
        }
      *off -= stride[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ kernels and driver */

typedef struct _RedCtx RedCtx;

typedef struct {
  gsize state_size;
  /* n states of outputs o, o+1, ... */
  void (*init)   (const RedCtx *c, void *st, int64_t n, int64_t o);
  /* feeds p[0], p[stride], ... (n elements, reduction indices idx0, idx0+1, ...) to one state */
  void (*row)    (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,
                  int64_t idx0);
  /* feeds p[j * stride] to state j (j < n), all at reduction index idx */
  void (*lanes)  (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,
                  int64_t idx);
  void (*finish) (const RedCtx *c, void *st, int64_t n, int64_t o);
} RedOp;

typedef enum { NORM_2, NORM_1, NORM_INF, NORM_NEGINF, NORM_0, NORM_P } NormKind;

struct _RedCtx {
  int64_t n_red;
  double param;          /* var: correction; norm: p */
  gboolean flag;         /* sum: divide by n_red (mean); var: take the square root */
  NormKind norm;
  const double *aux;     /* per-output values of an earlier pass (mean, max) */
  void *out;             /* contiguous output in out_dtype */
  FxDType out_dtype;
  int64_t *out_index;    /* max/min: the indices, or NULL */
};

static inline void
store_d (const RedCtx *c, int64_t o, double v)
{
  switch (c->out_dtype)
    {
    case FX_DTYPE_FLOAT32: ((float *) c->out)[o] = (float) v; break;
    case FX_DTYPE_FLOAT64: ((double *) c->out)[o] = v; break;
    default: ((int64_t *) c->out)[o] = (int64_t) v; break;
    }
}

static void
run_reduce (const Plan *pl, const FxTensor *t, const RedOp *op, RedCtx *c)
{
  const char *base = fx_tensor_data (t);
  gsize es = fx_tensor_element_size (t);
  int64_t rlast, klast;

  c->n_red = pl->n_red;
  if (pl->n_out == 0)
    return;

  rlast = pl->rstride[pl->nr - 1] < 0 ? -pl->rstride[pl->nr - 1] : pl->rstride[pl->nr - 1];
  klast = pl->nk > 0 ? pl->kstride[pl->nk - 1] : 0;
  klast = klast < 0 ? -klast : klast;

  /* lanes when the kept dim is the faster one, and also when the reduced runs are so short
   * (softmax-like [N, 2] sums) that one call per output would cost more than the work */
  if (pl->nk > 0 && pl->n_red > 1
      && (klast < rlast || (pl->rshape[pl->nr - 1] < 16 && pl->kshape[pl->nk - 1] >= 16)))
    {
      /* lanes: the innermost kept dim is the fastest; one state per element of it, in
       * chunks so that the states stay in cache (and memory stays bounded) */
      enum { CHUNK = 2048 };
      int64_t L = pl->kshape[pl->nk - 1], ks = pl->kstride[pl->nk - 1];
      int64_t kidx[MAXD] = { 0 }, koff = 0;
      char *states = g_malloc (MIN (L, CHUNK) * op->state_size);

      for (int64_t o0 = 0; o0 < pl->n_out; o0 += L)
        {
          for (int64_t j0 = 0; j0 < L; j0 += CHUNK)
            {
              int64_t len = MIN (CHUNK, L - j0);
              int64_t ridx[MAXD] = { 0 }, roff = 0, r = 0;
              const char *cbase = base + (koff + j0 * ks) * (int64_t) es;
              op->init (c, states, len, o0 + j0);
              do
                op->lanes (c, states, cbase + roff * (int64_t) es, len, ks, r++);
              while (odo_next (pl->nr, pl->rshape, pl->rstride, ridx, &roff));
              op->finish (c, states, len, o0 + j0);
            }
          odo_next (pl->nk - 1, pl->kshape, pl->kstride, kidx, &koff);
        }
      g_free (states);
    }
  else
    {
      /* rows: runs of the innermost reduced dim into one state */
      int64_t kidx[MAXD] = { 0 }, koff = 0;
      int64_t rlen = pl->rshape[pl->nr - 1], rst = pl->rstride[pl->nr - 1];
      guint64 st_buf[8];
      void *st = st_buf;

      g_assert (op->state_size <= sizeof st_buf);
      for (int64_t o = 0; o < pl->n_out; o++)
        {
          op->init (c, st, 1, o);
          if (pl->n_red > 0)
            {
              int64_t ridx[MAXD] = { 0 }, roff = 0, r0 = 0;
              do
                {
                  op->row (c, st, base + (koff + roff) * (int64_t) es, rlen, rst, r0);
                  r0 += rlen;
                }
              while (odo_next (pl->nr - 1, pl->rshape, pl->rstride, ridx, &roff));
            }
          op->finish (c, st, 1, o);
          odo_next (pl->nk, pl->kshape, pl->kstride, kidx, &koff);
        }
    }
}

/* A row/lanes pair from a per-element FEED (state pointer, value, index). */
#define DEF_FEEDERS(NAME, CT, ST, FEED)                                               \
  static void G_GNUC_UNUSED FX_HOT                                                    \
  NAME##_row (const RedCtx *c, void *st_, const char *p, int64_t n, int64_t stride,   \
              int64_t idx0)                                                           \
  {                                                                                   \
    ST *s = st_;                                                                      \
    const CT *x = (const CT *) p;                                                     \
    (void) c; (void) idx0;                                                            \
    if (stride == 1)                                                                  \
      for (int64_t i = 0; i < n; i++) { FEED (s, x[i], idx0 + i); }                   \
    else                                                                              \
      for (int64_t i = 0; i < n; i++) { FEED (s, x[i * stride], idx0 + i); }          \
  }                                                                                   \
  static void G_GNUC_UNUSED FX_HOT                                                    \
  NAME##_lanes (const RedCtx *c, void *st_, const char *p, int64_t n, int64_t stride, \
                int64_t idx)                                                          \
  {                                                                                   \
    ST *s = st_;                                                                      \
    const CT *x = (const CT *) p;                                                     \
    (void) c; (void) idx;                                                             \
    if (stride == 1)                                                                  \
      {                                                                               \
        /* fixed-size blocks: the compiler vectorises those at -O2 */                 \
        int64_t j = 0;                                                                \
        for (; j + 8 <= n; j += 8)                                                    \
          for (int k = 0; k < 8; k++) { FEED ((s + j + k), x[j + k], idx); }          \
        for (; j < n; j++) { FEED ((s + j), x[j], idx); }                             \
      }                                                                               \
    else                                                                              \
      for (int64_t j = 0; j < n; j++) { FEED ((s + j), x[j * stride], idx); }         \
  }

/* ---- sum / mean (double accumulators for floats, wrapping int64 for integers) ---- */

static void
zero_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  (void) c; (void) o;
  memset (st, 0, n * sizeof (double));   /* double and int64 zero alike */
}

static void
sumd_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const double *s = st;
  for (int64_t j = 0; j < n; j++)
    store_d (c, o + j, c->flag ? s[j] / (double) c->n_red : s[j]);
}

/* Eight independent accumulators let the compiler keep the loop in vector registers;
 * double accumulation keeps float32 sums within an ulp of the exact value. */
#define DEF_SUM_ROW(NAME, CT, SKIP_NAN)                                              \
  static void FX_HOT                                                                 \
  NAME (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,         \
        int64_t idx0)                                                                \
  {                                                                                  \
    const CT *x = (const CT *) p;                                                    \
    double a[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };                                        \
    int64_t i = 0;                                                                   \
    (void) c; (void) idx0;                                                           \
    if (stride == 1)                                                                 \
      {                                                                              \
        for (; i + 8 <= n; i += 8)                                                   \
          for (int k = 0; k < 8; k++)                                                \
            {                                                                        \
              double v = x[i + k];                                                   \
              a[k] += (SKIP_NAN && v != v) ? 0.0 : v;                                \
            }                                                                        \
        for (; i < n; i++)                                                           \
          {                                                                          \
            double v = x[i];                                                         \
            a[0] += (SKIP_NAN && v != v) ? 0.0 : v;                                  \
          }                                                                          \
      }                                                                              \
    else                                                                             \
      for (; i < n; i++)                                                             \
        {                                                                            \
          double v = x[i * stride];                                                  \
          a[i & 7] += (SKIP_NAN && v != v) ? 0.0 : v;                                \
        }                                                                            \
    *(double *) st += ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); \
  }

DEF_SUM_ROW (sum_f32_row, float, 0)
DEF_SUM_ROW (sum_f64_row, double, 0)
DEF_SUM_ROW (nansum_f32_row, float, 1)
DEF_SUM_ROW (nansum_f64_row, double, 1)

#define FEED_SUMD(s, v, i) (*(s) += (double) (v))
#define FEED_NANSUMD(s, v, i) do { double v_ = (v); if (v_ == v_) *(s) += v_; } while (0)
#define FEED_SUMI(s, v, i) (*(s) = (int64_t) ((uint64_t) *(s) + (uint64_t) (v)))

/* only the lanes of these are used; the rows above are faster */
DEF_FEEDERS (sumd_f32, float, double, FEED_SUMD)
DEF_FEEDERS (sumd_f64, double, double, FEED_SUMD)
DEF_FEEDERS (nansumd_f32, float, double, FEED_NANSUMD)
DEF_FEEDERS (nansumd_f64, double, double, FEED_NANSUMD)
DEF_FEEDERS (sumi_i64, int64_t, int64_t, FEED_SUMI)

static void
sumi_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  memcpy ((int64_t *) c->out + o, st, n * sizeof (int64_t));
}

static const RedOp op_sum_f32 = { sizeof (double), zero_init, sum_f32_row, sumd_f32_lanes, sumd_finish };
static const RedOp op_sum_f64 = { sizeof (double), zero_init, sum_f64_row, sumd_f64_lanes, sumd_finish };
static const RedOp op_nansum_f32 = { sizeof (double), zero_init, nansum_f32_row, nansumd_f32_lanes, sumd_finish };
static const RedOp op_nansum_f64 = { sizeof (double), zero_init, nansum_f64_row, nansumd_f64_lanes, sumd_finish };
static const RedOp op_sum_i64 = { sizeof (int64_t), zero_init, sumi_i64_row, sumi_i64_lanes, sumi_finish };

/* ---- prod: float32 multiplies in float, as PyTorch does (so it overflows alike) ---- */

#define FEED_MUL(s, v, i) (*(s) *= (v))
#define FEED_MULI(s, v, i) (*(s) = (int64_t) ((uint64_t) *(s) * (uint64_t) (v)))
DEF_FEEDERS (prod_f32, float, float, FEED_MUL)
DEF_FEEDERS (prod_f64, double, double, FEED_MUL)
DEF_FEEDERS (prod_i64, int64_t, int64_t, FEED_MULI)

static void
prodf_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  float *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = 1.0f;
}

static void
prodd_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  double *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = 1.0;
}

static void
prodi_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  int64_t *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = 1;
}

static void
prodf_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  memcpy ((float *) c->out + o, st, n * sizeof (float));
}

static const RedOp op_prod_f32 = { sizeof (float), prodf_init, prod_f32_row, prod_f32_lanes, prodf_finish };
static const RedOp op_prod_f64 = { sizeof (double), prodd_init, prod_f64_row, prod_f64_lanes, sumd_finish };
static const RedOp op_prod_i64 = { sizeof (int64_t), prodi_init, prod_i64_row, prod_i64_lanes, sumi_finish };

/* ---- max / min with the index of the first extremum; a NaN wins and stays ---- */

typedef struct { double v; int64_t i; } ArgD;
typedef struct { int64_t v; int64_t i; } ArgI;

#define FEED_MAXD(s, x, idx)                                                         \
  do { double v_ = (x);                                                              \
       if (v_ > (s)->v || (v_ != v_ && (s)->v == (s)->v)) { (s)->v = v_; (s)->i = (idx); } \
  } while (0)
#define FEED_MIND(s, x, idx)                                                         \
  do { double v_ = (x);                                                              \
       if (v_ < (s)->v || (v_ != v_ && (s)->v == (s)->v)) { (s)->v = v_; (s)->i = (idx); } \
  } while (0)
#define FEED_MAXI(s, x, idx)                                                         \
  do { int64_t v_ = (x); if (v_ > (s)->v) { (s)->v = v_; (s)->i = (idx); } } while (0)
#define FEED_MINI(s, x, idx)                                                         \
  do { int64_t v_ = (x); if (v_ < (s)->v) { (s)->v = v_; (s)->i = (idx); } } while (0)

DEF_FEEDERS (max_f32, float, ArgD, FEED_MAXD)
DEF_FEEDERS (max_f64, double, ArgD, FEED_MAXD)
DEF_FEEDERS (min_f32, float, ArgD, FEED_MIND)
DEF_FEEDERS (min_f64, double, ArgD, FEED_MIND)
DEF_FEEDERS (max_i64, int64_t, ArgI, FEED_MAXI)
DEF_FEEDERS (min_i64, int64_t, ArgI, FEED_MINI)

/* Starting from the identity at index 0 is exact: the element at index 0 either replaces it
 * or equals it, and then index 0 is the first occurrence anyway. */
static void
maxd_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  ArgD *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = (ArgD) { -INFINITY, 0 };
}

static void
mind_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  ArgD *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = (ArgD) { INFINITY, 0 };
}

static void
maxi_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  ArgI *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = (ArgI) { INT64_MIN, 0 };
}

static void
mini_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  ArgI *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = (ArgI) { INT64_MAX, 0 };
}

static void
argd_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const ArgD *s = st;
  for (int64_t j = 0; j < n; j++)
    {
      if (c->out)
        store_d (c, o + j, s[j].v);
      if (c->out_index)
        c->out_index[o + j] = s[j].i;
    }
}

static void
argi_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const ArgI *s = st;
  for (int64_t j = 0; j < n; j++)
    {
      if (c->out)
        {
          if (c->out_dtype == FX_DTYPE_INT64)
            ((int64_t *) c->out)[o + j] = s[j].v;
          else
            store_d (c, o + j, (double) s[j].v);
        }
      if (c->out_index)
        c->out_index[o + j] = s[j].i;
    }
}

static const RedOp op_max_f32 = { sizeof (ArgD), maxd_init, max_f32_row, max_f32_lanes, argd_finish };
static const RedOp op_max_f64 = { sizeof (ArgD), maxd_init, max_f64_row, max_f64_lanes, argd_finish };
static const RedOp op_max_i64 = { sizeof (ArgI), maxi_init, max_i64_row, max_i64_lanes, argi_finish };
static const RedOp op_min_f32 = { sizeof (ArgD), mind_init, min_f32_row, min_f32_lanes, argd_finish };
static const RedOp op_min_f64 = { sizeof (ArgD), mind_init, min_f64_row, min_f64_lanes, argd_finish };
static const RedOp op_min_i64 = { sizeof (ArgI), mini_init, min_i64_row, min_i64_lanes, argi_finish };

/* ---- values-only max/min of float32 (amax, max(input), logsumexp's shift) ---- */

/* The max (or min) of n floats, NaN when any is NaN, the identity when n == 0. */
static float FX_HOT
extremum_f32 (const float *x, int64_t n, gboolean is_max)
{
  v8sf m = is_max ? V8_SPLAT (-INFINITY) : V8_SPLAT (INFINITY);
  v8si nan = V8I_SPLAT (0);
  float r;
  int64_t i = 0;

  if (is_max)
    for (; i + 8 <= n; i += 8)
      {
        v8sf v;
        memcpy (&v, x + i, sizeof v);
        nan |= v != v;
        m = V8_SELECT (v > m, v, m);
      }
  else
    for (; i + 8 <= n; i += 8)
      {
        v8sf v;
        memcpy (&v, x + i, sizeof v);
        nan |= v != v;
        m = V8_SELECT (v < m, v, m);
      }
  r = m[0];
  for (int k = 1; k < 8; k++)
    {
      if (nan[k - 1] || nan[k])
        return NAN;
      if (is_max ? m[k] > r : m[k] < r)
        r = m[k];
    }
  for (; i < n; i++)
    {
      if (x[i] != x[i])
        return NAN;
      if (is_max ? x[i] > r : x[i] < r)
        r = x[i];
    }
  return r;
}

#define FEED_AMAX(s, x, i) do { float v_ = (x); if (v_ > *(s) || v_ != v_) *(s) = v_; } while (0)
#define FEED_AMIN(s, x, i) do { float v_ = (x); if (v_ < *(s) || v_ != v_) *(s) = v_; } while (0)
DEF_FEEDERS (amax_f32, float, float, FEED_AMAX)
DEF_FEEDERS (amin_f32, float, float, FEED_AMIN)

static void
amax_f32_row_fast (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,
                   int64_t idx0)
{
  if (stride != 1)
    {
      amax_f32_row (c, st, p, n, stride, idx0);
      return;
    }
  float r = extremum_f32 ((const float *) p, n, TRUE);
  FEED_AMAX ((float *) st, r, 0);
}

static void
amin_f32_row_fast (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,
                   int64_t idx0)
{
  if (stride != 1)
    {
      amin_f32_row (c, st, p, n, stride, idx0);
      return;
    }
  float r = extremum_f32 ((const float *) p, n, FALSE);
  FEED_AMIN ((float *) st, r, 0);
}

/* column max/min of float32: eight lanes per vector step (NaN wins and stays) */
#define DEF_EXTREMUM_LANES(NAME, SLOW, CMP)                                          \
  static void FX_HOT                                                                 \
  NAME (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,         \
        int64_t idx)                                                                 \
  {                                                                                  \
    float *s = st;                                                                   \
    const float *x = (const float *) p;                                              \
    int64_t j = 0;                                                                   \
    if (stride != 1)                                                                 \
      {                                                                              \
        SLOW (c, st, p, n, stride, idx);                                             \
        return;                                                                      \
      }                                                                              \
    for (; j + 8 <= n; j += 8)                                                       \
      {                                                                              \
        v8sf v, m;                                                                   \
        memcpy (&v, x + j, sizeof v);                                                \
        memcpy (&m, s + j, sizeof m);                                                \
        m = V8_SELECT ((v CMP m) | (v != v), v, m);                                  \
        memcpy (s + j, &m, sizeof m);                                                \
      }                                                                              \
    if (j < n)                                                                       \
      SLOW (c, s + j, (const char *) (x + j), n - j, 1, idx);                        \
  }

DEF_EXTREMUM_LANES (amax_f32_lanes_fast, amax_f32_lanes, >)
DEF_EXTREMUM_LANES (amin_f32_lanes_fast, amin_f32_lanes, <)

static void
amaxf_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  float *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = -INFINITY;
}

static void
aminf_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  float *s = st;
  (void) c; (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = INFINITY;
}

static void
amaxf_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const float *s = st;
  for (int64_t j = 0; j < n; j++)
    store_d (c, o + j, s[j]);
}

static const RedOp op_amax_f32 = { sizeof (float), amaxf_init, amax_f32_row_fast, amax_f32_lanes_fast, amaxf_finish };
static const RedOp op_amin_f32 = { sizeof (float), aminf_init, amin_f32_row_fast, amin_f32_lanes_fast, amaxf_finish };

static const RedOp *
minmax_op (FxDType cdt, gboolean is_max)
{
  switch (cdt)
    {
    case FX_DTYPE_FLOAT32: return is_max ? &op_max_f32 : &op_min_f32;
    case FX_DTYPE_FLOAT64: return is_max ? &op_max_f64 : &op_min_f64;
    default: return is_max ? &op_max_i64 : &op_min_i64;
    }
}

/* ---- any / all over bytes (bool or uint8 input) ---- */

#define FEED_ANY(s, x, i) (*(s) |= ((x) != 0))
#define FEED_ALL(s, x, i) (*(s) &= ((x) != 0))
DEF_FEEDERS (any_u8, uint8_t, uint8_t, FEED_ANY)
DEF_FEEDERS (all_u8, uint8_t, uint8_t, FEED_ALL)

static void
any_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  (void) c; (void) o;
  memset (st, 0, n);
}

static void
all_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  (void) c; (void) o;
  memset (st, 1, n);
}

static void
bytes_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  memcpy ((uint8_t *) c->out + o, st, n);
}

static const RedOp op_any = { 1, any_init, any_u8_row, any_u8_lanes, bytes_finish };
static const RedOp op_all = { 1, all_init, all_u8_row, all_u8_lanes, bytes_finish };

/* ---- second passes: squared deviations from the mean (var), exp-sums (logsumexp) ---- */

typedef struct { double m; double acc; } Dev;

#define FEED_SQDEV(s, x, i) do { double d_ = (double) (x) - (s)->m; (s)->acc += d_ * d_; } while (0)
#define FEED_EXPSUM(s, x, i) ((s)->acc += exp ((double) (x) - (s)->m))
DEF_FEEDERS (sqdev_f32, float, Dev, FEED_SQDEV)
DEF_FEEDERS (sqdev_f64, double, Dev, FEED_SQDEV)
DEF_FEEDERS (expsum_f32, float, Dev, FEED_EXPSUM)
DEF_FEEDERS (expsum_f64, double, Dev, FEED_EXPSUM)

static void
dev_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  Dev *s = st;
  for (int64_t j = 0; j < n; j++)
    s[j] = (Dev) { c->aux[o + j], 0.0 };
}

static void
sqdev_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const Dev *s = st;
  double div = (double) c->n_red - c->param;

  if (div < 0)
    div = 0;
  for (int64_t j = 0; j < n; j++)
    {
      double v = s[j].acc / div;
      store_d (c, o + j, c->flag ? sqrt (v) : v);
    }
}

/* logsumexp shifts by the max, except that an infinite max shifts by 0 (so that all -inf
 * gives -inf and any +inf gives +inf rather than NaN). */
static void
lse_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  Dev *s = st;
  for (int64_t j = 0; j < n; j++)
    {
      double m = c->aux[o + j];
      s[j] = (Dev) { isinf (m) ? 0.0 : m, 0.0 };
    }
}

static void
lse_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const Dev *s = st;
  for (int64_t j = 0; j < n; j++)
    store_d (c, o + j, log (s[j].acc) + s[j].m);
}

static const RedOp op_sqdev_f32 = { sizeof (Dev), dev_init, sqdev_f32_row, sqdev_f32_lanes, sqdev_finish };
static const RedOp op_sqdev_f64 = { sizeof (Dev), dev_init, sqdev_f64_row, sqdev_f64_lanes, sqdev_finish };
/* exp sums of contiguous float32 runs, through the vectorised exponential in chunks */
static void
expsum_f32_row_fast (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,
                     int64_t idx0)
{
  Dev *s = st;
  float buf[256];

  if (stride != 1)
    {
      expsum_f32_row (c, st, p, n, stride, idx0);
      return;
    }
  for (int64_t i = 0; i < n; i += 256)
    s->acc += exp_shift_sum_f32 (buf, (const float *) p + i, (float) s->m, MIN (256, n - i));
}

static const RedOp op_lse_f32 = { sizeof (Dev), lse_init, expsum_f32_row_fast, expsum_f32_lanes, lse_finish };
static const RedOp op_lse_f64 = { sizeof (Dev), lse_init, expsum_f64_row, expsum_f64_lanes, lse_finish };

/* ---- vector norms ---- */

static inline void
norm_feed (const RedCtx *c, double *s, double v)
{
  double a = fabs (v);
  switch (c->norm)
    {
    case NORM_2: *s += a * a; break;
    case NORM_1: *s += a; break;
    case NORM_INF: if (a > *s || a != a) *s = a; break;
    case NORM_NEGINF: if (a < *s || a != a) *s = a; break;
    case NORM_0: *s += a != 0; break;
    case NORM_P: *s += pow (a, c->param); break;
    }
}

/* The NaN test keeps a NaN once it is in (inf/-inf norms). */
#define FEED_NORM(s, x, i) do { if (!(*(s) != *(s) && (c->norm == NORM_INF || c->norm == NORM_NEGINF))) norm_feed (c, (s), (double) (x)); } while (0)
DEF_FEEDERS (norm_f32, float, double, FEED_NORM)
DEF_FEEDERS (norm_f64, double, double, FEED_NORM)

static void
norm_init (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  double *s = st;
  (void) o;
  for (int64_t j = 0; j < n; j++)
    s[j] = c->norm == NORM_NEGINF ? INFINITY : 0.0;
}

static void
norm_finish (const RedCtx *c, void *st, int64_t n, int64_t o)
{
  const double *s = st;
  for (int64_t j = 0; j < n; j++)
    {
      double v = s[j];
      if (c->n_red == 0)
        v = 0.0;
      else if (c->norm == NORM_2)
        v = sqrt (v);
      else if (c->norm == NORM_P)
        v = pow (v, 1.0 / c->param);
      store_d (c, o + j, v);
    }
}

/* The common 2- and 1-norms of contiguous runs, in blocks the compiler vectorises. */
#define DEF_NORM_ROW(NAME, CT, SLOW)                                                 \
  static void FX_HOT                                                                 \
  NAME (const RedCtx *c, void *st, const char *p, int64_t n, int64_t stride,         \
        int64_t idx0)                                                                \
  {                                                                                  \
    const CT *x = (const CT *) p;                                                    \
    double a[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };                                        \
    int64_t i = 0;                                                                   \
    if (stride != 1 || (c->norm != NORM_2 && c->norm != NORM_1))                     \
      {                                                                              \
        SLOW (c, st, p, n, stride, idx0);                                            \
        return;                                                                      \
      }                                                                              \
    if (c->norm == NORM_2)                                                           \
      {                                                                              \
        for (; i + 8 <= n; i += 8)                                                   \
          for (int k = 0; k < 8; k++)                                                \
            a[k] += (double) x[i + k] * (double) x[i + k];                           \
        for (; i < n; i++)                                                           \
          a[0] += (double) x[i] * (double) x[i];                                     \
      }                                                                              \
    else                                                                             \
      {                                                                              \
        for (; i + 8 <= n; i += 8)                                                   \
          for (int k = 0; k < 8; k++)                                                \
            a[k] += fabs ((double) x[i + k]);                                        \
        for (; i < n; i++)                                                           \
          a[0] += fabs ((double) x[i]);                                              \
      }                                                                              \
    *(double *) st += ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); \
  }

DEF_NORM_ROW (norm_f32_row_fast, float, norm_f32_row)
DEF_NORM_ROW (norm_f64_row_fast, double, norm_f64_row)

static const RedOp op_norm_f32 = { sizeof (double), norm_init, norm_f32_row_fast, norm_f32_lanes, norm_finish };
static const RedOp op_norm_f64 = { sizeof (double), norm_init, norm_f64_row_fast, norm_f64_lanes, norm_finish };

/* ------------------------------------------------------------------ running a reduction */

/* Reduces t (already in its compute dtype) with op into a new tensor of out_dtype. */
static FxTensor *
reduce_into (const FxTensor *t, const Plan *pl, const RedOp *op, RedCtx *c, FxDType out_dtype)
{
  FxTensor *out = fx_tensor_new_uninit (out_dtype, pl->out_ndim, pl->out_shape);

  c->out = fx_tensor_data (out);
  c->out_dtype = out_dtype;
  run_reduce (pl, t, op, c);
  return out;
}

/* Per-output float64 values of op over t: the first pass of var and logsumexp. */
static double *
reduce_aux (const FxTensor *t, const Plan *pl, const RedOp *op, gboolean mean)
{
  RedCtx c = { 0 };
  double *aux = g_new (double, pl->n_out > 0 ? pl->n_out : 1);

  c.flag = mean;
  c.out = aux;
  c.out_dtype = FX_DTYPE_FLOAT64;
  run_reduce (pl, t, op, &c);
  return aux;
}

static FxTensor *
cast_take (FxTensor *t, FxDType dtype)
{
  convert_owned (&t, dtype);
  return t;
}

/* ------------------------------------------------------------------ sum, mean, prod */

typedef enum { SUM_PLAIN, SUM_NAN, SUM_MEAN, SUM_PROD } SumKind;

static FxTensor *
sum_like (FxTensor *t, const gboolean *mask, gboolean keepdim, FxDType out_dtype, SumKind kind)
{
  FxTensor *src = fx_tensor_ref (t);
  FxTensor *out;
  FxDType cdt;
  RedCtx c = { 0 };
  Plan pl;
  const RedOp *op;

  /* dtype= converts a floating input before reducing (sum(x, dtype=int64) truncates each
   * element); integers simply accumulate in int64, which wraps like the narrow type would. */
  if (out_dtype != t->dtype && is_float (t->dtype))
    convert_owned (&src, out_dtype);
  cdt = compute_dtype (out_dtype);
  convert_owned (&src, cdt);

  plan_init (&pl, src, mask, keepdim);
  c.flag = kind == SUM_MEAN;
  switch (cdt)
    {
    case FX_DTYPE_FLOAT32:
      op = kind == SUM_PROD ? &op_prod_f32 : kind == SUM_NAN ? &op_nansum_f32 : &op_sum_f32;
      break;
    case FX_DTYPE_FLOAT64:
      op = kind == SUM_PROD ? &op_prod_f64 : kind == SUM_NAN ? &op_nansum_f64 : &op_sum_f64;
      break;
    default:
      op = kind == SUM_PROD ? &op_prod_i64 : &op_sum_i64;
      break;
    }
  out = reduce_into (src, &pl, op, &c, cdt);
  fx_tensor_unref (src);
  return cast_take (out, out_dtype);
}

static FxDType
sum_out_dtype (const FxTensor *t, FxDType dtype)
{
  if (dtype != NO_DTYPE)
    return dtype;
  return is_float (t->dtype) ? t->dtype : FX_DTYPE_INT64;
}

FxTensor *
fx_tensor_sum (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim, FxDType dtype,
               GError **error)
{
  gboolean mask[MAXD];

  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  return sum_like (t, mask, keepdim, sum_out_dtype (t, dtype), SUM_PLAIN);
}

FxTensor *
fx_tensor_nansum (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim, FxDType dtype,
                  GError **error)
{
  gboolean mask[MAXD];

  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  if (is_float (t->dtype) && dtype != NO_DTYPE && !is_float (dtype) && fx_tensor_numel (t) > 0)
    {
      set_not_implemented (error, "nansum_cpu", dtype);
      return NULL;
    }
  return sum_like (t, mask, keepdim, sum_out_dtype (t, dtype), SUM_NAN);
}

FxTensor *
fx_tensor_mean (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim, FxDType dtype,
                GError **error)
{
  gboolean mask[MAXD];
  FxDType out_dtype = dtype != NO_DTYPE ? dtype : t->dtype;

  if (!is_float (out_dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "mean(): could not infer output dtype. %s dtype must be either a floating "
                   "point or complex dtype. Got: %s",
                   dtype != NO_DTYPE ? "Optional" : "Input",
                   fx_dtype_scalar_type_name (out_dtype));
      return NULL;
    }
  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  /* mean(int tensor, dtype=float) converts first, as PyTorch does */
  if (t->dtype != out_dtype)
    {
      FxTensor *c = fx_tensor_to_dtype (t, out_dtype);
      FxTensor *r = sum_like (c, mask, keepdim, out_dtype, SUM_MEAN);
      fx_tensor_unref (c);
      return r;
    }
  return sum_like (t, mask, keepdim, out_dtype, SUM_MEAN);
}

FxTensor *
fx_tensor_prod (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, FxDType dtype,
                GError **error)
{
  gboolean mask[MAXD];
  FxDType out_dtype = sum_out_dtype (t, dtype);

  if (has_dim)
    {
      if (!mask_single (dim, t->ndim, mask, NULL, error))
        return NULL;
    }
  else
    dims_to_mask (NULL, 0, t->ndim, mask, NULL);
  if (out_dtype == FX_DTYPE_FLOAT16 && fx_tensor_numel (t) > 0)
    {
      set_not_implemented (error, "prod_cpu", out_dtype);
      return NULL;
    }
  return sum_like (t, mask, keepdim, out_dtype, SUM_PROD);
}

/* ------------------------------------------------------------------ max, min, arg* */

/* values (in t's dtype, when want_values) and indices (when want_indices) of the max or min
 * over mask. */
static void
minmax_run (FxTensor *t, const gboolean *mask, gboolean keepdim, gboolean is_max,
            FxTensor **values, FxTensor **indices)
{
  FxDType cdt = compute_dtype (t->dtype);
  FxTensor *src = fx_tensor_ref (t);
  RedCtx c = { 0 };
  Plan pl;
  FxTensor *vals = NULL, *idx = NULL;

  convert_owned (&src, cdt);
  plan_init (&pl, src, mask, keepdim);
  if (values)
    {
      vals = fx_tensor_new_uninit (cdt, pl.out_ndim, pl.out_shape);
      c.out = fx_tensor_data (vals);
      c.out_dtype = cdt;
    }
  if (indices)
    {
      idx = fx_tensor_new_uninit (FX_DTYPE_INT64, pl.out_ndim, pl.out_shape);
      c.out_index = fx_tensor_data (idx);
    }
  if (indices == NULL && cdt == FX_DTYPE_FLOAT32)
    run_reduce (&pl, src, is_max ? &op_amax_f32 : &op_amin_f32, &c);
  else
    run_reduce (&pl, src, minmax_op (cdt, is_max), &c);
  fx_tensor_unref (src);
  if (values)
    *values = cast_take (vals, t->dtype);
  if (indices)
    *indices = idx;
}

static gboolean
check_nonempty_all (const FxTensor *t, const char *name, GError **error)
{
  if (fx_tensor_numel (t) == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                   "Specify the reduction dim with the 'dim' argument.", name);
      return FALSE;
    }
  return TRUE;
}

/* An empty input may still be reduced along a dim of non-zero size. */
static gboolean
check_nonempty_dim (const FxTensor *t, int wrapped, int64_t shown, const char *prefix,
                    GError **error)
{
  if (fx_tensor_numel (t) == 0 && size_or_one (t, wrapped) == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "%s Expected reduction dim %" G_GINT64_FORMAT " to have non-zero size.",
                   prefix, shown);
      return FALSE;
    }
  return TRUE;
}

static FxTensor *
minmax_all (FxTensor *t, gboolean is_max, GError **error)
{
  gboolean mask[MAXD];
  FxTensor *v;

  if (!check_nonempty_all (t, is_max ? "max" : "min", error))
    return NULL;
  dims_to_mask (NULL, 0, t->ndim, mask, NULL);
  minmax_run (t, mask, FALSE, is_max, &v, NULL);
  return v;
}

FxTensor *
fx_tensor_max_all (FxTensor *t, GError **error)
{
  return minmax_all (t, TRUE, error);
}

FxTensor *
fx_tensor_min_all (FxTensor *t, GError **error)
{
  return minmax_all (t, FALSE, error);
}

static gboolean
minmax_dim (FxTensor *t, int64_t dim, gboolean keepdim, gboolean is_max, FxTensor **values,
            FxTensor **indices, GError **error)
{
  gboolean mask[MAXD];
  int w;

  if (!mask_single (dim, t->ndim, mask, &w, error))
    return FALSE;
  if (!check_nonempty_dim (t, w, w, is_max ? "max():" : "min():", error))
    return FALSE;
  minmax_run (t, mask, keepdim, is_max, values, indices);
  return TRUE;
}

gboolean
fx_tensor_max_dim (FxTensor *t, int64_t dim, gboolean keepdim, FxTensor **values,
                   FxTensor **indices, GError **error)
{
  return minmax_dim (t, dim, keepdim, TRUE, values, indices, error);
}

gboolean
fx_tensor_min_dim (FxTensor *t, int64_t dim, gboolean keepdim, FxTensor **values,
                   FxTensor **indices, GError **error)
{
  return minmax_dim (t, dim, keepdim, FALSE, values, indices, error);
}

static FxTensor *
amax_like (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim, gboolean is_max,
           GError **error)
{
  gboolean mask[MAXD];
  const char *name = is_max ? "amax" : "amin";
  FxTensor *v;

  /* PyTorch checks ranges, then empty dims, then duplicates */
  for (int i = 0; dims != NULL && i < n_dims; i++)
    {
      int w;
      if (!wrap_dim64 (dims[i], t->ndim, &w, error))
        return NULL;
    }
  if (fx_tensor_numel (t) == 0)
    {
      if (dims == NULL || n_dims <= 0)
        {
          check_nonempty_all (t, name, error);
          return NULL;
        }
      for (int i = 0; i < n_dims; i++)
        {
          int w;
          char prefix[16];
          if (!wrap_dim64 (dims[i], t->ndim, &w, NULL))
            break;   /* dims_to_mask below reports the bad dim */
          g_snprintf (prefix, sizeof prefix, "%s():", name);
          /* amax names the dim as it was given */
          if (!check_nonempty_dim (t, w, dims[i], prefix, error))
            return NULL;
        }
    }
  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  minmax_run (t, mask, keepdim, is_max, &v, NULL);
  return v;
}

FxTensor *
fx_tensor_amax (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim, GError **error)
{
  return amax_like (t, dims, n_dims, keepdim, TRUE, error);
}

FxTensor *
fx_tensor_amin (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim, GError **error)
{
  return amax_like (t, dims, n_dims, keepdim, FALSE, error);
}

static FxTensor *
argmax_like (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, gboolean is_max,
             GError **error)
{
  gboolean mask[MAXD];
  const char *name = is_max ? "argmax" : "argmin";
  FxTensor *idx;
  int w = 0;

  if (has_dim)
    {
      char prefix[16];
      if (!mask_single (dim, t->ndim, mask, &w, error))
        return NULL;
      g_snprintf (prefix, sizeof prefix, "%s():", name);
      if (!check_nonempty_dim (t, w, w, prefix, error))
        return NULL;
    }
  else
    {
      if (fx_tensor_numel (t) == 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "%s(): Expected reduction dim to be specified for input.numel() == 0.",
                       name);
          return NULL;
        }
      dims_to_mask (NULL, 0, t->ndim, mask, NULL);
    }
  /* PyTorch answers a reduction over one element (or none) along a dim without looking at
   * the dtype */
  if (t->dtype == FX_DTYPE_BOOL
      && !(has_dim && t->ndim > 0 && (fx_tensor_numel (t) == 0 || t->shape[w] == 1)))
    {
      set_not_implemented (error, is_max ? "argmax_cpu" : "argmin_cpu", t->dtype);
      return NULL;
    }
  minmax_run (t, mask, keepdim, is_max, NULL, &idx);
  return idx;
}

FxTensor *
fx_tensor_argmax (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, GError **error)
{
  return argmax_like (t, has_dim, dim, keepdim, TRUE, error);
}

FxTensor *
fx_tensor_argmin (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, GError **error)
{
  return argmax_like (t, has_dim, dim, keepdim, FALSE, error);
}

gboolean
fx_tensor_aminmax (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim,
                   FxTensor **min, FxTensor **max, GError **error)
{
  gboolean mask[MAXD];
  int w;

  if (has_dim)
    {
      if (!mask_single (dim, t->ndim, mask, &w, error))
        return FALSE;
      if (!check_nonempty_dim (t, w, w, "aminmax:", error))
        return FALSE;
    }
  else
    {
      if (fx_tensor_numel (t) == 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "aminmax(): cannot compute aminmax over an empty dimension as the "
                       "operation has no identity.");
          return FALSE;
        }
      dims_to_mask (NULL, 0, t->ndim, mask, NULL);
    }
  if (t->dtype == FX_DTYPE_FLOAT16)
    {
      set_not_implemented (error, "aminmax_cpu", t->dtype);
      return FALSE;
    }
  minmax_run (t, mask, keepdim, FALSE, min, NULL);
  minmax_run (t, mask, keepdim, TRUE, max, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ var, std */

gboolean
fx_tensor_var_mean (FxTensor *t, const int64_t *dims, int n_dims, double correction,
                    gboolean keepdim, gboolean take_sqrt, FxTensor **first, FxTensor **second,
                    GError **error)
{
  gboolean mask[MAXD];
  FxTensor *src;
  FxDType cdt;
  RedCtx c = { 0 };
  Plan pl;
  double *mean;
  FxTensor *v;

  if (!is_float (t->dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   second ? "var_mean only support floating point and complex dtypes"
                          : "std and var only support floating point and complex dtypes");
      return FALSE;
    }
  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return FALSE;
  cdt = compute_dtype (t->dtype);
  src = fx_tensor_ref (t);
  convert_owned (&src, cdt);
  plan_init (&pl, src, mask, keepdim);

  /* two passes in double: the exact-ish mean, then the squared deviations from it */
  mean = reduce_aux (src, &pl, cdt == FX_DTYPE_FLOAT32 ? &op_sum_f32 : &op_sum_f64, TRUE);
  c.aux = mean;
  c.param = correction;
  c.flag = take_sqrt;
  v = reduce_into (src, &pl, cdt == FX_DTYPE_FLOAT32 ? &op_sqdev_f32 : &op_sqdev_f64, &c, cdt);
  *first = cast_take (v, t->dtype);
  if (second)
    {
      FxTensor *m = fx_tensor_new_uninit (cdt, pl.out_ndim, pl.out_shape);
      for (int64_t o = 0; o < pl.n_out; o++)
        {
          if (cdt == FX_DTYPE_FLOAT32)
            ((float *) fx_tensor_data (m))[o] = (float) mean[o];
          else
            ((double *) fx_tensor_data (m))[o] = mean[o];
        }
      *second = cast_take (m, t->dtype);
    }
  g_free (mean);
  fx_tensor_unref (src);
  return TRUE;
}

FxTensor *
fx_tensor_var (FxTensor *t, const int64_t *dims, int n_dims, double correction,
               gboolean keepdim, GError **error)
{
  FxTensor *r = NULL;
  fx_tensor_var_mean (t, dims, n_dims, correction, keepdim, FALSE, &r, NULL, error);
  return r;
}

FxTensor *
fx_tensor_std (FxTensor *t, const int64_t *dims, int n_dims, double correction,
               gboolean keepdim, GError **error)
{
  FxTensor *r = NULL;
  fx_tensor_var_mean (t, dims, n_dims, correction, keepdim, TRUE, &r, NULL, error);
  return r;
}

/* ------------------------------------------------------------------ norms */

static FxTensor *
norm_masked (FxTensor *t, double p, const gboolean *mask, gboolean keepdim)
{
  FxDType cdt = compute_dtype (t->dtype);
  FxTensor *src = fx_tensor_ref (t);
  FxTensor *out;
  RedCtx c = { 0 };
  Plan pl;

  convert_owned (&src, cdt);
  plan_init (&pl, src, mask, keepdim);
  c.param = p;
  if (p == 2.0)
    c.norm = NORM_2;
  else if (p == 1.0)
    c.norm = NORM_1;
  else if (p == INFINITY)
    c.norm = NORM_INF;
  else if (p == -INFINITY)
    c.norm = NORM_NEGINF;
  else if (p == 0.0)
    c.norm = NORM_0;
  else
    c.norm = NORM_P;
  out = reduce_into (src, &pl, cdt == FX_DTYPE_FLOAT32 ? &op_norm_f32 : &op_norm_f64, &c, cdt);
  fx_tensor_unref (src);
  return cast_take (out, t->dtype);
}

FxTensor *
fx_tensor_norm (FxTensor *t, double p, const int64_t *dims, int n_dims, gboolean keepdim,
                FxDType dtype, GError **error)
{
  gboolean mask[MAXD];
  FxTensor *src, *r;

  if (dtype != NO_DTYPE && !is_float (dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "norm(): the desired output dtype should be either floating point or "
                   "complex. Got %s instead.", fx_dtype_scalar_type_name (dtype));
      return NULL;
    }
  if (dtype == NO_DTYPE && !is_float (t->dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "norm(): input dtype should be either floating point or complex. "
                   "Got %s instead.", fx_dtype_scalar_type_name (t->dtype));
      return NULL;
    }
  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  src = fx_tensor_ref (t);
  if (dtype != NO_DTYPE)
    convert_owned (&src, dtype);
  r = norm_masked (src, p, mask, keepdim);
  fx_tensor_unref (src);
  return r;
}

FxTensor *
fx_tensor_frobenius_norm (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                          GError **error)
{
  if (n_dims > 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Expected at most 2 dimensions, but got %d dimensions instead.", n_dims);
      return NULL;
    }
  if (dims != NULL && n_dims == 2)
    {
      int a, b;
      if (!wrap_dim64 (dims[0], t->ndim, &a, error) || !wrap_dim64 (dims[1], t->ndim, &b, error))
        return NULL;
      if (a == b)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Expected dims to be different, got [%" G_GINT64_FORMAT ", %"
                       G_GINT64_FORMAT "] instead", dims[0], dims[1]);
          return NULL;
        }
      /* over two dims PyTorch computes sqrt(sum(x * x)) itself, and has no half sqrt */
      if (t->dtype == FX_DTYPE_FLOAT16)
        {
          set_not_implemented (error, "sqrt_vml_cpu", t->dtype);
          return NULL;
        }
    }
  return fx_tensor_norm (t, 2.0, dims, n_dims, keepdim, NO_DTYPE, error);
}

/* ------------------------------------------------------------------ any, all, count */

static FxTensor *
any_all (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, gboolean is_any,
         GError **error)
{
  gboolean mask[MAXD];
  FxDType out_dtype = t->dtype == FX_DTYPE_UINT8 ? FX_DTYPE_UINT8 : FX_DTYPE_BOOL;
  FxTensor *src, *out;
  RedCtx c = { 0 };
  Plan pl;

  if (has_dim)
    {
      if (!mask_single (dim, t->ndim, mask, NULL, error))
        return NULL;
    }
  else
    dims_to_mask (NULL, 0, t->ndim, mask, NULL);
  src = fx_tensor_ref (t);
  if (t->dtype != FX_DTYPE_UINT8)
    convert_owned (&src, FX_DTYPE_BOOL);
  plan_init (&pl, src, mask, keepdim);
  out = reduce_into (src, &pl, is_any ? &op_any : &op_all, &c, out_dtype);
  fx_tensor_unref (src);
  return out;
}

FxTensor *
fx_tensor_any (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, GError **error)
{
  return any_all (t, has_dim, dim, keepdim, TRUE, error);
}

FxTensor *
fx_tensor_all (FxTensor *t, gboolean has_dim, int64_t dim, gboolean keepdim, GError **error)
{
  return any_all (t, has_dim, dim, keepdim, FALSE, error);
}

FxTensor *
fx_tensor_count_nonzero (FxTensor *t, const int64_t *dims, int n_dims, GError **error)
{
  gboolean mask[MAXD];
  FxTensor *b, *r;

  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  b = fx_tensor_to_dtype (t, FX_DTYPE_BOOL);
  r = sum_like (b, mask, FALSE, FX_DTYPE_INT64, SUM_PLAIN);
  fx_tensor_unref (b);
  return r;
}

/* ------------------------------------------------------------------ logsumexp */

static void
format_ones_shape (GString *s, int n)
{
  g_string_append_c (s, '[');
  for (int i = 0; i < n; i++)
    g_string_append (s, i ? ", 1" : "1");
  g_string_append_c (s, ']');
}

FxTensor *
fx_tensor_logsumexp (FxTensor *t, const int64_t *dims, int n_dims, gboolean keepdim,
                     GError **error)
{
  gboolean mask[MAXD];
  FxTensor *src, *out;
  FxDType cdt;
  RedCtx c = { 0 };
  Plan pl;
  double *maxes;

  if (!dims_to_mask (dims, n_dims, t->ndim, mask, error))
    return NULL;
  if (t->dtype == FX_DTYPE_FLOAT16)
    {
      set_not_implemented (error, "exp_vml_cpu", t->dtype);
      return NULL;
    }
  if ((dims == NULL || n_dims == 0) && t->ndim > 0 && !keepdim)
    {
      /* PyTorch 1.13 reads dim=() as "all dims" in one of its steps and as "no dims" in
       * another, and fails writing the result. */
      GString *s = g_string_new (NULL);
      format_ones_shape (s, t->ndim);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "output with shape [] doesn't match the broadcast shape %s", s->str);
      g_string_free (s, TRUE);
      return NULL;
    }
  src = fx_tensor_ref (t);
  if (!is_float (t->dtype))
    convert_owned (&src, FX_DTYPE_DEFAULT_FLOAT);
  cdt = src->dtype;
  plan_init (&pl, src, mask, keepdim);
  if (pl.n_red == 0)
    {
      out = fx_tensor_full (cdt, pl.out_ndim, pl.out_shape, -INFINITY);
      fx_tensor_unref (src);
      return out;
    }
  maxes = reduce_aux (src, &pl, cdt == FX_DTYPE_FLOAT32 ? &op_amax_f32 : minmax_op (cdt, TRUE),
                      FALSE);
  c.aux = maxes;
  out = reduce_into (src, &pl, cdt == FX_DTYPE_FLOAT32 ? &op_lse_f32 : &op_lse_f64, &c, cdt);
  g_free (maxes);
  fx_tensor_unref (src);
  return out;
}

/* ------------------------------------------------------------------ slices along one dim */

/* Visits every position of the dims other than `dim`, keeping an element offset for each of
 * up to three tensors of the same shape except along dim. */
typedef struct {
  int n;
  int64_t shape[MAXD];
  int64_t idx[MAXD];
  int ntens;
  int64_t strides[3][MAXD];
  int64_t off[3];
  int64_t remaining;
} SliceIter;

static void
slice_iter_init (SliceIter *it, const FxTensor *ref, int dim, int ntens,
                 const FxTensor *const *tens)
{
  int64_t total = 1;

  memset (it, 0, sizeof *it);
  it->n = ref->ndim;
  it->ntens = ntens;
  for (int d = 0; d < ref->ndim; d++)
    {
      it->shape[d] = d == dim ? 1 : ref->shape[d];
      total *= it->shape[d];
      for (int k = 0; k < ntens; k++)
        it->strides[k][d] = tens[k]->strides[d];
    }
  it->remaining = total;
}

/* TRUE while there is a slice; its offsets are in it->off. */
static gboolean
slice_iter_next (SliceIter *it, gboolean first)
{
  if (!first)
    {
      int d;
      for (d = it->n - 1; d >= 0; d--)
        {
          if (++it->idx[d] < it->shape[d])
            {
              for (int k = 0; k < it->ntens; k++)
                it->off[k] += it->strides[k][d];
              break;
            }
          for (int k = 0; k < it->ntens; k++)
            it->off[k] -= it->strides[k][d] * (it->shape[d] - 1);
          it->idx[d] = 0;
        }
    }
  return it->remaining-- > 0;
}

/* ------------------------------------------------------------------ sort / topk
 *
 * PyTorch 1.13 sorts each slice with libstdc++'s std::sort (or std::stable_sort when
 * stable=True), and topk runs std::partial_sort when k * 64 <= n and otherwise
 * std::nth_element followed by std::sort of the first k - 1 elements. Those algorithms are
 * deterministic, so running the same sequence of comparisons and moves on (value, index)
 * pairs yields PyTorch's order of equal values. The functions below follow the published
 * structure of those algorithms (introsort with median-of-three pivots and a 16-element
 * insertion-sort threshold, introselect, binary-heap selection). NaN orders above every
 * number, as in PyTorch. */

typedef struct { double v; int64_t i; } PairD;
typedef struct { int64_t v; int64_t i; } PairI;

#define LESS_D_ASC(a, b)  ((!isnan ((a).v) && isnan ((b).v)) || (a).v < (b).v)
#define LESS_D_DESC(a, b) ((isnan ((a).v) && !isnan ((b).v)) || (a).v > (b).v)
#define LESS_I_ASC(a, b)  ((a).v < (b).v)
#define LESS_I_DESC(a, b) ((a).v > (b).v)

static int
floor_log2 (int64_t n)
{
  return (int) g_bit_storage ((gulong) n) - 1;
}

#define DEF_STL(SUF, T, LESS)                                                        \
  static void                                                                        \
  SUF##_linear_insert (T *last)                                                      \
  {                                                                                  \
    T val = *last;                                                                   \
    T *next = last - 1;                                                              \
    while (LESS (val, *next))                                                        \
      {                                                                              \
        *last = *next;                                                               \
        last = next;                                                                 \
        next--;                                                                      \
      }                                                                              \
    *last = val;                                                                     \
  }                                                                                  \
  static void                                                                        \
  SUF##_insertion_sort (T *first, T *last)                                           \
  {                                                                                  \
    if (first == last)                                                               \
      return;                                                                        \
    for (T *i = first + 1; i < last; i++)                                            \
      {                                                                              \
        if (LESS (*i, *first))                                                       \
          {                                                                          \
            T val = *i;                                                              \
            memmove (first + 1, first, (size_t) (i - first) * sizeof (T));           \
            *first = val;                                                            \
          }                                                                          \
        else                                                                         \
          SUF##_linear_insert (i);                                                   \
      }                                                                              \
  }                                                                                  \
  static void                                                                        \
  SUF##_swap (T *a, T *b)                                                            \
  {                                                                                  \
    T tmp = *a;                                                                      \
    *a = *b;                                                                         \
    *b = tmp;                                                                        \
  }                                                                                  \
  static void                                                                        \
  SUF##_median_to_first (T *result, T *a, T *b, T *c)                                \
  {                                                                                  \
    if (LESS (*a, *b))                                                               \
      {                                                                              \
        if (LESS (*b, *c))                                                           \
          SUF##_swap (result, b);                                                    \
        else if (LESS (*a, *c))                                                      \
          SUF##_swap (result, c);                                                    \
        else                                                                         \
          SUF##_swap (result, a);                                                    \
      }                                                                              \
    else if (LESS (*a, *c))                                                          \
      SUF##_swap (result, a);                                                        \
    else if (LESS (*b, *c))                                                          \
      SUF##_swap (result, c);                                                        \
    else                                                                             \
      SUF##_swap (result, b);                                                        \
  }                                                                                  \
  static T *                                                                         \
  SUF##_partition_pivot (T *first, T *last)                                          \
  {                                                                                  \
    T *mid = first + (last - first) / 2;                                             \
    T *pivot = first;                                                                \
    SUF##_median_to_first (first, first + 1, mid, last - 1);                         \
    first++;                                                                         \
    for (;;)                                                                         \
      {                                                                              \
        while (LESS (*first, *pivot))                                                \
          first++;                                                                   \
        last--;                                                                      \
        while (LESS (*pivot, *last))                                                 \
          last--;                                                                    \
        if (!(first < last))                                                         \
          return first;                                                              \
        SUF##_swap (first, last);                                                    \
        first++;                                                                     \
      }                                                                              \
  }                                                                                  \
  static void                                                                        \
  SUF##_push_heap (T *first, ptrdiff_t hole, ptrdiff_t top, T val)                   \
  {                                                                                  \
    ptrdiff_t parent = (hole - 1) / 2;                                               \
    while (hole > top && LESS (first[parent], val))                                  \
      {                                                                              \
        first[hole] = first[parent];                                                 \
        hole = parent;                                                               \
        parent = (hole - 1) / 2;                                                     \
      }                                                                              \
    first[hole] = val;                                                               \
  }                                                                                  \
  static void                                                                        \
  SUF##_adjust_heap (T *first, ptrdiff_t hole, ptrdiff_t len, T val)                 \
  {                                                                                  \
    ptrdiff_t top = hole, child = hole;                                              \
    while (child < (len - 1) / 2)                                                    \
      {                                                                              \
        child = 2 * (child + 1);                                                     \
        if (LESS (first[child], first[child - 1]))                                   \
          child--;                                                                   \
        first[hole] = first[child];                                                  \
        hole = child;                                                                \
      }                                                                              \
    if ((len & 1) == 0 && child == (len - 2) / 2)                                    \
      {                                                                              \
        child = 2 * (child + 1);                                                     \
        first[hole] = first[child - 1];                                              \
        hole = child - 1;                                                            \
      }                                                                              \
    SUF##_push_heap (first, hole, top, val);                                         \
  }                                                                                  \
  static void                                                                        \
  SUF##_make_heap (T *first, T *last)                                                \
  {                                                                                  \
    ptrdiff_t len = last - first, parent;                                            \
    if (len < 2)                                                                     \
      return;                                                                        \
    for (parent = (len - 2) / 2;; parent--)                                          \
      {                                                                              \
        SUF##_adjust_heap (first, parent, len, first[parent]);                       \
        if (parent == 0)                                                             \
          return;                                                                    \
      }                                                                              \
  }                                                                                  \
  static void                                                                        \
  SUF##_pop_heap (T *first, T *last, T *result)                                      \
  {                                                                                  \
    T val = *result;                                                                 \
    *result = *first;                                                                \
    SUF##_adjust_heap (first, 0, last - first, val);                                 \
  }                                                                                  \
  static void                                                                        \
  SUF##_heap_select (T *first, T *middle, T *last)                                   \
  {                                                                                  \
    SUF##_make_heap (first, middle);                                                 \
    for (T *i = middle; i < last; i++)                                               \
      if (LESS (*i, *first))                                                         \
        SUF##_pop_heap (first, middle, i);                                           \
  }                                                                                  \
  static void                                                                        \
  SUF##_partial_sort (T *first, T *middle, T *last)                                  \
  {                                                                                  \
    SUF##_heap_select (first, middle, last);                                         \
    while (middle - first > 1)                                                       \
      {                                                                              \
        middle--;                                                                    \
        SUF##_pop_heap (first, middle, middle);                                      \
      }                                                                              \
  }                                                                                  \
  static void                                                                        \
  SUF##_introsort_loop (T *first, T *last, int depth)                                \
  {                                                                                  \
    while (last - first > 16)                                                        \
      {                                                                              \
        T *cut;                                                                      \
        if (depth == 0)                                                              \
          {                                                                          \
            SUF##_partial_sort (first, last, last);                                  \
            return;                                                                  \
          }                                                                          \
        depth--;                                                                     \
        cut = SUF##_partition_pivot (first, last);                                   \
        SUF##_introsort_loop (cut, last, depth);                                     \
        last = cut;                                                                  \
      }                                                                              \
  }                                                                                  \
  static void G_GNUC_UNUSED                                                          \
  SUF##_sort (T *first, T *last)                                                     \
  {                                                                                  \
    if (first == last)                                                               \
      return;                                                                        \
    SUF##_introsort_loop (first, last, floor_log2 (last - first) * 2);               \
    if (last - first > 16)                                                           \
      {                                                                              \
        SUF##_insertion_sort (first, first + 16);                                    \
        for (T *i = first + 16; i < last; i++)                                       \
          SUF##_linear_insert (i);                                                   \
      }                                                                              \
    else                                                                             \
      SUF##_insertion_sort (first, last);                                            \
  }                                                                                  \
  static void G_GNUC_UNUSED                                                          \
  SUF##_nth_element (T *first, T *nth, T *last)                                      \
  {                                                                                  \
    int depth;                                                                       \
    if (first == last || nth == last)                                                \
      return;                                                                        \
    depth = floor_log2 (last - first) * 2;                                           \
    while (last - first > 3)                                                         \
      {                                                                              \
        T *cut;                                                                      \
        if (depth == 0)                                                              \
          {                                                                          \
            SUF##_heap_select (first, nth + 1, last);                                \
            SUF##_swap (first, nth);                                                 \
            return;                                                                  \
          }                                                                          \
        depth--;                                                                     \
        cut = SUF##_partition_pivot (first, last);                                   \
        if (cut <= nth)                                                              \
          first = cut;                                                               \
        else                                                                         \
          last = cut;                                                                \
      }                                                                              \
    SUF##_insertion_sort (first, last);                                              \
  }                                                                                  \
  /* a total order (ties by index) for stable sorting with qsort */                  \
  static int G_GNUC_UNUSED                                                           \
  SUF##_cmp_stable (const void *pa, const void *pb)                                  \
  {                                                                                  \
    const T *a = pa, *b = pb;                                                        \
    if (LESS (*a, *b))                                                               \
      return -1;                                                                     \
    if (LESS (*b, *a))                                                               \
      return 1;                                                                      \
    return a->i < b->i ? -1 : a->i > b->i;                                           \
  }

DEF_STL (dasc, PairD, LESS_D_ASC)
DEF_STL (ddesc, PairD, LESS_D_DESC)
DEF_STL (iasc, PairI, LESS_I_ASC)
DEF_STL (idesc, PairI, LESS_I_DESC)

typedef enum { SEL_SORT, SEL_STABLE, SEL_TOPK_SORTED, SEL_TOPK_UNSORTED } SelectMode;

/* Orders n pairs as PyTorch's kernels would; afterwards the first k are the answer. */
static void
select_pairs (void *pairs, gboolean keys_double, gboolean desc, int64_t n, int64_t k,
              SelectMode mode)
{
  if (n == 0)
    return;
  if (keys_double)
    {
      PairD *p = pairs;
      if (mode == SEL_STABLE)
        qsort (p, n, sizeof *p, desc ? ddesc_cmp_stable : dasc_cmp_stable);
      else if (mode == SEL_SORT)
        (desc ? ddesc_sort : dasc_sort) (p, p + n);
      else if (k * 64 <= n)
        (desc ? ddesc_partial_sort : dasc_partial_sort) (p, p + k, p + n);
      else
        {
          (desc ? ddesc_nth_element : dasc_nth_element) (p, p + k - 1, p + n);
          if (mode == SEL_TOPK_SORTED)
            (desc ? ddesc_sort : dasc_sort) (p, p + k - 1);
        }
    }
  else
    {
      PairI *p = pairs;
      if (mode == SEL_STABLE)
        qsort (p, n, sizeof *p, desc ? idesc_cmp_stable : iasc_cmp_stable);
      else if (mode == SEL_SORT)
        (desc ? idesc_sort : iasc_sort) (p, p + n);
      else if (k * 64 <= n)
        (desc ? idesc_partial_sort : iasc_partial_sort) (p, p + k, p + n);
      else
        {
          (desc ? idesc_nth_element : iasc_nth_element) (p, p + k - 1, p + n);
          if (mode == SEL_TOPK_SORTED)
            (desc ? idesc_sort : iasc_sort) (p, p + k - 1);
        }
    }
}

/* Sorts or selects along dim: values get the first k elements of each ordered slice (copied
 * from t, keeping its dtype) and indices their positions. */
static void
select_along (FxTensor *t, int dim, int64_t k, gboolean desc, SelectMode mode,
              FxTensor **values, FxTensor **indices)
{
  FxDType cdt = compute_dtype (t->dtype);
  gboolean keys_double = cdt != FX_DTYPE_INT64;
  FxTensor *keys = fx_tensor_ref (t);
  int64_t shape[MAXD];
  int64_t n = size_or_one (t, dim);
  gsize es = fx_tensor_element_size (t);
  FxTensor *vals, *idx;
  const FxTensor *tens[4];
  SliceIter it;
  void *pairs;
  int64_t kst, tst, vst, ist;

  convert_owned (&keys, cdt);
  memcpy (shape, t->shape, sizeof shape);
  if (t->ndim > 0)
    shape[dim] = k;
  vals = fx_tensor_new_uninit (t->dtype, t->ndim, shape);
  idx = fx_tensor_new_uninit (FX_DTYPE_INT64, t->ndim, shape);
  *values = vals;
  *indices = idx;
  if (fx_tensor_numel (t) == 0 || k == 0)
    {
      fx_tensor_unref (keys);
      return;
    }

  kst = t->ndim > 0 ? keys->strides[dim] : 0;
  tst = t->ndim > 0 ? t->strides[dim] : 0;
  vst = t->ndim > 0 ? vals->strides[dim] : 0;
  ist = t->ndim > 0 ? idx->strides[dim] : 0;
  pairs = g_malloc (n * (keys_double ? sizeof (PairD) : sizeof (PairI)));
  tens[0] = keys;
  tens[1] = t;
  tens[2] = vals;
  slice_iter_init (&it, t, dim, 3, tens);
  {
    /* idx has vals' layout: same shape, both contiguous */
    const char *kb = fx_tensor_data (keys);
    const char *tb = fx_tensor_data (t);
    char *vb = fx_tensor_data (vals);
    int64_t *ib = fx_tensor_data (idx);
    gboolean first = TRUE;

    while (slice_iter_next (&it, first))
      {
        first = FALSE;
        if (keys_double)
          {
            PairD *p = pairs;
            for (int64_t j = 0; j < n; j++)
              {
                const char *e = kb + (it.off[0] + j * kst) * (int64_t) fx_tensor_element_size (keys);
                p[j].v = cdt == FX_DTYPE_FLOAT32 ? (double) *(const float *) e : *(const double *) e;
                p[j].i = j;
              }
          }
        else
          {
            PairI *p = pairs;
            for (int64_t j = 0; j < n; j++)
              {
                p[j].v = ((const int64_t *) kb)[it.off[0] + j * kst];
                p[j].i = j;
              }
          }
        select_pairs (pairs, keys_double, desc, n, k, mode);
        for (int64_t j = 0; j < k; j++)
          {
            int64_t src = keys_double ? ((PairD *) pairs)[j].i : ((PairI *) pairs)[j].i;
            memcpy (vb + (it.off[2] + j * vst) * (int64_t) es,
                    tb + (it.off[1] + src * tst) * (int64_t) es, es);
            ib[it.off[2] + j * ist] = src;
          }
      }
  }
  g_free (pairs);
  fx_tensor_unref (keys);
}

gboolean
fx_tensor_sort (FxTensor *t, int64_t dim, gboolean descending, gboolean stable,
                FxTensor **values, FxTensor **indices, GError **error)
{
  int w;

  if (!wrap_dim64 (dim, t->ndim, &w, error))
    return FALSE;
  select_along (t, w, size_or_one (t, w), descending, stable ? SEL_STABLE : SEL_SORT,
                values, indices);
  return TRUE;
}

FxTensor *
fx_tensor_argsort (FxTensor *t, int64_t dim, gboolean descending, gboolean stable,
                   GError **error)
{
  FxTensor *v, *i;

  if (!fx_tensor_sort (t, dim, descending, stable, &v, &i, error))
    return NULL;
  fx_tensor_unref (v);
  return i;
}

gboolean
fx_tensor_topk (FxTensor *t, int64_t k, int64_t dim, gboolean largest, gboolean sorted,
                FxTensor **values, FxTensor **indices, GError **error)
{
  int w;

  if (!wrap_dim64 (dim, t->ndim, &w, error))
    return FALSE;
  if (k < 0 || k > size_or_one (t, w))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "selected index k out of range");
      return FALSE;
    }
  /* a 0-d input is answered before any kernel runs: with its one element, for k == 0 too */
  if (t->ndim == 0)
    k = 1;
  else if (t->dtype == FX_DTYPE_BOOL || t->dtype == FX_DTYPE_FLOAT16)
    {
      set_not_implemented (error, "topk_cpu", t->dtype);
      return FALSE;
    }
  select_along (t, w, k, largest, sorted ? SEL_TOPK_SORTED : SEL_TOPK_UNSORTED, values,
                indices);
  return TRUE;
}

/* ------------------------------------------------------------------ scans */

/* Shape as [outer, n, inner] around dim, for contiguous data. */
static void
split_around (const FxTensor *t, int dim, int64_t *outer, int64_t *n, int64_t *inner)
{
  *outer = 1;
  *inner = 1;
  *n = size_or_one (t, dim);
  for (int d = 0; d < t->ndim; d++)
    {
      if (d < dim)
        *outer *= t->shape[d];
      else if (d > dim)
        *inner *= t->shape[d];
    }
}

/* Scans of contiguous float32 rows (the last dim), running in double. */
static void FX_HOT
scan_rows_f32 (const float *x, float *y, int64_t rows, int64_t n, gboolean is_prod)
{
  for (int64_t o = 0; o < rows; o++)
    {
      const float *xr = x + o * n;
      float *yr = y + o * n;
      double acc = is_prod ? 1.0 : 0.0;
      if (is_prod)
        for (int64_t d = 0; d < n; d++)
          yr[d] = (float) (acc *= xr[d]);
      else
        for (int64_t d = 0; d < n; d++)
          yr[d] = (float) (acc += xr[d]);
    }
}

static FxTensor *
cumulative (FxTensor *t, int64_t dim, FxDType dtype, gboolean is_prod, GError **error)
{
  FxDType out_dtype = sum_out_dtype (t, dtype);
  const char *kname = is_prod ? "cumprod_out_cpu" : "cumsum_out_cpu";
  FxTensor *src, *out;
  int64_t outer, n, inner;
  int w;

  if (!wrap_dim64 (dim, t->ndim, &w, error))
    return NULL;
  if (fx_tensor_numel (t) == 0)
    return fx_tensor_new_uninit (out_dtype, t->ndim, t->shape);
  if (t->ndim == 0)
    {
      /* answered without a kernel, so without the dtype check either */
      FxTensor *c = fx_tensor_clone (t);
      return cast_take (c, out_dtype);
    }
  if (out_dtype == FX_DTYPE_FLOAT16 || out_dtype == FX_DTYPE_BOOL)
    {
      set_not_implemented (error, kname, out_dtype);
      return NULL;
    }
  src = fx_tensor_ref (t);
  convert_owned (&src, out_dtype);
  convert_owned (&src, compute_dtype (out_dtype));
  {
    FxTensor *c = fx_tensor_contiguous (src);
    fx_tensor_unref (src);
    src = c;
  }
  split_around (src, w, &outer, &n, &inner);
  out = fx_tensor_new_uninit (src->dtype, t->ndim, t->shape);

  if (src->dtype == FX_DTYPE_INT64)
    {
      const int64_t *x = fx_tensor_data (src);
      int64_t *y = fx_tensor_data (out);
      for (int64_t o = 0; o < outer; o++)
        {
          const int64_t *xs = x + o * n * inner;
          int64_t *ys = y + o * n * inner;
          for (int64_t j = 0; j < inner; j++)
            ys[j] = xs[j];
          for (int64_t d = 1; d < n; d++)
            for (int64_t j = 0; j < inner; j++)
              {
                uint64_t a = (uint64_t) ys[(d - 1) * inner + j], b = (uint64_t) xs[d * inner + j];
                ys[d * inner + j] = (int64_t) (is_prod ? a * b : a + b);
              }
        }
    }
  else if (inner == 1 && src->dtype == FX_DTYPE_FLOAT32)
    scan_rows_f32 (fx_tensor_data (src), fx_tensor_data (out), outer, n, is_prod);
  else
    {
      /* double running values, rounded at each store (PyTorch accumulates floats in double
       * on the CPU) */
      gboolean f32 = src->dtype == FX_DTYPE_FLOAT32;
      double *acc = g_new (double, inner);
      for (int64_t o = 0; o < outer; o++)
        {
          int64_t b = o * n * inner;
          for (int64_t j = 0; j < inner; j++)
            acc[j] = is_prod ? 1.0 : 0.0;
          for (int64_t d = 0; d < n; d++)
            {
              int64_t r = b + d * inner;
              if (f32)
                {
                  const float *x = (const float *) fx_tensor_data (src) + r;
                  float *y = (float *) fx_tensor_data (out) + r;
                  if (is_prod)
                    for (int64_t j = 0; j < inner; j++)
                      y[j] = (float) (acc[j] *= x[j]);
                  else
                    for (int64_t j = 0; j < inner; j++)
                      y[j] = (float) (acc[j] += x[j]);
                }
              else
                {
                  const double *x = (const double *) fx_tensor_data (src) + r;
                  double *y = (double *) fx_tensor_data (out) + r;
                  if (is_prod)
                    for (int64_t j = 0; j < inner; j++)
                      y[j] = acc[j] *= x[j];
                  else
                    for (int64_t j = 0; j < inner; j++)
                      y[j] = acc[j] += x[j];
                }
            }
        }
      g_free (acc);
    }
  fx_tensor_unref (src);
  return cast_take (out, out_dtype);
}

FxTensor *
fx_tensor_cumsum (FxTensor *t, int64_t dim, FxDType dtype, GError **error)
{
  return cumulative (t, dim, dtype, FALSE, error);
}

FxTensor *
fx_tensor_cumprod (FxTensor *t, int64_t dim, FxDType dtype, GError **error)
{
  return cumulative (t, dim, dtype, TRUE, error);
}

/* ------------------------------------------------------------------ softmax */

int
fx_softmax_default_dim (int ndim)
{
  return (ndim == 0 || ndim == 1 || ndim == 3) ? 0 : 1;
}

/* y = x * a over n floats (y may be x), in blocks the compiler vectorises. */
static void FX_HOT
scale_f32 (float *y, const float *x, float a, int64_t n)
{
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++)
      y[i + k] = x[i + k] * a;
  for (; i < n; i++)
    y[i] = x[i] * a;
}

/* Softmax over the middle dim of contiguous [outer, n, inner] data: shift by the max (a NaN
 * anywhere makes the slice NaN, as in PyTorch), exponentiate, and scale by 1/sum (or
 * subtract max + log(sum) for log_softmax). Sums accumulate in double. float32 runs its
 * exponentials eight at a time; each row of `inner` elements is one vectorised block. */
static void FX_HOT
softmax_f32 (const float *x, float *y, int64_t outer, int64_t n, int64_t inner,
             gboolean logsm, double *m, double *s)
{
  int64_t rows = inner == 1 ? 1 : n;     /* rows of `len` elements per outer slice */
  int64_t len = inner == 1 ? n : inner;

  for (int64_t o = 0; o < outer; o++)
    {
      const float *xs = x + o * n * inner;
      float *ys = y + o * n * inner;

      /* per lane (inner > 1) or per slice (inner == 1): m, s */
      int64_t lanes = inner == 1 ? 1 : inner;
      for (int64_t j = 0; j < lanes; j++)
        {
          m[j] = -INFINITY;
          s[j] = 0.0;
        }
      if (inner == 1)
        m[0] = extremum_f32 (xs, n, TRUE);
      else
        for (int64_t r = 0; r < rows; r++)
          for (int64_t j = 0; j < len; j++)
            {
              float v = xs[r * len + j];
              if (!(v <= m[j]))
                m[j] = v;
            }
      for (int64_t r = 0; r < rows; r++)
        {
          const float *xr = xs + r * len;
          float *yr = ys + r * len;
          if (inner == 1)
            s[0] += exp_shift_sum_f32 (yr, xr, (float) m[0], len);
          else
            {
              for (int64_t j = 0; j < len; j++)
                yr[j] = xr[j] - (float) m[j];
              exp_shift_sum_f32 (yr, yr, 0.0f, len);
              for (int64_t j = 0; j < len; j++)
                s[j] += yr[j];
            }
        }
      if (logsm)
        {
          if (inner == 1)
            {
              /* (x - max) - log(sum) in float, PyTorch's order: x - max is exact near the
               * max, where a rounded max + log(sum) would not be */
              float mf = (float) m[0], ls = (float) log (s[0]);
              int64_t i = 0;
              for (; i + 8 <= n; i += 8)
                for (int k = 0; k < 8; k++)
                  ys[i + k] = (xs[i + k] - mf) - ls;
              for (; i < n; i++)
                ys[i] = (xs[i] - mf) - ls;
            }
          else
            {
              /* in double: x - (max + log(sum)) loses nothing there */
              for (int64_t j = 0; j < lanes; j++)
                s[j] = m[j] + log (s[j]);
              for (int64_t r = 0; r < rows; r++)
                for (int64_t j = 0; j < len; j++)
                  ys[r * len + j] = (float) (xs[r * len + j] - s[j]);
            }
        }
      else
        {
          for (int64_t j = 0; j < lanes; j++)
            s[j] = 1.0 / s[j];
          if (inner == 1)
            scale_f32 (ys, ys, (float) s[0], n);
          else
            for (int64_t r = 0; r < rows; r++)
              for (int64_t j = 0; j < len; j++)
                ys[r * len + j] = (float) (ys[r * len + j] * s[j]);
        }
    }
}

static void
softmax_f64 (const double *x, double *y, int64_t outer, int64_t n, int64_t inner,
             gboolean logsm, double *m, double *s)
{
  for (int64_t o = 0; o < outer; o++)
    {
      const double *xs = x + o * n * inner;
      double *ys = y + o * n * inner;
      for (int64_t j = 0; j < inner; j++)
        {
          m[j] = -INFINITY;
          s[j] = 0.0;
        }
      for (int64_t d = 0; d < n; d++)
        for (int64_t j = 0; j < inner; j++)
          if (!(xs[d * inner + j] <= m[j]))
            m[j] = xs[d * inner + j];
      for (int64_t d = 0; d < n; d++)
        for (int64_t j = 0; j < inner; j++)
          {
            double e = exp (xs[d * inner + j] - m[j]);
            s[j] += e;
            if (!logsm)
              ys[d * inner + j] = e;
          }
      for (int64_t j = 0; j < inner; j++)
        s[j] = logsm ? m[j] + log (s[j]) : 1.0 / s[j];
      for (int64_t d = 0; d < n; d++)
        for (int64_t j = 0; j < inner; j++)
          ys[d * inner + j] = logsm ? xs[d * inner + j] - s[j] : ys[d * inner + j] * s[j];
    }
}

static FxTensor *
softmax_like (FxTensor *t, int64_t dim, FxDType dtype, gboolean logsm, GError **error)
{
  FxTensor *src, *out;
  int64_t outer, n, inner;
  double *m, *s;
  int w;

  if (!wrap_dim64 (dim, t->ndim, &w, error))
    return NULL;
  src = fx_tensor_ref (t);
  if (dtype != NO_DTYPE)
    convert_owned (&src, dtype);
  if (fx_tensor_numel (src) == 0)
    {
      out = fx_tensor_new_uninit (src->dtype, src->ndim, src->shape);
      fx_tensor_unref (src);
      return out;
    }
  if (src->dtype != FX_DTYPE_FLOAT32 && src->dtype != FX_DTYPE_FLOAT64)
    {
      gboolean last = t->ndim == 0 || w == t->ndim - 1;
      set_not_implemented (error,
                           !last ? "softmax_kernel_impl"
                                 : logsm ? "log_softmax_lastdim_kernel_impl"
                                         : "softmax_lastdim_kernel_impl",
                           src->dtype);
      fx_tensor_unref (src);
      return NULL;
    }
  {
    FxTensor *c = fx_tensor_contiguous (src);
    fx_tensor_unref (src);
    src = c;
  }
  split_around (src, w, &outer, &n, &inner);
  out = fx_tensor_new_uninit (src->dtype, src->ndim, src->shape);
  m = g_new (double, inner);
  s = g_new (double, inner);
  if (src->dtype == FX_DTYPE_FLOAT32)
    softmax_f32 (fx_tensor_data (src), fx_tensor_data (out), outer, n, inner, logsm, m, s);
  else
    softmax_f64 (fx_tensor_data (src), fx_tensor_data (out), outer, n, inner, logsm, m, s);
  g_free (m);
  g_free (s);
  fx_tensor_unref (src);
  return out;
}

FxTensor *
fx_tensor_softmax (FxTensor *t, int64_t dim, FxDType dtype, GError **error)
{
  return softmax_like (t, dim, dtype, FALSE, error);
}

FxTensor *
fx_tensor_log_softmax (FxTensor *t, int64_t dim, FxDType dtype, GError **error)
{
  return softmax_like (t, dim, dtype, TRUE, error);
}
