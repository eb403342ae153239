/* passes-fuse-conv-bn.c: folds eval-mode BatchNorm layers into the convolutions feeding them
 * (torch.fx.experimental.optimization.fuse of 1.13, the classic FX tutorial). */
#include "rewrite/passes.h"
#include "rewrite/passes-private.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <string.h>

static const struct {
  const char *conv;
  const char *bn;
} patterns[] = {
  { "Conv1d", "BatchNorm1d" },
  { "Conv2d", "BatchNorm2d" },
  { "Conv3d", "BatchNorm3d" },
};

/* type(module) is torch.nn.<type_name>: a builtin layer, not a subclass of one. */
static gboolean
is_exactly (const FxModule *m, const char *type_name)
{
  return m != NULL && m->layer != NULL && strcmp (m->layer->type_name, type_name) == 0
         && strcmp (m->type_name, type_name) == 0;
}

/* The module a call_module node calls, or NULL (not a call_module, no such module). */
static FxModule *
called_module (FxGraphModule *gm, const FxValue *v)
{
  FxNode *n = v->kind == FX_VALUE_NODE ? v->node : NULL;
  if (n == NULL || n->op != FX_OP_CALL_MODULE || n->target.kind != FX_VALUE_STR)
    return NULL;
  return fx_module_get_submodule (gm->module, n->target.s->data, NULL);
}

static FxValue
tensor_or_none (const FxModule *m, FxDict *table, const char *name)
{
  FxValue key = fx_value_str (name);
  const FxValue *v = fx_dict_get (table, &key);
  fx_value_clear (&key);
  (void) m;
  return v != NULL && v->kind == FX_VALUE_TENSOR ? fx_value_copy (v) : fx_value_none ();
}

/* The fused weight and bias: 1.13's fuse_conv_bn_weights, through the registry's ops so the
 * arithmetic (float32 with a Python-float eps) is the one scripts and torch perform:
 *   w' = w * (gamma * rsqrt(var + eps)).reshape(-1, 1, ...)
 *   b' = (b - mean) * rsqrt(var + eps) * gamma + beta
 * with a missing conv bias / BatchNorm weight / bias taken as zeros / ones / zeros. */
static gboolean
fuse_weights (FxModule *conv, FxModule *bn, FxTensor **weight, FxTensor **bias, GError **error)
{
  g_auto (FxValue) w = tensor_or_none (conv, conv->parameters, "weight");
  g_auto (FxValue) b = tensor_or_none (conv, conv->parameters, "bias");
  g_auto (FxValue) rm = tensor_or_none (bn, bn->buffers, "running_mean");
  g_auto (FxValue) rv = tensor_or_none (bn, bn->buffers, "running_var");
  g_auto (FxValue) gamma = tensor_or_none (bn, bn->parameters, "weight");
  g_auto (FxValue) beta = tensor_or_none (bn, bn->parameters, "bias");
  g_auto (FxValue) eps = { 0 };
  g_auto (FxValue) shifted = { 0 }, scale = { 0 }, factor = { 0 }, shape = { 0 };
  g_auto (FxValue) w_out = { 0 }, centred = { 0 }, b1 = { 0 }, b2 = { 0 }, b_out = { 0 };
  FxValue key = fx_value_str ("eps");
  const FxValue *e = fx_dict_get (bn->attributes, &key);
  FxSeq *dims;

  fx_value_clear (&key);
  eps = e != NULL ? fx_value_copy (e) : fx_value_float (1e-5);
  if (w.kind != FX_VALUE_TENSOR || rm.kind != FX_VALUE_TENSOR || rv.kind != FX_VALUE_TENSOR)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "fuse: the convolution needs a weight and the BatchNorm running stats");
      return FALSE;
    }
  if (b.kind != FX_VALUE_TENSOR)
    b = fx_value_take_tensor (fx_tensor_zeros (rm.tensor->dtype, rm.tensor->ndim, rm.tensor->shape));
  if (gamma.kind != FX_VALUE_TENSOR)
    gamma = fx_value_take_tensor (fx_tensor_ones (rm.tensor->dtype, rm.tensor->ndim, rm.tensor->shape));
  if (beta.kind != FX_VALUE_TENSOR)
    beta = fx_value_take_tensor (fx_tensor_zeros (rm.tensor->dtype, rm.tensor->ndim, rm.tensor->shape));

  dims = fx_seq_new (0);
  fx_seq_append (dims, fx_value_int (-1));
  for (int i = 1; i < w.tensor->ndim; i++)
    fx_seq_append (dims, fx_value_int (1));
  shape = fx_value_take_list (dims);

  if (!fx_pass_call_op ("operator.add", error, &shifted, &rv, &eps, NULL)
      || !fx_pass_call_op ("torch.rsqrt", error, &scale, &shifted, NULL)
      || !fx_pass_call_op ("operator.mul", error, &factor, &gamma, &scale, NULL)
      || !fx_pass_call_op ("Tensor.reshape", error, &factor, &factor, &shape, NULL)
      || !fx_pass_call_op ("operator.mul", error, &w_out, &w, &factor, NULL)
      || !fx_pass_call_op ("operator.sub", error, &centred, &b, &rm, NULL)
      || !fx_pass_call_op ("operator.mul", error, &b1, &centred, &scale, NULL)
      || !fx_pass_call_op ("operator.mul", error, &b2, &b1, &gamma, NULL)
      || !fx_pass_call_op ("operator.add", error, &b_out, &b2, &beta, NULL))
    return FALSE;
  if (w_out.kind != FX_VALUE_TENSOR || b_out.kind != FX_VALUE_TENSOR)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "fuse: folding gave no tensors");
      return FALSE;
    }
  *weight = fx_tensor_ref (w_out.tensor);
  *bias = fx_tensor_ref (b_out.tensor);
  return TRUE;
}

/* fuse_conv_bn_eval: a copy of conv (copy.deepcopy's role: other users of the original
 * module object, outside gm, keep it) holding the fused parameters. */
static FxModule *
fuse_conv_bn_eval (FxModule *conv, FxModule *bn, GError **error)
{
  FxTensor *weight = NULL, *bias = NULL;
  FxModule *fused;

  if (conv->training || bn->training)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_ASSERTION, "Fusion only for eval!");
      return NULL;
    }
  if (!fuse_weights (conv, bn, &weight, &bias, error))
    return NULL;
  fused = fx_pass_module_copy (conv);
  /* nn.Parameter(tensor): a fresh leaf that requires grad */
  weight->is_parameter = TRUE;
  bias->is_parameter = TRUE;
  fx_module_register_parameter (fused, "weight", weight);
  fx_module_register_parameter (fused, "bias", bias);
  fx_tensor_unref (weight);
  fx_tensor_unref (bias);
  return fused;
}

gboolean
fx_pass_fuse_conv_bn (FxGraphModule *gm, guint *n_fused, GError **error)
{
  guint count = 0;

  g_return_val_if_fail (gm != NULL, FALSE);
  if (n_fused != NULL)
    *n_fused = 0;
  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    {
      FxNode *node, *next;
      for (node = fx_graph_first (gm->graph); node != NULL; node = next)
        {
          FxModule *bn, *conv, *fused;
          FxNode *conv_node;
          FxValue key;
          const FxValue *track;
          gboolean tracks;

          next = fx_node_next (node);
          bn = called_module (gm, &(FxValue) { .kind = FX_VALUE_NODE, .node = node });
          if (!is_exactly (bn, patterns[p].bn) || node->args.seq->len == 0)
            continue;
          conv = called_module (gm, &node->args.seq->items[0]);
          if (!is_exactly (conv, patterns[p].conv))
            continue;
          conv_node = node->args.seq->items[0].node;
          if (fx_node_set_size (&conv_node->users) > 1)
            continue;
          key = fx_value_str ("track_running_stats");
          track = fx_dict_get (bn->attributes, &key);
          fx_value_clear (&key);
          tracks = track == NULL || (track->kind == FX_VALUE_BOOL && track->b)
                   || (track->kind == FX_VALUE_INT && track->i != 0);
          if (!tracks)
            continue;
          fused = fuse_conv_bn_eval (conv, bn, error);
          if (fused == NULL)
            return FALSE;
          /* replace_node_module: the new module goes where the old one was, so every node
           * calling that path (as in 1.13) now calls the fused one */
          fx_graph_module_add_submodule (gm, conv_node->target.s->data, fused);
          fx_module_unref (fused);
          g_ptr_array_unref (fx_node_replace_all_uses_with (node, conv_node, NULL, NULL));
          if (!fx_graph_erase_node (gm->graph, node, error))
            return FALSE;
          count++;
        }
    }
  /* 1.13 builds a new GraphModule from the traced one, which copies only what the graph
   * uses: the BatchNorms drop out of the tree. */
  if (count > 0)
    {
      fx_graph_module_delete_all_unused_submodules (gm);
      fx_graph_module_recompile (gm);
    }
  if (n_fused != NULL)
    *n_fused = count;
  return TRUE;
}
