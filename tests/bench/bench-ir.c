/* bench-ir.c: the IR at scale — a chain of N adds (with a dead branch every ten nodes) built
 * and named, linted, dead-code eliminated, turned into code, copied, saved as .fxg and loaded
 * again, for N up to 100 000.
 * Prints each step's time per 10 000 nodes (flat across N = linear) and, where torch.fx 1.13
 * is installed, the ratio against it at the sizes it can finish (its naming is quadratic). */
#include <fx.h>
#include <glib/gstdio.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"

#define N_STEPS 7
static const char *const step_names[N_STEPS] = { "build", "lint", "dce", "code", "copy",
                                                 "save .fxg", "load .fxg" };

static void
run_libfx (guint n, double seconds[N_STEPS])
{
  FxValue add = fx_value_op (fx_op_lookup ("operator.add"));
  FxValue mul = fx_value_op (fx_op_lookup ("operator.mul"));
  g_autoptr (FxGraph) g = NULL;
  g_autoptr (FxGraph) copy = NULL;
  g_autofree char *code = NULL;
  FxNode *prev;
  gint64 t[N_STEPS + 1];

  t[0] = g_get_monotonic_time ();
  g = fx_graph_new ();
  prev = fx_graph_placeholder (g, "x", NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      FxSeq *seq = fx_seq_new (2);
      FxValue args;
      FxNode *node;

      seq->items[0] = fx_value_node (prev);
      seq->items[1] = fx_value_int (i);
      args = fx_value_take_tuple (seq);
      node = fx_graph_call_function (g, &add, &args, NULL, NULL);
      if (i % 10 == 0)
        {
          fx_value_clear (&args.seq->items[0]);
          args.seq->items[0] = fx_value_node (node);
          args.seq->items[1] = fx_value_int (2);
          fx_graph_call_function (g, &mul, &args, NULL, NULL);
        }
      fx_value_clear (&args);
      prev = node;
    }
  {
    FxValue out = fx_value_node (prev);
    fx_graph_output (g, &out, NULL);
  }
  t[1] = g_get_monotonic_time ();
  g_assert_true (fx_graph_lint (g, NULL));
  t[2] = g_get_monotonic_time ();
  fx_graph_eliminate_dead_code (g, NULL);
  t[3] = g_get_monotonic_time ();
  code = fx_graph_python_code (g, "self", FALSE);
  t[4] = g_get_monotonic_time ();
  copy = fx_graph_copy (g, NULL);
  t[5] = g_get_monotonic_time ();
  {
    g_autoptr (FxModule) root = fx_module_new ("Module");
    g_autoptr (FxGraphModule) gm = fx_graph_module_new (root, copy, NULL, NULL);
    g_autoptr (FxGraphModule) loaded = NULL;
    g_autofree char *dir = g_dir_make_tmp ("bench-ir-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "chain.fxg", NULL);
    g_autoptr (GError) error = NULL;

    g_assert_nonnull (gm);
    g_assert_true (fx_fxg_save (gm, NULL, path, &error));
    t[6] = g_get_monotonic_time ();
    loaded = fx_fxg_load (path, NULL, &error);
    g_assert_no_error (error);
    t[7] = g_get_monotonic_time ();
    g_remove (path);
    g_rmdir (dir);
  }
  for (int s = 0; s < N_STEPS; s++)
    seconds[s] = (t[s + 1] - t[s]) / 1e6;
}

/* Runs the torch.fx side for the given sizes; fills torch[size index][step] (NAN if absent). */
static gboolean
run_torch (const guint *sizes, guint n_sizes, double torch[][N_STEPS])
{
  g_auto (GStrv) lines = bench_run_torch_script ("bench_ir_torch.py", sizes, n_sizes);

  if (lines == NULL)
    return FALSE;
  for (guint i = 0; i < n_sizes && lines[i] && *lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], " ", -1);
      for (int s = 0; s < 4; s++)
        torch[i][s] = g_ascii_strtod (f[s + 1], NULL);
      for (int s = 4; s < N_STEPS; s++)
        torch[i][s] = NAN;   /* deepcopy and .fxg files are not part of the torch run */
    }
  return TRUE;
}

int
main (void)
{
  static const guint sizes[] = { 2000, 10000, 50000, 100000 };
  static const guint torch_sizes[] = { 2000, 10000 };
  double torch[G_N_ELEMENTS (torch_sizes)][N_STEPS];
  gboolean have_torch;

  fx_ops_init ();
  for (guint i = 0; i < G_N_ELEMENTS (torch_sizes); i++)
    for (int s = 0; s < N_STEPS; s++)
      torch[i][s] = NAN;
  have_torch = run_torch (torch_sizes, G_N_ELEMENTS (torch_sizes), torch);

  printf ("IR at scale: chain of N adds + a dead mul every 10 nodes\n");
  printf ("%8s", "N");
  for (int s = 0; s < N_STEPS; s++)
    printf ("  %14s", step_names[s]);
  printf ("   (ms per 10k nodes; [x] = torch.fx time / libfx time)\n");
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      double secs[N_STEPS];
      int t = -1;

      run_libfx (sizes[i], secs);
      for (guint k = 0; k < G_N_ELEMENTS (torch_sizes); k++)
        if (torch_sizes[k] == sizes[i])
          t = (int) k;
      printf ("%8u", sizes[i]);
      for (int s = 0; s < N_STEPS; s++)
        {
          char ratio[32] = "";
          if (t >= 0 && !isnan (torch[t][s]) && secs[s] > 0)
            g_snprintf (ratio, sizeof ratio, "[%.0fx]", torch[t][s] / secs[s]);
          printf ("  %7.2f %6s", secs[s] * 1e3 * 10000.0 / sizes[i], ratio);
        }
      printf ("\n");
    }
  if (!have_torch)
    printf ("torch.fx not available (/usr/bin/python3 with torch): no ratios\n");
  return 0;
}
