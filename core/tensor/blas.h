/* blas.h: OpenBLAS behind one small door. libfx loads OpenBLAS itself, at first use, with the
 * fastest kernel for this CPU (Debian's 0.3.21 misdetects recent CPUs), and everything that
 * multiplies matrices goes through fx_sgemm()/fx_dgemm() here. */
#pragma once

#include <glib.h>
#include <stdatomic.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Loads OpenBLAS (once; thread-safe). Returns FALSE when it is not available — the gemm
 * wrappers then fall back to plain C loops, so callers need not check. Called implicitly by
 * every function below.
 * The kernel: FX_BLAS_CORETYPE=NAME forces one (=auto leaves OpenBLAS's own detection);
 * otherwise libfx picks it from the CPU's flags (AVX-512 → SkylakeX, AVX2+FMA → Haswell).
 * An OPENBLAS_CORETYPE in the environment is honoured unless it names a slower kernel than
 * libfx's pick. */
gboolean     fx_blas_init               (void);
/* TRUE when OpenBLAS is loaded (FALSE: the C fallback is in use). */
gboolean     fx_blas_available          (void);
/* OpenBLAS's name of the kernel in use ("SkylakeX", "Haswell", ...), or "fallback". */
const char  *fx_blas_corename           (void);
/* The OPENBLAS_CORETYPE that libfx chose from the CPU's flags ("SKYLAKEX", "HASWELL"), or
 * NULL when it left OpenBLAS's own detection alone. */
const char  *fx_blas_preferred_coretype (void);
/* One line for logs and benchmarks: core, threads, OpenBLAS configuration, and how the core
 * was chosen. g_free. */
char        *fx_blas_describe           (void);
/* Threads that libfx's gemm/gemv and parallel loops use (OpenBLAS itself always runs on the
 * calling thread: big products are split over libfx's pool instead). Default: FX_NUM_THREADS
 * when set, else OpenBLAS's own choice when OPENBLAS_NUM_THREADS / GOTO_NUM_THREADS /
 * OMP_NUM_THREADS is set, else the number of physical cores available to the process. */
int          fx_blas_num_threads        (void);
/* n <= 0 restores the default above. */
void         fx_blas_set_num_threads    (int n);

/* Row-major C[m,n] = alpha * op(A) * op(B) + beta * C, op(X) = X or X^T; A is m×k after op,
 * B is k×n after op. lda/ldb/ldc are row strides in elements. beta == 0 overwrites C without
 * reading it (NaN garbage in C does not leak). Any of m, n, k may be 0. Big products run as
 * slices of rows or columns of C on libfx's pool. */
void         fx_sgemm (gboolean trans_a, gboolean trans_b, int64_t m, int64_t n, int64_t k,
                       float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                       float beta, float *c, int64_t ldc);
void         fx_dgemm (gboolean trans_a, gboolean trans_b, int64_t m, int64_t n, int64_t k,
                       double alpha, const double *a, int64_t lda, const double *b, int64_t ldb,
                       double beta, double *c, int64_t ldc);
/* What fx_sgemm_stream does to each element of C once its sum is complete, while it is in a
 * register, in this order (each step optional): + bias[i]; × scale_shift[2i] +
 * scale_shift[2i + 1]; + residual[i·ldr + j]; relu (v < 0: 0). Single float operations,
 * never fused into one, so the results are those of the steps run one after another. */
typedef struct {
  const float *bias;          /* one per row of C, or NULL */
  const float *scale_shift;   /* two per row of C, or NULL */
  const float *residual;      /* m × n, rows ldr apart, or NULL */
  int64_t ldr;
  gboolean relu;
} FxGemmEpilogue;

/* C[m,n] = A[m,k] · B[k,n], all row-major, on the calling thread, without packing A: each
 * element of A is read once per 64 columns of C and broadcast against rows of B. For the
 * convolutions' products, whose A (the weights) is big and used against few columns, where
 * a packing gemm spends as long copying A as multiplying. Uses AVX-512 when the CPU has it,
 * else it is fx_sgemm (beta 0). ep (or NULL) finishes each element as FxGemmEpilogue says. */
void         fx_sgemm_stream (int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                              const float *b, int64_t ldb, float *c, int64_t ldc,
                              const FxGemmEpilogue *ep);
/* Two threads on one fx_sgemm_stream product, so that the slower one (its core shared
 * with another process, or just slower this time) does less: each takes the product's units
 * (a tile of rows of a block of columns, with all of k) from its end of one list, side 0
 * from the front and side 1 from the back, until they meet. Before the threads start,
 * fx_gemm_share_init (share, fx_sgemm_stream_units (m, n, k)); then each thread calls
 * fx_sgemm_stream_shared with the same product and its side. The result is fx_sgemm_stream's,
 * bit for bit, whoever did which unit. */
typedef struct {
  _Atomic guint64 ends;   /* units not taken: [low 32 bits, high 32 bits) */
} FxGemmShare;
int64_t      fx_sgemm_stream_units (int64_t m, int64_t n, int64_t k);
void         fx_gemm_share_init (FxGemmShare *share, int64_t units);
/* Whether share has units no thread has taken yet. */
gboolean     fx_gemm_share_pending (FxGemmShare *share);
void         fx_sgemm_stream_shared (int64_t m, int64_t n, int64_t k, const float *a,
                                     int64_t lda, const float *b, int64_t ldb, float *c,
                                     int64_t ldc, const FxGemmEpilogue *ep, FxGemmShare *share,
                                     int side);
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* ep's steps on x, 16 finished sums of row i of C from column col on (the lanes of `lanes`
 * for the residual's loads). The kernels that finish their outputs in registers
 * (fx_sgemm_stream's, conv.c's stem) and fx_gemm_epilogue_rows all take this one path, so
 * that they agree bit for bit; their files are built with -ffp-contract=off, which keeps the
 * multiply and the add apart. */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) __m512
fx_gemm_epilogue_vec (const FxGemmEpilogue *ep, int64_t i, int64_t col, __mmask16 lanes,
                      __m512 x)
{
  if (ep->bias)
    x = _mm512_add_ps (x, _mm512_set1_ps (ep->bias[i]));
  if (ep->scale_shift)
    x = _mm512_add_ps (_mm512_mul_ps (x, _mm512_set1_ps (ep->scale_shift[2 * i])),
                       _mm512_set1_ps (ep->scale_shift[2 * i + 1]));
  if (ep->residual)
    x = _mm512_add_ps (x, _mm512_maskz_loadu_ps (lanes, ep->residual + i * ep->ldr + col));
  if (ep->relu)
    {
      const __m512 zero = _mm512_setzero_ps ();
      x = _mm512_mask_mov_ps (x, _mm512_cmp_ps_mask (x, zero, _CMP_LT_OQ), zero);
    }
  return x;
}
#endif

/* ep's steps on rows [0, m) of n elements of C, ldc apart, in place: the same operations as
 * fx_sgemm_stream's, for outputs made some other way (AVX-512 when the CPU has it). */
void         fx_gemm_epilogue_rows (const FxGemmEpilogue *ep, float *c, int64_t ldc,
                                    int64_t m, int64_t n);
/* TRUE when fx_sgemm_stream has its own kernel on this CPU (else it is plain fx_sgemm). */
gboolean     fx_sgemm_stream_native (void);

/* Register tiles of the AVX-512 product kernels (fx_sgemm_stream's, Winograd's with the
 * channels in the lanes, conv.c's stem): mr rows of nv vectors of 16 floats, the
 * accumulators, the nv loads and a broadcast within 32 registers — up to 8 rows of 1 to 3
 * vectors, 6 of 4. FX_TILE_ROWS (nv): the rows of a full tile. FX_TILE_ID (mr, nv): a tile's
 * switch key. FX_TILE_CASES (C): C (mr, nv) for every tile, the cases of a switch that
 * dispatches a run-time (mr, nv) to a kernel inlined for those constants. */
#define FX_TILE_ROWS(nv) ((nv) <= 3 ? 8 : 6)
#define FX_TILE_ID(mr, nv) ((mr) * 8 + (nv))
#define FX_TILE_CASES_NV3(C, mr) C (mr, 1) C (mr, 2) C (mr, 3)
#define FX_TILE_CASES(C)                                                                    \
  FX_TILE_CASES_NV3 (C, 8) FX_TILE_CASES_NV3 (C, 7) FX_TILE_CASES_NV3 (C, 6) C (6, 4)      \
  FX_TILE_CASES_NV3 (C, 5) C (5, 4) FX_TILE_CASES_NV3 (C, 4) C (4, 4)                      \
  FX_TILE_CASES_NV3 (C, 3) C (3, 4) FX_TILE_CASES_NV3 (C, 2) C (2, 4)                      \
  FX_TILE_CASES_NV3 (C, 1) C (1, 4)
/* TRUE when the CPU (and the OS) run AVX-512F code: kernels with an AVX-512 path (built with
 * __attribute__ ((target))) check this once and keep their portable path otherwise. */
gboolean     fx_cpu_has_avx512      (void);

/* y[m] = alpha * op(A) x + beta * y with A row-major m×n (trans: A^T, y has n entries);
 * x and y are strided (incx, incy > 0). */
void         fx_sgemv (gboolean trans, int64_t m, int64_t n, float alpha, const float *a,
                       int64_t lda, const float *x, int64_t incx, float beta, float *y,
                       int64_t incy);
void         fx_dgemv (gboolean trans, int64_t m, int64_t n, double alpha, const double *a,
                       int64_t lda, const double *x, int64_t incx, double beta, double *y,
                       int64_t incy);

/* Runs fn(begin, end, data) over [0, n) in chunks of at least min_chunk items, claimed
 * dynamically by up to fx_blas_num_threads() threads (the calling thread included), so that a
 * core busy with something else simply takes fewer chunks (a worker that has not started
 * when the chunks run out is not waited for). Runs inline when there is one chunk, one
 * thread is configured, or the pool is already busy (nested or concurrent calls). */
typedef void (*FxParallelFunc) (int64_t begin, int64_t end, gpointer data);
void         fx_parallel_for            (int64_t n, int64_t min_chunk, FxParallelFunc fn,
                                         gpointer data);
/* fx_parallel_for for a few heavy items (tens of microseconds each or more): each claim takes
 * a quarter of the items left (at least one), so that the threads end within one item of
 * each other, where chunks of several left one waiting up to a chunk's time for the other. */
void         fx_parallel_for_each       (int64_t n, FxParallelFunc fn, gpointer data);

/* Memos of what a thread's scratch buffer holds, for parallel tasks that make an input once
 * per thread and reuse it for the thread's next task on the same part (im2col columns,
 * Winograd's transformed input). fx_parallel_call_id: a number for one call, never 0 or
 * repeated. fx_scratch_holds: whether the calling thread's memo `tag` (a GPrivate of the
 * caller's, G_PRIVATE_INIT (g_free)) says its scratch holds part `what` of call `call`; if
 * not, it records that it does — the caller makes it now. */
guint64      fx_parallel_call_id        (void);
gboolean     fx_scratch_holds           (GPrivate *tag, guint64 call, int64_t what);

/* A buffer of at least `bytes` that the calling thread keeps between calls: `key` (a GPrivate
 * of the caller's, G_PRIVATE_INIT (g_aligned_free)) holds it, `size_key` (G_PRIVATE_INIT
 * (NULL)) its size; a smaller one is replaced. Multi-megabyte allocations on every call
 * would cost page faults. Cache-line aligned: rows of whole cache lines start on one. */
void        *fx_thread_buffer           (GPrivate *key, GPrivate *size_key, gsize bytes);

/* Prefetches the cache lines of [begin, end) into L1, for reading or (for_write, a constant)
 * for writing: for kernels whose input was just written in the other core's cache, or whose
 * scratch was last used layers before, in patterns the hardware's prefetchers do not follow. */
static inline void
fx_prefetch_range (const void *begin, const void *end, gboolean for_write)
{
  for (const char *q = begin; q < (const char *) end; q += 64)
    {
      if (for_write)
        __builtin_prefetch (q, 1, 3);
      else
        __builtin_prefetch (q, 0, 3);
    }
}

/* One pause of a spin-wait loop (x86's `pause`: the waiting core yields to its sibling and
 * leaves the loop without a memory-order stall; nothing elsewhere). */
static inline void
fx_cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __asm__ volatile ("pause");
#endif
}

/* Between these two calls BLAS runs single-threaded: for fx_parallel_for loops whose chunks
 * each call BLAS on their own thread. They nest and count; threads come back at the last
 * leave. */
void         fx_blas_enter_single_threaded (void);
void         fx_blas_leave_single_threaded (void);

G_END_DECLS
