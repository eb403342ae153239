/* ops-creation.c: the registry entries of tensor factories (torch.zeros, arange, tensor, ...),
 * the random ones (rand, randn, randint, normal, bernoulli, manual_seed), the Tensor.new_*
 * methods, the in-place random methods (normal_, uniform_, random_, bernoulli_) and
 * torch.nn.init. Schemas follow PyTorch 1.13's Python signatures. */
#include "ops/op-table.h"
#include "tensor/creation.h"
#include "tensor/random.h"
#include "fx-error.h"

/* ------------------------------------------------------------------ argument helpers */

static FxDType
arg_dtype (const FxValue *v, FxDType def)
{
  return v->kind == FX_VALUE_DTYPE ? v->dtype : def;
}

static int
arg_shape (const FxValue *v, int64_t *shape, GError **error)
{
  int n = fx_arg_int_list (v, shape, FX_TENSOR_MAX_DIMS);
  if (n > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, n);
      return -1;
    }
  return n;
}

static FxGenerator *
arg_generator (const FxValue *v)
{
  return fx_value_get_generator (v);
}

/* requires_grad=True on the result (float tensors only, like torch). */
static gboolean
finish_tensor (FxValue *result, FxTensor *t, const FxValue *requires_grad, GError **error)
{
  if (t == NULL)
    return FALSE;
  if (requires_grad && requires_grad->kind == FX_VALUE_BOOL && requires_grad->b)
    {
      if (!fx_dtype_is_floating (t->dtype))
        {
          fx_tensor_unref (t);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Only Tensors of floating point and complex dtype can require gradients");
          return FALSE;
        }
      t->requires_grad = TRUE;
    }
  *result = fx_value_take_tensor (t);
  return TRUE;
}

/* ------------------------------------------------------------------ zeros, ones, empty, full */

/* (size, *, dtype, layout, device, pin_memory, requires_grad[, memory_format]) */
#define SHAPE_OPTS "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, " \
                   "bool? pin_memory=False, bool? requires_grad=False"
#define LIKE_OPTS  "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, " \
                   "bool? pin_memory=False, bool? requires_grad=False, " \
                   "MemoryFormat? memory_format=None"

typedef FxTensor *(*ShapeFactory) (FxDType, int, const int64_t *, GError **);

static gboolean
shape_factory (const FxValue *argv, FxValue *result, GError **error, ShapeFactory f)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[0], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result, f (arg_dtype (&argv[1], FX_DTYPE_DEFAULT_FLOAT), n, shape, error),
                        &argv[5], error);
}

static gboolean
k_zeros (const FxValue *argv, FxValue *result, GError **error)
{
  return shape_factory (argv, result, error, fx_zeros);
}

static gboolean
k_ones (const FxValue *argv, FxValue *result, GError **error)
{
  return shape_factory (argv, result, error, fx_ones);
}

static gboolean
k_empty (const FxValue *argv, FxValue *result, GError **error)
{
  return shape_factory (argv, result, error, fx_empty);
}

static gboolean
k_full (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[0], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result,
                        fx_full (n, shape, &argv[1], argv[2].kind == FX_VALUE_DTYPE,
                                 arg_dtype (&argv[2], FX_DTYPE_DEFAULT_FLOAT), error),
                        &argv[6], error);
}

static gboolean
k_eye (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_eye (fx_arg_int (&argv[0]), -1,
                                        arg_dtype (&argv[1], FX_DTYPE_DEFAULT_FLOAT), error),
                        &argv[5], error);
}

static gboolean
k_eye_nm (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t n = fx_arg_int (&argv[0]), m = fx_arg_int (&argv[1]);
  if (n >= 0 && m < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "m must be greater or equal to 0, got %" G_GINT64_FORMAT, m);
      return FALSE;
    }
  return finish_tensor (result, fx_eye (n, m, arg_dtype (&argv[2], FX_DTYPE_DEFAULT_FLOAT), error),
                        &argv[6], error);
}

/* ------------------------------------------------------------------ arange, linspace */

static gboolean
arange_common (const FxValue *start, const FxValue *end, const FxValue *step,
               const FxValue *opts, FxValue *result, GError **error)
{
  return finish_tensor (result,
                        fx_arange (start, end, step, opts[0].kind == FX_VALUE_DTYPE,
                                   arg_dtype (&opts[0], FX_DTYPE_DEFAULT_FLOAT), error),
                        &opts[4], error);
}

static gboolean
k_arange_end (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue zero = fx_value_int (0), one = fx_value_int (1);
  return arange_common (&zero, &argv[0], &one, &argv[1], result, error);
}

static gboolean
k_arange_start_end (const FxValue *argv, FxValue *result, GError **error)
{
  FxValue one = fx_value_int (1);
  return arange_common (&argv[0], &argv[1], &one, &argv[2], result, error);
}

static gboolean
k_arange_step (const FxValue *argv, FxValue *result, GError **error)
{
  return arange_common (&argv[0], &argv[1], &argv[2], &argv[3], result, error);
}

static double
scalar_double (const FxValue *v)
{
  if (v->kind == FX_VALUE_TENSOR)
    return fx_tensor_get_double (v->tensor, 0);
  return fx_arg_float (v);
}

static gboolean
k_linspace (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result,
                        fx_linspace (scalar_double (&argv[0]), scalar_double (&argv[1]),
                                     fx_arg_int (&argv[2]),
                                     arg_dtype (&argv[3], FX_DTYPE_DEFAULT_FLOAT), error),
                        &argv[7], error);
}

/* ------------------------------------------------------------------ torch.tensor */

static gboolean
k_tensor (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result,
                        fx_tensor_from_value (&argv[0], argv[1].kind == FX_VALUE_DTYPE,
                                              arg_dtype (&argv[1], FX_DTYPE_DEFAULT_FLOAT), error),
                        &argv[3], error);
}

/* ------------------------------------------------------------------ *_like */

static gboolean
k_zeros_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_zeros_like (fx_arg_tensor (&argv[0]),
                                               arg_dtype (&argv[1], FX_DTYPE_LIKE), error),
                        &argv[5], error);
}

static gboolean
k_ones_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_ones_like (fx_arg_tensor (&argv[0]),
                                              arg_dtype (&argv[1], FX_DTYPE_LIKE), error),
                        &argv[5], error);
}

static gboolean
k_empty_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_empty_like (fx_arg_tensor (&argv[0]),
                                               arg_dtype (&argv[1], FX_DTYPE_LIKE), error),
                        &argv[5], error);
}

static gboolean
k_full_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_full_like (fx_arg_tensor (&argv[0]), &argv[1],
                                              arg_dtype (&argv[2], FX_DTYPE_LIKE), error),
                        &argv[6], error);
}

static gboolean
k_rand_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_rand_like (fx_arg_tensor (&argv[0]),
                                              arg_dtype (&argv[1], FX_DTYPE_LIKE), NULL, error),
                        &argv[5], error);
}

static gboolean
k_randn_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_randn_like (fx_arg_tensor (&argv[0]),
                                               arg_dtype (&argv[1], FX_DTYPE_LIKE), NULL, error),
                        &argv[5], error);
}

static gboolean
k_randint_like_high (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result,
                        fx_randint_like (fx_arg_tensor (&argv[0]), 0, fx_arg_int (&argv[1]),
                                         arg_dtype (&argv[2], FX_DTYPE_LIKE), NULL, error),
                        &argv[6], error);
}

static gboolean
k_randint_like (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result,
                        fx_randint_like (fx_arg_tensor (&argv[0]), fx_arg_int (&argv[1]),
                                         fx_arg_int (&argv[2]),
                                         arg_dtype (&argv[3], FX_DTYPE_LIKE), NULL, error),
                        &argv[7], error);
}

/* ------------------------------------------------------------------ random factories */

/* (size, *, generator, dtype, layout, device, pin_memory, requires_grad) */
#define RAND_OPTS "*, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, " \
                  "Device? device=None, bool? pin_memory=False, bool? requires_grad=False"

static gboolean
k_rand (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[0], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result, fx_rand (arg_dtype (&argv[2], FX_DTYPE_DEFAULT_FLOAT), n, shape,
                                         arg_generator (&argv[1]), error),
                        &argv[6], error);
}

static gboolean
k_randn (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[0], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result, fx_randn (arg_dtype (&argv[2], FX_DTYPE_DEFAULT_FLOAT), n, shape,
                                          arg_generator (&argv[1]), error),
                        &argv[6], error);
}

static gboolean
randint_common (int64_t low, int64_t high, const FxValue *size, const FxValue *opts,
                FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (size, shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result, fx_randint (low, high, arg_dtype (&opts[1], FX_DTYPE_INT64), n,
                                            shape, arg_generator (&opts[0]), error),
                        &opts[5], error);
}

static gboolean
k_randint_high (const FxValue *argv, FxValue *result, GError **error)
{
  return randint_common (0, fx_arg_int (&argv[0]), &argv[1], &argv[2], result, error);
}

static gboolean
k_randint (const FxValue *argv, FxValue *result, GError **error)
{
  return randint_common (fx_arg_int (&argv[0]), fx_arg_int (&argv[1]), &argv[2], &argv[3],
                         result, error);
}

static gboolean
k_normal_size (const FxValue *argv, FxValue *result, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[2], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result,
                        fx_normal (fx_arg_float (&argv[0]), fx_arg_float (&argv[1]),
                                   arg_dtype (&argv[4], FX_DTYPE_DEFAULT_FLOAT), n, shape,
                                   arg_generator (&argv[3]), error),
                        &argv[8], error);
}

/* normal(Tensor mean, float std): draws N(0, std) shaped like mean, then adds mean. */
static gboolean
k_normal_tensor_mean (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *mean = fx_arg_tensor (&argv[0]);
  FxTensor *m = fx_tensor_contiguous (mean);
  FxTensor *out;
  int64_t n = fx_tensor_numel (mean);

  if (!fx_dtype_is_floating (mean->dtype))
    {
      fx_tensor_unref (m);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"normal_kernel_cpu\" not implemented for '%s'",
                   mean->dtype == FX_DTYPE_INT64 ? "Long" : fx_dtype_name (mean->dtype));
      return FALSE;
    }
  out = fx_tensor_new_uninit (mean->dtype, mean->ndim, mean->shape);
  if (!fx_tensor_normal_ (out, 0.0, fx_arg_float (&argv[1]), arg_generator (&argv[2]), error))
    {
      fx_tensor_unref (m);
      fx_tensor_unref (out);
      return FALSE;
    }
  if (out->dtype == FX_DTYPE_FLOAT32)
    {
      float *o = fx_tensor_data (out);
      const float *x = fx_tensor_data (m);
      for (int64_t i = 0; i < n; i++)
        o[i] += x[i];
    }
  else if (out->dtype == FX_DTYPE_FLOAT64)
    {
      double *o = fx_tensor_data (out);
      const double *x = fx_tensor_data (m);
      for (int64_t i = 0; i < n; i++)
        o[i] += x[i];
    }
  else
    {
      uint16_t *o = fx_tensor_data (out);
      const uint16_t *x = fx_tensor_data (m);
      for (int64_t i = 0; i < n; i++)
        o[i] = fx_float_to_half (fx_half_to_float (o[i]) + fx_half_to_float (x[i]));
    }
  fx_tensor_unref (m);
  *result = fx_value_take_tensor (out);
  return TRUE;
}

/* torch.bernoulli(input): each element is 1 with the probability input holds there. */
static gboolean
k_bernoulli_tensor (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *p = fx_arg_tensor (&argv[0]);
  FxTensor *out = fx_tensor_new_uninit (p->dtype, p->ndim, p->shape);
  int64_t n = fx_tensor_numel (p);
  FxGenerator *gen = arg_generator (&argv[1]);

  if (!fx_dtype_is_floating (p->dtype))
    {
      fx_tensor_unref (out);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"bernoulli_tensor_cpu_self_\" not implemented for '%s'",
                   p->dtype == FX_DTYPE_INT64 ? "Long" : fx_dtype_name (p->dtype));
      return FALSE;
    }
  for (int64_t i = 0; i < n; i++)
    {
      double prob = fx_tensor_get_double (p, i);
      if (!(prob >= 0 && prob <= 1))
        {
          fx_tensor_unref (out);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                       "error message be improved?  If so, please report an enhancement request "
                       "to PyTorch.)");
          return FALSE;
        }
    }
  for (int64_t i = 0; i < n; i++)
    {
      double prob = fx_tensor_get_double (p, i);
      /* a uniform of the tensor's own type, as torch's per-element kernel draws */
      double u;
      if (p->dtype == FX_DTYPE_FLOAT64)
        u = (double) (fx_generator_random64 (gen) & ((G_GUINT64_CONSTANT (1) << 53) - 1))
            * 0x1p-53;
      else if (p->dtype == FX_DTYPE_FLOAT32)
        u = (double) (fx_generator_random (gen) & 0xffffffu) * 0x1p-24;
      else
        u = (double) (fx_generator_random (gen) & 0x7ffu) * 0x1p-11;
      double v = u < prob ? 1.0 : 0.0;
      if (out->dtype == FX_DTYPE_FLOAT32)
        ((float *) fx_tensor_data (out))[i] = (float) v;
      else if (out->dtype == FX_DTYPE_FLOAT64)
        ((double *) fx_tensor_data (out))[i] = v;
      else
        ((uint16_t *) fx_tensor_data (out))[i] = fx_float_to_half ((float) v);
    }
  *result = fx_value_take_tensor (out);
  return TRUE;
}

static gboolean
k_bernoulli_p (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *in = fx_arg_tensor (&argv[0]);
  FxTensor *out = fx_empty_like (in, FX_DTYPE_LIKE, error);
  if (out == NULL)
    return FALSE;
  if (!fx_tensor_bernoulli_ (out, fx_arg_float (&argv[1]), arg_generator (&argv[2]), error))
    {
      fx_tensor_unref (out);
      return FALSE;
    }
  *result = fx_value_take_tensor (out);
  return TRUE;
}

static gboolean
k_randperm (const FxValue *argv, FxValue *result, GError **error)
{
  return finish_tensor (result, fx_randperm (fx_arg_int (&argv[0]),
                                             arg_dtype (&argv[2], FX_DTYPE_INT64),
                                             arg_generator (&argv[1]), error),
                        &argv[6], error);
}

/* ------------------------------------------------------------------ seeds */

static gboolean
k_manual_seed (const FxValue *argv, FxValue *result, GError **error)
{
  fx_manual_seed ((uint64_t) fx_arg_int (&argv[0]));
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
k_seed (const FxValue *argv, FxValue *result, GError **error)
{
  *result = fx_value_int ((int64_t) fx_seed ());
  return TRUE;
}

static gboolean
k_initial_seed (const FxValue *argv, FxValue *result, GError **error)
{
  *result = fx_value_int ((int64_t) fx_initial_seed ());
  return TRUE;
}

/* ------------------------------------------------------------------ Tensor.new_* */

static gboolean
new_shape (const FxValue *argv, FxValue *result, GError **error, ShapeFactory f)
{
  FxTensor *self = fx_arg_tensor (&argv[0]);
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[1], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result, f (arg_dtype (&argv[2], self->dtype), n, shape, error), &argv[6],
                        error);
}

static gboolean
k_new_zeros (const FxValue *argv, FxValue *result, GError **error)
{
  return new_shape (argv, result, error, fx_zeros);
}

static gboolean
k_new_ones (const FxValue *argv, FxValue *result, GError **error)
{
  return new_shape (argv, result, error, fx_ones);
}

static gboolean
k_new_empty (const FxValue *argv, FxValue *result, GError **error)
{
  return new_shape (argv, result, error, fx_empty);
}

static gboolean
k_new_full (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *self = fx_arg_tensor (&argv[0]);
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int n = arg_shape (&argv[1], shape, error);
  if (n < 0)
    return FALSE;
  return finish_tensor (result, fx_full (n, shape, &argv[2], TRUE, arg_dtype (&argv[3], self->dtype),
                                         error),
                        &argv[7], error);
}

static gboolean
k_new_tensor (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *self = fx_arg_tensor (&argv[0]);
  return finish_tensor (result,
                        fx_tensor_from_value (&argv[1], TRUE, arg_dtype (&argv[2], self->dtype),
                                              error),
                        &argv[4], error);
}

/* ------------------------------------------------------------------ in-place random methods */

static gboolean
return_self (FxValue *result, const FxValue *self, gboolean ok)
{
  if (ok)
    *result = fx_value_copy (self);
  return ok;
}

static gboolean
k_normal_ (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_tensor_normal_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                         fx_arg_float (&argv[2]), arg_generator (&argv[3]), error));
}

static gboolean
k_uniform_ (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_tensor_uniform_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                          fx_arg_float (&argv[2]), arg_generator (&argv[3]),
                                          error));
}

static gboolean
k_random_from_to (const FxValue *argv, FxValue *result, GError **error)
{
  FxTensor *t = fx_arg_tensor (&argv[0]);
  int64_t to;
  if (fx_arg_is_none (&argv[2]))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "random_(from, None) is not supported by libfx");
      return FALSE;
    }
  to = fx_arg_int (&argv[2]);
  return return_self (result, &argv[0],
                      fx_tensor_random_ (t, fx_arg_int (&argv[1]), to, arg_generator (&argv[3]),
                                         error));
}

static gboolean
k_random_to (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_tensor_random_ (fx_arg_tensor (&argv[0]), 0, fx_arg_int (&argv[1]),
                                         arg_generator (&argv[2]), error));
}

static gboolean
k_bernoulli_ (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_tensor_bernoulli_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                            arg_generator (&argv[2]), error));
}

/* ------------------------------------------------------------------ torch.nn.init */

static gboolean
k_init_uniform (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_init_uniform_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                        fx_arg_float (&argv[2]), NULL, error));
}

static gboolean
k_init_normal (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_init_normal_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                       fx_arg_float (&argv[2]), NULL, error));
}

static gboolean
k_init_constant (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_fill_value (fx_arg_tensor (&argv[0]), &argv[1], error));
}

static gboolean
k_init_zeros (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0], fx_init_zeros_ (fx_arg_tensor (&argv[0]), error));
}

static gboolean
k_init_ones (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0], fx_init_ones_ (fx_arg_tensor (&argv[0]), error));
}

static gboolean
k_init_eye (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0], fx_init_eye_ (fx_arg_tensor (&argv[0]), error));
}

static gboolean
k_init_xavier_uniform (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_init_xavier_uniform_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                               NULL, error));
}

static gboolean
k_init_xavier_normal (const FxValue *argv, FxValue *result, GError **error)
{
  return return_self (result, &argv[0],
                      fx_init_xavier_normal_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                              NULL, error));
}

static gboolean
k_init_kaiming_uniform (const FxValue *argv, FxValue *result, GError **error)
{
  g_autofree char *mode = g_ascii_strdown (argv[2].s->data, -1);
  return return_self (result, &argv[0],
                      fx_init_kaiming_uniform_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                                mode, argv[3].s->data, NULL, error));
}

static gboolean
k_init_kaiming_normal (const FxValue *argv, FxValue *result, GError **error)
{
  g_autofree char *mode = g_ascii_strdown (argv[2].s->data, -1);
  return return_self (result, &argv[0],
                      fx_init_kaiming_normal_ (fx_arg_tensor (&argv[0]), fx_arg_float (&argv[1]),
                                               mode, argv[3].s->data, NULL, error));
}

static gboolean
k_calculate_gain (const FxValue *argv, FxValue *result, GError **error)
{
  const FxValue *param = &argv[1];
  const char *nl = argv[0].kind == FX_VALUE_STR ? argv[0].s->data : NULL;
  double gain;
  gboolean has = param->kind != FX_VALUE_NONE;

  if (g_strcmp0 (nl, "leaky_relu") == 0 && has && param->kind != FX_VALUE_INT
      && param->kind != FX_VALUE_FLOAT)
    {
      GString *s = g_string_new ("negative_slope ");
      if (param->kind == FX_VALUE_STR)
        g_string_append (s, param->s->data);
      else if (param->kind == FX_VALUE_BOOL)
        g_string_append (s, param->b ? "True" : "False");
      else
        fx_value_repr (param, s);
      g_string_append (s, " not a valid number");
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  if (nl == NULL)
    {
      GString *s = g_string_new ("Unsupported nonlinearity ");
      fx_value_repr (&argv[0], s);
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
      g_string_free (s, TRUE);
      return FALSE;
    }
  if (!fx_init_calculate_gain (nl, has ? fx_arg_float (param) : 0.0, has, &gain, error))
    return FALSE;
  /* torch returns the int 1 for the linear family and sigmoid */
  if (gain == 1.0 && (g_strcmp0 (nl, "leaky_relu") != 0))
    *result = fx_value_int (1);
  else
    *result = fx_value_float (gain);
  return TRUE;
}

/* ------------------------------------------------------------------ the table */

#define CAT "creation"
#define RAND FX_OP_FLAG_RANDOM
#define CREATE FX_OP_FLAG_CREATION

const FxOpDef fx_op_defs_creation[] = {
  { FX_OP_FUNCTION, "torch.zeros", { NULL }, CAT, "A tensor filled with zeros", CREATE, {
      { "zeros(SymInt... size, " SHAPE_OPTS ") -> Tensor", k_zeros } } },
  { FX_OP_FUNCTION, "torch.ones", { NULL }, CAT, "A tensor filled with ones", CREATE, {
      { "ones(SymInt... size, " SHAPE_OPTS ") -> Tensor", k_ones } } },
  { FX_OP_FUNCTION, "torch.empty", { NULL }, CAT,
    "An uninitialised tensor (libfx zero-fills it)", CREATE, {
      { "empty(SymInt... size, " SHAPE_OPTS ", MemoryFormat? memory_format=None) -> Tensor",
        k_empty } } },
  { FX_OP_FUNCTION, "torch.full", { NULL }, CAT, "A tensor filled with one value", CREATE, {
      { "full(SymInt[] size, Scalar fill_value, " SHAPE_OPTS ") -> Tensor", k_full } } },
  { FX_OP_FUNCTION, "torch.eye", { NULL }, CAT, "An identity matrix", CREATE, {
      { "eye(int n, " SHAPE_OPTS ") -> Tensor", k_eye },
      { "eye(int n, int m, " SHAPE_OPTS ") -> Tensor", k_eye_nm } } },
  { FX_OP_FUNCTION, "torch.arange", { NULL }, CAT, "Evenly spaced values in [start, end)",
    CREATE, {
      { "arange(Scalar end, " SHAPE_OPTS ") -> Tensor", k_arange_end },
      { "arange(Scalar start, Scalar end, " SHAPE_OPTS ") -> Tensor", k_arange_start_end },
      { "arange(Scalar start, Scalar end, Scalar step=1, " SHAPE_OPTS ") -> Tensor",
        k_arange_step } } },
  { FX_OP_FUNCTION, "torch.linspace", { NULL }, CAT, "steps values from start to end",
    CREATE, {
      { "linspace(Scalar start, Scalar end, int steps, " SHAPE_OPTS ") -> Tensor",
        k_linspace } } },
  { FX_OP_FUNCTION, "torch.tensor", { NULL }, CAT, "A tensor from (nested) Python data",
    CREATE, {
      { "tensor(Any data, *, ScalarType? dtype=None, Device? device=None, "
        "bool requires_grad=False, bool pin_memory=False) -> Tensor", k_tensor } } },
  { FX_OP_FUNCTION, "torch.zeros_like", { NULL }, CAT, "Zeros shaped like the input", CREATE, {
      { "zeros_like(Tensor input, " LIKE_OPTS ") -> Tensor", k_zeros_like } } },
  { FX_OP_FUNCTION, "torch.ones_like", { NULL }, CAT, "Ones shaped like the input", CREATE, {
      { "ones_like(Tensor input, " LIKE_OPTS ") -> Tensor", k_ones_like } } },
  { FX_OP_FUNCTION, "torch.empty_like", { NULL }, CAT, "Uninitialised, shaped like the input",
    CREATE, {
      { "empty_like(Tensor input, " LIKE_OPTS ") -> Tensor", k_empty_like } } },
  { FX_OP_FUNCTION, "torch.full_like", { NULL }, CAT, "One value, shaped like the input",
    CREATE, {
      { "full_like(Tensor input, Scalar fill_value, " LIKE_OPTS ") -> Tensor", k_full_like } } },
  { FX_OP_FUNCTION, "torch.rand_like", { NULL }, CAT, "Uniform [0, 1), shaped like the input",
    CREATE | RAND, {
      { "rand_like(Tensor input, " LIKE_OPTS ") -> Tensor", k_rand_like } } },
  { FX_OP_FUNCTION, "torch.randn_like", { NULL }, CAT, "Standard normal, shaped like the input",
    CREATE | RAND, {
      { "randn_like(Tensor input, " LIKE_OPTS ") -> Tensor", k_randn_like } } },
  { FX_OP_FUNCTION, "torch.randint_like", { NULL }, CAT,
    "Random integers, shaped like the input", CREATE | RAND, {
      { "randint_like(Tensor input, int high, " LIKE_OPTS ") -> Tensor", k_randint_like_high },
      { "randint_like(Tensor input, int low, int high, " LIKE_OPTS ") -> Tensor",
        k_randint_like } } },
  { FX_OP_FUNCTION, "torch.rand", { NULL }, CAT, "Uniform random values in [0, 1)",
    CREATE | RAND, {
      { "rand(SymInt... size, " RAND_OPTS ") -> Tensor", k_rand } } },
  { FX_OP_FUNCTION, "torch.randn", { NULL }, CAT, "Standard normal random values",
    CREATE | RAND, {
      { "randn(SymInt... size, " RAND_OPTS ") -> Tensor", k_randn } } },
  { FX_OP_FUNCTION, "torch.randint", { NULL }, CAT, "Random integers in [low, high)",
    CREATE | RAND, {
      { "randint(int high, SymInt[] size, " RAND_OPTS ") -> Tensor", k_randint_high },
      { "randint(int low, int high, SymInt[] size, " RAND_OPTS ") -> Tensor", k_randint } } },
  { FX_OP_FUNCTION, "torch.normal", { NULL }, CAT, "Normal random values", CREATE | RAND, {
      { "normal(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor",
        k_normal_tensor_mean },
      { "normal(float mean, float std, SymInt[] size, " RAND_OPTS ") -> Tensor",
        k_normal_size } } },
  { FX_OP_FUNCTION, "torch.bernoulli", { NULL }, CAT, "0/1 draws with the given probabilities",
    RAND, {
      { "bernoulli(Tensor input, *, Generator? generator=None) -> Tensor", k_bernoulli_tensor },
      { "bernoulli(Tensor input, float p, *, Generator? generator=None) -> Tensor",
        k_bernoulli_p } } },
  { FX_OP_FUNCTION, "torch.randperm", { NULL }, CAT, "A random permutation of 0..n-1",
    CREATE | RAND, {
      { "randperm(int n, " RAND_OPTS ") -> Tensor", k_randperm } } },
  { FX_OP_FUNCTION, "torch.random.manual_seed", { "torch.manual_seed", NULL }, "random",
    "Seeds the default generator", FX_OP_FLAG_IMPURE, {
      { "manual_seed(int seed) -> Any", k_manual_seed } } },
  { FX_OP_FUNCTION, "torch.random.seed", { "torch.seed", NULL }, "random",
    "Seeds the default generator non-deterministically", FX_OP_FLAG_IMPURE | RAND, {
      { "seed() -> int", k_seed } } },
  { FX_OP_FUNCTION, "torch.random.initial_seed", { "torch.initial_seed", NULL }, "random",
    "The seed of the default generator", 0, {
      { "initial_seed() -> int", k_initial_seed } } },

  /* Tensor methods */
  { FX_OP_METHOD, "Tensor.new_zeros", { NULL }, CAT, "Zeros with this tensor's dtype", CREATE, {
      { "new_zeros(Tensor self, SymInt... size, " SHAPE_OPTS ") -> Tensor", k_new_zeros } } },
  { FX_OP_METHOD, "Tensor.new_ones", { NULL }, CAT, "Ones with this tensor's dtype", CREATE, {
      { "new_ones(Tensor self, SymInt... size, " SHAPE_OPTS ") -> Tensor", k_new_ones } } },
  { FX_OP_METHOD, "Tensor.new_empty", { NULL }, CAT, "Uninitialised, with this tensor's dtype",
    CREATE, {
      { "new_empty(Tensor self, SymInt... size, " SHAPE_OPTS ") -> Tensor", k_new_empty } } },
  { FX_OP_METHOD, "Tensor.new_full", { NULL }, CAT, "One value, with this tensor's dtype",
    CREATE, {
      { "new_full(Tensor self, SymInt[] size, Scalar fill_value, " SHAPE_OPTS ") -> Tensor",
        k_new_full } } },
  { FX_OP_METHOD, "Tensor.new_tensor", { NULL }, CAT, "A tensor from data, this tensor's dtype",
    CREATE, {
      { "new_tensor(Tensor self, Any data, ScalarType? dtype=None, Device? device=None, "
        "bool requires_grad=False) -> Tensor", k_new_tensor } } },
  { FX_OP_METHOD, "Tensor.normal_", { NULL }, "random", "Fills with normal random values",
    FX_OP_FLAG_INPLACE | RAND, {
      { "normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) "
        "-> Tensor(a!)", k_normal_ } } },
  { FX_OP_METHOD, "Tensor.uniform_", { NULL }, "random", "Fills with uniform random values",
    FX_OP_FLAG_INPLACE | RAND, {
      { "uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) "
        "-> Tensor(a!)", k_uniform_ } } },
  { FX_OP_METHOD, "Tensor.random_", { NULL }, "random", "Fills with random integers",
    FX_OP_FLAG_INPLACE | RAND, {
      { "random_(Tensor(a!) self, int from, int? to, *, Generator? generator=None) "
        "-> Tensor(a!)", k_random_from_to },
      { "random_(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)",
        k_random_to } } },
  { FX_OP_METHOD, "Tensor.bernoulli", { NULL }, "random", "0/1 draws with these probabilities",
    RAND, {
      { "bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", k_bernoulli_tensor },
      { "bernoulli(Tensor self, float p, *, Generator? generator=None) -> Tensor",
        k_bernoulli_p } } },
  { FX_OP_METHOD, "Tensor.bernoulli_", { NULL }, "random", "Fills with 0/1 draws",
    FX_OP_FLAG_INPLACE | RAND, {
      { "bernoulli_(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)",
        k_bernoulli_ } } },

  /* torch.nn.init: Python functions that draw into the tensor and return it */
  { FX_OP_FUNCTION, "torch.nn.init.uniform_", { NULL }, "init", "U(a, b) in place",
    FX_OP_FLAG_INPLACE | RAND, {
      { "uniform_(Tensor tensor, float a=0.0, float b=1.0) -> Tensor", k_init_uniform } } },
  { FX_OP_FUNCTION, "torch.nn.init.normal_", { NULL }, "init", "N(mean, std²) in place",
    FX_OP_FLAG_INPLACE | RAND, {
      { "normal_(Tensor tensor, float mean=0.0, float std=1.0) -> Tensor", k_init_normal } } },
  { FX_OP_FUNCTION, "torch.nn.init.constant_", { NULL }, "init", "Fills with a value",
    FX_OP_FLAG_INPLACE, {
      { "constant_(Tensor tensor, Scalar val) -> Tensor", k_init_constant } } },
  { FX_OP_FUNCTION, "torch.nn.init.zeros_", { NULL }, "init", "Fills with zeros",
    FX_OP_FLAG_INPLACE, { { "zeros_(Tensor tensor) -> Tensor", k_init_zeros } } },
  { FX_OP_FUNCTION, "torch.nn.init.ones_", { NULL }, "init", "Fills with ones",
    FX_OP_FLAG_INPLACE, { { "ones_(Tensor tensor) -> Tensor", k_init_ones } } },
  { FX_OP_FUNCTION, "torch.nn.init.eye_", { NULL }, "init", "The identity matrix, in place",
    FX_OP_FLAG_INPLACE, { { "eye_(Tensor tensor) -> Tensor", k_init_eye } } },
  { FX_OP_FUNCTION, "torch.nn.init.xavier_uniform_", { NULL }, "init",
    "Glorot uniform initialisation", FX_OP_FLAG_INPLACE | RAND, {
      { "xavier_uniform_(Tensor tensor, float gain=1.0) -> Tensor", k_init_xavier_uniform } } },
  { FX_OP_FUNCTION, "torch.nn.init.xavier_normal_", { NULL }, "init",
    "Glorot normal initialisation", FX_OP_FLAG_INPLACE | RAND, {
      { "xavier_normal_(Tensor tensor, float gain=1.0) -> Tensor", k_init_xavier_normal } } },
  { FX_OP_FUNCTION, "torch.nn.init.kaiming_uniform_", { NULL }, "init",
    "He uniform initialisation", FX_OP_FLAG_INPLACE | RAND, {
      { "kaiming_uniform_(Tensor tensor, float a=0, str mode='fan_in', "
        "str nonlinearity='leaky_relu') -> Tensor", k_init_kaiming_uniform } } },
  { FX_OP_FUNCTION, "torch.nn.init.kaiming_normal_", { NULL }, "init",
    "He normal initialisation", FX_OP_FLAG_INPLACE | RAND, {
      { "kaiming_normal_(Tensor tensor, float a=0, str mode='fan_in', "
        "str nonlinearity='leaky_relu') -> Tensor", k_init_kaiming_normal } } },
  { FX_OP_FUNCTION, "torch.nn.init.calculate_gain", { NULL }, "init",
    "The recommended gain for a nonlinearity", 0, {
      { "calculate_gain(Any nonlinearity, Any param=None) -> Any", k_calculate_gain } } },
  { .path = NULL },
};
