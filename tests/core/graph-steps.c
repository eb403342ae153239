/* graph-steps.c: shared by the golden tests — decoding golden_encode.py values (plus node
 * references) into FxValues, and replaying gen_graphs.py's Graph API steps on an FxGraph. */
#include "graph-steps.h"

#include <string.h>

static GHashTable *fake_ops;   /* path → FxOp*, never freed: ops are static in libfx too */

static const FxOp *
resolve_op (JsonObject *targets, const char *path)
{
  if (fake_ops == NULL)
    fake_ops = g_hash_table_new (g_str_hash, g_str_equal);
  const FxOp *op = fx_op_lookup (path);
  JsonObject *facts;
  FxOp *fake;

  if (op != NULL)
    return op;
  fake = g_hash_table_lookup (fake_ops, path);
  if (fake != NULL)
    return fake;
  /* Not (yet) in the registry: stand in with the facts torch reported for it. */
  facts = json_object_get_object_member (targets, path);
  fake = g_new0 (FxOp, 1);
  fake->kind = FX_OP_FUNCTION;
  fake->qualified_name = g_strdup (json_object_get_string_member (facts, "qualified_name"));
  /* The registry names operator functions operator.X, as torch.fx prints them; Python's
   * own __module__ for them is _operator. */
  if (g_str_has_prefix (fake->qualified_name, "_operator."))
    {
      char *fixed = g_strdup (fake->qualified_name + 1);
      g_free ((char *) fake->qualified_name);
      fake->qualified_name = fixed;
    }
  fake->name = g_strdup (json_object_get_string_member (facts, "name"));
  fake->flags = json_object_get_boolean_member (facts, "impure") ? FX_OP_FLAG_IMPURE : 0;
  if (g_str_has_prefix (json_object_get_string_member (facts, "str"), "<function "))
    fake->flags |= FX_OP_FLAG_PYTHON_FUNCTION;
  g_hash_table_insert (fake_ops, g_strdup (path), fake);
  return fake;
}


FxValue
golden_decode_seq (JsonArray *array, GHashTable *nodes, gboolean tuple)
{
  FxSeq *seq = fx_seq_new (json_array_get_length (array));
  for (guint i = 0; i < seq->len; i++)
    seq->items[i] = golden_decode (json_array_get_element (array, i), nodes);
  return tuple ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
}

FxValue
golden_decode (JsonNode *node, GHashTable *nodes)
{
  JsonObject *o;

  if (JSON_NODE_HOLDS_NULL (node))
    return fx_value_none ();
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType t = json_node_get_value_type (node);
      if (t == G_TYPE_BOOLEAN)
        return fx_value_bool (json_node_get_boolean (node));
      if (t == G_TYPE_INT64)
        return fx_value_int (json_node_get_int (node));
      if (t == G_TYPE_DOUBLE)
        return fx_value_float (json_node_get_double (node));
      g_assert_not_reached ();
    }
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  o = json_node_get_object (node);
  if (json_object_has_member (o, "node"))
    {
      FxNode *n = g_hash_table_lookup (nodes, json_object_get_string_member (o, "node"));
      g_assert_nonnull (n);
      return fx_value_node (n);
    }
  if (json_object_has_member (o, "tuple"))
    return golden_decode_seq (json_object_get_array_member (o, "tuple"), nodes, TRUE);
  if (json_object_has_member (o, "list"))
    return golden_decode_seq (json_object_get_array_member (o, "list"), nodes, FALSE);
  if (json_object_has_member (o, "str"))
    return fx_value_str (json_object_get_string_member (o, "str"));
  if (json_object_has_member (o, "ellipsis"))
    return fx_value_ellipsis ();
  if (json_object_has_member (o, "float"))
    return fx_value_float (g_ascii_strtod (json_object_get_string_member (o, "float"), NULL));
  if (json_object_has_member (o, "dtype"))
    {
      FxDType d;
      g_assert_true (fx_dtype_from_name (json_object_get_string_member (o, "dtype"), &d));
      return fx_value_dtype (d);
    }
  if (json_object_has_member (o, "size"))
    {
      JsonArray *a = json_object_get_array_member (o, "size");
      int64_t items[16];
      guint n = json_array_get_length (a);
      for (guint i = 0; i < n; i++)
        items[i] = json_array_get_int_element (a, i);
      return fx_value_int_tuple (&fx_tuple_type_size, (int) n, items);
    }
  if (json_object_has_member (o, "slice"))
    {
      JsonArray *a = json_object_get_array_member (o, "slice");
      return fx_value_take_slice (fx_slice_new (golden_decode (json_array_get_element (a, 0), nodes),
                                                golden_decode (json_array_get_element (a, 1), nodes),
                                                golden_decode (json_array_get_element (a, 2), nodes)));
    }
  if (json_object_has_member (o, "dict"))
    {
      JsonArray *a = json_object_get_array_member (o, "dict");
      FxDict *dict = fx_dict_new ();
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonArray *kv = json_array_get_array_element (a, i);
          fx_dict_set (dict, golden_decode (json_array_get_element (kv, 0), nodes),
                       golden_decode (json_array_get_element (kv, 1), nodes));
        }
      return fx_value_take_dict (dict);
    }
  g_assert_not_reached ();
}

FxValue
golden_decode_kwargs (JsonObject *o, GHashTable *nodes)
{
  FxDict *dict = fx_dict_new ();
  g_autoptr (GList) members = json_object_get_members (o);

  for (GList *l = members; l; l = l->next)
    fx_dict_set (dict, fx_value_str (l->data), golden_decode (json_object_get_member (o, l->data), nodes));
  return fx_value_take_dict (dict);
}

static const char *
opt_string (JsonArray *step, guint index, const char *key)
{
  JsonObject *opts;

  if (json_array_get_length (step) <= index)
    return NULL;
  opts = json_array_get_object_element (step, index);
  return json_object_has_member (opts, key) ? json_object_get_string_member (opts, key) : NULL;
}

static gboolean
opt_bool (JsonArray *step, guint index, const char *key)
{
  JsonObject *opts;

  if (json_array_get_length (step) <= index)
    return FALSE;
  opts = json_array_get_object_element (step, index);
  return json_object_has_member (opts, key) && json_object_get_boolean_member (opts, key);
}

static void
index_nodes (FxGraph *graph, GHashTable *nodes)
{
  g_hash_table_remove_all (nodes);
  for (FxNode *n = fx_graph_first (graph); n; n = fx_node_next (n))
    g_hash_table_insert (nodes, (gpointer) n->name, n);
}

static gboolean
skip_user (FxNode *user, gpointer data)
{
  return user != data;
}

char *
golden_mask_addresses (const char *s)
{
  g_autoptr (GRegex) re = g_regex_new (" at 0x[0-9a-f]+", 0, 0, NULL);
  return g_regex_replace_literal (re, s, -1, 0, " at 0x?", 0, NULL);
}

FxGraph *
golden_replay_steps (JsonArray *steps, JsonObject *targets, GHashTable *nodes, GPtrArray *errors)
{
  FxGraph *graph = fx_graph_new ();
  g_autoptr (GArray) inserts = g_array_new (FALSE, FALSE, sizeof (FxInsertPoint));

  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonArray *step = json_array_get_array_element (steps, i);
      const char *kind = json_array_get_string_element (step, 0);
      g_autoptr (GError) error = NULL;
      FxNode *created = NULL;

#define NODE(k) ((FxNode *) g_hash_table_lookup (nodes, json_array_get_string_element (step, k)))
      if (strcmp (kind, "placeholder") == 0)
        {
          FxValue def = fx_value_none ();
          gboolean has_default = FALSE;
          if (json_array_get_length (step) > 2)
            {
              JsonObject *opts = json_array_get_object_element (step, 2);
              if ((has_default = json_object_has_member (opts, "default")))
                def = golden_decode (json_object_get_member (opts, "default"), nodes);
            }
          created = fx_graph_placeholder (graph, json_array_get_string_element (step, 1),
                                          opt_string (step, 2, "type"), has_default ? &def : NULL);
          fx_value_clear (&def);
        }
      else if (strcmp (kind, "get_attr") == 0)
        created = fx_graph_get_attr (graph, json_array_get_string_element (step, 1), opt_string (step, 2, "type"));
      else if (g_str_has_prefix (kind, "call_"))
        {
          FxNodeOp op;
          FxValue target, args, kwargs;
          g_assert_true (fx_node_op_from_name (kind, &op));
          if (op == FX_OP_CALL_FUNCTION)
            target = fx_value_op (resolve_op (targets, json_array_get_string_element (step, 1)));
          else
            target = fx_value_str (json_array_get_string_element (step, 1));
          args = golden_decode_seq (json_array_get_array_element (step, 2), nodes, TRUE);
          kwargs = golden_decode_kwargs (json_array_get_object_element (step, 3), nodes);
          created = fx_graph_create_node (graph, op, &target, &args, &kwargs,
                                          opt_string (step, 4, "name"), opt_string (step, 4, "type"), &error);
          g_assert_no_error (error);
          if (opt_bool (step, 4, "wrapped"))
            fx_dict_set (created->meta, fx_value_str ("is_wrapped"), fx_value_bool (TRUE));
          fx_value_clear (&target);
          fx_value_clear (&args);
          fx_value_clear (&kwargs);
        }
      else if (strcmp (kind, "output") == 0)
        {
          FxValue v = golden_decode (json_array_get_element (step, 1), nodes);
          created = fx_graph_output (graph, &v, opt_string (step, 2, "type"));
          fx_value_clear (&v);
        }
      else if (strcmp (kind, "inserting_before") == 0 || strcmp (kind, "inserting_after") == 0)
        {
          FxNode *anchor = json_array_get_null_element (step, 1) ? NULL : NODE (1);
          FxInsertPoint previous = kind[10] == 'b' ? fx_graph_inserting_before (graph, anchor)
                                                   : fx_graph_inserting_after (graph, anchor);
          g_array_append_val (inserts, previous);
        }
      else if (strcmp (kind, "restore_insert") == 0)
        {
          fx_graph_restore_insert_point (graph, g_array_index (inserts, FxInsertPoint, inserts->len - 1));
          g_array_set_size (inserts, inserts->len - 1);
        }
      else if (strcmp (kind, "erase") == 0)
        fx_graph_erase_node (graph, NODE (1), &error);
      else if (strcmp (kind, "replace_all_uses_with") == 0)
        g_ptr_array_unref (fx_node_replace_all_uses_with (NODE (1), NODE (2), NULL, NULL));
      else if (strcmp (kind, "replace_all_uses_with_except") == 0)
        g_ptr_array_unref (fx_node_replace_all_uses_with (NODE (1), NODE (2), skip_user, NODE (3)));
      else if (strcmp (kind, "replace_input_with") == 0)
        fx_node_replace_input_with (NODE (1), NODE (2), NODE (3));
      else if (strcmp (kind, "update_arg") == 0)
        {
          FxValue v = golden_decode (json_array_get_element (step, 3), nodes);
          fx_node_update_arg (NODE (1), (int) json_array_get_int_element (step, 2), &v, &error);
          fx_value_clear (&v);
        }
      else if (strcmp (kind, "update_kwarg") == 0)
        {
          FxValue v = golden_decode (json_array_get_element (step, 3), nodes);
          fx_node_update_kwarg (NODE (1), json_array_get_string_element (step, 2), &v);
          fx_value_clear (&v);
        }
      else if (strcmp (kind, "set_args") == 0)
        {
          FxValue v = golden_decode_seq (json_array_get_array_element (step, 2), nodes, TRUE);
          fx_node_set_args (NODE (1), &v);
          fx_value_clear (&v);
        }
      else if (strcmp (kind, "set_kwargs") == 0)
        {
          FxValue v = golden_decode_kwargs (json_array_get_object_element (step, 2), nodes);
          fx_node_set_kwargs (NODE (1), &v);
          fx_value_clear (&v);
        }
      else if (strcmp (kind, "prepend") == 0)
        fx_node_prepend (NODE (1), NODE (2));
      else if (strcmp (kind, "append") == 0)
        fx_node_append (NODE (1), NODE (2));
      else if (strcmp (kind, "dce") == 0)
        fx_graph_eliminate_dead_code (graph, &error);
      else if (strcmp (kind, "lint") == 0)
        fx_graph_lint (graph, &error);
      else if (strcmp (kind, "deepcopy") == 0)
        {
          FxGraph *copy = fx_graph_copy (graph, &error);
          g_assert_no_error (error);
          fx_graph_unref (graph);
          graph = copy;
          index_nodes (graph, nodes);
        }
      else if (strcmp (kind, "node_copy") == 0)
        {
          created = fx_graph_node_copy (graph, NODE (1), NULL, NULL, &error);
          g_assert_no_error (error);
        }
      else
        g_error ("unknown step %s", kind);
#undef NODE

      if (created != NULL)
        g_hash_table_insert (nodes, (gpointer) created->name, created);
      if (error != NULL)
        g_ptr_array_add (errors, g_strdup_printf ("%u %s %s", i, fx_error_code_python_name (error->code),
                                                  error->message));
    }

  return graph;
}

JsonParser *
golden_add_cases (const char *file, const char *prefix, GTestDataFunc func)
{
  JsonParser *parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "conformance", "goldens", file, NULL);
  JsonArray *cases;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  cases = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "cases");
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      g_autofree char *name = g_strdup_printf ("%s%s", prefix, json_object_get_string_member (c, "id"));
      g_test_add_data_func (name, c, func);
    }
  return parser;
}
