/* bench-gemm.c: sgemm GFLOPS through fx_sgemm() at 256..2048 against the machine's peak, and
 * what the same OpenBLAS does with the kernel its own CPU detection picks (measured in a
 * child process started with FX_BLAS_CORETYPE=auto, since the kernel is fixed at load). */
#include <fx.h>
#include <stdlib.h>
#include "bench-common.h"

static const int sizes[] = { 256, 512, 1024, 2048 };
#define N_SIZES G_N_ELEMENTS (sizes)

typedef struct {
  int n;
  float *a, *b, *c;
} Gemm;

static void
run_gemm (gpointer data)
{
  Gemm *g = data;
  fx_sgemm (FALSE, FALSE, g->n, g->n, g->n, 1.f, g->a, g->n, g->b, g->n, 0.f, g->c, g->n);
}

static void
measure (double min_seconds, double *gflops)
{
  for (guint i = 0; i < N_SIZES; i++)
    {
      Gemm g = { sizes[i], NULL, NULL, NULL };
      gsize nn = (gsize) g.n * g.n;
      g.a = g_new (float, nn);
      g.b = g_new (float, nn);
      g.c = g_new (float, nn);
      for (gsize j = 0; j < nn; j++)
        {
          g.a[j] = (float) ((j * 7) % 13) / 13.f - 0.5f;
          g.b[j] = (float) ((j * 5) % 11) / 11.f - 0.5f;
        }
      double t = bench_best (run_gemm, &g, min_seconds, 3);
      gflops[i] = 2.0 * g.n * g.n * g.n / t / 1e9;
      g_free (g.a);
      g_free (g.b);
      g_free (g.c);
    }
}

/* Runs this benchmark in a child with FX_BLAS_CORETYPE=coretype; its GFLOPS and core name. */
static gboolean
run_child (const char *coretype, double *gflops, char *core)
{
  gboolean ok = FALSE;
  char **env = g_get_environ ();
  env = g_environ_setenv (env, "FX_BLAS_CORETYPE", coretype, TRUE);
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  char *cargv[] = { self ? self : (char *) "bench-gemm", (char *) "--child", NULL };
  g_autofree char *out = NULL;
  int status;
  if (self && g_spawn_sync (NULL, cargv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status,
                            NULL)
      && g_spawn_check_wait_status (status, NULL) && out != NULL)
    {
      char **lines = g_strsplit (out, "\n", -1);
      for (char **l = lines; *l; l++)
        {
          int n;
          double v;
          if (sscanf (*l, "core %63s", core) == 1)
            continue;
          if (sscanf (*l, "%d %lf", &n, &v) == 2)
            for (guint i = 0; i < N_SIZES; i++)
              if (sizes[i] == n)
                gflops[i] = v, ok = TRUE;
        }
      g_strfreev (lines);
    }
  g_strfreev (env);
  return ok;
}

int
main (int argc, char **argv)
{
  gboolean child = argc > 1 && g_str_equal (argv[1], "--child");
  double min_seconds = 0.3;
  if (argc > 1 && !child)
    min_seconds = g_ascii_strtod (argv[1], NULL);
  double gflops[N_SIZES];

  if (child)
    {
      measure (min_seconds, gflops);
      printf ("core %s\n", fx_blas_corename ());
      for (guint i = 0; i < N_SIZES; i++)
        printf ("%d %.2f\n", sizes[i], gflops[i]);
      return 0;
    }

  g_autofree char *blas = fx_blas_describe ();
  printf ("libfx sgemm: %s\n", blas);
  BenchPeak peak = bench_peak (fx_blas_num_threads ());
  bench_print_peak (&peak);
  measure (min_seconds, gflops);

  /* Children: same binary and OpenBLAS, with the kernel OpenBLAS's own detection picks, and
   * with the one the environment's OPENBLAS_CORETYPE names (if any). */
  double dflt[N_SIZES], envk[N_SIZES];
  char dflt_core[64] = "?", env_core[64] = "?";
  gboolean have_default = run_child ("auto", dflt, dflt_core);
  const char *env_value = g_getenv ("OPENBLAS_CORETYPE");
  gboolean have_env = env_value != NULL && *env_value != '\0'
                      && g_ascii_strcasecmp (env_value, fx_blas_corename ()) != 0
                      && run_child (env_value, envk, env_core);

  g_autofree char *dflt_title = g_strdup_printf ("detected (%s)", dflt_core);
  g_autofree char *env_title = g_strdup_printf ("env OPENBLAS_CORETYPE (%s)", env_core);
  printf ("\nsgemm GFLOPS, n x n x n, %d threads\n", fx_blas_num_threads ());
  printf ("%6s %10s %8s %20s %8s", "n", "libfx", "% peak",
          have_default ? dflt_title : "detected", "speedup");
  if (have_env)
    printf (" %28s %8s", env_title, "speedup");
  printf ("\n");
  for (guint i = 0; i < N_SIZES; i++)
    {
      printf ("%6d %10.1f %7.1f%%", sizes[i], gflops[i], 100 * gflops[i] / peak.peak);
      if (have_default)
        printf (" %20.1f %7.2fx", dflt[i], gflops[i] / dflt[i]);
      else
        printf (" %20s %8s", "-", "-");
      if (have_env)
        printf (" %28.1f %7.2fx", envk[i], gflops[i] / envk[i]);
      printf ("\n");
    }
  printf ("(speedup = libfx's kernel, %s, over the other kernel on the same OpenBLAS)\n",
          fx_blas_corename ());
  return 0;
}
