/* pool.c: max, average and adaptive pooling over the last two (or one) dims, with ATen's
 * output-size arithmetic (ceil_mode, padding, dilation) and argument checks. 1-d pools run
 * as 2-d pools of height 1, as in ATen, and report what ATen's 2-d checks report. */
#include "tensor/conv.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX512_PATH 1
#endif
#include "fx-error.h"
#include "tensor/blas.h"

static gboolean
not_implemented (const char *kernel, FxDType dtype, GError **error)
{
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "\"%s\" not implemented for '%s'", kernel,
               fx_dtype_scalar_type_name (dtype));
  return FALSE;
}

static char *
list_str (int n, const int64_t *v)
{
  GString *s = g_string_new ("[");
  for (int i = 0; i < n; i++)
    g_string_append_printf (s, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, v[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

void
fx_pool_params_init (FxPoolParams *p, int n_kernel, const int64_t *kernel)
{
  memset (p, 0, sizeof *p);
  p->n_kernel = MIN (n_kernel, FX_CONV_MAX_PARAMS);
  memcpy (p->kernel, kernel, sizeof (int64_t) * p->n_kernel);
  p->n_padding = 1;
  p->n_dilation = 1;
  p->dilation[0] = 1;
  p->count_include_pad = TRUE;
}

/* ---- output sizes and shape checks (ATen's pooling_output_shape / pool2d_shape_check) ---- */

static int64_t
div_rtn (int64_t a, int64_t b)
{
  int64_t q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

static gboolean
pool_out_size (int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, gboolean ceil,
               int64_t *out, GError **error)
{
  if (stride == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "stride should not be zero");
      return FALSE;
    }
  if (pad < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "pad must be non-negative, but got pad: %"
                   G_GINT64_FORMAT, pad);
      return FALSE;
    }
  if (pad > k / 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "pad should be at most half of kernel size, "
                   "but got pad=%" G_GINT64_FORMAT " and kernel_size=%" G_GINT64_FORMAT, pad, k);
      return FALSE;
    }
  int64_t o = div_rtn (in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0), stride) + 1;
  if (ceil && (o - 1) * stride >= in + pad)
    o--;
  *out = o;
  return TRUE;
}

typedef struct {
  int64_t planes, h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw;
} PoolGeom;

static gboolean
pool2d_shape_check (FxTensor *in, const PoolGeom *g, int64_t n_plane, GError **error)
{
  if (g->kw <= 0 || g->kh <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "kernel size should be greater than zero, "
                   "but got kH: %" G_GINT64_FORMAT " kW: %" G_GINT64_FORMAT, g->kh, g->kw);
      return FALSE;
    }
  if (g->sw <= 0 || g->sh <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "stride should be greater than zero, but "
                   "got dH: %" G_GINT64_FORMAT " dW: %" G_GINT64_FORMAT, g->sh, g->sw);
      return FALSE;
    }
  if (g->dw <= 0 || g->dh <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "dilation should be greater than zero, but "
                   "got dilationH: %" G_GINT64_FORMAT " dilationW: %" G_GINT64_FORMAT,
                   g->dh, g->dw);
      return FALSE;
    }
  int nd = in->ndim;
  gboolean valid_dims = nd >= 3 && in->shape[1] != 0 && in->shape[2] != 0;
  if (!((nd == 3 && in->shape[0] != 0 && valid_dims) || (nd == 4 && valid_dims && in->shape[3] != 0)))
    {
      g_autofree char *s = list_str (nd, in->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "Expected 3D or 4D (batch mode) tensor with "
                   "optional 0 dim batch size for input, but got:%s", s);
      return FALSE;
    }
  if (g->ow < 1 || g->oh < 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "Given input size: (%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT "x%" G_GINT64_FORMAT "). Calculated output size: (%"
                   G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "). Output size "
                   "is too small", n_plane, g->h, g->w, n_plane, g->oh, g->ow);
      return FALSE;
    }
  return TRUE;
}

/* Output of a pool over the last two dims of in: same leading dims, then oh × ow. */
static FxTensor *
pool_output (FxTensor *in, FxDType dtype, int64_t oh, int64_t ow)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  memcpy (shape, in->shape, sizeof (int64_t) * in->ndim);
  shape[in->ndim - 2] = oh;
  shape[in->ndim - 1] = ow;
  return fx_tensor_new_uninit (dtype, in->ndim, shape);
}

/* ---- kernels over planes of a contiguous input ---- */

typedef struct {
  const PoolGeom *g;
  const void *in;
  void *out;
  int64_t *idx;
  FxDType dtype;
  gboolean count_include_pad;
  int64_t divisor;        /* 0: none */
  int64_t bands;          /* max_pool_sep_f32_avx512: bands of output rows per plane */
} PoolJob;

#define DEFINE_MAX_POOL(name, T)                                                          \
  static void                                                                             \
  name (const PoolJob *j, int64_t p0, int64_t p1)                                         \
  {                                                                                       \
    const PoolGeom *g = j->g;                                                             \
    for (int64_t p = p0; p < p1; p++)                                                     \
      {                                                                                   \
        const T *in = (const T *) j->in + p * g->h * g->w;                                \
        T *out = (T *) j->out + p * g->oh * g->ow;                                        \
        int64_t *idx = j->idx ? j->idx + p * g->oh * g->ow : NULL;                        \
        for (int64_t oh = 0; oh < g->oh; oh++)                                            \
          for (int64_t ow = 0; ow < g->ow; ow++)                                          \
            {                                                                             \
              int64_t h0 = oh * g->sh - g->ph, w0 = ow * g->sw - g->pw;                   \
              T best = -INFINITY;                                                         \
              int64_t bi = -1;                                                            \
              for (int64_t ki = 0; ki < g->kh; ki++)                                      \
                {                                                                         \
                  int64_t ih = h0 + ki * g->dh;                                           \
                  if (ih < 0 || ih >= g->h)                                               \
                    continue;                                                             \
                  for (int64_t kj = 0; kj < g->kw; kj++)                                  \
                    {                                                                     \
                      int64_t iw = w0 + kj * g->dw;                                       \
                      if (iw < 0 || iw >= g->w)                                           \
                        continue;                                                         \
                      T v = in[ih * g->w + iw];                                           \
                      if (bi < 0 || v > best || isnan (v))                                \
                        {                                                                 \
                          best = v;                                                       \
                          bi = ih * g->w + iw;                                            \
                          if (isnan (v))                                                  \
                            goto done_##name;                                             \
                        }                                                                 \
                    }                                                                     \
                }                                                                         \
            done_##name:                                                                  \
              out[oh * g->ow + ow] = best;                                                \
              if (idx)                                                                    \
                idx[oh * g->ow + ow] = bi;                                                \
            }                                                                             \
      }                                                                                   \
  }
DEFINE_MAX_POOL (max_pool_f32, float)
DEFINE_MAX_POOL (max_pool_f64, double)

/* Without indices, a max pool is separable: the column-wise max of an output row's window
 * rows, into a row padded with -inf, then the max across each window of that row. The
 * update keeps NaN once seen and otherwise takes the larger value, as the loop above does;
 * it only differs in which NaN it keeps. */
#define MAX_NAN(m, v) (((v) > (m) || (v) != (v)) ? (v) : (m))

static inline void
max_into_f32 (float *dst, const float *src, int64_t n)
{
  int64_t i = 0;
#ifdef __SSE2__
  for (; i + 4 <= n; i += 4)
    {
      __m128 m = _mm_loadu_ps (dst + i), v = _mm_loadu_ps (src + i);
      __m128 take = _mm_or_ps (_mm_cmpgt_ps (v, m), _mm_cmpunord_ps (v, v));
      _mm_storeu_ps (dst + i, _mm_or_ps (_mm_and_ps (take, v), _mm_andnot_ps (take, m)));
    }
#endif
  for (; i < n; i++)
    dst[i] = MAX_NAN (dst[i], src[i]);
}

static inline void
max_into_f64 (double *dst, const double *src, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    dst[i] = MAX_NAN (dst[i], src[i]);
}

/* dst[i] = max(dst[i], src[i * stride]): one column of the windows across a row. */
static inline void
max_into_strided_f32 (float *dst, const float *src, int64_t stride, int64_t n)
{
  int64_t i = 0;
  if (stride == 1)
    {
      max_into_f32 (dst, src, n);
      return;
    }
#ifdef __SSE2__
  /* i + 5 <= n: the second load reads src[2i + 7], which must not pass src[2(n-1)] */
  if (stride == 2)
    for (; i + 5 <= n; i += 4)
      {
        __m128 a = _mm_loadu_ps (src + 2 * i), b = _mm_loadu_ps (src + 2 * i + 4);
        __m128 v = _mm_shuffle_ps (a, b, _MM_SHUFFLE (2, 0, 2, 0)), m = _mm_loadu_ps (dst + i);
        __m128 take = _mm_or_ps (_mm_cmpgt_ps (v, m), _mm_cmpunord_ps (v, v));
        _mm_storeu_ps (dst + i, _mm_or_ps (_mm_and_ps (take, v), _mm_andnot_ps (take, m)));
      }
#endif
  for (; i < n; i++)
    dst[i] = MAX_NAN (dst[i], src[i * stride]);
}

static inline void
max_into_strided_f64 (double *dst, const double *src, int64_t stride, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    dst[i] = MAX_NAN (dst[i], src[i * stride]);
}

#define DEFINE_MAX_POOL_SEPARABLE(name, T, max_into, max_strided)                         \
  static void                                                                             \
  name (const PoolJob *j, int64_t p0, int64_t p1)                                         \
  {                                                                                       \
    const PoolGeom *g = j->g;                                                             \
    /* row buffer index b holds input column b - pw */                                    \
    int64_t len = MAX (g->pw + g->w, (g->ow - 1) * g->sw + (g->kw - 1) * g->dw + 1);      \
    T *row = g_new (T, len);                                                              \
    for (int64_t p = p0; p < p1; p++)                                                     \
      {                                                                                   \
        const T *in = (const T *) j->in + p * g->h * g->w;                                \
        T *out = (T *) j->out + p * g->oh * g->ow;                                        \
        for (int64_t oh = 0; oh < g->oh; oh++)                                            \
          {                                                                               \
            for (int64_t b = 0; b < len; b++)                                             \
              row[b] = -INFINITY;                                                         \
            for (int64_t ki = 0; ki < g->kh; ki++)                                        \
              {                                                                           \
                int64_t ih = oh * g->sh - g->ph + ki * g->dh;                             \
                if (ih >= 0 && ih < g->h)                                                 \
                  max_into (row + g->pw, in + ih * g->w, g->w);                           \
              }                                                                           \
            T *o = out + oh * g->ow;                                                      \
            for (int64_t ow = 0; ow < g->ow; ow++)                                        \
              o[ow] = -INFINITY;                                                          \
            for (int64_t kj = 0; kj < g->kw; kj++)                                        \
              max_strided (o, row + kj * g->dw, g->sw, g->ow);                            \
          }                                                                               \
      }                                                                                   \
    g_free (row);                                                                         \
  }
DEFINE_MAX_POOL_SEPARABLE (max_pool_sep_f32, float, max_into_f32, max_into_strided_f32)
DEFINE_MAX_POOL_SEPARABLE (max_pool_sep_f64, double, max_into_f64, max_into_strided_f64)
#ifdef HAVE_AVX512_PATH
/* lanes of m that take v: v is larger, or NaN (MAX_NAN's rule) */
#define TAKE_MASK_512(v, m) \
  (_mm512_cmp_ps_mask ((v), (m), _CMP_GT_OQ) | _mm512_cmp_ps_mask ((v), (v), _CMP_UNORD_Q))

/* The separable pool sixteen lanes at a time, each maximum built in a register and stored
 * once: the portable version's -inf fills and repeated read-modify-writes of the row made
 * ResNet's 3×3/2 stem pool run at a tenth of its memory speed (each wide load waited for
 * the narrower stores before it). The row's padding cells are -inf for the whole job.
 * Tasks [t0, t1) are (band of output rows, plane) pairs, band-major (run_max_pool). */
__attribute__ ((target ("avx512f"))) static void
max_pool_sep_f32_avx512 (const PoolJob *j, int64_t t0, int64_t t1)
{
  const PoolGeom *g = j->g;
  const int64_t len = MAX (g->pw + g->w, (g->ow - 1) * g->sw + (g->kw - 1) * g->dw + 1);
  /* 32 spare cells: the last vector of a strided read may pass len (those lanes are not
   * stored) */
  float *row = g_new (float, len + 32);
  const __m512 neg_inf = _mm512_set1_ps (-INFINITY);
  const __m512i evens = _mm512_set_epi32 (30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4,
                                          2, 0);
  for (int64_t b = 0; b < len + 32; b++)
    row[b] = -INFINITY;
  for (int64_t t = t0; t < t1; t++)
    {
      int64_t p = t % g->planes, band = t / g->planes;
      const float *in = (const float *) j->in + p * g->h * g->w;
      float *out = (float *) j->out + p * g->oh * g->ow;
      int64_t oh0 = band * g->oh / j->bands, oh1 = (band + 1) * g->oh / j->bands;
      for (int64_t oh = oh0; oh < oh1; oh++)
        {
          /* the last input row of the window two output rows on, prefetched: the input was
           * just written (ResNet's stem), and waiting for it cost the 3×3/2 pool after the
           * stem 200-260 µs instead of 185-210 in a forward (8 of 8 alternating runs) */
          int64_t ahead = (oh + 2) * g->sh - g->ph + (g->kh - 1) * g->dh;
          if (oh + 2 < oh1 && ahead >= 0 && ahead < g->h)
            fx_prefetch_range (in + ahead * g->w, in + (ahead + 1) * g->w, FALSE);
          /* the column-wise maximum of the window's rows: row[pw + x] */
          for (int64_t x = 0; x < g->w; x += 16)
            {
              __mmask16 k = g->w - x >= 16 ? 0xffff : (__mmask16) ((1u << (g->w - x)) - 1);
              __m512 m = neg_inf;
              for (int64_t ki = 0; ki < g->kh; ki++)
                {
                  int64_t ih = oh * g->sh - g->ph + ki * g->dh;
                  if (ih < 0 || ih >= g->h)
                    continue;
                  __m512 v = _mm512_maskz_loadu_ps (k, in + ih * g->w + x);
                  m = _mm512_mask_mov_ps (m, TAKE_MASK_512 (v, m), v);
                }
              _mm512_mask_storeu_ps (row + g->pw + x, k, m);
            }
          /* then across each window of that row */
          float *o = out + oh * g->ow;
          if (g->sw != 1 && g->sw != 2)
            {
              for (int64_t ow = 0; ow < g->ow; ow++)
                {
                  float m = -INFINITY;
                  for (int64_t kj = 0; kj < g->kw; kj++)
                    m = MAX_NAN (m, row[ow * g->sw + kj * g->dw]);
                  o[ow] = m;
                }
              continue;
            }
          for (int64_t x = 0; x < g->ow; x += 16)
            {
              __mmask16 k = g->ow - x >= 16 ? 0xffff : (__mmask16) ((1u << (g->ow - x)) - 1);
              __m512 m = neg_inf;
              for (int64_t kj = 0; kj < g->kw; kj++)
                {
                  const float *src = row + kj * g->dw + x * g->sw;
                  __m512 v = g->sw == 1 ? _mm512_loadu_ps (src)
                                        : _mm512_permutex2var_ps (_mm512_loadu_ps (src), evens,
                                                                  _mm512_loadu_ps (src + 16));
                  m = _mm512_mask_mov_ps (m, TAKE_MASK_512 (v, m), v);
                }
              _mm512_mask_storeu_ps (o + x, k, m);
            }
        }
    }
  g_free (row);
}

static void
max_pool_sep_f32_avx512_job (int64_t t0, int64_t t1, gpointer data)
{
  max_pool_sep_f32_avx512 (data, t0, t1);
}
#endif

static void
max_pool_job (int64_t p0, int64_t p1, gpointer data)
{
  PoolJob *j = data;
  if (j->idx == NULL && j->dtype == FX_DTYPE_FLOAT32)
    max_pool_sep_f32 (j, p0, p1);
  else if (j->idx == NULL)
    max_pool_sep_f64 (j, p0, p1);
  else if (j->dtype == FX_DTYPE_FLOAT32)
    max_pool_f32 (j, p0, p1);
  else
    max_pool_f64 (j, p0, p1);
}

/* j over its planes, `chunk` planes at least to a thread's task. */
static void
run_max_pool (PoolJob *j, int64_t chunk)
{
  const PoolGeom *g = j->g;
#ifdef HAVE_AVX512_PATH
  if (j->idx == NULL && j->dtype == FX_DTYPE_FLOAT32 && fx_cpu_has_avx512 ())
    {
      /* Bands of output rows, band-major: the calling thread claims tasks from the front
       * and the others from the back, so each reads the top or bottom rows of every plane —
       * the rows a convolution split by rows (ResNet's stem) left in its own core's cache.
       * Split by planes, half of what each read came from the other core: 0.22-0.25 ms
       * instead of 0.13 for the 3×3/2 pool after ResNet's stem. */
      j->bands = MAX ((int64_t) 1, MIN ((int64_t) fx_blas_num_threads (), g->oh / 8));
      fx_parallel_for (j->bands * g->planes, chunk, max_pool_sep_f32_avx512_job, j);
      return;
    }
#endif
  fx_parallel_for (g->planes, chunk, max_pool_job, j);
}

#define DEFINE_AVG_POOL(name, T, ACC)                                                     \
  static void                                                                             \
  name (const PoolJob *j, int64_t p0, int64_t p1)                                         \
  {                                                                                       \
    const PoolGeom *g = j->g;                                                             \
    for (int64_t p = p0; p < p1; p++)                                                     \
      {                                                                                   \
        const T *in = (const T *) j->in + p * g->h * g->w;                                \
        T *out = (T *) j->out + p * g->oh * g->ow;                                        \
        for (int64_t oh = 0; oh < g->oh; oh++)                                            \
          for (int64_t ow = 0; ow < g->ow; ow++)                                          \
            {                                                                             \
              int64_t h0 = oh * g->sh - g->ph, w0 = ow * g->sw - g->pw;                   \
              int64_t h1 = MIN (h0 + g->kh, g->h + g->ph);                                \
              int64_t w1 = MIN (w0 + g->kw, g->w + g->pw);                                \
              int64_t pool_size = (h1 - h0) * (w1 - w0);                                  \
              h0 = MAX (h0, 0);                                                           \
              w0 = MAX (w0, 0);                                                           \
              h1 = MIN (h1, g->h);                                                        \
              w1 = MIN (w1, g->w);                                                        \
              if (h0 >= h1 || w0 >= w1)                                                   \
                {                                                                         \
                  out[oh * g->ow + ow] = 0;                                               \
                  continue;                                                               \
                }                                                                         \
              ACC sum = 0;                                                                \
              for (int64_t ih = h0; ih < h1; ih++)                                        \
                for (int64_t iw = w0; iw < w1; iw++)                                      \
                  sum += in[ih * g->w + iw];                                              \
              int64_t div = j->divisor ? j->divisor                                       \
                            : j->count_include_pad ? pool_size : (h1 - h0) * (w1 - w0);   \
              out[oh * g->ow + ow] = (T) (sum / (ACC) div);                               \
            }                                                                             \
      }                                                                                   \
  }
DEFINE_AVG_POOL (avg_pool_f32, float, double)
DEFINE_AVG_POOL (avg_pool_f64, double, double)
DEFINE_AVG_POOL (avg_pool_i64, int64_t, int64_t)

static void
avg_pool_job (int64_t p0, int64_t p1, gpointer data)
{
  PoolJob *j = data;
  if (j->dtype == FX_DTYPE_FLOAT32)
    avg_pool_f32 (j, p0, p1);
  else if (j->dtype == FX_DTYPE_FLOAT64)
    avg_pool_f64 (j, p0, p1);
  else
    avg_pool_i64 (j, p0, p1);
}

static int64_t
plane_chunk (const PoolGeom *g, int64_t window)
{
  return MAX (1, 65536 / MAX (g->oh * g->ow * MAX (window, 1), 1));
}

/* ---- max_pool2d (with or without indices: the same checks in ATen 1.13) ---- */

static gboolean
list_ok (int n, int lo, int hi)
{
  return n >= lo && n <= hi;
}

static FxTensor *
max_pool2d_impl (FxTensor *input, const FxPoolParams *p, FxTensor **indices, GError **error)
{
  if (!list_ok (p->n_kernel, 1, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "max_pool2d: kernel_size must "
                           "either be a single int, or a tuple of two ints");
      return NULL;
    }
  if (!list_ok (p->n_stride, 0, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "max_pool2d: stride must either be "
                           "omitted, a single int, or a tuple of two ints");
      return NULL;
    }
  if (!list_ok (p->n_padding, 1, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "max_pool2d: padding must be either "
                           "be a single int, or a tuple of two ints");
      return NULL;
    }
  if (!list_ok (p->n_dilation, 1, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "max_pool2d: dilation must be either "
                           "a single int, or a tuple of two ints");
      return NULL;
    }
  if (input->ndim != 3 && input->ndim != 4)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE,
                           "non-empty 3D or 4D (batch mode) tensor expected for input");
      return NULL;
    }
  PoolGeom g = { 0 };
  g.kh = p->kernel[0];
  g.kw = p->n_kernel == 1 ? g.kh : p->kernel[1];
  g.sh = p->n_stride == 0 ? g.kh : p->stride[0];
  g.sw = p->n_stride == 0 ? g.kw : p->n_stride == 1 ? g.sh : p->stride[1];
  g.ph = p->padding[0];
  g.pw = p->n_padding == 1 ? g.ph : p->padding[1];
  g.dh = p->dilation[0];
  g.dw = p->n_dilation == 1 ? g.dh : p->dilation[1];
  int nd = input->ndim;
  g.h = input->shape[nd - 2];
  g.w = input->shape[nd - 1];
  int64_t n_plane = input->shape[nd - 3];
  if (!pool_out_size (g.h, g.kh, g.ph, g.sh, g.dh, p->ceil_mode, &g.oh, error)
      || !pool_out_size (g.w, g.kw, g.pw, g.sw, g.dw, p->ceil_mode, &g.ow, error)
      || !pool2d_shape_check (input, &g, n_plane, error))
    return NULL;
  if (input->dtype != FX_DTYPE_FLOAT32 && input->dtype != FX_DTYPE_FLOAT64)
    {
      not_implemented ("max_pool2d", input->dtype, error);
      return NULL;
    }
  g.planes = fx_tensor_numel (input) / MAX (g.h * g.w, 1);
  g_autoptr (FxTensor) in = fx_tensor_contiguous (input);
  FxTensor *out = pool_output (input, input->dtype, g.oh, g.ow);
  FxTensor *idx = indices ? pool_output (input, FX_DTYPE_INT64, g.oh, g.ow) : NULL;
  PoolJob j = { &g, fx_tensor_data (in), fx_tensor_data (out),
                idx ? fx_tensor_data (idx) : NULL, input->dtype, FALSE, 0, 1 };
  run_max_pool (&j, plane_chunk (&g, g.kh * g.kw));
  if (indices)
    *indices = idx;
  return out;
}

FxTensor *
fx_tensor_max_pool2d (FxTensor *input, const FxPoolParams *p, FxTensor **indices,
                      GError **error)
{
  return max_pool2d_impl (input, p, indices, error);
}

/* ---- avg_pool2d ---- */

FxTensor *
fx_tensor_avg_pool2d (FxTensor *input, const FxPoolParams *p, GError **error)
{
  if (!list_ok (p->n_kernel, 1, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "avg_pool2d: kernel_size must "
                           "either be a single int, or a tuple of two ints");
      return NULL;
    }
  if (!list_ok (p->n_stride, 0, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "avg_pool2d: stride must either be "
                           "omitted, a single int, or a tuple of two ints");
      return NULL;
    }
  if (!list_ok (p->n_padding, 1, 2))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "avg_pool2d: padding must either "
                           "be a single int, or a tuple of two ints");
      return NULL;
    }
  if (p->has_divisor && p->divisor_override == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "divisor must be not zero");
      return NULL;
    }
  if (!fx_tensor_wrap_dim (-3, input->ndim, NULL, error))
    return NULL;
  PoolGeom g = { 0 };
  g.kh = p->kernel[0];
  g.kw = p->n_kernel == 1 ? g.kh : p->kernel[1];
  g.sh = p->n_stride == 0 ? g.kh : p->stride[0];
  g.sw = p->n_stride == 0 ? g.kw : p->n_stride == 1 ? g.sh : p->stride[1];
  g.ph = p->padding[0];
  g.pw = p->n_padding == 1 ? g.ph : p->padding[1];
  g.dh = g.dw = 1;
  int nd = input->ndim;
  g.h = input->shape[nd - 2];
  g.w = input->shape[nd - 1];
  int64_t n_plane = input->shape[nd - 3];
  if (!pool_out_size (g.h, g.kh, g.ph, g.sh, 1, p->ceil_mode, &g.oh, error)
      || !pool_out_size (g.w, g.kw, g.pw, g.sw, 1, p->ceil_mode, &g.ow, error)
      || !pool2d_shape_check (input, &g, n_plane, error))
    return NULL;
  FxDType dt = input->dtype;
  if (dt != FX_DTYPE_FLOAT32 && dt != FX_DTYPE_FLOAT64 && dt != FX_DTYPE_INT64)
    {
      not_implemented ("avg_pool2d", dt, error);
      return NULL;
    }
  g.planes = fx_tensor_numel (input) / MAX (g.h * g.w, 1);
  g_autoptr (FxTensor) in = fx_tensor_contiguous (input);
  FxTensor *out = pool_output (input, dt, g.oh, g.ow);
  PoolJob j = { &g, fx_tensor_data (in), fx_tensor_data (out), NULL, dt,
                p->count_include_pad, p->has_divisor ? p->divisor_override : 0 };
  fx_parallel_for (g.planes, plane_chunk (&g, g.kh * g.kw), avg_pool_job, &j);
  return out;
}

/* ---- 1-d pools: ATen's checks, then the 2-d pool on input.unsqueeze(-2) ---- */

static gboolean
check_dim_range (FxTensor *t, const char *fn, GError **error)
{
  if (t->ndim >= 2 && t->ndim <= 3)
    return TRUE;
  g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "Expected 2 to 3 dimensions, but got %d-dimensional "
               "tensor for argument #1 'self' (while checking arguments for %s)", t->ndim, fn);
  return FALSE;
}

static gboolean
check_1d (const char *fn, const char *arg, int n, GError **error)
{
  if (n == 1)
    return TRUE;
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "%s() argument '%s' should contain one int (got "
               "%d)", fn, arg, n);
  return FALSE;
}

static FxTensor *
squeeze_h (FxTensor *t, GError **error)
{
  if (t == NULL)
    return NULL;
  FxTensor *r = fx_tensor_squeeze_dim (t, -2, error);
  fx_tensor_unref (t);
  return r;
}

/* The 2-d parameters of a 1-d pool: kernel (1, k), stride (1, s), padding (0, p), ... */
static void
params_as_2d (const FxPoolParams *p, FxPoolParams *q)
{
  int64_t k[2] = { 1, p->kernel[0] };
  fx_pool_params_init (q, 2, k);
  q->n_stride = 2;
  q->stride[0] = 1;
  q->stride[1] = p->n_stride == 0 ? p->kernel[0] : p->stride[0];
  q->n_padding = 2;
  q->padding[0] = 0;
  q->padding[1] = p->padding[0];
  q->n_dilation = 2;
  q->dilation[0] = 1;
  q->dilation[1] = p->dilation[0];
  q->ceil_mode = p->ceil_mode;
  q->count_include_pad = p->count_include_pad;
  q->has_divisor = p->has_divisor;
  q->divisor_override = p->divisor_override;
}

/* F.max_pool1d without indices: ATen's own 1-d kernel, with its own messages. */
static FxTensor *
max_pool1d_plain (FxTensor *input, const FxPoolParams *p, GError **error)
{
  int nd = input->ndim;
  if (!((nd == 2 && input->shape[0] != 0 && input->shape[1] != 0)
        || (nd == 3 && input->shape[1] != 0 && input->shape[2] != 0)))
    {
      g_autofree char *s = list_str (nd, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "max_pool1d: Expected 2D or 3D (batch mode) "
                   "tensor with optional 0 dim batch size for input, but got:%s", s);
      return NULL;
    }
#define FAIL(...) do { g_set_error (error, FX_ERROR, FX_ERROR_FAILED, __VA_ARGS__); return NULL; } while (0)
  if (p->n_kernel != 1)
    FAIL ("max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 "
          "but got size %d", p->n_kernel);
  if (p->n_stride > 1)
    FAIL ("max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 "
          "but got size %d", p->n_stride);
  if (p->n_padding != 1)
    FAIL ("max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but "
          "got size %d", p->n_padding);
  if (p->n_dilation != 1)
    FAIL ("max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but "
          "got size %d", p->n_dilation);
  int64_t k = p->kernel[0], s = p->n_stride == 0 ? k : p->stride[0];
  int64_t pad = p->padding[0], d = p->dilation[0];
  if (k <= 0)
    FAIL ("max_pool1d() kernel_size must be greater than zero, but got %" G_GINT64_FORMAT, k);
  if (s <= 0)
    FAIL ("max_pool1d() stride must be greater than zero, but got %" G_GINT64_FORMAT, s);
  if (pad < 0)
    FAIL ("max_pool1d() padding must be non-negative, but got %" G_GINT64_FORMAT, pad);
  if (pad > k / 2)
    FAIL ("max_pool1d() padding should be at most half of kernel size, but got padding=%"
          G_GINT64_FORMAT " and kernel_size=%" G_GINT64_FORMAT, pad, k);
  if (d <= 0)
    FAIL ("max_pool1d() dilation must be greater than zero, but got %" G_GINT64_FORMAT, d);
  int64_t ow;
  if (!pool_out_size (input->shape[nd - 1], k, pad, s, d, p->ceil_mode, &ow, error))
    return NULL;
  if (ow < 0)
    FAIL ("max_pool1d() Invalid computed output size: %" G_GINT64_FORMAT, ow);
#undef FAIL
  if (input->dtype != FX_DTYPE_FLOAT32 && input->dtype != FX_DTYPE_FLOAT64)
    {
      not_implemented ("max_pool1d_impl", input->dtype, error);
      return NULL;
    }
  PoolGeom g = { 0 };
  g.h = g.oh = g.kh = g.sh = g.dh = 1;
  g.w = input->shape[nd - 1];
  g.ow = ow;
  g.kw = k;
  g.sw = s;
  g.pw = pad;
  g.dw = d;
  g.planes = fx_tensor_numel (input) / MAX (g.w, 1);
  g_autoptr (FxTensor) in = fx_tensor_contiguous (input);
  int64_t shape[3];
  memcpy (shape, input->shape, sizeof (int64_t) * nd);
  shape[nd - 1] = ow;
  FxTensor *out = fx_tensor_new_uninit (input->dtype, nd, shape);
  PoolJob j = { &g, fx_tensor_data (in), fx_tensor_data (out), NULL, input->dtype, FALSE, 0,
                1 };
  run_max_pool (&j, plane_chunk (&g, k));
  return out;
}

FxTensor *
fx_tensor_max_pool1d (FxTensor *input, const FxPoolParams *p, FxTensor **indices,
                      GError **error)
{
  if (indices == NULL)
    return max_pool1d_plain (input, p, error);
  if (!check_dim_range (input, "max_pool1d", error)
      || !check_1d ("max_pool1d", "kernel_size", p->n_kernel, error)
      || (p->n_stride != 0 && !check_1d ("max_pool1d", "stride", p->n_stride, error))
      || !check_1d ("max_pool1d", "padding", p->n_padding, error)
      || !check_1d ("max_pool1d", "dilation", p->n_dilation, error))
    return NULL;
  FxPoolParams q;
  params_as_2d (p, &q);
  g_autoptr (FxTensor) in = fx_tensor_unsqueeze (input, -2, error);
  if (in == NULL)
    return NULL;
  FxTensor *idx = NULL;
  FxTensor *out = squeeze_h (max_pool2d_impl (in, &q, &idx, error), error);
  if (out == NULL)
    {
      g_clear_pointer (&idx, fx_tensor_unref);
      return NULL;
    }
  *indices = squeeze_h (idx, NULL);
  return out;
}

FxTensor *
fx_tensor_avg_pool1d (FxTensor *input, const FxPoolParams *p, GError **error)
{
  if (!check_dim_range (input, "avg_pool1d", error)
      || !check_1d ("avg_pool1d", "kernel_size", p->n_kernel, error)
      || (p->n_stride != 0 && !check_1d ("avg_pool1d", "stride", p->n_stride, error))
      || !check_1d ("avg_pool1d", "padding", p->n_padding, error))
    return NULL;
  FxPoolParams q;
  params_as_2d (p, &q);
  q.has_divisor = FALSE;
  g_autoptr (FxTensor) in = fx_tensor_unsqueeze (input, -2, error);
  if (in == NULL)
    return NULL;
  return squeeze_h (fx_tensor_avg_pool2d (in, &q, error), error);
}

/* ---- adaptive pools ---- */

static inline int64_t
start_index (int64_t o, int64_t osize, int64_t isize)
{
  return (o * isize) / osize;
}

static inline int64_t
end_index (int64_t o, int64_t osize, int64_t isize)
{
  return ((o + 1) * isize + osize - 1) / osize;
}

#define DEFINE_ADAPTIVE(name, T)                                                          \
  static void                                                                             \
  name (const PoolJob *j, int64_t p0, int64_t p1, gboolean is_max)                        \
  {                                                                                       \
    const PoolGeom *g = j->g;                                                             \
    for (int64_t p = p0; p < p1; p++)                                                     \
      {                                                                                   \
        const T *in = (const T *) j->in + p * g->h * g->w;                                \
        T *out = (T *) j->out + p * g->oh * g->ow;                                        \
        int64_t *idx = j->idx ? j->idx + p * g->oh * g->ow : NULL;                        \
        for (int64_t oh = 0; oh < g->oh; oh++)                                            \
          {                                                                               \
            int64_t h0 = start_index (oh, g->oh, g->h), h1 = end_index (oh, g->oh, g->h); \
            for (int64_t ow = 0; ow < g->ow; ow++)                                        \
              {                                                                           \
                int64_t w0 = start_index (ow, g->ow, g->w);                               \
                int64_t w1 = end_index (ow, g->ow, g->w);                                 \
                if (is_max)                                                               \
                  {                                                                       \
                    T best = in[h0 * g->w + w0];                                          \
                    int64_t bi = h0 * g->w + w0;                                          \
                    for (int64_t ih = h0; ih < h1 && !isnan (best); ih++)                 \
                      for (int64_t iw = w0; iw < w1; iw++)                                \
                        {                                                                 \
                          T v = in[ih * g->w + iw];                                       \
                          if (v > best || isnan (v))                                      \
                            {                                                             \
                              best = v;                                                   \
                              bi = ih * g->w + iw;                                        \
                              if (isnan (v))                                              \
                                break;                                                    \
                            }                                                             \
                        }                                                                 \
                    out[oh * g->ow + ow] = best;                                          \
                    if (idx)                                                              \
                      idx[oh * g->ow + ow] = bi;                                          \
                  }                                                                       \
                else                                                                      \
                  {                                                                       \
                    double sum = 0;                                                       \
                    for (int64_t ih = h0; ih < h1; ih++)                                  \
                      for (int64_t iw = w0; iw < w1; iw++)                                \
                        sum += in[ih * g->w + iw];                                        \
                    out[oh * g->ow + ow] = (T) (sum / ((h1 - h0) * (w1 - w0)));           \
                  }                                                                       \
              }                                                                           \
          }                                                                               \
      }                                                                                   \
  }
DEFINE_ADAPTIVE (adaptive_f32, float)
DEFINE_ADAPTIVE (adaptive_f64, double)

static void
adaptive_avg_job (int64_t p0, int64_t p1, gpointer data)
{
  PoolJob *j = data;
  if (j->dtype == FX_DTYPE_FLOAT32)
    adaptive_f32 (j, p0, p1, FALSE);
  else
    adaptive_f64 (j, p0, p1, FALSE);
}

static void
adaptive_max_job (int64_t p0, int64_t p1, gpointer data)
{
  PoolJob *j = data;
  if (j->dtype == FX_DTYPE_FLOAT32)
    adaptive_f32 (j, p0, p1, TRUE);
  else
    adaptive_f64 (j, p0, p1, TRUE);
}

static FxTensor *
adaptive_run (FxTensor *input, int64_t oh, int64_t ow, gboolean is_max, FxTensor **indices)
{
  PoolGeom g = { 0 };
  g.h = input->shape[input->ndim - 2];
  g.w = input->shape[input->ndim - 1];
  g.oh = oh;
  g.ow = ow;
  g.planes = g.h * g.w > 0 ? fx_tensor_numel (input) / (g.h * g.w) : 0;
  g_autoptr (FxTensor) in = fx_tensor_contiguous (input);
  FxTensor *out = pool_output (input, input->dtype, oh, ow);
  FxTensor *idx = indices ? pool_output (input, FX_DTYPE_INT64, oh, ow) : NULL;
  PoolJob j = { &g, fx_tensor_data (in), fx_tensor_data (out),
                idx ? fx_tensor_data (idx) : NULL, input->dtype, FALSE, 0 };
  int64_t window = (g.h / MAX (oh, 1) + 1) * (g.w / MAX (ow, 1) + 1);
  if (oh * ow > 0)
    fx_parallel_for (g.planes, plane_chunk (&g, window), is_max ? adaptive_max_job
                                                                : adaptive_avg_job, &j);
  if (indices)
    *indices = idx;
  return out;
}

/* dst[p] = mean of plane p (hw values), summed in double for float32 too (no drift over big
 * planes); NaN for empty planes. Eight planes at a time, each summed in order: one plane's
 * chain of dependent adds left the adder idle (ResNet-50's 2048 planes of 49 took 48 us). */
#define PLANE_MEANS_GROUP 8
#define DEFINE_PLANE_MEANS(name, T)                                                       \
  static void                                                                             \
  name (const T *src, T *dst, int64_t planes, int64_t hw)                                 \
  {                                                                                       \
    for (int64_t p0 = 0; p0 < planes; p0 += PLANE_MEANS_GROUP)                            \
      {                                                                                   \
        int np = (int) MIN ((int64_t) PLANE_MEANS_GROUP, planes - p0);                    \
        double sum[PLANE_MEANS_GROUP] = { 0 };                                            \
        for (int64_t i = 0; i < hw; i++)                                                  \
          for (int q = 0; q < np; q++)                                                    \
            sum[q] += src[(p0 + q) * hw + i];                                             \
        for (int q = 0; q < np; q++)                                                      \
          dst[p0 + q] = (T) (hw > 0 ? sum[q] / hw : NAN);                                 \
      }                                                                                   \
  }
DEFINE_PLANE_MEANS (plane_means_f32, float)
DEFINE_PLANE_MEANS (plane_means_f64, double)

typedef struct {
  FxDType dtype;
  const void *src;
  void *dst;
  int64_t hw, planes;
} MeansJob;

/* groups of PLANE_MEANS_GROUP planes [begin, end) */
static void
plane_means_job (int64_t begin, int64_t end, gpointer data)
{
  MeansJob *j = data;
  int64_t p0 = begin * PLANE_MEANS_GROUP, n = MIN (end * PLANE_MEANS_GROUP, j->planes) - p0;
  if (j->dtype == FX_DTYPE_FLOAT32)
    plane_means_f32 ((const float *) j->src + p0 * j->hw, (float *) j->dst + p0, n, j->hw);
  else
    plane_means_f64 ((const double *) j->src + p0 * j->hw, (double *) j->dst + p0, n, j->hw);
}

/* mean over the last two dims, keepdim: what ATen does for an output size of (1, 1). */
static FxTensor *
global_mean (FxTensor *input, GError **error)
{
  if (input->ndim < 2)
    {
      int n = MAX (input->ndim, 1);
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "Dimension out of range (expected to be in "
                   "range of [%d, %d], but got -2)", -n, n - 1);
      return NULL;
    }
  if (input->dtype != FX_DTYPE_FLOAT32 && input->dtype != FX_DTYPE_FLOAT64)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "mean(): could not infer output dtype. Input "
                   "dtype must be either a floating point or complex dtype. Got: %s",
                   fx_dtype_scalar_type_name (input->dtype));
      return NULL;
    }
  int64_t hw = input->shape[input->ndim - 2] * input->shape[input->ndim - 1];
  g_autoptr (FxTensor) in = fx_tensor_contiguous (input);
  FxTensor *out = pool_output (input, input->dtype, 1, 1);
  MeansJob j = { in->dtype, fx_tensor_data (in), fx_tensor_data (out), hw,
                 fx_tensor_numel (out) };
  /* groups of planes, split between the threads: a forward's input (ResNet's last block,
   * split by channels) is then read where it was written */
  fx_parallel_for ((j.planes + PLANE_MEANS_GROUP - 1) / PLANE_MEANS_GROUP,
                   MAX ((int64_t) 1, 4096 / (PLANE_MEANS_GROUP * MAX (hw, (int64_t) 1))),
                   plane_means_job, &j);
  return out;
}

FxTensor *
fx_tensor_adaptive_avg_pool2d (FxTensor *input, int n, const int64_t *output_size,
                               GError **error)
{
  if (n != 2)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "adaptive_avg_pool2d: output_size must be 2");
      return NULL;
    }
  int64_t os[2] = { output_size[0], output_size[1] };
  if (os[0] < 0 || os[1] < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "adaptive_avg_pool2d: elements of "
                   "output_size must be greater than or equal to 0 but received {%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "}", os[0], os[1]);
      return NULL;
    }
  if (os[0] == 1 && os[1] == 1)
    return global_mean (input, error);
  int nd = input->ndim;
  if (nd != 3 && nd != 4)
    {
      g_autofree char *s = list_str (nd, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", s);
      return NULL;
    }
  for (int i = nd - 2; i < nd; i++)
    if (input->shape[i] <= 0)
      {
        g_autofree char *s = list_str (nd, input->shape);
        g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "adaptive_avg_pool2d(): Expected input to "
                     "have non-zero size for non-batch dimensions, but input has sizes %s with "
                     "dimension %d being empty", s, i);
        return NULL;
      }
  if (input->dtype != FX_DTYPE_FLOAT32 && input->dtype != FX_DTYPE_FLOAT64)
    {
      not_implemented ("adaptive_avg_pool2d", input->dtype, error);
      return NULL;
    }
  return adaptive_run (input, os[0], os[1], FALSE, NULL);
}

FxTensor *
fx_tensor_adaptive_max_pool2d (FxTensor *input, int n, const int64_t *output_size,
                               FxTensor **indices, GError **error)
{
  int nd = input->ndim;
  if (nd != 3 && nd != 4)
    {
      g_autofree char *s = list_str (nd, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: %s", s);
      return NULL;
    }
  for (int i = 1; i < nd; i++)
    if (input->shape[i] <= 0)
      {
        g_autofree char *s = list_str (nd, input->shape);
        g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "adaptive_max_pool2d(): Expected input to "
                     "have non-zero size for non-batch dimensions, but input has sizes %s with "
                     "dimension %d being empty", s, i);
        return NULL;
      }
  if (n != 2)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "adaptive_max_pool2d(): internal error: output_size.size() must be 2");
      return NULL;
    }
  int64_t os[2] = { output_size[0], output_size[1] };
  if (os[0] < 0 || os[1] < 0)
    {
      int64_t shape[FX_TENSOR_MAX_DIMS];
      memcpy (shape, input->shape, sizeof (int64_t) * nd);
      shape[nd - 2] = os[0];
      shape[nd - 1] = os[1];
      g_autofree char *s = list_str (nd, shape);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Trying to create tensor with negative "
                   "dimension %" G_GINT64_FORMAT ": %s", os[0] < 0 ? os[0] : os[1], s);
      return NULL;
    }
  if (input->dtype != FX_DTYPE_FLOAT32 && input->dtype != FX_DTYPE_FLOAT64)
    {
      not_implemented ("adaptive_max_pool2d", input->dtype, error);
      return NULL;
    }
  FxTensor *idx = NULL;
  FxTensor *out = adaptive_run (input, os[0], os[1], TRUE, &idx);
  if (indices)
    *indices = idx;
  else
    fx_tensor_unref (idx);
  return out;
}

FxTensor *
fx_tensor_adaptive_avg_pool1d (FxTensor *input, int n, const int64_t *output_size,
                               GError **error)
{
  if (!check_dim_range (input, "adaptive_avg_pool1d", error)
      || !check_1d ("adaptive_avg_pool1d", "output_size", n, error))
    return NULL;
  g_autoptr (FxTensor) in = fx_tensor_unsqueeze (input, -2, error);
  if (in == NULL)
    return NULL;
  int64_t os[2] = { 1, output_size[0] };
  return squeeze_h (fx_tensor_adaptive_avg_pool2d (in, 2, os, error), error);
}

FxTensor *
fx_tensor_adaptive_max_pool1d (FxTensor *input, int n, const int64_t *output_size,
                               FxTensor **indices, GError **error)
{
  if (!check_dim_range (input, "adaptive_max_pool1d", error)
      || !check_1d ("adaptive_max_pool1d", "output_size", n, error))
    return NULL;
  g_autoptr (FxTensor) in = fx_tensor_unsqueeze (input, -2, error);
  if (in == NULL)
    return NULL;
  int64_t os[2] = { 1, output_size[0] };
  FxTensor *idx = NULL;
  FxTensor *out = squeeze_h (fx_tensor_adaptive_max_pool2d (in, 2, os, &idx, error), error);
  if (out == NULL)
    {
      g_clear_pointer (&idx, fx_tensor_unref);
      return NULL;
    }
  idx = squeeze_h (idx, NULL);
  if (indices)
    *indices = idx;
  else
    fx_tensor_unref (idx);
  return out;
}
