/* bench-rewrite.c: replace_pattern at scale — a chain of relu → neg → sigmoid blocks, pattern
 * neg(relu(x)) replaced by tanh(x) + x (one match per block), from 300 to 300 000 nodes, and
 * a two-output pattern at 100 000 nodes. Prints libfx's time per size (flat per node =
 * linear) and torch.fx 1.13's, run in the same go by bench-rewrite.py, with their ratio;
 * 1.13 dies of RecursionError from about 1 200 nodes on such a chain. Exit status 1 when the
 * 100 000-node rewrite takes 1 s or more, or libfx is less than 50x faster at 600 nodes.
 * Times are CPU time on both sides (the machine is shared: waiting for a core is not work),
 * and include gm.recompile(), which replace_pattern does. */
#include <fx.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-common.h"

static FxValue
op (const char *path)
{
  return fx_value_op (fx_op_lookup (path));
}

static FxNode *
call1 (FxGraph *g, const char *path, FxNode *a)
{
  FxValue target = op (path);
  FxSeq *seq = fx_seq_new (1);
  g_auto (FxValue) args = fx_value_none ();
  seq->items[0] = fx_value_node (a);
  args = fx_value_take_tuple (seq);
  return fx_graph_call_function (g, &target, &args, NULL, NULL);
}

static FxNode *
call2 (FxGraph *g, const char *path, FxNode *a, FxNode *b)
{
  FxValue target = op (path);
  FxSeq *seq = fx_seq_new (2);
  g_auto (FxValue) args = fx_value_none ();
  seq->items[0] = fx_value_node (a);
  seq->items[1] = fx_value_node (b);
  args = fx_value_take_tuple (seq);
  return fx_graph_call_function (g, &target, &args, NULL, NULL);
}

static void
output (FxGraph *g, FxNode *a, FxNode *b)
{
  g_auto (FxValue) result = fx_value_none ();
  if (b == NULL)
    result = fx_value_node (a);
  else
    {
      FxSeq *seq = fx_seq_new (2);
      seq->items[0] = fx_value_node (a);
      seq->items[1] = fx_value_node (b);
      result = fx_value_take_tuple (seq);
    }
  fx_graph_output (g, &result, NULL);
}

/* two_outputs: blocks of relu(x), sigmoid(x) joined by add, for the pattern
 * (relu(x), sigmoid(x)); else the relu → neg → sigmoid chain. */
static FxGraphModule *
chain (guint n_nodes, gboolean two_outputs)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  g_autoptr (FxModule) root = fx_module_new ("Module");
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);

  for (guint i = 0; i < n_nodes / 3; i++)
    if (two_outputs)
      x = call2 (g, "operator.add", call1 (g, "torch.relu", x), call1 (g, "torch.sigmoid", x));
    else
      x = call1 (g, "torch.sigmoid", call1 (g, "torch.neg", call1 (g, "torch.relu", x)));
  output (g, x, NULL);
  return fx_graph_module_new (root, g, "GraphModule", NULL);
}

static FxGraph *
rule_graph (gboolean replacement, gboolean two_outputs)
{
  FxGraph *g = fx_graph_new ();
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);

  if (two_outputs && !replacement)
    output (g, call1 (g, "torch.relu", x), call1 (g, "torch.sigmoid", x));
  else if (two_outputs)
    output (g, call1 (g, "torch.tanh", x), call1 (g, "torch.neg", x));
  else if (!replacement)
    output (g, call1 (g, "torch.neg", call1 (g, "torch.relu", x)), NULL);
  else
    output (g, call2 (g, "operator.add", call1 (g, "torch.tanh", x), x), NULL);
  return g;
}

/* Best of reps runs of replace_pattern (each on a fresh graph); *n_matches set. */
static double
time_libfx (guint n_nodes, gboolean two_outputs, int reps, guint *n_matches)
{
  g_autoptr (FxGraph) pattern = rule_graph (FALSE, two_outputs);
  g_autoptr (FxGraph) replacement = rule_graph (TRUE, two_outputs);
  double best = INFINITY;

  for (int r = 0; r < reps; r++)
    {
      g_autoptr (FxGraphModule) gm = chain (n_nodes, two_outputs);
      g_autoptr (GPtrArray) matches = NULL;
      g_autoptr (GError) error = NULL;
      double t0 = bench_thread_time ();
      if (!fx_replace_pattern (gm, pattern, replacement, NULL, NULL, &matches, &error))
        g_error ("replace_pattern: %s", error->message);
      best = MIN (best, bench_thread_time () - t0);
      *n_matches = matches->len;
      if (!fx_graph_lint (gm->graph, &error))
        g_error ("lint after the rewrite: %s", error->message);
    }
  return best;
}

/* torch.fx's times by size (seconds; NAN: RecursionError or not run). */
static gboolean
run_torch (const guint *sizes, guint n_sizes, double *seconds)
{
  g_auto (GStrv) lines = bench_run_torch_script ("bench-rewrite.py", sizes, n_sizes);

  for (guint i = 0; i < n_sizes; i++)
    seconds[i] = NAN;
  if (lines == NULL)
    return FALSE;
  for (guint i = 0; i < n_sizes && lines[i] != NULL && *lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], " ", -1);
      if (f[1] != NULL && f[2] != NULL)
        seconds[i] = g_ascii_strtod (f[2], NULL);
    }
  return TRUE;
}

int
main (void)
{
  static const guint sizes[] = { 300, 600, 1200, 3000, 10000, 30000, 100000, 300000 };
  double torch[G_N_ELEMENTS (sizes)];
  gboolean have_torch, ok = TRUE;
  double t100k = NAN, ratio600 = NAN;
  guint n_matches;

  fx_ops_init ();
  /* torch.fx first, at the sizes it can handle (it is quadratic; RecursionError beyond) */
  have_torch = run_torch (sizes, 4, torch);
  for (guint i = 4; i < G_N_ELEMENTS (sizes); i++)
    torch[i] = NAN;

  printf ("replace_pattern: chain of relu -> neg -> sigmoid, neg(relu(x)) -> tanh(x) + x\n");
  printf ("%8s %8s %12s %14s %12s %10s   (CPU time)\n", "nodes", "matches", "libfx ms",
          "us/1k nodes", "torch.fx ms", "ratio");
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      double t = time_libfx (sizes[i], FALSE, sizes[i] <= 30000 ? 5 : 2, &n_matches);
      char torch_ms[32] = "-", ratio[32] = "-";

      if (i < 4 && have_torch && isnan (torch[i]))
        g_strlcpy (torch_ms, "Recursion", sizeof torch_ms);   /* 1.13's RecursionError */
      else if (!isnan (torch[i]))
        {
          g_snprintf (torch_ms, sizeof torch_ms, "%.2f", torch[i] * 1e3);
          g_snprintf (ratio, sizeof ratio, "%.0fx", torch[i] / t);
        }
      printf ("%8u %8u %12.2f %14.1f %12s %10s\n", sizes[i], n_matches, t * 1e3,
              t * 1e6 * 1000.0 / sizes[i], torch_ms, ratio);
      if (sizes[i] == 100000)
        t100k = t;
      if (sizes[i] == 600 && !isnan (torch[i]))
        ratio600 = torch[i] / t;
    }
  {
    double t = time_libfx (100000, TRUE, 2, &n_matches);
    printf ("two outputs (relu(x), sigmoid(x)) -> (tanh(x), neg(x)): 100000 nodes, %u matches, "
            "%.2f ms\n", n_matches, t * 1e3);
  }
  if (!have_torch)
    printf ("torch.fx not available (/usr/bin/python3 with torch): no ratios\n");
  printf ("100 000 nodes: %.0f ms (goal < 1000 ms)", t100k * 1e3);
  if (!isnan (ratio600))
    printf ("; at 600 nodes %.0fx torch.fx (goal >= 50x)", ratio600);
  printf ("\n");
  ok = t100k < 1.0 && (isnan (ratio600) || ratio600 >= 50);
  return ok ? 0 : 1;
}
