/* rewrite-private.h: what matcher.c and replace.c share — dense node ids (so that the hot
 * loops index arrays instead of hashing pointers) and the matcher's entry point. */
#pragma once

#include "rewrite/rewrite.h"

G_BEGIN_DECLS

/* Node ids live in FxNode.user_data (id + 1) for the duration of one call: the previous
 * values are saved and put back by fx_node_ids_release(), so callers keep theirs. */
typedef struct {
  FxGraph *graph;
  GPtrArray *nodes;       /* id → node; ids 0..n_orig-1 in graph order at numbering time */
  gpointer *saved;        /* id → the user_data it had, for the first n_orig */
  guint n_orig;
} FxNodeIds;

void     fx_node_ids_init    (FxNodeIds *ids, FxGraph *graph);
guint    fx_node_ids_add     (FxNodeIds *ids, FxNode *node);   /* a node created meanwhile */
void     fx_node_ids_release (FxNodeIds *ids);

/* The id of a node of ids->graph; G_MAXUINT for a node of another graph (a broken graph). */
static inline guint
fx_node_ids_get (const FxNodeIds *ids, const FxNode *node)
{
  guint id = GPOINTER_TO_UINT (node->user_data) - 1;
  if (node->graph != ids->graph || id >= ids->nodes->len || ids->nodes->pdata[id] != node)
    return G_MAXUINT;
  return id;
}

/* fx_subgraph_match with graph's ids already given (graph unchanged since numbering). */
GPtrArray *fx_rewrite_match  (FxNodeIds *graph_ids, FxGraph *pattern,
                              const FxMatchOptions *options, GError **error);

G_END_DECLS
