/* passes.h: graph passes over an FxGraphModule, next to the subgraph rewriter — Conv+BatchNorm
 * fusion, dead code elimination and constant folding — with torch.fx 1.13's behaviour. */
#pragma once

#include <glib.h>
#include "ir/graph-module.h"

G_BEGIN_DECLS

/* torch.fx.experimental.optimization.fuse's folding on an already traced gm, in place
 * (passes-fuse-conv-bn.c). For each pattern (Conv1d, BatchNorm1d), (Conv2d, BatchNorm2d),
 * (Conv3d, BatchNorm3d) in that order and each call_module node of the BatchNorm type whose
 * first argument is a call_module node of the Conv type: skipped when the conv's output has
 * other users or the BatchNorm keeps no running stats; otherwise the conv module at that
 * path is replaced by a copy whose weight and bias absorb the BatchNorm (1.13's
 * fuse_conv_bn_weights, float for float), the BatchNorm node is erased, then unused
 * submodules are deleted and gm recompiled. Module types are matched exactly (a subclass
 * of Conv2d is not a Conv2d). Fails with 1.13's "Fusion only for eval!" when a matched
 * conv or BatchNorm is in training mode (gm may then be partly fused, as in 1.13).
 * n_fused (may be NULL): how many BatchNorms were folded. */
gboolean fx_pass_fuse_conv_bn          (FxGraphModule *gm, guint *n_fused, GError **error);

/* Graph.eliminate_dead_code() as a pass over gm (passes-dce.c): removes nodes without users
 * that are not impure, last to first, then recompiles gm when something changed.
 * Impure as in 1.13: placeholders, outputs, call_function targets flagged
 * FX_OP_FLAG_IMPURE (torch._assert), and call_module nodes whose module has a true
 * `_is_impure` attribute. In-place ops (x.add_(1)) are NOT impure in 1.13, so an unused
 * in-place op is removed, as torch does. changed (may be NULL): whether gm changed. */
gboolean fx_pass_eliminate_dead_code   (FxGraphModule *gm, gboolean *changed, GError **error);

/* Constant folding of get_attr-only subgraphs (passes-fold-constants.c), modelled on 1.13's
 * torch.fx.experimental.const_fold.split_const_subgraphs:
 * - a node is constant when it is a get_attr, or when all its input nodes are constant and
 *   it is neither a placeholder, an output nor impure (so, as in 1.13, input-less calls such
 *   as torch.ones(3) fold too); libfx also leaves in place what it cannot run here: calls
 *   of modules that are not builtin layers, callables of higher layers, and nodes whose
 *   kernel refuses the folded arguments (getitem of a ParameterList, for one);
 * - the constant nodes that feed non-constant ones ("outputs", in order of first use) are
 *   computed now with the op registry's kernels (1.13 computes them lazily, on the first
 *   call of the FoldedGraphModule: the results are the same tensors);
 * - one output is stored as the parameter _FX_CONST_FOLDED_ATTRS of gm's root and read by
 *   a get_attr node named _fx_const_folded_attrs; several are stored as the parameters
 *   "0", "1", ... of a ParameterList submodule of that name and read through
 *   operator.getitem nodes (getitem, getitem_1, ...), exactly the graph 1.13 produces;
 *   the name gets _1, _2, ... while gm already has such an attribute, like 1.13's
 *   get_unique_attr_name_in_module; a folded int becomes the float tensor [i], like 1.13's
 *   _create_param, and any other non-tensor result is an error (gm unchanged);
 * - these nodes go right after the placeholders and the get_attr nodes still in use, the
 *   constant subgraph is removed, unused submodules are deleted and gm recompiled.
 * Unlike 1.13, no const_subgraph_module is kept (the folding already ran), and
 * skip_folding_node_fn is a C callback (may be NULL). n_folded (may be NULL): how many
 * non-get_attr nodes were folded (0: gm unchanged). */
typedef gboolean (*FxPassSkipNodeFunc) (FxNode *node, gpointer user_data);
gboolean fx_pass_fold_constants        (FxGraphModule *gm, FxPassSkipNodeFunc skip_fn,
                                        gpointer user_data, guint *n_folded, GError **error);

G_END_DECLS
