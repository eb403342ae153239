/* test-graph-golden.c: replays the Graph API steps of goldens/graphs.json (made by
 * gen_graphs.py with torch.fx 1.13) on libfx and compares the generated code, print(graph),
 * print_tabular(), node names, users and errors byte for byte. */
#include "graph-steps.h"

#include <string.h>

static void
run_case (gconstpointer data)
{
  JsonObject *golden = (JsonObject *) data;
  JsonArray *steps = json_object_get_array_member (golden, "steps");
  JsonObject *targets = json_object_get_object_member (golden, "targets");
  JsonArray *expected_errors = json_object_get_array_member (golden, "errors");
  g_autoptr (FxGraph) graph = NULL;
  g_autoptr (GHashTable) nodes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *code = NULL, *str = NULL, *tab = NULL, *tab_masked = NULL;
  g_autoptr (GError) lint_error = NULL;
  JsonArray *names;
  JsonObject *users;
  JsonNode *lint;

  graph = golden_replay_steps (steps, targets, nodes, errors);

  g_assert_cmpuint (errors->len, ==, json_array_get_length (expected_errors));
  for (guint i = 0; i < errors->len; i++)
    {
      JsonObject *e = json_array_get_object_element (expected_errors, i);
      g_autofree char *expected = g_strdup_printf ("%" G_GINT64_FORMAT " %s %s",
                                                   json_object_get_int_member (e, "step"),
                                                   json_object_get_string_member (e, "type"),
                                                   json_object_get_string_member (e, "message"));
      g_assert_cmpstr (errors->pdata[i], ==, expected);
    }

  names = json_object_get_array_member (golden, "names");
  g_assert_cmpuint (fx_graph_n_nodes (graph), ==, json_array_get_length (names));
  users = json_object_get_object_member (golden, "users");
  {
    guint i = 0;
    for (FxNode *n = fx_graph_first (graph); n; n = fx_node_next (n), i++)
      {
        JsonArray *expected_users = json_object_get_array_member (users, n->name);
        FxNode *u;
        guint k = 0;
        g_assert_cmpstr (n->name, ==, json_array_get_string_element (names, i));
        g_assert_nonnull (expected_users);
        for (guint p = 0; fx_node_set_iter (&n->users, &p, &u); k++)
          g_assert_cmpstr (u->name, ==, json_array_get_string_element (expected_users, k));
        g_assert_cmpuint (k, ==, json_array_get_length (expected_users));
      }
  }

  code = fx_graph_python_code (graph, "self", FALSE);
  g_assert_cmpstr (code, ==, json_object_get_string_member (golden, "code"));
  str = fx_graph_to_string (graph);
  g_assert_cmpstr (str, ==, json_object_get_string_member (golden, "graph"));
  tab = fx_graph_tabular (graph);
  tab_masked = golden_mask_addresses (tab);
  g_assert_cmpstr (tab_masked, ==, json_object_get_string_member (golden, "tabular"));

  lint = json_object_get_member (golden, "lint");
  fx_graph_lint (graph, &lint_error);
  if (JSON_NODE_HOLDS_NULL (lint))
    g_assert_no_error (lint_error);
  else
    {
      JsonObject *e = json_node_get_object (lint);
      g_auto (GStrv) first_line = NULL;
      g_assert_nonnull (lint_error);
      first_line = g_strsplit (lint_error->message, "\n", 2);
      g_assert_cmpstr (first_line[0], ==, json_object_get_string_member (e, "message"));
      g_assert_cmpstr (fx_error_code_python_name (lint_error->code), ==,
                       json_object_get_string_member (e, "type"));
    }
}

int
main (int argc, char **argv)
{
  g_autoptr (JsonParser) parser = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  fx_ops_init ();
  parser = golden_add_cases ("graphs.json", "/graph-golden/", run_case);
  return g_test_run ();
}
