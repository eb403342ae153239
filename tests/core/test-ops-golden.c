/* test-ops-golden.c: runs every case of tests/conformance/goldens/ops/<group>.json (recorded from
 * PyTorch 1.13 by the gen_ops_*.py scripts) through fx_op_call() and compares the result or
 * the error with what PyTorch gave. One GLib test per case: /ops/<file>/<id>. */
#include "fx.h"
#include "golden-values.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* random.c may not be there yet; seeded cases are skipped without it. */
extern void fx_manual_seed (uint64_t seed) __attribute__ ((weak));

typedef struct {
  char *file;
  JsonObject *obj;     /* the case; owned by the parser kept in parsers */
} Case;

static GPtrArray *parsers;

/* ---- running a case ---- */

static void
run_case (gconstpointer data)
{
  const Case *c = data;
  JsonObject *o = c->obj;
  const char *path = json_object_get_string_member (o, "op");
  const FxOp *op;
  char *err = NULL;
  FxValue *argv = NULL;
  int n_args = 0;
  FxDict *kwargs = NULL;
  FxValue result = fx_value_none ();
  GError *error = NULL;

  fx_ops_init ();
  op = g_str_has_prefix (path, "Tensor.") ? fx_op_lookup_method (path + strlen ("Tensor."))
                                         : fx_op_lookup (path);
  if (op == NULL)
    {
      g_test_fail_printf ("op %s is not in the registry", path);
      return;
    }

  if (json_object_has_member (o, "seed") && fx_manual_seed == NULL)
    {
      g_test_skip ("fx_manual_seed is not available");
      return;
    }

  JsonArray *a = json_object_get_array_member (o, "args");
  n_args = a ? (int) json_array_get_length (a) : 0;
  argv = g_new0 (FxValue, MAX (n_args, 1));
  for (int i = 0; i < n_args; i++)
    if (!golden_decode_value (json_array_get_element (a, i), &argv[i], &err))
      {
        g_test_fail_printf ("cannot decode argument %d: %s", i, err);
        goto out;
      }
  if (json_object_has_member (o, "kwargs"))
    {
      JsonObject *kw = json_object_get_object_member (o, "kwargs");
      JsonObjectIter it;
      const char *name;
      JsonNode *node;
      kwargs = fx_dict_new ();
      json_object_iter_init_ordered (&it, kw);
      while (json_object_iter_next_ordered (&it, &name, &node))
        {
          FxValue v;
          if (!golden_decode_value (node, &v, &err))
            {
              g_test_fail_printf ("cannot decode keyword %s: %s", name, err);
              goto out;
            }
          fx_dict_set (kwargs, fx_value_str (name), v);
        }
      if (fx_dict_len (kwargs) == 0)
        g_clear_pointer (&kwargs, fx_dict_unref);
    }

  if (json_object_has_member (o, "seed"))
    fx_manual_seed ((uint64_t) json_object_get_int_member (o, "seed"));

  gboolean ok = fx_op_call (op, argv, n_args, kwargs, &result, &error);

  if (json_object_has_member (o, "error"))
    {
      JsonObject *e = json_object_get_object_member (o, "error");
      const char *type = json_object_get_string_member (e, "type");
      const char *message = json_object_get_string_member (e, "message");
      if (ok)
        {
          g_autofree char *r = fx_value_to_repr (&result);
          g_test_fail_printf ("expected %s: %s; got %s", type, message, r);
          goto out;
        }
      const char *got_type = error->domain == FX_ERROR
                             ? fx_error_code_python_name ((FxErrorCode) error->code) : "?";
      const char *nl = strchr (error->message, '\n');
      g_autofree char *got_msg = nl ? g_strndup (error->message, nl - error->message)
                                    : g_strdup (error->message);
      if (g_strcmp0 (got_type, type) != 0 || g_strcmp0 (got_msg, message) != 0)
        g_test_fail_printf ("error %s: %s\n   expected %s: %s", got_type, got_msg, type,
                            message);
      goto out;
    }

  if (!ok)
    {
      g_test_fail_printf ("failed with %s: %s",
                          error->domain == FX_ERROR
                          ? fx_error_code_python_name ((FxErrorCode) error->code) : "?",
                          error->message);
      goto out;
    }
  FxValue want;
  if (!golden_decode_value (json_object_get_member (o, "expect"), &want, &err))
    {
      g_test_fail_printf ("cannot decode the expected value: %s", err);
      goto out;
    }
  GoldenTol tol = { 1e-5, 1e-6, FALSE };
  if (json_object_has_member (o, "rtol"))
    {
      tol.rtol = json_object_get_double_member (o, "rtol");
      tol.explicit_tol = TRUE;
    }
  if (json_object_has_member (o, "atol"))
    {
      tol.atol = json_object_get_double_member (o, "atol");
      tol.explicit_tol = TRUE;
    }
  GString *why = g_string_new (NULL);
  if (!golden_compare_value (&result, &want, &tol, why))
    {
      g_autofree char *r = fx_value_to_repr (&result);
      g_test_fail_printf ("%s\n   got: %.2000s", why->str, r);
    }
  g_string_free (why, TRUE);
  fx_value_clear (&want);

out:
  g_free (err);
  g_clear_error (&error);
  fx_value_clear (&result);
  for (int i = 0; i < n_args; i++)
    fx_value_clear (&argv[i]);
  g_free (argv);
  if (kwargs)
    fx_dict_unref (kwargs);
}

static void
free_case (gpointer data)
{
  Case *c = data;
  g_free (c->file);
  g_free (c);
}

static void
add_file (const char *dir, const char *name, GPtrArray *cases)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  if (!json_parser_load_from_file (parser, path, &error))
    g_error ("%s: %s", path, error->message);
  g_ptr_array_add (parsers, parser);
  JsonObject *root = json_node_get_object (json_parser_get_root (parser));
  JsonArray *list = json_object_get_array_member (root, "cases");
  g_autofree char *base = g_strndup (name, strlen (name) - strlen (".json"));
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      Case *c = g_new0 (Case, 1);
      c->file = g_strdup (base);
      c->obj = json_array_get_object_element (list, i);
      const char *id = json_object_get_string_member_with_default (c->obj, "id", "");
      char *test_path = g_strdup_printf ("/ops/%s/%s", base, id);
      if (g_hash_table_contains (seen, test_path))
        g_error ("%s: duplicate case id %s", path, id);
      g_hash_table_add (seen, g_strdup (test_path));
      g_ptr_array_add (cases, c);
      g_test_add_data_func (test_path, c, run_case);
      g_free (test_path);
    }
  g_hash_table_unref (seen);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
no_goldens (void)
{
  g_test_skip ("no golden files");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *dir = g_build_filename (srcdir ? srcdir : ".", "conformance", "goldens", "ops",
                                           NULL);
  GPtrArray *cases = g_ptr_array_new_with_free_func (free_case);
  parsers = g_ptr_array_new_with_free_func (g_object_unref);
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  if (d != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (d)) != NULL)
        if (g_str_has_suffix (name, ".json"))
          g_ptr_array_add (names, g_strdup (name));
      g_dir_close (d);
    }
  /* a stable order, whatever the file system's */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    add_file (dir, names->pdata[i], cases);
  if (names->len == 0)
    g_test_add_func ("/ops/no-goldens", no_goldens);

  int rc = g_test_run ();
  g_ptr_array_free (names, TRUE);
  g_ptr_array_free (cases, TRUE);
  g_ptr_array_free (parsers, TRUE);
  return rc;
}
