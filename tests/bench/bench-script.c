/* bench-script.c: the Python front end's cost — ResNet-50 built from its torchvision-style
 * source (core/trace/torchvision/models/resnet.py, the same file on both sides) and run on
 * 1x3x224x224 under FxScript (ResNet-18's forward too), with the
 * time inside layer kernels, nn.init and tensor ops split from the interpreter's own; then pure
 * interpreter workloads (bench_micro.py). Both against /usr/bin/python3 (+ torch 1.13) in the
 * same run through bench_script_torch.py; [x] = CPython time / FxScript time. */
#include <fx.h>

#include "bench-common.h"
#include "script/internal.h"   /* the installed op-call hook, to chain to it */

#include <stdlib.h>

/* ------------------------------------------------------------------ clocks */

/* Wall time when kernels use several threads; CPU time otherwise (the pure-interpreter parts
 * and one-thread runs), which other processes on a shared machine cannot inflate. CPython's
 * side uses the same clocks (perf_counter, process_time, thread_time). */
static double
process_cpu_now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static double (*clock_now) (void) = bench_now;

/* ------------------------------------------------------------------ kernel clock */

/* Time inside the wrapped natives (leaf layers' __init__ and forward, nn.init functions, registry
 * op calls); nested calls count once. */
static struct {
  int depth;
  double start, inside;
  guint calls;
} kernel_clock;

static void
kernel_clock_enter (void)
{
  kernel_clock.calls++;
  if (kernel_clock.depth++ == 0)
    kernel_clock.start = clock_now ();
}

static void
kernel_clock_leave (void)
{
  if (--kernel_clock.depth == 0)
    kernel_clock.inside += clock_now () - kernel_clock.start;
}

static void
kernel_clock_reset (void)
{
  kernel_clock.inside = 0;
  kernel_clock.calls = 0;
}

/* A native standing in for `original`, timing each call of it. */
static gboolean
timed_call (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer user_data)
{
  const FxValue *original = user_data;
  gboolean ok;

  kernel_clock_enter ();
  ok = fx_script_call (S, original, args, n_args, kwargs, result);
  kernel_clock_leave ();
  return ok;
}

static FxScriptOpCallFunc previous_op_call;
static gpointer previous_op_call_data;

static gboolean
timed_op_call (FxScript *S, const FxOp *op, const FxValue *args, int n_args, FxDict *kwargs,
               FxValue *result, gpointer user_data)
{
  gboolean ok;

  kernel_clock_enter ();
  if (previous_op_call)
    ok = previous_op_call (S, op, args, n_args, kwargs, result, previous_op_call_data);
  else
    {
      GError *error = NULL;
      ok = fx_op_call (op, args, n_args, kwargs, result, &error);
      if (!ok)
        {
          fx_script_raise_gerror (S, error);
          g_error_free (error);
        }
    }
  kernel_clock_leave ();
  return ok;
}

static GPtrArray *originals;   /* FxValue *, kept alive while the wrappers exist */

static FxValue *
keep_original (FxValue v)
{
  FxValue *kept = g_new (FxValue, 1);
  *kept = v;
  g_ptr_array_add (originals, kept);
  return kept;
}

static void
free_original (gpointer p)
{
  fx_value_clear (p);
  g_free (p);
}

static void
die_with_exception (FxScript *S, const char *what)
{
  g_autofree char *text = fx_script_format_exception (S);
  g_printerr ("bench-script: %s failed:\n%s", what, text ? text : "(no exception)\n");
  exit (1);
}

/* Wraps the leaf layers' __init__ and forward, nn.init's initialisers and the op-call hook
 * (chained to the one installed before: torch.fx's __torch_function__ dispatch). */
static void
install_kernel_clock (FxScript *S, const FxValue *nn, const FxValue *nn_init)
{
  static const char *const layers[] = { "Conv2d", "BatchNorm2d", "ReLU", "MaxPool2d",
                                        "AdaptiveAvgPool2d", "Linear" };
  static const char *const methods[] = { "__init__", "forward" };
  static const char *const inits[] = { "kaiming_normal_", "constant_" };

  originals = g_ptr_array_new_with_free_func (free_original);
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    {
      FxValue cls_value;
      FxScriptClass *cls;

      if (!fx_script_getattr (S, nn, layers[i], &cls_value))
        die_with_exception (S, layers[i]);
      cls = fx_script_value_get_class (&cls_value);
      g_assert_nonnull (cls);
      for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
        {
          FxValue method;
          if (!fx_script_getattr (S, &cls_value, methods[m], &method))
            die_with_exception (S, methods[m]);
          fx_script_class_add_method (cls, methods[m], timed_call, keep_original (method));
        }
      fx_value_clear (&cls_value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (inits); i++)
    {
      FxValue fn, wrapper;
      if (!fx_script_getattr (S, nn_init, inits[i], &fn))
        die_with_exception (S, inits[i]);
      wrapper = fx_script_function_new ("torch.nn.init", inits[i], timed_call,
                                        keep_original (fn), NULL);
      if (!fx_script_setattr (S, nn_init, inits[i], &wrapper))
        die_with_exception (S, inits[i]);
      fx_value_clear (&wrapper);
    }
  previous_op_call = S->op_call;
  previous_op_call_data = S->op_call_data;
  fx_script_set_op_call (S, timed_op_call, NULL);
}

/* ------------------------------------------------------------------ the CPython side */

/* Runs bench_script_torch.py ARGS...; each output line is `name value...`. */
static GHashTable *
run_python (const char *bench_dir, const char *const *args)
{
  g_autofree char *script = g_build_filename (bench_dir, "bench_script_torch.py", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *results;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) "/usr/bin/python3");
  g_ptr_array_add (argv, script);
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, &status, NULL) || status != 0)
    return NULL;
  results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char **f = g_strsplit (lines[i], " ", -1);
      if (f[0] && f[1])
        g_hash_table_replace (results, g_strdup (f[0]), f);
      else
        g_strfreev (f);
    }
  return results;
}

/* Field k (1-based after the name) of a CPython result, or NAN. */
static double
py_field (GHashTable *py, const char *name, int k)
{
  char **f = py ? g_hash_table_lookup (py, name) : NULL;
  for (int i = 1; f && i <= k; i++)
    if (!f[i])
      return NAN;
  return f ? g_ascii_strtod (f[k], NULL) : NAN;
}

static void
print_ratio (double fx_seconds, double py_seconds)
{
  if (isnan (py_seconds))
    printf ("  %10s  %8s\n", "-", "");
  else
    printf ("  %8.1f ms  [%.2fx]\n", py_seconds * 1e3, py_seconds / fx_seconds);
}

/* ------------------------------------------------------------------ timing FxScript */

typedef struct {
  FxScript *S;
  const FxValue *callable;
  const FxValue *args;
  int n_args;
  FxValue last;
} Call;

static void
call_once (gpointer data)
{
  Call *c = data;
  fx_value_clear (&c->last);
  if (!fx_script_call (c->S, c->callable, c->args, c->n_args, NULL, &c->last))
    die_with_exception (c->S, "a benchmark call");
}

/* Best of `reps` runs after one warm-up. */
static double
best_call (Call *c, int reps)
{
  double best = INFINITY;
  call_once (c);
  for (int i = 0; i < reps; i++)
    {
      double t0 = clock_now ();
      call_once (c);
      best = MIN (best, clock_now () - t0);
    }
  return best;
}

/* Best forward time of models.NAME().eval() on x, built from the same source. */
static double
resnet_forward_time (FxScript *S, const FxValue *models, const char *name, FxValue *x)
{
  FxValue ctor, built, model;
  Call construct = { S, &ctor, NULL, 0, { 0 } };
  Call forward = { S, &model, x, 1, { 0 } };
  double t;

  if (!fx_script_getattr (S, models, name, &ctor))
    die_with_exception (S, name);
  construct.last = fx_value_none ();
  call_once (&construct);
  built = construct.last;
  if (!fx_script_call_method (S, &built, "eval", NULL, 0, NULL, &model))
    die_with_exception (S, "model.eval()");
  forward.last = fx_value_none ();
  t = best_call (&forward, 5);
  fx_value_clear (&forward.last);
  fx_value_clear (&model);
  fx_value_clear (&built);
  fx_value_clear (&ctor);
  return t;
}

static void
bench_resnet (FxScript *S, const FxValue *main_module, GHashTable *py, int threads)
{
  FxValue models, resnet50, x, model, nn, nn_init;
  Call construct = { S, &resnet50, NULL, 0, { 0 } };
  Call forward = { S, &model, &x, 1, { 0 } };
  double t_construct, t_forward, t_forward18, ti_construct, k_construct, ti_forward = INFINITY, k_forward = 0;
  guint calls_construct, calls_forward = 0;

  if (!fx_script_getattr (S, main_module, "resnet", &models)
      || !fx_script_getattr (S, &models, "resnet50", &resnet50)
      || !fx_script_getattr (S, main_module, "x", &x)
      || !fx_script_getattr (S, main_module, "nn", &nn)
      || !fx_script_getattr (S, &nn, "init", &nn_init))
    die_with_exception (S, "setting up resnet50");
  construct.last = fx_value_none ();
  t_construct = best_call (&construct, 2);
  if (!fx_script_call_method (S, &construct.last, "eval", NULL, 0, NULL, &model))
    die_with_exception (S, "model.eval()");
  forward.last = fx_value_none ();
  t_forward = best_call (&forward, 5);
  t_forward18 = resnet_forward_time (S, &models, "resnet18", &x);

  /* The same again with the kernels timed. */
  install_kernel_clock (S, &nn, &nn_init);
  call_once (&construct);
  kernel_clock_reset ();
  {
    double t0 = clock_now ();
    call_once (&construct);
    ti_construct = clock_now () - t0;
  }
  k_construct = kernel_clock.inside;
  calls_construct = kernel_clock.calls;
  call_once (&forward);
  for (int i = 0; i < 3; i++)
    {
      double t0 = clock_now (), t;
      kernel_clock_reset ();
      call_once (&forward);
      t = clock_now () - t0;
      if (t < ti_forward)
        {
          ti_forward = t;
          k_forward = kernel_clock.inside;
          calls_forward = kernel_clock.calls;
        }
    }

  printf ("ResNet-50 from torchvision-style source, %d thread%s, %s time (FxScript, then "
          "/usr/bin/python3 + torch 1.13; [x] = torch / FxScript)\n", threads,
          threads == 1 ? "" : "s", threads == 1 ? "CPU" : "wall");
  printf ("  %-50s %8.1f ms", "construct resnet50()", t_construct * 1e3);
  print_ratio (t_construct, py_field (py, "construct", 1));
  printf ("  %-50s %8.1f ms", "forward 1x3x224x224 (eval)", t_forward * 1e3);
  print_ratio (t_forward, py_field (py, "forward", 1));
  printf ("  %-50s %8.1f ms", "resnet18() forward 1x3x224x224 (eval)", t_forward18 * 1e3);
  print_ratio (t_forward18, py_field (py, "forward_resnet18", 1));

  printf ("Split, with leaf layers (__init__, forward), nn.init and tensor ops timed:\n");
  {
    double py_t = py_field (py, "construct_instrumented", 1);
    double py_k = py_field (py, "construct_instrumented", 2);
    printf ("  construct: %.1f ms, %.1f ms in %u timed calls, interpreter %.1f ms (%.1f%%)",
            ti_construct * 1e3, k_construct * 1e3, calls_construct,
            (ti_construct - k_construct) * 1e3, 100 * (ti_construct - k_construct) / ti_construct);
    if (!isnan (py_t))
      printf ("; CPython: %.1f ms, %.1f ms in kernels, rest %.1f ms (%.1f%%)", py_t * 1e3,
              py_k * 1e3, (py_t - py_k) * 1e3, 100 * (py_t - py_k) / py_t);
    printf ("\n");
    py_t = py_field (py, "forward_instrumented", 1);
    py_k = py_field (py, "forward_instrumented", 2);
    printf ("  forward:   %.1f ms, %.1f ms in %u timed calls, interpreter %.2f ms (%.2f%%)",
            ti_forward * 1e3, k_forward * 1e3, calls_forward, (ti_forward - k_forward) * 1e3,
            100 * (ti_forward - k_forward) / ti_forward);
    if (!isnan (py_t))
      printf ("; CPython: %.1f ms, %.1f ms in kernels, rest %.2f ms (%.2f%%)", py_t * 1e3,
              py_k * 1e3, (py_t - py_k) * 1e3, 100 * (py_t - py_k) / py_t);
    printf ("\n");
  }
  fx_value_clear (&construct.last);
  fx_value_clear (&forward.last);
  fx_value_clear (&model);
  fx_value_clear (&models);
  fx_value_clear (&resnet50);
  fx_value_clear (&x);
  fx_value_clear (&nn);
  fx_value_clear (&nn_init);
}

static void
bench_micro (FxScript *S, const FxValue *main_module, GHashTable *py)
{
  FxValue micro, workloads;
  FxSeq *list = NULL;
  double fx_total = 0, py_total = 0;

  if (!fx_script_getattr (S, main_module, "bench_micro", &micro)
      || !fx_script_getattr (S, &micro, "WORKLOADS", &workloads)
      || !fx_script_to_list (S, &workloads, &list))
    die_with_exception (S, "loading bench_micro");
  printf ("Pure interpreter, thread CPU time (tests/bench/bench_micro.py; [x] = CPython 3.11 / "
          "FxScript)\n");
  for (guint i = 0; i < list->len; i++)
    {
      const FxValue *item = list->items[i].seq->items;   /* (name, function, size) */
      const char *name = fx_script_to_str (S, &item[0]);
      Call c = { S, &item[1], &item[2], 1, fx_value_none () };
      double t = best_call (&c, 3), py_t = py_field (py, name, 1);
      g_autofree char *checksum = fx_script_value_repr (S, &c.last);
      char **f = py ? g_hash_table_lookup (py, name) : NULL;

      printf ("  %-50s %8.1f ms", name, t * 1e3);
      print_ratio (t, py_t);
      if (f && f[1] && f[2] && g_strcmp0 (f[2], checksum) != 0)
        printf ("    WRONG RESULT: FxScript %s, CPython %s\n", checksum, f[2]);
      fx_total += t;
      if (!isnan (py_t))
        py_total += py_t;
      fx_value_clear (&c.last);
    }
  printf ("  %-50s %8.1f ms", "all", fx_total * 1e3);
  print_ratio (fx_total, py ? py_total : NAN);
  fx_seq_unref (list);
  fx_value_clear (&workloads);
  fx_value_clear (&micro);
}

int
main (void)
{
  const char *env_dir = g_getenv ("FX_BENCH_DIR");
  const char *bench_dir = env_dir ? env_dir : BENCH_SRCDIR;
  g_autofree char *models_dir = g_build_filename (bench_dir, "..", "..", "core", "trace",
                                                  "torchvision", "models", NULL);
  int threads = fx_blas_num_threads ();
  g_autofree char *threads_str = g_strdup_printf ("%d", threads);
  const char *resnet_args[] = { "resnet", models_dir, threads_str, NULL };
  const char *micro_args[] = { "micro", NULL };
  g_autoptr (GHashTable) py_resnet = run_python (bench_dir, resnet_args);
  g_autoptr (GHashTable) py_micro = run_python (bench_dir, micro_args);
  FxScript *S = fx_script_new ();
  g_autofree char *setup = NULL;
  FxValue main_module;

  {
    g_autofree char *q_models = g_strescape (models_dir, NULL);
    g_autofree char *q_bench = g_strescape (bench_dir, NULL);
    setup = g_strdup_printf ("import sys\n"
                             "sys.path.insert(0, \"%s\")\n"
                             "sys.path.insert(0, \"%s\")\n"
                             "import torch\n"
                             "import torch.nn as nn\n"
                             "try:\n"
                             "    import resnet\n"
                             "except ImportError:\n"
                             "    import torchvision.models.resnet as resnet\n"
                             "import bench_micro\n"
                             "torch.manual_seed(0)\n"
                             "x = torch.randn(1, 3, 224, 224)\n", q_models, q_bench);
  }
  if (!fx_script_run_string (S, setup, "<bench-script>", "bench_main")
      || !fx_script_import (S, "bench_main", &main_module))
    die_with_exception (S, "setting up");

  clock_now = bench_thread_time;
  bench_micro (S, &main_module, py_micro);
  if (!py_micro)
    printf ("  (/usr/bin/python3 failed: no ratios)\n");
  clock_now = threads == 1 ? process_cpu_now : bench_now;
  bench_resnet (S, &main_module, py_resnet, threads);
  if (!py_resnet)
    printf ("  (/usr/bin/python3 with torch failed: no ratios)\n");

  fx_value_clear (&main_module);
  fx_script_free (S);
  g_clear_pointer (&originals, g_ptr_array_unref);
  return 0;
}
