/* blas.c: loads OpenBLAS at first use with the kernel this CPU deserves, wraps gemm/gemv,
 * and runs libfx's own parallel loops on a tiny thread pool.
 *
 * Why dlopen: OpenBLAS 0.3.21 (Debian 12) picks its kernel once, in its ELF constructor, from
 * OPENBLAS_CORETYPE or its own CPU detection. That detection does not know recent Xeons (they
 * come out as "Prescott", ~4.5x slower sgemm), and the environment can be wrong too: this
 * project's AMD EPYC (Zen 5, AVX-512) is detected as "Cooperlake", but its machines export
 * OPENBLAS_CORETYPE=Haswell, which halves sgemm (1024^3 on one core: SkylakeX 205 GFLOPS,
 * Cooperlake 191, Zen 105, Haswell 102). A constructor in libfx is not guaranteed to run
 * before OpenBLAS's when libfx links it, so libfx does not link it: it sets
 * OPENBLAS_CORETYPE, dlopen()s the library, restores the environment and resolves the few
 * symbols it needs. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_SET: physical_cores() */
#include "tensor/blas.h"

#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* CBLAS constants (stable ABI values), so that no OpenBLAS header is needed. */
enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

typedef int blasint;   /* Debian's OpenBLAS is built with 32-bit integers (no INTERFACE64) */

typedef void (*SgemmFunc) (int, int, int, blasint, blasint, blasint, float, const float *,
                           blasint, const float *, blasint, float, float *, blasint);
typedef void (*DgemmFunc) (int, int, int, blasint, blasint, blasint, double, const double *,
                           blasint, const double *, blasint, double, double *, blasint);
typedef void (*SgemvFunc) (int, int, blasint, blasint, float, const float *, blasint,
                           const float *, blasint, float, float *, blasint);
typedef void (*DgemvFunc) (int, int, blasint, blasint, double, const double *, blasint,
                           const double *, blasint, double, double *, blasint);

static struct {
  void *handle;
  SgemmFunc sgemm;
  DgemmFunc dgemm;
  SgemvFunc sgemv;
  DgemvFunc dgemv;
  void (*set_num_threads) (int);
  int (*get_num_threads) (void);
  char *(*get_corename) (void);
  char *(*get_config) (void);
  const char *preferred;     /* what libfx asked for, or NULL */
  const char *how;           /* why the core is what it is, for fx_blas_describe() */
  int default_threads;       /* what fx_blas_set_num_threads(0) restores */
  int num_threads;
} blas;

/* fx_blas_enter_single_threaded() sections; the lock also orders thread-count changes. */
static struct {
  GMutex lock;
  int depth;
} single;

/* ---- CPU flags ---- */

typedef struct {
  gboolean avx2_fma;   /* AVX2 + FMA, with the OS saving YMM state */
  gboolean avx512;     /* AVX512 F+CD+BW+DQ+VL (SkylakeX's set), OS saving ZMM state */
} CpuFlags;

static CpuFlags
cpu_flags (void)
{
  CpuFlags f = { FALSE, FALSE };
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, c, d;
  if (!__get_cpuid (1, &a, &b, &c, &d))
    return f;
  gboolean fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  if (!osxsave || !avx)
    return f;
  unsigned xlo, xhi;
  __asm__ volatile ("xgetbv" : "=a" (xlo), "=d" (xhi) : "c" (0));
  gboolean ymm_os = (xlo & 0x6) == 0x6;
  gboolean zmm_os = ymm_os && (xlo & 0xe0) == 0xe0;
  if (__get_cpuid_max (0, NULL) < 7)
    return f;
  __cpuid_count (7, 0, a, b, c, d);
  gboolean avx2 = (b >> 5) & 1;
  f.avx2_fma = ymm_os && avx2 && fma;
  const unsigned skx = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
  f.avx512 = f.avx2_fma && zmm_os && (b & skx) == skx;
#endif
  return f;
}

/* The kernel to force. SkylakeX's kernels serve every AVX-512 CPU (Cooperlake only adds
 * bf16 ones, same sgemm speed), Haswell's every AVX2+FMA one (Zen 1-3 get nothing faster
 * from 0.3.21); without AVX2 OpenBLAS's own detection is left alone. */
static const char *
choose_coretype (void)
{
  CpuFlags f = cpu_flags ();
  if (f.avx512)
    return "SKYLAKEX";
  if (f.avx2_fma)
    return "HASWELL";
  return NULL;
}

const char *
fx_blas_preferred_coretype (void)
{
  fx_blas_init ();
  return blas.preferred;
}

/* Rough speed tiers of OpenBLAS's x86 kernels for sgemm, to tell a stale or misguided
 * OPENBLAS_CORETYPE (this project's own machines export OPENBLAS_CORETYPE=Haswell on an
 * AVX-512 CPU) from a deliberate choice. */
static int
coretype_tier (const char *name)
{
  static const char *const tier3[] = { "SKYLAKEX", "COOPERLAKE", "SAPPHIRERAPIDS", NULL };
  static const char *const tier2[] = { "HASWELL", "ZEN", NULL };
  static const char *const tier1[] = { "SANDYBRIDGE", "BULLDOZER", "PILEDRIVER", "STEAMROLLER",
                                       "EXCAVATOR", NULL };
  const char *const *tiers[] = { tier1, tier2, tier3 };
  for (int t = 2; t >= 0; t--)
    for (const char *const *n = tiers[t]; *n; n++)
      if (g_ascii_strcasecmp (name, *n) == 0)
        return t + 1;
  return 0;
}

/* ---- threads ---- */

static int
env_threads (const char *name)
{
  const char *s = g_getenv (name);
  if (s == NULL || *s == '\0')
    return 0;
  char *end;
  long v = strtol (s, &end, 10);
  return (end != s && v > 0 && v < 4096) ? (int) v : 0;
}

/* Physical cores among the CPUs this process may run on: hyperthread siblings share one
 * core's FMA units, and BLAS runs slower when it fights over them. */
static int
physical_cores (void)
{
  int logical = (int) g_get_num_processors ();
#ifdef CPU_SETSIZE
  cpu_set_t set;
  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return MAX (logical, 1);
  GHashTable *cores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int n_cpus = 0;
  gboolean ok = TRUE;
  for (int cpu = 0; cpu < CPU_SETSIZE && ok; cpu++)
    {
      if (!CPU_ISSET (cpu, &set))
        continue;
      n_cpus++;
      char path[128], *core = NULL, *pkg = NULL;
      g_snprintf (path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
      ok = g_file_get_contents (path, &core, NULL, NULL);
      g_snprintf (path, sizeof path,
                  "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
      ok = ok && g_file_get_contents (path, &pkg, NULL, NULL);
      if (ok)
        g_hash_table_add (cores, g_strdup_printf ("%s/%s", g_strstrip (pkg), g_strstrip (core)));
      g_free (core);
      g_free (pkg);
    }
  int n = ok ? (int) g_hash_table_size (cores) : n_cpus;
  g_hash_table_unref (cores);
  return MAX (n, 1);
#else
  return MAX (logical, 1);
#endif
}

/* ---- loading ---- */

static gboolean
load_openblas (void)
{
  static const char *const names[] = { "libopenblas.so.0", "libopenblas.so" };
  void *handle = NULL;

  /* Already in the process (linked by the application, or loaded by someone else): its
   * kernel is fixed; use it as it is. */
  for (guint i = 0; i < G_N_ELEMENTS (names) && handle == NULL; i++)
    handle = dlopen (names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (handle != NULL)
    blas.how = "OpenBLAS was already loaded by the process; its kernel was kept";

  if (handle == NULL)
    {
      const char *user_core = g_getenv ("OPENBLAS_CORETYPE");
      const char *fx_core = g_getenv ("FX_BLAS_CORETYPE");
      char *saved = g_strdup (user_core);
      char *forced = NULL;
      const char *ours = choose_coretype ();
      if (fx_core != NULL && (g_ascii_strcasecmp (fx_core, "auto") == 0
                              || g_ascii_strcasecmp (fx_core, "detect") == 0))
        {
          g_unsetenv ("OPENBLAS_CORETYPE");   /* detection left to OpenBLAS, whatever is set */
          blas.how = "OpenBLAS's own detection (FX_BLAS_CORETYPE=auto)";
        }
      else if (fx_core != NULL && *fx_core != '\0')
        {
          forced = g_ascii_strup (fx_core, -1);
          blas.how = "FX_BLAS_CORETYPE set by the user";
        }
      else if (user_core != NULL && *user_core != '\0'
               && (ours == NULL || coretype_tier (user_core) >= coretype_tier (ours)))
        blas.how = "OPENBLAS_CORETYPE set by the user";
      else
        {
          blas.preferred = ours;
          if (ours != NULL)
            forced = g_strdup (ours);
          if (ours != NULL && user_core != NULL && *user_core != '\0')
            blas.how = "chosen by libfx from the CPU's flags, over a slower OPENBLAS_CORETYPE "
                       "in the environment (FX_BLAS_CORETYPE overrides)";
          else
            blas.how = ours != NULL ? "chosen by libfx from the CPU's flags"
                                    : "OpenBLAS's own detection (no AVX2 on this CPU)";
        }
      /* OpenBLAS reads the variable only inside dlopen(); the environment is restored right
       * after, so that child processes see what the user set. */
      if (forced != NULL)
        g_setenv ("OPENBLAS_CORETYPE", forced, TRUE);
      /* OpenBLAS always runs single-threaded under libfx (see set_num_threads()): without a
       * thread count of the user's, it is loaded with one, so that it starts no workers —
       * they would spin in sched_yield() for their first ~0.1 s, taking a core. */
      gboolean one_thread = env_threads ("OPENBLAS_NUM_THREADS") == 0
                            && env_threads ("GOTO_NUM_THREADS") == 0
                            && env_threads ("OMP_NUM_THREADS") == 0
                            && g_getenv ("OPENBLAS_NUM_THREADS") == NULL;
      if (one_thread)
        g_setenv ("OPENBLAS_NUM_THREADS", "1", TRUE);
      for (guint i = 0; i < G_N_ELEMENTS (names) && handle == NULL; i++)
        handle = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
      if (one_thread)
        g_unsetenv ("OPENBLAS_NUM_THREADS");
      if (saved != NULL)
        g_setenv ("OPENBLAS_CORETYPE", saved, TRUE);
      else
        g_unsetenv ("OPENBLAS_CORETYPE");
      g_free (saved);
      g_free (forced);
    }
  if (handle == NULL)
    return FALSE;

  blas.sgemm = (SgemmFunc) dlsym (handle, "cblas_sgemm");
  blas.dgemm = (DgemmFunc) dlsym (handle, "cblas_dgemm");
  blas.sgemv = (SgemvFunc) dlsym (handle, "cblas_sgemv");
  blas.dgemv = (DgemvFunc) dlsym (handle, "cblas_dgemv");
  blas.set_num_threads = (void (*) (int)) dlsym (handle, "openblas_set_num_threads");
  blas.get_num_threads = (int (*) (void)) dlsym (handle, "openblas_get_num_threads");
  blas.get_corename = (char *(*) (void)) dlsym (handle, "openblas_get_corename");
  blas.get_config = (char *(*) (void)) dlsym (handle, "openblas_get_config");
  if (!blas.sgemm || !blas.dgemm || !blas.sgemv || !blas.dgemv)
    {
      /* Not OpenBLAS, or a broken one: the C fallback is better than a crash. */
      memset (&blas, 0, sizeof blas);
      return FALSE;
    }
  blas.handle = handle;
  return TRUE;
}

static void set_num_threads (int n);

static gpointer
init_once (gpointer data)
{
  if (!load_openblas ())
    blas.how = "OpenBLAS could not be loaded; using libfx's C loops";

  int fx_threads = env_threads ("FX_NUM_THREADS");
  gboolean user_blas_threads = env_threads ("OPENBLAS_NUM_THREADS") > 0
                               || env_threads ("GOTO_NUM_THREADS") > 0
                               || env_threads ("OMP_NUM_THREADS") > 0;
  if (fx_threads > 0)
    blas.default_threads = fx_threads;
  else if (user_blas_threads && blas.get_num_threads != NULL)
    blas.default_threads = MAX (blas.get_num_threads (), 1);   /* as OpenBLAS read them */
  else if (user_blas_threads)
    blas.default_threads = MAX (MAX (env_threads ("OPENBLAS_NUM_THREADS"),
                                     env_threads ("GOTO_NUM_THREADS")),
                                env_threads ("OMP_NUM_THREADS"));
  else
    blas.default_threads = physical_cores ();
  set_num_threads (0);
  return GINT_TO_POINTER (blas.handle != NULL);
}

gboolean
fx_blas_init (void)
{
  static GOnce once = G_ONCE_INIT;
  return GPOINTER_TO_INT (g_once (&once, init_once, NULL));
}

gboolean
fx_blas_available (void)
{
  return fx_blas_init ();
}

const char *
fx_blas_corename (void)
{
  if (!fx_blas_init () || blas.get_corename == NULL)
    return "fallback";
  const char *name = blas.get_corename ();
  return name != NULL ? name : "unknown";
}

int
fx_blas_num_threads (void)
{
  fx_blas_init ();
  return g_atomic_int_get (&blas.num_threads);
}

static void
set_num_threads (int n)
{
  if (n <= 0)
    n = blas.default_threads;
  n = CLAMP (n, 1, 1024);
  g_mutex_lock (&single.lock);
  if (blas.set_num_threads != NULL)
    {
      /* The cap of OpenBLAS's build (its MAX_THREADS), read from its configuration rather
       * than by asking it for n threads, which would start workers that then spin. */
      const char *config = blas.get_config ? blas.get_config () : NULL;
      const char *max = config ? strstr (config, "MAX_THREADS=") : NULL;
      if (max != NULL && atoi (max + strlen ("MAX_THREADS=")) > 0)
        n = MIN (n, atoi (max + strlen ("MAX_THREADS=")));
      /* OpenBLAS itself always runs on the calling thread: fx_sgemm() and friends split big
       * products over libfx's pool instead. Two pools on two cores fought: after each
       * threaded call OpenBLAS's workers spin in sched_yield() for a long while, taking a
       * core from libfx's threads (~8% of a ResNet forward went to that). */
      blas.set_num_threads (1);
    }
  g_atomic_int_set (&blas.num_threads, n);
  g_mutex_unlock (&single.lock);
}

void
fx_blas_set_num_threads (int n)
{
  fx_blas_init ();
  set_num_threads (n);
}

char *
fx_blas_describe (void)
{
  fx_blas_init ();
  const char *config = blas.get_config != NULL ? blas.get_config () : NULL;
  char *cfg = g_strstrip (g_strdup (config != NULL ? config
                                                   : (blas.handle ? "OpenBLAS" : "no BLAS")));
  int threads = fx_blas_num_threads ();
  char *s = g_strdup_printf ("%s, core %s (%s), %d thread%s", cfg, fx_blas_corename (),
                             blas.how ? blas.how : "?", threads, threads == 1 ? "" : "s");
  g_free (cfg);
  return s;
}

/* ---- gemm ---- */

static inline gboolean
fits_blasint (int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc)
{
  return m <= G_MAXINT && n <= G_MAXINT && k <= G_MAXINT && lda <= G_MAXINT
         && ldb <= G_MAXINT && ldc <= G_MAXINT;
}

/* The C fallback (no OpenBLAS, or sizes beyond 32-bit BLAS integers): i-p-j order so the
 * inner loop runs along rows of B and C. */
#define DEFINE_GEMM_FALLBACK(name, T)                                                       \
  static void                                                                               \
  name (gboolean ta, gboolean tb, int64_t m, int64_t n, int64_t k, T alpha, const T *a,     \
        int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc)                    \
  {                                                                                         \
    for (int64_t i = 0; i < m; i++)                                                         \
      {                                                                                     \
        T *crow = c + i * ldc;                                                              \
        for (int64_t j = 0; j < n; j++)                                                     \
          crow[j] = beta == 0 ? 0 : beta * crow[j];                                         \
        for (int64_t p = 0; p < k; p++)                                                     \
          {                                                                                 \
            T av = alpha * (ta ? a[p * lda + i] : a[i * lda + p]);                          \
            if (!tb)                                                                        \
              {                                                                             \
                const T *brow = b + p * ldb;                                                \
                for (int64_t j = 0; j < n; j++)                                             \
                  crow[j] += av * brow[j];                                                  \
              }                                                                             \
            else                                                                            \
              for (int64_t j = 0; j < n; j++)                                               \
                crow[j] += av * b[j * ldb + p];                                             \
          }                                                                                 \
      }                                                                                     \
  }

DEFINE_GEMM_FALLBACK (sgemm_fallback, float)
DEFINE_GEMM_FALLBACK (dgemm_fallback, double)

/* BLAS rejects leading dimensions below the row length even when a dimension is 0. */
#define FIX_LD(ld, cols) ((ld) < MAX ((cols), 1) ? MAX ((cols), 1) : (ld))

/* Products big enough to split over the pool (flops), and the narrowest slice of rows or
 * columns of C worth a task of its own. */
#define SPLIT_FLOPS 4e6
#define SPLIT_MIN 32

/* How a product is cut: `parts` slices of `block` rows (by_cols FALSE) or columns of C, a
 * few per thread so that a core busy elsewhere takes fewer. 0 parts: do not split. */
static int64_t
split_plan (int64_t m, int64_t n, double flops, gboolean *by_cols, int64_t *block)
{
  int threads = fx_blas_num_threads ();
  if (threads <= 1 || flops < SPLIT_FLOPS)
    return 0;
  *by_cols = n >= m;
  int64_t dim = *by_cols ? n : m;
  if (dim < 2 * SPLIT_MIN)
    return 0;
  int64_t want = dim >= 4 * SPLIT_MIN * threads ? 2 * threads : threads;
  *block = ((dim + want - 1) / want + 15) / 16 * 16;   /* whole vector widths */
  return (dim + *block - 1) / *block;
}

#define DEFINE_GEMM(name, T, fallback, blas_fn)                                             \
  static void                                                                               \
  name##_serial (gboolean ta, gboolean tb, int64_t m, int64_t n, int64_t k, T alpha,        \
                 const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c,            \
                 int64_t ldc)                                                               \
  {                                                                                         \
    if (fx_blas_init () && fits_blasint (m, n, k, lda, ldb, ldc))                           \
      blas.blas_fn (CBLAS_ROW_MAJOR, ta ? CBLAS_TRANS : CBLAS_NO_TRANS,                     \
                    tb ? CBLAS_TRANS : CBLAS_NO_TRANS, (blasint) m, (blasint) n,            \
                    (blasint) k, alpha, a, (blasint) lda, b, (blasint) ldb, beta, c,        \
                    (blasint) ldc);                                                         \
    else                                                                                    \
      fallback (ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                      \
  }                                                                                         \
                                                                                            \
  typedef struct {                                                                          \
    gboolean ta, tb, by_cols;                                                               \
    int64_t m, n, k, lda, ldb, ldc, block;                                                  \
    T alpha, beta;                                                                          \
    const T *a, *b;                                                                         \
    T *c;                                                                                   \
  } name##Job;                                                                              \
                                                                                            \
  static void                                                                               \
  name##_part (int64_t p0, int64_t p1, gpointer data)                                       \
  {                                                                                         \
    name##Job *j = data;                                                                    \
    int64_t dim = j->by_cols ? j->n : j->m;                                                 \
    int64_t i0 = p0 * j->block, i1 = MIN (p1 * j->block, dim);                              \
    if (j->by_cols)   /* columns [i0, i1) of B and C */                                     \
      name##_serial (j->ta, j->tb, j->m, i1 - i0, j->k, j->alpha, j->a, j->lda,             \
                     j->b + (j->tb ? i0 * j->ldb : i0), j->ldb, j->beta, j->c + i0,         \
                     j->ldc);                                                               \
    else              /* rows [i0, i1) of A and C */                                        \
      name##_serial (j->ta, j->tb, i1 - i0, j->n, j->k, j->alpha,                           \
                     j->a + (j->ta ? i0 : i0 * j->lda), j->lda, j->b, j->ldb, j->beta,      \
                     j->c + i0 * j->ldc, j->ldc);                                           \
  }                                                                                         \
                                                                                            \
  void                                                                                      \
  fx_##name (gboolean ta, gboolean tb, int64_t m, int64_t n, int64_t k, T alpha,            \
             const T *a, int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc)   \
  {                                                                                         \
    if (m <= 0 || n <= 0)                                                                   \
      return;                                                                               \
    lda = FIX_LD (lda, ta ? m : k);                                                         \
    ldb = FIX_LD (ldb, tb ? k : n);                                                         \
    ldc = FIX_LD (ldc, n);                                                                  \
    name##Job j = { ta, tb, FALSE, m, n, k, lda, ldb, ldc, 0, alpha, beta, a, b, c };       \
    int64_t parts = split_plan (m, n, 2.0 * m * n * k, &j.by_cols, &j.block);               \
    if (parts > 1)                                                                          \
      fx_parallel_for (parts, 1, name##_part, &j);                                          \
    else                                                                                    \
      name##_serial (ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                 \
  }

DEFINE_GEMM (sgemm, float, sgemm_fallback, sgemm)
DEFINE_GEMM (dgemm, double, dgemm_fallback, dgemm)

/* ---- fx_sgemm_stream: C = A·B without packing A (AVX-512) ----
 * A register tile is 8 rows × up to 48 columns or 6 rows × 64 columns of C (up to 24
 * accumulators of 16 floats); for each k it loads the vectors of B's row k and broadcasts
 * one element of each of the tile's rows of A. A tile of rows takes its block of B's columns
 * (up to 64) in panels of STREAM_KC rows (a k of up to 768 is one panel: a short second one
 * would load and store the C tile again for a few rows), one after the other, and the next
 * tile of rows the same block again, from L2 (256 KiB for a k of 1024). Panels of 128 rows
 * (32 KiB, in L1) ran as fast on warm data, but in a forward, on cold weights, a tile then
 * read A in runs of 512 bytes per row, which the prefetchers hardly follow, and loaded and
 * stored its C tile four times as often: ResNet-50's 14×14 1×1 and strided 3×3 layers ran
 * 10-15% slower, its forward 3%. A streams through once per block of columns, the tiles
 * prefetching its rows ahead (it comes from memory: a forward's weights are used once). When
 * one block holds all columns, the tiles of rows take B's panels in groups (stream_block);
 * when there are many, a block whose rows lie far apart is copied by the first tile that
 * takes it, for the others (StreamPack).
 * Columns past n are masked; but a product whose last vector would hold one to four columns
 * (one or two when it has at most 32: one full vector is slow, see stream_blocks) gets those
 * as dot products with A's rows instead, in the last block's tiles, rather than most of a
 * vector's multiplications spent on padding: ResNet's 7×7 images (49 columns) and 14×14 ones
 * (196: three blocks of 4 vectors and 4 dot products instead of blocks of 4, 4, 3 and 2
 * vectors, the last one a quarter full; 4-5% faster). A tile's last panel finishes its
 * outputs in registers (FxGemmEpilogue) before storing them. */

#define STREAM_MR 8   /* the most rows of a tile: 8 of up to 3 vectors, 6 of 4 */
#define STREAM_KC 512
#define STREAM_MAX_DOTS 4
#define STREAM_PREFETCH 64   /* floats: four lines */
#define STREAM_GROUP_BYTES (512 << 10)

void
fx_gemm_share_init (FxGemmShare *share, int64_t units)
{
  atomic_store (&share->ends, (guint64) units << 32);
}

gboolean
fx_gemm_share_pending (FxGemmShare *share)
{
  guint64 e = atomic_load (&share->ends);
  return (e & 0xffffffffu) < (e >> 32);
}

/* Items [front, back) of a list two ends take from, packed in *ends (front in the low 32
 * bits): takes one item, or (quarter) a quarter of what is left and at least one, from the
 * front or the back. Returns the first one taken and their *count, or -1 when none is left.
 * The thread pool's chunks and the shared products' units go this way. */
static int64_t
ends_claim (_Atomic guint64 *ends, gboolean from_back, gboolean quarter, int64_t *count)
{
  guint64 e = atomic_load (ends);
  for (;;)
    {
      guint64 front = e & 0xffffffffu, back = e >> 32;
      if (front >= back)
        return -1;
      guint64 c = quarter ? MAX ((back - front) / 4, 1) : 1;
      guint64 next = from_back ? ((back - c) << 32) | front : (back << 32) | (front + c);
      if (atomic_compare_exchange_weak (ends, &e, next))
        {
          *count = (int64_t) c;
          return (int64_t) (from_back ? back - c : front);
        }
    }
}

/* The next units of a shared product from side 0's end or side 1's: a quarter of what is
 * left, so few claims (each a cache line that moves between the cores), small ones at the
 * end where the two meet. */
static int64_t
share_claim (FxGemmShare *share, int side, int64_t *count)
{
  return ends_claim (&share->ends, side != 0, TRUE, count);
}

/* The epilogue of one tile: ep's per-row pointers moved to the tile's first row, residual to
 * its first row and column. */
typedef struct {
  FxGemmEpilogue rows;
  const float *residual_dots;   /* the residual of the dot-product columns, or NULL */
} TileEpilogue;

/* Whether ep has no step to do. */
static inline gboolean
epilogue_empty (const FxGemmEpilogue *ep)
{
  return !ep->bias && !ep->scale_shift && !ep->residual && !ep->relu;
}

/* FxGemmEpilogue's steps on one element of a row, scalar: bias and scale_shift point at the
 * row's entries (or are NULL), res at the element's residual (or is NULL). */
static inline float
epilogue_scalar (const float *bias, const float *scale_shift, gboolean relu, const float *res,
                 float v)
{
  if (bias)
    v = v + *bias;
  if (scale_shift)
    v = v * scale_shift[0] + scale_shift[1];
  if (res)
    v = v + *res;
  return relu && v < 0 ? 0.f : v;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* Only the last of a tile's nv vectors of columns may be partial (full: none is); its mask is
 * kept in a register, the others are plain loads and stores. */
#define STREAM_LOAD(full, nv, v, mask, p)                                                   \
  ((full) || (v) < (nv) - 1 ? _mm512_loadu_ps (p) : _mm512_maskz_loadu_ps ((mask), (p)))

/* Rows [i0, i0 + rows) of a tile against its nd dot-product columns over a panel's kc:
 * each pair's own sum of products 16 k at a time, reduced, then the k past the last 16 one by
 * one — as one pair at a time would — with the rows × columns sums in flight together
 * rather than one multiply-add chain waiting on itself. */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
stream_dots_rows (const int rows, const int nd, int i0, int64_t kc, const float *a, int64_t lda,
                  const float *dots, int64_t ld_dots, float *cd, int64_t ldc,
                  gboolean accumulate, const TileEpilogue *ep)
{
  __m512 s[STREAM_MR][STREAM_MAX_DOTS];
  for (int i = 0; i < rows; i++)
    for (int r = 0; r < nd; r++)
      s[i][r] = _mm512_setzero_ps ();
  int64_t k = 0;
  for (; k + 16 <= kc; k += 16)
    {
      __m512 dv[STREAM_MAX_DOTS];
      for (int r = 0; r < nd; r++)
        dv[r] = _mm512_loadu_ps (dots + r * ld_dots + k);
      for (int i = 0; i < rows; i++)
        {
          __m512 av = _mm512_loadu_ps (a + (i0 + i) * lda + k);
          for (int r = 0; r < nd; r++)
            s[i][r] = _mm512_fmadd_ps (av, dv[r], s[i][r]);
        }
    }
  for (int i = i0; i < i0 + rows; i++)
    for (int r = 0; r < nd; r++)
      {
        float t = _mm512_reduce_add_ps (s[i - i0][r]);
        for (int64_t q = k; q < kc; q++)
          t += a[i * lda + q] * dots[r * ld_dots + q];
        t = accumulate ? cd[i * ldc + r] + t : t;
        if (ep)
          t = epilogue_scalar (ep->rows.bias ? ep->rows.bias + i : NULL,
                               ep->rows.scale_shift ? ep->rows.scale_shift + 2 * i : NULL,
                               ep->rows.relu,
                               ep->residual_dots ? ep->residual_dots + i * ep->rows.ldr + r
                                                 : NULL,
                               t);
        cd[i * ldc + r] = t;
      }
}

/* The dot-product columns of a tile of mr rows: cd[i·ldc + r] (+)= A's row i · dots[r] over
 * this panel's k (then ep's steps on the last panel), as many rows at a time as leave their
 * sums in 24 registers. */
__attribute__ ((target ("avx512f"))) static void
stream_dots (int mr, int nd, int64_t kc, const float *a, int64_t lda, const float *dots,
             int64_t ld_dots, float *cd, int64_t ldc, gboolean accumulate,
             const TileEpilogue *ep)
{
  const int group = 24 / nd;
  for (int i0 = 0; i0 < mr; i0 += group)
    {
      int rows = MIN (group, mr - i0);
#define STREAM_DOTS_CASE(r, d)                                                              \
  case (r) * 8 + (d):                                                                       \
    stream_dots_rows ((r), (d), i0, kc, a, lda, dots, ld_dots, cd, ldc, accumulate, ep);    \
    break;
#define STREAM_DOTS_CASES(r)                                                                \
  STREAM_DOTS_CASE (r, 1) STREAM_DOTS_CASE (r, 2) STREAM_DOTS_CASE (r, 3) STREAM_DOTS_CASE (r, 4)
      switch (rows * 8 + nd)
        {
          STREAM_DOTS_CASES (1) STREAM_DOTS_CASES (2) STREAM_DOTS_CASES (3)
          STREAM_DOTS_CASES (4) STREAM_DOTS_CASES (5) STREAM_DOTS_CASES (6)
          STREAM_DOTS_CASE (7, 1) STREAM_DOTS_CASE (7, 2) STREAM_DOTS_CASE (7, 3)
          STREAM_DOTS_CASE (8, 1) STREAM_DOTS_CASE (8, 2) STREAM_DOTS_CASE (8, 3)
        default:
          g_assert_not_reached ();
        }
#undef STREAM_DOTS_CASES
#undef STREAM_DOTS_CASE
    }
}

__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
stream_tile (const int mr, const int nv, const gboolean full, int64_t kc, const float *a,
             int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc,
             const __mmask16 *masks, gboolean accumulate, const float *dots, int64_t ld_dots,
             int n_dots, float *cd, const TileEpilogue *ep, uintptr_t next_a, float *pack,
             gboolean fetch_c)
{
  __m512 acc[STREAM_MR][4];
  const __mmask16 last = masks[nv - 1];
  for (int i = 0; i < mr; i++)
    for (int v = 0; v < nv; v++)
      acc[i][v] = accumulate ? STREAM_LOAD (full, nv, v, last, c + i * ldc + 16 * v)
                             : _mm512_setzero_ps ();
  /* One k: the nvs vectors of B's row at b_row against the broadcast elements of A's rows,
   * a_i being row i's (an expression of i). */
#define STREAM_FMAS(nvs, b_row, a_i, pack_row)                                              \
  do                                                                                        \
    {                                                                                       \
      __m512 bv[4];                                                                         \
      for (int v = 0; v < (nvs); v++)                                                       \
        {                                                                                   \
          bv[v] = STREAM_LOAD (full, (nvs), v, last, (b_row) + 16 * v);                     \
          if (pack)                                                                         \
            _mm512_store_ps ((pack_row) + 16 * v, bv[v]);                                   \
        }                                                                                   \
      for (int i = 0; i < mr; i++)                                                          \
        {                                                                                   \
          __m512 av = _mm512_set1_ps (a_i);                                                 \
          for (int v = 0; v < (nvs); v++)                                                   \
            acc[i][v] = _mm512_fmadd_ps (av, bv[v], acc[i][v]);                             \
        }                                                                                   \
    }                                                                                       \
  while (0)
#define STREAM_STEP(k) STREAM_FMAS (nv, b + (k) * ldb, a[i * lda + (k)], pack + (k) * 64)
  /* A's rows come from memory (weights used once per forward): every other k, one line
   * STREAM_PREFETCH floats ahead in one of the rows, in turn, then into the tile that comes
   * next; the hardware's prefetchers left a third of the time of a product of cold weights
   * waiting for them. */
#define STREAM_PREFETCH_A(k, row_offset)                                                    \
  do                                                                                        \
    {                                                                                       \
      int64_t ahead_ = (k) + STREAM_PREFETCH, at_ = (row_offset) + ahead_;                  \
      _mm_prefetch ((const char *) (ahead_ < kc ? (uintptr_t) (a + at_)                     \
                                                : next_a + (uintptr_t) (at_ - kc)           \
                                                             * sizeof (float)),             \
                    _MM_HINT_T0);                                                           \
    }                                                                                       \
  while (0)
  int64_t k = 0;
  /* C's lines, which the tile will store, on their way while it multiplies, when C is
   * large (fetch_c: several blocks of columns): ResNet-50's 1×1 layers of 56×56 that expand
   * 64 channels to 256 (a short k, a tile's 24 lines of C written every 64 k) ran 5-10%
   * faster in a forward, products of 784 columns 6-9% faster alone; products of one block
   * (49 columns), whose C is small, gained nothing */
  if (!accumulate && fetch_c)
    for (int i = 0; i < mr; i++)
      for (int v = 0; v < nv; v++)
        _mm_prefetch ((const char *) (c + i * ldc + 16 * v), _MM_HINT_T0);
  if (ep && ep->rows.residual)
    {
      /* the residual comes from an earlier layer, out of cache: its lines for this tile's
       * stores, two per pair of k at the start, ready when the sums are */
      const int lines = mr * nv;
      for (; k + 1 < kc && k < lines; k += 2)
        {
          for (int q = (int) k; q < (int) k + 2 && q < lines; q++)
            _mm_prefetch ((const char *) (ep->rows.residual + (q / nv) * ep->rows.ldr
                                          + 16 * (q % nv)),
                          _MM_HINT_T0);
          STREAM_PREFETCH_A (k, (k >> 1) % mr * lda);
          STREAM_STEP (k);
          STREAM_STEP (k + 1);
        }
    }
  if (nv == 4)
    {
      /* Two k at a time, the bookkeeping (the prefetch's row in turn, the counter) once per
       * pair, A's rows addressed from two pointers (rows 0-2 and 3-5) and its stride: on a
       * core that issues 4 instructions a cycle (Skylake-SP), a 6×4 tile's 24 multiply-adds,
       * 10 loads and broadcasts, GCC's six row pointers (kept on the stack) and that
       * bookkeeping for every k left the FMA units idle a quarter of the time. */
      const float *p0 = a + k, *p3 = a + 3 * lda + k, *bk = b + k * ldb;
      float *pk = pack ? pack + k * 64 : NULL;
      int pf_row = (int) ((k >> 1) % mr);
      int64_t pf_off = pf_row * lda;
#define STREAM_PAIR_STEP(d)                                                                 \
  STREAM_FMAS (4, bk + (d) * ldb, i < 3 ? p0[i * lda + (d)] : p3[(i - 3) * lda + (d)],      \
               pk + (d) * 64)
#define STREAM_PAIR(prefetch_at)                                                            \
  do                                                                                        \
    {                                                                                       \
      _mm_prefetch ((const char *) (prefetch_at), _MM_HINT_T0);                             \
      pf_off += lda;                                                                        \
      if (++pf_row == mr)                                                                   \
        {                                                                                   \
          pf_row = 0;                                                                       \
          pf_off = 0;                                                                       \
        }                                                                                   \
      STREAM_PAIR_STEP (0);                                                                 \
      STREAM_PAIR_STEP (1);                                                                 \
      p0 += 2;                                                                              \
      p3 += 2;                                                                              \
      bk += 2 * ldb;                                                                        \
      if (pack)                                                                             \
        pk += 128;                                                                          \
      k += 2;                                                                               \
    }                                                                                       \
  while (0)
      /* the lines ahead in this tile's rows, then those of the tile after it */
      const float *pf_base = a + STREAM_PREFETCH;
      for (const int64_t k_in_a = kc - STREAM_PREFETCH; k < k_in_a;)
        STREAM_PAIR (pf_base + pf_off + k);
      pf_base = (const float *) (next_a + (STREAM_PREFETCH - kc) * (int64_t) sizeof (float));
      for (const int64_t k_pairs = kc - 1; k < k_pairs;)
        STREAM_PAIR (pf_base + pf_off + k);
#undef STREAM_PAIR
#undef STREAM_PAIR_STEP
    }
  /* The narrower tiles (8 rows) one k at a time, and a 6×4 tile's last k when kc is odd:
   * with two k in flight, GCC ran out of registers for 8 rows and they ran 25% slower. */
  for (; k < kc; k++)
    {
      if ((k & 1) == 0)
        STREAM_PREFETCH_A (k, (k >> 1) % mr * lda);
      STREAM_STEP (k);
    }
#undef STREAM_PREFETCH_A
#undef STREAM_STEP
#undef STREAM_FMAS
  /* the stores, each finished by fx_gemm_epilogue_vec (as FxGemmEpilogue orders it). Fully
   * unrolled, and acc only read: otherwise GCC kept the accumulators in memory, stored on
   * every k of the loop above (the tiles with a partial vector ran 25% slower). */
#pragma GCC unroll 8
  for (int i = 0; i < mr; i++)
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++)
      {
        __m512 x = acc[i][v];
        if (ep)
          x = fx_gemm_epilogue_vec (&ep->rows, i, 16 * v,
                                    full || v < nv - 1 ? (__mmask16) 0xffff : last, x);
        if (full || v < nv - 1)
          _mm512_storeu_ps (c + i * ldc + 16 * v, x);
        else
          _mm512_mask_storeu_ps (c + i * ldc + 16 * v, last, x);
      }
  if (n_dots > 0)
    stream_dots (mr, n_dots, kc, a, lda, dots, ld_dots, cd, ldc, accumulate, ep);
}

/* One product as fx_sgemm_stream runs it: B's last columns taken out as dot products (n is
 * then without them), panels of about STREAM_KC rows of B (up to 1.5 times that rather than a
 * short extra one). */
typedef struct {
  int64_t m, n, k, lda, ldb, ldc;
  const float *a, *b;
  float *c;
  const FxGemmEpilogue *ep;
  int n_dots;
  float *dots;                 /* [n_dots][k], or NULL */
  int64_t kc_step, panels;
} StreamProduct;

/* A block of up to 4 vectors of C's columns from n0, and how its tiles of rows go. */
typedef struct {
  int64_t index;               /* of the product's blocks, from its first columns */
  int64_t n0, nd0;             /* nd0: from n0 to the dot-product columns (last block) */
  int nv, mr_full, full, n_dots;
  __mmask16 masks[4];
  int64_t m_tiles;
  /* rows_outer: this block is all of C's columns (few: ResNet's 7×7 images), and each tile
   * of rows takes a group of panels in turn (see stream_block) */
  gboolean rows_outer;
  int64_t group;
  /* packs: the block's tiles read B from a copy with rows of 64 floats (StreamPack) */
  gboolean packs;
} StreamBlock;

/* A thread's copy of one block of B (up to STREAM_PACK_K rows of 64 floats), made by the
 * first of the block's tiles that the thread runs, as it loads B, for the others to read.
 * B's rows are often far apart (a 1×1 convolution's input: a whole image, 12 KiB at
 * 56×56), and its block then came from memory in 256 runs of four lines, which the
 * hardware's prefetchers do not follow, and from L2 in runs 12 KiB apart, which the L1
 * prefetchers do not follow either (strides of up to 2 KiB). So each tile of a block also
 * fetches a share of the next block's rows into L2, and the later tiles read the copy. On
 * ResNet-50's shapes (one thread, B just written, with and without alternating in one process)
 * 64×3136×256 took 24% less time, 256×3136×64 17%, 128×784×512 13%; B laid out by blocks
 * would gain 5-10% more. A k of several panels is copied panel by panel, as the first tile
 * runs them: 256×196×1024 and 512×196×1024 (ResNet-50's 14×14 stage) took 10% less time,
 * 256×192×768 11%; up to a k of 2048 (512 KiB, half of L2), 256×196×2048 13% and rows 1 or
 * 4 KiB apart (16×16 and 32×32 images: B's rows then fall in a quarter or less of L2's
 * sets) 2.4 times less: 256×256×2048 and 256×1024×2048 (one process, alternating builds). */
#define STREAM_PACK_K 2048
typedef struct {
  float *buf;       /* STREAM_PACK_K × 64 floats, this thread's */
  int64_t block;    /* the block in buf, or -1 */
  int64_t rows;     /* how many of its rows (whole panels) */
  int64_t step;     /* +1 or -1: the way this side walks through the blocks */
} StreamPack;

/* How many of n columns (over k rows) go as dot products (see above). */
static int
stream_dots_for (int64_t n, int64_t k)
{
  /* several blocks over a k too long for StreamPack's copy (a strided 3×3 layer's 2304 at
   * 14×14 in one product) wait on A from L3 more than they compute, and a partial vector
   * costs nearly nothing there: the dot products cost 6-9% more than it (256×196×2304,
   * 128×196×2304). Up to that k they gain: 256×196×1152 (ResNet-50's layer3.0.conv2, each
   * half of its input channels), 256×196×1536, 256×196×2048 and 512×196×1152 took 14-16%
   * less time than with blocks of 4, 4, 3 and 2 vectors (one thread, alternating builds). */
  if (n > 64 && k > STREAM_PACK_K)
    return 0;
  int most = n > 32 ? STREAM_MAX_DOTS : 2;
  return n > 16 && n % 16 >= 1 && n % 16 <= most ? (int) (n % 16) : 0;
}

/* The product's blocks of columns: 4 vectors each, the last one's partial; but when 5 are
 * left they go as 3 + 2: a block of one vector is bound by its broadcasts of A (8 per 8
 * multiply-adds) and ran at two thirds of the speed of the others, an eighth of the time of
 * a 196-column product (14×14 images). stream_block_start (sp, b) is block b's first
 * column (for b = the number of blocks: n). */
static int64_t
stream_blocks (const StreamProduct *sp)
{
  int64_t vectors = (sp->n + 15) / 16;
  return vectors % 4 == 1 && vectors >= 5 ? vectors / 4 + 1 : (vectors + 3) / 4;
}

static int64_t
stream_block_start (const StreamProduct *sp, int64_t b)
{
  int64_t vectors = (sp->n + 15) / 16, fours = vectors / 4;
  if (vectors % 4 == 1 && vectors >= 5 && b == fours)
    return 64 * (fours - 1) + 48;   /* the block of 2 after the block of 3 */
  return MIN (64 * b, sp->n);
}

/* Block b. When it is all of C's columns, the tiles of rows take B's panels in groups, so
 * that A, read once, streams row by row (8 KiB runs that the prefetchers follow, where a
 * panel's cuts of 512 bytes from every row came from memory 8% slower) while the group's B,
 * at most 64 columns, waits in L2. A group is at most STREAM_GROUP_BYTES of B: with all
 * panels in one (a 3×3 convolution of 512 channels at 7×7: 1.2 MB of columns), every tile
 * of rows read them again from L3, and the product ran at two thirds of the speed of a 1×1
 * one. */
static void
stream_block (const StreamProduct *sp, int64_t b, StreamBlock *blk)
{
  int64_t n0 = stream_block_start (sp, b);
  blk->index = b;
  blk->n0 = n0;
  blk->nv = (int) ((stream_block_start (sp, b + 1) - n0 + 15) / 16);
  for (int v = 0; v < 4; v++)
    {
      int64_t left = sp->n - n0 - 16 * v;
      blk->masks[v] = left >= 16 ? (__mmask16) 0xffff
                      : left <= 0 ? (__mmask16) 0 : (__mmask16) ((1u << left) - 1);
    }
  blk->mr_full = FX_TILE_ROWS (blk->nv);
  blk->full = blk->masks[blk->nv - 1] == (__mmask16) 0xffff;
  /* the dot-product columns ride along with the last block */
  blk->nd0 = sp->n - n0;
  blk->n_dots = b == stream_blocks (sp) - 1 ? sp->n_dots : 0;
  blk->m_tiles = (sp->m + blk->mr_full - 1) / blk->mr_full;
  blk->rows_outer = n0 == 0 && sp->n <= 16 * blk->nv;
  blk->group = 1;
  /* worth a copy: rows far apart, read by three tiles or more */
  blk->packs = blk->nv == 4 && blk->full && !blk->rows_outer && blk->m_tiles >= 3
               && sp->k <= STREAM_PACK_K && sp->ldb > 64;
  if (blk->rows_outer)
    {
      int64_t most = MAX ((int64_t) 1, STREAM_GROUP_BYTES
                                         / (sp->kc_step * 16 * blk->nv * (int64_t) sizeof (float)));
      int64_t n_groups = (sp->panels + most - 1) / most;
      blk->group = (sp->panels + n_groups - 1) / n_groups;
    }
}

#define STREAM_TILE_CASE(mr, nv, full)                                                      \
  case FX_TILE_ID (mr, nv) * 2 + (full):                                                    \
    stream_tile ((mr), (nv), (full), kc, ap, sp->lda, bp, ldb, cp, sp->ldc, blk->masks,     \
                 k0 > 0, dp, sp->k, blk->n_dots, cp + blk->nd0, tile_ep, next_a, NULL,      \
                 !blk->rows_outer);                                                         \
    break;
/* each tile with and without a partial last vector */
#define STREAM_TILE_CASES(mr, nv) STREAM_TILE_CASE (mr, nv, 0) STREAM_TILE_CASE (mr, nv, 1)

/* The next block's B (this side's next, as it walks: up (step 1) or down), from memory into
 * L2, a share of its rows with each tile of block blk. Out of line, as is the tile that
 * copies B (below): inlined into sgemm_stream_avx512 with the other tiles, they left GCC
 * short of registers there, and its 8-row tiles then reloaded a row pointer and ldb on
 * every k (16-23% slower on ResNet's 7×7 images). */
static __attribute__ ((noinline)) void
stream_prefetch_next_block (const StreamProduct *sp, const StreamBlock *blk, int64_t mt,
                            int64_t step)
{
  int64_t next_n0 = blk->n0 + 64 * step;
  if (next_n0 < 0 || next_n0 + 64 > sp->n)
    return;
  int64_t r0 = mt * sp->k / blk->m_tiles, r1 = (mt + 1) * sp->k / blk->m_tiles;
  const char *row = (const char *) (sp->b + r0 * sp->ldb + next_n0);
  for (int64_t r = r0; r < r1; r++, row += sp->ldb * (int64_t) sizeof (float))
    for (int line = 0; line < 4; line++)
      _mm_prefetch (row + 64 * line, _MM_HINT_T1);
}

/* A full 4-vector block's tile of mr rows (1 to 6), one panel of it, B's rows ldb_ apart,
 * copying them to pack_ (or NULL) as it goes: the body of the two functions below. */
#define STREAM_FULL4_CASE(r, ldb_, pack_)                                                   \
  case (r):                                                                                 \
    stream_tile ((r), 4, TRUE, kc, ap, sp->lda, bp, (ldb_), cp, sp->ldc, blk->masks,        \
                 accumulate, dp, sp->k, blk->n_dots, cp + blk->nd0, tile_ep, next_a, (pack_), \
                 TRUE);                                                                     \
    break;
#define STREAM_FULL4_SWITCH(ldb_, pack_)                                                    \
  switch (mr)                                                                               \
    {                                                                                       \
      STREAM_FULL4_CASE (1, ldb_, pack_) STREAM_FULL4_CASE (2, ldb_, pack_)                 \
      STREAM_FULL4_CASE (3, ldb_, pack_) STREAM_FULL4_CASE (4, ldb_, pack_)                 \
      STREAM_FULL4_CASE (5, ldb_, pack_) STREAM_FULL4_CASE (6, ldb_, pack_)                 \
    default:                                                                                \
      g_assert_not_reached ();                                                              \
    }

/* A tile of mr rows of a full 4-vector block, one panel of it, that copies that panel of B's
 * block to pack_to as it goes (StreamPack). */
__attribute__ ((target ("avx512f"))) static __attribute__ ((noinline)) void
stream_run_pack_tile (const StreamProduct *sp, const StreamBlock *blk, int mr, int64_t kc,
                      const float *ap, const float *bp, int64_t ldb, float *cp, const float *dp,
                      const TileEpilogue *tile_ep, uintptr_t next_a, float *pack_to,
                      gboolean accumulate)
{
  STREAM_FULL4_SWITCH (ldb, pack_to)
}

/* A tile of mr rows of a full 4-vector block, one panel of it, that reads B's panel from
 * the copy that StreamPack holds: rows 64 floats apart, a constant. With B's row stride in
 * a register instead, GCC ran out of them in the 6×4 tile's loop of two k (reloading B's
 * offsets from the stack: five loads every two k, on top of the 20 the tile needs), and
 * products read from the copy ran 3-7% slower (264×196×256, 256×196×1024, 1024×196×256,
 * 128×784×512; one thread). */
__attribute__ ((target ("avx512f"))) static __attribute__ ((noinline)) void
stream_run_packed_tile (const StreamProduct *sp, const StreamBlock *blk, int mr, int64_t kc,
                        const float *ap, const float *bp, float *cp, const float *dp,
                        const TileEpilogue *tile_ep, uintptr_t next_a, gboolean accumulate)
{
  STREAM_FULL4_SWITCH (64, NULL)
}
#undef STREAM_FULL4_SWITCH
#undef STREAM_FULL4_CASE

/* Tile of rows mt of block blk, panel p; next_a: where A's block of the tile after it
 * starts, for prefetching (an integer: past A's end after the last tile, where prefetching
 * does no harm). */
__attribute__ ((target ("avx512f"))) static inline __attribute__ ((always_inline)) void
stream_run_tile (const StreamProduct *sp, const StreamBlock *blk, int64_t mt, int64_t p,
                 uintptr_t next_a, StreamPack *pack)
{
  const FxGemmEpilogue *ep = sp->ep;
  int64_t m0 = mt * blk->mr_full, k0 = p * sp->kc_step, n0 = blk->n0;
  int64_t kc = MIN (sp->kc_step, sp->k - k0), ldb = sp->ldb;
  const float *bp = sp->b + k0 * sp->ldb + n0, *dp = sp->dots ? sp->dots + k0 : NULL;
  float *pack_to = NULL;
  gboolean packed = FALSE;   /* bp: the copy */
  if (blk->packs)
    {
      if (p == 0)
        stream_prefetch_next_block (sp, blk, mt, pack->step);
      if (pack->block == blk->index && k0 < pack->rows)
        {
          bp = pack->buf + k0 * 64;
          ldb = 64;
          packed = TRUE;
        }
      else if (pack->block == blk->index ? k0 == pack->rows : p == 0)
        {
          pack_to = pack->buf + k0 * 64;
          pack->block = blk->index;
          pack->rows = k0 + kc;
        }
    }
  const float *ap = sp->a + m0 * sp->lda + k0;
  float *cp = sp->c + m0 * sp->ldc + n0;
  /* the epilogue rides along with a tile's last panel */
  TileEpilogue tile_ep_at;
  const TileEpilogue *tile_ep = NULL;
  if (ep && k0 + kc == sp->k)
    {
      tile_ep_at = (TileEpilogue) {
        { ep->bias ? ep->bias + m0 : NULL, ep->scale_shift ? ep->scale_shift + 2 * m0 : NULL,
          ep->residual ? ep->residual + m0 * ep->ldr + n0 : NULL, ep->ldr, ep->relu },
        ep->residual ? ep->residual + m0 * ep->ldr + n0 + blk->nd0 : NULL };
      tile_ep = &tile_ep_at;
    }
  int mr = (int) MIN ((int64_t) blk->mr_full, sp->m - m0);
  if (pack_to)
    stream_run_pack_tile (sp, blk, mr, kc, ap, bp, ldb, cp, dp, tile_ep, next_a, pack_to,
                          k0 > 0);
  else if (packed)
    stream_run_packed_tile (sp, blk, mr, kc, ap, bp, cp, dp, tile_ep, next_a, k0 > 0);
  else
    switch (FX_TILE_ID (mr, blk->nv) * 2 + blk->full)
      {
      FX_TILE_CASES (STREAM_TILE_CASES)
      default:
        g_assert_not_reached ();
      }
}

/* Where A's block for tile mt, panel p starts (integer, see stream_run_tile). */
static inline uintptr_t
stream_a_at (const StreamProduct *sp, const StreamBlock *blk, int64_t mt, int64_t p)
{
  return (uintptr_t) sp->a
         + (uintptr_t) (mt * blk->mr_full * sp->lda + p * sp->kc_step) * sizeof (float);
}

/* sp's panels of B: about STREAM_KC rows each (up to 1.5 times that rather than a short
 * extra one). */
static void
stream_panels (StreamProduct *sp)
{
  int64_t n_panels = MAX ((int64_t) 1, (sp->k + STREAM_KC / 2) / STREAM_KC);
  sp->kc_step = (sp->k + n_panels - 1) / n_panels;
  sp->panels = (sp->k + sp->kc_step - 1) / sp->kc_step;
}

static void
stream_product_init (StreamProduct *sp, int64_t m, int64_t n, int64_t k, const float *a,
                     int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc,
                     const FxGemmEpilogue *ep)
{
  *sp = (StreamProduct) { m, n, k, lda, ldb, ldc, a, b, c, ep, 0, NULL, 0, 0 };
  sp->n_dots = stream_dots_for (n, k);
  if (sp->n_dots > 0)
    {
      /* B's last columns, gathered contiguous for the dot products */
      sp->n -= sp->n_dots;
      sp->dots = g_new (float, sp->n_dots * k);
      for (int r = 0; r < sp->n_dots; r++)
        for (int64_t q = 0; q < k; q++)
          sp->dots[r * k + q] = b[q * ldb + sp->n + r];
    }
  stream_panels (sp);
}

/* ---- two threads on one product (fx_sgemm_stream_shared) ----
 * The product's units, in order: for each block of columns, its tiles of rows (with all
 * panels), STREAM_SHARE_TILES at a time when the block goes rows-outer (each unit takes its
 * group of panels through its tiles, so that B's group is reused). */
#define STREAM_SHARE_TILES 4

static int64_t
stream_block_units (const StreamBlock *blk)
{
  return blk->rows_outer ? (blk->m_tiles + STREAM_SHARE_TILES - 1) / STREAM_SHARE_TILES
                         : blk->m_tiles;
}

static int64_t
stream_units (int64_t m, int64_t n, int64_t k)
{
  StreamProduct sp = { m, n - stream_dots_for (n, k), k };
  stream_panels (&sp);
  StreamBlock blk;
  int64_t units = 0;
  for (int64_t b = 0; b < stream_blocks (&sp); b++)
    {
      stream_block (&sp, b, &blk);
      units += stream_block_units (&blk);
    }
  return units;
}

/* This thread's StreamPack buffer. */
static GPrivate pack_key = G_PRIVATE_INIT (g_aligned_free);
static GPrivate pack_size_key = G_PRIVATE_INIT (NULL);

static float *
pack_buffer (void)
{
  return fx_thread_buffer (&pack_key, &pack_size_key, STREAM_PACK_K * 64 * sizeof (float));
}

__attribute__ ((target ("avx512f"))) static void
sgemm_stream_avx512 (const StreamProduct *sp, FxGemmShare *share, int side)
{
  StreamBlock blk;
  int64_t blk_first = -1, blk_units = 0;   /* the block in blk: its units' range */
  StreamPack pack = { pack_buffer (), -1, 0, side ? -1 : 1 };
  int64_t claimed = 0, count = 0;
  for (int64_t done = 0;; done++)
    {
      if (done == count)
        {
          claimed = share_claim (share, side, &count);
          if (claimed < 0)
            break;
          done = 0;
        }
      /* side 1 goes down its range */
      int64_t u = side ? claimed + count - 1 - done : claimed + done;
      /* the block holding unit u: each side's claims go one way (side 0 up, side 1 down),
       * so after the first walk up from block 0, a step or a few from the block before */
      if (blk_first < 0)
        {
          stream_block (sp, 0, &blk);
          blk_first = 0;
          blk_units = stream_block_units (&blk);
        }
      while (u >= blk_first + blk_units)
        {
          blk_first += blk_units;
          stream_block (sp, blk.index + 1, &blk);
          blk_units = stream_block_units (&blk);
        }
      while (u < blk_first)
        {
          stream_block (sp, blk.index - 1, &blk);
          blk_units = stream_block_units (&blk);
          blk_first -= blk_units;
        }
      int64_t i = u - blk_first, panels = sp->panels;
      int64_t mt0 = blk.rows_outer ? i * STREAM_SHARE_TILES : i;
      int64_t mt1 = blk.rows_outer ? MIN (mt0 + STREAM_SHARE_TILES, blk.m_tiles) : mt0 + 1;
      int64_t group = blk.rows_outer ? blk.group : panels;
      for (int64_t p0 = 0; p0 < panels; p0 += group)
        for (int64_t mt = mt0; mt < mt1; mt++)
          for (int64_t p = p0, p1 = MIN (p0 + group, panels); p < p1; p++)
            {
              /* the next tile of this unit, or this side's next unit's first rows */
              int64_t next_mt = mt, next_p = p + 1;
              if (next_p >= p1)
                {
                  next_mt = mt + 1 < mt1 ? mt + 1 : side ? mt0 - 1 : mt1;
                  next_p = mt + 1 < mt1 ? p0 : 0;
                }
              stream_run_tile (sp, &blk, mt, p,
                               stream_a_at (sp, &blk, MAX (next_mt, (int64_t) 0), next_p),
                               &pack);
            }
    }
}
#endif

gboolean
fx_cpu_has_avx512 (void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  static atomic_int has = -1;   /* racing threads store the same answer */
  int v = atomic_load (&has);
  if (v < 0)
    {
      __builtin_cpu_init ();
      v = __builtin_cpu_supports ("avx512f") ? 1 : 0;
      atomic_store (&has, v);
    }
  return v == 1;
#else
  return FALSE;
#endif
}

gboolean
fx_sgemm_stream_native (void)
{
  return fx_cpu_has_avx512 ();
}

int64_t
fx_sgemm_stream_units (int64_t m, int64_t n, int64_t k)
{
#if defined(__x86_64__) && defined(__GNUC__)
  if (m > 0 && n > 0 && k > 0 && fx_cpu_has_avx512 ())
    return stream_units (m, n, k);
#endif
  return 1;
}

void
fx_sgemm_stream (int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b,
                 int64_t ldb, float *c, int64_t ldc, const FxGemmEpilogue *ep)
{
  fx_sgemm_stream_shared (m, n, k, a, lda, b, ldb, c, ldc, ep, NULL, 0);
}

void
fx_sgemm_stream_shared (int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc,
                        const FxGemmEpilogue *ep, FxGemmShare *share, int side)
{
  if (m <= 0 || n <= 0)
    return;
  if (ep && epilogue_empty (ep))
    ep = NULL;
#if defined(__x86_64__) && defined(__GNUC__)
  if (k > 0 && fx_cpu_has_avx512 ())
    {
      StreamProduct sp;
      stream_product_init (&sp, m, n, k, a, lda, b, ldb, c, ldc, ep);
      /* alone: all units, from the front */
      FxGemmShare own;
      if (share == NULL)
        {
          fx_gemm_share_init (&own, stream_units (m, n, k));
          share = &own;
          side = 0;
        }
      sgemm_stream_avx512 (&sp, share, side);
      g_free (sp.dots);
      return;
    }
#endif
  /* without the kernel: the first side to come does it all */
  int64_t count;
  if (share && share_claim (share, side, &count) < 0)
    return;
  fx_sgemm (FALSE, FALSE, m, n, k, 1.f, a, lda, b, ldb, 0.f, c, ldc);
  if (ep)
    fx_gemm_epilogue_rows (ep, c, ldc, m, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* fx_gemm_epilogue_rows sixteen lanes at a time, through fx_gemm_epilogue_vec (relu's
 * `v < 0 ? 0 : v` as a mask) — the same results, lane for lane, as epilogue_scalar's. */
__attribute__ ((target ("avx512f"))) static void
epilogue_rows_avx512 (const FxGemmEpilogue *ep, float *c, int64_t ldc, int64_t m, int64_t n)
{
  for (int64_t i = 0; i < m; i++)
    {
      float *row = c + i * ldc;
      for (int64_t x = 0; x < n; x += 16)
        {
          __mmask16 k = n - x >= 16 ? 0xffff : (__mmask16) ((1u << (n - x)) - 1);
          _mm512_mask_storeu_ps (row + x, k,
                                 fx_gemm_epilogue_vec (ep, i, x, k,
                                                       _mm512_maskz_loadu_ps (k, row + x)));
        }
    }
}
#endif

void
fx_gemm_epilogue_rows (const FxGemmEpilogue *ep, float *c, int64_t ldc, int64_t m, int64_t n)
{
  if (epilogue_empty (ep))
    return;
#if defined(__x86_64__) && defined(__GNUC__)
  if (fx_cpu_has_avx512 ())
    {
      epilogue_rows_avx512 (ep, c, ldc, m, n);
      return;
    }
#endif
  for (int64_t i = 0; i < m; i++)
    {
      const float *bias = ep->bias ? ep->bias + i : NULL;
      const float *scale_shift = ep->scale_shift ? ep->scale_shift + 2 * i : NULL;
      const float *res = ep->residual ? ep->residual + i * ep->ldr : NULL;
      for (int64_t x = 0; x < n; x++)
        c[i * ldc + x] = epilogue_scalar (bias, scale_shift, ep->relu, res ? res + x : NULL,
                                          c[i * ldc + x]);
    }
}

#define DEFINE_GEMV_FALLBACK(name, T)                                                       \
  static void                                                                               \
  name (gboolean trans, int64_t m, int64_t n, T alpha, const T *a, int64_t lda,             \
        const T *x, int64_t incx, T beta, T *y, int64_t incy)                               \
  {                                                                                         \
    int64_t ylen = trans ? n : m, xlen = trans ? m : n;                                     \
    for (int64_t i = 0; i < ylen; i++)                                                      \
      {                                                                                     \
        T acc = 0;                                                                          \
        for (int64_t p = 0; p < xlen; p++)                                                  \
          acc += (trans ? a[p * lda + i] : a[i * lda + p]) * x[p * incx];                   \
        y[i * incy] = alpha * acc + (beta == 0 ? 0 : beta * y[i * incy]);                   \
      }                                                                                     \
  }

DEFINE_GEMV_FALLBACK (sgemv_fallback, float)
DEFINE_GEMV_FALLBACK (dgemv_fallback, double)

/* y = beta*y, with beta == 0 writing zeros (BLAS may skip y when the product is empty). */
#define SCALE_Y(T, y, len, incy, beta)                  \
  for (int64_t i_ = 0; i_ < (len); i_++)                \
    (y)[i_ * (incy)] = (beta) == 0 ? 0 : (beta) * (y)[i_ * (incy)]

#define DEFINE_GEMV(name, T, fallback, blas_fn)                                             \
  static void                                                                               \
  name##_serial (gboolean trans, int64_t m, int64_t n, T alpha, const T *a, int64_t lda,    \
                 const T *x, int64_t incx, T beta, T *y, int64_t incy)                      \
  {                                                                                         \
    if (fx_blas_init () && fits_blasint (m, n, 1, lda, incx, incy))                         \
      blas.blas_fn (CBLAS_ROW_MAJOR, trans ? CBLAS_TRANS : CBLAS_NO_TRANS, (blasint) m,     \
                    (blasint) n, alpha, a, (blasint) lda, x, (blasint) incx, beta, y,       \
                    (blasint) incy);                                                        \
    else                                                                                    \
      fallback (trans, m, n, alpha, a, lda, x, incx, beta, y, incy);                        \
  }                                                                                         \
                                                                                            \
  typedef struct {                                                                          \
    gboolean trans;                                                                         \
    int64_t m, n, lda, incx, incy, block;                                                   \
    T alpha, beta;                                                                          \
    const T *a, *x;                                                                         \
    T *y;                                                                                   \
  } name##Job;                                                                              \
                                                                                            \
  /* entries [i0, i1) of y: rows of A, or columns when transposed */                        \
  static void                                                                               \
  name##_part (int64_t p0, int64_t p1, gpointer data)                                       \
  {                                                                                         \
    name##Job *j = data;                                                                    \
    int64_t i0 = p0 * j->block, i1 = MIN (p1 * j->block, j->trans ? j->n : j->m);           \
    if (j->trans)                                                                           \
      name##_serial (TRUE, j->m, i1 - i0, j->alpha, j->a + i0, j->lda, j->x, j->incx,       \
                     j->beta, j->y + i0 * j->incy, j->incy);                                \
    else                                                                                    \
      name##_serial (FALSE, i1 - i0, j->n, j->alpha, j->a + i0 * j->lda, j->lda, j->x,      \
                     j->incx, j->beta, j->y + i0 * j->incy, j->incy);                       \
  }                                                                                         \
                                                                                            \
  void                                                                                      \
  fx_##name (gboolean trans, int64_t m, int64_t n, T alpha, const T *a, int64_t lda,        \
             const T *x, int64_t incx, T beta, T *y, int64_t incy)                          \
  {                                                                                         \
    int64_t ylen = trans ? n : m, xlen = trans ? m : n;                                     \
    if (ylen <= 0)                                                                          \
      return;                                                                               \
    if (xlen <= 0)                                                                          \
      {                                                                                     \
        SCALE_Y (T, y, ylen, incy, beta);                                                   \
        return;                                                                             \
      }                                                                                     \
    lda = FIX_LD (lda, n);                                                                  \
    name##Job j = { trans, m, n, lda, incx, incy, 0, alpha, beta, a, x, y };                \
    gboolean by_cols;                                                                       \
    /* memory-bound: worth splitting at a quarter of a gemm's size */                       \
    int64_t parts = split_plan (ylen, 0, 8.0 * m * n, &by_cols, &j.block);                  \
    if (parts > 1)                                                                          \
      fx_parallel_for (parts, 1, name##_part, &j);                                          \
    else                                                                                    \
      name##_serial (trans, m, n, alpha, a, lda, x, incx, beta, y, incy);                   \
  }

DEFINE_GEMV (sgemv, float, sgemv_fallback, sgemv)
DEFINE_GEMV (dgemv, double, dgemv_fallback, dgemv)

/* ---- parallel loops ----
 * A persistent pool: starting threads per call would cost more than the pooling or im2col
 * loops it splits. Workers take chunks from an atomic counter; the caller works too.
 *
 * A job is open for joining while the generation is odd. A worker joins by counting itself
 * in `active` and then checking that the generation is still the one it saw; the caller,
 * once the chunks are all taken, closes the job and waits only for the workers that joined.
 * So a worker that is slow to wake (the other core busy with another process, a futex
 * wake-up in the VM) never holds the caller back: the caller does the chunks itself.
 * Both sides spin before sleeping, and the futex is touched only when someone sleeps: a
 * forward's layers come back to back, microseconds apart, and each wake-up in the VM costs
 * as much as a small layer's share of work; after POOL_SPIN_US without a job, workers sleep,
 * so an idle editor burns no core. */

#define POOL_SPIN_US 1000

#define POOL_MAX 64

static struct {
  GMutex busy;            /* held by the one caller running a job */
  GMutex lock;            /* only for sleeping and waking */
  GCond wake, done;
  int n_workers;
  _Atomic guint64 generation;   /* odd: a job is open for joining */
  _Atomic int sleepers;         /* workers asleep on `wake` */
  _Atomic int caller_asleep;    /* the caller sleeps on `done` */
  _Atomic int wanted;           /* workers asked to join the open job */
  /* the current job */
  FxParallelFunc fn;
  gpointer data;
  int64_t n, chunk;
  gboolean guided;        /* claims of a quarter of what is left (fx_parallel_for_each) */
  _Atomic guint64 ends;   /* unclaimed chunks: [low 32 bits, high 32 bits) */
  _Atomic int active;     /* workers on the job */
} pool;

/* The caller claims chunks from the front, the workers from the back. On two threads the
 * caller then does the first part of every loop and the worker the last, as far as the load
 * allows: one operation's output is mostly in the cache of the core that reads it in the
 * next (an elementwise add after a convolution split by output channels, the next
 * convolution's input transform), where chunks claimed in turn had each core read half of
 * its data from the other core's cache (adds measured slower on two threads than on one). */
static void
pool_run_chunks (FxParallelFunc fn, gpointer data, int64_t n, int64_t chunk,
                 gboolean from_back)
{
  for (;;)
    {
      int64_t count, c = ends_claim (&pool.ends, from_back, pool.guided, &count);
      if (c < 0)
        break;
      int64_t begin = c * chunk;
      fn (begin, MIN ((c + count) * chunk, n), data);
    }
}

/* One step of a bounded spin: pauses, and says whether `until` (monotonic µs) is still
 * ahead. The clock is read every 8 pauses only: a clock read costs more than the pause,
 * and spinning threads took ~4% of a forward pass in clock_gettime(). */
static inline gboolean
spin_on (gint64 until)
{
  for (int i = 0; i < 8; i++)
    fx_cpu_relax ();
  return g_get_monotonic_time () < until;
}

static inline gboolean
pool_job_for (guint64 gen, guint64 seen, int id)
{
  return (gen & 1) && gen != seen && id < atomic_load (&pool.wanted);
}

/* The generation of the next open job for worker `id`: spins a while, then sleeps. While
 * spinning it yields now and then, so that a thread sharing its core (the caller, when
 * another process holds the other core) gets the core back quickly. */
static guint64
pool_wait_job (int id, guint64 seen)
{
  gint64 until = g_get_monotonic_time () + POOL_SPIN_US;
  guint64 gen;
  for (int i = 1;; i++)
    {
      gen = atomic_load (&pool.generation);
      if (pool_job_for (gen, seen, id))
        return gen;
      if (!spin_on (until))
        break;
      if (i % 64 == 0)
        sched_yield ();
    }
  g_mutex_lock (&pool.lock);
  atomic_fetch_add (&pool.sleepers, 1);
  while (!pool_job_for (gen = atomic_load (&pool.generation), seen, id))
    g_cond_wait (&pool.wake, &pool.lock);
  atomic_fetch_sub (&pool.sleepers, 1);
  g_mutex_unlock (&pool.lock);
  return gen;
}

static gpointer
pool_worker (gpointer data)
{
  int id = GPOINTER_TO_INT (data);
  guint64 seen = 0;
  for (;;)
    {
      guint64 gen = pool_wait_job (id, seen);
      seen = gen;
      /* join, then check the job is still open: the caller closes it before it looks at
       * `active` (both sequentially consistent), so either it waits for this worker or
       * this worker sees the job closed and touches nothing of it */
      atomic_fetch_add (&pool.active, 1);
      if (atomic_load (&pool.generation) == gen)
        pool_run_chunks (pool.fn, pool.data, pool.n, pool.chunk, TRUE);
      if (atomic_fetch_sub (&pool.active, 1) == 1 && atomic_load (&pool.caller_asleep))
        {
          g_mutex_lock (&pool.lock);
          g_cond_signal (&pool.done);
          g_mutex_unlock (&pool.lock);
        }
    }
  return NULL;
}

guint64
fx_parallel_call_id (void)
{
  static atomic_uint_fast64_t last;
  return atomic_fetch_add (&last, 1) + 1;
}

typedef struct {
  guint64 call;
  int64_t what;
} ScratchTag;

gboolean
fx_scratch_holds (GPrivate *tag, guint64 call, int64_t what)
{
  ScratchTag *t = g_private_get (tag);
  if (t == NULL)
    {
      t = g_new0 (ScratchTag, 1);
      g_private_set (tag, t);
    }
  if (t->call == call && t->what == what)
    return TRUE;
  t->call = call;
  t->what = what;
  return FALSE;
}

void *
fx_thread_buffer (GPrivate *key, GPrivate *size_key, gsize bytes)
{
  void *buf = g_private_get (key);
  if (buf == NULL || GPOINTER_TO_SIZE (g_private_get (size_key)) < bytes)
    {
      buf = g_aligned_alloc (bytes, 1, 64);
      g_private_replace (key, buf);
      g_private_set (size_key, GSIZE_TO_POINTER (bytes));
    }
  return buf;
}

static void parallel_chunks (int64_t n, int64_t chunk, gboolean guided, int threads,
                             FxParallelFunc fn, gpointer data);

void
fx_parallel_for (int64_t n, int64_t min_chunk, FxParallelFunc fn, gpointer data)
{
  if (n <= 0)
    return;
  min_chunk = MAX (min_chunk, 1);
  int threads = MIN (fx_blas_num_threads (), POOL_MAX + 1);
  /* a few chunks per thread balance the load without much bookkeeping */
  int64_t chunk = MAX (min_chunk, (n + 4 * threads - 1) / (4 * (int64_t) threads));
  parallel_chunks (n, chunk, FALSE, threads, fn, data);
}

void
fx_parallel_for_each (int64_t n, FxParallelFunc fn, gpointer data)
{
  /* (items past 2^30 would not fit the pool's claims: chunks then) */
  if (n > 0)
    parallel_chunks (n, MAX ((int64_t) 1, (n + (1 << 30) - 1) >> 30), TRUE,
                     MIN (fx_blas_num_threads (), POOL_MAX + 1), fn, data);
}

/* fx_parallel_for's work: [0, n) in chunks of `chunk` items, claimed one at a time or
 * (guided) a quarter of those left at a time. */
static void
parallel_chunks (int64_t n, int64_t chunk, gboolean guided, int threads, FxParallelFunc fn,
                 gpointer data)
{
  int64_t n_chunks = (n + chunk - 1) / chunk;
  if (threads <= 1 || n_chunks <= 1 || !g_mutex_trylock (&pool.busy))
    {
      fn (0, n, data);
      return;
    }
  int helpers = (int) MIN ((int64_t) threads - 1, n_chunks - 1);

  if (pool.n_workers < helpers)
    {
      g_mutex_lock (&pool.lock);
      while (pool.n_workers < helpers)
        {
          GThread *t = g_thread_try_new ("fx-worker", pool_worker,
                                         GINT_TO_POINTER (pool.n_workers), NULL);
          if (t == NULL)
            break;
          g_thread_unref (t);
          pool.n_workers++;
        }
      g_mutex_unlock (&pool.lock);
    }
  pool.fn = fn;
  pool.data = data;
  pool.n = n;
  pool.chunk = chunk;
  pool.guided = guided;
  /* n_chunks: at most about 4 per thread, or the items of fx_parallel_for_each (a few
   * heavy ones): far below 2^32 */
  atomic_store (&pool.ends, (guint64) n_chunks << 32);
  atomic_store (&pool.wanted, MIN (helpers, pool.n_workers));
  atomic_fetch_add (&pool.generation, 1);   /* open */
  if (atomic_load (&pool.sleepers) > 0)
    {
      g_mutex_lock (&pool.lock);
      g_cond_broadcast (&pool.wake);
      g_mutex_unlock (&pool.lock);
    }

  pool_run_chunks (fn, data, n, chunk, FALSE);

  atomic_fetch_add (&pool.generation, 1);   /* closed: late workers back off */
  gint64 until = g_get_monotonic_time () + POOL_SPIN_US;
  while (atomic_load (&pool.active) > 0 && spin_on (until))
    ;
  if (atomic_load (&pool.active) > 0)
    {
      g_mutex_lock (&pool.lock);
      atomic_store (&pool.caller_asleep, 1);
      while (atomic_load (&pool.active) > 0)
        g_cond_wait (&pool.done, &pool.lock);
      atomic_store (&pool.caller_asleep, 0);
      g_mutex_unlock (&pool.lock);
    }
  g_mutex_unlock (&pool.busy);
}

void
fx_blas_enter_single_threaded (void)
{
  if (!fx_blas_init () || blas.set_num_threads == NULL)
    return;
  g_mutex_lock (&single.lock);
  single.depth++;   /* OpenBLAS is single-threaded anyway; see set_num_threads() */
  g_mutex_unlock (&single.lock);
}

void
fx_blas_leave_single_threaded (void)
{
  if (!fx_blas_init () || blas.set_num_threads == NULL)
    return;
  g_mutex_lock (&single.lock);
  single.depth--;
  g_mutex_unlock (&single.lock);
}
