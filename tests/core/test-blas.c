#define _GNU_SOURCE   /* sched_setaffinity */
/* test-blas.c: OpenBLAS set-up (kernel chosen from the CPU's flags, thread counts and the
 * environment variables that steer them) and the gemm/gemv wrappers against plain loops. */
#include <fx.h>
#include <sched.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the CPU is, read independently of blas.c (from /proc/cpuinfo) ---- */

static gboolean
cpu_has_flags (const char *const *flags)
{
  char *text = NULL;
  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    return FALSE;
  gboolean all = FALSE;
  char **lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      if (!g_str_has_prefix (*l, "flags"))
        continue;
      char **words = g_strsplit_set (strchr (*l, ':') ? strchr (*l, ':') + 1 : *l, " \t", -1);
      all = TRUE;
      for (const char *const *f = flags; *f; f++)
        all = all && g_strv_contains ((const char *const *) words, *f);
      g_strfreev (words);
      break;
    }
  g_strfreev (lines);
  g_free (text);
  return all;
}

static const char *
expected_corename (void)
{
  static const char *const skx[] = { "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl",
                                     NULL };
  static const char *const hsw[] = { "avx2", "fma", NULL };
  if (cpu_has_flags (skx))
    return "SkylakeX";
  if (cpu_has_flags (hsw))
    return "Haswell";
  return NULL;
}

static int
expected_physical_cores (void)
{
  char *text = NULL;
  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    return 0;
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  char **lines = g_strsplit (text, "\n", -1);
  char *phys = g_strdup ("0");
  for (char **l = lines; *l; l++)
    {
      char *colon = strchr (*l, ':');
      if (colon == NULL)
        continue;
      if (g_str_has_prefix (*l, "physical id"))
        {
          g_free (phys);
          phys = g_strstrip (g_strdup (colon + 1));
        }
      else if (g_str_has_prefix (*l, "core id"))
        {
          char *core = g_strstrip (g_strdup (colon + 1));
          g_hash_table_add (set, g_strdup_printf ("%s/%s", phys, core));
          g_free (core);
        }
    }
  int n = (int) g_hash_table_size (set);
  g_free (phys);
  g_strfreev (lines);
  g_free (text);
  g_hash_table_unref (set);
  return n;
}

static void
clear_blas_env (void)
{
  g_unsetenv ("OPENBLAS_NUM_THREADS");
  g_unsetenv ("GOTO_NUM_THREADS");
  g_unsetenv ("OMP_NUM_THREADS");
  g_unsetenv ("FX_NUM_THREADS");
  g_unsetenv ("OPENBLAS_CORETYPE");
  g_unsetenv ("FX_BLAS_CORETYPE");
}

/* Each environment case runs in a fresh process: OpenBLAS reads it only when loaded. */
static void
test_default_core (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      g_assert_true (fx_blas_init ());
      g_assert_true (fx_blas_available ());
      const char *want = expected_corename ();
      if (want != NULL)
        {
          g_assert_cmpstr (fx_blas_corename (), ==, want);
          g_assert_nonnull (fx_blas_preferred_coretype ());
          g_assert_cmpint (g_ascii_strcasecmp (fx_blas_preferred_coretype (), want), ==, 0);
        }
      /* The variable libfx set for OpenBLAS is gone again. */
      g_assert_null (g_getenv ("OPENBLAS_CORETYPE"));
      /* Threads: the physical cores. */
      int cores = expected_physical_cores ();
      if (cores > 0)
        g_assert_cmpint (fx_blas_num_threads (), ==, MIN (cores, 64));
      char *d = fx_blas_describe ();
      g_assert_nonnull (strstr (d, fx_blas_corename ()));
      g_test_message ("%s", d);
      g_free (d);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_env_threads (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      g_setenv ("FX_NUM_THREADS", "3", TRUE);
      g_setenv ("OPENBLAS_NUM_THREADS", "1", TRUE);   /* FX_NUM_THREADS wins */
      g_assert_cmpint (fx_blas_num_threads (), ==, 3);
      fx_blas_set_num_threads (2);
      g_assert_cmpint (fx_blas_num_threads (), ==, 2);
      fx_blas_set_num_threads (0);
      g_assert_cmpint (fx_blas_num_threads (), ==, 3);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A process allowed one CPU (taskset, a container's cpuset) gets one thread by default,
 * not one per CPU of the machine: two threads spinning on one CPU ran slower than one. */
static void
test_affinity_threads (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      cpu_set_t set;
      g_assert_cmpint (sched_getaffinity (0, sizeof set, &set), ==, 0);
      int first = 0;
      while (first < CPU_SETSIZE && !CPU_ISSET (first, &set))
        first++;
      CPU_ZERO (&set);
      CPU_SET (first, &set);
      g_assert_cmpint (sched_setaffinity (0, sizeof set, &set), ==, 0);
      g_assert_cmpint (fx_blas_num_threads (), ==, 1);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_env_openblas_threads (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      g_setenv ("OPENBLAS_NUM_THREADS", "1", TRUE);
      g_assert_cmpint (fx_blas_num_threads (), ==, 1);
      fx_blas_set_num_threads (2);
      g_assert_cmpint (fx_blas_num_threads (), ==, 2);
      fx_blas_set_num_threads (-1);
      g_assert_cmpint (fx_blas_num_threads (), ==, 1);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_env_core_auto (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      g_setenv ("FX_BLAS_CORETYPE", "auto", TRUE);
      g_assert_true (fx_blas_init ());
      g_assert_null (fx_blas_preferred_coretype ());
      g_assert_cmpstr (fx_blas_corename (), !=, "fallback");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_env_core_forced (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      if (expected_corename () == NULL)
        return;   /* no AVX2: Haswell's kernels would not run */
      g_setenv ("FX_BLAS_CORETYPE", "haswell", TRUE);
      g_assert_true (fx_blas_init ());
      g_assert_cmpstr (fx_blas_corename (), ==, "Haswell");
      g_assert_null (g_getenv ("OPENBLAS_CORETYPE"));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A slower OPENBLAS_CORETYPE in the environment (this project's machines export Haswell on
 * AVX-512 CPUs) is overridden; an equally fast one is honoured; both stay in the environment. */
static void
test_env_user_coretype_slower (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      const char *want = expected_corename ();
      if (want == NULL)
        return;
      g_setenv ("OPENBLAS_CORETYPE", "Haswell", TRUE);
      g_assert_cmpstr (fx_blas_corename (), ==, want);
      g_assert_cmpstr (g_getenv ("OPENBLAS_CORETYPE"), ==, "Haswell");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static gboolean
cpu_has_avx512_bf16 (void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512bf16");
#else
  return FALSE;
#endif
}

static void
test_env_user_coretype_equal (void)
{
  if (g_test_subprocess ())
    {
      clear_blas_env ();
      const char *want = expected_corename ();
      if (want == NULL)
        return;
      /* OpenBLAS loads Cooperlake's kernels only on a CPU with AVX512-BF16 (AMD's Zen 4 and
       * 5 have it, Intel's Skylake-SP and Cascade Lake do not): there, SkylakeX itself */
      const char *same_tier = !g_str_equal (want, "SkylakeX") ? "Zen"
                              : cpu_has_avx512_bf16 ()        ? "Cooperlake"
                                                              : "SkylakeX";
      g_setenv ("OPENBLAS_CORETYPE", same_tier, TRUE);
      g_assert_cmpstr (fx_blas_corename (), ==, same_tier);
      g_assert_null (fx_blas_preferred_coretype ());
      g_assert_cmpstr (g_getenv ("OPENBLAS_CORETYPE"), ==, same_tier);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* ---- gemm / gemv against plain double loops ---- */

static double
ref_at (const double *x, int64_t ld, gboolean trans, int64_t r, int64_t c)
{
  return trans ? x[c * ld + r] : x[r * ld + c];
}

static void
check_gemm_case (int64_t m, int64_t n, int64_t k, gboolean ta, gboolean tb, double alpha,
                 double beta, int pad)
{
  int64_t a_rows = ta ? k : m, a_cols = ta ? m : k;
  int64_t b_rows = tb ? n : k, b_cols = tb ? k : n;
  int64_t lda = a_cols + pad, ldb = b_cols + pad, ldc = n + pad;
  gsize na = (gsize) MAX (a_rows * lda, 1), nb = (gsize) MAX (b_rows * ldb, 1);
  gsize nc = (gsize) MAX (m * ldc, 1);
  double *ad = g_new (double, na), *bd = g_new (double, nb), *cd = g_new (double, nc);
  float *af = g_new (float, na), *bf = g_new (float, nb), *cf = g_new (float, nc);
  double *c0 = g_new (double, nc), *dd = g_new (double, nc);
  for (gsize i = 0; i < na; i++)
    af[i] = (float) (ad[i] = g_test_rand_double_range (-1, 1));
  for (gsize i = 0; i < nb; i++)
    bf[i] = (float) (bd[i] = g_test_rand_double_range (-1, 1));
  for (gsize i = 0; i < nc; i++)
    {
      c0[i] = beta == 0 ? NAN : g_test_rand_double_range (-1, 1);
      cf[i] = (float) c0[i];
      dd[i] = c0[i];
    }
  fx_sgemm (ta, tb, m, n, k, (float) alpha, af, lda, bf, ldb, (float) beta, cf, ldc);
  fx_dgemm (ta, tb, m, n, k, alpha, ad, lda, bd, ldb, beta, dd, ldc);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      {
        double acc = 0;
        for (int64_t p = 0; p < k; p++)
          acc += ref_at (ad, lda, ta, i, p) * ref_at (bd, ldb, tb, p, j);
        double want = alpha * acc + (beta == 0 ? 0 : beta * c0[i * ldc + j]);
        g_assert_cmpfloat_with_epsilon (cf[i * ldc + j], want, 1e-4 * (1 + k));
        g_assert_cmpfloat_with_epsilon (dd[i * ldc + j], want, 1e-10 * (1 + k));
      }
  g_free (ad); g_free (bd); g_free (cd); g_free (af); g_free (bf); g_free (cf);
  g_free (c0); g_free (dd);
}

static void
test_gemm (void)
{
  static const int64_t sizes[][3] = {
    { 1, 1, 1 }, { 2, 3, 4 }, { 7, 5, 3 }, { 33, 17, 65 }, { 64, 64, 64 }, { 3, 100, 1 },
    { 0, 4, 5 }, { 4, 0, 5 }, { 4, 5, 0 }, { 1, 70, 9 },
  };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++)
        {
          check_gemm_case (sizes[s][0], sizes[s][1], sizes[s][2], ta, tb, 1.0, 0.0, 0);
          check_gemm_case (sizes[s][0], sizes[s][1], sizes[s][2], ta, tb, 0.5, 2.0, 3);
        }
}

static void
test_gemv (void)
{
  for (int trans = 0; trans < 2; trans++)
    for (int m = 0; m < 9; m += 4)
      for (int n = 0; n < 9; n += 3)
        {
          int lda = n + 2, incx = 2, incy = 3;
          int xlen = trans ? m : n, ylen = trans ? n : m;
          float *a = g_new0 (float, MAX (m * lda, 1));
          float *x = g_new0 (float, MAX (xlen * incx, 1));
          float *y = g_new0 (float, MAX (ylen * incy, 1));
          double *ad = g_new0 (double, MAX (m * lda, 1));
          double *xd = g_new0 (double, MAX (xlen * incx, 1));
          double *yd = g_new0 (double, MAX (ylen * incy, 1));
          for (int i = 0; i < m * lda; i++)
            a[i] = (float) (ad[i] = (i % 7) - 3);
          for (int i = 0; i < xlen * incx; i++)
            x[i] = (float) (xd[i] = (i % 5) - 2);
          for (int i = 0; i < ylen * incy; i++)
            y[i] = (float) (yd[i] = 1);
          fx_sgemv (trans, m, n, 2.0f, a, lda, x, incx, 0.5f, y, incy);
          fx_dgemv (trans, m, n, 2.0, ad, lda, xd, incx, 0.5, yd, incy);
          for (int i = 0; i < ylen; i++)
            {
              double acc = 0;
              for (int p = 0; p < xlen; p++)
                acc += (trans ? ad[p * lda + i] : ad[i * lda + p]) * xd[p * incx];
              double want = 2 * acc + 0.5;
              g_assert_cmpfloat (y[i * incy], ==, (float) want);
              g_assert_cmpfloat (yd[i * incy], ==, want);
            }
          g_free (a); g_free (x); g_free (y); g_free (ad); g_free (xd); g_free (yd);
        }
}

/* ---- the thread pool ---- */

typedef struct {
  gint *hits;
  gint calls;
} PoolData;

static void
pool_fn (int64_t begin, int64_t end, gpointer data)
{
  PoolData *d = data;
  g_atomic_int_inc (&d->calls);
  for (int64_t i = begin; i < end; i++)
    g_atomic_int_inc (&d->hits[i]);
}

static void
nested_fn (int64_t begin, int64_t end, gpointer data)
{
  for (int64_t i = begin; i < end; i++)
    fx_parallel_for (10, 1, pool_fn, data);   /* runs inline: the pool is busy */
}

static void
test_parallel_for (void)
{
  fx_blas_set_num_threads (2);
  for (int64_t n = 0; n < 50; n += 7)
    for (int64_t chunk = 1; chunk < 20; chunk += 6)
      for (int rep = 0; rep < 3; rep++)
        {
          PoolData d = { g_new0 (gint, MAX (n, 1)), 0 };
          fx_parallel_for (n, chunk, pool_fn, &d);
          for (int64_t i = 0; i < n; i++)
            g_assert_cmpint (d.hits[i], ==, 1);
          if (n > 0)
            g_assert_cmpint (d.calls, <=, 4 * MAX (fx_blas_num_threads (), 1));
          g_free (d.hits);
        }
  /* fx_parallel_for_each: every item once, claims of one item or more (a quarter of those
   * left), never more claims than items */
  for (int64_t n = 0; n < 60; n += 3)
    {
      PoolData e = { g_new0 (gint, MAX (n, 1)), 0 };
      fx_parallel_for_each (n, pool_fn, &e);
      for (int64_t i = 0; i < n; i++)
        g_assert_cmpint (e.hits[i], ==, 1);
      g_assert_cmpint (e.calls, <=, n);
      g_free (e.hits);
    }
  PoolData d = { g_new0 (gint, 10), 0 };
  fx_parallel_for (4, 1, nested_fn, &d);
  for (int i = 0; i < 10; i++)
    g_assert_cmpint (d.hits[i], ==, 4);
  g_free (d.hits);
  fx_blas_set_num_threads (0);
}

/* Many jobs back to back, of sizes and thread counts that change between them: workers
 * join each job on their own and may arrive after the caller has taken every chunk and
 * moved on, so a late one must never run a chunk of a finished job (its data is gone) nor
 * miss one of the current job. Two callers at once: the second runs inline. */
typedef struct {
  int seed;
  gboolean ok;
} StressCaller;

static gpointer
stress_caller (gpointer data)
{
  StressCaller *sc = data;
  GRand *r = g_rand_new_with_seed (sc->seed);
  sc->ok = TRUE;
  for (int job = 0; job < 3000; job++)
    {
      int64_t n = g_rand_int_range (r, 1, 40);
      PoolData d = { g_new0 (gint, n), 0 };   /* fresh each job: stale chunks would hit freed memory */
      if (job % 3 == 2)
        fx_parallel_for_each (n, pool_fn, &d);   /* claims of several items, then one */
      else
        fx_parallel_for (n, g_rand_int_range (r, 1, 4), pool_fn, &d);
      for (int64_t i = 0; i < n; i++)
        sc->ok = sc->ok && d.hits[i] == 1;
      g_free (d.hits);
      if (job % 500 == 499)
        g_usleep (2000);   /* long enough for the workers to fall asleep */
    }
  g_rand_free (r);
  return NULL;
}

static void
test_parallel_for_stress (void)
{
  for (int threads = 2; threads <= 3; threads++)
    {
      fx_blas_set_num_threads (threads);
      StressCaller a = { 11 * threads, FALSE }, b = { 13 * threads, FALSE };
      GThread *other = g_thread_new ("stress-caller", stress_caller, &b);
      stress_caller (&a);
      g_thread_join (other);
      g_assert_true (a.ok);
      g_assert_true (b.ok);
    }
  fx_blas_set_num_threads (0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/blas/default-core", test_default_core);
  g_test_add_func ("/blas/env/fx-num-threads", test_env_threads);
  g_test_add_func ("/blas/env/openblas-num-threads", test_env_openblas_threads);
  g_test_add_func ("/blas/affinity-threads", test_affinity_threads);
  g_test_add_func ("/blas/env/coretype-auto", test_env_core_auto);
  g_test_add_func ("/blas/env/coretype-forced", test_env_core_forced);
  g_test_add_func ("/blas/env/openblas-coretype-slower", test_env_user_coretype_slower);
  g_test_add_func ("/blas/env/openblas-coretype-equal", test_env_user_coretype_equal);
  g_test_add_func ("/blas/gemm", test_gemm);
  g_test_add_func ("/blas/gemv", test_gemv);
  g_test_add_func ("/blas/parallel-for", test_parallel_for);
  g_test_add_func ("/blas/parallel-for-stress", test_parallel_for_stress);
  return g_test_run ();
}
