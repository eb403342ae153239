/* winograd.c: 3×3 stride-1 float32 convolutions by Winograd's F(m×m, 3×3), m = 2 or 4.
 * Each α×α input tile (α = m + 2) and each 3×3 filter go to the transform domain, where the
 * convolution is α² independent products [O×C]·[C×tiles], and each output tile comes back
 * through the inverse transform with bias and conv2d_fused's epilogue. The filters are
 * transformed per block of output channels, just before that block's products, into a
 * buffer that stays in the core's cache.
 * F(4×4) needs 36 multiplications per 16 outputs instead of 144 (F(2×2): 16 per 4 instead
 * of 36); the price is the transforms and a larger rounding error (see test-conv-winograd.c).
 *
 * Tiles are handled LANES at a time in vectors (GCC vector extensions), compiled three times:
 * plain (runs anywhere), AVX2 and AVX-512, picked once from the CPU's flags. On AVX-512 the
 * products run with output channels in the lanes instead (below).
 * Buffers that α² streams write or read together are a cache line longer than their rows
 * need, so that the streams do not all land in the same L1 set. */
#include "tensor/winograd.h"

#include <math.h>
#include <string.h>
#include <stdatomic.h>
#include "tensor/blas.h"

#define LANES 16
typedef float v16 __attribute__ ((vector_size (LANES * sizeof (float))));
/* unaligned, aliasing float memory */
typedef float v16u __attribute__ ((vector_size (LANES * sizeof (float)), aligned (4),
                                   may_alias));
#define LD(p) (*(const v16u *) (p))
#define ST(p, v) (*(v16u *) (p) = (v))

#define MAX_ALPHA 6

typedef struct {
  const FxWinogradShape *s;
  int m, alpha, P;           /* P = α² transform-domain points */
  int64_t th, tw;            /* tiles per image: th rows × tw columns */
  int64_t rpb, nb;           /* tile rows per block, blocks per image */
  int64_t ld;                /* row stride of M: rpb·tw tiles + LANES of slack */
  int64_t ldv;               /* row stride of V: rpb·tw tiles, no slack (see input_body) */
  int64_t vstride;           /* floats from one point's V [C][ldv] to the next's: C·ldv plus a
                              * cache line, so that the α² rows written or read together do
                              * not all fall in the same L1 set (C·ldv is often a multiple
                              * of 4 KiB, and the α² streams then evict each other) */
  int64_t row_floats;        /* length of input_body's row buffers */
  const float *in, *weight, *bias;
  float *out;
  const FxConvEpilogue *ep;
  int64_t ob;                /* output channels per block of just-in-time weights */
  int64_t slice, n_slices;   /* slice mode: output channels per task, tasks per block */
  guint64 call;              /* slice mode: this call's number */
  gboolean lanes;            /* products with the output channels in the lanes (below) */
  int64_t cc;                /* lanes: input channels per chunk of just-in-time weights */
  gboolean raw_ahead;        /* lanes: the next chunk's raw filters are fetched during this
                              * chunk's products (RawAhead) */
} WinoJob;

/* ------------------------------------------------------------------------------------------
 * The 1-d transforms, on vectors of LANES independent values
 * ------------------------------------------------------------------------------------------ */

/* Input: α values d[0..α) → α values w[0..α) (B^T d). */
#define IN_TF4(d, w)                                                                        \
  do {                                                                                      \
    (w)[0] = (d)[0] * 4.f - (d)[2] * 5.f + (d)[4];                                           \
    (w)[1] = ((d)[3] + (d)[4]) - ((d)[1] + (d)[2]) * 4.f;                                    \
    (w)[2] = ((d)[4] - (d)[3]) + ((d)[1] - (d)[2]) * 4.f;                                    \
    (w)[3] = ((d)[4] - (d)[2]) + ((d)[3] - (d)[1]) * 2.f;                                    \
    (w)[4] = ((d)[4] - (d)[2]) - ((d)[3] - (d)[1]) * 2.f;                                    \
    (w)[5] = (d)[1] * 4.f - (d)[3] * 5.f + (d)[5];                                           \
  } while (0)
#define IN_TF2(d, w)                                                                        \
  do {                                                                                      \
    (w)[0] = (d)[0] - (d)[2];                                                               \
    (w)[1] = (d)[1] + (d)[2];                                                               \
    (w)[2] = (d)[2] - (d)[1];                                                               \
    (w)[3] = (d)[1] - (d)[3];                                                               \
  } while (0)

/* Output: α values → m values (A^T x). */
#define OUT_TF4(x, y)                                                                       \
  do {                                                                                      \
    v16 a_ = (x)[1] + (x)[2], b_ = (x)[1] - (x)[2];                                         \
    v16 c_ = (x)[3] + (x)[4], d_ = (x)[3] - (x)[4];                                         \
    (y)[0] = (x)[0] + a_ + c_;                                                              \
    (y)[1] = b_ + d_ * 2.f;                                                                 \
    (y)[2] = a_ + c_ * 4.f;                                                                 \
    (y)[3] = b_ + d_ * 8.f + (x)[5];                                                        \
  } while (0)
#define OUT_TF2(x, y)                                                                       \
  do {                                                                                      \
    (y)[0] = (x)[0] + (x)[1] + (x)[2];                                                      \
    (y)[1] = (x)[1] - (x)[2] - (x)[3];                                                      \
  } while (0)

/* Filter: 3 values → α values (G g). */
#define W_TF4(g, u)                                                                         \
  do {                                                                                      \
    v16 s_ = (g)[0] + (g)[2];                                                               \
    v16 t_ = (g)[0] * (1.f / 24) + (g)[2] * (1.f / 6);                                      \
    (u)[0] = (g)[0] * 0.25f;                                                                \
    (u)[1] = (s_ + (g)[1]) * (-1.f / 6);                                                    \
    (u)[2] = (s_ - (g)[1]) * (-1.f / 6);                                                    \
    (u)[3] = t_ + (g)[1] * (1.f / 12);                                                      \
    (u)[4] = t_ - (g)[1] * (1.f / 12);                                                      \
    (u)[5] = (g)[2];                                                                        \
  } while (0)
#define W_TF2(g, u)                                                                         \
  do {                                                                                      \
    v16 s_ = (g)[0] + (g)[2];                                                               \
    (u)[0] = (g)[0];                                                                        \
    (u)[1] = (s_ + (g)[1]) * 0.5f;                                                          \
    (u)[2] = (s_ - (g)[1]) * 0.5f;                                                          \
    (u)[3] = (g)[2];                                                                        \
  } while (0)

/* The transform down the columns: dst[i][k] = TF(src[0..n_in)[k])[i] for i < n_out, k < ncols
 * (TF4 when α is 6, else TF2). The second pass of each 2-d transform is TF on dst's rows. */
#define DOWN_COLUMNS(src, dst, n_in, n_out, ncols, a, TF4, TF2)                              \
  for (int k_ = 0; k_ < (ncols); k_++)                                                      \
    {                                                                                       \
      v16 col_[MAX_ALPHA], res_[MAX_ALPHA];                                                 \
      for (int i_ = 0; i_ < (n_in); i_++)                                                   \
        col_[i_] = (src)[i_][k_];                                                           \
      if ((a) == 6)                                                                         \
        TF4 (col_, res_);                                                                   \
      else                                                                                  \
        TF2 (col_, res_);                                                                   \
      for (int i_ = 0; i_ < (n_out); i_++)                                                  \
        (dst)[i_][k_] = res_[i_];                                                           \
    }

/* ------------------------------------------------------------------------------------------
 * Kernels: bodies inlined into one function per instruction set
 * ------------------------------------------------------------------------------------------ */

#define ALWAYS_INLINE static inline __attribute__ ((always_inline))

/* Lane shuffles: SHUF picks constant lanes from the 32 of two vectors (one vpermt2ps on
 * AVX-512), SHUF_VAR the lanes a vector of indices names. Clang (the fuzzing build) has
 * __builtin_shufflevector for the first and a loop for the second. */
typedef int32_t v16i __attribute__ ((vector_size (LANES * sizeof (int32_t))));
#ifdef __clang__
#define SHUF(a, b, ...) __builtin_shufflevector ((a), (b), __VA_ARGS__)
#define SHUF_VAR(a, b, m)                                                                   \
  ({                                                                                        \
    v16 a_ = (a), b_ = (b), r_;                                                             \
    v16i m_ = (m);                                                                          \
    for (int l_ = 0; l_ < LANES; l_++)                                                      \
      r_[l_] = m_[l_] < LANES ? a_[m_[l_]] : b_[m_[l_] - LANES];                            \
    r_;                                                                                     \
  })
#else
#define SHUF(a, b, ...) __builtin_shuffle ((a), (b), (v16i) { __VA_ARGS__ })
#define SHUF_VAR(a, b, m) __builtin_shuffle ((a), (b), (m))
#endif
#define EVENS 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define ODDS 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
/* v moved down one lane, s entering at the top */
#define NEXT(v, s) SHUF ((v), (v16) { (s) }, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
#define ZIP_LO 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23
#define ZIP_HI 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
#define PAIRS_LO 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23
#define PAIRS_HI 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31

/* (x0, x1, x2)[i] = (a ‖ b ‖ c)[3 i + k]: three vectors of triples taken apart, two
 * two-vector shuffles each. */
#define DEINTERLEAVE3(a, b, c, x)                                                           \
  do {                                                                                      \
    (x)[0] = SHUF (SHUF ((a), (b), 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0),  \
                   (c), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29);              \
    (x)[1] = SHUF (SHUF ((a), (b), 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0), \
                   (c), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 18, 21, 24, 27, 30);              \
    (x)[2] = SHUF (SHUF ((a), (b), 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0),  \
                   (c), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 19, 22, 25, 28, 31);              \
  } while (0)

/* The filters of output channels [o0, o1) → Ub[ξ·pstride + (o - o0)·C + c], 16 input
 * channels at a time. Their 16·9 taps are contiguous; two rounds of taking
 * triples apart (kernel rows, then the rows of the 16 filters) put each tap of the 16
 * filters in one vector, 36 shuffles instead of the 144 scalar copies that cost a third of
 * a layer. The block is small enough to stay in the core's L2 cache for the products that
 * read it right away, so no transformed weights the size of the layer's (16/9 of it for
 * F(2×2), 4 times for F(4×4)) are written to memory and read back. */
ALWAYS_INLINE void
weight_block_body (const WinoJob *j, int64_t o0, int64_t o1, float *Ub, int64_t pstride,
                   const int a)
{
  const int64_t C = j->s->c;
  float part[9 * LANES] __attribute__ ((aligned (64)));
  for (int64_t o = o0; o < o1; o++)
    for (int64_t c = 0; c < C; c += LANES)
      {
        int nv = (int) MIN ((int64_t) LANES, C - c);
        const float *src = j->weight + (o * C + c) * 9;
        if (nv < LANES)
          {
            memset (part, 0, sizeof part);
            memcpy (part, src, sizeof (float) * 9 * nv);
            src = part;
          }
        v16 d[3][3], e[3][3], g[3][3], t[MAX_ALPHA][3];
        /* d[h][q]: column q of triples 16h... (kernel rows of consecutive filters) */
        for (int h = 0; h < 3; h++)
          DEINTERLEAVE3 (LD (src + 48 * h), LD (src + 48 * h + 16), LD (src + 48 * h + 32),
                         d[h]);
        /* e[q][r]: column q of row r of the 16 filters */
        for (int q = 0; q < 3; q++)
          DEINTERLEAVE3 (d[0][q], d[1][q], d[2][q], e[q]);
        for (int r = 0; r < 3; r++)
          for (int q = 0; q < 3; q++)
            g[r][q] = e[q][r];
        DOWN_COLUMNS (g, t, 3, a, 3, a, W_TF4, W_TF2);
        v16 u[MAX_ALPHA][MAX_ALPHA];
        for (int i = 0; i < a; i++)
          {
            if (a == 6)
              W_TF4 (t[i], u[i]);
            else
              W_TF2 (t[i], u[i]);
          }
        float *dst = Ub + (o - o0) * C + c;
        if (nv == LANES)
          for (int i = 0; i < a; i++)
            for (int k = 0; k < a; k++)
              ST (dst + (i * a + k) * pstride, u[i][k]);
        else
          for (int i = 0; i < a; i++)
            for (int k = 0; k < a; k++)
              {
                float tmp[LANES] __attribute__ ((aligned (64)));
                ST (tmp, u[i][k]);
                memcpy (dst + (i * a + k) * pstride, tmp, sizeof (float) * nv);
              }
      }
}

/* memcpy for the short rows here (tens of floats), where the call costs more than the copy:
 * whole vectors, the last one overlapping the one before, or for fewer than 16 floats two
 * overlapping halves or quarters (a 14-float row of ResNet's 14×14 images was 14 scalar
 * copies). Nothing outside [src, src + n) is read, nor outside [dst, dst + n) written. */
typedef float v8u __attribute__ ((vector_size (8 * sizeof (float)), aligned (4), may_alias));
typedef float v4u __attribute__ ((vector_size (4 * sizeof (float)), aligned (4), may_alias));
ALWAYS_INLINE void
copy_floats (float *dst, const float *src, int64_t n)
{
  if (n >= LANES)
    {
      int64_t x = 0;
      for (; x + LANES < n; x += LANES)
        ST (dst + x, LD (src + x));
      ST (dst + n - LANES, LD (src + n - LANES));
    }
  else if (n >= 8)
    {
      v8u lo = *(const v8u *) src, hi = *(const v8u *) (src + n - 8);
      *(v8u *) dst = lo;
      *(v8u *) (dst + n - 8) = hi;
    }
  else if (n >= 4)
    {
      v4u lo = *(const v4u *) src, hi = *(const v4u *) (src + n - 4);
      *(v4u *) dst = lo;
      *(v4u *) (dst + n - 4) = hi;
    }
  else
    for (int64_t x = 0; x < n; x++)
      dst[x] = src[x];
}

/* The floats from one output plane to the next: s->out_plane, or the planes' H·W when 0. */
static inline int64_t
output_plane (const FxWinogradShape *s)
{
  return s->out_plane ? s->out_plane : s->oh * s->ow;
}

/* Tile rows [r0, r1) of image n, those of block blk. */
static inline void
block_rows (const WinoJob *j, int64_t blk, int64_t *n, int64_t *r0, int64_t *r1)
{
  *n = blk / j->nb;
  *r0 = (blk % j->nb) * j->rpb;
  *r1 = MIN (*r0 + j->rpb, j->th);
}

/* q[k][lane] = src[m·lane + k] for k < α: the 16 tiles' values at tile column k, pulled
 * out of a combined row by lane shuffles (a 4- or 2-way deinterleave, then shifts). */
#define PULL_TILES(src, q, a)                                                               \
  do {                                                                                      \
    const float *s_ = (src);                                                                \
    if ((a) == 6)                                                                           \
      {                                                                                     \
        v16 e01_ = SHUF (LD (s_), LD (s_ + 16), EVENS);                                     \
        v16 o01_ = SHUF (LD (s_), LD (s_ + 16), ODDS);                                      \
        v16 e23_ = SHUF (LD (s_ + 32), LD (s_ + 48), EVENS);                                \
        v16 o23_ = SHUF (LD (s_ + 32), LD (s_ + 48), ODDS);                                 \
        (q)[0] = SHUF (e01_, e23_, EVENS);                                                  \
        (q)[2] = SHUF (e01_, e23_, ODDS);                                                   \
        (q)[1] = SHUF (o01_, o23_, EVENS);                                                  \
        (q)[3] = SHUF (o01_, o23_, ODDS);                                                   \
        (q)[4] = NEXT ((q)[0], s_[64]);                                                     \
        (q)[5] = NEXT ((q)[1], s_[65]);                                                     \
      }                                                                                     \
    else                                                                                    \
      {                                                                                     \
        (q)[0] = SHUF (LD (s_), LD (s_ + 16), EVENS);                                       \
        (q)[1] = SHUF (LD (s_), LD (s_ + 16), ODDS);                                        \
        (q)[2] = NEXT ((q)[0], s_[32]);                                                     \
        (q)[3] = NEXT ((q)[1], s_[33]);                                                     \
      }                                                                                     \
  } while (0)

/* Tile rows that share a vector of the transforms (input_body): 4 for images of up to 4
 * tiles a row, 2 for up to 8, else 1. COMB_ROWS: the most, for the combined rows' buffer. */
#define COMB_ROWS 4
static inline int64_t
rows_per_vector_for (int64_t tw)
{
  return tw <= LANES / 4 ? 4 : tw <= LANES / 2 ? 2 : 1;
}

/* Input channels [c0, c1) of block blk → V [P][C][ld]. Each channel's rows that the block
 * reads are copied into a zero-padded plane (its borders are zeroed once per call and never
 * written again: copying rows with their padding, α per tile row, cost more than the
 * transform). Then one tile row at a time: the α rows it covers are combined down the
 * rows (B^T, contiguous vectors along x), the values at x = m·tx + k are pulled out for
 * 16 tiles tx by lane shuffles and combined along x (B), leaving each point's 16 tiles in
 * one vector. */
ALWAYS_INLINE void
input_body (const WinoJob *j, int64_t blk, int64_t c0, int64_t c1, float *V, float *rows,
            const int a)
{
  const FxWinogradShape *s = j->s;
  const int m = a - 2;
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  int64_t width = j->row_floats;   /* ≥ m·(groups of 16 tiles)·16 + 16, ≥ w + 2 pw */
  int64_t prow0 = r0 * m, prow1 = (r1 - 1) * m + a;   /* padded rows the block reads */
  /* Narrow images (8 tiles a row or fewer): one vector takes the tiles of two tile rows,
   * lanes [0, tw) from the first and the rest from the second, so that they follow each
   * other as in V; of four tile rows when they have 4 tiles or fewer (14×14 in F(4×4),
   * 7×7 in F(2×2)), whose vectors would otherwise be half empty. */
  const int64_t rows_per_vector = rows_per_vector_for (j->tw);
  float *comb = rows, *pad = rows + COMB_ROWS * a * width;   /* padded row p: pad[(p - prow0)·width] */
  memset (pad, 0, sizeof (float) * (prow1 - prow0) * width);
  /* Only the columns tiles read are combined (x < m·tw + 2); the rest of comb stays zero,
   * for the lanes past the last tile to read. */
  int64_t comb_width = (j->tw * m + 2 + LANES - 1) / LANES * LANES;
  memset (comb, 0, sizeof (float) * rows_per_vector * a * width);
  int64_t y_lo = MAX (prow0 - s->ph, (int64_t) 0), y_hi = MIN (prow1 - s->ph, s->h);
  /* merge: lanes [0, tw) of its first vector, then the second's from lane 0; merge2: the
   * same for two vectors of 2·tw lanes each */
  v16i merge, merge2;
  for (int l = 0; l < LANES; l++)
    {
      merge[l] = l < j->tw ? l : LANES + l - (int) j->tw;
      merge2[l] = l < 2 * j->tw ? l : LANES + l - 2 * (int) j->tw;
    }
  /* V's rows of the next channel are prefetched for writing: V (a megabyte or more) was
   * last used a few layers before, and its lines come back from memory; with α² streams of
   * stores the hardware's prefetchers did not keep up, and the layers waited for them. In
   * a ResNet-50 forward its 3×3 stride-1 layers together took 6.28-6.37 ms → 6.01-6.18 ms
   * (fx exec --profile, 8 of 8 alternating runs faster). */
  int64_t v_len = (r1 - r0) * j->tw;   /* floats of a channel's row of V per point */
  for (int64_t c = c0; c < c1; c++)
    {
      const float *plane = j->in + (n * s->c + c) * (s->in_plane ? s->in_plane : s->h * s->w);
      if (c + 1 < c1)
        for (int x = 0; x < a * a; x++)
          {
            const float *next = V + x * j->vstride + (c + 1) * j->ldv;
            fx_prefetch_range (next, next + v_len, TRUE);
          }
      for (int64_t y = y_lo; y < y_hi; y++)
        copy_floats (pad + (y + s->ph - prow0) * width + s->pw, plane + y * s->w, s->w);
      for (int64_t ty = r0; ty < r1; ty += rows_per_vector)
        {
          /* the α rows of tile row ty (and ty + 1) combined down the rows */
          for (int64_t q = 0; q < rows_per_vector && ty + q < r1; q++)
            for (int64_t x = 0; x < comb_width; x += LANES)
              {
                v16 d[MAX_ALPHA], w[MAX_ALPHA];
                for (int r = 0; r < a; r++)
                  d[r] = LD (pad + ((ty + q) * m + r - prow0) * width + x);
                if (a == 6)
                  IN_TF4 (d, w);
                else
                  IN_TF2 (d, w);
                for (int i = 0; i < a; i++)
                  ST (comb + (q * a + i) * width + x, w[i]);
              }
          /* lone last rows: the missing rows' lanes are garbage that land in the slack or
           * on the next rows' tiles, written after these */
          const float *comb_q[4];
          for (int q = 0; q < 4; q++)
            comb_q[q] = comb + (ty + q < r1 && q < rows_per_vector ? q : 0) * a * width;
          float *vrow = V + c * j->ldv + (ty - r0) * j->tw;
          for (int64_t tx = 0; tx < j->tw; tx += LANES)
            for (int i = 0; i < a; i++)
              {
                v16 qv[MAX_ALPHA], res[MAX_ALPHA];
                PULL_TILES (comb + i * width + tx * m, qv, a);
                if (rows_per_vector >= 2)
                  {
                    v16 q2[MAX_ALPHA];
                    PULL_TILES (comb_q[1] + i * width, q2, a);
                    for (int k = 0; k < a; k++)
                      qv[k] = SHUF_VAR (qv[k], q2[k], merge);
                  }
                if (rows_per_vector == 4)
                  {
                    v16 q3[MAX_ALPHA], q4[MAX_ALPHA];
                    PULL_TILES (comb_q[2] + i * width, q3, a);
                    PULL_TILES (comb_q[3] + i * width, q4, a);
                    for (int k = 0; k < a; k++)
                      qv[k] = SHUF_VAR (qv[k], SHUF_VAR (q3[k], q4[k], merge), merge2);
                  }
                if (a == 6)
                  IN_TF4 (qv, res);
                else
                  IN_TF2 (qv, res);
                /* lanes past the row's last tile land on the next tile row's, or the
                 * next channel's first tiles, written after this (V's rows have no slack),
                 * or past the last channel on the slack at the end of the point's V */
                for (int k = 0; k < a; k++)
                  ST (vrow + (i * a + k) * j->vstride + tx, res[k]);
              }
        }
    }
}

/* Row i of an output tile from t = A^T x: y = t_i A, plus the bias (add_bias), then
 * conv2d_fused's epilogue when it goes in registers (no residual): a multiply and an add
 * apart, then v < 0 ? 0 : v, lane by lane (a NaN stays) — as batch_norm's and relu's own
 * kernels do. output_body and output_lanes_body both finish their rows here. */
ALWAYS_INLINE void
finish_row (const v16 *t, v16 *y, const int a, gboolean add_bias, v16 bias,
            const FxConvEpilogue *ep, gboolean ep_in_regs, v16 scale, v16 shift)
{
  const int m = a - 2;
  const v16 zero = { 0 };
  if (a == 6)
    OUT_TF4 (t, y);
  else
    OUT_TF2 (t, y);
  if (add_bias)
    for (int k = 0; k < m; k++)
      y[k] += bias;
  if (ep_in_regs)
    for (int k = 0; k < m; k++)
      {
        v16 v = y[k] * scale;
        v = v + shift;
        y[k] = ep->relu ? (v16) ((v16i) v & ~(v < zero)) : v;
      }
}

/* Output channels [o0, o1) of block blk: M → the output planes, channel o's row of point ξ
 * at M + (o - m_o0)·ld + ξ·m_pstride (M: [P][ob][ld], the products of a block of output
 * channels from m_o0). Each group of 16 tiles of a tile row comes back as m vectors per
 * output row, interleaved by lane shuffles into m·16 consecutive outputs. */
ALWAYS_INLINE void
output_body (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *M,
             int64_t m_o0, int64_t m_pstride, const int a)
{
  const FxWinogradShape *s = j->s;
  const int m = a - 2;
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  float line[4][4 * LANES] __attribute__ ((aligned (64)));
  /* Narrow images (8 tiles a row or fewer: ResNet's 28×28, 14×14 and 7×7 layers): a vector
   * of tiles spans two or four tile rows (rows_per_vector_for), and its interleaved line
   * holds all their outputs. */
  const int64_t rows_per_vector = rows_per_vector_for (j->tw);
  /* Without a residual, conv2d_fused's epilogue (BatchNorm's scale and shift, the ReLU) is
   * applied to y in registers; with one, to each output row after its interleaving, since
   * the residual is added before the ReLU. The same operations in the same order either
   * way: a multiply and an add apart, then v < 0 ? 0 : v. */
  const FxConvEpilogue *ep = j->ep;
  const gboolean ep_in_regs = ep != NULL && ep->residual == NULL;
  for (int64_t o = o0; o < o1; o++)
    {
      float *plane = j->out + (n * s->o + o) * output_plane (s);
      const v16 zero = { 0 };
      const v16 bias = zero + (j->bias ? j->bias[o] : 0.f);
      const v16 scale = zero + (ep ? ep->scale_shift[2 * o] : 1.f);
      const v16 shift = zero + (ep ? ep->scale_shift[2 * o + 1] : 0.f);
      for (int64_t ty = r0; ty < r1; ty += rows_per_vector)
        for (int64_t tx = 0; tx < j->tw; tx += LANES)
          {
            const float *mrow = M + (o - m_o0) * j->ld + (ty - r0) * j->tw + tx;
            v16 x[MAX_ALPHA][MAX_ALPHA], t[4][MAX_ALPHA];
            for (int i = 0; i < a; i++)
              for (int k = 0; k < a; k++)
                x[i][k] = LD (mrow + (i * a + k) * m_pstride);
            /* t = A^T x (column by column), then y = t A (row by row) */
            DOWN_COLUMNS (x, t, a, m, a, a, OUT_TF4, OUT_TF2);
            int64_t x0 = tx * m, count = MIN ((int64_t) m * LANES, s->ow - x0);
            for (int i = 0; i < m && ty * m + i < s->oh; i++)
              {
                v16 y[4];
                finish_row (t[i], y, a, j->bias != NULL, bias, ep, ep_in_regs, scale, shift);
                if (a == 6)
                  {
                    v16 lo01 = SHUF (y[0], y[1], ZIP_LO), hi01 = SHUF (y[0], y[1], ZIP_HI);
                    v16 lo23 = SHUF (y[2], y[3], ZIP_LO), hi23 = SHUF (y[2], y[3], ZIP_HI);
                    ST (line[i], SHUF (lo01, lo23, PAIRS_LO));
                    ST (line[i] + 16, SHUF (lo01, lo23, PAIRS_HI));
                    ST (line[i] + 32, SHUF (hi01, hi23, PAIRS_LO));
                    ST (line[i] + 48, SHUF (hi01, hi23, PAIRS_HI));
                  }
                else
                  {
                    ST (line[i], SHUF (y[0], y[1], ZIP_LO));
                    ST (line[i] + 16, SHUF (y[0], y[1], ZIP_HI));
                  }
                for (int64_t q = 0; q < rows_per_vector && ty + q < r1; q++)
                  {
                    int64_t row = (ty + q) * m + i;
                    float *seg = line[i] + q * j->tw * m, *dst = plane + row * s->ow + x0;
                    if (row >= s->oh)
                      break;
                    if (ep != NULL && !ep_in_regs)
                      fx_conv_epilogue_row (ep, o, seg,
                                            fx_conv_epilogue_residual_at (ep, j->out, dst),
                                            count);
                    copy_floats (dst, seg, count);
                  }
              }
          }
    }
}

typedef struct {
  void (*weight) (const WinoJob *j, int64_t o0, int64_t o1, float *U, int64_t pstride);
  void (*input) (const WinoJob *j, int64_t blk, int64_t c0, int64_t c1, float *V,
                 float *rows);
  void (*output) (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *M,
                  int64_t m_o0, int64_t m_pstride);
} WinoKernels;

/* α is a constant in each body, so its loops unroll and the transforms are straight-line. */
#define DEFINE_KERNELS(isa, attr)                                                           \
  attr static void                                                                          \
  weight_##isa (const WinoJob *j, int64_t o0, int64_t o1, float *U, int64_t pstride)        \
  {                                                                                         \
    if (j->alpha == 6)                                                                      \
      weight_block_body (j, o0, o1, U, pstride, 6);                                         \
    else                                                                                    \
      weight_block_body (j, o0, o1, U, pstride, 4);                                         \
  }                                                                                         \
  attr static void                                                                          \
  input_##isa (const WinoJob *j, int64_t blk, int64_t c0, int64_t c1, float *V,            \
               float *rows)                                                                 \
  {                                                                                         \
    if (j->alpha == 6)                                                                      \
      input_body (j, blk, c0, c1, V, rows, 6);                                              \
    else                                                                                    \
      input_body (j, blk, c0, c1, V, rows, 4);                                              \
  }                                                                                         \
  attr static void                                                                          \
  output_##isa (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *M,      \
                int64_t m_o0, int64_t m_pstride)                                            \
  {                                                                                         \
    if (j->alpha == 6)                                                                      \
      output_body (j, blk, o0, o1, M, m_o0, m_pstride, 6);                                  \
    else                                                                                    \
      output_body (j, blk, o0, o1, M, m_o0, m_pstride, 4);                                  \
  }                                                                                         \
  static const WinoKernels kernels_##isa = { weight_##isa, input_##isa, output_##isa };

DEFINE_KERNELS (generic, __attribute__ (()))
#if defined(__x86_64__) && defined(__GNUC__)
DEFINE_KERNELS (avx2, __attribute__ ((target ("avx2,fma"))))
DEFINE_KERNELS (avx512, __attribute__ ((target ("avx512f,fma"))))
#endif

static const WinoKernels *
pick_kernels (void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  if (fx_cpu_has_avx512 ())
    return &kernels_avx512;
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return &kernels_avx2;
#endif
  return &kernels_generic;
}

/* Every thread that races here picks the same kernels, so a plain atomic cache will do. */
static const WinoKernels *
kernels (void)
{
  static const WinoKernels *_Atomic chosen;
  const WinoKernels *k = atomic_load_explicit (&chosen, memory_order_acquire);
  if (k == NULL)
    {
      k = pick_kernels ();
      atomic_store_explicit (&chosen, k, memory_order_release);
    }
  return k;
}

/* ------------------------------------------------------------------------------------------
 * Products with the output channels in the vector lanes (AVX-512)
 * ------------------------------------------------------------------------------------------
 * With the tiles in the lanes, the product of a small image's few tiles (16 for 14×14 in
 * F(4×4), 49 for 28×28) is one to four vectors wide, and fx_sgemm_stream then needs a
 * broadcast of a weight for every vector of multiply-adds: the loads, not the arithmetic,
 * set its pace. Turned around, M[ξ]^T = V[ξ]^T · U[ξ]^T, the product takes 64 output
 * channels in 4 vectors times 6 tiles broadcast, 24 multiply-adds for 10 loads. This was
 * first for images of up to LANES_MAX_TILES tiles; it also ran 10-35% faster on every larger
 * one tried (a 56×56 image of 64 channels: 196 tiles in F(4×4), 784 in F(2×2); 32 and 16
 * channels at 56×56; 64 at 112×112) than blocks of tile rows through fx_sgemm_stream, and
 * now takes every image. The weights are transformed with the output channels in the lanes
 * (U^T: [P][C][O]), and the output transform takes the products as they are, 16 channels to
 * a vector (output_lanes). Every output is still the sum over input channels 0, 1, ..., C-1
 * in one accumulator, whatever the blocks of channels, chunks of input channels or threads:
 * the result depends on the shape only. */

/* The raw filters of the chunk that comes next (their runs of `len` bytes, one per output
 * channel, `stride` bytes apart), brought into L2 a line at a time during this chunk's
 * products. A layer whose filters take megabytes reads them from memory at every forward,
 * and its weight transform waited for them: with the products then idle, the fetches ride
 * along with them instead (see WINO_RAW_AHEAD_BYTES). */
typedef struct {
  const char *start, *p, *end;   /* the current run, its next line */
  int64_t len, stride, runs;     /* runs: left, the current one included */
} RawAhead;

static inline void
raw_ahead_step (RawAhead *r)
{
  if (r->runs <= 0)
    return;
  __builtin_prefetch (r->p, 0, 2);
  r->p += 64;
  if (r->p >= r->end && --r->runs > 0)
    {
      r->start += r->stride;
      r->end = r->start + r->len;
      r->p = (const char *) ((uintptr_t) r->start & ~(uintptr_t) 63);
    }
}

#define LANES_MAX_TILES 64   /* what estimate() prices with the lanes' constants */
#define LANES_OB 64      /* output channels per block: the 4 vectors of a register tile */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* r[i][l] ↔ r[l][i]: four rounds, each swapping one bit of the row number with the same
 * bit of the lane number (two-vector shuffles of the rows that differ in that bit). */
#define SWAP_BIT(r, bit, LO, HI)                                                            \
  for (int i_ = 0; i_ < LANES; i_++)                                                        \
    if (!(i_ & (bit)))                                                                      \
      {                                                                                     \
        v16 a_ = (r)[i_], b_ = (r)[i_ | (bit)];                                             \
        (r)[i_] = SHUF (a_, b_, LO);                                                        \
        (r)[i_ | (bit)] = SHUF (a_, b_, HI);                                                \
      }
#define SWAP1_LO 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30
#define SWAP1_HI 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31
#define SWAP2_LO 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29
#define SWAP2_HI 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31
#define SWAP4_LO 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27
#define SWAP4_HI 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31
#define SWAP8_LO 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23
#define SWAP8_HI 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31

ALWAYS_INLINE void
transpose16 (v16 r[LANES])
{
  SWAP_BIT (r, 1, SWAP1_LO, SWAP1_HI);
  SWAP_BIT (r, 2, SWAP2_LO, SWAP2_HI);
  SWAP_BIT (r, 4, SWAP4_LO, SWAP4_HI);
  SWAP_BIT (r, 8, SWAP8_LO, SWAP8_HI);
}

/* The filters of output channels [o0, o1) and input channels [c0, c1) →
 * Ut[ξ·pstride + (o - o0) / 16·vs + (c - c0)·16 + (o - o0) % 16]: 16 output channels to a
 * vector (lanes past o1 get zeros), each vector's run of channels vs floats long. The taps
 * of 16 filters × 16 input channels are 16 rows of 144 contiguous floats; nine 16×16
 * transposes leave each (channel, tap) of the 16 filters in one vector, which then go
 * through weight_block_body's transform.
 * Each filter's transform goes to α² lines that are not in L1 (Ut is most of L2): the
 * stores then waited for their lines, and cost as much as the transform. Laid out this
 * way, each point's lines are written one after the other, and the lines two channels on
 * are asked for ahead, for writing: the transform took 10-14% less time (256→256 at 14×14,
 * 512→512 at 7×7, one thread). */
ALWAYS_INLINE void
weight_lanes_body (const WinoJob *j, int64_t o0, int64_t o1, int64_t c0, int64_t c1,
                   float *Ut, int64_t pstride, int64_t vs, const int a)
{
  const int64_t C = j->s->c;
  float taps[9 * LANES][LANES] __attribute__ ((aligned (64)));   /* [c·9 + tap][o] */
  float part[LANES][9 * LANES] __attribute__ ((aligned (64)));   /* short rows, padded */
  for (int64_t og = o0; og < o1; og += LANES)
    {
      int no = (int) MIN ((int64_t) LANES, o1 - og);
      for (int64_t cg = c0; cg < c1; cg += LANES)
        {
          int nc = (int) MIN ((int64_t) LANES, c1 - cg);
          const float *src[LANES];
          for (int l = 0; l < LANES; l++)
            if (l < no && nc == LANES)
              src[l] = j->weight + ((og + l) * C + cg) * 9;
            else
              {
                memset (part[l], 0, sizeof part[l]);
                if (l < no)
                  memcpy (part[l], j->weight + ((og + l) * C + cg) * 9, sizeof (float) * 9 * nc);
                src[l] = part[l];
              }
          for (int b = 0; b < 9; b++)
            {
              v16 r[LANES];
              for (int l = 0; l < LANES; l++)
                r[l] = LD (src[l] + LANES * b);
              transpose16 (r);
              for (int l = 0; l < LANES; l++)
                ST (taps[LANES * b + l], r[l]);
            }
          float *dst = Ut + (og - o0) / LANES * vs + (cg - c0) * LANES;
          for (int c = 0; c < nc; c++, dst += LANES)
            {
              if (c + 2 < nc)
                for (int x = 0; x < a * a; x++)
                  __builtin_prefetch (dst + 2 * LANES + x * pstride, 1, 3);
              v16 g[3][3], t[MAX_ALPHA][3], u[MAX_ALPHA][MAX_ALPHA];
              for (int r = 0; r < 3; r++)
                for (int q = 0; q < 3; q++)
                  g[r][q] = LD (taps[c * 9 + r * 3 + q]);
              DOWN_COLUMNS (g, t, 3, a, 3, a, W_TF4, W_TF2);
              for (int i = 0; i < a; i++)
                {
                  if (a == 6)
                    W_TF4 (t[i], u[i]);
                  else
                    W_TF2 (t[i], u[i]);
                }
              for (int i = 0; i < a; i++)
                for (int k = 0; k < a; k++)
                  ST (dst + (i * a + k) * pstride, u[i][k]);
            }
        }
    }
}

__attribute__ ((target ("avx512f,fma"))) static void
weight_lanes (const WinoJob *j, int64_t o0, int64_t o1, int64_t c0, int64_t c1, float *Ut,
              int64_t pstride, int64_t vs)
{
  if (j->alpha == 6)
    weight_lanes_body (j, o0, o1, c0, c1, Ut, pstride, vs, 6);
  else
    weight_lanes_body (j, o0, o1, c0, c1, Ut, pstride, vs, 4);
}

/* mt[i·ldm + o] (+)= Σ_k v[k·ldv + i] · u[o / 16·vs + 16·k + o % 16] for mr tiles i and
 * 16·nv channels o: per k, nv loads of U^T's row and mr broadcasts of V's; with `fetching`
 * (a constant, so that the kernel without it is unchanged), one line of ra's on each of the
 * first `ahead` k. */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
lanes_tile (const int mr, const int nv, int64_t kc, const float *v, int64_t ldv,
            const float *u, int64_t vs, float *mt, int64_t ldm, gboolean accumulate,
            const gboolean fetching, RawAhead *ra, int64_t ahead)
{
  __m512 acc[8][4];
  for (int i = 0; i < mr; i++)
    for (int q = 0; q < nv; q++)
      acc[i][q] = accumulate ? _mm512_loadu_ps (mt + i * ldm + 16 * q) : _mm512_setzero_ps ();
  for (int64_t k = 0; k < kc; k++)
    {
      if (fetching && k < ahead)
        raw_ahead_step (ra);
      __m512 uv[4];
      for (int q = 0; q < nv; q++)
        uv[q] = _mm512_loadu_ps (u + k * LANES + vs * q);
      for (int i = 0; i < mr; i++)
        {
          __m512 b = _mm512_set1_ps (v[k * ldv + i]);
          for (int q = 0; q < nv; q++)
            acc[i][q] = _mm512_fmadd_ps (b, uv[q], acc[i][q]);
        }
    }
  for (int i = 0; i < mr; i++)
    for (int q = 0; q < nv; q++)
      _mm512_storeu_ps (mt + i * ldm + 16 * q, acc[i][q]);
}

#define LANES_TILE_CASE(mr, nv)                                                             \
  case FX_TILE_ID (mr, nv):                                                                 \
    if (ra != NULL)                                                                         \
      lanes_tile ((mr), (nv), kc, v + t, ldv, u + o / LANES * vs, vs, mt + t * ldm + o, ldm,  \
                  accumulate, TRUE, ra, ahead);                                             \
    else                                                                                    \
      lanes_tile ((mr), (nv), kc, v + t, ldv, u + o / LANES * vs, vs, mt + t * ldm + o, ldm,  \
                  accumulate, FALSE, NULL, 0);                                              \
    break;

/* Mt [nt][ldm] (+)= V^T · U^T over kc input channels, for nob output channels (rounded up
 * to vectors: U^T's padding columns are there). Register tiles of 6 tiles × 4 vectors, or
 * 8 × 3 for the last channels. ra (or NULL): `ahead` of its lines fetched per tile. */
__attribute__ ((target ("avx512f"))) static void
lanes_products (int64_t nt, int64_t nob, int64_t kc, const float *v, int64_t ldv,
                const float *u, int64_t vs, float *mt, int64_t ldm, gboolean accumulate,
                RawAhead *ra, int64_t ahead)
{
  for (int64_t o = 0; o < nob; o += 4 * LANES)
    {
      int nv = (int) MIN ((int64_t) 4, (nob - o + LANES - 1) / LANES);
      int mr_full = FX_TILE_ROWS (nv);
      for (int64_t t = 0; t < nt; t += mr_full)
        switch (FX_TILE_ID ((int) MIN ((int64_t) mr_full, nt - t), nv))
          {
          FX_TILE_CASES (LANES_TILE_CASE)
          default:
            g_assert_not_reached ();
          }
    }
}

/* The residual's plane of output channel g of image n (planes out_plane apart, like the
 * output's), or NULL without a residual. */
static const float *
residual_plane0 (const WinoJob *j, int64_t n, int64_t g)
{
  const FxConvEpilogue *ep = j->ep;
  if (ep == NULL || ep->residual == NULL)
    return NULL;
  const FxWinogradShape *s = j->s;
  return fx_conv_epilogue_residual_at (ep, j->out, j->out + (n * s->o + g) * output_plane (s));
}

/* Asks for the lines of plane0 (a residual's, or the output's: write) that output_lanes_body
 * reads or writes for the group of tiles at tile column tx0 of tile row ty (the next row's
 * first group past the row's end): its m output rows of 16 outputs in each of nc channels.
 * A residual comes from L3 or the other core (last touched a layer or more ago), and the
 * hardware's prefetchers do not follow 16 planes read 64 bytes at a time well: this took
 * ResNet-18's forward 4% faster. The output's lines, often last used a forward ago, came
 * from memory one store at a time: asked for ahead, ResNet-18's 3×3 layers took 0.2 ms less
 * and ResNet-50's 0.25-0.3 ms (alternating builds, best of 6 runs, twice). */
static inline void
prefetch_group (const WinoJob *j, const float *plane0, int nc, int m, int64_t ty, int64_t tx0,
                int64_t r1, const int write)
{
  const FxWinogradShape *s = j->s;
  if (tx0 >= j->tw)
    {
      tx0 = 0;
      ty++;
    }
  if (ty >= r1)
    return;
  const int64_t out_plane = output_plane (s), x0 = tx0 * m;
  for (int i = 0; i < m && ty * m + i < s->oh; i++)
    {
      const float *at = plane0 + (ty * m + i) * s->ow + x0;
      for (int l = 0; l < nc; l++)
        __builtin_prefetch (at + l * out_plane, write, 3);
    }
}

/* output_body for the lanes' products, straight from Mt [P][tiles][ldm] (tiles × channels,
 * point after point mt_stride apart) for output channels [o0, o1), o0's column first: each
 * tile's α² vectors of 16 channels go through output_body's transform, the 16 outputs of
 * a row that 16/m tiles give are collected, and a 16×16 transpose turns them into 16
 * channels' rows. The same operations in the same order as output_body (bias, then the
 * epilogue in registers without a residual, or, with one, after the transpose: the vector
 * step of conv2d_fused's row epilogue, inline — calling it row by row cost ResNet-18's
 * 56×56 layers a third of their time), so the same results, without first turning Mt into
 * output_body's rows of channels (M): for ResNet's 28×28 layers, 600 KB a thread written and
 * read back, whose lines came from memory, and that pass and the output transform took a
 * quarter of the layer. */
__attribute__ ((target ("avx512f,fma"))) ALWAYS_INLINE void
output_lanes_body (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *Mt,
                   int64_t ldm, int64_t mt_stride, const int a)
{
  const FxWinogradShape *s = j->s;
  const int m = a - 2, per_group = LANES / m;   /* tiles whose columns make 16 outputs */
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  const FxConvEpilogue *ep = j->ep;
  const gboolean ep_in_regs = ep != NULL && ep->residual == NULL;
  const int64_t out_plane = output_plane (s);
  const v16 zero = { 0 };
  v16 rows[4][LANES];                             /* [output row][position]: 16 channels */
  for (int64_t g = o0; g < o1; g += LANES)
    {
      const int nc = (int) MIN ((int64_t) LANES, o1 - g);
      v16 bias = zero, scale = zero + 1.f, shift = zero;
      for (int l = 0; l < nc; l++)
        {
          bias[l] = j->bias ? j->bias[g + l] : 0.f;
          if (ep)
            {
              scale[l] = ep->scale_shift[2 * (g + l)];
              shift[l] = ep->scale_shift[2 * (g + l) + 1];
            }
        }
      const float *mg = Mt + (g - o0);
      const float *res_plane0 = residual_plane0 (j, n, g);
      const float *out_plane0 = j->out + (n * s->o + g) * out_plane;
      /* with a residual, the epilogue after the transpose, channel l of the group as row l
       * of res_ep (the bias is in already) */
      const FxGemmEpilogue res_ep = { NULL, ep ? ep->scale_shift + 2 * g : NULL, res_plane0,
                                      out_plane, ep && ep->relu };
      for (int64_t ty = r0; ty < r1; ty++)
        for (int64_t tx0 = 0; tx0 < j->tw; tx0 += per_group)
          {
            if (res_plane0 != NULL)
              prefetch_group (j, res_plane0, nc, m, ty, tx0 + per_group, r1, 0);
            prefetch_group (j, out_plane0, nc, m, ty, tx0 + per_group, r1, 1);
            for (int p = 0; p < per_group; p++)
              {
                int64_t tx = tx0 + p;
                v16 x[MAX_ALPHA][MAX_ALPHA], t[4][MAX_ALPHA];
                if (tx >= j->tw)
                  {
                    for (int i = 0; i < m; i++)
                      for (int k = 0; k < m; k++)
                        rows[i][p * m + k] = zero;
                    continue;
                  }
                const float *mt = mg + ((ty - r0) * j->tw + tx) * ldm;
                for (int i = 0; i < a; i++)
                  for (int k = 0; k < a; k++)
                    x[i][k] = *(const v16u *) (mt + (i * a + k) * mt_stride);
                DOWN_COLUMNS (x, t, a, m, a, a, OUT_TF4, OUT_TF2);
                for (int i = 0; i < m; i++)
                  {
                    v16 y[4];
                    finish_row (t[i], y, a, j->bias != NULL, bias, ep, ep_in_regs, scale,
                                shift);
                    for (int k = 0; k < m; k++)
                      rows[i][p * m + k] = y[k];
                  }
              }
            int64_t x0 = tx0 * m, count = MIN ((int64_t) LANES, s->ow - x0);
            __mmask16 mask = count >= LANES ? (__mmask16) 0xffff : (__mmask16) ((1u << count) - 1);
            for (int i = 0; i < m && ty * m + i < s->oh; i++)
              {
                transpose16 (rows[i]);
                int64_t row = ty * m + i;
                for (int l = 0; l < nc; l++)
                  {
                    float *dst = j->out + (n * s->o + g + l) * out_plane + row * s->ow + x0;
                    if (ep != NULL && !ep_in_regs)
                      _mm512_mask_storeu_ps (dst, mask,
                                             fx_gemm_epilogue_vec (&res_ep, l, row * s->ow + x0,
                                                                   mask, (__m512) rows[i][l]));
                    else
                      _mm512_mask_storeu_ps (dst, mask, (__m512) rows[i][l]);
                  }
              }
          }
    }
}

__attribute__ ((target ("avx512f,fma"))) static void
output_lanes (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *Mt,
              int64_t ldm, int64_t mt_stride)
{
  if (j->alpha == 6)
    output_lanes_body (j, blk, o0, o1, Mt, ldm, mt_stride, 6);
  else
    output_lanes_body (j, blk, o0, o1, Mt, ldm, mt_stride, 4);
}

static atomic_int lanes_forced = -1;   /* fx_winograd_force_lanes() */

/* Whether the products go with the channels in the lanes: on AVX-512, unless a test turned
 * them off. */
static gboolean
lanes_available (void)
{
  return kernels () == &kernels_avx512 && atomic_load (&lanes_forced) != 0;
}
#else
/* never chosen without AVX-512: stubs for the code that would call them */
static gboolean
lanes_available (void)
{
  return FALSE;
}

static void
weight_lanes (const WinoJob *j, int64_t o0, int64_t o1, int64_t c0, int64_t c1, float *Ut,
              int64_t pstride, int64_t vs)
{
  g_assert_not_reached ();
}

static void
lanes_products (int64_t nt, int64_t nob, int64_t kc, const float *v, int64_t ldv,
                const float *u, int64_t vs, float *mt, int64_t ldm, gboolean accumulate,
                RawAhead *ra, int64_t ahead)
{
  g_assert_not_reached ();
}

static void
output_lanes (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *Mt,
              int64_t ldm, int64_t mt_stride)
{
  g_assert_not_reached ();
}
#endif

/* ------------------------------------------------------------------------------------------
 * Scheduling
 * ------------------------------------------------------------------------------------------ */

/* Per-thread buffers that outlive a call: a network's layers come back to back, and fresh
 * multi-megabyte allocations would cost page faults each time. */
enum { SCRATCH_V, SCRATCH_M, SCRATCH_ROWS, SCRATCH_UB, SCRATCH_MT, N_SCRATCH };
static GPrivate scratch_key[N_SCRATCH] = {
  G_PRIVATE_INIT (g_aligned_free), G_PRIVATE_INIT (g_aligned_free),
  G_PRIVATE_INIT (g_aligned_free), G_PRIVATE_INIT (g_aligned_free),
  G_PRIVATE_INIT (g_aligned_free) };
static GPrivate scratch_size[N_SCRATCH] = {
  G_PRIVATE_INIT (NULL), G_PRIVATE_INIT (NULL), G_PRIVATE_INIT (NULL), G_PRIVATE_INIT (NULL),
  G_PRIVATE_INIT (NULL) };

static float *
scratch (int which, gsize floats)
{
  /* cache-line aligned: a vector store then writes one line, not two */
  return fx_thread_buffer (&scratch_key[which], &scratch_size[which], floats * sizeof (float));
}

static float *
row_scratch (const WinoJob *j)
{
  /* comb: COMB_ROWS·α rows; pad: the padded rows of the biggest block */
  return scratch (SCRATCH_ROWS, (gsize) (COMB_ROWS * j->alpha + (j->rpb - 1) * j->m + j->alpha)
                                * j->row_floats);
}

/* ra over the raw filters of output channels [o0, o1) × input channels [c0, c1), spread over
 * the register tiles of one chunk's products (P points, each lanes_products' tiles of nt
 * tiles × nob channels). Returns the lines to fetch per tile. */
static int64_t
raw_ahead_init (RawAhead *ra, const WinoJob *j, int64_t o0, int64_t o1, int64_t c0, int64_t c1,
                int64_t nt, int64_t nob)
{
  ra->len = (c1 - c0) * 9 * (int64_t) sizeof (float);
  ra->stride = j->s->c * 9 * (int64_t) sizeof (float);
  ra->runs = o1 - o0;
  ra->start = (const char *) (j->weight + (o0 * j->s->c + c0) * 9);
  ra->end = ra->start + ra->len;
  ra->p = (const char *) ((uintptr_t) ra->start & ~(uintptr_t) 63);
  int64_t lines = ra->runs * (ra->len / 64 + 2);
  int64_t tiles = 0;
  for (int64_t o = 0; o < nob; o += 4 * LANES)
    {
      int nv = (int) MIN ((int64_t) 4, (nob - o + LANES - 1) / LANES);
      tiles += (nt + FX_TILE_ROWS (nv) - 1) / FX_TILE_ROWS (nv);
    }
  tiles *= j->P;
  return (lines + tiles - 1) / tiles;
}

/* products_and_output with the channels in the lanes (j->lanes): blocks of LANES_OB output
 * channels, whose transformed weights are made a chunk of j->cc input channels at a time
 * (P·cc·64 floats, in L2); each point's products add that chunk's part to Mt, whose last
 * chunk goes to output_lanes. */
static void
products_lanes (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *V)
{
  const FxWinogradShape *s = j->s;
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  int64_t nt = (r1 - r0) * j->tw;
  const int64_t ldm = LANES_OB, mt_stride = nt * ldm + LANES;
  /* a point's U^T: LANES_OB / 16 vectors of channels, each a run of cc channels */
  const int64_t vs = j->cc * LANES + LANES;
  const int64_t ut_stride = LANES_OB / LANES * vs + LANES;
  float *Mt = scratch (SCRATCH_MT, (gsize) j->P * mt_stride);
  float *Ut = scratch (SCRATCH_UB, (gsize) j->P * ut_stride);
  for (int64_t b0 = o0; b0 < o1; b0 += LANES_OB)
    {
      int64_t b1 = MIN (o1, b0 + LANES_OB), nob = b1 - b0;
      for (int64_t c0 = 0; c0 < s->c; c0 += j->cc)
        {
          int64_t c1 = MIN (s->c, c0 + j->cc);
          weight_lanes (j, b0, b1, c0, c1, Ut, ut_stride, vs);
          /* the next chunk: this block's next input channels, or the next block's first */
          RawAhead ra;
          int64_t ahead = 0, nb0 = c1 < s->c ? b0 : b0 + LANES_OB, nc0 = c1 < s->c ? c1 : 0;
          if (j->raw_ahead && nb0 < o1)
            ahead = raw_ahead_init (&ra, j, nb0, MIN (o1, nb0 + LANES_OB), nc0,
                                    MIN (s->c, nc0 + j->cc), nt, nob);
          for (int x = 0; x < j->P; x++)
            {
              float *mt = Mt + x * mt_stride;
              lanes_products (nt, nob, c1 - c0, V + x * j->vstride + c0 * j->ldv, j->ldv,
                              Ut + x * ut_stride, vs, mt, ldm, c0 > 0,
                              ahead > 0 ? &ra : NULL, ahead);
            }
        }
      output_lanes (j, blk, b0, b1, Mt, ldm, mt_stride);
    }
}

/* Products and outputs of channels [o0, o1) of block blk, from its transformed input V.
 * The channels go by blocks of j->ob: their weights are transformed into a buffer that
 * stays in this core's L2 cache, multiplied with V point by point, and the block's outputs
 * made while its products are still in cache too. */
static void
products_and_output (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *V)
{
  if (j->lanes)
    {
      products_lanes (j, blk, o0, o1, V);
      return;
    }
  const WinoKernels *k = kernels ();
  const FxWinogradShape *s = j->s;
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  int64_t nt = (r1 - r0) * j->tw;
  float *Ub = scratch (SCRATCH_UB, (gsize) j->P * (j->ob * s->c + LANES));
  float *M = scratch (SCRATCH_M, (gsize) j->P * (j->ob * j->ld + LANES));
  for (int64_t b0 = o0; b0 < o1; b0 += j->ob)
    {
      int64_t b1 = MIN (o1, b0 + j->ob), rows = b1 - b0;
      k->weight (j, b0, b1, Ub, rows * s->c + LANES);
      for (int x = 0; x < j->P; x++)
        fx_sgemm_stream (rows, nt, s->c, Ub + x * (rows * s->c + LANES), s->c, V + x * j->vstride,
                         j->ldv, M + x * (j->ob * j->ld + LANES), j->ld, NULL);
      k->output (j, blk, b0, b1, M, b0, j->ob * j->ld + LANES);
    }
}

/* Everything for whole blocks, in this thread's cache. */
static void
block_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  float *V = scratch (SCRATCH_V, (gsize) j->P * j->vstride);
  float *rows = row_scratch (j);
  for (int64_t blk = begin; blk < end; blk++)
    {
      kernels ()->input (j, blk, 0, j->s->c, V, rows);
      products_and_output (j, blk, 0, j->s->o, V);
    }
}

/* Few blocks (one small image): each task is a slice of output channels of a block — the
 * block's transformed input (made by the thread itself, once per call and block), that
 * slice's products for every point, then its outputs. Nothing a thread writes is read by
 * another: splitting the stages between the threads instead (input by channels, products
 * by point) had each stage wait for megabytes written in the other core's cache, and
 * measured barely faster than one thread. The price is the input transform made by every
 * thread. Even with one block (batch 1), sharing it instead (each thread transforming some
 * input channels, then reading all of V, half of it from the other core's cache) measured
 * 8% faster only while the two vCPUs of the machine sat close together (70-80 ns from one
 * core to the other), and 25-40% slower while they sat apart (230-260 ns): no faster than
 * one thread then, on ResNet's 28×28 and 14×14 layers. */
static GPrivate made_key = G_PRIVATE_INIT (g_free);   /* which block's V a thread has */

static void
slice_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  int64_t O = j->s->o;
  float *V = scratch (SCRATCH_V, (gsize) j->P * j->vstride);
  for (int64_t i = begin; i < end; i++)
    {
      int64_t blk = i / j->n_slices, o0 = (i % j->n_slices) * j->slice;
      int64_t o1 = MIN (O, o0 + j->slice);
      if (!fx_scratch_holds (&made_key, j->call, blk))
        kernels ()->input (j, blk, 0, j->s->c, V, row_scratch (j));
      products_and_output (j, blk, o0, o1, V);
    }
}

/* Layers whose raw filters take this much fetch the next chunk's during the products
 * (RawAhead): ResNet's 512→512 at 7×7 (9.4 MB, read from memory at every forward) ran 5-7%
 * faster; at 2.4 MB (256→256 at 14×14) it made no difference, and at 0.6 MB (128→128 at
 * 28×28, in cache) the fetches in the products' loop cost 20%. */
#define WINO_RAW_AHEAD_BYTES (4.0 * 1024 * 1024)

/* Output channels per just-in-time block: a multiple of fx_sgemm_stream's 6- and 8-row
 * tiles (else of 8) whose transformed weights (P·ob·C floats) take about 384 KiB, leaving
 * the rest of a 1 MiB L2 to the point's slice of V and the products. */
static int64_t
jit_block_channels (int P, int64_t c)
{
  int64_t ob = ((int64_t) 384 << 10) / (4 * P * MAX (c, (int64_t) 1));
  return ob >= 24 ? MIN (ob / 24 * 24, (int64_t) 96) : MAX (ob / 8 * 8, (int64_t) 8);
}

/* Lanes: input channels per chunk of just-in-time weights, whose transform
 * (P·cc·LANES_OB floats) then takes about 384 KiB of the L2 cache — with the next chunk's
 * raw filters (cc·LANES_OB·9 floats) when they are fetched ahead (raw_ahead): with only
 * the transform counted, those pushed the transform out of L2 and the products waited on
 * it. At most 64, which keeps a point's part of it (cc·LANES_OB floats: 16 KiB) and of V in
 * L1 for the register tiles that read them one after the other: 96 (256→256 at 14×14,
 * 128→128 at 28×28) ran 2-5% slower. A multiple of 16. */
static int64_t
lanes_chunk_channels (int P, int64_t c, gboolean raw_ahead)
{
  int64_t per_channel = 4 * P * LANES_OB + (raw_ahead ? 4 * 9 * LANES_OB : 0);
  int64_t cc = MIN (((int64_t) 384 << 10) / per_channel / LANES * LANES, (int64_t) 64);
  return MIN (MAX (cc, (int64_t) LANES), MAX (c, (int64_t) 1));
}

/* Tile rows per block: the transformed input and products of a block take up to 4 MiB.
 * Big blocks pay: every block reads all the layer's weights (and transforms them), once for
 * many tiles, where blocks small enough for the L2 cache made every block read them all
 * again (measured on ResNet-18's layers: 30-40% faster with one block per image). */
static int64_t
block_rows_for (int P, int64_t c, int64_t o, int64_t tw, int64_t th)
{
  int64_t tiles = ((int64_t) 4 << 20) / (4 * P * (c + o));
  return CLAMP (tiles / tw, (int64_t) 1, th);
}

void
fx_winograd_conv2d (const FxWinogradShape *s, int m, const float *in, const float *weight,
                    const float *bias, float *out, const FxConvEpilogue *ep)
{
  g_return_if_fail (m == 2 || m == 4);
  WinoJob j = { 0 };
  j.s = s;
  j.m = m;
  j.alpha = m + 2;
  j.P = j.alpha * j.alpha;
  j.th = (s->oh + m - 1) / m;
  j.tw = (s->ow + m - 1) / m;
  int threads = fx_blas_num_threads ();
  j.lanes = lanes_available ();
  /* the lanes' products of a block take 64 channels' worth (Mt), however few there are */
  j.rpb = block_rows_for (j.P, s->c, j.lanes ? MAX (s->o, (int64_t) LANES_OB) : s->o, j.tw, j.th);
  /* A single image with tiles enough for every thread (48 or more each): one block per
   * thread, which then owns all its work — no input transform made twice, as slices of
   * output channels need (below). */
  if (s->n == 1 && threads > 1 && j.th >= threads && j.th * j.tw >= 48 * threads
      && j.rpb * threads > j.th)
    j.rpb = (j.th + threads - 1) / threads;
  j.nb = (j.th + j.rpb - 1) / j.rpb;
  j.ld = j.rpb * j.tw + LANES;
  j.ldv = j.rpb * j.tw;
  j.vstride = s->c * j.ldv + LANES;
  j.row_floats = (j.tw + LANES - 1) / LANES * LANES * m + LANES;
  j.in = in;
  j.weight = weight;
  j.bias = bias;
  j.out = out;
  j.ep = ep;
  int64_t blocks = s->n * j.nb;
  j.ob = j.lanes ? LANES_OB : jit_block_channels (j.P, s->c);
  j.raw_ahead = j.lanes && (double) s->o * s->c * 9 * sizeof (float) >= WINO_RAW_AHEAD_BYTES;
  j.cc = lanes_chunk_channels (j.P, s->c, j.raw_ahead);
  fx_blas_enter_single_threaded ();
  if (blocks >= threads || threads <= 1)
    fx_parallel_for (blocks, 1, block_task, &j);
  else
    {
      j.call = fx_parallel_call_id ();
      j.slice = (s->o + threads - 1) / threads;
      /* Lanes: slices of whole vectors of channels (U^T's columns), one block of them
       * each when there are channels for two a thread: every block streams all of V again
       * anyway, and several slices a thread let a thread that the other process keeps
       * off its core leave more of them to the other. */
      if (j.lanes)
        j.slice = s->o >= 2 * LANES_OB * threads ? LANES_OB
                  : (j.slice + LANES - 1) / LANES * LANES;
      j.n_slices = (s->o + j.slice - 1) / j.slice;
      fx_parallel_for (blocks * j.n_slices, 1, slice_task, &j);
    }
  fx_blas_leave_single_threaded ();
}

/* ------------------------------------------------------------------------------------------
 * Choosing
 * ------------------------------------------------------------------------------------------ */

static atomic_int forced = -1;

/* FX_CONV_WINOGRAD=0|2|4 in the environment forces like fx_winograd_force(). */
static int
env_forced (void)
{
  static atomic_int value = -2;   /* -2: not read yet */
  int v = atomic_load (&value);
  if (v == -2)
    {
      const char *e = g_getenv ("FX_CONV_WINOGRAD");
      v = e == NULL ? -1 : g_str_equal (e, "0") ? 0 : g_str_equal (e, "2") ? 2
          : g_str_equal (e, "4") ? 4 : -1;
      atomic_store (&value, v);
    }
  return v;
}

void
fx_winograd_force (int m)
{
  atomic_store (&forced, m < 0 ? -1 : m);
}

void
fx_winograd_force_lanes (int on)
{
#if defined(__x86_64__) && defined(__GNUC__)
  atomic_store (&lanes_forced, on < 0 ? -1 : on != 0);
#else
  (void) on;
#endif
}

/* Estimated seconds of one thread's work for tile size m (0: im2col + gemm). The constants
 * are this project's measurements (single-threaded, on an AVX-512 core, ResNet-18's
 * layers). im2col + gemm at ~180 GFLOPS, a fifth less for a 7×7 image. Winograd's
 * products: with the channels in the lanes (images of up to LANES_MAX_TILES tiles,
 * AVX-512) at ~200 GFLOPS, a fifth less when there are fewer tiles than a register tile's
 * 6; otherwise fx_sgemm_stream at ~180, less when a block has few tiles (it then loads
 * nearly as much as it multiplies). ~8 ns per tile and channel for the F(4×4) input and
 * output transforms (scaled by α² for F(2×2)); the just-in-time weight transform at
 * ~1.5 ns (F(2×2)) or ~2.5 ns (F(4×4)) per 3×3 filter, weights read included (the
 * earlier model's 5 and 8.5 ns without the lanes). Measured, one thread: 256×256 at
 * 14×14 0.60 ms F(4×4), 0.68 F(2×2), 1.33 im2col; 512×512 at 7×7 1.13 F(2×2), 1.24
 * F(4×4), 1.46 im2col; 256×256 at 7×7 0.31 F(2×2), 0.42 im2col; 128×128 at 7×7 0.10
 * F(2×2), 0.12 im2col. Larger images run in the lanes too, faster than the fx_sgemm_stream
 * constants say: the model keeps pricing them that way, which keeps the choices it was
 * tuned with (it only underrates Winograd there). */
static double
estimate (const FxWinogradShape *s, int m)
{
  const double tf_seconds = 8e-9;
  double oc = (double) s->o * s->c;
  if (m == 0)
    {
      /* the gemm is O × C·9 × columns; under 100 columns it runs slower */
      double cols = (double) s->n * s->oh * s->ow;
      return 2.0 * oc * 9 * cols / (180e9 * MIN (1.0, 0.6 + cols / 250));
    }
  double a2 = (m + 2) * (m + 2);
  double per_image = (double) ((s->oh + m - 1) / m) * ((s->ow + m - 1) / m);
  double tiles = s->n * per_image;
  double rate, weights;
  /* the lanes' constants were measured on layers of 128×128 channels and more; smaller
   * ones keep the earlier model, which leaves them on im2col + gemm and its smaller
   * rounding error (test-conv's 64→96 at 14×14 and 96→160 at 7×7 expect that). F(4×4)'s
   * weights cost was raised from 2.5 ns when 256→256 at 14×14 measured F(2×2) as fast in
   * the machine's fast phase and 5-15% faster in its slow one (in a ResNet-50 forward, its
   * stage of 14×14 layers 2% faster), with the smaller rounding error. */
  if (per_image <= LANES_MAX_TILES && lanes_available () && oc >= 128.0 * 128)
    {
      rate = per_image >= 6 ? 200e9 : 160e9;
      weights = m == 4 ? 3e-9 : 1.5e-9;
    }
  else
    {
      double nt = MIN (per_image, 64.0), nv = ceil (nt / 16);
      /* a last vector of one or two tiles runs as dot products, not padding */
      if (nt > 16 && fmod (nt, 16) <= 2)
        nv = floor (nt / 16);
      rate = 180e9 * MIN (1.0, nt / (16 * nv)) * MIN (1.0, 1.33 * 6 * nv / (6 * nv + 6));
      weights = m == 4 ? 8.5e-9 : 5e-9;
    }
  return 2.0 * a2 * oc * tiles / rate + tiles * (s->c + s->o) * tf_seconds * a2 / 36
         + oc * weights;
}

int
fx_winograd_choose (const FxWinogradShape *s)
{
  int f = atomic_load (&forced);
  if (f < 0)
    f = env_forced ();
  if (f >= 0)
    return f == 2 || f == 4 ? f : 0;
  double best = estimate (s, 0);
  int pick = 0;
  for (int m = 2; m <= 4; m += 2)
    {
      double t = estimate (s, m);
      if (t < 0.9 * best)   /* a clear win only: the model is rough */
        {
          best = t;
          pick = m;
        }
    }
  return pick;
}
