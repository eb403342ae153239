/* test-passes.c: libfx's C graph passes (core/rewrite/passes.h) on models traced with
 * fx_trace_file() from conformance/passes/models/pass_models.py: the generated code after
 * each pass must be what torch 1.13 generated (goldens/passes/c_*.code, gen_passes.py), and
 * the folded weights and constants must compute what the original modules computed. */
#include "fx.h"
#include "rewrite/passes.h"
#include "trace/trace.h"

#include <math.h>
#include <string.h>

static char *models_path;
static char *goldens_dir;

static FxGraphModule *
trace (const char *name)
{
  g_autoptr (GError) error = NULL;
  FxGraphModule *gm = fx_trace_file (models_path, name, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  return gm;
}

static char *
golden (const char *file)
{
  g_autofree char *path = g_build_filename (goldens_dir, file, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
assert_code (FxGraphModule *gm, const char *file)
{
  g_autofree char *expected = golden (file);
  g_assert_cmpstr (gm->code, ==, expected);
}

/* A deterministic input with varied values. */
static FxTensor *
input (int ndim, const int64_t *shape)
{
  FxTensor *t = fx_tensor_zeros (FX_DTYPE_FLOAT32, ndim, shape);
  float *d = fx_tensor_data (t);
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  for (int64_t i = 0; i < n; i++)
    d[i] = (float) sin (0.37 * (double) i + 0.1);
  return t;
}

static FxValue
forward (FxModule *m, FxTensor *x)
{
  g_autoptr (GError) error = NULL;
  FxValue arg = fx_value_tensor (x), out = fx_value_none ();
  g_assert_true (fx_module_forward_layer (m, &arg, 1, NULL, &out, &error));
  g_assert_no_error (error);
  fx_value_clear (&arg);
  g_assert_cmpint (out.kind, ==, FX_VALUE_TENSOR);
  return out;
}

static void
assert_close (FxTensor *a, FxTensor *b, double rtol, double atol)
{
  g_autoptr (GError) error = NULL;
  gboolean close = FALSE;
  g_assert_true (fx_tensor_allclose (a, b, rtol, atol, FALSE, &close, &error));
  g_assert_no_error (error);
  g_assert_true (close);
}

static FxModule *
submodule (FxGraphModule *gm, const char *path)
{
  FxModule *m = fx_module_get_submodule (gm->module, path, NULL);
  g_assert_nonnull (m);
  return m;
}

static void
test_fuse_resnet (void)
{
  g_autoptr (FxGraphModule) gm = trace ("resnet");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  guint n = 0;

  g_assert_true (fx_pass_fuse_conv_bn (gm, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 20);
  assert_code (gm, "c_resnet_fuse.code");
  fx_module_named_modules (gm->module, names, modules);
  for (guint i = 0; i < modules->len; i++)
    g_assert_null (strstr (((FxModule *) modules->pdata[i])->type_name, "BatchNorm"));
  g_assert_true (fx_graph_lint (gm->graph, &error));
  g_assert_no_error (error);
}

static void
test_fuse_cases (void)
{
  g_autoptr (FxGraphModule) original = trace ("conv_bn");
  g_autoptr (FxGraphModule) gm = trace ("conv_bn");
  g_autoptr (GError) error = NULL;
  static const int64_t shape1[] = { 2, 3, 10 }, shape2[] = { 2, 3, 8, 8 };
  static const struct { const char *conv, *bn; int ndim; const int64_t *shape; } pairs[] = {
    { "c1", "b1", 3, shape1 }, { "c2", "b2", 4, shape2 },
  };
  guint n = 0;

  g_assert_true (fx_pass_fuse_conv_bn (gm, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);     /* c3's output has two users; b4 keeps no stats */
  assert_code (gm, "c_conv_bn_fuse.code");
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr (FxTensor) x = input (pairs[i].ndim, pairs[i].shape);
      g_auto (FxValue) y = forward (submodule (original, pairs[i].conv), x);
      g_auto (FxValue) want = forward (submodule (original, pairs[i].bn), y.tensor);
      g_auto (FxValue) got = forward (submodule (gm, pairs[i].conv), x);
      assert_close (got.tensor, want.tensor, 1e-4, 1e-5);
      /* the original's module is left alone (1.13 fuses a copy) */
      g_assert_true (submodule (gm, pairs[i].conv) != submodule (original, pairs[i].conv));
    }
  g_assert_null (fx_module_get_submodule (gm->module, "b1", NULL));
  g_assert_nonnull (fx_module_get_submodule (gm->module, "b3", NULL));
}

static void
test_fuse_training (void)
{
  g_autoptr (FxGraphModule) gm = trace ("conv_bn");
  g_autoptr (GError) error = NULL;

  fx_module_train (gm->module, TRUE);
  g_assert_false (fx_pass_fuse_conv_bn (gm, NULL, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_ASSERTION);
  g_assert_cmpstr (error->message, ==, "Fusion only for eval!");
}

static void
test_dce (void)
{
  g_autoptr (FxGraphModule) gm = trace ("dead");
  g_autoptr (GError) error = NULL;
  g_autofree char *changed_text = golden ("c_dead_dce.changed");
  gboolean changed = FALSE;

  g_assert_true (fx_pass_eliminate_dead_code (gm, &changed, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (changed ? "True\n" : "False\n", ==, changed_text);
  assert_code (gm, "c_dead_dce.code");
  g_assert_true (fx_pass_eliminate_dead_code (gm, &changed, &error));
  g_assert_false (changed);
}

/* 1.13's Node.is_impure: a called module with a true _is_impure attribute stays. */
static void
test_dce_impure_module (void)
{
  g_autoptr (FxGraphModule) gm = trace ("dead");
  g_autoptr (GError) error = NULL;
  FxValue yes = fx_value_bool (TRUE);
  g_autoptr (GPtrArray) calls = NULL;
  FxValue target = fx_value_str ("lin");

  fx_module_set_attribute (submodule (gm, "lin"), "_is_impure", &yes);
  g_assert_true (fx_pass_eliminate_dead_code (gm, NULL, &error));
  g_assert_no_error (error);
  calls = fx_graph_find_nodes (gm->graph, FX_OP_CALL_MODULE, &target);
  g_assert_cmpuint (calls->len, ==, 1);
  g_assert_null (fx_graph_find_node_by_name (gm->graph, "add_"));
  fx_value_clear (&target);
}

static FxTensor *
param (FxModule *m, const char *name)
{
  FxValue key = fx_value_str (name);
  FxValue *v = fx_dict_get (m->parameters, &key);
  fx_value_clear (&key);
  g_assert_nonnull (v);
  g_assert_cmpint (v->kind, ==, FX_VALUE_TENSOR);
  return v->tensor;
}

static void
test_fold (void)
{
  g_autoptr (FxGraphModule) original = trace ("folding");
  g_autoptr (FxGraphModule) gm = trace ("folding");
  g_autoptr (GError) error = NULL;
  g_autofree char *check = golden ("c_folding_fold.check");
  FxModule *list;
  FxValue w, s, lin_out;
  g_autoptr (FxTensor) wt = NULL, w2 = NULL;
  guint n = 0;

  g_assert_cmpstr (check, ==, "True\n");
  g_assert_true (fx_pass_fold_constants (gm, NULL, NULL, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);           /* t, mul, lin(c) */
  assert_code (gm, "c_folding_fold.code");
  g_assert_true (fx_graph_lint (gm->graph, &error));
  g_assert_no_error (error);

  /* _FX_CONST_FOLDED_ATTRS.0 is w.t() * s, .1 is lin(c) */
  list = submodule (gm, "_FX_CONST_FOLDED_ATTRS");
  g_assert_true (fx_module_get_attr (original->module, "w", &w, NULL));
  g_assert_true (fx_module_get_attr (original->module, "s", &s, NULL));
  wt = fx_tensor_t (w.tensor, &error);
  w2 = fx_tensor_mul (wt, s.tensor, &error);
  assert_close (param (list, "0"), w2, 0, 0);
  g_assert_true (param (list, "0")->requires_grad);
  lin_out = forward (submodule (original, "lin"), param (original->module, "c"));
  assert_close (param (list, "1"), lin_out.tensor, 0, 0);
  /* what only the constant part read is gone; what the rest reads stays */
  g_assert_cmpint (fx_module_attr_kind (gm->module, "w"), ==, 0);
  g_assert_cmpint (fx_module_attr_kind (gm->module, "s"), ==, 0);
  g_assert_cmpint (fx_module_attr_kind (gm->module, "d"), ==, 'p');
  fx_value_clear (&w);
  fx_value_clear (&s);
  fx_value_clear (&lin_out);
}

static void
test_fold_one (void)
{
  g_autoptr (FxGraphModule) gm = trace ("fold_one");
  g_autoptr (GError) error = NULL;
  guint n = 0;

  g_assert_true (fx_pass_fold_constants (gm, NULL, NULL, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 1);
  assert_code (gm, "c_fold_one_fold.code");
  g_assert_cmpint (fx_module_attr_kind (gm->module, "_FX_CONST_FOLDED_ATTRS"), ==, 'p');
}

static gboolean
skip_all (FxNode *node, gpointer user_data)
{
  (void) node; (void) user_data;
  return TRUE;
}

static void
test_fold_skip (void)
{
  g_autoptr (FxGraphModule) gm = trace ("fold_one");
  g_autoptr (GError) error = NULL;
  g_autofree char *before = g_strdup (gm->code);
  guint n = 1;

  g_assert_true (fx_pass_fold_constants (gm, skip_all, NULL, &n, &error));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpstr (gm->code, ==, before);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  models_path = g_test_build_filename (G_TEST_DIST, "conformance", "passes", "models",
                                       "pass_models.py", NULL);
  goldens_dir = g_test_build_filename (G_TEST_DIST, "conformance", "goldens", "passes",
                                       NULL);
  g_test_add_func ("/passes/fuse/resnet18", test_fuse_resnet);
  g_test_add_func ("/passes/fuse/cases", test_fuse_cases);
  g_test_add_func ("/passes/fuse/training", test_fuse_training);
  g_test_add_func ("/passes/dce/torch", test_dce);
  g_test_add_func ("/passes/dce/impure-module", test_dce_impure_module);
  g_test_add_func ("/passes/fold/several", test_fold);
  g_test_add_func ("/passes/fold/one", test_fold_one);
  g_test_add_func ("/passes/fold/skip", test_fold_skip);
  return g_test_run ();
}
