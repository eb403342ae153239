/* bench-conv.c: every distinct conv layer of ResNet-18 at batch 1 (224×224 input), timed in
 * libfx and — through bench_conv_torch.py, in the same run — in PyTorch with two threads;
 * prints per-layer times, GFLOPS, % of the machine's sgemm peak and the ratio to PyTorch,
 * and for 3×3 stride-1 layers each algorithm forced (im2col + gemm, Winograd F(2×2) and
 * F(4×4)) next to the one libfx's cost model picks. GFLOPS count direct-convolution work. */
#include <fx.h>
#include <stdlib.h>
#include "bench-common.h"

typedef struct {
  const char *name;
  int c, o, hw, k, stride, pad, count;   /* count: how many such layers ResNet-18 has */
} Layer;

/* Keep in sync with LAYERS in bench_conv_torch.py. */
static const Layer layers[] = {
  { "conv1",        3,  64, 224, 7, 2, 3, 1 },
  { "layer1",      64,  64,  56, 3, 1, 1, 4 },
  { "layer2.0.c1", 64, 128,  56, 3, 2, 1, 1 },
  { "layer2",     128, 128,  28, 3, 1, 1, 3 },
  { "layer2.ds",   64, 128,  56, 1, 2, 0, 1 },
  { "layer3.0.c1", 128, 256, 28, 3, 2, 1, 1 },
  { "layer3",     256, 256,  14, 3, 1, 1, 3 },
  { "layer3.ds",  128, 256,  28, 1, 2, 0, 1 },
  { "layer4.0.c1", 256, 512, 14, 3, 2, 1, 1 },
  { "layer4",     512, 512,   7, 3, 1, 1, 3 },
  { "layer4.ds",  256, 512,  14, 1, 2, 0, 1 },
};
#define N_LAYERS G_N_ELEMENTS (layers)

typedef struct {
  FxTensor *x, *w;
  FxConvParams p;
} ConvCase;

static void
run_conv (gpointer data)
{
  ConvCase *c = data;
  GError *error = NULL;
  FxTensor *y = fx_tensor_conv2d (c->x, c->w, NULL, &c->p, &error);
  if (y == NULL)
    g_error ("conv2d: %s", error->message);
  fx_tensor_unref (y);
}

static FxTensor *
random_tensor (int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_new_uninit (FX_DTYPE_FLOAT32, ndim, shape);
  float *d = fx_tensor_data (t);
  for (int64_t i = 0; i < fx_tensor_numel (t); i++)
    d[i] = (float) g_random_double_range (-1, 1);
  return t;
}

static int
out_size (const Layer *l)
{
  return (l->hw + 2 * l->pad - l->k) / l->stride + 1;
}

static double
layer_gflop (const Layer *l)
{
  double o = out_size (l);
  return 2.0 * l->o * l->c * l->k * l->k * o * o / 1e9;
}

/* PyTorch's times in ms, by layer name; NULL when PyTorch could not be run. */
static GHashTable *
torch_times (int threads, char **why)
{
  const char *python = g_getenv ("FX_BENCH_PYTHON");
  g_autofree char *script = g_build_filename (BENCH_SRCDIR, "bench_conv_torch.py", NULL);
  g_autofree char *nthreads = g_strdup_printf ("%d", threads);
  char *argv[] = { (char *) (python ? python : "/usr/bin/python3"), script, nthreads, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  GError *error = NULL;
  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                     &error))
    {
      *why = g_strdup (error->message);
      g_error_free (error);
      return NULL;
    }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      /* the last line of a Python traceback says what went wrong */
      char *last = err ? g_strrstr (g_strstrip (err), "\n") : NULL;
      *why = g_strdup_printf ("bench_conv_torch.py failed: %s",
                              last ? last + 1 : err && *err ? err : "?");
      return NULL;
    }
  GHashTable *times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  char **lines = g_strsplit (out, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      char name[64];
      double ms;
      if (sscanf (*l, "%63s %lf", name, &ms) == 2)
        g_hash_table_insert (times, g_strdup (name), g_memdup2 (&ms, sizeof ms));
    }
  g_strfreev (lines);
  if (g_hash_table_size (times) == 0)
    {
      g_hash_table_unref (times);
      *why = g_strdup_printf ("bench_conv_torch.py printed nothing: %s", err ? err : "");
      return NULL;
    }
  return times;
}

int
main (int argc, char **argv)
{
  double min_seconds = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 0.3;
  g_autofree char *blas = fx_blas_describe ();
  int threads = fx_blas_num_threads ();
  printf ("libfx conv2d, ResNet-18 layers at batch 1; %s\n", blas);
  BenchPeak peak = bench_peak (threads);
  bench_print_peak (&peak);

  /* [layer][algorithm]: the cost model's pick, then im2col, F(2x2), F(4x4) forced */
  static const int algos[] = { -1, 0, 2, 4 };
  double fx_ms[N_LAYERS], algo_ms[N_LAYERS][4];
  for (guint i = 0; i < N_LAYERS; i++)
    {
      const Layer *l = &layers[i];
      int64_t xs[4] = { 1, l->c, l->hw, l->hw }, ws[4] = { l->o, l->c, l->k, l->k };
      ConvCase c = { random_tensor (4, xs), random_tensor (4, ws), { 0 } };
      fx_conv_params_init (&c.p);
      c.p.stride[0] = l->stride;
      c.p.padding[0] = l->pad;
      gboolean winograd = l->k == 3 && l->stride == 1;
      for (guint a = 0; a < G_N_ELEMENTS (algos); a++)
        {
          algo_ms[i][a] = 0;
          if (a > 0 && !winograd)
            continue;
          fx_winograd_force (algos[a]);
          algo_ms[i][a] = bench_best (run_conv, &c, min_seconds, 5) * 1e3;
        }
      fx_winograd_force (-1);
      fx_ms[i] = algo_ms[i][0];
      fx_tensor_unref (c.x);
      fx_tensor_unref (c.w);
    }

  char *why = NULL;
  GHashTable *torch = torch_times (threads, &why);
  if (torch == NULL)
    printf ("PyTorch unavailable (%s): libfx numbers only\n", why);

  printf ("\n%-12s %-22s %5s %9s %8s %7s %9s %8s\n", "layer", "C->O k/s @HW", "count",
          "libfx ms", "GFLOPS", "% peak", "torch ms", "speed");
  double fx_total = 0, torch_total = 0, flop_total = 0;
  int below = 0;
  for (guint i = 0; i < N_LAYERS; i++)
    {
      const Layer *l = &layers[i];
      double gf = layer_gflop (l), gflops = gf / (fx_ms[i] / 1e3);
      double *tms = torch ? g_hash_table_lookup (torch, l->name) : NULL;
      char shape[32], tcol[16] = "-", ratio[16] = "-";
      g_snprintf (shape, sizeof shape, "%d->%d %dx%d/%d @%d", l->c, l->o, l->k, l->k, l->stride,
                  l->hw);
      if (tms)
        {
          g_snprintf (tcol, sizeof tcol, "%.3f", *tms);
          g_snprintf (ratio, sizeof ratio, "%.2fx", *tms / fx_ms[i]);
          torch_total += *tms * l->count;
        }
      fx_total += fx_ms[i] * l->count;
      flop_total += gf * l->count;
      below += gflops < 0.5 * peak.peak;
      printf ("%-12s %-22s %5d %9.3f %8.1f %6.1f%% %9s %8s\n", l->name, shape, l->count,
              fx_ms[i], gflops, 100 * gflops / peak.peak, tcol, ratio);
    }
  printf ("\nall 20 conv layers: libfx %.2f ms (%.1f GFLOPS, %.1f%% of peak)", fx_total,
          flop_total / (fx_total / 1e3), 100 * flop_total / (fx_total / 1e3) / peak.peak);
  if (torch)
    printf ("; PyTorch %.2f ms; libfx speed relative to PyTorch %.2fx", torch_total,
            torch_total / fx_total);
  printf ("\n(speed = PyTorch time / libfx time: above 1 means libfx is faster)\n");
  printf ("layers below 50%% of the sgemm peak: %d of %u\n", below, (guint) N_LAYERS);

  printf ("\n3x3 stride-1 layers by algorithm (ms; picked: what libfx chose)\n");
  printf ("%-12s %9s %9s %9s %9s\n", "layer", "picked", "im2col", "F(2x2)", "F(4x4)");
  for (guint i = 0; i < N_LAYERS; i++)
    if (algo_ms[i][1] > 0)
      printf ("%-12s %9.3f %9.3f %9.3f %9.3f\n", layers[i].name, algo_ms[i][0],
              algo_ms[i][1], algo_ms[i][2], algo_ms[i][3]);
  if (torch)
    g_hash_table_unref (torch);
  g_free (why);
  return 0;
}
