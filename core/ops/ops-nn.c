/* ops-nn.c: the registry entries of normalisations, dropout, embedding, interpolation,
 * padding and channel rearrangements: the torch.nn.functional Python functions (with the
 * checks they make in Python) and the torch.* builtins they call. */
#include "ops/op-table.h"
#include "tensor/nn.h"
#include "tensor/random.h"
#include "fx-error.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

/* static_cast<int64_t> of a double as x86 does it: out-of-range values become INT64_MIN. */
static int64_t
cast_size (double v)
{
  if (!(v > -9223372036854775808.0 && v < 9223372036854775808.0))
    return G_MININT64;
  return (int64_t) v;
}

static FxTensor *
opt_tensor (const FxValue *v)
{
  return v->kind == FX_VALUE_TENSOR ? v->tensor : NULL;
}

static gboolean
value_error (GError **error, const char *msg)
{
  g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, msg);
  return FALSE;
}

/* ------------------------------------------------------------------ normalisation */

static gboolean
k_f_batch_norm (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result,
                           fx_batch_norm (fx_arg_tensor (&argv[0]), opt_tensor (&argv[1]),
                                          opt_tensor (&argv[2]), opt_tensor (&argv[3]),
                                          opt_tensor (&argv[4]), fx_arg_bool (&argv[5]),
                                          fx_arg_float (&argv[6]), fx_arg_float (&argv[7]),
                                          error));
}

static gboolean
k_batch_norm (const FxValue *argv, FxValue *result, GError **error)
{
  /* (input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn) */
  return fx_result_tensor (result,
                           fx_batch_norm (fx_arg_tensor (&argv[0]), opt_tensor (&argv[3]),
                                          opt_tensor (&argv[4]), opt_tensor (&argv[1]),
                                          opt_tensor (&argv[2]), fx_arg_bool (&argv[5]),
                                          fx_arg_float (&argv[6]), fx_arg_float (&argv[7]),
                                          error));
}

static gboolean
k_layer_norm (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = fx_arg_int_list (&argv[1], shape, FX_TENSOR_MAX_DIMS);
  if (n > FX_TENSOR_MAX_DIMS)
    n = FX_TENSOR_MAX_DIMS + 1;   /* can never match the input: the shape error follows */
  return fx_result_tensor (result,
                           fx_layer_norm (fx_arg_tensor (&argv[0]), MIN (n, FX_TENSOR_MAX_DIMS),
                                          shape, opt_tensor (&argv[2]), opt_tensor (&argv[3]),
                                          fx_arg_float (&argv[4]), error));
}

static gboolean
k_group_norm (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result,
                           fx_group_norm (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                          opt_tensor (&argv[2]), opt_tensor (&argv[3]),
                                          fx_arg_float (&argv[4]), error));
}

static gboolean
k_f_instance_norm (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result,
                           fx_instance_norm (fx_arg_tensor (&argv[0]), opt_tensor (&argv[1]),
                                             opt_tensor (&argv[2]), opt_tensor (&argv[3]),
                                             opt_tensor (&argv[4]), fx_arg_bool (&argv[5]),
                                             fx_arg_float (&argv[6]), fx_arg_float (&argv[7]),
                                             error));
}

static gboolean
k_instance_norm (const FxValue *argv, FxValue *result, GError **error)
{
  /* (input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn) */
  return fx_result_tensor (result,
                           fx_instance_norm (fx_arg_tensor (&argv[0]), opt_tensor (&argv[3]),
                                             opt_tensor (&argv[4]), opt_tensor (&argv[1]),
                                             opt_tensor (&argv[2]), fx_arg_bool (&argv[5]),
                                             fx_arg_float (&argv[6]), fx_arg_float (&argv[7]),
                                             error));
}

/* ------------------------------------------------------------------ dropout */

static gboolean
check_p (const FxValue *p, GError **error)
{
  double v = fx_arg_float (p);
  if (v < 0.0 || v > 1.0)
    {
      GString *s = g_string_new ("dropout probability has to be between 0 and 1, but got ");
      fx_value_repr (p, s);
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  return TRUE;
}

static gboolean
k_f_dropout (const FxValue *argv, FxValue *result, GError **error)
{
  if (!check_p (&argv[1], error))
    return FALSE;
  return fx_result_tensor (result,
                           fx_dropout (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                       fx_arg_bool (&argv[2]), fx_arg_bool (&argv[3]), NULL,
                                       error));
}

static gboolean
k_dropout (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result,
                           fx_dropout (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                       fx_arg_bool (&argv[2]), FALSE, NULL, error));
}

static gboolean
k_feature_dropout (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result,
                           fx_feature_dropout (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                               fx_arg_bool (&argv[2]), FALSE, NULL, error));
}

/* dropout1d/3d treat an unbatched input as a batch of one. */
static gboolean
feature_dropout_unbatched (FxTensor *input, double p, gboolean training, gboolean inplace,
                           FxValue *result, GError **error)
{
  FxTensor *u = fx_tensor_unsqueeze (input, 0, error), *r, *s;
  if (u == NULL)
    return FALSE;
  r = fx_feature_dropout (u, p, training, inplace, NULL, error);
  fx_tensor_unref (u);
  if (r == NULL)
    return FALSE;
  if (inplace)
    {
      /* the draws landed in input's storage through the unsqueezed view */
      fx_tensor_unref (r);
      *result = fx_value_tensor (input);
      return TRUE;
    }
  s = fx_tensor_squeeze_dim (r, 0, error);
  fx_tensor_unref (r);
  return fx_result_tensor (result, s);
}

static gboolean
k_f_dropout1d (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *input = fx_arg_tensor (&argv[0]);
  if (!check_p (&argv[1], error))
    return FALSE;
  if (input->ndim != 2 && input->ndim != 3)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "dropout1d: Expected 2D or 3D input, but received a %dD input. Note that "
                   "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
                   "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or "
                   "3D inputs).", input->ndim);
      return FALSE;
    }
  if (input->ndim == 2)
    return feature_dropout_unbatched (input, fx_arg_float (&argv[1]), fx_arg_bool (&argv[2]),
                                      fx_arg_bool (&argv[3]), result, error);
  return fx_result_tensor (result,
                           fx_feature_dropout (input, fx_arg_float (&argv[1]),
                                               fx_arg_bool (&argv[2]), fx_arg_bool (&argv[3]),
                                               NULL, error));
}

static gboolean
k_f_dropout2d (const FxValue *argv, FxValue *result, GError **error)
{
  if (!check_p (&argv[1], error))
    return FALSE;
  return fx_result_tensor (result,
                           fx_feature_dropout (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                               fx_arg_bool (&argv[2]), fx_arg_bool (&argv[3]),
                                               NULL, error));
}

static gboolean
k_f_dropout3d (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *input = fx_arg_tensor (&argv[0]);
  if (!check_p (&argv[1], error))
    return FALSE;
  if (input->ndim != 5)
    return feature_dropout_unbatched (input, fx_arg_float (&argv[1]), fx_arg_bool (&argv[2]),
                                      fx_arg_bool (&argv[3]), result, error);
  return fx_result_tensor (result,
                           fx_feature_dropout (input, fx_arg_float (&argv[1]),
                                               fx_arg_bool (&argv[2]), fx_arg_bool (&argv[3]),
                                               NULL, error));
}

/* ------------------------------------------------------------------ embedding */

static gboolean
k_f_embedding (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *input = fx_arg_tensor (&argv[0]), *weight = fx_arg_tensor (&argv[1]);
  if (!fx_arg_is_none (&argv[2]))
    {
      int64_t pi = fx_arg_int (&argv[2]), n = weight->ndim > 0 ? weight->shape[0] : 1;
      if ((pi > 0 && pi >= n) || (pi < 0 && pi < -n))
        {
          /* an AssertionError in torch */
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Padding_idx must be within num_embeddings");
          return FALSE;
        }
    }
  if (!fx_arg_is_none (&argv[3]))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "F.embedding(max_norm=...) renormalises the weight in place; libfx does not "
                   "support it");
      return FALSE;
    }
  return fx_result_tensor (result, fx_embedding (input, weight, error));
}

static gboolean
k_embedding (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_embedding (fx_arg_tensor (&argv[1]),
                                                 fx_arg_tensor (&argv[0]), error));
}

/* ------------------------------------------------------------------ interpolate */

static gboolean
is_number (const FxValue *v)
{
  return v->kind == FX_VALUE_INT || v->kind == FX_VALUE_FLOAT || v->kind == FX_VALUE_BOOL;
}

static void
append_spatial (GString *s, FxTensor *input)
{
  g_string_append_c (s, '[');
  for (int i = 2; i < input->ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 2 ? ", " : "", input->shape[i]);
  g_string_append_c (s, ']');
}

/* F.interpolate as 1.13 writes it in Python, down to the upsample kernels. */
static gboolean
interpolate (FxTensor *input, const FxValue *size, const FxValue *scale_factor, const char *mode,
             const FxValue *align_corners, const FxValue *recompute, gboolean antialias,
             FxValue *result, GError **error)
{
  int dim = input->ndim - 2;
  int64_t out_size[3] = { 0, 0, 0 };
  double scales[3] = { 0, 0, 0 };
  gboolean have_size = FALSE, have_scales = FALSE, align = FALSE;
  gboolean nearest_like = g_strcmp0 (mode, "nearest") == 0 || g_strcmp0 (mode, "area") == 0
                          || g_strcmp0 (mode, "nearest-exact") == 0;
  FxInterpMode kind;

  if (nearest_like)
    {
      if (!fx_arg_is_none (align_corners))
        return value_error (error, "align_corners option can only be set with the interpolating "
                                   "modes: linear | bilinear | bicubic | trilinear");
    }
  else
    align = fx_arg_is_none (align_corners) ? FALSE : fx_arg_bool (align_corners);

  if (!fx_arg_is_none (size) && !fx_arg_is_none (scale_factor))
    return value_error (error, "only one of size or scale_factor should be defined");
  if (!fx_arg_is_none (size))
    {
      if (size->kind == FX_VALUE_TUPLE || size->kind == FX_VALUE_LIST)
        {
          if ((int) size->seq->len != dim)
            {
              GString *s = g_string_new ("Input and output must have the same number of spatial "
                                         "dimensions, but got input with spatial dimensions of ");
              append_spatial (s, input);
              g_string_append (s, " and output size of ");
              fx_value_repr (size, s);
              g_string_append (s, ". Please provide input tensor in (N, C, d1, d2, ...,dK) "
                                  "format and output size in (o1, o2, ...,oK) format.");
              g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
              g_string_free (s, TRUE);
              return FALSE;
            }
          for (int i = 0; i < dim && i < 3; i++)
            {
              const FxValue *it = &size->seq->items[i];
              if (it->kind != FX_VALUE_INT && it->kind != FX_VALUE_BOOL)
                {
                  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                               "size must be an int or a tuple of ints, not %s",
                               fx_value_kind_name (it->kind));
                  return FALSE;
                }
              out_size[i] = fx_arg_int (it);
            }
        }
      else if (size->kind == FX_VALUE_INT || size->kind == FX_VALUE_BOOL)
        for (int i = 0; i < dim && i < 3; i++)
          out_size[i] = fx_arg_int (size);
      else
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                       "size must be an int or a tuple of ints, not %s",
                       fx_value_kind_name (size->kind));
          return FALSE;
        }
      have_size = TRUE;
    }
  else if (!fx_arg_is_none (scale_factor))
    {
      if (scale_factor->kind == FX_VALUE_TUPLE || scale_factor->kind == FX_VALUE_LIST)
        {
          if ((int) scale_factor->seq->len != dim)
            {
              GString *s = g_string_new ("Input and scale_factor must have the same number of "
                                         "spatial dimensions, but got input with spatial "
                                         "dimensions of ");
              append_spatial (s, input);
              g_string_append (s, " and scale_factor of shape ");
              fx_value_repr (scale_factor, s);
              g_string_append (s, ". Please provide input tensor in (N, C, d1, d2, ...,dK) "
                                  "format and scale_factor in (s1, s2, ...,sK) format.");
              g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
              g_string_free (s, TRUE);
              return FALSE;
            }
          for (int i = 0; i < dim && i < 3; i++)
            {
              if (!is_number (&scale_factor->seq->items[i]))
                {
                  g_set_error (error, FX_ERROR, FX_ERROR_DTYPE,
                               "scale_factor must be a float or a tuple of floats, not %s",
                               fx_value_kind_name (scale_factor->seq->items[i].kind));
                  return FALSE;
                }
              scales[i] = fx_arg_float (&scale_factor->seq->items[i]);
            }
        }
      else if (is_number (scale_factor))
        for (int i = 0; i < dim && i < 3; i++)
          scales[i] = fx_arg_float (scale_factor);
      else
        {
          g_set_error (error, FX_ERROR, FX_ERROR_DTYPE, "scale_factor must be a float or a "
                       "tuple of floats, not %s", fx_value_kind_name (scale_factor->kind));
          return FALSE;
        }
      have_scales = TRUE;
    }
  else
    return value_error (error, "either size or scale_factor should be defined");

  {
    gboolean rec = !fx_arg_is_none (recompute) && fx_arg_bool (recompute);
    if (rec && have_size)
      return value_error (error, "recompute_scale_factor is not meaningful with an explicit size.");
    if (g_strcmp0 (mode, "area") == 0 && !have_size)
      rec = TRUE;
    if (rec)
      {
        for (int i = 0; i < dim && i < 3; i++)
          out_size[i] = cast_size (floor ((double) input->shape[i + 2] * scales[i]));
        have_size = TRUE;
        have_scales = FALSE;
      }
    else if (have_scales)
      for (int i = 0; i < dim && i < 3; i++)
        out_size[i] = cast_size ((double) input->shape[i + 2] * scales[i]);
  }
  if (antialias && !((g_strcmp0 (mode, "bilinear") == 0 || g_strcmp0 (mode, "bicubic") == 0)
                     && input->ndim == 4))
    return value_error (error, "Anti-alias option is only supported for bilinear and bicubic modes");

  if (dim >= 1 && dim <= 3 && g_strcmp0 (mode, "nearest") == 0)
    kind = FX_INTERP_NEAREST;
  else if (dim >= 1 && dim <= 3 && g_strcmp0 (mode, "nearest-exact") == 0)
    kind = FX_INTERP_NEAREST_EXACT;
  else if (dim >= 1 && dim <= 3 && g_strcmp0 (mode, "area") == 0)
    kind = FX_INTERP_AREA;
  else if ((dim == 1 && g_strcmp0 (mode, "linear") == 0)
           || (dim == 2 && g_strcmp0 (mode, "bilinear") == 0)
           || (dim == 3 && g_strcmp0 (mode, "trilinear") == 0))
    kind = FX_INTERP_LINEAR;
  else if (dim == 2 && g_strcmp0 (mode, "bicubic") == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx does not implement mode='bicubic' yet");
      return FALSE;
    }
  else
    {
      static const char *const needs[] = { "linear", "bilinear", "trilinear" };
      for (int want = 1; want <= 3; want++)
        if (g_strcmp0 (mode, needs[want - 1]) == 0 && dim >= 1 && dim <= 3)
          {
            g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                         "Got %dD input, but %s mode needs %dD input", input->ndim, mode,
                         want + 2);
            return FALSE;
          }
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the "
                   "modes: nearest | linear | bilinear | bicubic | trilinear | area | "
                   "nearest-exact (got %s)", input->ndim, mode);
      return FALSE;
    }
  if (antialias)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx does not implement antialias=True yet");
      return FALSE;
    }
  return fx_result_tensor (result, fx_upsample (input, kind, out_size,
                                                have_scales ? scales : NULL, align, error));
}

static const char *
arg_str (const FxValue *v)
{
  return v->kind == FX_VALUE_STR ? v->s->data : NULL;
}

static gboolean
k_interpolate (const FxValue *argv, FxValue *result, GError **error)
{
  return interpolate (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], arg_str (&argv[3]), &argv[4],
                      &argv[5], fx_arg_bool (&argv[6]), result, error);
}

static gboolean
k_upsample (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue none = fx_value_none ();
  return interpolate (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], arg_str (&argv[3]), &argv[4],
                      &none, FALSE, result, error);
}

static gboolean
k_upsample_nearest (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue none = fx_value_none ();
  return interpolate (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], "nearest", &none, &none,
                      FALSE, result, error);
}

static gboolean
k_upsample_bilinear (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue none = fx_value_none (), yes = fx_value_bool (TRUE);
  return interpolate (fx_arg_tensor (&argv[0]), &argv[1], &argv[2], "bilinear", &yes, &none,
                      FALSE, result, error);
}

/* ------------------------------------------------------------------ pad */

static gboolean
k_pad (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t pad[2 * FX_TENSOR_MAX_DIMS + 2];
  int n = fx_arg_int_list (&argv[1], pad, G_N_ELEMENTS (pad));
  const char *mode = arg_str (&argv[2]);
  FxPadMode m;

  if (g_strcmp0 (mode, "constant") == 0)
    m = FX_PAD_CONSTANT;
  else if (g_strcmp0 (mode, "reflect") == 0)
    m = FX_PAD_REFLECT;
  else if (g_strcmp0 (mode, "replicate") == 0)
    m = FX_PAD_REPLICATE;
  else if (g_strcmp0 (mode, "circular") == 0)
    m = FX_PAD_CIRCULAR;
  else
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "Unrecognised padding mode %s",
                   mode ? mode : "None");
      return FALSE;
    }
  if (m != FX_PAD_CONSTANT && !fx_arg_is_none (&argv[3]) && fx_arg_float (&argv[3]) != 0.0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Padding mode \"%s\" doesn't take in value argument", mode);
      return FALSE;
    }
  if (n > (int) G_N_ELEMENTS (pad))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Padding length too large");
      return FALSE;
    }
  return fx_result_tensor (result,
                           fx_pad (fx_arg_tensor (&argv[0]), n, pad, m,
                                   fx_arg_is_none (&argv[3]) ? 0.0 : fx_arg_float (&argv[3]),
                                   error));
}

/* ------------------------------------------------------------------ shuffles, one_hot */

static gboolean
k_pixel_shuffle (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_pixel_shuffle (fx_arg_tensor (&argv[0]),
                                                     fx_arg_int (&argv[1]), error));
}

static gboolean
k_pixel_unshuffle (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_pixel_unshuffle (fx_arg_tensor (&argv[0]),
                                                       fx_arg_int (&argv[1]), error));
}

static gboolean
k_channel_shuffle (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_channel_shuffle (fx_arg_tensor (&argv[0]),
                                                       fx_arg_int (&argv[1]), error));
}

static gboolean
k_one_hot (const FxValue *argv, FxValue *result, GError **error)
{
  return fx_result_tensor (result, fx_one_hot (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                               error));
}

/* ------------------------------------------------------------------ the table */

#define NORM "normalization"

const FxOpDef fx_op_defs_nn[] = {
  { FX_OP_FUNCTION, "torch.nn.functional.batch_norm", { NULL }, NORM,
    "Batch normalisation over dim 1", 0, {
      { "batch_norm(Tensor input, Tensor? running_mean, Tensor? running_var, "
        "Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, "
        "float eps=1e-05) -> Tensor", k_f_batch_norm } } },
  { FX_OP_FUNCTION, "torch.batch_norm", { NULL }, NORM, "Batch normalisation (ATen form)", 0, {
      { "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) "
        "-> Tensor", k_batch_norm } } },
  { FX_OP_FUNCTION, "torch.nn.functional.layer_norm", { NULL }, NORM,
    "Layer normalisation over the trailing dims", 0, {
      { "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
        "Tensor? bias=None, float eps=1e-05) -> Tensor", k_layer_norm } } },
  { FX_OP_FUNCTION, "torch.layer_norm", { NULL }, NORM, "Layer normalisation (ATen form)", 0, {
      { "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, "
        "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
        k_layer_norm } } },
  { FX_OP_FUNCTION, "torch.nn.functional.group_norm", { NULL }, NORM,
    "Group normalisation", 0, {
      { "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
        "float eps=1e-05) -> Tensor", k_group_norm } } },
  { FX_OP_FUNCTION, "torch.group_norm", { NULL }, NORM, "Group normalisation (ATen form)", 0, {
      { "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
        "float eps=1e-05, bool cudnn_enabled=True) -> Tensor", k_group_norm } } },
  { FX_OP_FUNCTION, "torch.nn.functional.instance_norm", { NULL }, NORM,
    "Instance normalisation", 0, {
      { "instance_norm(Tensor input, Tensor? running_mean=None, Tensor? running_var=None, "
        "Tensor? weight=None, Tensor? bias=None, bool use_input_stats=True, "
        "float momentum=0.1, float eps=1e-05) -> Tensor", k_f_instance_norm } } },
  { FX_OP_FUNCTION, "torch.instance_norm", { NULL }, NORM,
    "Instance normalisation (ATen form)", 0, {
      { "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool use_input_stats, float momentum, float eps, "
        "bool cudnn_enabled) -> Tensor", k_instance_norm } } },

  { FX_OP_FUNCTION, "torch.nn.functional.dropout", { NULL }, "dropout",
    "Zeroes elements with probability p in training", FX_OP_FLAG_RANDOM, {
      { "dropout(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor",
        k_f_dropout } } },
  { FX_OP_FUNCTION, "torch.dropout", { NULL }, "dropout", "Dropout (ATen form)",
    FX_OP_FLAG_RANDOM, {
      { "dropout(Tensor input, float p, bool train) -> Tensor", k_dropout } } },
  { FX_OP_FUNCTION, "torch.feature_dropout", { NULL }, "dropout",
    "Channel dropout (ATen form)", FX_OP_FLAG_RANDOM, {
      { "feature_dropout(Tensor input, float p, bool train) -> Tensor", k_feature_dropout } } },
  { FX_OP_FUNCTION, "torch.nn.functional.dropout1d", { NULL }, "dropout",
    "Zeroes whole channels of (N, C, L) inputs", FX_OP_FLAG_RANDOM, {
      { "dropout1d(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor",
        k_f_dropout1d } } },
  { FX_OP_FUNCTION, "torch.nn.functional.dropout2d", { NULL }, "dropout",
    "Zeroes whole channels of (N, C, H, W) inputs", FX_OP_FLAG_RANDOM, {
      { "dropout2d(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor",
        k_f_dropout2d } } },
  { FX_OP_FUNCTION, "torch.nn.functional.dropout3d", { NULL }, "dropout",
    "Zeroes whole channels of (N, C, D, H, W) inputs", FX_OP_FLAG_RANDOM, {
      { "dropout3d(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor",
        k_f_dropout3d } } },

  { FX_OP_FUNCTION, "torch.nn.functional.embedding", { NULL }, "sparse",
    "Rows of an embedding matrix picked by indices", 0, {
      { "embedding(Tensor input, Tensor weight, int? padding_idx=None, float? max_norm=None, "
        "float norm_type=2.0, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
        k_f_embedding } } },
  { FX_OP_FUNCTION, "torch.embedding", { NULL }, "sparse", "Embedding lookup (ATen form)", 0, {
      { "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, "
        "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor", k_embedding } } },

  { FX_OP_FUNCTION, "torch.nn.functional.interpolate", { NULL }, "vision",
    "Resizes (N, C, ...) inputs: nearest, linear, bilinear, trilinear, area", 0, {
      { "interpolate(Tensor input, Any size=None, Any scale_factor=None, str mode='nearest', "
        "bool? align_corners=None, bool? recompute_scale_factor=None, bool antialias=False) "
        "-> Tensor", k_interpolate } } },
  { FX_OP_FUNCTION, "torch.nn.functional.upsample", { NULL }, "vision",
    "Deprecated form of interpolate", 0, {
      { "upsample(Tensor input, Any size=None, Any scale_factor=None, str mode='nearest', "
        "bool? align_corners=None) -> Tensor", k_upsample } } },
  { FX_OP_FUNCTION, "torch.nn.functional.upsample_nearest", { NULL }, "vision",
    "Deprecated nearest upsampling", 0, {
      { "upsample_nearest(Tensor input, Any size=None, Any scale_factor=None) -> Tensor",
        k_upsample_nearest } } },
  { FX_OP_FUNCTION, "torch.nn.functional.upsample_bilinear", { NULL }, "vision",
    "Deprecated bilinear upsampling (align_corners=True)", 0, {
      { "upsample_bilinear(Tensor input, Any size=None, Any scale_factor=None) -> Tensor",
        k_upsample_bilinear } } },
  { FX_OP_FUNCTION, "torch.nn.functional.pad", { NULL }, "vision",
    "Pads with a constant, a reflection, a replication or circularly", 0, {
      { "pad(Tensor input, int[] pad, str mode='constant', float? value=None) -> Tensor",
        k_pad } } },
  { FX_OP_FUNCTION, "torch.pixel_shuffle", { "torch.nn.functional.pixel_shuffle", NULL },
    "vision", "(*, C r², H, W) → (*, C, H r, W r)", 0, {
      { "pixel_shuffle(Tensor input, int upscale_factor) -> Tensor", k_pixel_shuffle } } },
  { FX_OP_FUNCTION, "torch.pixel_unshuffle", { "torch.nn.functional.pixel_unshuffle", NULL },
    "vision", "(*, C, H r, W r) → (*, C r², H, W)", 0, {
      { "pixel_unshuffle(Tensor input, int downscale_factor) -> Tensor", k_pixel_unshuffle } } },
  { FX_OP_FUNCTION, "torch.channel_shuffle", { "torch.nn.functional.channel_shuffle", NULL },
    "vision", "Interleaves channel groups", 0, {
      { "channel_shuffle(Tensor input, int groups) -> Tensor", k_channel_shuffle } } },
  { FX_OP_FUNCTION, "torch._C._nn.one_hot", { "torch.nn.functional.one_hot", NULL }, "sparse",
    "One-hot encoding of int64 class indices", 0, {
      { "one_hot(Tensor input, int num_classes=-1) -> Tensor", k_one_hot } } },
  { .path = NULL },
};
