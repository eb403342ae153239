/* test-module-golden.c: module trees and GraphModule construction against goldens/modules.json
 * (gen_modules.py, torch.fx 1.13): attributes copied, repr, state_dict order, named_*,
 * get_submodule errors, gm.code, str(gm) and lint of missing targets. */
#include "graph-steps.h"

#include <string.h>

static FxTensor *
arange_tensor (JsonArray *shape_json, int64_t *counter)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int ndim = (int) json_array_get_length (shape_json);
  int64_t n = 1;
  g_autofree float *data = NULL;

  for (int i = 0; i < ndim; i++)
    n *= shape[i] = json_array_get_int_element (shape_json, i);
  data = g_new (float, n);
  for (int64_t i = 0; i < n; i++)
    data[i] = (float) (*counter + i);
  *counter += n;
  return fx_tensor_new_from_data (FX_DTYPE_FLOAT32, ndim, shape, data);
}

static FxModule *
build_tree (JsonArray *tree)
{
  FxModule *root = fx_module_new ("Module");
  int64_t counter = 0;

  for (guint i = 0; i < json_array_get_length (tree); i++)
    {
      JsonArray *entry = json_array_get_array_element (tree, i);
      const char *path = json_array_get_string_element (entry, 0);
      const char *kind = json_array_get_string_element (entry, 1);
      const char *dot = strrchr (path, '.');
      g_autofree char *prefix = dot ? g_strndup (path, dot - path) : g_strdup ("");
      const char *field = dot ? dot + 1 : path;
      FxModule *owner = fx_module_get_submodule (root, prefix, NULL);

      g_assert_nonnull (owner);
      if (strcmp (kind, "module") == 0)
        {
          g_autoptr (FxModule) child = fx_module_new ("Module");
          fx_module_add_module (owner, field, child);
        }
      else if (strcmp (kind, "int_attr") == 0)
        {
          FxValue v = fx_value_int (json_array_get_int_element (entry, 2));
          fx_module_set_attribute (owner, field, &v);
        }
      else
        {
          g_autoptr (FxTensor) t = arange_tensor (json_array_get_array_element (entry, 2), &counter);
          if (strcmp (kind, "param") == 0)
            fx_module_register_parameter (owner, field, t);
          else if (strcmp (kind, "buffer") == 0 || strcmp (kind, "buffer_np") == 0)
            fx_module_register_buffer (owner, field, t, strcmp (kind, "buffer") == 0);
          else
            {
              FxValue v = fx_value_tensor (t);
              fx_module_set_attribute (owner, field, &v);
              fx_value_clear (&v);
            }
        }
    }
  return root;
}

static void
assert_names (GPtrArray *names, JsonArray *expected)
{
  g_assert_cmpuint (names->len, ==, json_array_get_length (expected));
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (names->pdata[i], ==, json_array_get_string_element (expected, i));
}

static void
check_describe (FxModule *m, JsonObject *expected)
{
  g_autofree char *repr = fx_module_repr (m);
  FxDict *sd = fx_module_state_dict (m);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) objs = g_ptr_array_new ();
  g_autoptr (GPtrArray) sd_names = g_ptr_array_new ();
  const FxValue *k, *v;

  g_assert_cmpstr (repr, ==, json_object_get_string_member (expected, "repr"));
  for (guint i = 0; fx_dict_entry (sd, i, &k, &v); i++)
    g_ptr_array_add (sd_names, k->s->data);
  assert_names (sd_names, json_object_get_array_member (expected, "state_dict"));
  fx_dict_unref (sd);

  fx_module_named_modules (m, names, objs);
  assert_names (names, json_object_get_array_member (expected, "named_modules"));
  g_ptr_array_set_size (names, 0);
  g_ptr_array_set_size (objs, 0);
  fx_module_named_parameters (m, names, objs);
  assert_names (names, json_object_get_array_member (expected, "named_parameters"));
  g_ptr_array_set_size (names, 0);
  g_ptr_array_set_size (objs, 0);
  fx_module_named_buffers (m, names, objs);
  assert_names (names, json_object_get_array_member (expected, "named_buffers"));
}

static void
run_case (gconstpointer data)
{
  JsonObject *golden = (JsonObject *) data;
  g_autoptr (FxModule) root = build_tree (json_object_get_array_member (golden, "tree"));
  g_autoptr (GHashTable) nodes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (FxGraph) graph = golden_replay_steps (json_object_get_array_member (golden, "steps"),
                                                   json_object_get_object_member (golden, "targets"),
                                                   nodes, errors);
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *str = NULL;
  JsonObject *lookups;
  JsonNode *lint;

  g_assert_cmpuint (errors->len, ==, 0);
  check_describe (root, json_object_get_object_member (golden, "root"));

  if (json_object_get_boolean_member (golden, "dict_root"))
    {
      FxDict *dict = fx_dict_new ();
      for (FxNode *n = fx_graph_first (graph); n; n = fx_node_next (n))
        if (n->op == FX_OP_GET_ATTR || n->op == FX_OP_CALL_MODULE)
          {
            FxValue v;
            g_assert_true (fx_module_get_attr (root, n->target.s->data, &v, NULL));
            fx_dict_set (dict, fx_value_copy (&n->target), v);
          }
      gm = fx_graph_module_new_from_dict (dict, graph, "GraphModule", &error);
      fx_dict_unref (dict);
    }
  else
    gm = fx_graph_module_new (root, graph, "GraphModule", &error);
  g_assert_no_error (error);
  check_describe (gm->module, json_object_get_object_member (golden, "gm"));
  g_assert_cmpstr (gm->code, ==, json_object_get_string_member (golden, "code"));
  {
    g_autofree char *readable = fx_graph_module_print_readable (gm);
    g_autofree char *printed = g_strconcat (readable, "\n", NULL);   /* print() adds one */
    g_assert_cmpstr (printed, ==, json_object_get_string_member (golden, "readable"));
  }
  str = fx_graph_module_to_string (gm);
  g_assert_cmpstr (str, ==, json_object_get_string_member (golden, "str"));

  lookups = json_object_get_object_member (golden, "lookups");
  {
    g_autoptr (GList) paths = json_object_get_members (lookups);
    for (GList *l = paths; l; l = l->next)
      {
        JsonObject *expected = json_object_get_object_member (lookups, l->data);
        g_autoptr (GError) lookup_error = NULL;
        FxModule *found = fx_module_get_submodule (root, l->data, &lookup_error);
        if (json_object_has_member (expected, "ok"))
          {
            g_autofree char *repr = NULL;
            g_assert_no_error (lookup_error);
            repr = fx_module_repr (found);
            g_assert_cmpstr (repr, ==, json_object_get_string_member (expected, "ok"));
          }
        else
          {
            g_assert_null (found);
            g_assert_nonnull (lookup_error);
            g_assert_cmpstr (lookup_error->message, ==, json_object_get_string_member (expected, "error"));
          }
      }
  }

  if (strcmp (json_object_get_string_member (golden, "id"), "lint_missing_target") == 0)
    g_assert_true (fx_graph_module_delete_submodule (gm, "a"));
  lint = json_object_get_member (golden, "lint");
  {
    g_autoptr (GError) lint_error = NULL;
    fx_graph_lint (gm->graph, &lint_error);
    if (JSON_NODE_HOLDS_NULL (lint))
      g_assert_no_error (lint_error);
    else
      {
        g_assert_nonnull (lint_error);
        g_assert_cmpstr (lint_error->message, ==,
                         json_object_get_string_member (json_node_get_object (lint), "message"));
      }
  }
}

int
main (int argc, char **argv)
{
  g_autoptr (JsonParser) parser = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  fx_ops_init ();
  parser = golden_add_cases ("modules.json", "/module-golden/", run_case);
  return g_test_run ();
}
