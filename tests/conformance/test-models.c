/* test-models.c: real models (ResNet, VGG, AlexNet, SqueezeNet, DenseNet, MNASNet,
 * MobileNetV2 written as torchvision writes them, in models/) traced under `fx run` must
 * print what PyTorch 1.13 printed: for each variant NAME in goldens/models/index, `fx run
 * SCRIPT NAME` (SCRIPT = models/trace_MODEL.py) must print NAME.code, NAME.tabular and
 * NAME.out, or NAME.error where torch.fx fails — all recorded by gen_models.py. Object
 * addresses in the output become 0xADDRESS, as gen_models.py records them. */
#include "run-script.h"


#define VARIANT_TIMEOUT_SECONDS 300

static char *models_dir;
static char *goldens_dir;

typedef struct {
  char *name;
  char *script;
} Variant;

/* The golden files of a variant concatenated in the order the trace script prints them. */
static char *
expected_output (const char *name)
{
  static const char *const parts[] = { "code", "tabular", "out", "error" };
  GString *all = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s.%s", name, parts[i]);
      g_autofree char *path = g_build_filename (goldens_dir, file, NULL);
      g_autofree char *text = NULL;
      if (g_file_get_contents (path, &text, NULL, NULL))
        g_string_append (all, text);
    }
  return g_string_free (all, FALSE);
}

static void
test_variant (gconstpointer data)
{
  const Variant *v = data;
  const char *argv[] = { v->script, v->name, NULL };
  g_autofree char *expected = expected_output (v->name);
  g_autoptr (GRegex) address = g_regex_new (" at 0x[0-9a-f]+>", 0, 0, NULL);
  g_autoptr (GError) error = NULL;
  FxScriptRun run;

  if (g_getenv ("FX_CLI") == NULL)
    {
      g_test_skip ("FX_CLI is not set");
      return;
    }
  if (!fx_script_run (models_dir, argv, VARIANT_TIMEOUT_SECONDS, &run, &error))
    {
      g_test_message ("%s %s: %s", v->script, v->name, error->message);
      g_test_fail ();
      return;
    }
  {
    char *masked = g_regex_replace_literal (address, run.output, -1, 0, " at 0xADDRESS>", 0,
                                            NULL);
    g_free (run.output);
    run.output = masked;
  }
  {
    g_autofree char *what = g_strdup_printf ("%s %s", v->script, v->name);
    fx_script_run_check (what, &run, expected, 0);
  }
  fx_script_run_clear (&run);
}

static void
variant_free (gpointer p)
{
  Variant *v = p;
  g_free (v->name);
  g_free (v->script);
  g_free (v);
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) variants = g_ptr_array_new_with_free_func (variant_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *index_path = NULL, *index = NULL;
  g_auto (GStrv) lines = NULL;

  g_test_init (&argc, &argv, NULL);
  models_dir = g_test_build_filename (G_TEST_DIST, "conformance", "models", NULL);
  goldens_dir = g_test_build_filename (G_TEST_DIST, "conformance", "goldens", "models", NULL);
  index_path = g_build_filename (goldens_dir, "index", NULL);
  g_file_get_contents (index_path, &index, NULL, &error);
  g_assert_no_error (error);

  lines = g_strsplit (index, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], " ", 2);
      Variant *v;
      g_autofree char *path = NULL;
      if (fields[0] == NULL || fields[0][0] == '\0')
        continue;
      g_assert_nonnull (fields[1]);
      v = g_new0 (Variant, 1);
      v->name = g_strdup (fields[0]);
      v->script = g_strdup (fields[1]);
      g_ptr_array_add (variants, v);
      path = g_strdup_printf ("/models/%s", v->name);
      g_test_add_data_func (path, v, test_variant);
    }
  return g_test_run ();
}
