/* grad.c: what autograd would record for each op call (see grad.h). The backward nodes' names
 * are PyTorch 1.13's: most are the ATen op's name in CamelCase plus "Backward0"; the ops whose
 * node is named otherwise (another overload's number, a decomposition, a result that depends
 * on the arguments) are in backward_exceptions below, measured with PyTorch 1.13 by
 * tests/conformance/gen_grad_fn_names.py, or decided in special_name(). */
#include "ops/grad.h"

#include <string.h>
#include "ops/op-table.h"
#include "tensor/tensor.h"
#include "fx-error.h"

/* zero: on, PyTorch's default */
static __thread gboolean grad_mode_off;

gboolean
fx_grad_mode_enabled (void)
{
  return !grad_mode_off;
}

gboolean
fx_grad_mode_set (gboolean enabled)
{
  gboolean prev = !grad_mode_off;
  grad_mode_off = !enabled;
  return prev;
}

/* ---- which arguments ---- */

static const FxValue *
arg_named (const FxOverload *ov, const FxValue *argv, const char *name)
{
  int i = fx_overload_param (ov, name);
  return i < 0 ? NULL : &argv[i];
}

static gboolean
value_requires_grad (const FxValue *v)
{
  if (v->kind == FX_VALUE_TENSOR)
    return v->tensor->requires_grad;
  if (v->kind == FX_VALUE_TUPLE || v->kind == FX_VALUE_LIST)
    for (guint i = 0; i < v->seq->len; i++)
      if (v->seq->items[i].kind == FX_VALUE_TENSOR && v->seq->items[i].tensor->requires_grad)
        return TRUE;
  return FALSE;
}

static FxTensor *
first_tensor (const FxOverload *ov, const FxValue *argv)
{
  for (int i = 0; i < ov->n_args; i++)
    if (argv[i].kind == FX_VALUE_TENSOR)
      return argv[i].tensor;
  return NULL;
}

/* nn.init's functions run under torch.no_grad() in PyTorch; detach() and new tensors
 * (zeros_like, x.new_zeros, ...) start a graph of their own. */
static gboolean
records (const FxOp *op)
{
  return !g_str_has_prefix (op->qualified_name, "torch.nn.init.")
         && !(op->flags & FX_OP_FLAG_CREATION) && !g_str_has_suffix (op->name, "_like")
         && !g_str_has_prefix (op->name, "new_") && !g_str_equal (op->name, "detach")
         && !g_str_equal (op->name, "detach_");
}

/* Whether t is a leaf that requires grad, or a view of one (made while grad mode was on):
 * what may not be changed in place. */
static gboolean
guards_a_leaf (const FxTensor *t)
{
  return t->requires_grad && (t->grad_fn == NULL || t->grad_leaf_view);
}

/* Whether this call changes its first argument in place: an in-place op, or inplace=True. */
static gboolean
is_inplace (const FxOp *op, const FxOverload *ov, const FxValue *argv)
{
  if (op->flags & FX_OP_FLAG_INPLACE)
    return TRUE;
  const FxValue *v = arg_named (ov, argv, "inplace");
  return v != NULL && (v->kind == FX_VALUE_BOOL || v->kind == FX_VALUE_INT) && fx_arg_bool (v);
}

static gboolean
is_setitem (const FxOp *op)
{
  return g_str_equal (op->name, "__setitem__") || g_str_equal (op->name, "setitem");
}

gboolean
fx_grad_check_inplace (const FxOp *op, const FxOverload *ov, const FxValue *argv,
                       GError **error)
{
  /* the cheap tests first: this runs before every op */
  if (grad_mode_off || ov->n_args == 0 || argv[0].kind != FX_VALUE_TENSOR)
    return TRUE;
  const FxTensor *self = argv[0].tensor;
  gboolean split_view = self->grad_view_output > 0 && self->grad_fn != NULL;
  if ((!split_view && !guards_a_leaf (self)) || !is_inplace (op, ov, argv) || !records (op))
    return TRUE;
  if (split_view)
    g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Output %d of %s is a view and is being "
                 "modified inplace. This view is the output of a function that returns "
                 "multiple views. Such functions do not allow the output views to be modified "
                 "inplace. You should replace the inplace operation by an out-of-place one.",
                 self->grad_view_output - 1, self->grad_fn);
  else
    g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                 is_setitem (op) || self->grad_fn != NULL
                 ? "a view of a leaf Variable that requires grad is being used in an in-place "
                   "operation."
                 : "a leaf Variable that requires grad is being used in an in-place operation.");
  return FALSE;
}

/* ---- names ---- */

typedef struct {
  const char *path;   /* the op's qualified name */
  int overload;       /* index in its table entry */
  const char *name;
} BackwardException;

static const BackwardException backward_exceptions[] = {
  /* printed by gen_grad_fn_names.py */
  { "torch.negative", 0, "NegBackward0" },
  { "torch.negative_", 0, "NegBackward0" },
  { "torch.absolute", 0, "AbsBackward0" },
  { "torch.square", 0, "PowBackward0" },
  { "torch.square_", 0, "PowBackward0" },
  { "torch.arcsin", 0, "AsinBackward0" },
  { "torch.arcsin_", 0, "AsinBackward0" },
  { "torch.arccos", 0, "AcosBackward0" },
  { "torch.arccos_", 0, "AcosBackward0" },
  { "torch.arctan", 0, "AtanBackward0" },
  { "torch.arctan_", 0, "AtanBackward0" },
  { "torch.round", 1, "RoundBackward1" },
  { "torch.round_", 1, "RoundBackward1" },
  { "torch.nn.functional.relu6", 0, "HardtanhBackward0" },
  { "torch._C._nn.leaky_relu_", 0, "LeakyReluBackward1" },
  { "torch._C._nn.elu_", 0, "EluBackward1" },
  { "torch.clamp_min", 0, "ClampMinBackward1" },
  { "torch.clamp_min_", 0, "ClampMinBackward1" },
  { "torch.clamp_max", 0, "ClampMaxBackward1" },
  { "torch.clamp_max_", 0, "ClampMaxBackward1" },
  { "torch.subtract", 0, "SubBackward0" },
  { "torch.subtract", 1, "SubBackward0" },
  { "torch.multiply", 0, "MulBackward0" },
  { "torch.multiply", 1, "MulBackward0" },
  { "torch.divide", 0, "DivBackward0" },
  { "torch.divide", 1, "DivBackward0" },
  { "torch.divide", 2, "DivBackward0" },
  { "torch.divide", 3, "DivBackward0" },
  { "torch.true_divide", 0, "DivBackward0" },
  { "torch.true_divide", 1, "DivBackward0" },
  { "torch.true_divide", 2, "DivBackward0" },
  { "torch.floor_divide", 0, "NotImplemented" },
  { "torch.floor_divide", 1, "NotImplemented" },
  { "torch.floor_divide", 2, "NotImplemented" },
  { "torch.remainder", 0, "RemainderBackward1" },
  { "torch.remainder", 1, "NotImplemented" },
  { "torch.fmod", 0, "FmodBackward1" },
  { "torch.pow", 0, "PowBackward1" },
  { "torch.pow", 1, "PowBackward2" },
  { "torch.fill_", 1, "FillBackward2" },
  { "torch.prod", 1, "ProdBackward1" },
  { "torch.max", 0, "MaxBackward1" },
  { "torch.max", 1, "MaximumBackward0" },
  { "torch.min", 0, "MinBackward1" },
  { "torch.min", 1, "MinimumBackward0" },
  { "torch.aminmax", 0, "NotImplemented" },
  { "torch.functional.norm", 0, "NormBackward1" },
  { "torch.conv1d", 0, "ConvolutionBackward0" },
  { "torch.conv1d", 1, "ConvolutionBackward0" },
  { "torch.conv2d", 0, "ConvolutionBackward0" },
  { "torch.conv2d", 1, "ConvolutionBackward0" },
  { "torch.conv_transpose1d", 0, "ConvolutionBackward0" },
  { "torch.conv_transpose2d", 0, "ConvolutionBackward0" },
  { "torch.nn.functional.max_pool2d", 0, "MaxPool2DWithIndicesBackward0" },
  { "torch.max_pool2d", 0, "MaxPool2DWithIndicesBackward0" },
  { "torch.nn.functional.max_pool1d", 0, "SqueezeBackward1" },
  { "torch.nn.functional.max_pool1d_with_indices", 0, "SqueezeBackward1" },
  { "torch.max_pool1d", 0, "SqueezeBackward1" },
  { "torch.avg_pool1d", 0, "SqueezeBackward1" },
  { "torch.adaptive_avg_pool1d", 0, "SqueezeBackward1" },
  { "torch.nn.functional.adaptive_max_pool1d", 0, "SqueezeBackward1" },
  { "torch.nn.functional.adaptive_max_pool1d_with_indices", 0, "SqueezeBackward1" },
  { "torch.adaptive_max_pool1d", 0, "SqueezeBackward1" },
  { "torch.nn.functional.group_norm", 0, "NativeGroupNormBackward0" },
  { "torch.group_norm", 0, "NativeGroupNormBackward0" },
  { "torch.nn.functional.instance_norm", 0, "ViewBackward0" },
  { "torch.normal", 0, "NormalBackward1" },
  { "torch.concat", 0, "CatBackward0" },
  { "torch.hstack", 0, "CatBackward0" },
  { "torch.vstack", 0, "CatBackward0" },
  { "torch.tensor_split", 1, "SliceBackward0" },
  { "torch.tensor_split", 2, "SliceBackward0" },
  { "torch.chunk", 0, "SplitBackward0" },
  { "torch.swapaxes", 0, "TransposeBackward0" },
  { "torch.swapdims", 0, "TransposeBackward0" },
  { "torch.movedim", 0, "PermuteBackward0" },
  { "torch.moveaxis", 0, "PermuteBackward0" },
  { "torch.squeeze", 1, "SqueezeBackward1" },
  { "torch.narrow", 1, "SliceBackward0" },
  { "torch.tile", 0, "RepeatBackward0" },
  { "torch.fliplr", 0, "FlipBackward0" },
  { "torch.flipud", 0, "FlipBackward0" },
  { "torch.bilinear", 0, "AddBackward0" },
  { "torch.outer", 0, "MulBackward0" },
  { "torch.diff", 0, "SubBackward0" },
  { "torch.repeat_interleave", 0, "IndexSelectBackward0" },
  { "torch.nn.functional.normalize", 0, "DivBackward0" },
  { "torch.threshold_", 0, "ThresholdBackward1" },
  { "torch.nn.functional.softmin", 0, "SoftmaxBackward0" },
  { "torch.nn.functional.selu", 0, "EluBackward0" },
  { "torch.selu", 0, "EluBackward0" },
  { "torch.cosine_similarity", 0, "SumBackward1" },
  { "torch.nn.functional.l1_loss", 0, "MeanBackward0" },
  { "torch.nn.functional.kl_div", 0, "MeanBackward0" },
  { "torch.nn.functional.softsign", 0, "DivBackward0" },
  { "torch.nn.functional.tanhshrink", 0, "SubBackward0" },
  { "torch.pairwise_distance", 0, "NormBackward1" },
  { "torch.functional.tensordot", 0, "ReshapeAliasBackward0" },
  { "Tensor.negative", 0, "NegBackward0" },
  { "Tensor.negative_", 0, "NegBackward0" },
  { "Tensor.absolute", 0, "AbsBackward0" },
  { "Tensor.absolute_", 0, "AbsBackward0" },
  { "Tensor.square", 0, "PowBackward0" },
  { "Tensor.square_", 0, "PowBackward0" },
  { "Tensor.arcsin", 0, "AsinBackward0" },
  { "Tensor.arcsin_", 0, "AsinBackward0" },
  { "Tensor.arccos", 0, "AcosBackward0" },
  { "Tensor.arccos_", 0, "AcosBackward0" },
  { "Tensor.arctan", 0, "AtanBackward0" },
  { "Tensor.arctan_", 0, "AtanBackward0" },
  { "Tensor.round", 1, "RoundBackward1" },
  { "Tensor.round_", 1, "RoundBackward1" },
  { "Tensor.clamp_min", 0, "ClampMinBackward1" },
  { "Tensor.clamp_min_", 0, "ClampMinBackward1" },
  { "Tensor.clamp_max", 0, "ClampMaxBackward1" },
  { "Tensor.clamp_max_", 0, "ClampMaxBackward1" },
  { "Tensor.subtract", 0, "SubBackward0" },
  { "Tensor.subtract", 1, "SubBackward0" },
  { "Tensor.subtract_", 0, "SubBackward0" },
  { "Tensor.subtract_", 1, "SubBackward0" },
  { "Tensor.multiply", 0, "MulBackward0" },
  { "Tensor.multiply", 1, "MulBackward0" },
  { "Tensor.multiply_", 0, "MulBackward0" },
  { "Tensor.multiply_", 1, "MulBackward0" },
  { "Tensor.divide", 0, "DivBackward0" },
  { "Tensor.divide", 1, "DivBackward0" },
  { "Tensor.divide_", 0, "DivBackward0" },
  { "Tensor.divide_", 1, "DivBackward0" },
  { "Tensor.true_divide", 0, "DivBackward0" },
  { "Tensor.true_divide", 1, "DivBackward0" },
  { "Tensor.true_divide_", 0, "DivBackward0" },
  { "Tensor.true_divide_", 1, "DivBackward0" },
  { "Tensor.floor_divide", 0, "NotImplemented" },
  { "Tensor.floor_divide", 1, "NotImplemented" },
  { "Tensor.floor_divide_", 0, "NotImplemented" },
  { "Tensor.floor_divide_", 1, "NotImplemented" },
  { "Tensor.remainder", 0, "RemainderBackward1" },
  { "Tensor.remainder_", 0, "RemainderBackward1" },
  { "Tensor.fmod", 0, "FmodBackward1" },
  { "Tensor.fmod_", 0, "FmodBackward1" },
  { "Tensor.pow", 0, "PowBackward1" },
  { "Tensor.pow_", 0, "PowBackward1" },
  { "Tensor.eq_", 0, "EqBackward1" },
  { "Tensor.ne_", 0, "NeBackward1" },
  { "Tensor.not_equal_", 0, "NeBackward1" },
  { "Tensor.not_equal_", 1, "NeBackward0" },
  { "Tensor.lt_", 0, "LtBackward1" },
  { "Tensor.less_", 0, "LtBackward1" },
  { "Tensor.less_", 1, "LtBackward0" },
  { "Tensor.le_", 0, "LeBackward1" },
  { "Tensor.less_equal_", 0, "LeBackward1" },
  { "Tensor.less_equal_", 1, "LeBackward0" },
  { "Tensor.gt_", 0, "GtBackward1" },
  { "Tensor.greater_", 0, "GtBackward1" },
  { "Tensor.greater_", 1, "GtBackward0" },
  { "Tensor.ge_", 0, "GeBackward1" },
  { "Tensor.greater_equal_", 0, "GeBackward1" },
  { "Tensor.greater_equal_", 1, "GeBackward0" },
  { "Tensor.fill_", 1, "FillBackward2" },
  { "Tensor.prod", 1, "ProdBackward1" },
  { "Tensor.max", 0, "MaxBackward1" },
  { "Tensor.max", 1, "MaximumBackward0" },
  { "Tensor.min", 0, "MinBackward1" },
  { "Tensor.min", 1, "MinimumBackward0" },
  { "Tensor.aminmax", 0, "NotImplemented" },
  { "Tensor.norm", 0, "NormBackward1" },
  { "Tensor.tensor_split", 1, "SliceBackward0" },
  { "Tensor.tensor_split", 2, "SliceBackward0" },
  { "Tensor.chunk", 0, "SplitBackward0" },
  { "Tensor.swapaxes", 0, "TransposeBackward0" },
  { "Tensor.swapdims", 0, "TransposeBackward0" },
  { "Tensor.movedim", 0, "PermuteBackward0" },
  { "Tensor.moveaxis", 0, "PermuteBackward0" },
  { "Tensor.expand_as", 0, "ExpandBackward0" },
  { "Tensor.squeeze", 1, "SqueezeBackward1" },
  { "Tensor.narrow", 1, "SliceBackward0" },
  { "Tensor.tile", 0, "RepeatBackward0" },
  { "Tensor.outer", 0, "MulBackward0" },
  { "Tensor.diff", 0, "SubBackward0" },
  { "Tensor.repeat_interleave", 0, "IndexSelectBackward0" },
  /* overloads the generic arguments do not reach: gen_grad_fn_names.py's hand_probes */
  { "torch.clamp", 0, "ClampBackward0" },
  { "torch.clamp", 1, "ClampBackward1" },
  { "torch.clamp_", 0, "ClampBackward0" },
  { "torch.clamp_", 1, "ClampBackward1" },
  { "torch.clip", 0, "ClampBackward0" },
  { "torch.clip", 1, "ClampBackward1" },
  { "torch.clip_", 0, "ClampBackward0" },
  { "torch.clip_", 1, "ClampBackward1" },
  { "Tensor.clamp", 0, "ClampBackward0" },
  { "Tensor.clamp", 1, "ClampBackward1" },
  { "Tensor.clamp_", 0, "ClampBackward0" },
  { "Tensor.clamp_", 1, "ClampBackward1" },
  { "Tensor.clip", 0, "ClampBackward0" },
  { "Tensor.clip", 1, "ClampBackward1" },
  { "Tensor.clip_", 0, "ClampBackward0" },
  { "Tensor.clip_", 1, "ClampBackward1" },
  { "torch.nn.functional.batch_norm", 0, "NativeBatchNormBackward0" },
  { "torch.batch_norm", 0, "NativeBatchNormBackward0" },
  { "torch.nn.functional.layer_norm", 0, "NativeLayerNormBackward0" },
  { "torch.layer_norm", 0, "NativeLayerNormBackward0" },
  { "torch.instance_norm", 0, "ViewBackward0" },
  { "torch.nn.functional.cross_entropy", 0, "NllLossBackward0" },
  { "torch.nn.functional.nll_loss", 0, "NllLossBackward0" },
  { "torch.masked_fill", 0, "MaskedFillBackward1" },
  { "Tensor.masked_fill", 0, "MaskedFillBackward1" },
  { "Tensor.masked_fill_", 0, "MaskedFillBackward1" },
  { "torch.scatter", 1, "ScatterBackward1" },
  { "Tensor.scatter", 1, "ScatterBackward1" },
  { "Tensor.scatter_", 1, "ScatterBackward1" },
  { "torch.narrow", 0, "SliceBackward0" },
  { "Tensor.narrow", 0, "SliceBackward0" },
  { "torch.unflatten", 0, "ViewBackward0" },
  { "Tensor.unflatten", 0, "ViewBackward0" },
  { "Tensor.copy_", 0, "CopyBackwards" },
  { "Tensor.copy_", 1, "CopyBackwards" },
};

/* PyTorch's node names: each '_'-separated part of the ATen name capitalised, and a letter
 * after a digit too ("log1p" → Log1P, "max_pool2d" → MaxPool2D), then "Backward0". */
static const char *
camel_backward_name (const char *op_name)
{
  GString *s = g_string_new (NULL);
  gboolean up = TRUE;
  for (const char *p = op_name; *p; p++)
    {
      if (*p == '_')
        {
          up = TRUE;
          continue;
        }
      g_string_append_c (s, up ? g_ascii_toupper (*p) : *p);
      up = g_ascii_isdigit (*p);
    }
  g_string_append (s, "Backward0");
  const char *name = g_intern_string (s->str);
  g_string_free (s, TRUE);
  return name;
}

static const char *
exception_name (const FxOp *op, int overload)
{
  static GHashTable *table;   /* "path#overload" → name, built once */
  static gsize ready;
  if (g_once_init_enter (&ready))
    {
      table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (backward_exceptions); i++)
        g_hash_table_insert (table, g_strdup_printf ("%s#%d", backward_exceptions[i].path,
                                                     backward_exceptions[i].overload),
                             (gpointer) backward_exceptions[i].name);
      g_once_init_leave (&ready, 1);
    }
  char key[160];
  g_snprintf (key, sizeof key, "%s#%d", op->qualified_name, overload);
  return g_hash_table_lookup (table, key);
}

/* Whether out is self seen again: same storage, place, shape, strides and dtype. */
static gboolean
same_tensor (const FxTensor *self, const FxTensor *out)
{
  return self == out
         || (self->storage == out->storage && self->offset == out->offset
             && self->dtype == out->dtype && self->ndim == out->ndim
             && memcmp (self->shape, out->shape, sizeof (int64_t) * self->ndim) == 0
             && memcmp (self->strides, out->strides, sizeof (int64_t) * self->ndim) == 0);
}

/* KEEP: in PyTorch the result is the input itself, with its node (or none). */
static const char KEEP[] = "";

static const char *
matmul_name (const FxTensor *a, const FxTensor *b)
{
  int x = a->ndim, y = b->ndim;
  if (x == 1 && y == 1)
    return "DotBackward0";
  if (x == 2 && y == 1)
    return "MvBackward0";
  if (x == 1 && y == 2)
    return "SqueezeBackward3";
  if (x == 2 && y == 2)
    return "MmBackward0";
  if (x == 2 && y >= 3)
    return "CloneBackward0";
  return "UnsafeViewBackward0";
}

/* The last step of tensor indexing: advanced indices (tensors, lists, bools) come last;
 * otherwise the last int (select), slice or None (unsqueeze); Ellipsis alone is an alias. */
static const char *
getitem_name (const FxValue *index)
{
  const FxValue *items = index;
  guint n = 1;
  if (index->kind == FX_VALUE_TUPLE)
    {
      items = index->seq->items;
      n = index->seq->len;
    }
  const char *last = "AliasBackward0";
  for (guint i = 0; i < n; i++)
    switch (items[i].kind)
      {
      case FX_VALUE_TENSOR:
      case FX_VALUE_LIST:
      case FX_VALUE_BOOL:
        return "IndexBackward0";
      case FX_VALUE_INT:
        last = "SelectBackward0";
        break;
      case FX_VALUE_SLICE:
        last = "SliceBackward0";
        break;
      case FX_VALUE_NONE:
        last = "UnsqueezeBackward0";
        break;
      default:
        break;
      }
  return last;
}

static const char *
str_arg (const FxOverload *ov, const FxValue *argv, const char *name, const char *fallback)
{
  const FxValue *v = arg_named (ov, argv, name);
  return v != NULL && v->kind == FX_VALUE_STR ? v->s->data : fallback;
}

/* F.interpolate and the upsample functions, by mode (d: spatial dims). */
static const char *
upsample_name (const char *mode, int d)
{
  static const char *const kinds[][2] = {
    { "nearest", "UpsampleNearest%dDBackward1" }, { "bilinear", "UpsampleBilinear2DBackward1" },
    { "bicubic", "UpsampleBicubic2DBackward1" }, { "linear", "UpsampleLinear1DBackward1" },
    { "trilinear", "UpsampleTrilinear3DBackward1" },
    { "nearest-exact", "UpsampleNearestExact%dDBackward1" },
    { "area", "AdaptiveAvgPool%dDBackward0" } };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_equal (mode, kinds[i][0]))
      {
        char buf[64];
        g_snprintf (buf, sizeof buf, kinds[i][1], d);
        return g_intern_string (buf);
      }
  return NULL;
}

/* Python's operators, by which operands are tensors (a number on the left: __r*__). */
static const char *
operator_name (const char *name, const FxValue *a, const FxValue *b)
{
  gboolean ta = a->kind == FX_VALUE_TENSOR, tb = b != NULL && b->kind == FX_VALUE_TENSOR;
  /* iadd, isub, ...: their binary forms */
  const char *n = name[0] == 'i' && !g_str_equal (name, "invert") && !g_str_equal (name, "is_")
                  && !g_str_equal (name, "is_not") ? name + 1 : name;
  if (g_str_equal (n, "add"))
    return "AddBackward0";
  if (g_str_equal (n, "sub"))
    return ta ? "SubBackward0" : "RsubBackward1";
  if (g_str_equal (n, "mul"))
    return "MulBackward0";
  if (g_str_equal (n, "truediv"))
    return ta ? "DivBackward0" : "MulBackward0";
  if (g_str_equal (n, "floordiv"))
    return "NotImplemented";
  if (g_str_equal (n, "mod"))
    return !ta ? "NotImplemented" : tb ? "RemainderBackward1" : "RemainderBackward0";
  if (g_str_equal (n, "pow"))
    return ta && !tb ? "PowBackward0" : "PowBackward1";
  if (g_str_equal (n, "matmul") && ta && tb)
    return matmul_name (a->tensor, b->tensor);
  if (g_str_equal (n, "neg"))
    return "NegBackward0";
  if (g_str_equal (n, "pos"))
    return KEEP;
  if (g_str_equal (n, "abs"))
    return "AbsBackward0";
  if (g_str_equal (n, "getitem") && b != NULL)
    return getitem_name (b);
  if (g_str_equal (n, "setitem"))
    return "CopySlices";
  return NULL;
}

static const char *
dropout_name (const char *n, const FxOverload *ov, const FxValue *argv, const FxTensor *self)
{
  const FxValue *train = arg_named (ov, argv, "training");
  if (train == NULL)
    train = arg_named (ov, argv, "train");
  const FxValue *p = arg_named (ov, argv, "p");
  if ((train != NULL && !fx_arg_bool (train)) || (p != NULL && fx_arg_float (p) == 0.0))
    return KEEP;
  if ((g_str_equal (n, "dropout1d") && self->ndim == 2)
      || (g_str_equal (n, "dropout3d") && self->ndim == 4))
    return "SqueezeBackward1";   /* an unbatched input */
  return strstr (n, "alpha") ? "AddBackward0" : "MulBackward0";
}

static const char *
pad_name (const FxOverload *ov, const FxValue *argv)
{
  const char *mode = str_arg (ov, argv, "mode", "constant");
  const FxValue *pad = arg_named (ov, argv, "pad");
  int d = pad != NULL && (pad->kind == FX_VALUE_TUPLE || pad->kind == FX_VALUE_LIST)
          ? (int) pad->seq->len / 2 : 1;
  char buf[48];
  if (g_str_equal (mode, "reflect"))
    g_snprintf (buf, sizeof buf, "ReflectionPad%dDBackward0", d);
  else if (g_str_equal (mode, "replicate"))
    g_snprintf (buf, sizeof buf, "ReplicationPad%dDBackward0", d);
  else if (g_str_equal (mode, "circular"))
    return "CopySlices";
  else
    return "ConstantPadNdBackward0";
  return g_intern_string (buf);
}

/* Names that depend on the arguments or the result; NULL: the table or the rule decides. */
static const char *
special_name (const FxOp *op, const FxOverload *ov, const FxValue *argv, const FxTensor *self,
              const FxTensor *out)
{
  static const char *const conversions[] = { "contiguous", "to", "type", "type_as", "cpu",
                                             "float", "double", "half", "bfloat16", NULL };
  const char *n = op->name;
  if (g_str_has_prefix (op->qualified_name, "operator."))
    return operator_name (n, &argv[0], ov->n_args > 1 ? &argv[1] : NULL);
  if (!(op->flags & FX_OP_FLAG_INPLACE) && is_inplace (op, ov, argv))
    {
      /* F.*(inplace=True) that run ATen's in-place form, whose node is numbered apart */
      static const char *const inplace_nodes[][2] = {
        { "leaky_relu", "LeakyReluBackward1" }, { "elu", "EluBackward1" },
        { "celu", "CeluBackward1" }, { "selu", "EluBackward1" },
        { "threshold", "ThresholdBackward1" }, { "_threshold", "ThresholdBackward1" },
        { "rrelu", "RreluWithNoiseBackward1" } };
      for (guint i = 0; i < G_N_ELEMENTS (inplace_nodes); i++)
        if (g_str_equal (n, inplace_nodes[i][0]))
          return inplace_nodes[i][1];
    }
  if (g_str_equal (n, "einsum"))
    return "ViewBackward0";   /* its last step: the products' view (a matrix product) */
  if (self == NULL)
    return NULL;
  if (g_str_equal (n, "matmul") && ov->n_args > 1 && argv[1].kind == FX_VALUE_TENSOR)
    return matmul_name (self, argv[1].tensor);
  if (g_str_equal (n, "linear"))
    {
      const FxValue *bias = arg_named (ov, argv, "bias");
      gboolean has_bias = bias != NULL && bias->kind == FX_VALUE_TENSOR;
      switch (self->ndim)
        {
        case 1: return has_bias ? "AddBackward0" : "SqueezeBackward3";
        case 2: return has_bias ? "AddmmBackward0" : "MmBackward0";
        case 3: return has_bias ? "ViewBackward0" : "UnsafeViewBackward0";
        default: return has_bias ? "AddBackward0" : "UnsafeViewBackward0";
        }
    }
  if (g_str_equal (n, "__getitem__") && ov->n_args > 1)
    return getitem_name (&argv[1]);
  if (g_str_equal (n, "__setitem__"))
    return "CopySlices";
  if (g_str_equal (n, "view") || g_str_equal (n, "view_as"))
    return "ViewBackward0";
  if (g_str_equal (n, "reshape") || g_str_equal (n, "reshape_as") || g_str_equal (n, "flatten"))
    {
      if (g_str_equal (n, "flatten") && same_tensor (self, out))
        return KEEP;
      return self->storage == out->storage ? "ReshapeAliasBackward0" : "UnsafeViewBackward0";
    }
  if (g_strv_contains (conversions, n))
    {
      if (same_tensor (self, out))
        return KEEP;
      return out->dtype != self->dtype ? "ToCopyBackward0" : "CloneBackward0";
    }
  if (g_str_equal (n, "positive"))
    return KEEP;
  if (strstr (n, "dropout") != NULL)
    return dropout_name (n, ov, argv, self);
  if (g_str_equal (n, "adaptive_avg_pool2d") || g_str_equal (n, "adaptive_avg_pool3d"))
    {
      int d = n[strlen (n) - 2] - '0';
      gboolean ones = out->ndim >= d;
      for (int i = 0; ones && i < d; i++)
        ones = out->shape[out->ndim - 1 - i] == 1;
      return ones ? "MeanBackward1"
                  : d == 2 ? "AdaptiveAvgPool2DBackward0" : "AdaptiveAvgPool3DBackward0";
    }
  if (g_str_equal (n, "interpolate") || g_str_has_prefix (n, "upsample"))
    {
      const char *mode = g_str_equal (n, "upsample_nearest") ? "nearest"
                         : g_str_equal (n, "upsample_bilinear") ? "bilinear"
                         : str_arg (ov, argv, "mode", "nearest");
      return upsample_name (mode, self->ndim - 2);
    }
  if (g_str_equal (n, "pad"))
    return pad_name (ov, argv);
  if (g_str_equal (n, "sum") || g_str_equal (n, "mean") || g_str_equal (n, "nansum"))
    {
      /* the reduction over given dims is the op's second overload in ATen */
      const FxValue *dim = arg_named (ov, argv, "dim");
      gboolean dims = dim != NULL && dim->kind != FX_VALUE_NONE;
      return n[0] == 's' ? (dims ? "SumBackward1" : "SumBackward0")
             : n[0] == 'm' ? (dims ? "MeanBackward1" : "MeanBackward0")
             : (dims ? "NansumBackward1" : "NansumBackward0");
    }
  if (g_str_equal (n, "split") && ov->n_args > 1
      && (argv[1].kind == FX_VALUE_TUPLE || argv[1].kind == FX_VALUE_LIST))
    return "SplitWithSizesBackward0";
  return NULL;
}

static const char *
backward_name (const FxOp *op, const FxOverload *ov, const FxValue *argv, const FxTensor *self,
               const FxTensor *out)
{
  const char *name = special_name (op, ov, argv, self, out);
  if (name == NULL)
    name = exception_name (op, (int) (ov - op->overloads));
  if (name == NULL)
    {
      /* made once per op: a model's forward asks for the same names again and again */
      static GMutex lock;
      static GHashTable *made;   /* op → name */
      g_mutex_lock (&lock);
      if (made == NULL)
        made = g_hash_table_new (g_direct_hash, g_direct_equal);
      name = g_hash_table_lookup (made, op);
      if (name == NULL)
        {
          /* an in-place op's node is its out-of-place form's */
          char base[96];
          g_strlcpy (base, op->name, sizeof base);
          gsize len = strlen (base);
          if (len > 1 && base[len - 1] == '_' && base[0] != '_')
            base[len - 1] = '\0';
          name = camel_backward_name (base);
          g_hash_table_insert (made, (gpointer) op, (gpointer) name);
        }
      g_mutex_unlock (&lock);
    }
  return name;
}

/* ---- marking results ---- */

static gboolean
differentiable (const FxTensor *t)
{
  return fx_dtype_is_floating (t->dtype);
}

/* What a result that is a view of base (shares its storage) may not undergo in place: a
 * view of a leaf that requires grad (or of such a view); output_1 (1 + its index) of those
 * that split one tensor, 0 for the others. */
static void
mark_view (FxTensor *out, const FxTensor *base, int output_1)
{
  if (base == NULL || out == base || out->storage != base->storage)
    return;
  if (guards_a_leaf (base))
    out->grad_leaf_view = TRUE;
  out->grad_view_output = output_1;
}

/* keep_from: the input whose requires_grad and node a KEEP result takes */
static void
mark (FxTensor *t, const char *name, const FxTensor *keep_from)
{
  if (name == KEEP)
    {
      if (keep_from != NULL && keep_from != t)
        {
          t->requires_grad = keep_from->requires_grad;
          t->grad_fn = keep_from->grad_fn;
        }
      return;
    }
  if (!differentiable (t))
    return;
  t->requires_grad = TRUE;
  t->grad_fn = name;
}

/* out, sharing self's storage, is a view of it as PyTorch's _base sees views: not detach()'s
 * alias (op_name "detach"), nor a view as another dtype (their _base is None). */
static void
note_view_base (const char *op_name, const FxTensor *self, FxTensor *out)
{
  if (out == self || out->storage != self->storage || out->view_base != NULL
      || out->dtype != self->dtype || g_str_equal (op_name, "detach"))
    return;
  out->view_base = fx_tensor_ref ((FxTensor *) (self->view_base ? self->view_base : self));
}

void
fx_grad_record (const FxOp *op, const FxOverload *ov, const FxValue *argv, FxValue *result)
{
  /* the cheap tests first: this runs after every op */
  FxTensor *self = first_tensor (ov, argv);
  if (self != NULL)
    {
      if (result->kind == FX_VALUE_TENSOR)
        note_view_base (op->name, self, result->tensor);
      else if (result->kind == FX_VALUE_TUPLE || result->kind == FX_VALUE_LIST)
        for (guint i = 0; i < result->seq->len; i++)
          if (result->seq->items[i].kind == FX_VALUE_TENSOR)
            note_view_base (op->name, self, result->seq->items[i].tensor);
    }
  if (grad_mode_off)
    {
      /* views of a tensor that requires grad still do (PyTorch's views in no_grad) */
      if (self != NULL && self->requires_grad && records (op))
        {
          guint n = result->kind == FX_VALUE_TENSOR ? 1
                    : result->kind == FX_VALUE_TUPLE || result->kind == FX_VALUE_LIST
                    ? result->seq->len : 0;
          for (guint i = 0; i < n; i++)
            {
              const FxValue *r = result->kind == FX_VALUE_TENSOR ? result : &result->seq->items[i];
              if (r->kind == FX_VALUE_TENSOR && r->tensor != self
                  && r->tensor->storage == self->storage)
                r->tensor->requires_grad = differentiable (r->tensor);
            }
        }
      return;
    }
  gboolean any = FALSE;
  for (int i = 0; i < ov->n_args && !any; i++)
    any = value_requires_grad (&argv[i]);
  if (!any || !records (op))
    return;
  if (result->kind == FX_VALUE_TENSOR)
    {
      FxTensor *out = result->tensor;
      /* an op that hands back an argument untouched (an identity) records nothing */
      if (!is_inplace (op, ov, argv))
        for (int i = 0; i < ov->n_args; i++)
          if (argv[i].kind == FX_VALUE_TENSOR && argv[i].tensor == out)
            return;
      mark (out, backward_name (op, ov, argv, self, out), self);
      mark_view (out, self, 0);
    }
  else if (result->kind == FX_VALUE_TUPLE || result->kind == FX_VALUE_LIST)
    {
      static const char *const splits[] = { "SplitBackward0", "SplitWithSizesBackward0",
                                            "UnbindBackward0", NULL };
      const char *name = NULL;
      gboolean split = FALSE;
      for (guint i = 0; i < result->seq->len; i++)
        if (result->seq->items[i].kind == FX_VALUE_TENSOR)
          {
            FxTensor *out = result->seq->items[i].tensor;
            if (name == NULL)
              {
                name = backward_name (op, ov, argv, self, out);
                split = g_strv_contains (splits, name);
              }
            mark (out, name, self);
            mark_view (out, self, split ? (int) i + 1 : 0);
          }
    }
  else if (is_setitem (op) && self != NULL)
    mark (self, "CopySlices", NULL);
}

void
fx_grad_record_named (const char *name, const FxTensor *const *inputs, int n_inputs,
                      FxTensor *result)
{
  if (grad_mode_off || result == NULL)
    return;
  for (int i = 0; i < n_inputs; i++)
    if (inputs[i] != NULL && inputs[i]->requires_grad)
      {
        mark (result, g_intern_string (name), NULL);
        return;
      }
}

void
fx_grad_record_view (const char *name, const FxTensor *base, FxTensor *view)
{
  note_view_base (name, base, view);
  if (grad_mode_off)
    view->requires_grad = base->requires_grad && differentiable (view);
  else
    {
      fx_grad_record_named (name, &base, 1, view);
      mark_view (view, base, 0);
    }
}
