/* rewrite.h: the subgraph rewriter — SubgraphMatcher and replace_pattern (find/replace on
 * graphs) with torch.fx 1.13's semantics, iterative and close to linear in the graph's size. */
#pragma once

#include <glib.h>
#include "ir/graph.h"
#include "ir/graph-module.h"

G_BEGIN_DECLS

/* One pair of a match's nodes_map: a pattern node and what it matched — a node of the graph
 * (FX_VALUE_NODE), or for a pattern placeholder possibly a literal argument. */
typedef struct {
  FxNode *pattern;
  FxValue value;
} FxMatchEntry;

/* A match (1.13's InternalMatch; Match(anchor, nodes_map) is its first two fields). */
typedef struct {
  FxNode *anchor;             /* the pattern's first anchor: a pattern node, as in 1.13 */
  guint n_entries;
  FxMatchEntry *entries;      /* nodes_map, in the order 1.13 fills it */
  guint n_placeholders;
  FxValue *placeholders;      /* what the pattern's placeholders matched, in their order */
  guint n_returning;
  FxNode **returning;         /* the graph nodes matched by the nodes the pattern returns */
} FxMatch;

void           fx_match_free   (FxMatch *match);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxMatch, fx_match_free)
/* What pattern_node matched, or NULL when it is not in the match. */
const FxValue *fx_match_lookup (const FxMatch *match, const FxNode *pattern_node);

typedef struct {
  gboolean match_output;        /* the pattern's output must match the graph's output */
  gboolean match_placeholder;   /* pattern placeholders match graph placeholders only */
  gboolean remove_overlapping;  /* of overlapping matches keep the first (replace_pattern) */
  /* 1.13 raises KeyError (the pattern node) when one of the pattern's anchors matches no
   * node of the graph at all, instead of finding no match; TRUE reproduces that (scripts).
   * The error is FX_ERROR_KEY with the pattern node's name as message. */
  gboolean key_error_quirk;
} FxMatchOptions;

/* replace_pattern's matcher: wildcard placeholders, output not matched, no overlaps. */
#define FX_MATCH_OPTIONS_INIT { FALSE, FALSE, TRUE, FALSE }

/* Both entry points borrow FxNode.user_data of graph's nodes during the call (dense ids for
 * the hot loops) and put the previous values back before they return. */

/* SubgraphMatcher(pattern, ...).match(graph): the matches of pattern in graph, in 1.13's
 * order (by the graph position of the node matching each anchor, first anchor first), each
 * self-contained (inner nodes used only inside it) and not forming a cycle if fused. Pattern
 * nodes other than output must be used (1.13's "dead code" assertion). An array of FxMatch
 * (free function set), or NULL with error. options: NULL for FX_MATCH_OPTIONS_INIT. */
GPtrArray     *fx_subgraph_match  (FxGraph *graph, FxGraph *pattern,
                                   const FxMatchOptions *options, GError **error);

/* A match filter (newer torch.fx's match_filters): sets *keep; FALSE with error to stop the
 * rewrite. Filters see each match that replace_pattern would replace (after overlapping
 * matches were removed, as in torch.fx), before the graph changes. */
typedef gboolean (*FxMatchFilterFunc) (const FxMatch *match, gboolean *keep, gpointer user_data,
                                       GError **error);

/* replace_pattern on a graph: every kept match of pattern is replaced by a copy of
 * replacement (whose placeholders stand for the pattern's, in order), inserted before the
 * first user of the match's returned nodes; the matched nodes are erased (they stay
 * allocated and named while the graph lives, so the matches stay readable). Replacement nodes
 * keep their names where free (graph_copy), so the generated code is 1.13's. *matches (may
 * be NULL) receives the replaced matches (an array of FxMatch). On error the graph may be
 * half rewritten, as in 1.13. filter may be NULL. options: NULL for FX_MATCH_OPTIONS_INIT. */
gboolean       fx_replace_pattern_graph (FxGraph *graph, FxGraph *pattern, FxGraph *replacement,
                                         const FxMatchOptions *options,
                                         FxMatchFilterFunc filter, gpointer user_data,
                                         GPtrArray **matches, GError **error);

/* torch.fx.replace_pattern(gm, pattern, replacement) for graphs: rewrites gm->graph and
 * recompiles gm. An anchor matching nothing simply gives no match here. */
gboolean       fx_replace_pattern (FxGraphModule *gm, FxGraph *pattern, FxGraph *replacement,
                                   FxMatchFilterFunc filter, gpointer user_data,
                                   GPtrArray **matches, GError **error);

G_END_DECLS
