/* matcher.c: SubgraphMatcher — finds a pattern graph in a graph with torch.fx 1.13's
 * semantics (passes/utils/matcher_utils.py), iteratively: explicit stacks instead of recursion
 * over graph depth, per-node-id arrays instead of dicts, and overlap removal done as matches
 * are found, so that a scan of the graph costs about its size plus the matches' sizes. */
#include "rewrite/rewrite-private.h"
#include "fx-error.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- node ids */

void
fx_node_ids_init (FxNodeIds *ids, FxGraph *graph)
{
  guint n = fx_graph_n_nodes (graph), i = 0;

  ids->graph = graph;
  ids->nodes = g_ptr_array_sized_new (n + 16);
  ids->saved = g_new (gpointer, n + 1);
  for (FxNode *node = fx_graph_first (graph); node != NULL; node = fx_node_next (node), i++)
    {
      ids->saved[i] = node->user_data;
      node->user_data = GUINT_TO_POINTER (i + 1);
      g_ptr_array_add (ids->nodes, node);
    }
  ids->n_orig = i;
}

guint
fx_node_ids_add (FxNodeIds *ids, FxNode *node)
{
  guint id = ids->nodes->len;
  g_ptr_array_add (ids->nodes, node);
  node->user_data = GUINT_TO_POINTER (id + 1);
  return id;
}

void
fx_node_ids_release (FxNodeIds *ids)
{
  for (guint i = 0; i < ids->nodes->len; i++)
    ((FxNode *) ids->nodes->pdata[i])->user_data = i < ids->n_orig ? ids->saved[i] : NULL;
  g_clear_pointer (&ids->nodes, g_ptr_array_unref);
  g_clear_pointer (&ids->saved, g_free);
}

/* ---------------------------------------------------------------- matches */

void
fx_match_free (FxMatch *match)
{
  if (match == NULL)
    return;
  for (guint i = 0; i < match->n_entries; i++)
    fx_value_clear (&match->entries[i].value);
  for (guint i = 0; i < match->n_placeholders; i++)
    fx_value_clear (&match->placeholders[i]);
  g_free (match->entries);
  g_free (match->placeholders);
  g_free (match->returning);
  g_free (match);
}

const FxValue *
fx_match_lookup (const FxMatch *match, const FxNode *pattern_node)
{
  for (guint i = 0; i < match->n_entries; i++)
    if (match->entries[i].pattern == pattern_node)
      return &match->entries[i].value;
  return NULL;
}

/* ---------------------------------------------------------------- flattening */

/* pytree's containers: tuples (named ones too, but not torch.Size-like typed tuples, which
 * pytree sees as leaves), lists (immutable_list) and dicts (their values). */
static gboolean
is_container (const FxValue *v)
{
  return v->kind == FX_VALUE_LIST || v->kind == FX_VALUE_DICT
         || (v->kind == FX_VALUE_TUPLE && (v->seq->type == NULL || v->seq->type->n_fields > 0));
}

typedef struct {
  const FxValue *container;
  guint index;
} FlattenFrame;

/* tree_flatten(value)'s leaves appended to out, with an explicit stack. */
static void
flatten (const FxValue *value, GPtrArray *out, GArray *stack)
{
  g_array_set_size (stack, 0);
  if (!is_container (value))
    {
      g_ptr_array_add (out, (gpointer) value);
      return;
    }
  g_array_append_val (stack, ((FlattenFrame) { value, 0 }));
  while (stack->len > 0)
    {
      FlattenFrame *top = &g_array_index (stack, FlattenFrame, stack->len - 1);
      const FxValue *child = NULL;

      if (top->container->kind == FX_VALUE_DICT)
        {
          const FxValue *key;
          if (!fx_dict_entry (top->container->dict, top->index, &key, &child))
            child = NULL;
        }
      else if (top->index < top->container->seq->len)
        child = &top->container->seq->items[top->index];
      top->index++;
      if (child == NULL)
        g_array_set_size (stack, stack->len - 1);
      else if (is_container (child))
        g_array_append_val (stack, ((FlattenFrame) { child, 0 }));
      else
        g_ptr_array_add (out, (gpointer) child);
    }
}

/* _match_args on two literals: type(gn) == type(pn) and gn == pn. */
static gboolean
literal_equal (const FxValue *p, const FxValue *g)
{
  if (p->kind != g->kind)
    return FALSE;
  if (p->kind == FX_VALUE_TUPLE && p->seq->type != g->seq->type)
    return FALSE;
  if (p->kind == FX_VALUE_OBJECT && p->obj->klass != g->obj->klass)
    return FALSE;
  return fx_value_equal (p, g);
}

/* ---------------------------------------------------------------- the pattern */

#define NO_PID G_MAXUINT

typedef struct {
  guint pid;               /* a pattern node, or NO_PID for a literal */
  const FxValue *literal;
  const FxValue *key;      /* kwargs items: their key (compared unflattened, as 1.13 does) */
} PatItem;

typedef struct {
  FxNode *node;
  gboolean wildcard;       /* a placeholder matching anything */
  gboolean compute;        /* neither placeholder nor output: what a rewrite replaces */
  gboolean returning;      /* returned by the pattern's output */
  guint first_item, n_items, n_kwargs;
} PatNode;

typedef struct {
  GHashTable *pid_of;      /* pattern node → pid + 1 (patterns are small; only set-up looks up) */
  PatNode *pn;
  guint n;
  GArray *items;           /* PatItem */
  GArray *placeholders;    /* pids, in order */
  GArray *returning;       /* pids: output.all_input_nodes */
  GArray *anchors;         /* pids: 1.13's pattern_anchors */
} Pattern;

static inline guint
pattern_pid (const Pattern *P, const FxNode *node)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (P->pid_of, node)) - 1;
}

static gboolean
pattern_init (Pattern *P, FxGraph *pattern, const FxMatchOptions *opt, GError **error)
{
  g_autoptr (GPtrArray) flat = g_ptr_array_new ();
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (FlattenFrame));
  FxNode *output = fx_graph_last (pattern);

  memset (P, 0, sizeof *P);
  if (output == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "SubgraphMatcher cannot be initialized with an empty pattern");
      return FALSE;
    }
  P->pid_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (FxNode *node = fx_graph_first (pattern); node != NULL; node = fx_node_next (node))
    g_hash_table_insert (P->pid_of, node, GUINT_TO_POINTER (++P->n));
  P->pn = g_new0 (PatNode, P->n);
  P->items = g_array_new (FALSE, FALSE, sizeof (PatItem));
  P->placeholders = g_array_new (FALSE, FALSE, sizeof (guint));
  P->returning = g_array_new (FALSE, FALSE, sizeof (guint));
  P->anchors = g_array_new (FALSE, FALSE, sizeof (guint));

  for (FxNode *node = fx_graph_first (pattern); node != NULL; node = fx_node_next (node))
    {
      guint pid = pattern_pid (P, node);
      PatNode *pn = &P->pn[pid];
      const FxValue *k, *v;

      pn->node = node;
      pn->wildcard = node->op == FX_OP_PLACEHOLDER && !opt->match_placeholder;
      pn->compute = node->op != FX_OP_PLACEHOLDER && node->op != FX_OP_OUTPUT;
      if (node->op != FX_OP_OUTPUT && fx_node_set_size (&node->users) == 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_ASSERTION,
                       "SubgraphMatcher cannot be initialized with an pattern with dead code");
          return FALSE;
        }
      if (node->op == FX_OP_PLACEHOLDER)
        g_array_append_val (P->placeholders, pid);

      /* args flattened, then kwargs values as they are, in the pattern's key order */
      g_ptr_array_set_size (flat, 0);
      flatten (&node->args, flat, stack);
      pn->first_item = P->items->len;
      for (guint i = 0; i < flat->len; i++)
        {
          const FxValue *leaf = flat->pdata[i];
          PatItem item = { NO_PID, leaf, NULL };
          if (leaf->kind == FX_VALUE_NODE)
            item.pid = pattern_pid (P, leaf->node);
          g_array_append_val (P->items, item);
        }
      for (guint i = 0; fx_dict_entry (node->kwargs.dict, i, &k, &v); i++)
        {
          PatItem item = { NO_PID, v, k };
          if (v->kind == FX_VALUE_NODE)
            item.pid = pattern_pid (P, v->node);
          g_array_append_val (P->items, item);
          pn->n_kwargs++;
        }
      pn->n_items = P->items->len - pn->first_item;
      for (guint i = pn->first_item; i < P->items->len; i++)
        if (g_array_index (P->items, PatItem, i).literal->kind == FX_VALUE_NODE
            && g_array_index (P->items, PatItem, i).pid == NO_PID)
          {
            g_set_error (error, FX_ERROR, FX_ERROR_GRAPH,
                         "pattern node %s uses a node of another graph", node->name);
            return FALSE;
          }
    }

  /* 1.13 takes the last node as the output, its inputs as the returned nodes, and as
   * anchors those of them used by the output alone (or the output itself). */
  {
    FxNode *in;
    for (guint i = 0; fx_node_set_iter (&output->input_nodes, &i, &in);)
      {
        guint pid = pattern_pid (P, in);
        P->pn[pid].returning = TRUE;
        g_array_append_val (P->returning, pid);
        if (!opt->match_output && fx_node_set_size (&in->users) == 1)
          g_array_append_val (P->anchors, pid);
      }
    if (opt->match_output)
      {
        guint pid = pattern_pid (P, output);
        g_array_append_val (P->anchors, pid);
      }
  }
  if (P->anchors->len == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "the pattern returns no node that only its output uses: nothing to anchor "
                   "a match on");
      return FALSE;
    }
  return TRUE;
}

static void
pattern_clear (Pattern *P)
{
  g_clear_pointer (&P->pid_of, g_hash_table_unref);
  g_clear_pointer (&P->pn, g_free);
  g_clear_pointer (&P->items, g_array_unref);
  g_clear_pointer (&P->placeholders, g_array_unref);
  g_clear_pointer (&P->returning, g_array_unref);
  g_clear_pointer (&P->anchors, g_array_unref);
}

/* _nodes_are_equal */
static inline gboolean
nodes_equal (const PatNode *pn, const FxNode *gn)
{
  if (pn->wildcard)
    return TRUE;
  if (pn->node->op != gn->op)
    return FALSE;
  if (gn->op == FX_OP_PLACEHOLDER || gn->op == FX_OP_OUTPUT)
    return TRUE;
  return fx_value_equal (&pn->node->target, &gn->target);
}

/* ---------------------------------------------------------------- matching state */

typedef struct {
  guint pid;
  FxNode *gnode;           /* what it matched: a node, */
  const FxValue *glit;     /* or (placeholders) a literal of the graph's args */
} LogEntry;

typedef struct {
  guint pid;               /* NO_PID: the pattern side is the literal plit */
  const FxValue *plit;
  FxNode *gnode;
  const FxValue *glit;
} Pair;

/* One anchor level of the search over anchor candidates (1.13's backtracking). */
typedef struct {
  guint pid;
  GPtrArray *all;          /* every node equal to the anchor, in graph order */
  GArray *path;            /* pids u0 → … → anchor (u0 matched by earlier anchors), or NULL */
  GPtrArray *derived;      /* candidates reached from u0's match along path */
  GPtrArray *cand;         /* all or derived */
  guint next;
  guint saved;             /* log length before this level */
} Level;

typedef struct {
  const FxMatchOptions *opt;
  Pattern P;
  FxNodeIds *ids;
  guint n;                 /* graph ids */
  GArray *log;             /* LogEntry: nodes_map in insertion order */
  gint *pmap;              /* pid → log index, -1 */
  guint *gmark;            /* gid → pid + 1 of the pattern node matched to it, 0 */
  guint8 *consumed;        /* gid → a compute node of a kept match */
  guint *stamp;            /* gid → epoch of the last search that saw it */
  guint epoch;
  GArray *pairs;           /* Pair stack */
  GPtrArray *flat;
  GArray *flat_stack;
  GPtrArray *scratch;
  GPtrArray *result;
} Matcher;

static void
log_truncate (Matcher *M, guint len)
{
  while (M->log->len > len)
    {
      LogEntry *e = &g_array_index (M->log, LogEntry, M->log->len - 1);
      if (e->gnode != NULL)
        M->gmark[fx_node_ids_get (M->ids, e->gnode)] = 0;
      M->pmap[e->pid] = -1;
      g_array_set_size (M->log, M->log->len - 1);
    }
}

static void
log_add (Matcher *M, guint pid, FxNode *gnode, guint gid, const FxValue *glit)
{
  LogEntry e = { pid, gnode, glit };
  M->pmap[pid] = (gint) M->log->len;
  if (gnode != NULL)
    M->gmark[gid] = pid + 1;
  g_array_append_val (M->log, e);
}

static inline void
push_pair (Matcher *M, guint pid, const FxValue *plit, const FxValue *g)
{
  Pair p = { pid, plit, NULL, NULL };
  if (g->kind == FX_VALUE_NODE)
    p.gnode = g->node;
  else
    p.glit = g;
  g_array_append_val (M->pairs, p);
}

/* One step of _match_nodes / _match_args: checks a pair and pushes the pairs of its
 * arguments, in reverse so that they are checked in 1.13's (depth-first) order. */
static gboolean
match_pair (Matcher *M, const Pair *pr)
{
  const PatNode *pn;
  FxNode *gn = pr->gnode;
  guint gid, n_flat;

  if (pr->pid == NO_PID)
    return gn == NULL && literal_equal (pr->plit, pr->glit);
  pn = &M->P.pn[pr->pid];
  if (gn == NULL)
    {
      if (pn->node->op != FX_OP_PLACEHOLDER)
        return FALSE;
      if (M->pmap[pr->pid] >= 0)
        {
          const LogEntry *e = &g_array_index (M->log, LogEntry, M->pmap[pr->pid]);
          return e->gnode == NULL && fx_value_equal (e->glit, pr->glit);
        }
      log_add (M, pr->pid, NULL, 0, pr->glit);
      return TRUE;
    }
  if (M->pmap[pr->pid] >= 0)
    return g_array_index (M->log, LogEntry, M->pmap[pr->pid]).gnode == gn;
  gid = fx_node_ids_get (M->ids, gn);
  if (gid == G_MAXUINT || M->gmark[gid] != 0 || !nodes_equal (pn, gn))
    return FALSE;
  log_add (M, pr->pid, gn, gid, NULL);
  if (pn->node->op == FX_OP_PLACEHOLDER)
    return TRUE;

  if (fx_dict_len (gn->kwargs.dict) != pn->n_kwargs)
    return FALSE;
  for (guint i = pn->n_items - pn->n_kwargs; i < pn->n_items; i++)
    if (fx_dict_get (gn->kwargs.dict, g_array_index (M->P.items, PatItem, pn->first_item + i).key) == NULL)
      return FALSE;
  g_ptr_array_set_size (M->flat, 0);
  flatten (&gn->args, M->flat, M->flat_stack);
  n_flat = M->flat->len;
  if (n_flat + pn->n_kwargs != pn->n_items)
    return FALSE;
  for (guint i = pn->n_items; i-- > 0;)
    {
      const PatItem *it = &g_array_index (M->P.items, PatItem, pn->first_item + i);
      const FxValue *g = i < n_flat ? M->flat->pdata[i] : fx_dict_get (gn->kwargs.dict, it->key);
      push_pair (M, it->pid, it->literal, g);
    }
  return TRUE;
}

/* _match_nodes(anchor, candidate) on the current match; on failure the caller truncates. */
static gboolean
match_anchor (Matcher *M, guint pid, FxNode *candidate)
{
  Pair first = { pid, NULL, candidate, NULL };

  g_array_set_size (M->pairs, 0);
  g_array_append_val (M->pairs, first);
  while (M->pairs->len > 0)
    {
      Pair pr = g_array_index (M->pairs, Pair, M->pairs->len - 1);
      g_array_set_size (M->pairs, M->pairs->len - 1);
      if (!match_pair (M, &pr))
        return FALSE;
    }
  return TRUE;
}

static inline gboolean
in_partition (const Matcher *M, guint gid)
{
  return M->gmark[gid] != 0 && M->P.pn[M->gmark[gid] - 1].compute;
}

/* _is_contained: inner nodes (neither placeholders nor returned) used only inside. */
static gboolean
is_contained (Matcher *M)
{
  for (guint i = 0; i < M->log->len; i++)
    {
      const LogEntry *e = &g_array_index (M->log, LogEntry, i);
      const PatNode *pn = &M->P.pn[e->pid];
      FxNode *user;

      if (e->gnode == NULL || pn->node->op == FX_OP_PLACEHOLDER || pn->returning)
        continue;
      for (guint u = 0; fx_node_set_iter (&e->gnode->users, &u, &user);)
        {
          guint uid = fx_node_ids_get (M->ids, user);
          if (uid == G_MAXUINT || M->gmark[uid] == 0)
            return FALSE;
        }
    }
  return TRUE;
}

/* validate_partition: no path leaves the matched compute nodes and comes back. Edges go
 * forward in the graph's (topological) order, so the search never needs to pass the last
 * matched node: it stays within the match's span. */
static gboolean
forms_cycle (Matcher *M)
{
  GPtrArray *stack = M->scratch;
  guint max_gid = 0;
  FxNode *user;

  M->epoch++;
  g_ptr_array_set_size (stack, 0);
  for (guint i = 0; i < M->log->len; i++)
    {
      const LogEntry *e = &g_array_index (M->log, LogEntry, i);
      if (e->gnode != NULL && M->P.pn[e->pid].compute)
        max_gid = MAX (max_gid, fx_node_ids_get (M->ids, e->gnode));
    }
  for (guint i = 0; i < M->log->len; i++)
    {
      const LogEntry *e = &g_array_index (M->log, LogEntry, i);
      if (e->gnode == NULL || !M->P.pn[e->pid].compute)
        continue;
      for (guint u = 0; fx_node_set_iter (&e->gnode->users, &u, &user);)
        {
          guint uid = fx_node_ids_get (M->ids, user);
          if (uid != G_MAXUINT && uid < max_gid && !in_partition (M, uid) && M->stamp[uid] != M->epoch)
            {
              M->stamp[uid] = M->epoch;
              g_ptr_array_add (stack, user);
            }
        }
    }
  while (stack->len > 0)
    {
      FxNode *node = g_ptr_array_steal_index_fast (stack, stack->len - 1);
      for (guint u = 0; fx_node_set_iter (&node->users, &u, &user);)
        {
          guint uid = fx_node_ids_get (M->ids, user);
          if (uid == G_MAXUINT || uid > max_gid || M->stamp[uid] == M->epoch)
            continue;
          if (in_partition (M, uid))
            return TRUE;
          M->stamp[uid] = M->epoch;
          g_ptr_array_add (stack, user);
        }
    }
  return FALSE;
}

/* The pattern node of the first placeholder / returned node left unmatched (1.13 raises
 * KeyError for it), or NULL. */
static FxNode *
first_unmatched (Matcher *M)
{
  for (guint i = 0; i < M->P.placeholders->len; i++)
    if (M->pmap[g_array_index (M->P.placeholders, guint, i)] < 0)
      return M->P.pn[g_array_index (M->P.placeholders, guint, i)].node;
  for (guint i = 0; i < M->P.returning->len; i++)
    if (M->pmap[g_array_index (M->P.returning, guint, i)] < 0)
      return M->P.pn[g_array_index (M->P.returning, guint, i)].node;
  return NULL;
}

static FxValue
entry_value (const LogEntry *e)
{
  return e->gnode != NULL ? fx_value_node (e->gnode) : fx_value_copy (e->glit);
}

static FxMatch *
match_build (Matcher *M, GError **error)
{
  FxMatch *m = g_new0 (FxMatch, 1);

  m->anchor = M->P.pn[g_array_index (M->P.anchors, guint, 0)].node;
  m->n_entries = M->log->len;
  m->entries = g_new (FxMatchEntry, m->n_entries);
  for (guint i = 0; i < m->n_entries; i++)
    {
      const LogEntry *e = &g_array_index (M->log, LogEntry, i);
      m->entries[i].pattern = M->P.pn[e->pid].node;
      m->entries[i].value = entry_value (e);
    }
  m->n_placeholders = M->P.placeholders->len;
  m->placeholders = g_new (FxValue, m->n_placeholders + 1);
  for (guint i = 0; i < m->n_placeholders; i++)
    m->placeholders[i] = entry_value (&g_array_index (M->log, LogEntry,
                                                      M->pmap[g_array_index (M->P.placeholders, guint, i)]));
  m->n_returning = M->P.returning->len;
  m->returning = g_new (FxNode *, m->n_returning + 1);
  for (guint i = 0; i < m->n_returning; i++)
    {
      const LogEntry *e = &g_array_index (M->log, LogEntry,
                                          M->pmap[g_array_index (M->P.returning, guint, i)]);
      m->returning[i] = e->gnode;
      if (e->gnode == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "the pattern returns its placeholder %s, which matched a constant "
                       "argument: such a match cannot be replaced", M->P.pn[e->pid].node->name);
          fx_match_free (m);
          return NULL;
        }
    }
  return m;
}

/* A complete assignment of the anchors: the filters of match(), then overlap removal as
 * _remove_overlapping_matches does it (a match is kept when it shares no compute node with
 * the matches kept before it). -1 error, 0 dropped, 1 kept. */
static int
emit (Matcher *M, GError **error)
{
  FxNode *missing = first_unmatched (M);
  FxMatch *m;

  if (missing != NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_KEY, missing->name);
      return -1;
    }
  if (!is_contained (M) || forms_cycle (M))
    return 0;
  if (M->opt->remove_overlapping)
    {
      for (guint i = 0; i < M->log->len; i++)
        {
          const LogEntry *e = &g_array_index (M->log, LogEntry, i);
          if (e->gnode != NULL && M->P.pn[e->pid].compute
              && M->consumed[fx_node_ids_get (M->ids, e->gnode)])
            return 0;
        }
      for (guint i = 0; i < M->log->len; i++)
        {
          const LogEntry *e = &g_array_index (M->log, LogEntry, i);
          if (e->gnode != NULL && M->P.pn[e->pid].compute)
            M->consumed[fx_node_ids_get (M->ids, e->gnode)] = TRUE;
        }
    }
  if ((m = match_build (M, error)) == NULL)
    return -1;
  g_ptr_array_add (M->result, m);
  return 1;
}

/* ---------------------------------------------------------------- anchors after the first */

/* For anchor level l: a shortest path in the pattern from a node u0 that earlier anchors'
 * matches cover (their ancestors) to the anchor, through users. A candidate for the anchor
 * must then be reachable from u0's match along nodes equal to the path's, which turns a scan
 * of every candidate into a walk from one node. A non-placeholder u0 is preferred (a graph
 * input may have many users). NULL when no earlier anchor shares an ancestor. */
static GArray *
anchor_path (Pattern *P, const GArray *anchor_pids, guint level)
{
  g_autofree guint8 *covered = g_new0 (guint8, P->n);
  g_autofree guint *parent = g_new (guint, P->n);
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint));
  guint start = NO_PID, fallback = NO_PID;
  GArray *path;
  FxNode *in;

  /* covered: ancestors (inclusive) of the earlier anchors */
  for (guint l = 0; l < level; l++)
    {
      guint a = g_array_index (anchor_pids, guint, l);
      if (!covered[a])
        {
          covered[a] = 1;
          g_array_append_val (queue, a);
        }
    }
  for (guint q = 0; q < queue->len; q++)
    {
      FxNode *node = P->pn[g_array_index (queue, guint, q)].node;
      for (guint i = 0; fx_node_set_iter (&node->input_nodes, &i, &in);)
        {
          guint pid = pattern_pid (P, in);
          if (!covered[pid])
            {
              covered[pid] = 1;
              g_array_append_val (queue, pid);
            }
        }
    }

  /* breadth-first from the anchor towards its inputs */
  g_array_set_size (queue, 0);
  for (guint i = 0; i < P->n; i++)
    parent[i] = NO_PID;
  {
    guint a = g_array_index (anchor_pids, guint, level);
    parent[a] = a;
    g_array_append_val (queue, a);
  }
  for (guint q = 0; q < queue->len && start == NO_PID; q++)
    {
      guint pid = g_array_index (queue, guint, q);
      FxNode *node = P->pn[pid].node;
      for (guint i = 0; fx_node_set_iter (&node->input_nodes, &i, &in);)
        {
          guint ip = pattern_pid (P, in);
          if (parent[ip] != NO_PID)
            continue;
          parent[ip] = pid;
          if (!covered[ip])
            g_array_append_val (queue, ip);
          else if (in->op != FX_OP_PLACEHOLDER)
            {
              start = ip;
              break;
            }
          else if (fallback == NO_PID)
            fallback = ip;
        }
    }
  if (start == NO_PID)
    start = fallback;
  if (start == NO_PID)
    return NULL;
  path = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint p = start;; p = parent[p])
    {
      g_array_append_val (path, p);
      if (parent[p] == p)
        break;
    }
  return path;
}

static gint
compare_ids (gconstpointer a, gconstpointer b)
{
  guint x = GPOINTER_TO_UINT ((*(FxNode *const *) a)->user_data);
  guint y = GPOINTER_TO_UINT ((*(FxNode *const *) b)->user_data);
  return x < y ? -1 : x > y;
}

/* The candidates of a level given the match so far (see anchor_path). */
static void
level_candidates (Matcher *M, Level *L)
{
  const LogEntry *e;
  GPtrArray *cur = L->derived, *next = M->scratch;
  FxNode *user;

  L->cand = L->all;
  L->next = 0;
  if (L->path == NULL)
    return;
  e = &g_array_index (M->log, LogEntry, M->pmap[g_array_index (L->path, guint, 0)]);
  if (e->gnode == NULL)
    return;
  g_ptr_array_set_size (cur, 0);
  g_ptr_array_add (cur, e->gnode);
  for (guint step = 1; step < L->path->len && cur->len > 0; step++)
    {
      const PatNode *pn = &M->P.pn[g_array_index (L->path, guint, step)];
      M->epoch++;
      g_ptr_array_set_size (next, 0);
      for (guint i = 0; i < cur->len; i++)
        {
          FxNode *node = cur->pdata[i];
          for (guint u = 0; fx_node_set_iter (&node->users, &u, &user);)
            {
              guint uid = fx_node_ids_get (M->ids, user);
              if (uid == G_MAXUINT || M->stamp[uid] == M->epoch || !nodes_equal (pn, user))
                continue;
              M->stamp[uid] = M->epoch;
              g_ptr_array_add (next, user);
            }
        }
      g_ptr_array_set_size (cur, 0);
      g_ptr_array_extend (cur, next, NULL, NULL);
    }
  g_ptr_array_sort (cur, compare_ids);
  L->cand = cur;
}

/* ---------------------------------------------------------------- the search */

GPtrArray *
fx_rewrite_match (FxNodeIds *ids, FxGraph *pattern, const FxMatchOptions *options,
                  GError **error)
{
  static const FxMatchOptions defaults = FX_MATCH_OPTIONS_INIT;
  Matcher M = { 0 };
  g_autoptr (GArray) present = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree Level *levels = NULL;
  GPtrArray *result = NULL;
  guint n_levels = 0, level;
  gboolean failed = FALSE;

  M.opt = options != NULL ? options : &defaults;
  if (!pattern_init (&M.P, pattern, M.opt, error))
    {
      pattern_clear (&M.P);
      return NULL;
    }
  M.ids = ids;
  M.n = ids->nodes->len;
  M.log = g_array_new (FALSE, FALSE, sizeof (LogEntry));
  M.pmap = g_new (gint, M.P.n);
  for (guint i = 0; i < M.P.n; i++)
    M.pmap[i] = -1;
  M.gmark = g_new0 (guint, M.n + 1);
  M.consumed = g_new0 (guint8, M.n + 1);
  M.stamp = g_new0 (guint, M.n + 1);
  M.pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  M.flat = g_ptr_array_new ();
  M.flat_stack = g_array_new (FALSE, FALSE, sizeof (FlattenFrame));
  M.scratch = g_ptr_array_new ();
  M.result = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_match_free);

  /* candidates: one pass over the graph for all anchors */
  levels = g_new0 (Level, M.P.anchors->len + 1);
  for (guint a = 0; a < M.P.anchors->len; a++)
    {
      levels[a].pid = g_array_index (M.P.anchors, guint, a);
      levels[a].all = g_ptr_array_new ();
      levels[a].derived = g_ptr_array_new ();
    }
  for (guint gid = 0; gid < M.n; gid++)
    {
      FxNode *gn = ids->nodes->pdata[gid];
      for (guint a = 0; a < M.P.anchors->len; a++)
        if (nodes_equal (&M.P.pn[levels[a].pid], gn))
          g_ptr_array_add (levels[a].all, gn);
    }
  /* 1.13 keeps its candidates in a defaultdict: an anchor without any is left out of the
   * search (and the match then lacks it: KeyError); without the quirk there is no match. */
  for (guint a = 0; a < M.P.anchors->len; a++)
    {
      if (levels[a].all->len == 0 && !M.opt->key_error_quirk)
        goto done;
      if (levels[a].all->len > 0)
        {
          if (n_levels != a)
            {
              Level tmp = levels[n_levels];
              levels[n_levels] = levels[a];
              levels[a] = tmp;
            }
          g_array_append_val (present, levels[n_levels].pid);
          n_levels++;
        }
    }
  for (guint l = 1; l < n_levels; l++)
    levels[l].path = anchor_path (&M.P, present, l);

  level = 0;
  if (n_levels > 0)
    level_candidates (&M, &levels[0]);
  for (;;)
    {
      Level *L;
      gboolean found = FALSE;

      if (level == n_levels)
        {
          int kept = emit (&M, error);
          if (kept < 0)
            {
              failed = TRUE;
              break;
            }
          if (n_levels == 0)
            break;
          level = n_levels - 1;
          if (kept)
            /* every assignment extending a prefix that holds a compute node of this match
             * overlaps it: go back to the first level that holds one */
            for (guint l = 0; l < n_levels; l++)
              {
                guint end = l + 1 < n_levels ? levels[l + 1].saved : M.log->len;
                gboolean has = FALSE;
                for (guint i = levels[l].saved; i < end && !has; i++)
                  has = g_array_index (M.log, LogEntry, i).gnode != NULL
                        && M.P.pn[g_array_index (M.log, LogEntry, i).pid].compute;
                if (has)
                  {
                    level = l;
                    break;
                  }
              }
          continue;
        }
      L = &levels[level];
      log_truncate (&M, L->saved);
      while (L->next < L->cand->len)
        {
          FxNode *c = L->cand->pdata[L->next++];
          if (M.opt->remove_overlapping && M.P.pn[L->pid].compute
              && M.consumed[fx_node_ids_get (ids, c)])
            continue;
          if (match_anchor (&M, L->pid, c))
            {
              found = TRUE;
              break;
            }
          log_truncate (&M, L->saved);
        }
      if (!found)
        {
          if (level == 0)
            break;
          level--;
          continue;
        }
      level++;
      if (level < n_levels)
        {
          levels[level].saved = M.log->len;
          level_candidates (&M, &levels[level]);
        }
    }

done:
  if (!failed)
    result = g_ptr_array_ref (M.result);
  for (guint a = 0; a < M.P.anchors->len; a++)
    {
      g_clear_pointer (&levels[a].all, g_ptr_array_unref);
      g_clear_pointer (&levels[a].derived, g_ptr_array_unref);
      g_clear_pointer (&levels[a].path, g_array_unref);
    }
  g_ptr_array_unref (M.result);
  g_array_unref (M.log);
  g_free (M.pmap);
  g_free (M.gmark);
  g_free (M.consumed);
  g_free (M.stamp);
  g_array_unref (M.pairs);
  g_ptr_array_unref (M.flat);
  g_array_unref (M.flat_stack);
  g_ptr_array_unref (M.scratch);
  pattern_clear (&M.P);
  return result;
}

GPtrArray *
fx_subgraph_match (FxGraph *graph, FxGraph *pattern, const FxMatchOptions *options,
                   GError **error)
{
  FxNodeIds ids;
  GPtrArray *result;

  fx_node_ids_init (&ids, graph);
  result = fx_rewrite_match (&ids, pattern, options, error);
  fx_node_ids_release (&ids);
  return result;
}
