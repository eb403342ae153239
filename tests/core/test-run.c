/* test-run.c: FxExecPlan and FxInterpreter (core/run/) against the script path — models of
 * run_models.py traced with fx_trace_file() and run by the plan give what the same models'
 * eager forward gives in the script interpreter — plus inputs, errors, caching, profiles,
 * C overrides of Interpreter hooks and Conv2d → BatchNorm2d (→ ReLU) fusion (run_fuse_models.py). */
#include "fx.h"
#include "trace/trace.h"

#include <math.h>
#include <string.h>

#ifndef TEST_SRCDIR
#define TEST_SRCDIR "."
#endif

/* value.h declares no autoptr for dicts */
typedef FxDict TestDict;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestDict, fx_dict_unref)

static const char *models_path;
static GHashTable *kept;      /* name → FxValue* recorded by the script */

/* ---- the reference: the script interpreter ---- */

static gboolean
keep_fn (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer user_data)
{
  (void) S; (void) kwargs; (void) user_data;
  g_assert_cmpint (n_args, ==, 2);
  g_assert_cmpint (args[0].kind, ==, FX_VALUE_STR);
  FxValue *v = g_new (FxValue, 1);
  *v = fx_value_copy (&args[1]);
  g_hash_table_replace (kept, g_strdup (args[0].s->data), v);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
runtest_init (FxScript *S, FxScriptModule *module, gpointer user_data)
{
  (void) S; (void) user_data;
  fx_script_module_add_function (module, "keep", keep_fn, NULL);
  return TRUE;
}

static void
free_value (gpointer p)
{
  fx_value_clear (p);
  g_free (p);
}

/* Runs the models' eager forward in the script interpreter on seeded inputs. */
static void
run_reference (void)
{
  FxScript *S = fx_script_new ();
  g_autofree char *src = g_strdup_printf (
    "import sys\n"
    "sys.path.insert(0, %s)\n"
    "import torch, runtest\n"
    "import run_models as m\n"
    "torch.manual_seed(1)\n"
    "x = torch.randn(2, 4, 6, 6)\n"
    "runtest.keep('x', x)\n"
    "with torch.no_grad():\n"
    "    runtest.keep('block', m.block(x))\n"
    "    runtest.keep('head', m.head(x))\n"
    "v = torch.randn(3, 4)\n"
    "y = torch.randn(3, 4)\n"
    "runtest.keep('v', v)\n"
    "runtest.keep('y', y)\n"
    "runtest.keep('chain', m.chain(v))\n"
    "runtest.keep('split', m.split(v))\n"
    "runtest.keep('kw', m.kw(v, y=y))\n"
    "runtest.keep('kw3', m.kw(v, y, 3.0))\n"
    "runtest.keep('inplace', m.inplace(v))\n"
    "runtest.keep('v_after', v)\n"
    "import run_fuse_models as f\n"
    "torch.manual_seed(3)\n"
    "xf = torch.randn(2, 4, 10, 10)\n"
    "xr = torch.randn(1, 3, 64, 64)\n"
    "runtest.keep('xf', xf)\n"
    "runtest.keep('xr', xr)\n"
    "with torch.no_grad():\n"
    "    runtest.keep('spellings', f.spellings(xf))\n"
    "    runtest.keep('second_user', f.second_user(xf))\n"
    "    x8 = torch.randn(2, 8, 10, 10)\n"
    "    runtest.keep('x8', x8)\n"
    "    runtest.keep('residuals', f.residuals(x8))\n"
    "    runtest.keep('padded', f.padded(x8))\n"
    "    runtest.keep('train', f.train(xf))\n"
    "    runtest.keep('resnet18', f.resnet18(xr))\n"
    "    xp = torch.randn(2, 3, 64, 64)\n"
    "    runtest.keep('xp', xp)\n"
    "    runtest.keep('pools', f.pools(xp))\n"
    "    xq = torch.randn(1, 8, 8, 8)\n"
    "    runtest.keep('xq', xq)\n"
    "    runtest.keep('pair', f.pair(xq))\n",
    "'" TEST_SRCDIR "'");

  kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_value);
  fx_script_register_module (S, "runtest", runtest_init, NULL, NULL);
  if (!fx_script_run_string (S, src, "<test-run>", NULL))
    {
      fx_script_print_exception (S);
      g_error ("reference script failed");
    }
  fx_script_free (S);
}

static const FxValue *
ref (const char *name)
{
  const FxValue *v = g_hash_table_lookup (kept, name);
  g_assert_nonnull (v);
  return v;
}

/* ---- comparison of value trees ---- */

static gboolean
values_close (const FxValue *a, const FxValue *b, GString *why)
{
  if (a->kind == FX_VALUE_TENSOR && b->kind == FX_VALUE_TENSOR)
    {
      const FxTensor *x = a->tensor, *y = b->tensor;
      if (x->ndim != y->ndim || x->dtype != y->dtype)
        {
          g_string_append_printf (why, "tensor rank/dtype differ");
          return FALSE;
        }
      for (int d = 0; d < x->ndim; d++)
        if (x->shape[d] != y->shape[d])
          {
            g_string_append_printf (why, "shape differs in dim %d", d);
            return FALSE;
          }
      for (int64_t i = 0; i < fx_tensor_numel (x); i++)
        {
          double p = fx_tensor_get_double (x, i), q = fx_tensor_get_double (y, i);
          if (fabs (p - q) > 1e-5 + 1e-5 * fabs (q))
            {
              g_string_append_printf (why, "element %" G_GINT64_FORMAT ": %g vs %g", i, p, q);
              return FALSE;
            }
        }
      return TRUE;
    }
  if ((a->kind == FX_VALUE_TUPLE || a->kind == FX_VALUE_LIST) && a->kind == b->kind)
    {
      if (a->seq->len != b->seq->len)
        {
          g_string_append (why, "lengths differ");
          return FALSE;
        }
      for (guint i = 0; i < a->seq->len; i++)
        if (!values_close (&a->seq->items[i], &b->seq->items[i], why))
          return FALSE;
      return TRUE;
    }
  if (a->kind == FX_VALUE_DICT && b->kind == FX_VALUE_DICT)
    {
      const FxValue *k, *v;
      if (fx_dict_len (a->dict) != fx_dict_len (b->dict))
        {
          g_string_append (why, "dict sizes differ");
          return FALSE;
        }
      for (guint i = 0; fx_dict_entry (a->dict, i, &k, &v); i++)
        {
          const FxValue *w = fx_dict_get (b->dict, k);
          if (w == NULL || !values_close (v, w, why))
            {
              g_string_append (why, w ? "" : "missing key");
              return FALSE;
            }
        }
      return TRUE;
    }
  if (!fx_value_equal (a, b))
    {
      g_autofree char *ra = fx_value_to_repr (a), *rb = fx_value_to_repr (b);
      g_string_append_printf (why, "%s != %s", ra, rb);
      return FALSE;
    }
  return TRUE;
}

static void
assert_close (const FxValue *got, const FxValue *want)
{
  g_autoptr (GString) why = g_string_new (NULL);
  if (!values_close (got, want, why))
    g_error ("results differ: %s", why->str);
}

static FxGraphModule *
trace_from (const char *path, const char *name, const char *const *leaves)
{
  GError *error = NULL;
  FxGraphModule *gm = fx_trace_file (path, name, NULL, leaves, &error);
  g_assert_no_error (error);
  return gm;
}

static FxGraphModule *
trace (const char *name, const char *const *leaves)
{
  return trace_from (models_path, name, leaves);
}

/* Runs name's traced GraphModule on args through a plan and through the C Interpreter,
 * and compares both with the script's result ref_name. */
static void
check_model (const char *name, const FxValue *args, int n_args, const FxDict *kwargs,
             const char *ref_name)
{
  g_autoptr (FxGraphModule) gm = trace (name, NULL);
  GError *error = NULL;
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, &error);
  g_auto (FxValue) r1 = { 0 };
  g_auto (FxValue) r2 = { 0 };

  g_assert_no_error (error);
  g_assert_true (fx_exec_plan_run (plan, args, n_args, kwargs, &r1, &error));
  g_assert_no_error (error);
  assert_close (&r1, ref (ref_name));
  /* A second run reuses the slots. */
  fx_value_clear (&r1);
  g_assert_true (fx_exec_plan_run (plan, args, n_args, kwargs, &r1, &error));
  assert_close (&r1, ref (ref_name));

  if (kwargs == NULL)
    {
      g_autoptr (FxInterpreter) interp = fx_interpreter_new (gm, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (fx_interpreter_run (interp, args, n_args, &r2, &error));
      g_assert_no_error (error);
      assert_close (&r2, ref (ref_name));
    }
}

static void
test_block (void)
{
  check_model ("block", ref ("x"), 1, NULL, "block");
}

static void
test_head (void)
{
  check_model ("head", ref ("x"), 1, NULL, "head");
}

/* get_attr and call_module targets are looked up at each run: replacing a parameter or a
 * submodule after compiling is seen by the plan. */
static void
test_replaced_attr (void)
{
  g_autoptr (FxGraphModule) gm = trace ("head", NULL);
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, NULL);
  g_auto (FxValue) r1 = { 0 };
  g_auto (FxValue) r2 = { 0 };
  int64_t four = 4;
  g_autoptr (FxTensor) zeros = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, &four);
  GError *error = NULL;

  g_assert_true (fx_exec_plan_run (plan, ref ("x"), 1, NULL, &r1, &error));
  assert_close (&r1, ref ("head"));
  /* scale = 0: every row is softmax(fc.bias) */
  fx_module_register_parameter (gm->module, "scale", zeros);
  g_assert_true (fx_exec_plan_run (plan, ref ("x"), 1, NULL, &r2, &error));
  g_assert_no_error (error);
  for (int j = 0; j < 3; j++)
    g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (r2.tensor, j),
                                    fx_tensor_get_double (r2.tensor, 3 + j), 1e-6);
  g_assert_cmpfloat (fabs (fx_tensor_get_double (r1.tensor, 0)
                           - fx_tensor_get_double (r2.tensor, 0)), >, 1e-6);

  /* a submodule replaced by another builtin layer */
  g_autoptr (FxModule) id = fx_layer_new ("Identity", NULL, 0, NULL, &error);
  g_assert_no_error (error);
  fx_module_add_module (gm->module, "fc", id);
  fx_value_clear (&r2);
  g_assert_true (fx_exec_plan_run (plan, ref ("x"), 1, NULL, &r2, &error));
  g_assert_no_error (error);
  g_assert_cmpint (r2.tensor->shape[1], ==, 4);
}

static void
test_chain (void)
{
  check_model ("chain", ref ("v"), 1, NULL, "chain");
}

static void
test_tuple_output (void)
{
  check_model ("split", ref ("v"), 1, NULL, "split");
}

static void
test_kwargs (void)
{
  FxValue args[3] = { *ref ("v"), *ref ("y"), fx_value_float (3.0) };
  g_autoptr (TestDict) kwargs = fx_dict_new ();

  fx_dict_set (kwargs, fx_value_str ("y"), fx_value_copy (ref ("y")));
  check_model ("kw", args, 1, kwargs, "kw");    /* default scale, y by keyword */
  check_model ("kw", args, 3, NULL, "kw3");     /* all positional */
}

static void
test_inplace (void)
{
  check_model ("inplace", ref ("v"), 1, NULL, "inplace");
  /* the input itself is left alone, as in the script */
  assert_close (ref ("v"), ref ("v_after"));
}

/* ---- errors ---- */

static void
test_errors (void)
{
  g_autoptr (FxGraphModule) gm = trace ("matmul", NULL);
  g_autoptr (FxGraphModule) kw = trace ("kw", NULL);
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, NULL);
  g_autoptr (FxExecPlan) kplan = fx_exec_plan_new (kw, NULL);
  int64_t s34[2] = { 3, 4 }, s54[2] = { 5, 4 };
  FxValue args[3] = {
    fx_value_take_tensor (fx_tensor_ones (FX_DTYPE_FLOAT32, 2, s34)),
    fx_value_take_tensor (fx_tensor_ones (FX_DTYPE_FLOAT32, 2, s54)),
    fx_value_none (),
  };
  FxValue result = fx_value_none ();
  GError *error = NULL;
  g_autoptr (TestDict) bad_kw = fx_dict_new ();

  g_assert_false (fx_exec_plan_run (plan, args, 1, NULL, &result, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "forward() missing 1 required positional argument: 'w'");
  g_clear_error (&error);

  g_assert_false (fx_exec_plan_run (plan, args, 3, NULL, &result, &error));
  g_assert_cmpstr (error->message, ==, "forward() takes 3 positional arguments but 4 were given");
  g_clear_error (&error);

  fx_dict_set (bad_kw, fx_value_str ("z"), fx_value_int (1));
  g_assert_false (fx_exec_plan_run (kplan, args, 2, bad_kw, &result, &error));
  g_assert_cmpstr (error->message, ==, "forward() got an unexpected keyword argument 'z'");
  g_clear_error (&error);

  /* (3, 4) @ (5, 4): the shape error names the node */
  g_assert_false (fx_exec_plan_run (plan, args, 2, NULL, &result, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message,
                                   "while running node 'matmul' (call_function operator.matmul): "));
  g_assert_cmpint (result.kind, ==, FX_VALUE_NONE);
  g_clear_error (&error);

  /* a 2-d input where Conv2d wants 3-d or 4-d: an error naming the module, no crash */
  {
    g_autoptr (FxGraphModule) block = trace ("block", NULL);
    g_autoptr (FxExecPlan) bp = fx_exec_plan_new (block, &error);
    g_assert_false (fx_exec_plan_run (bp, args, 1, NULL, &result, &error));
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error->message,
                                     "while running node 'conv1' (call_module conv1): "));
    g_clear_error (&error);
  }

  /* a user module kept as a leaf cannot run without its script */
  {
    const char *leaves[] = { "Leaf", NULL };
    g_autoptr (FxGraphModule) wl = trace ("with_leaf", leaves);
    g_autoptr (FxExecPlan) lp = fx_exec_plan_new (wl, &error);
    g_assert_no_error (error);
    g_assert_false (fx_exec_plan_run (lp, args, 1, NULL, &result, &error));
    g_assert_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED);
    g_assert_nonnull (strstr (error->message, "while running node 'leaf' (call_module leaf)"));
    g_assert_nonnull (strstr (error->message, "not a builtin layer"));
    g_clear_error (&error);
  }
  fx_value_clear (&args[0]);
  fx_value_clear (&args[1]);
}

/* graph(x): return x + k, as a GraphModule over an empty root. */
static FxGraphModule *
make_add_graph (int64_t k)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  g_autoptr (FxModule) root = fx_module_new ("Module");
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  FxValue add = fx_value_op (fx_op_lookup ("operator.add"));
  FxSeq *seq = fx_seq_new (2);
  seq->items[0] = fx_value_node (x);
  seq->items[1] = fx_value_int (k);
  FxValue args = fx_value_take_tuple (seq);
  FxValue out = fx_value_node (fx_graph_call_function (g, &add, &args, NULL, NULL));
  fx_graph_output (g, &out, NULL);
  fx_value_clear (&args);
  return fx_graph_module_new (root, g, NULL, NULL);
}

/* A graph whose node uses a later node is refused when compiled. */
static void
test_bad_graph (void)
{
  g_autoptr (FxGraphModule) gm = make_add_graph (1);
  FxNode *x = fx_graph_first (gm->graph), *a = fx_node_next (x);
  GError *error = NULL;

  /* move the add before the placeholder */
  fx_node_prepend (x, a);
  g_assert_null (fx_exec_plan_new (gm, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_GRAPH);
  g_assert_nonnull (strstr (error->message, "'add' uses 'x'"));
  g_clear_error (&error);
}

/* ---- the plan cached on the GraphModule ---- */

static void
test_cache (void)
{
  g_autoptr (FxGraphModule) gm = trace ("chain", NULL);
  GError *error = NULL;
  g_auto (FxValue) r1 = { 0 };
  g_auto (FxValue) r2 = { 0 };
  g_auto (FxValue) r3 = { 0 };
  g_autoptr (FxExecPlan) p1 = NULL;
  g_autoptr (FxExecPlan) p2 = NULL;

  g_assert_true (fx_graph_module_call (gm, ref ("v"), 1, NULL, &r1, &error));
  g_assert_no_error (error);
  assert_close (&r1, ref ("chain"));
  p1 = fx_graph_module_get_plan (gm, NULL);
  g_assert_true (p1 == gm->exec_cache);

  /* return the first add instead: until recompile() the GraphModule runs its old code */
  FxNode *first = fx_graph_find_node_by_name (gm->graph, "add");
  FxNode *output = fx_graph_last (gm->graph);
  FxValue node = fx_value_node (first);
  FxSeq *seq = fx_seq_new (1);
  seq->items[0] = node;
  FxValue out_args = fx_value_take_tuple (seq);
  fx_node_set_args (output, &out_args);
  fx_value_clear (&out_args);
  fx_graph_eliminate_dead_code (gm->graph, NULL);
  g_assert_true (fx_graph_module_call (gm, ref ("v"), 1, NULL, &r2, &error));
  assert_close (&r2, ref ("chain"));

  fx_graph_module_recompile (gm);
  g_assert_null (gm->exec_cache);
  g_assert_true (fx_graph_module_call (gm, ref ("v"), 1, NULL, &r3, &error));
  g_assert_no_error (error);
  p2 = fx_graph_module_get_plan (gm, NULL);
  g_assert_true (p2 != p1);
  g_assert_cmpuint (fx_exec_plan_n_nodes (p2), ==, 3);
  /* v + 1.5 */
  const FxTensor *v = ref ("v")->tensor;
  for (int64_t i = 0; i < fx_tensor_numel (v); i++)
    g_assert_cmpfloat_with_epsilon (fx_tensor_get_double (r3.tensor, i),
                                    fx_tensor_get_double (v, i) + 1.5, 1e-6);
}

/* ---- profile ---- */

static void
test_profile (void)
{
  g_autoptr (FxGraphModule) gm = trace ("block", NULL);
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, NULL);
  FxExecNodeProfile p;
  double total = 0;

  fx_exec_plan_set_profiling (plan, TRUE);
  for (int i = 0; i < 3; i++)
    {
      g_auto (FxValue) r = { 0 };
      g_assert_true (fx_exec_plan_run (plan, ref ("x"), 1, NULL, &r, NULL));
    }
  g_assert_cmpuint (fx_exec_plan_n_nodes (plan), ==, 9);
  for (guint i = 0; i < fx_exec_plan_n_nodes (plan); i++)
    {
      g_assert_true (fx_exec_plan_get_node_profile (plan, i, &p));
      /* conv1 → bn1 → relu and conv2 → bn2 → add → relu_1 run fused: only x, the convs and
       * the output run as themselves */
      gboolean fused = !g_str_equal (p.name, "x") && !g_str_equal (p.name, "conv1")
                       && !g_str_equal (p.name, "conv2") && !g_str_equal (p.name, "output");
      g_assert_cmpuint (p.calls, ==, fused ? 0 : 3);
      g_assert_true (fused == (p.fused_into != NULL));
      /* the fastest of the calls: no more than their mean, none without calls */
      g_assert_cmpfloat (p.best_us, <=, p.calls ? p.total_us / (double) p.calls + 1e-9 : 0.0);
      g_assert_true (p.calls == 0 || p.best_us > 0);
      total += p.total_us;
    }
  g_assert_true (fx_exec_plan_get_node_profile (plan, 1, &p));
  g_assert_cmpstr (p.name, ==, "conv1");
  g_assert_cmpstr (p.target, ==, "conv1");
  g_assert_cmpint (p.op, ==, FX_OP_CALL_MODULE);
  g_assert_cmpfloat (total, >, 0);
  g_assert_false (fx_exec_plan_get_node_profile (plan, 9, &p));
  g_autofree char *table = fx_exec_plan_format_profile (plan);
  g_assert_nonnull (strstr (table, "operator.add"));
  g_assert_nonnull (strstr (table, "total "));
  g_assert_nonnull (strstr (table, "best us"));
  g_assert_nonnull (strstr (table, "2 conv→batchnorm(→add)(→relu) chains ran as one step"));
}

/* ---- Conv2d → BatchNorm2d (→ ReLU) fusion ---- */

static const char *fuse_models_path = TEST_SRCDIR "/run_fuse_models.py";

static guint64
node_calls (FxExecPlan *plan, const char *name)
{
  FxExecNodeProfile p;
  for (guint i = 0; fx_exec_plan_get_node_profile (plan, i, &p); i++)
    if (g_str_equal (p.name, name))
      return p.calls;
  g_error ("no node %s", name);
  return 0;
}

/* Every node of names (NULL-terminated) ran inside a chain: no call of its own. */
static void
assert_fused_nodes (FxExecPlan *plan, const char *const *names)
{
  for (; *names != NULL; names++)
    g_assert_cmpuint (node_calls (plan, *names), ==, 0);
}

static FxValue
run_once (FxExecPlan *plan, const FxValue *x)
{
  GError *error = NULL;
  FxValue r;
  gboolean ok = fx_exec_plan_run (plan, x, 1, NULL, &r, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (r.kind, ==, FX_VALUE_TENSOR);
  return r;
}

static void
assert_same_bits (const FxValue *a, const FxValue *b)
{
  g_assert_cmpint (fx_tensor_numel (a->tensor), ==, fx_tensor_numel (b->tensor));
  g_assert_true (fx_tensor_is_contiguous (a->tensor) && fx_tensor_is_contiguous (b->tensor));
  g_assert_cmpmem (fx_tensor_data (a->tensor), fx_tensor_numel (a->tensor) * 4,
                   fx_tensor_data (b->tensor), fx_tensor_numel (b->tensor) * 4);
}

/* name through a profiled plan: equal to the script's eager result, bit-equal to the same
 * plan with fusion off; n_chains chains found. Returns the plan (profile of one fused run). */
static FxExecPlan *
check_fused_model (const char *name, const char *input, guint n_chains, FxGraphModule **gm_out)
{
  FxGraphModule *gm = trace_from (fuse_models_path, name, NULL);
  GError *error = NULL;
  FxExecPlan *plan = fx_exec_plan_new (gm, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_exec_plan_n_fused (plan), ==, n_chains);

  fx_exec_plan_set_profiling (plan, TRUE);
  g_auto (FxValue) fused = run_once (plan, ref (input));
  assert_close (&fused, ref (name));
  fx_exec_plan_set_fusion (plan, FALSE);
  fx_exec_plan_set_profiling (plan, FALSE);
  g_auto (FxValue) plain = run_once (plan, ref (input));
  assert_same_bits (&fused, &plain);
  fx_exec_plan_set_fusion (plan, TRUE);
  *gm_out = gm;
  return plan;
}

/* Each ReLU spelling, conv bias / stride / groups / 'same', affine=False, a pair without
 * ReLU, and a reflect-padded conv that must not fuse. */
static void
test_fuse_spellings (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("spellings", "xf", 5, &gm);
  assert_fused_nodes (plan, (const char *const[]) { "bn1", "relu", "bn2", "relu_1", "bn3",
                                                    "relu_2", "bn4", NULL });
  g_assert_cmpuint (node_calls (plan, "conv1"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "add"), ==, 0);   /* bn4 + x: the residual */
  /* padding_mode='reflect': found when compiling, run node by node */
  g_assert_cmpuint (node_calls (plan, "bn5"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "relu_3"), ==, 1);
  g_autofree char *table = fx_exec_plan_format_profile (plan);
  g_assert_nonnull (strstr (table, "ran as one step"));

  /* the Interpreter runs every node itself, with the same result */
  GError *error = NULL;
  g_autoptr (FxInterpreter) interp = fx_interpreter_new (gm, NULL, NULL, &error);
  g_auto (FxValue) r = { 0 };
  g_assert_true (fx_interpreter_run (interp, ref ("xf"), 1, &r, &error));
  g_assert_no_error (error);
  assert_close (&r, ref ("spellings"));
}

/* BatchNorm state is read at each run: running_mean replaced, running_var edited in place,
 * then eval → train → eval. */
static void
test_fuse_state_changes (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("spellings", "xf", 5, &gm);
  GError *error = NULL;
  FxModule *bn1 = fx_module_get_submodule (gm->module, "bn1", &error);
  g_assert_no_error (error);
  g_auto (FxValue) before = run_once (plan, ref ("xf"));
  int64_t eight = 8;
  g_autoptr (FxTensor) mean = fx_tensor_full (FX_DTYPE_FLOAT32, 1, &eight, 0.75);
  fx_module_register_buffer (bn1, "running_mean", mean, TRUE);
  FxValue var;
  g_assert_true (fx_module_get_attr (gm->module, "bn2.running_var", &var, &error));
  g_autoptr (FxTensor) two = fx_tensor_full (FX_DTYPE_FLOAT32, 1, &eight, 2.0);
  g_assert_true (fx_tensor_copy_into (var.tensor, two, &error));
  fx_value_clear (&var);

  g_auto (FxValue) fused = run_once (plan, ref ("xf"));
  fx_exec_plan_set_fusion (plan, FALSE);
  g_auto (FxValue) plain = run_once (plan, ref ("xf"));
  fx_exec_plan_set_fusion (plan, TRUE);
  assert_same_bits (&fused, &plain);
  g_autoptr (GString) why = g_string_new (NULL);
  g_assert_false (values_close (&fused, &before, why));

  /* training mode: batch statistics, not fused; back in eval mode: fused again */
  fx_exec_plan_set_profiling (plan, FALSE);
  fx_exec_plan_set_profiling (plan, TRUE);
  bn1->training = TRUE;
  g_auto (FxValue) trained = run_once (plan, ref ("xf"));
  g_assert_cmpint (trained.kind, ==, FX_VALUE_TENSOR);
  g_assert_cmpuint (node_calls (plan, "bn1"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "bn2"), ==, 0);
  bn1->training = FALSE;
  fx_exec_plan_reset_profile (plan);
  g_auto (FxValue) again = run_once (plan, ref ("xf"));
  g_assert_cmpuint (node_calls (plan, "bn1"), ==, 0);
  fx_exec_plan_set_fusion (plan, FALSE);
  g_auto (FxValue) again_plain = run_once (plan, ref ("xf"));
  assert_same_bits (&again, &again_plain);
}

/* A fused run against the same plan run node by node: the same bits, every chain fused. */
static void
assert_fused_as_plain (FxExecPlan *plan, const FxValue *x, const FxValue *differs_from)
{
  fx_exec_plan_reset_profile (plan);
  g_auto (FxValue) fused = run_once (plan, x);
  for (int i = 1; i <= 4; i++)
    {
      g_autofree char *bn = g_strdup_printf ("bn%d", i);
      g_assert_cmpuint (node_calls (plan, bn), ==, 0);
    }
  fx_exec_plan_set_fusion (plan, FALSE);
  g_auto (FxValue) plain = run_once (plan, x);
  fx_exec_plan_set_fusion (plan, TRUE);
  assert_same_bits (&fused, &plain);
  if (differs_from != NULL)
    {
      g_autoptr (GString) why = g_string_new (NULL);
      g_assert_false (values_close (&fused, differs_from, why));
    }
}

/* Runs find modules and their attributes through the dict positions earlier runs noted
 * (exec.c's path spots, fuse.c's): each change between runs is still seen, as if every run
 * looked everything up — a value replaced in place, a name moved to another table, a module
 * replaced at its path, entries moved by the compaction after a removal. */
static void
test_fuse_spots (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("spellings", "xf", 5, &gm);
  const FxValue *x = ref ("xf");
  GError *error = NULL;
  FxModule *conv3 = fx_module_get_submodule (gm->module, "conv3", &error);
  g_assert_no_error (error);
  g_auto (FxValue) first = run_once (plan, x);

  /* conv3.weight replaced: the same keys, a new value in the parameter's entry */
  int64_t w_shape[4] = { 8, 8, 1, 1 };
  g_autoptr (FxTensor) w = fx_tensor_full (FX_DTYPE_FLOAT32, 4, w_shape, 0.125);
  fx_module_register_parameter (conv3, "weight", w);
  assert_fused_as_plain (plan, x, &first);

  /* conv3.bias becomes a plain attribute (out of parameters, into attributes, which come
   * first): both tables' keys change */
  g_auto (FxValue) before_bias = run_once (plan, x);
  int64_t eight = 8;
  g_auto (FxValue) bias = fx_value_take_tensor (fx_tensor_full (FX_DTYPE_FLOAT32, 1, &eight, 2.0));
  fx_module_set_attribute (conv3, "bias", &bias);
  assert_fused_as_plain (plan, x, &before_bias);

  /* conv1 replaced at its path by another Conv2d: the root's children keep their keys */
  g_auto (FxValue) before_conv = run_once (plan, x);
  FxValue args[5] = { fx_value_int (4), fx_value_int (8), fx_value_int (3), fx_value_int (2),
                      fx_value_int (1) };   /* in, out, kernel, stride, padding */
  g_autoptr (FxModule) conv1 = fx_layer_new ("Conv2d", args, 5, NULL, &error);
  g_assert_no_error (error);
  fx_module_add_module (gm->module, "conv1", conv1);
  assert_fused_as_plain (plan, x, &before_conv);

  /* a name conv1's chain does not read, removed: a hole before stride, padding and
   * dilation; a run notes their places; iterating the dict then closes the hole and moves
   * them (stale places would read padding as the stride, or a bool as the dilation) */
  FxValue kernel_size = fx_value_str ("kernel_size");
  g_assert_true (fx_dict_remove (conv1->attributes, &kernel_size));
  fx_value_clear (&kernel_size);
  assert_fused_as_plain (plan, x, NULL);
  const FxValue *k, *v;
  g_assert_true (fx_dict_entry (conv1->attributes, 0, &k, &v));
  assert_fused_as_plain (plan, x, NULL);
}

/* Residual adds: every spelling that rides along in the epilogue, and the adds that must
 * not (in place into the residual, a broadcast residual, a constant). */
static void
test_fuse_residuals (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("residuals", "x8", 9, &gm);
  assert_fused_nodes (plan, (const char *const[]) { "add", "relu", "add_1", "relu_1", "add_2",
                                                    "relu_", "add_3", "add_4", "add_", "relu_2",
                                                    "bn7", "bn9", NULL });
  /* relu_2.add_(bn7) writes into the residual: bn7 fused, the add runs itself */
  g_assert_cmpuint (node_calls (plan, "add__1"), ==, 1);
  /* + mean ([2, 8, 1, 1]): the chain is found, but the residual does not fit at run time */
  g_assert_cmpuint (node_calls (plan, "bn8"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "add_5"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "add_6"), ==, 1);
}

/* The conv's output also feeds a later node: no chain, still right. */
static void
test_fuse_second_user (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("second_user", "xf", 0, &gm);
  g_assert_cmpuint (node_calls (plan, "bn"), ==, 1);
}

/* A training-mode BatchNorm: the chain is found but runs node by node. */
static void
test_fuse_training (void)
{
  g_autoptr (FxGraphModule) gm = trace_from (fuse_models_path, "train", NULL);
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, NULL);
  g_assert_cmpuint (fx_exec_plan_n_fused (plan), ==, 1);
  fx_exec_plan_set_profiling (plan, TRUE);
  g_auto (FxValue) r = run_once (plan, ref ("xf"));
  assert_close (&r, ref ("train"));
  g_assert_cmpuint (node_calls (plan, "bn"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "relu"), ==, 1);
}

/* torchvision's resnet18 with random BatchNorm state: 20 chains (stem, 2 per block, 3
 * downsample pairs), the second of each block (or its downsample) with the residual add
 * and ReLU. */
static void
test_fuse_resnet18 (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("resnet18", "xr", 20, &gm);
  g_assert_cmpuint (node_calls (plan, "bn1"), ==, 0);
  g_assert_cmpuint (node_calls (plan, "layer2_0_downsample_1"), ==, 0);
  g_assert_cmpuint (node_calls (plan, "add"), ==, 0);
  g_assert_cmpuint (node_calls (plan, "layer2_0_relu_1"), ==, 0);
  g_assert_cmpuint (node_calls (plan, "maxpool"), ==, 0);   /* pooled with the stem */
  /* gm(x) through the cached plan fuses too */
  g_auto (FxValue) r = { 0 };
  GError *error = NULL;
  g_assert_true (fx_graph_module_call (gm, ref ("xr"), 1, NULL, &r, &error));
  g_assert_no_error (error);
  assert_close (&r, ref ("resnet18"));
}

/* Chains ending in a MaxPool2d: the stem's pooled as its rows are made, the others by the
 * plain path (conv, then max_pool2d), all bit for bit as node by node; a pool that returns
 * indices leaves its chain to run node by node. */
static void
test_fuse_pools (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("pools", "xp", 4, &gm);
  assert_fused_nodes (plan, (const char *const[]) { "bn1", "relu", "pool1", "bn2", "pool2",
                                                    "bn3", "relu_1", "pool3", NULL });
  g_assert_cmpuint (node_calls (plan, "bn4"), ==, 1);
  g_assert_cmpuint (node_calls (plan, "pool4"), ==, 1);
}

/* conv3 → bn3 and downsample → bn → add → relu as one step (fx_tensor_conv2d_fused_pair):
 * the same bits as node by node, no call on the second chain's nodes. */
static void
test_fuse_pair (void)
{
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxExecPlan) plan = check_fused_model ("pair", "xq", 3, &gm);
  assert_fused_nodes (plan, (const char *const[]) { "bn3", "downsample_0", "downsample_1",
                                                    "add", "relu_1", NULL });
  g_assert_cmpuint (node_calls (plan, "conv3"), ==, 1);
}

/* Chains whose values only chains read get them with planes padded to whole cache lines
 * (10×10: 100 floats → 112): the same bits as without fusion, and the graph's output is
 * contiguous. (tests/script/cases/fx_run_padded_planes.py: a chain falling back to its
 * nodes.) */
static void
test_fuse_padded_planes (void)
{
  g_autoptr (FxGraphModule) gm = trace_from (fuse_models_path, "padded", NULL);
  GError *error = NULL;
  g_autoptr (FxExecPlan) plan = fx_exec_plan_new (gm, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_exec_plan_n_fused (plan), ==, 3);
  g_auto (FxValue) fused = run_once (plan, ref ("x8"));
  assert_close (&fused, ref ("padded"));
  g_assert_true (fx_tensor_is_contiguous (fused.tensor));
  fx_exec_plan_set_fusion (plan, FALSE);
  g_auto (FxValue) plain = run_once (plan, ref ("x8"));
  assert_same_bits (&fused, &plain);
}

/* ---- Interpreter hooks from C ---- */

static int n_calls;

static gboolean
add_to_mul (FxInterpreter *interp, FxNode *node, const FxValue *target, const FxValue *args,
            int n_args, const FxDict *kwargs, FxValue *result, GError **error)
{
  n_calls++;
  if (target->kind == FX_VALUE_OP && target->op == fx_op_lookup ("operator.add"))
    return fx_op_call (fx_op_lookup ("operator.mul"), args, n_args, kwargs, result, error);
  return fx_interpreter_default_call_function (interp, node, target, args, n_args, kwargs,
                                               result, error);
}

static gboolean
count_nodes (FxInterpreter *interp, FxNode *node, FxValue *result, GError **error)
{
  (*(int *) interp->user_data)++;
  return fx_interpreter_default_run_node (interp, node, result, error);
}

static void
test_interpreter_override (void)
{
  g_autoptr (FxGraphModule) gm = make_add_graph (5);
  FxInterpreterClass klass = { .call_function = add_to_mul, .run_node = count_nodes };
  int visited = 0;
  GError *error = NULL;
  g_autoptr (FxInterpreter) plain = fx_interpreter_new (gm, NULL, NULL, &error);
  g_autoptr (FxInterpreter) swapped = fx_interpreter_new (gm, &klass, &visited, &error);
  FxValue three = fx_value_int (3);
  g_auto (FxValue) r1 = { 0 };
  g_auto (FxValue) r2 = { 0 };
  g_auto (FxValue) r3 = { 0 };

  g_assert_true (fx_interpreter_run (plain, &three, 1, &r1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (r1.kind, ==, FX_VALUE_INT);
  g_assert_cmpint (r1.i, ==, 8);
  g_assert_true (fx_interpreter_run (swapped, &three, 1, &r2, &error));
  g_assert_cmpint (r2.i, ==, 15);
  g_assert_cmpint (n_calls, ==, 1);
  g_assert_cmpint (visited, ==, 3);
  /* the plan of the same module is unaffected */
  g_assert_true (fx_graph_module_call (gm, &three, 1, NULL, &r3, &error));
  g_assert_cmpint (r3.i, ==, 8);

  /* a missing input: torch's placeholder message */
  g_auto (FxValue) r4 = { 0 };
  g_assert_false (fx_interpreter_run (plain, NULL, 0, &r4, &error));
  g_assert_nonnull (strstr (error->message,
                            "Expected positional argument for parameter x, but one was not passed in!"));
  g_clear_error (&error);
}

static FxNode *
binary_node (FxGraph *g, const char *op, FxValue lhs, FxValue rhs)
{
  FxValue target = fx_value_op (fx_op_lookup (op));
  FxSeq *seq = fx_seq_new (2);
  seq->items[0] = lhs;
  seq->items[1] = rhs;
  g_auto (FxValue) args = fx_value_take_tuple (seq);
  return fx_graph_call_function (g, &target, &args, NULL, NULL);
}

/* Interpreter.run(..., initial_env=...): partial evaluation as torch.fx 1.13 does it, on
 * f(x, y) = (x + 1) * 2 + y. The expected values are 1.13's for the same calls (tensors there):
 * add given 10 → 21 with (0, 1); x given 5 → y takes the first input: 15 with (3,); the output
 * node given → None; x given and no inputs → y's missing-input error. */
static void
test_interpreter_initial_env (void)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  g_autoptr (FxModule) root = fx_module_new ("Module");
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  FxNode *y = fx_graph_placeholder (g, "y", NULL, NULL);
  FxNode *add = binary_node (g, "operator.add", fx_value_node (x), fx_value_int (1));
  FxNode *mul = binary_node (g, "operator.mul", fx_value_node (add), fx_value_int (2));
  FxValue sum = fx_value_node (binary_node (g, "operator.add", fx_value_node (mul), fx_value_node (y)));
  FxNode *output = fx_graph_output (g, &sum, NULL);
  g_autoptr (FxGraphModule) gm = fx_graph_module_new (root, g, NULL, NULL);
  GError *error = NULL;
  g_autoptr (FxInterpreter) interp = fx_interpreter_new (gm, NULL, NULL, &error);
  g_assert_no_error (error);
  FxValue inputs[2] = { fx_value_int (0), fx_value_int (1) };
  FxValue ten = fx_value_int (10), five = fx_value_int (5), three = fx_value_int (3);
  FxValue r = { 0 };

  g_assert_true (fx_interpreter_run_with_env (interp, inputs, 2, &add, &ten, 1, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpint (r.kind, ==, FX_VALUE_INT);
  g_assert_cmpint (r.i, ==, 21);
  fx_value_clear (&r);

  g_assert_true (fx_interpreter_run_with_env (interp, &three, 1, &x, &five, 1, &r, &error));
  g_assert_cmpint (r.i, ==, 15);
  fx_value_clear (&r);

  g_assert_true (fx_interpreter_run_with_env (interp, inputs, 2, &output, &five, 1, &r, &error));
  g_assert_cmpint (r.kind, ==, FX_VALUE_NONE);

  g_assert_false (fx_interpreter_run_with_env (interp, NULL, 0, &x, &five, 1, &r, &error));
  g_assert_nonnull (strstr (error->message,
                            "Expected positional argument for parameter y, but one was not passed in!"));
  g_clear_error (&error);

  /* Without initial_env the same interpreter runs everything: (0 + 1) * 2 + 1. */
  g_assert_true (fx_interpreter_run (interp, inputs, 2, &r, &error));
  g_assert_cmpint (r.i, ==, 3);
  fx_value_clear (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  models_path = TEST_SRCDIR "/run_models.py";
  run_reference ();
  g_test_add_func ("/run/block", test_block);
  g_test_add_func ("/run/head", test_head);
  g_test_add_func ("/run/replaced-attr", test_replaced_attr);
  g_test_add_func ("/run/chain", test_chain);
  g_test_add_func ("/run/tuple-output", test_tuple_output);
  g_test_add_func ("/run/kwargs", test_kwargs);
  g_test_add_func ("/run/inplace", test_inplace);
  g_test_add_func ("/run/errors", test_errors);
  g_test_add_func ("/run/bad-graph", test_bad_graph);
  g_test_add_func ("/run/cache", test_cache);
  g_test_add_func ("/run/profile", test_profile);
  g_test_add_func ("/run/interpreter-override", test_interpreter_override);
  g_test_add_func ("/run/interpreter-initial-env", test_interpreter_initial_env);
  g_test_add_func ("/run/fuse/spellings", test_fuse_spellings);
  g_test_add_func ("/run/fuse/state-changes", test_fuse_state_changes);
  g_test_add_func ("/run/fuse/spots", test_fuse_spots);
  g_test_add_func ("/run/fuse/residuals", test_fuse_residuals);
  g_test_add_func ("/run/fuse/second-user", test_fuse_second_user);
  g_test_add_func ("/run/fuse/training", test_fuse_training);
  g_test_add_func ("/run/fuse/resnet18", test_fuse_resnet18);
  g_test_add_func ("/run/fuse/pools", test_fuse_pools);
  g_test_add_func ("/run/fuse/pair", test_fuse_pair);
  g_test_add_func ("/run/fuse/padded-planes", test_fuse_padded_planes);
  int r = g_test_run ();
  g_hash_table_unref (kept);
  return r;
}
