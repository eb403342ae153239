/* bench-common.h: what the libfx benchmarks share — a monotonic clock, best-of-N timing, and
 * the machine's single-precision peak (FMA width × FMA units × clock × cores), measured
 * rather than trusted: in VMs /proc/cpuinfo's "cpu MHz" is often the nominal clock. */
#pragma once

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static inline double
bench_now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Runs `/usr/bin/python3 $FX_BENCH_DIR/script SIZE...` (the PyTorch side of a benchmark);
 * its stdout, one line per size, as a NULL-terminated array (g_strfreev), or NULL when
 * it cannot run or fails. */
static inline char **
bench_run_torch_script (const char *script, const guint *sizes, guint n_sizes)
{
  const char *dir = g_getenv ("FX_BENCH_DIR");
  char *path = g_build_filename (dir ? dir : "tests/bench", script, NULL);
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  char *out = NULL, **lines = NULL;
  int status = 0;

  g_ptr_array_add (argv, g_strdup ("/usr/bin/python3"));
  g_ptr_array_add (argv, path);
  for (guint i = 0; i < n_sizes; i++)
    g_ptr_array_add (argv, g_strdup_printf ("%u", sizes[i]));
  g_ptr_array_add (argv, NULL);
  if (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                    &out, NULL, &status, NULL) && status == 0)
    lines = g_strsplit (out, "\n", -1);
  g_free (out);
  g_ptr_array_unref (argv);
  return lines;
}

/* Best time of fn over repetitions lasting about min_seconds (at least min_reps runs). The
 * best, not the mean: the machine is shared, and interference only ever adds time. */
static inline double
bench_best (void (*fn) (gpointer), gpointer data, double min_seconds, int min_reps)
{
  for (int i = 0; i < 3; i++)   /* warm-up: BLAS load and threads, the allocator settling */
    fn (data);
  double best = INFINITY, start = bench_now ();
  for (int i = 0; i < min_reps || bench_now () - start < min_seconds; i++)
    {
      double t0 = bench_now ();
      fn (data);
      double t = bench_now () - t0;
      best = MIN (best, t);
      if (i > 10000)
        break;
    }
  return best;
}

/* CPU time of the calling thread: time stolen by other processes does not count, which keeps
 * the clock and FMA measurements below honest on a shared machine. */
static inline double
bench_thread_time (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static inline double
cpuinfo_mhz (void)
{
  char *text = NULL;
  double mhz = 0;
  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    return 0;
  const char *p = strstr (text, "cpu MHz");
  if (p && (p = strchr (p, ':')))
    mhz = g_ascii_strtod (p + 1, NULL);
  g_free (text);
  return mhz;
}

/* Clock in GHz from a chain of dependent integer adds (one per cycle on every x86 core since
 * the Pentium Pro). Best of several short runs, so that a busy neighbour does not lower it. */
static inline double
measured_ghz (void)
{
#if defined(__x86_64__)
  double best = 0;
  for (int r = 0; r < 7; r++)
    {
      long n = 40000000;
      double t0 = bench_thread_time ();
      __asm__ volatile ("mov %0, %%rcx\n\txor %%eax, %%eax\n"
                        "1:\n\t"
                        "add $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t"
                        "add $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t"
                        "dec %%rcx\n\tjnz 1b\n"
                        : : "r" (n / 8) : "rax", "rcx", "cc");
      best = MAX (best, n / (bench_thread_time () - t0) / 1e9);
    }
  return best;
#else
  return cpuinfo_mhz () / 1000.0;
#endif
}

/* float32 lanes of the widest FMA the CPU (and OS) offers: 16 (AVX-512), 8 (AVX2+FMA), 4. */
static inline int
fma_lanes (void)
{
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid (1, &a, &b, &c, &d) || !((c >> 27) & 1) || !((c >> 12) & 1))
    return 4;
  unsigned xlo, xhi;
  __asm__ volatile ("xgetbv" : "=a" (xlo), "=d" (xhi) : "c" (0));
  __cpuid_count (7, 0, a, b, c, d);
  if ((b >> 16) & 1 && (xlo & 0xe6) == 0xe6)
    return 16;
  if ((b >> 5) & 1 && (xlo & 0x6) == 0x6)
    return 8;
#endif
  return 4;
}

#if defined(__x86_64__)
/* GFLOPS of independent FMAs on one core — reveals how many FMA units there are. Twelve
 * named accumulators (an array would live in memory), kept apart by an empty asm so the
 * compiler cannot merge them. */
#define FMA_BENCH(name, isa, T, set1, fmadd, lanes)                                    \
  __attribute__ ((target (isa))) static inline double                                     \
  name (void)                                                                             \
  {                                                                                       \
    T b = set1 (0.999999f), c = set1 (1e-7f);                                             \
    T a0 = set1 (1), a1 = set1 (2), a2 = set1 (3), a3 = set1 (4), a4 = set1 (5);          \
    T a5 = set1 (6), a6 = set1 (7), a7 = set1 (8), a8 = set1 (9), a9 = set1 (10);         \
    T a10 = set1 (11), a11 = set1 (12);                                                   \
    long n = 4000000;                                                                     \
    double t0 = bench_thread_time ();                                                     \
    for (long i = 0; i < n; i++)                                                          \
      {                                                                                   \
        a0 = fmadd (a0, b, c); a1 = fmadd (a1, b, c); a2 = fmadd (a2, b, c);              \
        a3 = fmadd (a3, b, c); a4 = fmadd (a4, b, c); a5 = fmadd (a5, b, c);              \
        a6 = fmadd (a6, b, c); a7 = fmadd (a7, b, c); a8 = fmadd (a8, b, c);              \
        a9 = fmadd (a9, b, c); a10 = fmadd (a10, b, c); a11 = fmadd (a11, b, c);          \
        __asm__ volatile ("" : "+v" (a0), "+v" (a1), "+v" (a2), "+v" (a3), "+v" (a4),     \
                          "+v" (a5), "+v" (a6), "+v" (a7), "+v" (a8), "+v" (a9),          \
                          "+v" (a10), "+v" (a11));                                        \
      }                                                                                   \
    return 12.0 * 2 * lanes * n / (bench_thread_time () - t0) / 1e9;                     \
  }
FMA_BENCH (fma512_gflops, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, 16)
FMA_BENCH (fma256_gflops, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, 8)
#endif

typedef struct {
  int cores;
  int lanes;            /* float32 lanes per FMA */
  int fma_units;        /* per core, from the measured FMA rate */
  double cpuinfo_ghz;   /* /proc/cpuinfo "cpu MHz" */
  double ghz;           /* measured */
  double peak_cpuinfo;  /* GFLOPS for `cores` cores at the cpuinfo clock */
  double peak;          /* GFLOPS for `cores` cores at the measured clock */
} BenchPeak;

static inline BenchPeak
bench_peak (int cores)
{
  BenchPeak p = { cores, fma_lanes (), 1, cpuinfo_mhz () / 1000.0, 0, 0, 0 };
  double fma = 0;
#if defined(__x86_64__)
  for (int r = 0; r < 5; r++)   /* best of several: warms the clock up, shrugs off neighbours */
    fma = MAX (fma, p.lanes == 16 ? fma512_gflops () : p.lanes == 8 ? fma256_gflops () : 0);
#endif
  p.ghz = measured_ghz ();
  if (fma > 0 && p.ghz > 0)
    p.fma_units = MAX (1, (int) lround (fma / p.ghz / (2.0 * p.lanes)));
  p.peak = cores * p.fma_units * p.lanes * 2.0 * p.ghz;
  p.peak_cpuinfo = cores * p.fma_units * p.lanes * 2.0 * p.cpuinfo_ghz;
  return p;
}

static inline void
bench_print_peak (const BenchPeak *p)
{
  printf ("CPU: %d-bit FMA (%d float lanes) x %d unit%s/core; clock %.2f GHz measured "
          "(/proc/cpuinfo says %.2f GHz)\n", p->lanes * 32, p->lanes, p->fma_units,
          p->fma_units == 1 ? "" : "s", p->ghz, p->cpuinfo_ghz);
  printf ("sgemm peak, %d cores: %.0f GFLOPS at the measured clock (%.0f GFLOPS at the "
          "cpuinfo clock)\n", p->cores, p->peak, p->peak_cpuinfo);
}
