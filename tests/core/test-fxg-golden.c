/* test-fxg-golden.c: every graph of goldens/graphs.json (gen_graphs.py, torch.fx 1.13) saved to
 * .fxg and loaded back: same generated code (which still equals torch's), same print(graph),
 * same users, and the reloaded document saves to the same text. */
#include "graph-steps.h"

#include <string.h>

/* A root that has whatever the graph's get_attr / call_module targets name. */
static FxModule *
root_for (FxGraph *graph)
{
  FxModule *root = fx_module_new ("Module");

  for (FxNode *n = fx_graph_first (graph); n; n = fx_node_next (n))
    {
      g_auto (GStrv) atoms = NULL;
      FxModule *m = root;
      guint len;

      if (n->op != FX_OP_GET_ATTR && n->op != FX_OP_CALL_MODULE)
        continue;
      atoms = g_strsplit (n->target.s->data, ".", -1);
      len = g_strv_length (atoms);
      for (guint i = 0; i + 1 < len; i++)
        {
          FxModule *next = fx_module_get_submodule (m, atoms[i], NULL);
          if (next == NULL)
            {
              next = fx_module_new ("Module");
              fx_module_add_module (m, atoms[i], next);
              fx_module_unref (next);
            }
          m = next;
        }
      if (fx_module_attr_kind (m, atoms[len - 1]) != 0)
        continue;
      if (n->op == FX_OP_CALL_MODULE)
        {
          g_autoptr (FxModule) leaf = fx_module_new ("Module");
          fx_module_add_module (m, atoms[len - 1], leaf);
        }
      else
        {
          int64_t shape[] = { 2 };
          g_autoptr (FxTensor) t = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, shape);
          fx_module_register_buffer (m, atoms[len - 1], t, TRUE);
        }
    }
  return root;
}

static gboolean
registry_ops_only (FxGraph *graph)
{
  for (FxNode *n = fx_graph_first (graph); n; n = fx_node_next (n))
    if (n->op == FX_OP_CALL_FUNCTION
        && (n->target.kind != FX_VALUE_OP || fx_op_lookup (n->target.op->qualified_name) != n->target.op))
      return FALSE;
  return TRUE;
}

static void
run_case (gconstpointer data)
{
  JsonObject *golden = (JsonObject *) data;
  g_autoptr (GHashTable) nodes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (FxGraph) graph = golden_replay_steps (json_object_get_array_member (golden, "steps"),
                                                   json_object_get_object_member (golden, "targets"),
                                                   nodes, errors);
  g_autoptr (FxModule) root = NULL;
  g_autoptr (FxGraphModule) gm = NULL, back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) sidecar = NULL;
  g_autofree char *text = NULL, *text2 = NULL, *s1 = NULL, *s2 = NULL;

  if (!fx_graph_lint (graph, NULL))
    {
      g_test_skip ("the golden graph does not lint");
      return;
    }
  if (!registry_ops_only (graph))
    {
      g_test_skip ("uses functions the registry does not have");
      return;
    }
  root = root_for (graph);
  gm = fx_graph_module_new (root, graph, "GraphModule", &error);
  g_assert_no_error (error);
  text = fx_fxg_to_data (gm, NULL, "s.safetensors", &sidecar, &error);
  g_assert_no_error (error);
  back = fx_fxg_from_data (text, strlen (text), sidecar, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_cmpstr (back->code, ==, gm->code);
  g_assert_cmpstr (back->code, ==, json_object_get_string_member (golden, "code"));
  s1 = fx_graph_to_string (gm->graph);
  s2 = fx_graph_to_string (back->graph);
  g_assert_cmpstr (s1, ==, s2);
  for (FxNode *a = fx_graph_first (gm->graph), *b = fx_graph_first (back->graph); a;
       a = fx_node_next (a), b = fx_node_next (b))
    {
      FxNode *ua;
      g_assert_nonnull (b);
      g_assert_cmpstr (a->name, ==, b->name);
      /* the same users (their order follows the edit history, which a file does not keep) */
      g_assert_cmpuint (fx_node_set_size (&a->users), ==, fx_node_set_size (&b->users));
      for (guint i = 0; fx_node_set_iter (&a->users, &i, &ua);)
        g_assert_true (fx_node_set_contains (&b->users, fx_graph_find_node_by_name (back->graph, ua->name)));
    }
  text2 = fx_fxg_to_data (back, NULL, "s.safetensors", NULL, &error);
  g_assert_cmpstr (text, ==, text2);
}

int
main (int argc, char **argv)
{
  g_autoptr (JsonParser) parser = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  fx_ops_init ();
  parser = golden_add_cases ("graphs.json", "/fxg-golden/", run_case);
  return g_test_run ();
}
