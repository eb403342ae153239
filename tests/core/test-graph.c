/* test-graph.c: FxGraph behaviour that printing does not show — user bookkeeping, erased
 * nodes, value mapping, copying — and that naming, lint, dead code elimination and code
 * generation stay linear on 100 000-node graphs (the quadratic torch.fx naming would not
 * finish this test in reasonable time). */
#include <fx.h>
#include "ir/graph.h"
#include "ir/codegen.h"

#include <string.h>

static const FxOp *
op (const char *path)
{
  static FxOp fallback[8];
  static guint n;
  const FxOp *found = fx_op_lookup (path);

  if (found != NULL)
    return found;
  /* Only the name matters to the IR; the registry may not hold every op yet. */
  g_assert_cmpuint (n, <, G_N_ELEMENTS (fallback));
  fallback[n].kind = FX_OP_FUNCTION;
  fallback[n].qualified_name = path;
  fallback[n].name = strrchr (path, '.') + 1;
  return &fallback[n++];
}

static FxValue
args2 (FxValue a, FxValue b)
{
  FxSeq *seq = fx_seq_new (2);
  seq->items[0] = a;
  seq->items[1] = b;
  return fx_value_take_tuple (seq);
}

static void
test_users_follow_args (void)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  FxNode *y = fx_graph_placeholder (g, "y", NULL, NULL);
  FxValue add = fx_value_op (op ("operator.add"));
  FxValue a = args2 (fx_value_node (x), fx_value_node (x));
  FxNode *n = fx_graph_call_function (g, &add, &a, NULL, NULL);
  g_autoptr (GPtrArray) inputs = NULL;
  FxValue b;

  g_assert_cmpuint (fx_node_set_size (&x->users), ==, 1);   /* x twice, one user */
  g_assert_true (fx_node_set_contains (&x->users, n));
  inputs = fx_node_all_input_nodes (n);
  g_assert_cmpuint (inputs->len, ==, 1);

  b = args2 (fx_value_node (y), fx_value_int (1));
  fx_node_set_args (n, &b);
  g_assert_cmpuint (fx_node_set_size (&x->users), ==, 0);
  g_assert_true (fx_node_set_contains (&y->users, n));
  g_assert_false (fx_graph_erase_node (g, y, NULL));
  g_assert_true (fx_graph_erase_node (g, n, NULL));
  g_assert_true (n->erased);
  g_assert_cmpuint (fx_node_set_size (&y->users), ==, 0);
  g_assert_cmpuint (fx_graph_n_nodes (g), ==, 2);
  fx_value_clear (&a);
  fx_value_clear (&b);
}

static FxValue
to_int (FxNode *node, gpointer data)
{
  return fx_value_int (7);
}

static void
test_map_nodes_replaces (void)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  FxDict *d = fx_dict_new ();
  FxValue v, mapped;
  g_autofree char *repr = NULL;

  fx_dict_set (d, fx_value_str ("k"), args2 (fx_value_node (x), fx_value_take_slice (
      fx_slice_new (fx_value_none (), fx_value_node (x), fx_value_int (2)))));
  v = fx_value_take_dict (d);
  mapped = fx_value_map_nodes (&v, to_int, NULL);
  repr = fx_value_to_repr (&mapped);
  g_assert_cmpstr (repr, ==, "{'k': (7, slice(None, 7, 2))}");
  fx_value_clear (&v);
  fx_value_clear (&mapped);
}

static void
test_large_graph_is_linear (void)
{
  const guint n = 100000;
  g_autoptr (FxGraph) g = fx_graph_new ();
  FxValue add = fx_value_op (op ("operator.add"));
  FxNode *prev = fx_graph_placeholder (g, "x", NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *code = NULL;
  g_autoptr (FxGraph) copy = NULL;
  FxNode *last;

  for (guint i = 0; i < n; i++)
    {
      FxValue a = args2 (fx_value_node (prev), fx_value_int (i));
      FxNode *node = fx_graph_call_function (g, &add, &a, NULL, NULL);
      fx_value_clear (&a);
      if (i % 10 == 0)
        {
          /* a dead branch every ten nodes, for DCE to remove */
          FxValue b = args2 (fx_value_node (node), fx_value_int (0));
          fx_graph_call_function (g, &add, &b, NULL, NULL);
          fx_value_clear (&b);
        }
      prev = node;
    }
  {
    FxValue out = fx_value_node (prev);
    last = fx_graph_output (g, &out, NULL);
  }
  g_assert_cmpstr (fx_node_prev (last)->name, ==, "add_109999");
  g_assert_true (fx_graph_lint (g, &error));
  g_assert_true (fx_graph_eliminate_dead_code (g, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fx_graph_n_nodes (g), ==, n + 2);
  code = fx_graph_python_code (g, "self", FALSE);
  g_assert_true (g_str_has_suffix (code, "    return add_109999\n    "));
  copy = fx_graph_copy (g, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_graph_n_nodes (copy), ==, n + 2);
  g_assert_cmpstr (fx_node_prev (fx_graph_last (copy))->name, ==, "add_109999");
}

static void
test_erase_refused_message (void)
{
  g_autoptr (FxGraph) g = fx_graph_new ();
  FxNode *x = fx_graph_placeholder (g, "x", NULL, NULL);
  FxValue out = fx_value_node (x);
  g_autoptr (GError) error = NULL;

  fx_graph_output (g, &out, NULL);
  g_assert_false (fx_graph_erase_node (g, x, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_GRAPH);
  g_assert_cmpstr (error->message, ==,
                   "Tried to erase Node x but it still had 1 users in the graph: {output: None}!");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  fx_ops_init ();
  g_test_add_func ("/graph/users-follow-args", test_users_follow_args);
  g_test_add_func ("/graph/map-nodes-replaces", test_map_nodes_replaces);
  g_test_add_func ("/graph/erase-refused-message", test_erase_refused_message);
  g_test_add_func ("/graph/large-graph-is-linear", test_large_graph_is_linear);
  return g_test_run ();
}
