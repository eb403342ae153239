/* ab-kernels: two builds of libfx timed against each other in one process, call by call in
 * turn, for kernel work on a machine whose speed drifts by tens of percent from one minute
 * (or one process) to the next: the builds then see the same drift. A developer's tool, not
 * a benchmark of `make bench`.
 *
 *   ab-kernels [--reps N] [--threads N] [--cold MB] LIB_A LIB_B SPEC...
 *
 * LIB_A, LIB_B: paths to two libfx.so (another build's copy: git worktree + meson). SPEC:
 *   gemm:M,N,K[,LDB]   fx_sgemm_stream (C = A·B, A M×K, B K×N rows LDB apart; one thread)
 *   conv:C,O,H,K,S,P   fx_tensor_conv2d, a 1×C×H×H input, O filters K×K, stride S, padding P
 * --cold MB: the weights (A, the filters) cycle through copies filling MB, so that every call
 * reads them from memory, as a forward does; the rest stays in cache. --threads (default 1)
 * sets each build's thread count; with more than one, the calls are 2 ms apart, so that the
 * other build's idle workers have stopped spinning. Prints each build's best and mean time
 * and the ratio of the bests (B/A). */
#include <dlfcn.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-common.h"
#include "tensor/blas.h"
#include "tensor/conv.h"
#include "tensor/tensor.h"

typedef struct {
  __typeof__ (fx_sgemm_stream) *gemm;
  __typeof__ (fx_tensor_new_uninit) *new_uninit;
  __typeof__ (fx_tensor_data) *data;
  __typeof__ (fx_tensor_unref) *unref;
  __typeof__ (fx_tensor_conv2d) *conv2d;
  __typeof__ (fx_conv_params_init) *params_init;
  __typeof__ (fx_blas_set_num_threads) *set_threads;
} Build;

static gboolean
load_build (const char *path, Build *b)
{
  /* RTLD_DEEPBIND: each build's own symbols first, not the other's */
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (h == NULL)
    {
      fprintf (stderr, "ab-kernels: %s\n", dlerror ());
      return FALSE;
    }
#define SYM(field, name)                                                                    \
  if ((b->field = (__typeof__ (b->field)) dlsym (h, name)) == NULL)                         \
    {                                                                                       \
      fprintf (stderr, "ab-kernels: %s has no %s\n", path, name);                          \
      return FALSE;                                                                         \
    }
  SYM (gemm, "fx_sgemm_stream");
  SYM (new_uninit, "fx_tensor_new_uninit");
  SYM (data, "fx_tensor_data");
  SYM (unref, "fx_tensor_unref");
  SYM (conv2d, "fx_tensor_conv2d");
  SYM (params_init, "fx_conv_params_init");
  SYM (set_threads, "fx_blas_set_num_threads");
#undef SYM
  return TRUE;
}

static void
fill (float *p, size_t n, int mod, float scale)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (float) (i % mod) * scale - scale;
}

/* One build's operands for a spec: its own tensors (each build allocates with its own
 * allocator), the weights in `copies` copies. */
typedef struct {
  gboolean is_conv;
  int64_t m, n, k, ldb;                /* gemm */
  int64_t c, o, h, kk, stride, pad;    /* conv */
  int copies, next;
  float **a, *b, *out;                 /* gemm */
  FxTensor *input, **weights;          /* conv */
} Operands;

static gboolean
parse_spec (const char *spec, Operands *op)
{
  memset (op, 0, sizeof *op);
  long v[6] = { 0 };
  if (g_str_has_prefix (spec, "gemm:"))
    {
      int got = sscanf (spec + 5, "%ld,%ld,%ld,%ld", &v[0], &v[1], &v[2], &v[3]);
      if (got < 3 || v[0] <= 0 || v[1] <= 0 || v[2] <= 0 || (got == 4 && v[3] < v[1]))
        return FALSE;
      op->m = v[0], op->n = v[1], op->k = v[2], op->ldb = got == 4 ? v[3] : v[1];
      return TRUE;
    }
  if (g_str_has_prefix (spec, "conv:"))
    {
      if (sscanf (spec + 5, "%ld,%ld,%ld,%ld,%ld,%ld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5])
            != 6
          || v[0] <= 0 || v[1] <= 0 || v[2] <= 0 || v[3] <= 0 || v[4] <= 0 || v[5] < 0)
        return FALSE;
      op->is_conv = TRUE;
      op->c = v[0], op->o = v[1], op->h = v[2], op->kk = v[3], op->stride = v[4], op->pad = v[5];
      return TRUE;
    }
  return FALSE;
}

static size_t
weight_floats (const Operands *op)
{
  return op->is_conv ? (size_t) (op->o * op->c * op->kk * op->kk) : (size_t) (op->m * op->k);
}

static void
operands_make (Operands *op, const Build *b, size_t cold_bytes)
{
  size_t wf = weight_floats (op);
  op->copies = cold_bytes ? (int) MAX ((size_t) 1, cold_bytes / (wf * sizeof (float))) : 1;
  if (op->is_conv)
    {
      int64_t in_shape[4] = { 1, op->c, op->h, op->h };
      int64_t w_shape[4] = { op->o, op->c, op->kk, op->kk };
      op->input = b->new_uninit (FX_DTYPE_FLOAT32, 4, in_shape);
      fill (b->data (op->input), (size_t) (op->c * op->h * op->h), 7, 0.1f);
      op->weights = g_new (FxTensor *, op->copies);
      for (int i = 0; i < op->copies; i++)
        {
          op->weights[i] = b->new_uninit (FX_DTYPE_FLOAT32, 4, w_shape);
          fill (b->data (op->weights[i]), wf, 5, 0.01f);
        }
      return;
    }
  op->a = g_new (float *, op->copies);
  for (int i = 0; i < op->copies; i++)
    {
      op->a[i] = g_aligned_alloc (wf, sizeof (float), 64);
      fill (op->a[i], wf, 7, 0.01f);
    }
  op->b = g_aligned_alloc ((gsize) (op->k * op->ldb), sizeof (float), 64);
  fill (op->b, (size_t) (op->k * op->ldb), 5, 0.1f);
  op->out = g_aligned_alloc ((gsize) (op->m * op->n), sizeof (float), 64);
}

static void
operands_free (Operands *op, const Build *b)
{
  for (int i = 0; i < op->copies; i++)
    {
      if (op->is_conv)
        b->unref (op->weights[i]);
      else
        g_aligned_free (op->a[i]);
    }
  if (op->is_conv)
    b->unref (op->input);
  g_free (op->weights);
  g_free (op->a);
  g_aligned_free (op->b);
  g_aligned_free (op->out);
}

/* One call; its time in seconds, or < 0 on an error. */
static double
run_once (Operands *op, const Build *b)
{
  int w = op->next;
  op->next = (op->next + 1) % op->copies;
  double t0 = bench_now ();
  if (!op->is_conv)
    {
      b->gemm (op->m, op->n, op->k, op->a[w], op->k, op->b, op->ldb, op->out, op->n, NULL);
      return bench_now () - t0;
    }
  FxConvParams params;
  b->params_init (&params);
  params.stride[0] = op->stride;
  params.padding[0] = op->pad;
  GError *error = NULL;
  FxTensor *out = b->conv2d (op->input, op->weights[w], NULL, &params, &error);
  double t = bench_now () - t0;
  if (out == NULL)
    {
      fprintf (stderr, "ab-kernels: %s\n", error ? error->message : "conv2d failed");
      g_clear_error (&error);
      return -1;
    }
  b->unref (out);
  return t;
}

int
main (int argc, char **argv)
{
  /* Two copies of libfx need more static TLS than glibc keeps for dlopen by default. */
  const char *tunables = g_getenv ("GLIBC_TUNABLES");
  if (tunables == NULL || strstr (tunables, "optional_static_tls") == NULL)
    {
      g_setenv ("GLIBC_TUNABLES", "glibc.rtld.optional_static_tls=1000000", TRUE);
      execv ("/proc/self/exe", argv);
      perror ("ab-kernels: re-exec");
      return 1;
    }
  int reps = 50, threads = 1, cold_mb = 0, i = 1;
  for (; i + 1 < argc && g_str_has_prefix (argv[i], "--"); i += 2)
    {
      int v = atoi (argv[i + 1]);
      if (g_str_equal (argv[i], "--reps") && v > 1)
        reps = v;
      else if (g_str_equal (argv[i], "--threads") && v > 0)
        threads = v;
      else if (g_str_equal (argv[i], "--cold") && v >= 0)
        cold_mb = v;
      else
        break;
    }
  if (argc - i < 3)
    {
      fprintf (stderr, "usage: ab-kernels [--reps N] [--threads N] [--cold MB] LIB_A LIB_B "
                       "gemm:M,N,K[,LDB] | conv:C,O,H,K,S,P ...\n");
      return 2;
    }
  Build builds[2];
  for (int x = 0; x < 2; x++)
    {
      if (!load_build (argv[i + x], &builds[x]))
        return 1;
      builds[x].set_threads (threads);
    }
  for (int s = i + 2; s < argc; s++)
    {
      Operands ops[2];
      if (!parse_spec (argv[s], &ops[0]))
        {
          fprintf (stderr, "ab-kernels: bad spec '%s'\n", argv[s]);
          return 2;
        }
      ops[1] = ops[0];
      double best[2] = { G_MAXDOUBLE, G_MAXDOUBLE }, total[2] = { 0, 0 };
      for (int x = 0; x < 2; x++)
        operands_make (&ops[x], &builds[x], (size_t) cold_mb << 20);
      for (int r = 0; r <= reps; r++)   /* round 0 warms up */
        for (int x = 0; x < 2; x++)
          {
            if (threads > 1)
              g_usleep (2000);
            double t = run_once (&ops[x], &builds[x]);
            if (t < 0)
              return 1;
            if (r > 0)
              {
                best[x] = MIN (best[x], t);
                total[x] += t;
              }
          }
      printf ("%-26s A best %8.1f mean %8.1f | B best %8.1f mean %8.1f us | B/A %.3f\n",
              argv[s], best[0] * 1e6, total[0] / reps * 1e6, best[1] * 1e6,
              total[1] / reps * 1e6, best[1] / best[0]);
      for (int x = 0; x < 2; x++)
        operands_free (&ops[x], &builds[x]);
    }
  return 0;
}
