/* winograd.c: 3×3 stride-1 float32 convolutions by Winograd's F(m×m, 3×3), m = 2 or 4.
 * Each α×α input tile (α = m + 2) and each 3×3 filter go to the transform domain, where the
 * convolution is α² independent products [O×C]·[C×tiles], and each output tile comes back
 * through the inverse transform with bias and conv2d_fused's epilogue. The filters are
 * transformed per block of output channels, just before that block's products, into a
 * buffer that stays in the core's cache (or once per layer into a cache kept between calls,
 * when one is configured).
 * F(4×4) needs 36 multiplications per 16 outputs instead of 144 (F(2×2): 16 per 4 instead
 * of 36); the price is the transforms and a larger rounding error (see test-conv-winograd.c).
 *
 * Tiles are handled LANES at a time in vectors (GCC vector extensions), compiled three times:
 * plain (runs anywhere), AVX2 and AVX-512, picked once from the CPU's flags. */
#include "tensor/winograd.h"

#include <math.h>
#include <string.h>
#include <stdatomic.h>
#include "tensor/blas.h"
#include "tensor/tensor.h"

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
  int64_t ld;                /* row stride of V and M: rpb·tw tiles + LANES of slack */
  int64_t row_floats;        /* length of input_body's row buffers */
  const float *in, *weight, *bias;
  float *out;
  const FxConvEpilogue *ep;
  float *U;                  /* transformed weights [P][O][C]; NULL: made per block of
                              * output channels, just in time (below) */
  int64_t ob;                /* output channels per just-in-time block */
  int64_t slice, n_slices;   /* slice mode: output channels per task, tasks per block */
  guint64 call;              /* slice mode: this call's number */
  float *shared_V;           /* slice mode, one block: its V, made by all threads together */
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

/* Lane shuffles: __builtin_shuffle picks from the 32 lanes of two vectors (one vpermt2ps
 * on AVX-512). */
typedef int32_t v16i __attribute__ ((vector_size (LANES * sizeof (int32_t))));
#define SHUF(a, b, ...) __builtin_shuffle ((a), (b), (v16i) { __VA_ARGS__ })
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

/* memcpy for the short rows here (tens of floats), where the call costs more than the copy. */
ALWAYS_INLINE void
copy_floats (float *dst, const float *src, int64_t n)
{
  int64_t x = 0;
  for (; x + LANES <= n; x += LANES)
    ST (dst + x, LD (src + x));
  for (; x < n; x++)
    dst[x] = src[x];
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
  float *comb = rows, *pad = rows + 2 * a * width;   /* padded row p: pad[(p - prow0)·width] */
  memset (pad, 0, sizeof (float) * (prow1 - prow0) * width);
  /* Only the columns tiles read are combined (x < m·tw + 2); the rest of comb stays zero,
   * for the lanes past the last tile to read. */
  int64_t comb_width = (j->tw * m + 2 + LANES - 1) / LANES * LANES;
  memset (comb, 0, sizeof (float) * 2 * a * width);
  int64_t y_lo = MAX (prow0 - s->ph, (int64_t) 0), y_hi = MIN (prow1 - s->ph, s->h);
  /* Narrow images (8 tiles a row or fewer): one vector takes the tiles of two tile rows,
   * lanes [0, tw) from the first and the rest from the second, so that they follow each
   * other as in V. */
  const int64_t rows_per_vector = j->tw <= LANES / 2 ? 2 : 1;
  v16i merge;
  for (int l = 0; l < LANES; l++)
    merge[l] = l < j->tw ? l : LANES + l - (int) j->tw;
  for (int64_t c = c0; c < c1; c++)
    {
      const float *plane = j->in + (n * s->c + c) * s->h * s->w;
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
          /* a lone last row: the second row's lanes are garbage that land in the slack */
          const float *comb2 = ty + 1 < r1 ? comb + a * width : comb;
          float *vrow = V + c * j->ld + (ty - r0) * j->tw;
          for (int64_t tx = 0; tx < j->tw; tx += LANES)
            for (int i = 0; i < a; i++)
              {
                v16 qv[MAX_ALPHA], res[MAX_ALPHA];
                PULL_TILES (comb + i * width + tx * m, qv, a);
                if (rows_per_vector == 2)
                  {
                    v16 q2[MAX_ALPHA];
                    PULL_TILES (comb2 + i * width, q2, a);
                    for (int k = 0; k < a; k++)
                      qv[k] = __builtin_shuffle (qv[k], q2[k], merge);
                  }
                if (a == 6)
                  IN_TF4 (qv, res);
                else
                  IN_TF2 (qv, res);
                /* lanes past the row's last tile land on the next row's tiles, written
                 * after this, or on the padding at the end of the (point, channel) row */
                for (int k = 0; k < a; k++)
                  ST (vrow + (i * a + k) * s->c * j->ld + tx, res[k]);
              }
        }
    }
}

/* Output channels [o0, o1) of block blk: M → the output planes, channel o's row of point ξ
 * at M + (o - m_o0)·ld + ξ·m_pstride ([P][O][ld] for the whole layer, [P][ob][ld] for a
 * block of channels). Each group of 16 tiles of a tile row comes back as m vectors per
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
  /* Narrow images (8 tiles a row or fewer: ResNet's 28×28 and 14×14 layers): a vector of
   * tiles spans two tile rows, and its interleaved line holds both rows' outputs. */
  const int64_t rows_per_vector = j->tw <= LANES / 2 ? 2 : 1;
  for (int64_t o = o0; o < o1; o++)
    {
      float *plane = j->out + (n * s->o + o) * s->oh * s->ow;
      float bias = j->bias ? j->bias[o] : 0.f;
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
                if (a == 6)
                  OUT_TF4 (t[i], y);
                else
                  OUT_TF2 (t[i], y);
                if (j->bias)
                  for (int k = 0; k < m; k++)
                    y[k] += bias;
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
                    float *seg = line[i] + q * j->tw * m;
                    if (row >= s->oh)
                      break;
                    if (j->ep)
                      fx_conv_epilogue_row (j->ep, o, seg,
                                            j->ep->residual ? j->ep->residual + (plane - j->out)
                                                                  + row * s->ow + x0
                                                            : NULL,
                                            count);
                    copy_floats (plane + row * s->ow + x0, seg, count);
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
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("avx512f"))
    return &kernels_avx512;
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
 * Scheduling
 * ------------------------------------------------------------------------------------------ */

/* Rows [o0, o1) of M[ξ] = U[ξ] · V[ξ], for every point, of one block. */
static void
gemm_points (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *V, float *M)
{
  const FxWinogradShape *s = j->s;
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  int64_t nt = (r1 - r0) * j->tw, rows = o1 - o0;
  /* few tiles (small images): packing U[ξ] would cost as much as using it */
  gboolean stream = nt <= 64 && fx_sgemm_stream_native ();
  for (int x = 0; x < j->P; x++)
    {
      const float *u = j->U + (x * s->o + o0) * s->c, *v = V + x * s->c * j->ld;
      float *m = M + (x * s->o + o0) * j->ld;
      if (stream)
        fx_sgemm_stream (rows, nt, s->c, u, s->c, v, j->ld, m, j->ld);
      else
        fx_sgemm (FALSE, FALSE, rows, nt, s->c, 1.f, u, s->c, v, j->ld, 0.f, m, j->ld);
    }
}

/* Per-thread buffers that outlive a call: a network's layers come back to back, and fresh
 * multi-megabyte allocations would cost page faults each time. */
enum { SCRATCH_V, SCRATCH_M, SCRATCH_ROWS, SCRATCH_UB, N_SCRATCH };
static GPrivate scratch_key[N_SCRATCH] = {
  G_PRIVATE_INIT (g_free), G_PRIVATE_INIT (g_free), G_PRIVATE_INIT (g_free),
  G_PRIVATE_INIT (g_free) };
static GPrivate scratch_size[N_SCRATCH] = {
  G_PRIVATE_INIT (NULL), G_PRIVATE_INIT (NULL), G_PRIVATE_INIT (NULL), G_PRIVATE_INIT (NULL) };

static float *
scratch (int which, gsize floats)
{
  float *buf = g_private_get (&scratch_key[which]);
  if (buf == NULL || GPOINTER_TO_SIZE (g_private_get (&scratch_size[which])) < floats)
    {
      buf = g_malloc (floats * sizeof (float));
      g_private_replace (&scratch_key[which], buf);
      g_private_set (&scratch_size[which], GSIZE_TO_POINTER (floats));
    }
  return buf;
}

static float *
row_scratch (const WinoJob *j)
{
  /* comb: 2α rows; pad: the padded rows of the biggest block */
  return scratch (SCRATCH_ROWS, (gsize) (2 * j->alpha + (j->rpb - 1) * j->m + j->alpha)
                                * j->row_floats);
}

/* Output channels [begin, end) of the whole layer's transformed weights U [P][O][C]. */
static void
weight_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  kernels ()->weight (j, begin, end, j->U + begin * j->s->c, j->s->o * j->s->c);
}

/* Products and outputs of channels [o0, o1) of block blk, from its transformed input V.
 * Without transformed weights at hand (j->U NULL, the default), the channels go by blocks
 * of j->ob: their weights are transformed into a buffer that stays in this core's L2 cache,
 * multiplied with V point by point, and the block's outputs made while its products are
 * still in cache too. */
static void
products_and_output (const WinoJob *j, int64_t blk, int64_t o0, int64_t o1, const float *V)
{
  const WinoKernels *k = kernels ();
  const FxWinogradShape *s = j->s;
  if (j->U != NULL)
    {
      float *M = scratch (SCRATCH_M, (gsize) j->P * s->o * j->ld);
      gemm_points (j, blk, o0, o1, V, M);
      k->output (j, blk, o0, o1, M, 0, s->o * j->ld);
      return;
    }
  int64_t n, r0, r1;
  block_rows (j, blk, &n, &r0, &r1);
  int64_t nt = (r1 - r0) * j->tw;
  float *Ub = scratch (SCRATCH_UB, (gsize) j->P * j->ob * s->c);
  float *M = scratch (SCRATCH_M, (gsize) j->P * j->ob * j->ld);
  for (int64_t b0 = o0; b0 < o1; b0 += j->ob)
    {
      int64_t b1 = MIN (o1, b0 + j->ob), rows = b1 - b0;
      k->weight (j, b0, b1, Ub, rows * s->c);
      for (int x = 0; x < j->P; x++)
        fx_sgemm_stream (rows, nt, s->c, Ub + x * rows * s->c, s->c, V + x * s->c * j->ld,
                         j->ld, M + x * j->ob * j->ld, j->ld);
      k->output (j, blk, b0, b1, M, b0, j->ob * j->ld);
    }
}

/* Everything for whole blocks, in this thread's cache. */
static void
block_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  float *V = scratch (SCRATCH_V, (gsize) j->P * j->s->c * j->ld);
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
 * thread; with one block (batch 1) the threads share it instead (shared_input_task below). */
static GPrivate made_key = G_PRIVATE_INIT (g_free);   /* which block's V a thread has */

static void
slice_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  int64_t O = j->s->o;
  float *V = scratch (SCRATCH_V, (gsize) j->P * j->s->c * j->ld);
  for (int64_t i = begin; i < end; i++)
    {
      int64_t blk = i / j->n_slices, o0 = (i % j->n_slices) * j->slice;
      int64_t o1 = MIN (O, o0 + j->slice);
      if (!fx_scratch_holds (&made_key, j->call, blk))
        kernels ()->input (j, blk, 0, j->s->c, V, row_scratch (j));
      products_and_output (j, blk, o0, o1, V);
    }
}

/* One block (one small image): the threads first make its transformed input together,
 * by input channels, then each takes slices of output channels reading all of V — half of
 * it from the other core's cache, which costs less than making it twice: V is read again
 * for every block of output channels anyway (it outgrows L2 at 28×28), and the transform
 * made by every thread was a tenth of these layers' work. The end of the first parallel
 * loop is the barrier; a thread that is late for it leaves its share to the others. */
static void
shared_input_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  kernels ()->input (j, 0, begin, end, j->shared_V, row_scratch (j));
}

static void
shared_slice_task (int64_t begin, int64_t end, gpointer data)
{
  WinoJob *j = data;
  for (int64_t i = begin; i < end; i++)
    products_and_output (j, 0, i * j->slice, MIN (j->s->o, (i + 1) * j->slice), j->shared_V);
}

/* Transformed weights, kept between calls (opt-in: FX_WINOGRAD_CACHE_MB). A network runs the
 * same layers again and again, and the transform of a 256×256 layer costs a quarter of its
 * convolution, which the cache saves for memory that outlives the call. An
 * entry is only used when the weights are, bit for bit, those it was made from (a copy is
 * kept and compared at each call): a weight edited in place (conv.weight.data.mul_(2),
 * load_state_dict) or a new tensor at a reused address is simply a miss. The comparison
 * reads the weights once more, a fraction of what the transform costs. */
typedef struct {
  gatomicrefcount ref;
  const float *where;        /* the weights' address: which entry to compare with */
  int64_t o, c;
  int m;
  float *raw;                /* the weights the transform was made from */
  float *U;
  FxStorage *U_storage;      /* entries not kept: U in a storage, so that its megabytes go
                              * back to tensor.c's big-buffer reuse instead of munmap */
  guint64 last_use;
  gsize bytes;
} WeightEntry;

#define CACHE_ENTRIES 64


static struct {
  GMutex lock;
  WeightEntry *entries[CACHE_ENTRIES];
  gsize bytes;
  guint64 clock;
} wcache;

static void
weight_entry_unref (WeightEntry *e)
{
  if (e != NULL && g_atomic_ref_count_dec (&e->ref))
    {
      g_free (e->raw);
      if (e->U_storage != NULL)
        fx_storage_unref (e->U_storage);
      else
        g_free (e->U);
      g_free (e);
    }
}

/* Drops entry i (lock held). */
static void
cache_drop (int i)
{
  wcache.bytes -= wcache.entries[i]->bytes;
  weight_entry_unref (wcache.entries[i]);
  wcache.entries[i] = NULL;
}

/* The cache's budget in bytes (wcache.lock held): FX_WINOGRAD_CACHE_MB, else 0 — no
 * transformed weights kept between calls, so a forward adds no memory that outlives it. */
static gint64 cache_budget = -1;   /* -1: not yet read from the environment */

static gsize
cache_bytes_locked (void)
{
  if (cache_budget < 0)
    {
      const char *env = g_getenv ("FX_WINOGRAD_CACHE_MB");
      guint64 mb = env ? MIN (g_ascii_strtoull (env, NULL, 10), (guint64) 1 << 20) : 0;
      cache_budget = (gint64) (mb << 20);
    }
  return (gsize) cache_budget;
}

/* Drops the least recently used entries (lock held) until the cache holds at most limit
 * bytes and, with need_slot, has a free slot; returns that slot (or -1 without need_slot). */
static int
cache_shrink_locked (gsize limit, gboolean need_slot)
{
  for (;;)
    {
      int free_slot = -1, oldest = -1;
      for (int i = 0; i < CACHE_ENTRIES; i++)
        if (wcache.entries[i] == NULL)
          free_slot = free_slot < 0 ? i : free_slot;
        else if (oldest < 0 || wcache.entries[i]->last_use < wcache.entries[oldest]->last_use)
          oldest = i;
      if (wcache.bytes <= limit && (free_slot >= 0 || !need_slot))
        return free_slot;
      cache_drop (oldest);
    }
}

void
fx_winograd_set_cache_budget (gsize bytes)
{
  g_mutex_lock (&wcache.lock);
  cache_budget = (gint64) MIN (bytes, (gsize) G_MAXINT64);
  cache_shrink_locked ((gsize) cache_budget, FALSE);
  g_mutex_unlock (&wcache.lock);
}

typedef struct {
  const char *a, *b;
  gsize bytes;
  atomic_int differ;
} CompareJob;

#define COMPARE_CHUNK ((gsize) 256 << 10)

static void
compare_task (int64_t begin, int64_t end, gpointer data)
{
  CompareJob *c = data;
  for (int64_t i = begin; i < end && !atomic_load_explicit (&c->differ, memory_order_relaxed); i++)
    {
      gsize off = (gsize) i * COMPARE_CHUNK, len = MIN (COMPARE_CHUNK, c->bytes - off);
      if (memcmp (c->a + off, c->b + off, len) != 0)
        atomic_store (&c->differ, 1);
    }
}

/* memcmp (a, b, bytes) == 0, on the pool: megabytes of weights stream faster on two cores. */
static gboolean
same_bytes (const void *a, const void *b, gsize bytes)
{
  CompareJob c = { a, b, bytes, 0 };
  fx_parallel_for ((int64_t) ((bytes + COMPARE_CHUNK - 1) / COMPARE_CHUNK), 1, compare_task, &c);
  return !atomic_load (&c.differ);
}

/* The transformed weights of j (j->U set), as a reference to unref after use. */
static WeightEntry *
weights_lookup (WinoJob *j)
{
  const FxWinogradShape *s = j->s;
  gsize raw_bytes = sizeof (float) * s->o * s->c * 9;
  WeightEntry *found = NULL;
  g_mutex_lock (&wcache.lock);
  gboolean keep = cache_bytes_locked () > 0;
  for (int i = 0; i < CACHE_ENTRIES && found == NULL; i++)
    {
      WeightEntry *e = wcache.entries[i];
      if (e && e->where == j->weight && e->o == s->o && e->c == s->c && e->m == j->m)
        {
          found = e;
          g_atomic_ref_count_inc (&e->ref);
          e->last_use = ++wcache.clock;
        }
    }
  g_mutex_unlock (&wcache.lock);
  if (found != NULL && same_bytes (found->raw, j->weight, raw_bytes))
    {
      j->U = found->U;
      return found;
    }
  weight_entry_unref (found);

  WeightEntry *e = g_new0 (WeightEntry, 1);
  g_atomic_ref_count_init (&e->ref);
  e->where = j->weight;
  e->o = s->o;
  e->c = s->c;
  e->m = j->m;
  e->raw = keep ? g_memdup2 (j->weight, raw_bytes) : NULL;
  if (keep)
    e->U = g_malloc (sizeof (float) * j->P * s->o * s->c);
  else
    {
      e->U_storage = fx_storage_new_uninit (sizeof (float) * j->P * s->o * s->c);
      e->U = e->U_storage->data;
    }
  e->bytes = raw_bytes + sizeof (float) * j->P * s->o * s->c;
  j->U = e->U;
  fx_parallel_for (s->o, MAX ((int64_t) 1, 4096 / MAX (s->c, 1)), weight_task, j);

  /* in the table, replacing a stale entry for the same weights, or the least recently used */
  g_mutex_lock (&wcache.lock);
  for (int i = 0; i < CACHE_ENTRIES; i++)
    {
      WeightEntry *o = wcache.entries[i];
      if (o && o->where == e->where && o->o == e->o && o->c == e->c && o->m == e->m)
        cache_drop (i);
    }
  gsize budget = cache_bytes_locked ();
  if (e->raw != NULL && e->bytes <= budget / 4)
    {
      int slot = cache_shrink_locked (budget - e->bytes, TRUE);
      g_atomic_ref_count_inc (&e->ref);
      e->last_use = ++wcache.clock;
      wcache.entries[slot] = e;
      wcache.bytes += e->bytes;
    }
  g_mutex_unlock (&wcache.lock);
  return e;
}

/* Whether transformed weights are kept between calls (else each call makes them block by
 * block, just in time). */
static gboolean
cache_enabled (void)
{
  g_mutex_lock (&wcache.lock);
  gboolean on = cache_bytes_locked () > 0;
  g_mutex_unlock (&wcache.lock);
  return on;
}

/* Output channels per just-in-time block: a multiple of fx_sgemm_stream's 6- and 8-row
 * tiles (else of 8) whose transformed weights (P·ob·C floats) take about 384 KiB, leaving
 * the rest of a 1 MiB L2 to the point's slice of V and the products. */
static int64_t
jit_block_channels (int P, int64_t c)
{
  int64_t ob = ((int64_t) 384 << 10) / (4 * P * MAX (c, (int64_t) 1));
  return ob >= 24 ? MIN (ob / 24 * 24, (int64_t) 96) : MAX (ob / 8 * 8, (int64_t) 8);
}

/* Tile rows per block: the transformed input and products of a block take up to 4 MiB.
 * Big blocks pay: each point's gemm then streams its U[ξ] (up to megabytes) once for many
 * tiles, where blocks small enough for the L2 cache made every block stream all of U again
 * (measured on ResNet-18's layers: 30-40% faster with one block per image). */
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
  j.rpb = block_rows_for (j.P, s->c, s->o, j.tw, j.th);
  /* A single image with tiles enough for every thread (48 or more each): one block per
   * thread, which then owns all its work — no input transform made twice, as slices of
   * output channels need (below). */
  if (s->n == 1 && threads > 1 && j.th >= threads && j.th * j.tw >= 48 * threads
      && j.rpb * threads > j.th)
    j.rpb = (j.th + threads - 1) / threads;
  j.nb = (j.th + j.rpb - 1) / j.rpb;
  j.ld = j.rpb * j.tw + LANES;
  j.row_floats = (j.tw + LANES - 1) / LANES * LANES * m + LANES;
  j.in = in;
  j.weight = weight;
  j.bias = bias;
  j.out = out;
  j.ep = ep;
  int64_t blocks = s->n * j.nb;
  j.ob = jit_block_channels (j.P, s->c);
  fx_blas_enter_single_threaded ();
  WeightEntry *e = cache_enabled () ? weights_lookup (&j) : NULL;
  if (blocks >= threads || threads <= 1)
    fx_parallel_for (blocks, 1, block_task, &j);
  else
    {
      j.call = fx_parallel_call_id ();
      j.slice = (s->o + threads - 1) / threads;
      j.n_slices = (s->o + j.slice - 1) / j.slice;
      if (blocks == 1)
        {
          /* the caller's own V buffer: it outlives both loops, which end before it returns */
          j.shared_V = scratch (SCRATCH_V, (gsize) j.P * s->c * j.ld);
          fx_parallel_for (s->c, 8, shared_input_task, &j);
          fx_parallel_for (j.n_slices, 1, shared_slice_task, &j);
        }
      else
        fx_parallel_for (blocks * j.n_slices, 1, slice_task, &j);
    }
  weight_entry_unref (e);
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

/* Estimated seconds of one thread's work for tile size m (0: im2col + gemm). The constants
 * are this project's measurements (single-threaded, on an AVX-512 core, ResNet-18's
 * layers): products at ~180 GFLOPS, less when a block has few tiles (fx_sgemm_stream then
 * loads nearly as much as it multiplies: 16 tiles, one vector, ran at two thirds of the
 * rate of 49); ~8 ns per tile and channel for the F(4×4) input and output transforms
 * (scaled by α² for F(2×2)); and the just-in-time weight transform at ~5 ns (F(2×2)) or
 * ~8.5 ns (F(4×4)) per 3×3 filter, weights read included — which is what rules Winograd
 * out for 512×512 filters on 7×7 images, where there are few tiles to share it. */
static double
estimate (const FxWinogradShape *s, int m)
{
  const double gemm_rate = 180e9, tf_seconds = 8e-9;
  double oc = (double) s->o * s->c;
  if (m == 0)
    return 2.0 * oc * 9 * s->n * s->oh * s->ow / gemm_rate;
  double a2 = (m + 2) * (m + 2);
  double per_image = (double) ((s->oh + m - 1) / m) * ((s->ow + m - 1) / m);
  double tiles = s->n * per_image;
  double nt = MIN (per_image, 64.0), nv = ceil (nt / 16);
  /* a last vector of one or two tiles runs as dot products (fx_sgemm_stream), not padding */
  if (nt > 16 && fmod (nt, 16) <= 2)
    nv = floor (nt / 16);
  double eff = MIN (1.0, nt / (16 * nv)) * MIN (1.0, 1.33 * 6 * nv / (6 * nv + 6));
  return 2.0 * a2 * oc * tiles / (gemm_rate * eff)
         + tiles * (s->c + s->o) * tf_seconds * a2 / 36
         + oc * (m == 4 ? 8.5e-9 : 5e-9);
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
