/* replace.c: replace_pattern — replaces every match of a pattern by a copy of a replacement
 * graph exactly as torch.fx 1.13's subgraph_rewriter does (insertion point, node names,
 * erasure order), in time linear in the graph plus the matches. */
#include "rewrite/rewrite-private.h"
#include "fx-error.h"

#include <string.h>

/* Order keys: a node precedes another iff its key is smaller. Original nodes are spread
 * KEY_GAP apart; nodes inserted into a gap take keys at most KEY_STEP apart from its low
 * end, so that repeated insertions before one node use the gap up linearly; when a gap is
 * exhausted the whole graph is renumbered (rare, linear). */
#define KEY_GAP (G_GUINT64_CONSTANT (1) << 32)
#define KEY_STEP (G_GUINT64_CONSTANT (1) << 12)

typedef struct {
  FxGraph *graph;
  FxNodeIds ids;
  GArray *keys;                /* guint64 by node id */
  FxNode **changed;            /* original node id → its replacement (match_changed_node) */
  /* the replacement graph */
  GHashTable *rid_of;          /* replacement node → rid + 1 */
  GPtrArray *rnodes;           /* rid → node */
  GArray *rplaceholders;       /* rids of its placeholders, in order */
  FxNode *routput;
  FxValue *rmap;               /* rid → what it stands for in the current copy */
} Rewriter;

static inline guint64
key_of (Rewriter *R, const FxNode *node)
{
  return g_array_index (R->keys, guint64, fx_node_ids_get (&R->ids, node));
}

static void
renumber (Rewriter *R)
{
  guint64 k = 0;
  g_array_set_size (R->keys, R->ids.nodes->len);
  for (FxNode *n = fx_graph_first (R->graph); n != NULL; n = fx_node_next (n))
    g_array_index (R->keys, guint64, fx_node_ids_get (&R->ids, n)) = (k += KEY_GAP);
}

static FxValue
map_replacement (FxNode *node, gpointer user_data)
{
  Rewriter *R = user_data;
  guint rid = GPOINTER_TO_UINT (g_hash_table_lookup (R->rid_of, node));
  if (rid == 0)
    return fx_value_node (node);
  return fx_value_copy (&R->rmap[rid - 1]);
}

/* The first user (in the graph's current order) of the nodes a match returns: where 1.13
 * inserts the replacement. */
static FxNode *
first_user (Rewriter *R, const FxMatch *m)
{
  FxNode *best = NULL, *user;
  guint64 best_key = G_MAXUINT64;

  for (guint i = 0; i < m->n_returning; i++)
    for (guint u = 0; fx_node_set_iter (&m->returning[i]->users, &u, &user);)
      {
        guint64 k = key_of (R, user);
        if (k < best_key)
          {
            best_key = k;
            best = user;
          }
      }
  return best;
}

static gboolean
assertion (GError **error, const char *message)
{
  g_set_error_literal (error, FX_ERROR, FX_ERROR_ASSERTION, message);
  return FALSE;
}

static gboolean
replace_one (Rewriter *R, FxGraph *pattern_graph, GHashTable *pattern_index, FxNode **images,
             const FxMatch *m, GError **error)
{
  FxNode *before = first_user (R, m), *prev;
  g_autoptr (GPtrArray) created = g_ptr_array_new ();
  g_auto (FxValue) copied = fx_value_none ();
  FxInsertPoint saved;
  const FxValue *returned;
  guint n_returned;
  guint64 lo, hi, step;

  if (m->n_placeholders != R->rplaceholders->len)
    return assertion (error, "");
  for (guint i = 0; i < m->n_placeholders; i++)
    {
      const FxValue *v = &m->placeholders[i];
      FxValue *slot = &R->rmap[g_array_index (R->rplaceholders, guint, i)];
      guint id = v->kind == FX_VALUE_NODE ? fx_node_ids_get (&R->ids, v->node) : G_MAXUINT;
      fx_value_clear (slot);
      *slot = id < R->ids.n_orig && R->changed[id] != NULL ? fx_value_node (R->changed[id])
                                                           : fx_value_copy (v);
    }
  if (before == NULL)
    return assertion (error, "The returning_nodes should have at least one user node");

  /* graph_copy(replacement, val_map) before the first user */
  prev = fx_node_prev (before);
  saved = fx_graph_inserting_before (R->graph, before);
  for (guint rid = 0; rid < R->rnodes->len; rid++)
    {
      FxNode *rn = R->rnodes->pdata[rid], *copy;
      if (rn->op == FX_OP_PLACEHOLDER)
        continue;
      if (rn->op == FX_OP_OUTPUT)
        break;
      copy = fx_graph_node_copy (R->graph, rn, map_replacement, R, error);
      if (copy == NULL)
        {
          fx_graph_restore_insert_point (R->graph, saved);
          return FALSE;
        }
      fx_node_ids_add (&R->ids, copy);
      g_ptr_array_add (created, copy);
      fx_value_clear (&R->rmap[rid]);
      R->rmap[rid] = fx_value_node (copy);
    }
  fx_graph_restore_insert_point (R->graph, saved);
  if (R->routput != NULL)
    copied = fx_value_map_nodes (&R->routput->args.seq->items[0], map_replacement, R);

  /* keys for the new nodes, between prev and before */
  lo = prev != NULL ? key_of (R, prev) : 0;
  hi = key_of (R, before);
  step = MIN ((hi - lo) / (created->len + 1), KEY_STEP);
  g_array_set_size (R->keys, R->ids.nodes->len);
  if (step == 0)
    renumber (R);
  else
    for (guint i = 0; i < created->len; i++)
      g_array_index (R->keys, guint64, fx_node_ids_get (&R->ids, created->pdata[i])) = lo + step * (i + 1);

  /* hook the copies' outputs in place of the returned nodes */
  if (copied.kind == FX_VALUE_NODE)
    {
      returned = &copied;
      n_returned = 1;
    }
  else if (copied.kind == FX_VALUE_TUPLE || copied.kind == FX_VALUE_LIST)
    {
      returned = copied.seq->items;
      n_returned = copied.seq->len;
    }
  else
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "the replacement returns %s, not a node or a tuple of nodes",
                   fx_value_kind_name (copied.kind));
      return FALSE;
    }
  if (n_returned != m->n_returning)
    return assertion (error, "");
  for (guint i = 0; i < n_returned; i++)
    {
      FxNode *gn = m->returning[i];
      guint id = fx_node_ids_get (&R->ids, gn);
      if (returned[i].kind != FX_VALUE_NODE)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "the replacement returns a constant (%s) in place of node %s",
                       fx_value_kind_name (returned[i].kind), gn->name);
          return FALSE;
        }
      /* 1.13's replace_all_uses_with asserts that no use is left: one replacing a node by
       * itself (a pattern returning a placeholder the replacement returns too) fails */
      if (returned[i].node == gn && fx_node_set_size (&gn->users) > 0)
        return assertion (error, "");
      g_ptr_array_unref (fx_node_replace_all_uses_with (gn, returned[i].node, NULL, NULL));
      if (id < R->ids.n_orig)
        R->changed[id] = returned[i].node;
    }

  /* erase the matched nodes, the pattern's last first */
  memset (images, 0, sizeof (FxNode *) * g_hash_table_size (pattern_index));
  for (guint i = 0; i < m->n_entries; i++)
    if (m->entries[i].value.kind == FX_VALUE_NODE)
      images[GPOINTER_TO_UINT (g_hash_table_lookup (pattern_index, m->entries[i].pattern)) - 1]
        = m->entries[i].value.node;
  {
    guint pid = g_hash_table_size (pattern_index);
    for (FxNode *pn = fx_graph_last (pattern_graph); pn != NULL; pn = fx_node_prev (pn))
      {
        pid--;
        if (pn->op == FX_OP_PLACEHOLDER || pn->op == FX_OP_OUTPUT || images[pid] == NULL)
          continue;
        if (!fx_graph_erase_node (R->graph, images[pid], error))
          return FALSE;
      }
  }
  return TRUE;
}

gboolean
fx_replace_pattern_graph (FxGraph *graph, FxGraph *pattern, FxGraph *replacement,
                          const FxMatchOptions *options, FxMatchFilterFunc filter,
                          gpointer user_data, GPtrArray **matches, GError **error)
{
  Rewriter R = { 0 };
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (GPtrArray) kept = NULL;
  g_autoptr (GHashTable) pattern_index = NULL;
  g_autofree FxNode **images = NULL;
  gboolean ok = TRUE;
  guint n_pattern = 0;

  if (matches != NULL)
    *matches = NULL;
  if (pattern == graph || replacement == graph)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "replace_pattern: the pattern and the replacement must be other graphs "
                   "than the one rewritten");
      return FALSE;
    }
  R.graph = graph;
  fx_node_ids_init (&R.ids, graph);
  found = fx_rewrite_match (&R.ids, pattern, options, error);
  if (found == NULL)
    {
      fx_node_ids_release (&R.ids);
      return FALSE;
    }

  /* the filters see every match before the graph changes (newer torch.fx) */
  kept = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_match_free);
  for (guint i = 0; i < found->len; i++)
    {
      gboolean keep = TRUE;
      if (filter != NULL && !filter (found->pdata[i], &keep, user_data, error))
        {
          fx_node_ids_release (&R.ids);
          return FALSE;
        }
      if (keep)
        {
          g_ptr_array_add (kept, found->pdata[i]);
          found->pdata[i] = NULL;   /* fx_match_free (NULL) is a no-op */
        }
    }

  R.keys = g_array_new (FALSE, TRUE, sizeof (guint64));
  renumber (&R);
  R.changed = g_new0 (FxNode *, R.ids.n_orig + 1);
  R.rid_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  R.rnodes = g_ptr_array_new ();
  R.rplaceholders = g_array_new (FALSE, FALSE, sizeof (guint));
  for (FxNode *rn = fx_graph_first (replacement); rn != NULL; rn = fx_node_next (rn))
    {
      guint rid = R.rnodes->len;
      g_hash_table_insert (R.rid_of, rn, GUINT_TO_POINTER (rid + 1));
      g_ptr_array_add (R.rnodes, rn);
      if (rn->op == FX_OP_PLACEHOLDER)
        g_array_append_val (R.rplaceholders, rid);
      if (rn->op == FX_OP_OUTPUT && R.routput == NULL)
        R.routput = rn;
    }
  R.rmap = g_new0 (FxValue, R.rnodes->len + 1);
  pattern_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (FxNode *pn = fx_graph_first (pattern); pn != NULL; pn = fx_node_next (pn))
    g_hash_table_insert (pattern_index, pn, GUINT_TO_POINTER (++n_pattern));
  images = g_new0 (FxNode *, n_pattern + 1);

  for (guint i = 0; i < kept->len && ok; i++)
    ok = replace_one (&R, pattern, pattern_index, images, kept->pdata[i], error);

  for (guint i = 0; i < R.rnodes->len; i++)
    fx_value_clear (&R.rmap[i]);
  g_free (R.rmap);
  g_ptr_array_unref (R.rnodes);
  g_array_unref (R.rplaceholders);
  g_hash_table_unref (R.rid_of);
  g_free (R.changed);
  g_array_unref (R.keys);
  fx_node_ids_release (&R.ids);
  if (ok && matches != NULL)
    *matches = g_steal_pointer (&kept);
  return ok;
}

gboolean
fx_replace_pattern (FxGraphModule *gm, FxGraph *pattern, FxGraph *replacement,
                    FxMatchFilterFunc filter, gpointer user_data, GPtrArray **matches,
                    GError **error)
{
  if (!fx_replace_pattern_graph (gm->graph, pattern, replacement, NULL, filter, user_data,
                                 matches, error))
    return FALSE;
  fx_graph_module_recompile (gm);
  return TRUE;
}
