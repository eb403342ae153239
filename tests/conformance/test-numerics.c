/* test-numerics.c: the bundled torchvision families compute what PyTorch 1.13 computes. For
 * each goldens/numerics/NAME.safetensors written by gen_numerics.py, `fx run` builds
 * torchvision.models.NAME() after torch.manual_seed(0) and saves its state dict (torch.save or
 * safetensors, in turn), `fx exec` traces a fresh instance, loads those weights strictly, runs
 * the golden's input SPEC and writes its output, which must be allclose to torch's
 * (rtol 1e-4; atol 1e-5, scaled down for outputs whose magnitude is below 1 — MobileNetV2's
 * and MNASNet's freshly initialised logits are ~1e-8). */
#include <fx.h>
#include "ir/safetensors.h"
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define RTOL 1e-4
#define ATOL 1e-5

static char *goldens_dir;

/* Runs $FX_CLI with argv in cwd; FALSE (test failed, output logged) unless it exits 0. */
static gboolean
run_fx (const char *cwd, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("FX_CLI"));
  for (int i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_cwd (launcher, cwd);
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    {
      g_test_message ("fx %s failed:\n%s", args[0], out ? out : "");
      g_test_fail ();
      return FALSE;
    }
  return TRUE;
}

static void
write_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static FxTensor *
only_output (FxDict *d)
{
  FxValue key = fx_value_take_str (fx_str_new ("output"));
  const FxValue *v = fx_dict_get (d, &key);
  fx_value_clear (&key);
  g_assert_nonnull (v);
  g_assert_cmpint (v->kind, ==, FX_VALUE_TENSOR);
  return v->tensor;
}

static void
test_family (gconstpointer data)
{
  const char *file = data;
  g_autofree char *golden_path = g_build_filename (goldens_dir, file, NULL);
  g_autoptr (GHashTable) meta = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *model_py = NULL, *weights = NULL, *out_path = NULL;
  const char *name, *spec;
  FxDict *golden, *got;
  FxTensor *want, *have;
  double scale = 0, worst = 0;
  int64_t n, bad = 0;

  if (g_getenv ("FX_CLI") == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  golden = fx_safetensors_load (golden_path, &meta, &error);
  g_assert_no_error (error);
  name = g_hash_table_lookup (meta, "model");
  spec = g_hash_table_lookup (meta, "input");
  g_assert_nonnull (name);
  g_assert_nonnull (spec);

  dir = g_dir_make_tmp ("fx-numerics-XXXXXX", &error);
  g_assert_no_error (error);
  write_file (dir, "make_weights.py",
              "import sys\nimport torch\nimport torchvision\n"
              "from safetensors.torch import save_file\n"
              "torch.manual_seed(0)\n"
              "sd = getattr(torchvision.models, sys.argv[1])().state_dict()\n"
              "if sys.argv[2].endswith('.pt'):\n"
              "    torch.save(sd, sys.argv[2])\n"
              "else:\n"
              "    save_file(sd, sys.argv[2])\n");
  model_py = g_strdup_printf ("import torchvision\nmodel = torchvision.models.%s()\nmodel.eval()\n",
                              name);
  write_file (dir, "model.py", model_py);
  /* both weight formats get exercised: alternate by the model name's length */
  weights = g_strdup (strlen (name) % 2 ? "weights.pt" : "weights.safetensors");
  out_path = g_build_filename (dir, "out.safetensors", NULL);
  {
    const char *mk[] = { "run", "make_weights.py", name, weights, NULL };
    const char *ex[] = { "exec", "model.py", "--module", "model", "--weights", weights,
                         "--input", spec, "-o", "out.safetensors", NULL };
    if (run_fx (dir, mk) && run_fx (dir, ex))
      {
        got = fx_safetensors_load (out_path, NULL, &error);
        g_assert_no_error (error);
        want = only_output (golden);
        have = only_output (got);
        g_assert_true (fx_tensor_same_shape (want, have));
        n = fx_tensor_numel (want);
        for (int64_t i = 0; i < n; i++)
          scale = MAX (scale, fabs (fx_tensor_get_double (want, i)));
        for (int64_t i = 0; i < n; i++)
          {
            double w = fx_tensor_get_double (want, i), h = fx_tensor_get_double (have, i);
            double err = fabs (w - h), tol = ATOL * MIN (1.0, scale) + RTOL * fabs (w);
            worst = MAX (worst, err / tol);
            if (!(err <= tol))
              bad++;
          }
        g_test_message ("%s: %" G_GINT64_FORMAT " values, max |golden| %g, worst error/tolerance %.3g",
                        name, n, scale, worst);
        if (bad > 0)
          {
            g_test_message ("%s: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " values differ",
                            name, bad, n);
            g_test_fail ();
          }
        fx_dict_unref (got);
      }
  }
  fx_dict_unref (golden);
  {
    const char *names[] = { "make_weights.py", "model.py", "weights.pt", "weights.safetensors",
                            "out.safetensors" };
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = g_build_filename (dir, names[i], NULL);
        g_unlink (p);
      }
    g_rmdir (dir);
  }
}

static int
by_name (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

int
main (int argc, char **argv)
{
  g_autoptr (GDir) d = NULL;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  g_test_init (&argc, &argv, NULL);
  goldens_dir = g_test_build_filename (G_TEST_DIST, "conformance", "goldens", "numerics", NULL);
  d = g_dir_open (goldens_dir, 0, NULL);
  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    /* tiny.safetensors belongs to test-cli's check of a torch-written .pt */
    if (g_str_has_suffix (entry, ".safetensors") && strcmp (entry, "tiny.safetensors") != 0)
      g_ptr_array_add (files, g_strdup (entry));
  g_ptr_array_sort (files, by_name);
  for (guint i = 0; i < files->len; i++)
    {
      const char *f = files->pdata[i];
      g_autofree char *test = g_strdup_printf ("/numerics/%.*s", (int) (strlen (f) - 12), f);
      g_test_add_data_func (test, f, test_family);
    }
  return g_test_run ();
}
