/* bench-run.c: running GraphModules through core/run's execution plan against PyTorch 1.13 in
 * the same run (bench_run_torch.py): per-node overhead on a chain of tiny adds (vs
 * torch.fx.Interpreter and the compiled GraphModule), ResNet-18 / ResNet-50 forward at batch
 * 1, 224x224 (vs eager PyTorch; with conv→bn(→add)(→relu)(→maxpool) fusion off and on, wall and CPU time),
 * the peak memory a forward adds, the forward without Winograd convolutions, and where the
 * time goes. */
#include "fx.h"
#include "trace/trace.h"
#include "bench-common.h"

#include <gio/gio.h>

#include <malloc.h>
#include <signal.h>
#include <stdatomic.h>

#define CHAIN_LEN 2000

static double min_seconds = 1.0;

/* ------------------------------------------------------------------ the PyTorch side */

static GHashTable *
values_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
}

/* A "name value..." line into values (name → GArray of doubles). */
static void
parse_values_line (GHashTable *values, char *line)
{
  char *name = line, *p = strchr (line, ' ');
  GArray *nums = g_array_new (FALSE, FALSE, sizeof (double));
  while (p != NULL && *p)
    {
      char *next;
      double v = g_ascii_strtod (p, &next);
      if (next == p)
        break;
      g_array_append_val (nums, v);
      p = next;
    }
  name[strcspn (name, " ")] = '\0';
  g_hash_table_replace (values, g_strdup (name), nums);
}

/* A helper process's output, "name value..." lines, as name → GArray of doubles. */
static GHashTable *
run_process (const char *const *argv)
{
  g_autoptr (GSubprocess) proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                    | G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
  g_autofree char *out = NULL;

  if (proc == NULL || !g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, NULL)
      || !g_subprocess_get_successful (proc))
    return NULL;
  GHashTable *values = values_new ();
  for (char *line = strtok (out, "\n"); line != NULL; line = strtok (NULL, "\n"))
    parse_values_line (values, line);
  return values;
}

/* PyTorch's side as a process answering commands (bench_run_torch.py), so that its timings
 * alternate with ours: the machine's speed drifts over minutes, and timing one side after
 * the other measured the ratio as much as the drift. */
typedef struct {
  GSubprocess *proc;
  GOutputStream *commands;
  GDataInputStream *answers;
  gboolean failed;             /* it stopped answering: no more commands */
} TorchSide;

static void
torch_side_stop (TorchSide *t)
{
  if (t == NULL)
    return;
  if (!t->failed)
    g_output_stream_write_all (t->commands, "quit\n", 5, NULL, NULL, NULL);
  g_output_stream_close (t->commands, NULL, NULL);
  g_subprocess_wait (t->proc, NULL, NULL);
  g_object_unref (t->answers);
  g_object_unref (t->proc);
  g_free (t);
}

/* The answers to one command, or NULL when the process failed (no ratios then). */
static GHashTable *
torch_side_ask (TorchSide *t, const char *command, int n_answers)
{
  if (t == NULL || t->failed)
    return NULL;
  g_autofree char *line = g_strdup_printf ("%s\n", command);
  g_autoptr (GHashTable) values = values_new ();
  gboolean ok = g_output_stream_write_all (t->commands, line, strlen (line), NULL, NULL, NULL)
                && g_output_stream_flush (t->commands, NULL, NULL);
  for (int i = 0; ok && i < n_answers; i++)
    {
      g_autofree char *answer = g_data_input_stream_read_line_utf8 (t->answers, NULL, NULL,
                                                                     NULL);
      if ((ok = answer != NULL))
        parse_values_line (values, answer);
    }
  if (!ok)
    {
      printf ("  (the torch side stopped answering: no more ratios)\n");
      t->failed = TRUE;
      return NULL;
    }
  return g_steal_pointer (&values);
}

static TorchSide *
torch_side_start (const char *dir, int threads)
{
  g_autofree char *script = g_build_filename (dir, "bench_run_torch.py", NULL);
  g_autofree char *t = g_strdup_printf ("%d", threads);
  g_autofree char *secs = g_strdup_printf ("%g", min_seconds);
  g_autofree char *n = g_strdup_printf ("%d", CHAIN_LEN);
  const char *argv[] = { "/usr/bin/python3", script, t, secs, n, NULL };
  GSubprocess *proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE
                                         | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                         | G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
  if (proc == NULL)
    return NULL;
  TorchSide *side = g_new0 (TorchSide, 1);
  side->proc = proc;
  side->commands = g_subprocess_get_stdin_pipe (proc);
  side->answers = g_data_input_stream_new (g_subprocess_get_stdout_pipe (proc));
  g_autofree char *ready = g_data_input_stream_read_line_utf8 (side->answers, NULL, NULL, NULL);
  if (ready == NULL || strcmp (ready, "ready") != 0)
    {
      g_subprocess_force_exit (proc);
      g_subprocess_wait (proc, NULL, NULL);
      g_object_unref (side->answers);
      g_object_unref (proc);
      g_free (side);
      return NULL;
    }
  return side;
}

static GHashTable *
run_python_peak (const char *dir, const char *model)
{
  g_autofree char *script = g_build_filename (dir, "bench_run_torch.py", NULL);
  const char *argv[] = { "/usr/bin/python3", script, "--peak", model, NULL };
  return run_process (argv);
}

/* Value k (1-based after the name) that PyTorch's side printed, or NAN. */
static double
torch_value (GHashTable *py, const char *name, guint k)
{
  GArray *nums = py ? g_hash_table_lookup (py, name) : NULL;
  return nums != NULL && k >= 1 && k <= nums->len ? g_array_index (nums, double, k - 1) : NAN;
}

/* ------------------------------------------------------------------ memory */

static long
status_kb (const char *field)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return 0;
  const char *p = strstr (text, field);
  return p ? strtol (p + strlen (field) + 1, NULL, 10) : 0;
}

/* Returns freed heap to the system and resets VmHWM to the current RSS (Linux >= 4.0), so
 * that VmHWM - VmRSS afterwards is what the code in between added at its peak. Both sides
 * measure this way. */
static long
peak_reset (void)
{
  malloc_trim (0);
  g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
  return status_kb ("VmRSS");
}

/* ------------------------------------------------------------------ the machine's state */

/* How far apart the two cores the threads run on are: the one-way time of a cache line
 * bouncing between two threads (ns). This machine's two vCPUs move between sitting close
 * (60-90 ns) and apart (220-260 ns) every few minutes, and everything that one thread
 * writes and the other reads costs that much more while they are apart: the ratios below
 * depend on it (fx's forwards 15-25% slower, torch's less). */
#define PING_ROUNDS 20000

typedef struct {
  _Alignas (64) atomic_int turn;
} PingLine;

static gpointer
pong (gpointer data)
{
  PingLine *line = data;
  for (int i = 0; i < PING_ROUNDS; i++)
    {
      while (atomic_load_explicit (&line->turn, memory_order_acquire) != 2 * i + 1)
        ;
      atomic_store_explicit (&line->turn, 2 * i + 2, memory_order_release);
    }
  return NULL;
}

static double
core_to_core_ns (void)
{
  g_usleep (10000);   /* libfx's workers stop spinning after a job (1 ms) and sleep */
  PingLine *line = g_aligned_alloc0 (1, sizeof *line, 64);
  GThread *t = g_thread_new ("pong", pong, line);
  double t0 = bench_now ();
  for (int i = 0; i < PING_ROUNDS; i++)
    {
      atomic_store_explicit (&line->turn, 2 * i + 1, memory_order_release);
      while (atomic_load_explicit (&line->turn, memory_order_acquire) != 2 * i + 2)
        ;
    }
  double ns = (bench_now () - t0) / PING_ROUNDS / 2 * 1e9;
  g_thread_join (t);
  g_aligned_free (line);
  return ns;
}

/* ------------------------------------------------------------------ the chain */

typedef struct {
  FxExecPlan *plan;
  FxInterpreter *interp;
  FxValue input;
} ChainRun;

static void
run_plan (gpointer data)
{
  ChainRun *c = data;
  FxValue r;
  if (!fx_exec_plan_run (c->plan, &c->input, 1, NULL, &r, NULL))
    g_error ("plan run failed");
  fx_value_clear (&r);
}

static void
run_interp (gpointer data)
{
  ChainRun *c = data;
  FxValue r;
  if (!fx_interpreter_run (c->interp, &c->input, 1, &r, NULL))
    g_error ("interpreter run failed");
  fx_value_clear (&r);
}

/* The chain without a plan: the kernel of operator.add bound once, called CHAIN_LEN times. */
static void
run_direct (gpointer data)
{
  ChainRun *c = data;
  const FxOp *add = fx_op_lookup ("operator.add");
  const FxOverload *ov;
  FxValue args[2] = { c->input, fx_value_float (1.0) }, argv[8];
  if (!fx_op_bind (add, args, 2, NULL, &ov, argv, NULL) || ov->n_args > 8)
    g_error ("cannot bind operator.add");
  FxValue prev = fx_value_copy (&c->input);
  for (int i = 0; i < CHAIN_LEN; i++)
    {
      FxValue r;
      fx_value_clear (&argv[0]);
      argv[0] = prev;
      if (!ov->kernel (argv, &r, NULL))
        g_error ("add failed");
      prev = r;
    }
  fx_value_clear (&prev);
  argv[0] = fx_value_none ();
  for (int i = 0; i < ov->n_args; i++)
    fx_value_clear (&argv[i]);
}

static FxGraphModule *
make_chain (int n)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  g_autoptr (FxModule) root = fx_module_new ("Module");
  FxValue add = fx_value_op (fx_op_lookup ("operator.add"));
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  for (int i = 0; i < n; i++)
    {
      FxSeq *seq = fx_seq_new (2);
      seq->items[0] = fx_value_node (x);
      seq->items[1] = fx_value_float (1.0);
      FxValue args = fx_value_take_tuple (seq);
      x = fx_graph_call_function (g, &add, &args, NULL, NULL);
      fx_value_clear (&args);
    }
  FxValue out = fx_value_node (x);
  fx_graph_output (g, &out, NULL);
  return fx_graph_module_new (root, g, NULL, NULL);
}

/* GraphModule calls in a script (fx run): the same chain, traced by the script's torch.fx
 * and called as gm(x), which runs through the plan. */
static void
collect_output (const char *text, gsize len, gpointer user_data)
{
  g_string_append_len (user_data, text, (gssize) len);
}

static double
script_chain_us (void)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autofree char *src = g_strdup_printf (
    "import time, torch, torch.fx\n"
    "def chain(x):\n"
    "    for i in range(%d):\n"
    "        x = x + 1.0\n"
    "    return x\n"
    "gm = torch.fx.symbolic_trace(chain)\n"
    "x = torch.ones(1)\n"
    "best = 1e9\n"
    "for i in range(%d):\n"
    "    t0 = time.perf_counter()\n"
    "    gm(x)\n"
    "    best = min(best, time.perf_counter() - t0)\n"
    "print(best)\n", CHAIN_LEN, (int) (min_seconds * 200) + 5);
  FxScript *S = fx_script_new ();
  fx_script_set_output (S, collect_output, collect_output, out);
  gboolean ok = fx_script_run_string (S, src, "<bench-run>", NULL);
  fx_script_free (S);
  return ok ? g_ascii_strtod (out->str, NULL) / CHAIN_LEN * 1e6 : NAN;
}

static void
bench_chain (TorchSide *torch)
{
  g_autoptr (GHashTable) py = torch_side_ask (torch, "chain", 2);
  g_autoptr (FxGraphModule) gm = make_chain (CHAIN_LEN);
  int64_t one = 1;
  ChainRun c = { fx_exec_plan_new (gm, NULL), fx_interpreter_new (gm, NULL, NULL, NULL),
                 fx_value_take_tensor (fx_tensor_ones (FX_DTYPE_FLOAT32, 1, &one)) };
  double plan_us = bench_best (run_plan, &c, min_seconds, 5) / CHAIN_LEN * 1e6;
  double interp_us = bench_best (run_interp, &c, min_seconds, 5) / CHAIN_LEN * 1e6;
  double t_interp = torch_value (py, "chain_interpreter", 1);
  double t_gm = torch_value (py, "chain_graph_module", 1);

  printf ("chain of %d tiny adds (tensor of 1 element), per node:\n", CHAIN_LEN);
  printf ("  fx plan            %8.3f us   torch.fx Interpreter %8.3f us [x%.1f]   "
          "compiled GraphModule %8.3f us [x%.1f]\n", plan_us, t_interp, t_interp / plan_us,
          t_gm, t_gm / plan_us);
  printf ("  fx C Interpreter   %8.3f us   torch.fx Interpreter %8.3f us [x%.1f]\n",
          interp_us, t_interp, t_interp / interp_us);
  double script_us = script_chain_us ();
  printf ("  fx run: gm(x)      %8.3f us   torch.fx compiled GraphModule %8.3f us [x%.1f]\n",
          script_us, t_gm, t_gm / script_us);
  /* the same adds as a C loop calling the kernel: what is left is the plan's own cost */
  double direct_us = bench_best (run_direct, &c, min_seconds, 5) / CHAIN_LEN * 1e6;
  printf ("  C loop calling the add kernel directly %.3f us: plan overhead %.3f us/node\n",
          direct_us, plan_us - direct_us);
  fx_value_clear (&c.input);
  fx_exec_plan_unref (c.plan);
  fx_interpreter_free (c.interp);
}

/* ------------------------------------------------------------------ ResNets */

static void
print_where_time_goes (FxGraphModule *gm, FxExecPlan *plan, const char *label)
{
  g_autoptr (GHashTable) by_kind = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  double total = 0;
  FxExecNodeProfile p;

  for (guint i = 0; fx_exec_plan_get_node_profile (plan, i, &p); i++)
    {
      char *kind;
      if (p.op == FX_OP_CALL_MODULE)
        {
          FxModule *m = fx_module_get_submodule (gm->module, p.target, NULL);
          kind = g_strdup (m ? m->type_name : p.target);
        }
      else
        kind = g_strdup (p.target);
      double *acc = g_hash_table_lookup (by_kind, kind);
      if (acc == NULL)
        {
          acc = g_new0 (double, 1);
          g_hash_table_insert (by_kind, g_strdup (kind), acc);
        }
      *acc += p.total_us / (double) MAX (p.calls, 1);
      total += p.total_us / (double) MAX (p.calls, 1);
      g_free (kind);
    }
  GHashTableIter it;
  gpointer k, v;
  printf ("    where the time goes (per forward, %s):", label);
  g_hash_table_iter_init (&it, by_kind);
  while (g_hash_table_iter_next (&it, &k, &v))
    if (*(double *) v / total >= 0.005)
      printf (" %s %.1f ms (%.0f%%)", (char *) k, *(double *) v / 1e3, 100 * *(double *) v / total);
  printf ("\n");
}

/* Best wall and CPU (process, all threads) times of a forward with fusion off [0] and on [1],
 * alternating the two so that a load on the shared machine hits both alike; the CPU time
 * shows the work done whatever the other load steals. (Each run follows one of the other
 * kind, whose buffers and caches differ: for the comparison only; the forward's own time is
 * the best of back-to-back runs, as torch's.) */
static void
best_fusion_off_on (ChainRun *c, double wall[2], double cpu[2])
{
  double start;
  wall[0] = wall[1] = cpu[0] = cpu[1] = INFINITY;
  for (int i = 0; i < 2; i++)   /* warm-up */
    run_plan (c);
  start = bench_now ();
  for (int i = 0; i < 3 || bench_now () - start < 2 * min_seconds; i++)
    for (int fused = 0; fused < 2; fused++)
      {
        fx_exec_plan_set_fusion (c->plan, fused);
        double t0 = bench_now ();
        clock_t c0 = clock ();
        run_plan (c);
        cpu[fused] = MIN (cpu[fused], (double) (clock () - c0) / CLOCKS_PER_SEC);
        wall[fused] = MIN (wall[fused], bench_now () - t0);
      }
}

/* A 1×3×224×224 image of randn(seed 0), as bench_run_torch.py gives torch. */
static FxValue
random_image (void)
{
  int64_t shape[4] = { 1, 3, 224, 224 };
  FxGenerator *gen = fx_generator_new (0);
  FxValue image = fx_value_take_tensor (fx_randn (FX_DTYPE_FLOAT32, 4, shape, gen, NULL));
  fx_generator_free (gen);
  return image;
}

#define ROUNDS 4

static void
bench_resnet (const char *dir, const char *name, TorchSide *torch)
{
  g_autofree char *path = g_build_filename (dir, "bench_run_models.py", NULL);
  GError *error = NULL;
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, name, NULL, NULL, &error);
  fx_grad_mode_set (FALSE);   /* as the torch side's no_grad (a script may have set it) */
  if (gm == NULL)
    {
      printf ("%s: trace failed: %s\n", name, error->message);
      g_error_free (error);
      return;
    }
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, &error);
  g_assert_no_error (error);
  ChainRun c = { plan, NULL, random_image () };

  /* Peaks in fresh processes, one model each: in this one, earlier runs' freed memory and
   * warm caches would hide what a forward needs. */
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  const char *self_argv[] = { self, "--peak", name, NULL };
  g_autoptr (GHashTable) fx_peak = self ? run_process (self_argv) : NULL;
  g_autoptr (GHashTable) torch_peak = run_python_peak (dir, name);
  double peak = torch_value (fx_peak, "peak", 1), tpeak = torch_value (torch_peak, "peak", 1);
  /* the forward as torch's is timed: the best of back-to-back runs of the same model, in
   * ROUNDS rounds that alternate with torch's */
  double t = INFINITY, tt = INFINITY, ratio[ROUNDS], apart[ROUNDS];
  g_autofree char *command = g_strdup_printf ("%s %g", name, min_seconds / 2);
  for (int r = 0; r < ROUNDS; r++)
    {
      apart[r] = core_to_core_ns ();
      g_autoptr (GHashTable) py = torch_side_ask (torch, command, 1);
      double torch_ms = torch_value (py, name, 1);
      double fx_ms = bench_best (run_plan, &c, min_seconds / 2, 3) * 1e3;
      ratio[r] = torch_ms / fx_ms;
      t = MIN (t, fx_ms);
      tt = isnan (torch_ms) ? NAN : MIN (tt, torch_ms);
    }
  double wall[2], cpu[2];
  best_fusion_off_on (&c, wall, cpu);
  double t_fused = wall[1] * 1e3, t_plain = wall[0] * 1e3, cpu_plain = cpu[0], cpu_on = cpu[1];
  printf ("%s forward, batch 1, 224x224 (%u nodes):\n", name, fx_exec_plan_n_nodes (plan));
  printf ("  fx plan %9.2f ms   torch eager %9.2f ms   [torch/fx x%.2f; target >= x2]\n", t, tt,
          tt / t);
  printf ("    round by round (torch's forwards, then fx's, %d times):", ROUNDS);
  for (int r = 0; r < ROUNDS; r++)
    printf (" x%.2f", ratio[r]);
  printf ("; core to core before each round:");
  for (int r = 0; r < ROUNDS; r++)
    printf (" %.0f", apart[r]);
  printf (" ns\n");
  printf ("  conv→bn(→add)(→relu)(→maxpool) fusion (%u chains): wall %.2f ms → %.2f ms [x%.2f], "
          "CPU %.2f ms → %.2f ms [x%.2f] per forward (best of N, unfused → fused)\n",
          fx_exec_plan_n_fused (plan), t_plain, t_fused, t_plain / t_fused, cpu_plain * 1e3,
          cpu_on * 1e3, cpu_plain / cpu_on);
  printf ("  peak memory added by a forward: fx %.1f MB   torch %.1f MB   [torch/fx x%.2f]\n",
          peak / 1024.0, tpeak / 1024.0, tpeak / peak);
  /* The same fused forward with every convolution on im2col + gemm: what Winograd brings. */
  fx_winograd_force (0);
  double no_winograd = bench_best (run_plan, &c, min_seconds, 3) * 1e3;
  fx_winograd_force (-1);
  printf ("  3x3 stride-1 convolutions on im2col + gemm instead of Winograd: %.2f ms "
          "[Winograd x%.2f]\n", no_winograd, no_winograd / t);
  fx_exec_plan_set_fusion (plan, FALSE);
  fx_exec_plan_set_profiling (plan, TRUE);
  run_plan (&c);
  print_where_time_goes (gm, plan, "unfused");
  fx_exec_plan_set_fusion (plan, TRUE);
  fx_exec_plan_reset_profile (plan);
  run_plan (&c);
  print_where_time_goes (gm, plan, "fused");
  fx_value_clear (&c.input);
}

/* --peak NAME: the RSS the first forward of NAME adds over the traced model (KB). */
static int
measure_peak (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, "bench_run_models.py", NULL);
  fx_blas_set_num_threads (1);    /* as the torch side: no thread pools' stacks counted */
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, name, NULL, NULL, NULL);
  fx_grad_mode_set (FALSE);
  g_autoptr (FxExecPlan) plan = gm ? fx_exec_plan_new (gm, NULL) : NULL;
  ChainRun c = { plan, NULL, random_image () };
  if (plan == NULL)
    return 1;
  long base = peak_reset ();
  run_plan (&c);
  printf ("peak %ld\n", status_kb ("VmHWM") - base);
  fx_value_clear (&c.input);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *dir = g_getenv ("FX_BENCH_DIR");
  if (dir == NULL)
    dir = BENCH_SRCDIR;
  /* the torch side runs under torch.no_grad(); so does libfx (nothing recorded): set again
   * after each trace, whose script may have changed it */
  fx_grad_mode_set (FALSE);
  if (argc > 2 && strcmp (argv[1], "--peak") == 0)
    return measure_peak (dir, argv[2]);
  if (argc > 1)
    min_seconds = g_ascii_strtod (argv[1], NULL);
  fx_ops_init ();
  signal (SIGPIPE, SIG_IGN);   /* a torch side that died: failed writes, not the end of us */
  int threads = fx_blas_num_threads ();
  g_autofree char *blas = fx_blas_describe ();
  printf ("bench-run: %s\n", blas);
  printf ("PyTorch 1.13 (/usr/bin/python3) with %d threads, measured in this run; "
          "[xR] = torch time / fx time\n", threads);
  fflush (stdout);
  TorchSide *torch = torch_side_start (dir, threads);
  if (torch == NULL)
    printf ("  (/usr/bin/python3 with torch failed: no ratios)\n");
  bench_chain (torch);
  fflush (stdout);
  bench_resnet (dir, "resnet18", torch);
  fflush (stdout);
  bench_resnet (dir, "resnet50", torch);
  torch_side_stop (torch);
  return 0;
}
