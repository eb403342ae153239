/* conv.c: conv1d/conv2d and their transposes. Arguments are checked in ATen's order (its
 * first error is the one reported); float32/float64 run as im2col + one gemm per image and
 * group (1×1 stride-1 convolutions are a gemm on the input itself, depthwise ones a direct
 * loop, float32 3×3 stride-1 ones Winograd's algorithm when winograd.c's cost model says
 * so; an eval-mode BatchNorm and ReLU may ride along on each output tile: conv2d_fused),
 * transposed convolutions as gemm + col2im, integer types as direct loops. 1-d
 * convolutions run as 2-d ones of height 1, as in ATen. */
#include "tensor/conv.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "fx-error.h"
#include "tensor/blas.h"
#include "tensor/winograd.h"

/* ---- names in messages ---- */

/* "[1, 2, 3]" */
static char *
list_str (int n, const int64_t *v)
{
  GString *s = g_string_new ("[");
  for (int i = 0; i < n; i++)
    g_string_append_printf (s, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, v[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* "5 x 5" */
static char *
x_str (int n, const int64_t *v)
{
  GString *s = g_string_new (NULL);
  for (int i = 0; i < n; i++)
    g_string_append_printf (s, i ? " x %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, v[i]);
  return g_string_free (s, FALSE);
}

#define SET_ERROR_SHAPES(error, fmt, ...) \
  g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, fmt, __VA_ARGS__)

void
fx_conv_params_init (FxConvParams *p)
{
  memset (p, 0, sizeof *p);
  p->n_stride = p->n_padding = p->n_dilation = p->n_output_padding = 1;
  p->stride[0] = 1;
  p->dilation[0] = 1;
  p->groups = 1;
}

/* ---- the convolution proper: checks ---- */

typedef struct {
  int dim;                                   /* spatial dims */
  int64_t stride[FX_TENSOR_MAX_DIMS], padding[FX_TENSOR_MAX_DIMS];
  int64_t dilation[FX_TENSOR_MAX_DIMS], output_padding[FX_TENSOR_MAX_DIMS];
  int64_t groups;
  gboolean transposed;
} ConvSetup;

static gboolean
expand_param (const char *name, int n, const int64_t *v, int dim, int64_t *out, GError **error)
{
  if (n != 1 && n != dim)
    {
      char *l = list_str (n, v);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "expected %s to be a single integer value or a list of %d values to match "
                   "the convolution dimensions, but got %s=%s", name, dim, name, l);
      g_free (l);
      return FALSE;
    }
  for (int i = 0; i < dim; i++)
    out[i] = v[n == 1 ? 0 : i];
  return TRUE;
}

/* ATen's check_shape_forward. */
static gboolean
check_shape_forward (FxTensor *input, FxTensor *weight, FxTensor *bias, const ConvSetup *s,
                     GError **error)
{
  int k = input->ndim, wd = weight->ndim;
  const int64_t *ws = weight->shape;
  int64_t groups = s->groups;
  for (int i = 0; i < s->dim; i++)
    if (s->padding[i] < 0)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "negative padding is not supported");
        return FALSE;
      }
  for (int i = 0; i < s->dim; i++)
    if (s->output_padding[i] < 0)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "negative output_padding is not supported");
        return FALSE;
      }
  for (int i = 0; i < s->dim; i++)
    if (s->stride[i] <= 0)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "non-positive stride is not supported");
        return FALSE;
      }

  /* the shapes as text, made only for an error message (formatting them on every call was
   * a tenth of a small conv's time) */
  g_autofree char *wstr = NULL, *istr = NULL;
#define SHAPES_TEXT() (wstr = list_str (wd, ws), istr = list_str (k, input->shape))
  if (wd != k)
    {
      SHAPES_TEXT ();
      SET_ERROR_SHAPES (error, "Expected %d-dimensional input for %d-dimensional weight %s, "
                        "but got %d-dimensional input of size %s instead", wd, wd, wstr, k, istr);
      return FALSE;
    }
  if (ws[0] < groups)
    {
      SHAPES_TEXT ();
      SET_ERROR_SHAPES (error, "Given groups=%" G_GINT64_FORMAT ", expected weight to be at "
                        "least %" G_GINT64_FORMAT " at dimension 0, but got weight of size %s "
                        "instead", groups, groups, wstr);
      return FALSE;
    }
  if (ws[0] % groups != 0)
    {
      SHAPES_TEXT ();
      SET_ERROR_SHAPES (error, "Given groups=%" G_GINT64_FORMAT ", expected weight to be "
                        "divisible by %" G_GINT64_FORMAT " at dimension 0, but got weight of "
                        "size [%s] instead", groups, groups, wstr);
      return FALSE;
    }
  if (!s->transposed)
    {
      if (input->shape[1] != ws[1] * groups)
        {
          SHAPES_TEXT ();
          SET_ERROR_SHAPES (error, "Given groups=%" G_GINT64_FORMAT ", weight of size %s, "
                            "expected input%s to have %" G_GINT64_FORMAT " channels, but got %"
                            G_GINT64_FORMAT " channels instead", groups, wstr, istr,
                            ws[1] * groups, input->shape[1]);
          return FALSE;
        }
      if (bias != NULL && !(bias->ndim == 1 && bias->shape[0] == ws[0]))
        {
          g_autofree char *bstr = list_str (bias->ndim, bias->shape);
          SHAPES_TEXT ();
          SET_ERROR_SHAPES (error, "Given weight of size %s, expected bias to be 1-dimensional "
                            "with %" G_GINT64_FORMAT " elements, but got bias of size %s "
                            "instead", wstr, ws[0], bstr);
          return FALSE;
        }
      int64_t in_shape[FX_TENSOR_MAX_DIMS], k_shape[FX_TENSOR_MAX_DIMS];
      gboolean fits = TRUE;
      for (int i = 2; i < k; i++)
        {
          in_shape[i - 2] = input->shape[i] + 2 * s->padding[i - 2];
          k_shape[i - 2] = s->dilation[i - 2] * (ws[i] - 1) + 1;
          if (in_shape[i - 2] < k_shape[i - 2])
            fits = FALSE;
        }
      if (!fits)
        {
          g_autofree char *a = x_str (k - 2, in_shape), *b = x_str (k - 2, k_shape);
          SHAPES_TEXT ();
          SET_ERROR_SHAPES (error, "Calculated padded input size per channel: (%s). Kernel "
                            "size: (%s). Kernel size can't be greater than actual input size",
                            a, b);
          return FALSE;
        }
    }
  else
    {
      if (input->shape[1] != ws[0])
        {
          SHAPES_TEXT ();
          SET_ERROR_SHAPES (error, "Given transposed=1, weight of size %s, expected input%s to "
                            "have %" G_GINT64_FORMAT " channels, but got %" G_GINT64_FORMAT
                            " channels instead", wstr, istr, ws[0], input->shape[1]);
          return FALSE;
        }
      if (bias != NULL && !(bias->ndim == 1 && bias->shape[0] == ws[1] * groups))
        {
          g_autofree char *bstr = list_str (bias->ndim, bias->shape);
          SHAPES_TEXT ();
          SET_ERROR_SHAPES (error, "Given transposed=1, weight of size %s, expected bias to be "
                            "1-dimensional with %" G_GINT64_FORMAT " elements, but got bias of "
                            "size %s instead", wstr, ws[1] * groups, bstr);
          return FALSE;
        }
    }
  return TRUE;
#undef SHAPES_TEXT
}

/* ---- compute ---- */

/* Everything a 2-d kernel needs; 1-d convolutions arrive with height 1. */
typedef struct {
  int64_t n, c, h, w;           /* input */
  int64_t o, kh, kw;            /* output channels, kernel */
  int64_t oh, ow;               /* output spatial size */
  int64_t sh, sw, ph, pw, dh, dw;
  int64_t groups;
  /* floats from one channel's plane to the next: h·w and oh·ow, or more when the planes are
   * padded to whole cache lines (fx_conv_plane_stride; float32 gemm and Winograd paths) */
  int64_t in_plane, out_plane;
} Geom;

/* The indices i in [0, limit) with 0 <= off + stride·i < extent: [*lo, *hi) (empty: lo = hi):
 * the output columns of a kernel tap whose input column is inside the image, or (transposed)
 * the input columns whose output column is. */
static inline void
strided_span (int64_t off, int64_t extent, int64_t stride, int64_t limit, int64_t *lo,
              int64_t *hi)
{
  *hi = extent - off <= 0 ? 0 : MIN ((extent - off + stride - 1) / stride, limit);
  *lo = MIN (off >= 0 ? 0 : (-off + stride - 1) / stride, *hi);
}

/* dst[i] = src[2 i]: stride-2 convolutions gather every other input column (float32 ones
 * only without AVX-512: im2col_f32_avx512_s2 below has its own). SSE2 (part of x86-64)
 * picks four per shuffle; plain C elsewhere. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

static inline void
gather2_f32 (float *dst, const float *src, int64_t n)
{
  int64_t i = 0;
#ifdef __SSE2__
  /* i + 5 <= n: the second load reads src[2i + 7], which must not pass src[2(n-1)] */
  for (; i + 5 <= n; i += 4)
    {
      __m128 a = _mm_loadu_ps (src + 2 * i), b = _mm_loadu_ps (src + 2 * i + 4);
      _mm_storeu_ps (dst + i, _mm_shuffle_ps (a, b, _MM_SHUFFLE (2, 0, 2, 0)));
    }
#endif
  for (; i < n; i++)
    dst[i] = src[2 * i];
}

static inline void
gather2_f64 (double *dst, const double *src, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    dst[i] = src[2 * i];
}

#define DEFINE_IM2COL(name, T, gather2)                                                   \
  /* cols[(c*kh + ki)*kw + kj][j - j0] = in[c][oh*sh - ph + ki*dh][ow*sw - pw + kj*dw]      \
   * for output positions j = oh*ow_n + ow in [j0, j1) and channels [c0, c1), rows of cols  \
   * ld elements apart. Offsets stay integers until they are known to be inside the         \
   * buffers. */                                                                            \
  static void                                                                             \
  name (const Geom *g, const T *in, T *cols, int64_t c0, int64_t c1, int64_t j0,          \
        int64_t j1, int64_t ld)                                                           \
  {                                                                                       \
    /* Stride 1 with the output as wide as the input ("same" padding): each column row is   \
     * the input plane shifted by a constant, so one copy fills it and only the padding     \
     * needs zeros; the row by row path below costs more than the copying on small images.  \
     * Positions j [j0, j1) read input element j + dr*w + dc. */                            \
    if (g->sh == 1 && g->sw == 1 && g->dw == 1 && g->ow == g->w)                          \
      {                                                                                   \
        for (int64_t c = c0; c < c1; c++)                                                 \
          for (int64_t ki = 0; ki < g->kh; ki++)                                          \
            for (int64_t kj = 0; kj < g->kw; kj++)                                        \
              {                                                                           \
                T *row = cols + ((c * g->kh + ki) * g->kw + kj) * ld;                     \
                const T *plane = in + c * g->in_plane;                                    \
                int64_t dr = ki * g->dh - g->ph, dc = kj - g->pw, ow = g->ow;             \
                int64_t r0 = MAX (-dr, 0), r1 = MIN (g->oh, g->h - dr);                   \
                int64_t lo = MAX (-dc, 0), hi = MIN (ow, g->w - dc);                      \
                int64_t s0 = j0, s1 = j0;   /* the copied span */                         \
                if (r1 > r0 && hi > lo)                                                   \
                  {                                                                       \
                    s0 = MAX (j0, r0 * ow + lo);                                          \
                    s1 = MAX (s0, MIN (j1, (r1 - 1) * ow + hi));                          \
                  }                                                                       \
                memset (row, 0, sizeof (T) * (s0 - j0));                                  \
                memcpy (row + (s0 - j0), plane + s0 + dr * g->w + dc,                     \
                        sizeof (T) * (s1 - s0));                                          \
                memset (row + (s1 - j0), 0, sizeof (T) * (j1 - s1));                      \
                if (s1 > s0 && (lo > 0 || hi < ow))                                       \
                  for (int64_t oh = s0 / ow; oh * ow < s1; oh++)                          \
                    {                                                                     \
                      int64_t a = oh * ow, b = a + ow;                                    \
                      for (int64_t x = MAX (a, s0); x < MIN (a + lo, s1); x++)            \
                        row[x - j0] = 0;                                                  \
                      for (int64_t x = MAX (a + hi, s0); x < MIN (b, s1); x++)            \
                        row[x - j0] = 0;                                                  \
                    }                                                                     \
              }                                                                           \
        return;                                                                           \
      }                                                                                   \
    for (int64_t c = c0; c < c1; c++)                                                     \
      for (int64_t ki = 0; ki < g->kh; ki++)                                              \
        for (int64_t kj = 0; kj < g->kw; kj++)                                            \
          {                                                                               \
            T *row = cols + ((c * g->kh + ki) * g->kw + kj) * ld;                         \
            int64_t iw0 = kj * g->dw - g->pw, lo, hi;                                     \
            strided_span (iw0, g->w, g->sw, g->ow, &lo, &hi);                             \
            for (int64_t oh = j0 / g->ow; oh * g->ow < j1; oh++)                          \
              {                                                                           \
                int64_t a = MAX (j0 - oh * g->ow, 0), b = MIN (j1 - oh * g->ow, g->ow);   \
                T *dst = row + (oh * g->ow + a - j0);   /* output column a */             \
                int64_t ih = oh * g->sh - g->ph + ki * g->dh;                             \
                if (ih < 0 || ih >= g->h)                                                 \
                  {                                                                       \
                    memset (dst, 0, sizeof (T) * (b - a));                                \
                    continue;                                                             \
                  }                                                                       \
                const T *src = in + c * g->in_plane + ih * g->w;                          \
                int64_t l = CLAMP (lo, a, b), h = CLAMP (hi, a, b);                       \
                for (int64_t ow = a; ow < l; ow++)                                        \
                  dst[ow - a] = 0;                                                        \
                if (g->sw == 1)                                                           \
                  memcpy (dst + (l - a), src + (iw0 + l), sizeof (T) * (h - l));          \
                else if (g->sw == 2)                                                      \
                  gather2 (dst + (l - a), src + (iw0 + 2 * l), h - l);                    \
                else                                                                      \
                  for (int64_t ow = l; ow < h; ow++)                                      \
                    dst[ow - a] = src[iw0 + ow * g->sw];                                  \
                for (int64_t ow = h; ow < b; ow++)                                        \
                  dst[ow - a] = 0;                                                        \
              }                                                                           \
          }                                                                               \
  }
DEFINE_IM2COL (im2col_f32_rows, float, gather2_f32)
DEFINE_IM2COL (im2col_f64, double, gather2_f64)

#if defined(__x86_64__) && defined(__GNUC__)
/* Contiguous mask of bits [lo, hi) (none when hi <= lo), lo and hi in [0, 32]. */
static inline uint32_t
bit_range (int64_t lo, int64_t hi)
{
  if (hi <= lo)
    return 0;
  uint64_t top = hi >= 32 ? 0xffffffffu : ((uint64_t) 1 << hi) - 1;
  return (uint32_t) (top & ~(((uint64_t) 1 << lo) - 1));
}

/* Lanes 0..15 = elements 0, sw, .. 15 sw of the floats from element `off` of `base` on
 * (sw 1 or 2), of which only those whose bit is set in m are read: the others are zeros and
 * do not touch memory. The address is made as an integer: with padding it lies before or
 * after the row (the buffer, even), where only masked-off elements are. */
__attribute__ ((target ("avx512f"))) static inline __m512
strided_vec (uintptr_t base, int64_t off, uint32_t m, int sw, __m512i evens)
{
  const float *p = (const float *) (base + (uintptr_t) off * sizeof (float));
  if (sw == 1)
    return _mm512_maskz_loadu_ps ((__mmask16) m, p);
  return _mm512_permutex2var_ps (_mm512_maskz_loadu_ps ((__mmask16) m, p), evens,
                                 _mm512_maskz_loadu_ps ((__mmask16) (m >> 16), p + 16));
}

/* The mask of strided_vec's elements for lanes [vl, vh): bits sw·vl .. sw·(vh - 1). */
static inline uint32_t
lane_bits (int64_t vl, int64_t vh, int sw)
{
  return bit_range (sw * vl, sw * vh - (sw - 1));
}

/* Channels ahead whose input rows the gather prefetches: in a forward the input was just
 * written, half of it in the other core's cache, and the hardware's prefetchers left the
 * gather waiting for it — a quarter of ResNet-50's strided 3×3 layers' time, and a third of
 * its 1×1 stride-2 ones' (layer3.0.downsample: 750-900 → 600-720 µs; a forward's three
 * strided and three downsampling layers together 5.0-6.3 → 4.7-5.7 ms, 9 of 10 alternating
 * runs). */
#define IM2COL_PREFETCH_PLANES 2
#define IM2COL_MAX_VECS 8   /* output rows of up to 128 columns reuse masks made once */

/* dst[x - x0] for x in [x0, x1): the float `off + sw·x` from base (strided_vec's addressing)
 * for x in [lo, hi), zero elsewhere; lanes outside [lo, hi) do not touch memory. */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
strided_row (float *dst, uintptr_t base, int64_t off, int64_t x0, int64_t x1, int64_t lo,
             int64_t hi, int sw, __m512i evens)
{
  for (int64_t x = x0; x < x1; x += 16)
    {
      int64_t n = MIN ((int64_t) 16, x1 - x);
      _mm512_mask_storeu_ps (dst + (x - x0), (__mmask16) bit_range (0, n),
                             strided_vec (base, off + sw * x,
                                          lane_bits (CLAMP (lo - x, 0, n), CLAMP (hi - x, 0, n),
                                                     sw),
                                          sw, evens));
    }
}

/* im2col_f32_rows with AVX-512, for stride sw (a constant once inlined): each output row's
 * piece of a column row is a few vectors, each a masked load (stride 2: two and a shuffle)
 * and a masked store, where the load masks hold the lanes inside the image (the others load
 * as the padding's zeros; masked-off lanes do not touch memory, so the addresses may point
 * outside the row). For stride 2 the generic path's memset/gather calls per piece cost 3
 * times as much on the short rows of ResNet's strided layers (7-112 columns): its gathering
 * took a quarter of their 3×3 convolutions' time. Stride 1 (sw 1) measured no faster than
 * its "same"-padding copy, so only stride 2 uses this. The masks of a whole output row are
 * the same for every row: they are made once per column row. */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
im2col_f32_vec (const Geom *g, const int sw, const float *in, float *cols, int64_t c0,
                int64_t c1, int64_t j0, int64_t j1, int64_t ld)
{
  const __m512i evens = _mm512_setr_epi32 (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                           28, 30);
  uintptr_t base = (uintptr_t) in;
  int64_t ow = g->ow, nvec = (ow + 15) / 16;
  gboolean whole_masks = nvec <= IM2COL_MAX_VECS;
  uint32_t row_m[IM2COL_MAX_VECS];
  __mmask16 row_sm[IM2COL_MAX_VECS];
  /* the input rows that positions [j0, j1) read */
  int64_t ih_lo = MAX ((int64_t) 0, (j0 / ow) * g->sh - g->ph);
  int64_t ih_hi = MIN (g->h, ((j1 - 1) / ow) * g->sh - g->ph + (g->kh - 1) * g->dh + 1);
  for (int64_t c = c0; c < c1; c++)
    {
      if (c + IM2COL_PREFETCH_PLANES < c1 && ih_hi > ih_lo)
        {
          const float *ahead = in + (c + IM2COL_PREFETCH_PLANES) * g->in_plane;
          fx_prefetch_range (ahead + ih_lo * g->w, ahead + ih_hi * g->w, FALSE);
        }
      /* and the next channel's rows of columns, for writing: the scratch buffer was last
       * written layers before, and its lines came back from memory one store at a time (the
       * three strided and three downsampling layers of a ResNet-50 forward: 0.2 ms less in 6
       * of 8 alternating runs) */
      if (c + 1 < c1)
        fx_prefetch_range (cols + (c + 1) * g->kh * g->kw * ld,
                           cols + (c + 2) * g->kh * g->kw * ld, TRUE);
      for (int64_t ki = 0; ki < g->kh; ki++)
        for (int64_t kj = 0; kj < g->kw; kj++)
          {
            float *row = cols + ((c * g->kh + ki) * g->kw + kj) * ld;
            int64_t iw0 = kj * g->dw - g->pw, lo, hi;
            strided_span (iw0, g->w, sw, ow, &lo, &hi);
            for (int64_t v = 0; whole_masks && v < nvec; v++)
              {
                int64_t n = MIN ((int64_t) 16, ow - 16 * v);
                row_m[v] = lane_bits (CLAMP (lo - 16 * v, 0, n), CLAMP (hi - 16 * v, 0, n), sw);
                row_sm[v] = (__mmask16) bit_range (0, n);
              }
            for (int64_t oh = j0 / ow; oh * ow < j1; oh++)
              {
                int64_t a = MAX (j0 - oh * ow, 0), b = MIN (j1 - oh * ow, ow);
                float *dst = row + (oh * ow + a - j0);   /* output column a */
                int64_t ih = oh * g->sh - g->ph + ki * g->dh;
                gboolean inside = ih >= 0 && ih < g->h;
                /* the input element of output column 0 (perhaps in the padding) */
                int64_t src = c * g->in_plane + (inside ? ih : 0) * g->w + iw0;
                if (whole_masks && a == 0 && b == ow)
                  {
                    for (int64_t v = 0; v < nvec; v++)
                      _mm512_mask_storeu_ps (dst + 16 * v, row_sm[v],
                                             inside ? strided_vec (base, src + 16 * sw * v,
                                                                   row_m[v], sw, evens)
                                                    : _mm512_setzero_ps ());
                    continue;
                  }
                strided_row (dst, base, src, a, b, lo, inside ? hi : lo, sw, evens);
              }
          }
    }
}

__attribute__ ((target ("avx512f"))) static void
im2col_f32_avx512_s2 (const Geom *g, const float *in, float *cols, int64_t c0, int64_t c1,
                      int64_t j0, int64_t j1, int64_t ld)
{
  im2col_f32_vec (g, 2, in, cols, c0, c1, j0, j1, ld);
}
#endif

static void
im2col_f32 (const Geom *g, const float *in, float *cols, int64_t c0, int64_t c1, int64_t j0,
            int64_t j1, int64_t ld)
{
#if defined(__x86_64__) && defined(__GNUC__)
  if (g->sw == 2 && fx_cpu_has_avx512 ())
    {
      im2col_f32_avx512_s2 (g, in, cols, c0, c1, j0, j1, ld);
      return;
    }
#endif
  im2col_f32_rows (g, in, cols, c0, c1, j0, j1, ld);
}

#define DEFINE_COL2IM(name, T)                                                            \
  /* out[o][oh][ow] += cols[(o*kh + ki)*kw + kj][ih*w + iw], oh = ih*sh - ph + ki*dh, for  \
   * output channels [o0, o1) of one group (input spatial g->h × g->w). */                \
  static void                                                                             \
  name (const Geom *g, const T *cols, T *out, int64_t o0, int64_t o1)                     \
  {                                                                                       \
    int64_t ncols = g->h * g->w;                                                          \
    for (int64_t o = o0; o < o1; o++)                                                     \
      for (int64_t ki = 0; ki < g->kh; ki++)                                              \
        for (int64_t kj = 0; kj < g->kw; kj++)                                            \
          {                                                                               \
            const T *row = cols + ((o * g->kh + ki) * g->kw + kj) * ncols;                \
            int64_t ow0 = kj * g->dw - g->pw, lo, hi;                                     \
            strided_span (ow0, g->ow, g->sw, g->w, &lo, &hi);                             \
            for (int64_t ih = 0; ih < g->h; ih++)                                         \
              {                                                                           \
                int64_t oh = ih * g->sh - g->ph + ki * g->dh;                             \
                if (oh < 0 || oh >= g->oh)                                                \
                  continue;                                                               \
                T *dst = out + (o * g->oh + oh) * g->ow;                                  \
                const T *src = row + ih * g->w;                                           \
                for (int64_t iw = lo; iw < hi; iw++)                                      \
                  dst[ow0 + iw * g->sw] += src[iw];                                       \
              }                                                                           \
          }                                                                               \
  }
DEFINE_COL2IM (col2im_f32, float)
DEFINE_COL2IM (col2im_f64, double)

typedef struct {
  const Geom *g;
  void *cols;
  void *out;
  FxDType dtype;
} ColsJob;

static void
col2im_job (int64_t begin, int64_t end, gpointer data)
{
  ColsJob *j = data;
  if (j->dtype == FX_DTYPE_FLOAT32)
    col2im_f32 (j->g, j->cols, j->out, begin, end);
  else
    col2im_f64 (j->g, j->cols, j->out, begin, end);
}

/* im2col of input channels [begin, end) over all output positions (j->out: the input). */
static void
im2col_job (int64_t begin, int64_t end, gpointer data)
{
  ColsJob *j = data;
  if (j->dtype == FX_DTYPE_FLOAT32)
    im2col_f32 (j->g, j->out, j->cols, begin, end, 0, j->g->oh * j->g->ow,
                j->g->oh * j->g->ow);
  else
    im2col_f64 (j->g, j->out, j->cols, begin, end, 0, j->g->oh * j->g->ow,
                j->g->oh * j->g->ow);
}

/* Chunks of channels big enough that splitting them pays (~64K elements each). */
static int64_t
channel_chunk (int64_t per_channel)
{
  return MAX (1, 65536 / MAX (per_channel, 1));
}

/* Fills each of n planes of `plane` elements with bias[i] (or zeros). */
static void
fill_bias (FxDType dt, void *out, const void *bias, int64_t n, int64_t plane)
{
  for (int64_t i = 0; i < n; i++)
    {
      if (dt == FX_DTYPE_FLOAT32)
        {
          float *p = (float *) out + i * plane, v = bias ? ((const float *) bias)[i] : 0.f;
          for (int64_t j = 0; j < plane; j++)
            p[j] = v;
        }
      else
        {
          double *p = (double *) out + i * plane, v = bias ? ((const double *) bias)[i] : 0.;
          for (int64_t j = 0; j < plane; j++)
            p[j] = v;
        }
    }
}

/* ---- depthwise (groups == channels, one input channel per group): direct loop ---- */

typedef struct {
  const Geom *g;
  const float *in, *w, *bias;
  float *out;
} DwJob;

static void
depthwise_job (int64_t begin, int64_t end, gpointer data)
{
  DwJob *j = data;
  const Geom *g = j->g;
  int64_t mult = g->o / g->c;
  for (int64_t plane = begin; plane < end; plane++)
    {
      int64_t n = plane / g->o, o = plane % g->o, c = o / mult;
      const float *in = j->in + (n * g->c + c) * g->h * g->w;
      const float *w = j->w + o * g->kh * g->kw;
      float *out = j->out + plane * g->oh * g->ow;
      float b = j->bias ? j->bias[o] : 0.f;
      for (int64_t i = 0; i < g->oh * g->ow; i++)
        out[i] = b;
      for (int64_t ki = 0; ki < g->kh; ki++)
        for (int64_t kj = 0; kj < g->kw; kj++)
          {
            float wv = w[ki * g->kw + kj];
            int64_t iw0 = kj * g->dw - g->pw, lo, hi;
            strided_span (iw0, g->w, g->sw, g->ow, &lo, &hi);
            for (int64_t oh = 0; oh < g->oh; oh++)
              {
                int64_t ih = oh * g->sh - g->ph + ki * g->dh;
                if (ih < 0 || ih >= g->h)
                  continue;
                const float *src = in + ih * g->w;
                float *dst = out + oh * g->ow;
                if (g->sw == 1)
                  for (int64_t ow = lo; ow < hi; ow++)
                    dst[ow] += wv * src[iw0 + ow];
                else
                  for (int64_t ow = lo; ow < hi; ow++)
                    dst[ow] += wv * src[iw0 + ow * g->sw];
              }
          }
    }
}

/* ---- float convolution: im2col + gemm, in tasks ----
 * A task is one image, one group, one tile of output positions and one slice of output
 * channels: it writes the tile's im2col columns into a per-thread buffer sized to stay in the
 * core's L2 cache, then runs one single-threaded gemm from it into the output. Tasks are
 * claimed dynamically by libfx's threads, which keeps both cores busy even when one of them
 * is shared with another process (OpenBLAS's own static split stalls then), and spreads the
 * im2col work as well. */

typedef struct {
  const Geom *g;
  FxDType dt;
  const char *in, *w, *bias;
  char *out;
  int64_t cg, og, k, ncols;
  int64_t tile, n_tiles, mchunk, n_mchunks;
  gboolean direct;        /* 1×1, stride 1, no padding: the input is the column matrix */
  const FxConvEpilogue *ep;   /* float32 only; applied to each tile while it is in cache */
  const void *shared_cols;    /* all columns, gathered once for every slice of channels */
  guint64 call;               /* slices of channels: this call's number (cols_made) */
  /* two threads on the image's one product (conv_forward_float): task t is side t */
  FxGemmShare *share;
} GemmConvJob;

/* What fx_sgemm_stream / fx_gemm_epilogue_rows do for output channels o0... : bias (or
 * NULL), then ep's steps (ep may be NULL), res the residual at the first output (or NULL),
 * its rows ldr apart. */
static FxGemmEpilogue
gemm_epilogue (const FxConvEpilogue *ep, const float *bias, int64_t o0, const float *res,
               int64_t ldr)
{
  return (FxGemmEpilogue) { bias, ep ? ep->scale_shift + 2 * o0 : NULL, res, ldr,
                            ep && ep->relu };
}

/* ep on rows [0, m) of `width` values, `ld` apart, of output channels o0... (res: the
 * residual at out's place, or NULL). */
static void
epilogue_rows (const FxConvEpilogue *ep, float *out, const float *res, int64_t o0, int64_t m,
               int64_t width, int64_t ld)
{
  FxGemmEpilogue gep = gemm_epilogue (ep, NULL, o0, res, ld);
  fx_gemm_epilogue_rows (&gep, out, ld, m, width);
}

void
fx_conv_epilogue_row (const FxConvEpilogue *ep, int64_t channel, float *row, const float *res,
                      int64_t width)
{
  epilogue_rows (ep, row, res, channel, 1, width, width);
}

const float *
fx_conv_epilogue_residual_at (const FxConvEpilogue *ep, const float *out, const float *at)
{
  return ep->residual ? (const float *) fx_tensor_data (ep->residual) + (at - out) : NULL;
}

int64_t
fx_conv_plane_stride (const FxTensor *t)
{
  if (t->ndim != 4)
    return 0;
  int64_t hw = t->shape[2] * t->shape[3], p = t->strides[1];
  if (fx_tensor_is_contiguous (t))
    return hw;
  if (t->shape[1] < 2 || p < hw || (t->shape[3] > 1 && t->strides[3] != 1)
      || (t->shape[2] > 1 && t->strides[2] != t->shape[3])
      || (t->shape[0] > 1 && t->strides[0] != t->shape[1] * p))
    return 0;
  return p;
}

/* ep, or (its residual's planes padded) *copy with a contiguous copy of the residual, which
 * *holder keeps. */
static const FxConvEpilogue *
residual_unpadded (const FxConvEpilogue *ep, FxConvEpilogue *copy, FxTensor **holder)
{
  const FxTensor *r = ep ? ep->residual : NULL;
  if (r == NULL || r->ndim != 4 || fx_conv_plane_stride (r) <= r->shape[2] * r->shape[3])
    return ep;
  *holder = fx_tensor_contiguous ((FxTensor *) r);
  *copy = *ep;
  copy->residual = *holder;
  return copy;
}

/* Whether ep's residual (if any) is one the epilogue can add as it is: float32, exactly the
 * output's shape, laid out as the output (contiguous, or planes `plane` floats apart: out_plane
 * of a 4-d output); else an error (broadcasting and promotion are the add's). */
static gboolean
residual_fits (const FxConvEpilogue *ep, int ndim, const int64_t *shape, int64_t plane,
               GError **error)
{
  const FxTensor *r = ep ? ep->residual : NULL;
  if (r == NULL || (r->dtype == FX_DTYPE_FLOAT32 && r->ndim == ndim
                    && memcmp (r->shape, shape, sizeof (int64_t) * ndim) == 0
                    && (ndim == 4 && plane > shape[2] * shape[3]
                          ? fx_conv_plane_stride (r) == plane
                          : fx_tensor_is_contiguous (r))))
    return TRUE;
  g_autofree char *want = list_str (ndim, shape), *got = list_str (r->ndim, r->shape);
  g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "conv2d_fused: the residual must be a "
               "contiguous float32 tensor of the output's size %s, but got a%s %s tensor of "
               "size %s", want, fx_tensor_is_contiguous (r) ? "" : " non-contiguous",
               fx_dtype_scalar_type_name (r->dtype), got);
  return FALSE;
}

static GPrivate cols_scratch = G_PRIVATE_INIT (g_aligned_free);
static GPrivate cols_scratch_size = G_PRIVATE_INIT (NULL);

/* Which columns a thread's scratch buffer holds: with slices of output channels, a thread
 * that takes another slice of the same image and tile (the other thread late, or busy with
 * another process; or the product too small to split) reuses the columns it gathered for
 * the first instead of gathering them again. */
static GPrivate cols_made_key = G_PRIVATE_INIT (g_free);

static void *
scratch_buffer (gsize bytes)
{
  return fx_thread_buffer (&cols_scratch, &cols_scratch_size, bytes);
}

/* Whether a product of `rows` output channels, `width` columns and depth k runs as
 * fx_sgemm_stream rather than OpenBLAS: few columns against many weights (ResNet's last
 * stages), where a packing gemm spends as long copying the weights as multiplying; and any
 * product whose weights stay in cache (up to 1.5 MiB: ResNet's strided, downsampling and
 * first convolutions), where packing them and clearing C for beta 0 measured 5-25% of the
 * time that the unpacked product does not spend. */
static gboolean
streams_product (FxDType dt, int64_t rows, int64_t width, int64_t k)
{
  if (dt != FX_DTYPE_FLOAT32 || !fx_sgemm_stream_native ())
    return FALSE;
  return (width <= 64 && k >= 256) || rows * k * (int64_t) sizeof (float) <= (3 << 19);
}

/* Side `side` of the one product of a float32 image (GemmConvJob.share): the columns (all of
 * them, into this thread's scratch buffer, unless nothing is left to do — the thread that
 * runs both sides finishes the product with the first), then the units of the product this
 * thread gets to first. */
static void
shared_product_side (const GemmConvJob *j, int side)
{
  const Geom *g = j->g;
  const float *in = (const float *) j->in, *cols = in;
  int64_t ldb = g->in_plane;
  if (!j->direct)
    {
      if (!fx_gemm_share_pending (j->share))
        return;   /* the other thread came first and did it all */
      ldb = (j->ncols + 15) / 16 * 16;
      float *buf = scratch_buffer (sizeof (float) * j->k * ldb);
      im2col_f32 (g, in, buf, 0, j->cg, 0, j->ncols, ldb);
      cols = buf;
    }
  const FxConvEpilogue *ep = j->ep;
  float *out = (float *) j->out;
  FxGemmEpilogue gep = gemm_epilogue (ep, (const float *) j->bias, 0,
                                      ep ? fx_conv_epilogue_residual_at (ep, out, out) : NULL,
                                      g->out_plane);
  fx_sgemm_stream_shared (j->og, j->ncols, j->k, (const float *) j->w, j->k, cols, ldb, out,
                          g->out_plane, &gep, j->share, side);
}

/* Two threads on the one product of a float32 image whose columns im2col gathers (strided
 * or padded, ResNet's stride-2 layers of 14×14 and 7×7 outputs): side t gathers the columns
 * of its half of the input channels and multiplies them by those channels' part of the
 * weights — side 0 into the output, side 1 into `partial` — and the two sums are then added
 * and finished (bias, epilogue), a share of the rows each (split_k_finish). As a shared
 * product, each side gathered every column (layer3.0.conv2: 1.8 MB a thread, 150-230 µs
 * of its 800 µs): now each gathers half, and reads only its own. Each output is
 * (Σ over the first half) + (Σ over the second), whichever threads run the sides; one
 * thread (or more than two) sums all the channels in one go, so the last bits differ.
 * Each side's product is shared (FxGemmShare): the thread that finishes its own first takes
 * the other's remaining units from its far end, reading the columns the other gathered. As
 * static halves, the caller waited 0.3-1.5 ms a forward for the other thread (ResNet-50's
 * layer3.0.conv2 and layer4.0.conv2), whose core the machine's other work slowed. */
typedef struct {
  const GemmConvJob *j;
  int64_t c_split;   /* side 0: input channels [0, c_split); side 1: the rest */
  float *partial;    /* side 1's sums: og rows of ncols */
  int64_t ldb;       /* the gathered columns' row stride */
  FxGemmShare share[2];
  const float *cols[2];   /* each side's gathered columns, once `gathered` says so */
  atomic_int taken[2], gathered[2];
} SplitKJob;

/* The caller's buffer for side 1's sums (fx_thread_buffer). */
static GPrivate partial_scratch = G_PRIVATE_INIT (g_aligned_free);
static GPrivate partial_scratch_size = G_PRIVATE_INIT (NULL);

/* Side `side`'s input channels: [*c0, *c1). */
static void
split_k_channels (const SplitKJob *sk, int side, int64_t *c0, int64_t *c1)
{
  *c0 = side ? sk->c_split : 0;
  *c1 = side ? sk->j->cg : sk->c_split;
}

/* Units of side `side`'s product, from its front (own) or its back (helping). */
static void
split_k_product (SplitKJob *sk, int side, int from)
{
  const GemmConvJob *j = sk->j;
  int64_t taps = j->g->kh * j->g->kw, c0, c1;
  split_k_channels (sk, side, &c0, &c1);
  fx_sgemm_stream_shared (j->og, j->ncols, (c1 - c0) * taps, (const float *) j->w + c0 * taps,
                          j->k, sk->cols[side], sk->ldb,
                          side ? sk->partial : (float *) j->out,
                          side ? j->ncols : j->g->out_plane, NULL, &sk->share[side], from);
}

static void
split_k_side (int64_t begin, int64_t end, gpointer data)
{
  SplitKJob *sk = data;
  const GemmConvJob *j = sk->j;
  const Geom *g = j->g;
  int64_t taps = g->kh * g->kw;
  for (int64_t side = begin; side < end; side++)
    {
      atomic_store (&sk->taken[side], 1);
      int64_t c0, c1;
      split_k_channels (sk, (int) side, &c0, &c1);
      float *cols = scratch_buffer (sizeof (float) * (c1 - c0) * taps * sk->ldb);
      im2col_f32 (g, (const float *) j->in + c0 * g->in_plane, cols, 0, c1 - c0, 0, j->ncols,
                  sk->ldb);
      sk->cols[side] = cols;
      atomic_store_explicit (&sk->gathered[side], 1, memory_order_release);
      split_k_product (sk, (int) side, 0);
      /* then the other side's last units, once its columns are there: a thread that has
       * taken that side is gathering them; one that has not will get it from the loop */
      int other = 1 - (int) side;
      if (!atomic_load (&sk->taken[other]))
        continue;
      while (!atomic_load_explicit (&sk->gathered[other], memory_order_acquire))
        fx_cpu_relax ();
      split_k_product (sk, other, 1);
    }
}

/* Output channels [begin, end): side 0's sums (in the output) + side 1's, then bias and
 * epilogue as the product's own epilogue would have applied them. */
static void
split_k_finish (int64_t begin, int64_t end, gpointer data)
{
  const SplitKJob *sk = data;
  const GemmConvJob *j = sk->j;
  const Geom *g = j->g;
  float *out = (float *) j->out + begin * g->out_plane;
  for (int64_t o = begin; o < end; o++)
    {
      float *row = (float *) j->out + o * g->out_plane;
      const float *p = sk->partial + o * j->ncols;
      for (int64_t x = 0; x < j->ncols; x++)
        row[x] = row[x] + p[x];
    }
  const FxConvEpilogue *ep = j->ep;
  FxGemmEpilogue gep = gemm_epilogue (ep, j->bias ? (const float *) j->bias + begin : NULL,
                                      begin,
                                      ep ? fx_conv_epilogue_residual_at (ep, (float *) j->out,
                                                                         out)
                                         : NULL,
                                      g->out_plane);
  fx_gemm_epilogue_rows (&gep, out, g->out_plane, end - begin, j->ncols);
}

static void
gemm_conv_tasks (int64_t begin, int64_t end, gpointer data)
{
  GemmConvJob *j = data;
  const Geom *g = j->g;
  gsize es = fx_dtype_size (j->dt);
  for (int64_t t = begin; t < end; t++)
    {
      if (j->share != NULL)
        {
          shared_product_side (j, (int) t);
          continue;
        }
      int64_t r = t;
      int64_t mi = r % j->n_mchunks;
      r /= j->n_mchunks;
      int64_t ti = r % j->n_tiles;
      r /= j->n_tiles;
      int64_t gi = r % g->groups, n = r / g->groups;
      int64_t j0 = ti * j->tile, j1 = MIN (j0 + j->tile, j->ncols), width = j1 - j0;
      int64_t m0 = mi * j->mchunk, m1 = MIN (m0 + j->mchunk, j->og);
      const char *inp = j->in + ((n * g->c + gi * j->cg) * g->in_plane) * es;
      char *outp = j->out + (((n * g->o + gi * j->og + m0) * g->out_plane) + j0) * es;
      const char *wp = j->w + ((gi * j->og + m0) * j->k) * es;
      const char *bp = j->bias ? j->bias + (gi * j->og + m0) * es : NULL;
      const void *colp;
      int64_t ldb;
      if (j->direct)
        {
          colp = inp + j0 * es;
          ldb = g->in_plane;
        }
      else if (j->shared_cols)
        {
          colp = j->shared_cols;
          ldb = j->ncols;
        }
      else
        {
          /* rows of whole 64-byte lines: the product's loads of columns then never straddle
           * two lines (5-9% faster on 14×14 and 28×28 images than rows of `width`) */
          ldb = (width * (int64_t) es + 63) / 64 * 64 / (int64_t) es;
          void *buf = scratch_buffer (es * j->k * ldb);
          /* the tile: (image · groups + group) · tiles + tile */
          if (j->call == 0 || !fx_scratch_holds (&cols_made_key, j->call, t / j->n_mchunks))
            {
              if (j->dt == FX_DTYPE_FLOAT32)
                im2col_f32 (g, (const float *) inp, buf, 0, j->cg, j0, j1, ldb);
              else
                im2col_f64 (g, (const double *) inp, buf, 0, j->cg, j0, j1, ldb);
            }
          colp = buf;
        }
      if (streams_product (j->dt, m1 - m0, width, j->k))
        {
          /* the unpacked product, finishing each output in a register: the bias, then the
           * epilogue (a second pass over the outputs took 5% of a ResNet-50 forward) */
          const FxConvEpilogue *ep = j->ep;
          FxGemmEpilogue gep = gemm_epilogue (
            ep, (const float *) bp, gi * j->og + m0,
            ep ? fx_conv_epilogue_residual_at (ep, (const float *) j->out, (const float *) outp)
               : NULL, g->out_plane);
          fx_sgemm_stream (m1 - m0, width, j->k, (const float *) wp, j->k, (const float *) colp,
                           ldb, (float *) outp, g->out_plane, &gep);
        }
      else
        {
          if (bp)
            for (int64_t m = 0; m < m1 - m0; m++)
              {
                if (j->dt == FX_DTYPE_FLOAT32)
                  {
                    float *row = (float *) outp + m * g->out_plane, v = ((const float *) bp)[m];
                    for (int64_t x = 0; x < width; x++)
                      row[x] = v;
                  }
                else
                  {
                    double *row = (double *) outp + m * g->out_plane;
                    double v = ((const double *) bp)[m];
                    for (int64_t x = 0; x < width; x++)
                      row[x] = v;
                  }
              }
          if (j->dt == FX_DTYPE_FLOAT32)
            fx_sgemm (FALSE, FALSE, m1 - m0, width, j->k, 1.f, (const float *) wp, j->k,
                      (const float *) colp, ldb, bp ? 1.f : 0.f, (float *) outp, g->out_plane);
          else
            fx_dgemm (FALSE, FALSE, m1 - m0, width, j->k, 1., (const double *) wp, j->k,
                      (const double *) colp, ldb, bp ? 1. : 0., (double *) outp, g->out_plane);
          if (j->ep)
            epilogue_rows (j->ep, (float *) outp,
                           fx_conv_epilogue_residual_at (j->ep, (const float *) j->out,
                                                         (const float *) outp),
                           gi * j->og + m0, m1 - m0, width, g->out_plane);
        }
    }
}

/* ---- stride-2 convolutions of few input channels (ResNet's stem), without im2col ----
 * With C·kh·kw at most STEM_MAX_K (and kernels of 3 or more), the input's four phases
 * (even/odd rows × even/odd columns, zero padding included) are split out once; every tap
 * (c, ki, kj) of 16 consecutive outputs of a row is then one plain load from phase
 * (ki & 1, kj & 1), row oy + ki/2, column ox + kj/2. The product runs from those loads like
 * fx_sgemm_stream's kernel runs from im2col's columns — the same multiply-adds in the same
 * order, so the same bits — without writing and reading back the columns (7.4 MB for the
 * stem: a fifth of its time). */
#if defined(__x86_64__) && defined(__GNUC__)
#define STEM_MAX_K 192

typedef struct {
  const Geom *g;
  const float *in, *w, *bias;
  float *out;
  const FxConvEpilogue *ep;
  float *phases;                 /* [n][c][2][2][ph_rows][ph_cols] */
  int64_t ph_rows, ph_cols, k;
  /* tap kk = (c, ki, kj): where its value for output (oy, x) is, from phases + oy·ph_cols + x
   * — one flat loop over the taps instead of three short nested ones */
  int64_t tap_offsets[STEM_MAX_K];
} StemJob;

static gboolean
stem_applies (const Geom *g)
{
  int64_t k = g->c * g->kh * g->kw;
  /* kernels of 3 and more read all four phases (a 1×1 one would copy four for one: its
   * strided im2col is a plain gather, 4 times faster on ResNet's downsampling layers) */
  return g->groups == 1 && g->sh == 2 && g->sw == 2 && g->dh == 1 && g->dw == 1
         && g->kh >= 3 && g->kw >= 3 && k <= STEM_MAX_K && g->ow >= 16 && fx_cpu_has_avx512 ();
}

/* phase planes (image, channel, py, px) [begin, end): each row a stride-2 gather of an
 * input row (strided_vec's masked loads, zeros for the padding), or zeros. Element by
 * element with bounds checks the split took 64 µs of ResNet's stem, 50 µs this way. */
__attribute__ ((target ("avx512f"))) static void
stem_phase_job (int64_t begin, int64_t end, gpointer data)
{
  StemJob *j = data;
  const Geom *g = j->g;
  const __m512i evens = _mm512_setr_epi32 (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                           28, 30);
  for (int64_t t = begin; t < end; t++)
    {
      int64_t plane = t / 4, py = (t / 2) % 2, px = t % 2;
      const float *src = j->in + plane * g->h * g->w;
      float *dst = j->phases + t * j->ph_rows * j->ph_cols;
      /* column col reads input column iw0 + 2 col; those of [lo, hi) are inside the image */
      int64_t iw0 = px - g->pw, lo, hi;
      strided_span (iw0, g->w, 2, j->ph_cols, &lo, &hi);
      for (int64_t r = 0; r < j->ph_rows; r++)
        {
          int64_t ih = 2 * r + py - g->ph;
          gboolean inside = ih >= 0 && ih < g->h;   /* else a row of the padding's zeros */
          strided_row (dst + r * j->ph_cols, (uintptr_t) (src + (inside ? ih : 0) * g->w), iw0,
                       0, j->ph_cols, lo, inside ? hi : lo, 2, evens);
        }
    }
}

/* acc[i][v] over all taps for output channels o0 + i and outputs x0 + 16 v of row oy, then
 * finished by ep (the row's: bias, coefficients and residual of channel 0) and stored */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
stem_tile (const StemJob *j, const float *phases, int64_t oy, int64_t x0, int64_t o0,
           const int mr, const int nv, float *out_row, int64_t plane, __mmask16 last,
           const FxGemmEpilogue *ep)
{
  __m512 acc[8][4];
  for (int i = 0; i < mr; i++)
    for (int v = 0; v < nv; v++)
      acc[i][v] = _mm512_setzero_ps ();
  const float *a = j->w + o0 * j->k;
  const float *row = phases + oy * j->ph_cols + x0;
  for (int64_t kk = 0; kk < j->k; kk++)
    {
      const float *b = row + j->tap_offsets[kk];
      __m512 bv[4];
      for (int v = 0; v < nv; v++)
        bv[v] = _mm512_loadu_ps (b + 16 * v);
      for (int i = 0; i < mr; i++)
        {
          __m512 av = _mm512_set1_ps (a[i * j->k + kk]);
          for (int v = 0; v < nv; v++)
            acc[i][v] = _mm512_fmadd_ps (av, bv[v], acc[i][v]);
        }
    }
  /* the bias and the epilogue in registers (fx_gemm_epilogue_vec, as fx_gemm_epilogue_rows
   * applies them), before the one store: a second pass over each output row, in cache,
   * measured 0.3-1.3% of a ResNet-50 forward */
#pragma GCC unroll 8
  for (int i = 0; i < mr; i++)
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++)
      {
        __mmask16 mask = v == nv - 1 ? last : (__mmask16) 0xffff;
        _mm512_mask_storeu_ps (out_row + (o0 + i) * plane + x0 + 16 * v, mask,
                               fx_gemm_epilogue_vec (ep, o0 + i, x0 + 16 * v, mask, acc[i][v]));
      }
}

#define STEM_TILE_CASE(mr, nv)                                                              \
  case FX_TILE_ID (mr, nv):                                                                 \
    stem_tile (j, phases, oy, x0, o0, (mr), (nv), out_row, plane, last, &gep);              \
    break;

/* Output row oy of image n, all channels, at out_row (channel o's row at out_row + o·plane;
 * ep's residual, if any, laid out as the output, whose first row is j->out's). */
__attribute__ ((target ("avx512f"))) static void
stem_row (const StemJob *j, int64_t n, int64_t oy, float *out_row, int64_t plane)
{
  const Geom *g = j->g;
  const float *phases = j->phases + n * g->c * 4 * j->ph_rows * j->ph_cols;
  const FxConvEpilogue *ep = j->ep;
  FxGemmEpilogue gep = gemm_epilogue (
    ep, j->bias, 0, ep ? fx_conv_epilogue_residual_at (ep, j->out, out_row) : NULL, plane);
  for (int64_t x0 = 0; x0 < g->ow; x0 += 64)
    {
      int nv = (int) MIN ((int64_t) 4, (g->ow - x0 + 15) / 16);
      int64_t left = g->ow - x0 - 16 * (nv - 1);
      __mmask16 last = left >= 16 ? (__mmask16) 0xffff : (__mmask16) ((1u << left) - 1);
      int mr_full = FX_TILE_ROWS (nv);
      for (int64_t o0 = 0; o0 < g->o; o0 += mr_full)
        switch (FX_TILE_ID ((int) MIN ((int64_t) mr_full, g->o - o0), nv))
          {
          FX_TILE_CASES (STEM_TILE_CASE)
          default:
            g_assert_not_reached ();
          }
    }
}

/* output rows (image, oy) [begin, end), all channels */
static void
stem_rows_job (int64_t begin, int64_t end, gpointer data)
{
  const StemJob *j = data;
  const Geom *g = j->g;
  const int64_t plane = g->oh * g->ow;
  for (int64_t t = begin; t < end; t++)
    {
      int64_t n = t / g->oh, oy = t % g->oh;
      stem_row (j, n, oy, j->out + n * g->o * plane + oy * g->ow, plane);
    }
}

/* ---- the stem and a 3×3 stride-2 max pool after it (ResNet's), in one pass ----
 * Each pooled row py is the maximum over the stem's rows 2py-1, 2py and 2py+1 (those inside
 * the image), then over columns 2px-1 ... 2px+1: a thread computes the stem's rows into a
 * ring of STEM_RING rows per channel and pools them while they are in its cache, instead
 * of writing the whole stem output (3.2 MB for ResNet) and reading it back. Rows that
 * follow the thread's previous pooled row are already in the ring; a thread's first row of
 * a range computes row 2py-1 again. The maxima are taken in the order max_pool2d's
 * separable kernel (pool.c) takes them, with its rule for NaN, so the result is
 * max_pool2d (the stem's output) bit for bit. */
#define STEM_RING 4

typedef struct {
  const StemJob *stem;
  float *out;                 /* [n][o][poh][pow] */
  int64_t poh, pow;
} StemPoolJob;

/* lanes of m that take v: v is larger, or NaN (pool.c's rule) */
#define STEM_POOL_TAKE(v, m) \
  (_mm512_cmp_ps_mask ((v), (m), _CMP_GT_OQ) | _mm512_cmp_ps_mask ((v), (v), _CMP_UNORD_Q))

/* pooled row py of every channel, from the ring's stem rows [r0, r1) */
__attribute__ ((target ("avx512f"))) static void
stem_pool_row (const StemPoolJob *pj, const float *ring, int64_t n, int64_t py, int64_t r0,
               int64_t r1, float *row)
{
  const Geom *g = pj->stem->g;
  const __m512 neg_inf = _mm512_set1_ps (-INFINITY);
  const __m512i evens = _mm512_set_epi32 (30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4,
                                          2, 0);
  for (int64_t o = 0; o < g->o; o++)
    {
      const float *plane = ring + o * STEM_RING * g->ow;
      /* the column-wise maximum of the window's rows, at row[1 + x] (row[0] and the cells
       * past the last column stay -inf) */
      for (int64_t x = 0; x < g->ow; x += 16)
        {
          __mmask16 k = g->ow - x >= 16 ? 0xffff : (__mmask16) ((1u << (g->ow - x)) - 1);
          __m512 m = neg_inf;
          for (int64_t r = r0; r < r1; r++)
            {
              __m512 v = _mm512_maskz_loadu_ps (k, plane + (r % STEM_RING) * g->ow + x);
              m = _mm512_mask_mov_ps (m, STEM_POOL_TAKE (v, m), v);
            }
          _mm512_mask_storeu_ps (row + 1 + x, k, m);
        }
      float *dst = pj->out + ((n * g->o + o) * pj->poh + py) * pj->pow;
      /* the next pooled row's lines, for writing: the output's buffer was last used a
       * forward ago, and each store waited for its line */
      if (py + 1 < pj->poh)
        fx_prefetch_range (dst + pj->pow, dst + 2 * pj->pow, TRUE);
      for (int64_t x = 0; x < pj->pow; x += 16)
        {
          __mmask16 k = pj->pow - x >= 16 ? 0xffff : (__mmask16) ((1u << (pj->pow - x)) - 1);
          __m512 m = neg_inf;
          for (int kj = 0; kj < 3; kj++)
            {
              const float *src = row + kj + 2 * x;
              __m512 v = _mm512_permutex2var_ps (_mm512_loadu_ps (src), evens,
                                                 _mm512_loadu_ps (src + 16));
              m = _mm512_mask_mov_ps (m, STEM_POOL_TAKE (v, m), v);
            }
          _mm512_mask_storeu_ps (dst + x, k, m);
        }
    }
}

/* pooled rows (image, py) [begin, end), all channels */
__attribute__ ((target ("avx512f"))) static void
stem_pool_job (int64_t begin, int64_t end, gpointer data)
{
  const StemPoolJob *pj = data;
  const Geom *g = pj->stem->g;
  int64_t ring_floats = g->o * STEM_RING * g->ow;
  /* the row buffer: column c at 1 + c, -inf around (the last vector's reads pass the end) */
  int64_t row_floats = 2 * pj->pow + 2 + 32;
  /* the thread's im2col buffer, which the stem's kernel does not use */
  float *ring = scratch_buffer (sizeof (float) * (ring_floats + row_floats));
  float *row = ring + ring_floats;
  for (int64_t b = 0; b < row_floats; b++)
    row[b] = -INFINITY;
  int64_t ring_n = -1, ring_end = 0;   /* the ring holds rows up to ring_end of image ring_n */
  for (int64_t t = begin; t < end; t++)
    {
      int64_t n = t / pj->poh, py = t % pj->poh;
      int64_t r0 = MAX ((int64_t) 0, 2 * py - 1), r1 = MIN (g->oh, 2 * py + 2);
      int64_t from = n == ring_n && ring_end > r0 && ring_end <= r1 ? ring_end : r0;
      for (int64_t r = from; r < r1; r++)
        stem_row (pj->stem, n, r, ring + (r % STEM_RING) * g->ow, STEM_RING * g->ow);
      ring_n = n;
      ring_end = r1;
      stem_pool_row (pj, ring, n, py, r0, r1, row);
    }
}

/* j for the stem of g, with its phase planes made (held by the returned tensor). */
static FxTensor *
stem_prepare (StemJob *j, const Geom *g, const float *in, const float *w, const float *bias,
              float *out, const FxConvEpilogue *ep)
{
  *j = (StemJob) { g, in, w, bias, out, ep, NULL, 0, 0, g->c * g->kh * g->kw };
  /* rows oy + ki/2 for every output row; columns up to the last vector's lanes past ow */
  j->ph_rows = g->oh + (g->kh - 1) / 2;
  j->ph_cols = (g->ow + 15) / 16 * 16 + (g->kw - 1) / 2;
  int64_t kk = 0;
  for (int64_t c = 0; c < g->c; c++)
    for (int64_t ki = 0; ki < g->kh; ki++)
      for (int64_t kj = 0; kj < g->kw; kj++, kk++)
        j->tap_offsets[kk] = ((c * 2 + (ki & 1)) * 2 + (kj & 1)) * j->ph_rows * j->ph_cols
                             + (ki / 2) * j->ph_cols + kj / 2;
  gsize floats = (gsize) (g->n * g->c * 4 * j->ph_rows * j->ph_cols);
  /* a tensor's storage, which goes back to the cache of big buffers for the next call:
   * a plain malloc of this size (0.7 MB for ResNet's stem) may be a fresh mmap whose pages
   * fault in on every call */
  int64_t shape[1] = { (int64_t) floats };
  FxTensor *phases = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, 1, shape);
  j->phases = fx_tensor_data (phases);
  fx_parallel_for (g->n * g->c * 4, 1, stem_phase_job, j);
  return phases;
}

static void
conv_stem (const Geom *g, const float *in, const float *w, const float *bias, float *out,
           const FxConvEpilogue *ep)
{
  StemJob j;
  g_autoptr (FxTensor) phases = stem_prepare (&j, g, in, w, bias, out, ep);
  /* rows in order: the calling thread takes the top ones, the other the bottom ones, as the
   * pool after the stem splits its rows */
  fx_parallel_for (g->n * g->oh, MAX ((int64_t) 1, 4096 / MAX (g->o * g->ow / 16, 1)),
                   stem_rows_job, &j);
}

/* The stem of g (ep without a residual) pooled by a 3×3 stride-2 max pool of padding 1 into
 * out [n][o][poh][pow]. */
static void
conv_stem_max_pool (const Geom *g, const float *in, const float *w, const float *bias,
                    const FxConvEpilogue *ep, float *out, int64_t poh, int64_t pow)
{
  StemJob j;
  g_autoptr (FxTensor) phases = stem_prepare (&j, g, in, w, bias, NULL, ep);
  StemPoolJob pj = { &j, out, poh, pow };
  /* pooled rows claimed a quarter of those left at a time: a claim's first row computes a
   * stem row again (about 1/112 of the stem's work), and chunks of 9 rows (ResNet's 56)
   * left the caller waiting 80-100 µs for the other thread's last one */
  fx_parallel_for_each (g->n * poh, stem_pool_job, &pj);
}
#else
static gboolean
stem_applies (const Geom *g)
{
  (void) g;
  return FALSE;
}

static void
conv_stem (const Geom *g, const float *in, const float *w, const float *bias, float *out,
           const FxConvEpilogue *ep)
{
  g_assert_not_reached ();
}

static void
conv_stem_max_pool (const Geom *g, const float *in, const float *w, const float *bias,
                    const FxConvEpilogue *ep, float *out, int64_t poh, int64_t pow)
{
  g_assert_not_reached ();
}
#endif

/* Output positions per tile when `ncols` of them are cut in `parts`: whole vectors of 16,
 * so that each tile's columns start on a cache line (when the image's rows do, at 28×28
 * or 56×56) and fill their vectors. Halves of 392 of a 28×28 image, the second starting
 * mid-line and both ending in a half-empty vector, made ResNet-50's 28×28 1×1 layers about
 * 10% slower than 400 + 384. */
static int64_t
tile_columns (int64_t ncols, int64_t parts, gboolean gathered)
{
  int64_t tile = MAX ((int64_t) 1, (ncols + parts - 1) / parts);
  /* But gathered columns (im2col) start a buffer of their own in every tile, and a tile one
   * to four past whole vectors is multiplied as whole vectors and a few dot products
   * (fx_sgemm_stream): ResNet-50's layer2.0.conv2 (784 positions) in tiles of 196, 12
   * vectors and 4 dot products, took 4% less time than in 208 + 208 + 208 + 160, whose
   * tiles of 13 vectors went as blocks of 4, 4, 3 and 2. */
  if (parts == 1 || (gathered && tile > 32 && tile % 16 >= 1 && tile % 16 <= 4))
    return tile;
  return (tile + 15) / 16 * 16;
}

/* Whether g is a depthwise convolution (one input channel a group), which float32 runs as
 * depthwise_job. */
static gboolean
depthwise_applies (const Geom *g)
{
  return g->groups > 1 && g->groups == g->c;
}

static void
conv_forward_float (FxDType dt, const Geom *g, const void *in, const void *w, const void *bias,
                    void *out, const FxConvEpilogue *ep)
{
  gsize es = fx_dtype_size (dt);
  int64_t cg = g->c / g->groups, og = g->o / g->groups;
  int64_t ncols = g->oh * g->ow, k = cg * g->kh * g->kw;

  if (dt == FX_DTYPE_FLOAT32 && depthwise_applies (g))
    {
      DwJob j = { g, in, w, bias, out };
      fx_parallel_for (g->n * g->o, MAX (1, 16384 / MAX (ncols * g->kh * g->kw, 1)),
                       depthwise_job, &j);
      for (int64_t n = 0; ep && n < g->n; n++)
        epilogue_rows (ep, (float *) out + n * g->o * ncols,
                       fx_conv_epilogue_residual_at (ep, out, (float *) out + n * g->o * ncols),
                       0, g->o, ncols, ncols);
      return;
    }

  if (dt == FX_DTYPE_FLOAT32 && stem_applies (g))
    {
      conv_stem (g, in, w, bias, out, ep);
      return;
    }

  if (dt == FX_DTYPE_FLOAT32 && g->groups == 1 && g->kh == 3 && g->kw == 3 && g->sh == 1
      && g->sw == 1 && g->dh == 1 && g->dw == 1)
    {
      FxWinogradShape ws = { g->n, g->c, g->h, g->w, g->o, g->ph, g->pw, g->oh, g->ow,
                             g->in_plane, g->out_plane };
      int m = fx_winograd_choose (&ws);
      if (m != 0)
        {
          fx_winograd_conv2d (&ws, m, in, w, bias, out, ep);
          return;
        }
    }

  GemmConvJob j = { g, dt, in, w, bias, out, cg, og, k, ncols, ncols, 1, og, 1, FALSE, ep };
  j.direct = g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->ph == 0 && g->pw == 0;
  int threads = fx_blas_num_threads ();
  /* Tiles of output positions whose columns take about 1 MiB, as many of them as a multiple
   * of the thread count. */
  int64_t target = MAX ((int64_t) 256, (int64_t) ((1 << 20) / (es * MAX (k, 1))));
  int64_t n_tiles = MAX ((int64_t) 1, (ncols + target / 2) / target);
  if (n_tiles > 1)
    n_tiles = (n_tiles + threads - 1) / threads * threads;
  j.tile = tile_columns (ncols, n_tiles, !j.direct);
  j.n_tiles = (ncols + j.tile - 1) / j.tile;
  /* Too few tasks for the threads (small images): split the positions when they outnumber
   * the output channels (each gemm then packs less of the weights again), else split the
   * output channels, in slices big enough for an efficient gemm (each task then gathers all
   * columns, which are few). */
  int64_t tasks = g->n * g->groups * j.n_tiles;
  if (tasks < threads && ncols >= og && ncols >= 128)
    {
      j.tile = tile_columns (ncols, threads, !j.direct);
      j.n_tiles = (ncols + j.tile - 1) / j.tile;
      tasks = g->n * g->groups * j.n_tiles;
    }
  else if (tasks < threads && og >= 128)
    {
      /* one slice per thread: with four, for balance, each thread's products of fewer
       * rows measured 3-8% slower (ResNet-18's 7×7 and 14×14 layers) */
      int64_t want = (threads + tasks - 1) / tasks;
      j.mchunk = MAX ((int64_t) 64, (og + want - 1) / want);
      j.mchunk = (j.mchunk + 15) / 16 * 16;
      j.n_mchunks = (og + j.mchunk - 1) / j.mchunk;
    }
  tasks *= j.n_mchunks;
  /* A 1×1 convolution of one image in several tiles of positions (ResNet-50's 256→64 and
   * 256→128 at 56×56: 4 tiles of 784): nothing to gather, so one product that the two
   * threads share (below) instead: claiming whole tiles, the caller waited 120-190 µs per
   * layer for the other thread's last one. */
  if (j.direct && threads == 2 && tasks > 2 && g->n == 1 && g->groups == 1
      && j.n_mchunks == 1 && streams_product (dt, og, ncols, k))
    {
      j.tile = ncols;
      j.n_tiles = 1;
      tasks = 2;
    }
  if (j.n_mchunks > 1)
    j.call = fx_parallel_call_id ();
  /* Two threads on one image's product, split in two (by output channels, or the positions
   * of a 1×1 convolution): they share it instead, each taking tiles from its end of it, so
   * that when one core runs slower (another process on it, or just this time), the other does
   * more rather than wait. Static halves left the caller waiting 0.4-3.7 ms of a ResNet-50
   * forward, depending on the machine's phase. */
  FxGemmShare share;
  if (threads == 2 && tasks == 2 && g->n == 1 && g->groups == 1 && dt == FX_DTYPE_FLOAT32
      && (j.direct || j.n_mchunks == 2)
      && streams_product (dt, MIN (j.mchunk, og), j.tile, k))
    {
      /* kernels of more than one tap: a 1×1 stride-2 product (ResNet's downsampling) gathers
       * only its input again, and the pass over both sums cost it more than that (10-15%) */
      if (!j.direct && cg >= 2 && g->kh * g->kw > 1)
        {
          SplitKJob sk = { &j, cg / 2,
                           fx_thread_buffer (&partial_scratch, &partial_scratch_size,
                                             sizeof (float) * og * ncols),
                           (ncols + 15) / 16 * 16 };
          for (int side = 0; side < 2; side++)
            {
              int64_t c0, c1;
              split_k_channels (&sk, side, &c0, &c1);
              fx_gemm_share_init (&sk.share[side],
                                  fx_sgemm_stream_units (og, ncols, (c1 - c0) * g->kh * g->kw));
              atomic_init (&sk.taken[side], 0);
              atomic_init (&sk.gathered[side], 0);
            }
          fx_blas_enter_single_threaded ();
          fx_parallel_for_each (2, split_k_side, &sk);
          fx_parallel_for (og, 16, split_k_finish, &sk);
          fx_blas_leave_single_threaded ();
          return;
        }
      fx_gemm_share_init (&share, fx_sgemm_stream_units (og, ncols, k));
      j.share = &share;
      fx_blas_enter_single_threaded ();
      fx_parallel_for (2, 1, gemm_conv_tasks, &j);
      fx_blas_leave_single_threaded ();
      return;
    }
  double flops_per_task = 2.0 * k * j.tile * MIN (j.mchunk, og);
  void *shared = NULL;
  if (tasks > 1 && threads > 1 && flops_per_task > 2e6)
    {
      /* Slices of output channels over one image's columns (small images): with more
       * than two threads, gather the columns once, split between the threads, instead of
       * once per slice. With two, each slice gathering its own into its own core's cache
       * measured 15-20% faster (ResNet-18's 14×14 and 7×7 layers) than reading columns
       * half written in the other core's cache. */
      if (!j.direct && j.n_tiles == 1 && g->n == 1 && g->groups == 1 && threads > 2)
        {
          shared = g_malloc (es * k * ncols);
          ColsJob cj = { g, shared, (void *) in, dt };
          fx_parallel_for (g->c, channel_chunk (g->kh * g->kw * ncols), im2col_job, &cj);
          j.shared_cols = shared;
        }
      fx_blas_enter_single_threaded ();
      fx_parallel_for (tasks, 1, gemm_conv_tasks, &j);
      fx_blas_leave_single_threaded ();
    }
  else
    gemm_conv_tasks (0, tasks, &j);   /* small: serial, BLAS may still use its threads */
  g_free (shared);
}

/* Transposed: g->c input channels of g->h × g->w, weight [c, o/groups, kh, kw], output
 * g->o channels of g->oh × g->ow. */
static void
conv_transpose_float (FxDType dt, const Geom *g, const void *in, const void *w,
                      const void *bias, void *out)
{
  gsize es = fx_dtype_size (dt);
  int64_t cg = g->c / g->groups, og = g->o / g->groups;
  int64_t hw = g->h * g->w, m = og * g->kh * g->kw, oplane = g->oh * g->ow;
  void *cols = g_malloc (es * MAX (m * hw, 1));
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t gi = 0; gi < g->groups; gi++)
      {
        const char *inp = (const char *) in + ((n * g->c + gi * cg) * hw) * es;
        char *outp = (char *) out + ((n * g->o + gi * og) * oplane) * es;
        const char *wp = (const char *) w + gi * cg * m * es;
        fill_bias (dt, outp, bias ? (const char *) bias + gi * og * es : NULL, og, oplane);
        if (dt == FX_DTYPE_FLOAT32)
          fx_sgemm (TRUE, FALSE, m, hw, cg, 1.f, (const float *) wp, m, (const float *) inp,
                    hw, 0.f, cols, hw);
        else
          fx_dgemm (TRUE, FALSE, m, hw, cg, 1., (const double *) wp, m,
                    (const double *) inp, hw, 0., cols, hw);
        ColsJob j = { g, cols, outp, dt };
        fx_parallel_for (og, channel_chunk (g->kh * g->kw * hw), col2im_job, &j);
      }
  g_free (cols);
}

/* ---- integer convolution: direct loops, wrapping like PyTorch's integer arithmetic ---- */

static inline uint64_t
load_int (const char *p, FxDType dt)
{
  switch (dt)
    {
    case FX_DTYPE_UINT8: return *(const uint8_t *) p;
    case FX_DTYPE_INT8:  return (uint64_t) (int64_t) *(const int8_t *) p;
    case FX_DTYPE_INT16: return (uint64_t) (int64_t) *(const int16_t *) p;
    case FX_DTYPE_INT32: return (uint64_t) (int64_t) *(const int32_t *) p;
    default:             return (uint64_t) *(const int64_t *) p;
    }
}

static inline void
store_int (char *p, FxDType dt, uint64_t v)
{
  switch (dt)
    {
    case FX_DTYPE_UINT8: *(uint8_t *) p = (uint8_t) v; break;
    case FX_DTYPE_INT8:  *(int8_t *) p = (int8_t) (uint8_t) v; break;
    case FX_DTYPE_INT16: *(int16_t *) p = (int16_t) (uint16_t) v; break;
    case FX_DTYPE_INT32: *(int32_t *) p = (int32_t) (uint32_t) v; break;
    default:             *(int64_t *) p = (int64_t) v; break;
    }
}

static void
conv_int (FxDType dt, const Geom *g, gboolean transposed, const char *in, const char *w,
          const char *bias, char *out)
{
  gsize es = fx_dtype_size (dt);
  int64_t cg = g->c / g->groups, og = g->o / g->groups;
  int64_t oplane = g->oh * g->ow, total = g->n * g->o * oplane;
  uint64_t *acc = g_new0 (uint64_t, MAX (total, 1));
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t o = 0; o < g->o; o++)
      {
        uint64_t b = bias ? load_int (bias + o * es, dt) : 0;
        for (int64_t i = 0; i < oplane; i++)
          acc[(n * g->o + o) * oplane + i] = b;
      }
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t gi = 0; gi < g->groups; gi++)
      for (int64_t ci = 0; ci < cg; ci++)
        for (int64_t oi = 0; oi < og; oi++)
          for (int64_t ki = 0; ki < g->kh; ki++)
            for (int64_t kj = 0; kj < g->kw; kj++)
              {
                int64_t c = gi * cg + ci, o = gi * og + oi;
                /* weight [o][ci][ki][kj], transposed: [c][oi][ki][kj] */
                int64_t widx = transposed ? ((c * og + oi) * g->kh + ki) * g->kw + kj
                                          : ((o * cg + ci) * g->kh + ki) * g->kw + kj;
                uint64_t wv = load_int (w + widx * es, dt);
                uint64_t *plane = acc + (n * g->o + o) * oplane;
                const char *inp = in + ((n * g->c + c) * g->h * g->w) * es;
                if (!transposed)
                  for (int64_t oh = 0; oh < g->oh; oh++)
                    {
                      int64_t ih = oh * g->sh - g->ph + ki * g->dh;
                      if (ih < 0 || ih >= g->h)
                        continue;
                      for (int64_t ow = 0; ow < g->ow; ow++)
                        {
                          int64_t iw = ow * g->sw - g->pw + kj * g->dw;
                          if (iw >= 0 && iw < g->w)
                            plane[oh * g->ow + ow] += wv * load_int (inp + (ih * g->w + iw) * es, dt);
                        }
                    }
                else
                  for (int64_t ih = 0; ih < g->h; ih++)
                    {
                      int64_t oh = ih * g->sh - g->ph + ki * g->dh;
                      if (oh < 0 || oh >= g->oh)
                        continue;
                      for (int64_t iw = 0; iw < g->w; iw++)
                        {
                          int64_t ow = iw * g->sw - g->pw + kj * g->dw;
                          if (ow >= 0 && ow < g->ow)
                            plane[oh * g->ow + ow] += wv * load_int (inp + (ih * g->w + iw) * es, dt);
                        }
                    }
              }
  for (int64_t i = 0; i < total; i++)
    store_int (out + i * es, dt, acc[i]);
  g_free (acc);
}

/* ---- the convolution: checks in ATen's order, then the kernel ---- */

/* Whether ATen 1.13 would run this float convolution on oneDNN, which only matters for the
 * message that a weight of another dtype gets. */
static gboolean
would_use_mkldnn (const Geom *g, const ConvSetup *s, int64_t kh, int64_t kw)
{
  gboolean op_big = FALSE;
  for (int i = 0; i < s->dim; i++)
    op_big |= s->output_padding[i] >= s->stride[i];
  if (s->transposed && op_big)
    return FALSE;
  if (s->transposed && s->groups > 1 && g->c == s->groups)
    return FALSE;
  /* ATen's first condition (strided, dilated, ..., or more than one thread) always holds
   * with PyTorch's default thread count */
  return s->groups > 1 || (kw > 3 && kh > 3) || g->n > 1 || g->n * g->c * g->h * g->w > 20480;
}

/* Whether conv_forward_float's path for g (float32) reads and writes planes g->in_plane and
 * g->out_plane apart: the gemm paths and Winograd, not the depthwise one or the stem. */
static gboolean
takes_plane_strides (const Geom *g)
{
  return !depthwise_applies (g) && !stem_applies (g);
}

/* input is batched ([N, C, spatial...]); want_dim: 1 or 2, the dims libfx computes. */
static FxTensor *
convolution (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p,
             gboolean transposed, const FxConvEpilogue *ep, GError **error)
{
  ConvSetup s = { 0 };
  int k = weight->ndim;
  s.dim = k - 2;
  s.groups = p->groups;
  s.transposed = transposed;
  if (s.dim <= 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "weight should have at least three dimensions");
      return NULL;
    }
  if (p->groups <= 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "non-positive groups is not supported");
      return NULL;
    }
  if (!expand_param ("stride", p->n_stride, p->stride, s.dim, s.stride, error)
      || !expand_param ("padding", p->n_padding, p->padding, s.dim, s.padding, error)
      || !expand_param ("dilation", p->n_dilation, p->dilation, s.dim, s.dilation, error))
    return NULL;
  if (transposed
      && !expand_param ("output_padding", p->n_output_padding, p->output_padding, s.dim,
                        s.output_padding, error))
    return NULL;
  if (!check_shape_forward (input, weight, bias, &s, error))
    return NULL;
  if (s.dim > 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "%d-d convolutions are not supported by libfx", s.dim);
      return NULL;
    }

  /* As 2-d: 1-d convolutions get height 1. */
  gboolean one_d = s.dim == 1;
  Geom g = { 0 };
  g.n = input->shape[0];
  g.c = input->shape[1];
  g.h = one_d ? 1 : input->shape[2];
  g.w = input->shape[k - 1];
  g.kh = one_d ? 1 : weight->shape[2];
  g.kw = weight->shape[k - 1];
  g.sh = one_d ? 1 : s.stride[0];
  g.sw = s.stride[s.dim - 1];
  g.ph = one_d ? 0 : s.padding[0];
  g.pw = s.padding[s.dim - 1];
  g.dh = one_d ? 1 : s.dilation[0];
  g.dw = s.dilation[s.dim - 1];
  g.groups = s.groups;
  int64_t oph = one_d ? 0 : s.output_padding[0], opw = s.output_padding[s.dim - 1];
  FxDType dt = input->dtype;
  int64_t out_shape[4];

  if (!transposed)
    {
      g.o = weight->shape[0];
      g.oh = (g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1) / g.sh + 1;
      g.ow = (g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1) / g.sw + 1;
      /* ATen's "Empty" backend: no batch or no channels */
      if (g.n == 0 || g.c == 0)
        {
          int64_t sh[4] = { g.n, g.n == 0 ? g.o : 0, g.oh, g.ow };
          if (one_d)
            sh[2] = g.ow;
          return fx_tensor_zeros (dt, k, sh);
        }
      if (fx_tensor_numel (input) == 0)
        {
          g_autofree char *istr = list_str (input->ndim, input->shape);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Only zero batch or zero channel "
                       "inputs are supported, but got input shape: %s", istr);
          return NULL;
        }
      for (int i = 0; i < s.dim; i++)
        if (s.dilation[i] <= 0)
          {
            g_autofree char *l = list_str (s.dim, s.dilation);
            g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                         "dilation should be greater than zero, but got %s", l);
            return NULL;
          }
      if (dt == FX_DTYPE_BOOL || dt == FX_DTYPE_FLOAT16)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "\"slow_conv2d_cpu\" not implemented for '%s'", fx_dtype_scalar_type_name (dt));
          return NULL;
        }
    }
  else
    {
      g.o = weight->shape[1] * s.groups;
      if (g.n == 0)   /* no batch: no further checks in ATen either */
        {
          int64_t ohh = (g.h - 1) * g.sh - 2 * g.ph + g.dh * (g.kh - 1) + oph + 1;
          int64_t oww = (g.w - 1) * g.sw - 2 * g.pw + g.dw * (g.kw - 1) + opw + 1;
          int64_t sh[4] = { 0, g.o, one_d ? oww : ohh, oww };
          return fx_tensor_zeros (dt, k, sh);
        }
      if (g.dw <= 0 || g.dh <= 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "dilation should be greater than zero, but got dilation_height: %"
                       G_GINT64_FORMAT ", dilation_width: %" G_GINT64_FORMAT, g.dh, g.dw);
          return NULL;
        }
      if (!((opw < g.sw || opw < g.dw) && (oph < g.sh || oph < g.dh)))
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "output padding must be smaller than either stride or dilation, but got "
                       "output_padding_height: %" G_GINT64_FORMAT " output_padding_width: %"
                       G_GINT64_FORMAT " stride_height: %" G_GINT64_FORMAT " stride_width: %"
                       G_GINT64_FORMAT " dilation_height: %" G_GINT64_FORMAT
                       " dilation_width: %" G_GINT64_FORMAT, oph, opw, g.sh, g.sw, g.dh, g.dw);
          return NULL;
        }
      g.oh = (g.h - 1) * g.sh - 2 * g.ph + g.dh * (g.kh - 1) + oph + 1;
      g.ow = (g.w - 1) * g.sw - 2 * g.pw + g.dw * (g.kw - 1) + opw + 1;
      if (g.oh < 1 || g.ow < 1)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Given input size per channel: (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT
                       "). Calculated output size per channel: (%" G_GINT64_FORMAT " x %"
                       G_GINT64_FORMAT "). Output size is too small", g.h, g.w, g.oh, g.ow);
          return NULL;
        }
      if (dt == FX_DTYPE_BOOL || dt == FX_DTYPE_FLOAT16)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "\"slow_conv_transpose2d_out_cpu\" not implemented for '%s'",
                       fx_dtype_scalar_type_name (dt));
          return NULL;
        }
    }
  if (weight->dtype != dt)
    {
      if (dt == FX_DTYPE_FLOAT32 && would_use_mkldnn (&g, &s, g.kh, g.kw))
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Input type (%s) and weight type (%s) should be the same or input should "
                     "be a MKLDNN tensor and weight is a dense tensor", fx_dtype_aten_type_name (dt),
                     fx_dtype_aten_type_name (weight->dtype));
      else
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "expected scalar type %s but found %s",
                     fx_dtype_scalar_type_name (dt), fx_dtype_scalar_type_name (weight->dtype));
      return NULL;
    }
  if (bias != NULL && bias->dtype != dt)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "expected scalar type %s but found %s",
                   fx_dtype_scalar_type_name (dt), fx_dtype_scalar_type_name (bias->dtype));
      return NULL;
    }

  out_shape[0] = g.n;
  out_shape[1] = g.o;
  out_shape[2] = one_d ? g.ow : g.oh;
  out_shape[3] = g.ow;
  /* Planes padded to whole cache lines (fx_conv_plane_stride): read as they are by the
   * float32 paths that take a plane stride; ep->pad_planes lets the output have them when its
   * planes are not whole lines, unless a residual laid out otherwise decides. */
  gboolean planes = !transposed && dt == FX_DTYPE_FLOAT32 && k == 4 && takes_plane_strides (&g);
  int64_t in_plane = planes ? fx_conv_plane_stride (input) : 0;
  g_autoptr (FxTensor) in_c = in_plane > 0 ? fx_tensor_ref (input) : fx_tensor_contiguous (input);
  g.in_plane = in_plane > 0 ? in_plane : g.h * g.w;
  g.out_plane = g.oh * g.ow;
  if (planes && ep != NULL && ep->pad_planes && g.out_plane % 16 != 0)
    g.out_plane = (g.out_plane + 15) / 16 * 16;
  FxConvEpilogue ep_contiguous;
  g_autoptr (FxTensor) residual_c = NULL;
  if (!transposed && ep != NULL && ep->residual != NULL && k == 4
      && fx_conv_plane_stride (ep->residual) != g.out_plane)
    {
      g.out_plane = g.oh * g.ow;   /* the residual's layout, or a contiguous copy of it */
      ep = residual_unpadded (ep, &ep_contiguous, &residual_c);
    }
  g_autoptr (FxTensor) w_c = fx_tensor_contiguous (weight);
  g_autoptr (FxTensor) b_c = bias ? fx_tensor_contiguous (bias) : NULL;
  if (!transposed && !residual_fits (ep, k, out_shape, g.out_plane, error))
    return NULL;
  FxTensor *out;
  if (g.out_plane != g.oh * g.ow)
    {
      int64_t total = g.n * g.o * g.out_plane;
      int64_t strides[4] = { g.o * g.out_plane, g.out_plane, g.ow, 1 };
      g_autoptr (FxTensor) storage = fx_tensor_new_uninit (dt, 1, &total);
      out = fx_tensor_as_strided (storage, 4, out_shape, strides, 0, NULL);
    }
  else
    out = fx_tensor_new_uninit (dt, k, out_shape);
  const void *bp = b_c ? fx_tensor_data (b_c) : NULL;
  if (fx_dtype_is_floating (dt))
    {
      if (transposed)
        conv_transpose_float (dt, &g, fx_tensor_data (in_c), fx_tensor_data (w_c), bp,
                              fx_tensor_data (out));
      else
        conv_forward_float (dt, &g, fx_tensor_data (in_c), fx_tensor_data (w_c), bp,
                            fx_tensor_data (out), dt == FX_DTYPE_FLOAT32 ? ep : NULL);
    }
  else
    conv_int (dt, &g, transposed, fx_tensor_data (in_c), fx_tensor_data (w_c), bp,
              fx_tensor_data (out));
  return out;
}

/* ---- the public functions: batching, padding modes ---- */

static FxTensor *
batchify (FxTensor *input, int spatial, const char *name, gboolean *batched, GError **error)
{
  if (input->ndim != spatial + 1 && input->ndim != spatial + 2)
    {
      g_autofree char *s = list_str (input->ndim, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of "
                   "size: %s", spatial + 1, spatial + 2, name, s);
      return NULL;
    }
  *batched = input->ndim == spatial + 2;
  return *batched ? fx_tensor_ref (input) : fx_tensor_unsqueeze (input, 0, error);
}

static FxTensor *
unbatch (FxTensor *out, gboolean batched, GError **error)
{
  if (out == NULL || batched)
    return out;
  FxTensor *r = fx_tensor_squeeze_dim (out, 0, error);
  fx_tensor_unref (out);
  return r;
}

/* Zero-pads the end of each spatial dim of a batched input by extra[i] (padding='same' with
 * an even total padding puts the odd element at the end, as ATen does). */
static FxTensor *
pad_end (FxTensor *input, int dim, const int64_t *extra)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  memcpy (shape, input->shape, sizeof (int64_t) * input->ndim);
  for (int i = 0; i < dim; i++)
    shape[input->ndim - dim + i] += extra[i];
  FxTensor *out = fx_tensor_zeros (input->dtype, input->ndim, shape);
  g_autoptr (FxTensor) region = fx_tensor_as_strided (out, input->ndim, input->shape,
                                                      out->strides, out->offset, NULL);
  if (region != NULL)
    fx_tensor_copy_into (region, input, NULL);
  return out;
}

static FxTensor *conv_nd (FxTensor *input, FxTensor *weight, FxTensor *bias,
                          const FxConvParams *p, int spatial, const char *name, GError **error);

/* ATen's _convolution_mode: padding='same' / 'valid' (after batching). */
static FxTensor *
conv_mode (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p,
           int spatial, const char *name, GError **error)
{
  FxConvParams q = *p;
  q.padding_mode = NULL;
  if (g_strcmp0 (p->padding_mode, "valid") == 0)
    {
      q.n_padding = 1;
      q.padding[0] = 0;
      return conv_nd (input, weight, bias, &q, spatial, name, error);
    }
  if (g_strcmp0 (p->padding_mode, "same") != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Invalid padding string: '%s'",
                   p->padding_mode ? p->padding_mode : "");
      return NULL;
    }
  int k = weight->ndim;
  if (k <= 2)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "weight should have at least three dimensions");
      return NULL;
    }
  int dim = k - 2;
  if (k != input->ndim)
    {
      g_autofree char *w = list_str (k, weight->shape), *in = list_str (input->ndim, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "Expected %d-dimensional input for %d-dimensional weight%s, but got "
                   "%d-dimensional input of size %s instead", k, k, w, input->ndim, in);
      return NULL;
    }
  if (p->n_stride != 1 && p->n_stride != dim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "stride cannot broadcast to %d dimensions",
                   dim);
      return NULL;
    }
  if (p->n_dilation != 1 && p->n_dilation != dim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "dilation cannot broadcast to %d dimensions", dim);
      return NULL;
    }
  for (int i = 0; i < p->n_stride; i++)
    if (p->stride[i] != 1)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                             "padding='same' is not supported for strided convolutions");
        return NULL;
      }
  int64_t extra[FX_TENSOR_MAX_DIMS];
  gboolean asymmetric = FALSE;
  q.n_padding = dim;
  for (int i = 0; i < dim; i++)
    {
      int64_t d = p->dilation[p->n_dilation == 1 ? 0 : i];
      int64_t total = d * (weight->shape[i + 2] - 1);
      int64_t left = total / 2;
      q.padding[i] = left;
      extra[i] = total - 2 * left;
      asymmetric |= extra[i] != 0;
    }
  if (!asymmetric)
    return conv_nd (input, weight, bias, &q, spatial, name, error);
  g_autoptr (FxTensor) padded = pad_end (input, dim, extra);
  return conv_nd (padded, weight, bias, &q, spatial, name, error);
}

/* at::conv1d / at::conv2d: bias dtype, batching, then the convolution. */
static FxTensor *
conv_nd (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p,
         int spatial, const char *name, GError **error)
{
  gboolean batched;
  if (p->padding_mode != NULL)
    {
      g_autoptr (FxTensor) in = batchify (input, spatial, name, &batched, error);
      if (in == NULL)
        return NULL;
      return unbatch (conv_mode (in, weight, bias, p, spatial, name, error), batched, error);
    }
  if (bias != NULL && bias->dtype != input->dtype)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Input type (%s) and bias type (%s) should be the same",
                   fx_dtype_typemeta_name (input->dtype), fx_dtype_typemeta_name (bias->dtype));
      return NULL;
    }
  g_autoptr (FxTensor) in = batchify (input, spatial, name, &batched, error);
  if (in == NULL)
    return NULL;
  return unbatch (convolution (in, weight, bias, p, FALSE, NULL, error), batched, error);
}

FxTensor *
fx_tensor_conv1d (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p,
                  GError **error)
{
  return conv_nd (input, weight, bias, p, 1, "conv1d", error);
}

FxTensor *
fx_tensor_conv2d (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p,
                  GError **error)
{
  return conv_nd (input, weight, bias, p, 2, "conv2d", error);
}

FxTensor *
fx_tensor_conv2d_fused (FxTensor *input, FxTensor *weight, FxTensor *bias,
                        const FxConvParams *p, const FxConvEpilogue *ep, GError **error)
{
  /* The plain path where the epilogue cannot ride along (padding modes, unbatched or
   * non-float32 input): convolution, then the same arithmetic as a separate pass. */
  if (ep == NULL || p->padding_mode != NULL || input->ndim != 4 || weight->ndim != 4
      || input->dtype != FX_DTYPE_FLOAT32 || weight->dtype != FX_DTYPE_FLOAT32
      || (bias != NULL && bias->dtype != FX_DTYPE_FLOAT32))
    {
      FxTensor *out = fx_tensor_conv2d (input, weight, bias, p, error);
      FxConvEpilogue ep_contiguous;
      g_autoptr (FxTensor) residual_c = NULL;
      ep = residual_unpadded (ep, &ep_contiguous, &residual_c);
      if (out != NULL && !residual_fits (ep, out->ndim, out->shape, 0, error))
        g_clear_pointer (&out, fx_tensor_unref);
      if (out != NULL && ep != NULL && out->dtype == FX_DTYPE_FLOAT32
          && (out->ndim == 3 || out->ndim == 4) && fx_tensor_is_contiguous (out))
        {
          int nd = out->ndim;
          int64_t plane = out->shape[nd - 2] * out->shape[nd - 1], ch = out->shape[nd - 3];
          for (int64_t n = 0; n < (nd == 4 ? out->shape[0] : 1); n++)
            {
              float *base = fx_tensor_data (out), *at = base + n * ch * plane;
              epilogue_rows (ep, at, fx_conv_epilogue_residual_at (ep, base, at), 0, ch, plane,
                             plane);
            }
        }
      else if (out != NULL && ep != NULL)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "conv2d_fused: the epilogue needs a float32 output");
          g_clear_pointer (&out, fx_tensor_unref);
        }
      return out;
    }
  return convolution (input, weight, bias, p, FALSE, ep, error);
}

/* p's stride, padding and dilation as two values each, as convolution () expands them, or
 * FALSE where it would refuse them (it then says why). */
static gboolean
conv2d_params (const FxConvParams *p, int64_t *stride, int64_t *padding, int64_t *dilation)
{
  return expand_param ("stride", p->n_stride, p->stride, 2, stride, NULL)
         && expand_param ("padding", p->n_padding, p->padding, 2, padding, NULL)
         && expand_param ("dilation", p->n_dilation, p->dilation, 2, dilation, NULL);
}

/* bias is NULL, or a contiguous float32 vector of o values. */
static gboolean
f32_bias_fits (const FxTensor *bias, int64_t o)
{
  return bias == NULL || (bias->dtype == FX_DTYPE_FLOAT32 && bias->ndim == 1
                          && bias->shape[0] == o && fx_tensor_is_contiguous (bias));
}

/* ---- two 1×1 convolutions into one output (ResNet's conv3 and downsample) ----
 * The second convolution's epilogue adds the first's finished output as its residual. Run
 * apart, that first output (3.2 MB at 56×56) goes to memory and comes back; here each task
 * of output positions makes its tile of it into a buffer in its core's cache and runs the
 * second product over the same positions at once (ResNet-50's layer1.0: 1.57 → 1.42 ms,
 * best of 8 alternating runs, three times). Both products are fx_sgemm_stream's on
 * positions in whole vectors, as conv2d_fused's paths run them (weights of up to 1.5 MiB:
 * streams_product), so every output is the same sum in the same order: the result is
 * conv2d_fused (B, residual = conv2d_fused (A)) bit for bit. Stride 1 only: a strided second
 * convolution (layer2.0, its columns gathered tile by tile) measured no faster than the two
 * convolutions apart. */
typedef struct {
  int64_t o, ka, kb, ncols, tile;
  const float *a_in, *a_w, *a_bias, *b_in, *b_w, *b_bias;
  int64_t a_plane, b_plane;       /* floats between input planes */
  const FxConvEpilogue *a_ep, *b_ep;
  float *out;
} PairJob;

static void
pair_tasks (int64_t begin, int64_t end, gpointer data)
{
  const PairJob *j = data;
  /* the thread's im2col buffer, which no product here needs */
  float *first = scratch_buffer (sizeof (float) * j->o * j->tile);
  for (int64_t t = begin; t < end; t++)
    {
      int64_t c0 = t * j->tile, width = MIN (j->tile, j->ncols - c0);
      FxGemmEpilogue a_gep = gemm_epilogue (j->a_ep, j->a_bias, 0, NULL, j->tile);
      fx_sgemm_stream (j->o, width, j->ka, j->a_w, j->ka, j->a_in + c0, j->a_plane, first,
                       j->tile, &a_gep);
      FxGemmEpilogue b_gep = gemm_epilogue (j->b_ep, j->b_bias, 0, first, j->tile);
      fx_sgemm_stream (j->o, width, j->kb, j->b_w, j->kb, j->b_in + c0, j->b_plane,
                       j->out + c0, j->ncols, &b_gep);
    }
}

/* Whether conv (input, weight, bias, p) is a 1×1 stride-1 convolution of one image without
 * padding that pair_tasks takes. */
static gboolean
pair_conv_fits (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p)
{
  int64_t stride[2], padding[2], dilation[2];
  if (p->padding_mode != NULL || p->groups != 1 || input->ndim != 4 || weight->ndim != 4
      || input->dtype != FX_DTYPE_FLOAT32 || weight->dtype != FX_DTYPE_FLOAT32
      || input->shape[0] != 1 || weight->shape[1] != input->shape[1] || weight->shape[2] != 1
      || weight->shape[3] != 1 || !fx_tensor_is_contiguous (weight)
      || fx_conv_plane_stride (input) == 0
      || weight->shape[0] * weight->shape[1] * (int64_t) sizeof (float) > (3 << 19)
      || !f32_bias_fits (bias, weight->shape[0])
      || !conv2d_params (p, stride, padding, dilation))
    return FALSE;
  for (int d = 0; d < 2; d++)
    if (stride[d] != 1 || padding[d] != 0 || dilation[d] != 1)
      return FALSE;
  return TRUE;
}

FxTensor *
fx_tensor_conv2d_fused_pair (FxTensor *a_input, FxTensor *a_weight, FxTensor *a_bias,
                             const FxConvParams *a_params, const FxConvEpilogue *a_ep,
                             FxTensor *b_input, FxTensor *b_weight, FxTensor *b_bias,
                             const FxConvParams *b_params, const FxConvEpilogue *b_ep,
                             GError **error)
{
  if (fx_sgemm_stream_native () && (a_ep == NULL || a_ep->residual == NULL)
      && (b_ep == NULL || b_ep->residual == NULL)
      && pair_conv_fits (a_input, a_weight, a_bias, a_params)
      && pair_conv_fits (b_input, b_weight, b_bias, b_params)
      && a_input->shape[2] == b_input->shape[2] && a_input->shape[3] == b_input->shape[3]
      && a_weight->shape[0] == b_weight->shape[0]
      && (a_input->shape[2] * a_input->shape[3]) % 16 == 0)
    {
      int64_t o = a_weight->shape[0], ncols = a_input->shape[2] * a_input->shape[3];
      int64_t shape[4] = { 1, o, a_input->shape[2], a_input->shape[3] };
      FxTensor *out = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, 4, shape);
      /* the first output's tile: 128 KiB, whole vectors (as fast as 256 KiB on layer1.0;
       * 512 KiB ran 25% slower on layer2.0's) */
      int64_t tile = CLAMP ((int64_t) 32768 / o, (int64_t) 64, (int64_t) 256) / 16 * 16;
      PairJob j = { o, a_weight->shape[1], b_weight->shape[1], ncols, MIN (tile, ncols),
                    fx_tensor_data (a_input), fx_tensor_data (a_weight),
                    a_bias ? fx_tensor_data (a_bias) : NULL, fx_tensor_data (b_input),
                    fx_tensor_data (b_weight), b_bias ? fx_tensor_data (b_bias) : NULL,
                    fx_conv_plane_stride (a_input), fx_conv_plane_stride (b_input), a_ep, b_ep,
                    fx_tensor_data (out) };
      /* tiles claimed one by one: in chunks of 4 (layer1.0's 25 tiles), the caller waited
       * 0.1-0.2 ms for the other thread's last chunk */
      fx_blas_enter_single_threaded ();
      fx_parallel_for_each ((ncols + j.tile - 1) / j.tile, pair_tasks, &j);
      fx_blas_leave_single_threaded ();
      return out;
    }
  /* the first output laid out as the second may be (planes padded to whole lines), which
   * the second's residual then fits as it is */
  FxConvEpilogue a_layout;
  if (a_ep != NULL && b_ep != NULL && b_ep->pad_planes)
    {
      a_layout = *a_ep;
      a_layout.pad_planes = TRUE;
      a_ep = &a_layout;
    }
  g_autoptr (FxTensor) first = fx_tensor_conv2d_fused (a_input, a_weight, a_bias, a_params,
                                                       a_ep, error);
  if (first == NULL)
    return NULL;
  FxConvEpilogue ep = b_ep ? *b_ep : (FxConvEpilogue) { 0 };
  ep.residual = first;
  return fx_tensor_conv2d_fused (b_input, b_weight, b_bias, b_params, &ep, error);
}

/* The value of a pooling parameter given as n_v values (1 or 2) in dimension d. */
static int64_t
pool_param (int n_v, const int64_t *v, int d, int64_t omitted)
{
  return n_v == 0 ? omitted : v[n_v == 1 ? 0 : d];
}

/* Whether (input, weight, bias, p, ep) is a stem that conv_stem_max_pool takes with `pool`
 * (kernel 3, stride 2, padding 1, dilation 1, floor mode), and then its geometry in *g. */
static gboolean
stem_max_pool_applies (FxTensor *input, FxTensor *weight, FxTensor *bias,
                       const FxConvParams *p, const FxConvEpilogue *ep, const FxPoolParams *pool,
                       Geom *g)
{
  int64_t stride[2], padding[2], dilation[2];
  if (p->padding_mode != NULL || p->groups != 1 || (ep != NULL && ep->residual != NULL)
      || input->ndim != 4 || weight->ndim != 4 || input->dtype != FX_DTYPE_FLOAT32
      || weight->dtype != FX_DTYPE_FLOAT32 || input->shape[0] < 1 || input->shape[1] < 1
      || weight->shape[1] != input->shape[1] || weight->shape[0] < 1
      || !fx_tensor_is_contiguous (input) || !fx_tensor_is_contiguous (weight)
      || !f32_bias_fits (bias, weight->shape[0]) || !conv2d_params (p, stride, padding, dilation)
      || pool->ceil_mode || (pool->n_kernel != 1 && pool->n_kernel != 2))
    return FALSE;
  for (int d = 0; d < 2; d++)
    if (pool_param (pool->n_kernel, pool->kernel, d, 0) != 3
        || pool_param (pool->n_stride, pool->stride, d, 3) != 2
        || pool_param (pool->n_padding, pool->padding, d, 0) != 1
        || pool_param (pool->n_dilation, pool->dilation, d, 1) != 1)
      return FALSE;
  *g = (Geom) { 0 };
  g->n = input->shape[0];
  g->c = input->shape[1];
  g->h = input->shape[2];
  g->w = input->shape[3];
  g->o = weight->shape[0];
  g->kh = weight->shape[2];
  g->kw = weight->shape[3];
  g->sh = stride[0];
  g->sw = stride[1];
  g->ph = padding[0];
  g->pw = padding[1];
  g->dh = dilation[0];
  g->dw = dilation[1];
  g->groups = 1;
  if (g->ph < 0 || g->pw < 0 || g->h + 2 * g->ph < g->kh || g->w + 2 * g->pw < g->kw)
    return FALSE;
  g->oh = (g->h + 2 * g->ph - g->kh) / 2 + 1;
  g->ow = (g->w + 2 * g->pw - g->kw) / 2 + 1;
  g->in_plane = g->h * g->w;
  g->out_plane = g->oh * g->ow;
  /* the pool's windows need at least its padding's worth of image */
  return g->oh >= 2 && g->ow >= 2 && stem_applies (g);
}

FxTensor *
fx_tensor_conv2d_fused_max_pool (FxTensor *input, FxTensor *weight, FxTensor *bias,
                                 const FxConvParams *p, const FxConvEpilogue *ep,
                                 const FxPoolParams *pool, GError **error)
{
  Geom g;
  if (stem_max_pool_applies (input, weight, bias, p, ep, pool, &g))
    {
      int64_t shape[4] = { g.n, g.o, (g.oh - 1) / 2 + 1, (g.ow - 1) / 2 + 1 };
      FxTensor *out = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, 4, shape);
      conv_stem_max_pool (&g, fx_tensor_data (input), fx_tensor_data (weight),
                          bias ? fx_tensor_data (bias) : NULL, ep, fx_tensor_data (out),
                          shape[2], shape[3]);
      return out;
    }
  g_autoptr (FxTensor) conv = fx_tensor_conv2d_fused (input, weight, bias, p, ep, error);
  return conv ? fx_tensor_max_pool2d (conv, pool, NULL, error) : NULL;
}

static FxTensor *
conv_transpose_nd (FxTensor *input, FxTensor *weight, FxTensor *bias, const FxConvParams *p,
                   int spatial, const char *name, GError **error)
{
  gboolean batched;
  g_autoptr (FxTensor) in = batchify (input, spatial, name, &batched, error);
  if (in == NULL)
    return NULL;
  return unbatch (convolution (in, weight, bias, p, TRUE, NULL, error), batched, error);
}

FxTensor *
fx_tensor_conv_transpose1d (FxTensor *input, FxTensor *weight, FxTensor *bias,
                            const FxConvParams *p, GError **error)
{
  return conv_transpose_nd (input, weight, bias, p, 1, "conv_transpose1d", error);
}

FxTensor *
fx_tensor_conv_transpose2d (FxTensor *input, FxTensor *weight, FxTensor *bias,
                            const FxConvParams *p, GError **error)
{
  return conv_transpose_nd (input, weight, bias, p, 2, "conv_transpose2d", error);
}
