/* rewrite-script.c: the native module torch.fx._rewrite — replace() and match() over Graph
 * objects, for the embedded torch/fx/subgraph_rewriter.py; a match travels to Python as the
 * tuple (anchor, nodes_map, placeholder_nodes, returning_nodes). */
#include "rewrite/rewrite-script.h"
#include "rewrite/rewrite.h"
#include "script/fx-ir.h"
#include "script/internal.h"
#include "fx-error.h"

static FxValue
match_to_script (FxScript *S, const FxMatch *m)
{
  FxSeq *t = fx_seq_new (4);
  FxDict *nodes_map = fx_dict_new ();
  FxSeq *placeholders = fx_seq_new (m->n_placeholders);
  FxSeq *returning = fx_seq_new (m->n_returning);

  for (guint i = 0; i < m->n_entries; i++)
    fx_dict_set (nodes_map, sc_fx_node_wrap (S, m->entries[i].pattern),
                 sc_fx_value_to_script (S, &m->entries[i].value));
  for (guint i = 0; i < m->n_placeholders; i++)
    placeholders->items[i] = sc_fx_value_to_script (S, &m->placeholders[i]);
  for (guint i = 0; i < m->n_returning; i++)
    returning->items[i] = sc_fx_node_wrap (S, m->returning[i]);
  t->items[0] = sc_fx_node_wrap (S, m->anchor);
  t->items[1] = fx_value_take_dict (nodes_map);
  t->items[2] = fx_value_take_list (placeholders);
  t->items[3] = fx_value_take_list (returning);
  return fx_value_take_tuple (t);
}

static FxValue
matches_to_script (FxScript *S, GPtrArray *matches)
{
  FxSeq *list = fx_seq_new (matches->len);
  for (guint i = 0; i < matches->len; i++)
    list->items[i] = match_to_script (S, matches->pdata[i]);
  return fx_value_take_list (list);
}

/* 1.13's exceptions as Python shows them: KeyError of the pattern node itself, a bare
 * AssertionError for an assert without message. */
static gboolean
raise_error (FxScript *S, FxGraph *pattern, GError *error)
{
  FxNode *node;

  if (error->code == FX_ERROR_KEY && error->domain == FX_ERROR
      && (node = fx_graph_find_node_by_name (pattern, error->message)) != NULL)
    {
      g_auto (FxValue) key = sc_fx_node_wrap (S, node);
      sc_raise_key_error (S, &key);
    }
  else if (error->code == FX_ERROR_ASSERTION && error->domain == FX_ERROR && error->message[0] == 0)
    sc_raise_args (S, SC_T_ASSERTION_ERROR, fx_value_take_tuple (fx_seq_new (0)));
  else
    fx_script_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

static gboolean
graph_arg (FxScript *S, const char *fname, const FxValue *v, FxGraph **out)
{
  *out = sc_fx_graph_get (v);
  if (*out == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() expected a Graph, got '%s'", fname,
                     sc_type_name (S, v));
  return TRUE;
}

typedef struct {
  FxScript *S;
  const FxValue *accept;
  gboolean raised;       /* the Python filter raised: its exception is pending */
} Accept;

static gboolean
accept_match (const FxMatch *match, gboolean *keep, gpointer user_data, GError **error)
{
  Accept *a = user_data;
  g_auto (FxValue) m = match_to_script (a->S, match);
  g_auto (FxValue) r = fx_value_none ();

  if (!sc_call (a->S, a->accept, m.seq->items, 4, NULL, 0, &r) || !sc_truth (a->S, &r, keep))
    {
      a->raised = TRUE;
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "match filter raised");
      return FALSE;
    }
  return TRUE;
}

/* replace(graph, pattern_graph, replacement_graph, accept=None) → [match tuple]; accept is
 * called with a match's four fields and keeps it when true. */
static gboolean
f_replace (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  static const char *const names[] = { "graph", "pattern", "replacement", "accept" };
  FxMatchOptions options = FX_MATCH_OPTIONS_INIT;
  const FxValue *a[4];
  FxGraph *graph, *pattern, *replacement;
  GPtrArray *matches = NULL;
  GError *error = NULL;
  Accept acc = { S, NULL, FALSE };
  gboolean has_filter;

  (void) data;
  if (!fx_script_parse_args (S, "replace", args, n_args, kwargs, names, 4, 4, 3, a)
      || !graph_arg (S, "replace", a[0], &graph) || !graph_arg (S, "replace", a[1], &pattern)
      || !graph_arg (S, "replace", a[2], &replacement))
    return FALSE;
  has_filter = a[3] != NULL && a[3]->kind != FX_VALUE_NONE;
  acc.accept = a[3];
  options.key_error_quirk = TRUE;
  if (!fx_replace_pattern_graph (graph, pattern, replacement, &options,
                                 has_filter ? accept_match : NULL, &acc, &matches, &error))
    {
      if (acc.raised)
        {
          g_error_free (error);
          return FALSE;
        }
      return raise_error (S, pattern, error);
    }
  *result = matches_to_script (S, matches);
  g_ptr_array_unref (matches);
  return TRUE;
}

/* match(graph, pattern_graph, match_output=False, match_placeholder=False,
 *       remove_overlapping_matches=True) → [match tuple] (SubgraphMatcher.match). */
static gboolean
f_match (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "graph", "pattern", "match_output", "match_placeholder",
                                       "remove_overlapping_matches" };
  FxMatchOptions options = FX_MATCH_OPTIONS_INIT;
  const FxValue *a[5];
  FxGraph *graph, *pattern;
  GPtrArray *matches;
  GError *error = NULL;

  (void) data;
  if (!fx_script_parse_args (S, "match", args, n_args, kwargs, names, 5, 5, 2, a)
      || !graph_arg (S, "match", a[0], &graph) || !graph_arg (S, "match", a[1], &pattern)
      || (a[2] != NULL && !sc_truth (S, a[2], &options.match_output))
      || (a[3] != NULL && !sc_truth (S, a[3], &options.match_placeholder))
      || (a[4] != NULL && !sc_truth (S, a[4], &options.remove_overlapping)))
    return FALSE;
  options.key_error_quirk = TRUE;
  matches = fx_subgraph_match (graph, pattern, &options, &error);
  if (matches == NULL)
    return raise_error (S, pattern, error);
  *result = matches_to_script (S, matches);
  g_ptr_array_unref (matches);
  return TRUE;
}

static gboolean
rewrite_module_init (FxScript *S, FxScriptModule *module, gpointer user_data)
{
  (void) S;
  (void) user_data;
  fx_script_module_add_function (module, "replace", f_replace, NULL);
  fx_script_module_add_function (module, "match", f_match, NULL);
  return TRUE;
}

void
fx_rewrite_script_init (FxScript *script)
{
  fx_script_register_module (script, "torch.fx._rewrite", rewrite_module_init, NULL, NULL);
}
