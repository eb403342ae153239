/* nn.c: normalisations, dropout, embedding, upsampling, padding and channel shuffles.
 * Kernels work on contiguous float32/float64 data (float16 is computed in float32) and
 * accumulate statistics in double. */
#include "tensor/nn.h"

#include <math.h>
#include <string.h>
#include "fx-error.h"
#include "ir/value.h"
#include "tensor/blas.h"

/* ------------------------------------------------------------------ helpers */

static gboolean
not_implemented_for (const char *kernel, FxDType dt, GError **error)
{
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "\"%s\" not implemented for '%s'", kernel,
               fx_dtype_scalar_type_name (dt));
  return FALSE;
}

static int64_t
prod (const int64_t *v, int n)
{
  int64_t p = 1;
  for (int i = 0; i < n; i++)
    p *= v[i];
  return p;
}

/* A contiguous float32/float64 copy (or reference) to compute on. */
static FxTensor *
compute_view (FxTensor *t)
{
  FxTensor *c, *r;
  if (t->dtype == FX_DTYPE_FLOAT16)
    {
      c = fx_tensor_to_dtype (t, FX_DTYPE_FLOAT32);
      r = fx_tensor_contiguous (c);
      fx_tensor_unref (c);
      return r;
    }
  return fx_tensor_contiguous (t);
}

/* Converts a computed result back to the dtype the input had (float16). */
static FxTensor *
finish (FxTensor *out, FxDType dtype)
{
  FxTensor *r;
  if (out == NULL || out->dtype == dtype)
    return out;
  r = fx_tensor_to_dtype (out, dtype);
  fx_tensor_unref (out);
  return r;
}

/* Element i of a 1-D parameter tensor as double (views allowed); `def` when t is NULL. */
static double
param_at (const FxTensor *t, int64_t i, double def)
{
  return t ? fx_tensor_get_double (t, i) : def;
}

/* t's data, when t is a contiguous float32 tensor (the usual parameter), else NULL. */
static const float *
plain_f32 (const FxTensor *t)
{
  return t != NULL && t->dtype == FX_DTYPE_FLOAT32 && fx_tensor_is_contiguous (t)
         ? fx_tensor_data (t) : NULL;
}

/* Element i of a parameter as param_at gives it, read from data when t has plain data. */
static inline double
param_elem (const FxTensor *t, const float *data, int64_t i, double def)
{
  return data != NULL ? data[i] : param_at (t, i, def);
}

static void
param_set (FxTensor *t, int64_t i, double v)
{
  int64_t off = 0, rem = i;
  char *p;
  for (int d = t->ndim - 1; d >= 0; d--)
    {
      off += (rem % t->shape[d]) * t->strides[d];
      rem /= t->shape[d];
    }
  p = (char *) fx_tensor_data (t) + off * (int64_t) fx_dtype_size (t->dtype);
  switch (t->dtype)
    {
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = v; break;
    case FX_DTYPE_FLOAT16: *(uint16_t *) p = fx_float_to_half ((float) v); break;
    default: break;
    }
}

static inline double
ld (const FxTensor *c, int64_t i)
{
  return c->dtype == FX_DTYPE_FLOAT64 ? ((const double *) fx_tensor_data (c))[i]
                                      : ((const float *) fx_tensor_data (c))[i];
}

/* out[i] = (x[i] - mean) * scale + shift over a run of n elements, in the data's type. */
static void
affine_run (const FxTensor *in, FxTensor *out, int64_t start, int64_t n, double scale,
            double shift)
{
  if (in->dtype == FX_DTYPE_FLOAT64)
    {
      const double *x = (const double *) fx_tensor_data (in) + start;
      double *y = (double *) fx_tensor_data (out) + start;
      for (int64_t i = 0; i < n; i++)
        y[i] = x[i] * scale + shift;
    }
  else
    {
      const float *x = (const float *) fx_tensor_data (in) + start;
      float *y = (float *) fx_tensor_data (out) + start;
      float a = (float) scale, b = (float) shift;
      for (int64_t i = 0; i < n; i++)
        y[i] = x[i] * a + b;
    }
}

/* One channel's (scale, shift): w / sqrt(var + eps) and b - mean · w / sqrt(var + eps). */
static inline void
eval_pair (double w, double b, double mean, double var, double eps, double *scale,
           double *shift)
{
  double invstd = 1.0 / sqrt (var + eps);
  *scale = w * invstd;
  *shift = b - mean * w * invstd;
}

/* Eval-mode batch norm as (scale, shift) pairs per channel, in double. g_free. Plain
 * float32 parameters are read in place: copying them first was most of a fused conv's
 * set-up, which does this on every run. */
static double *
eval_coeffs (FxTensor *running_mean, FxTensor *running_var, FxTensor *weight, FxTensor *bias,
             double eps, int64_t C)
{
  double *ab = g_new (double, 2 * MAX (C, 1));
  const float *wd = plain_f32 (weight), *bd = plain_f32 (bias);
  const float *md = plain_f32 (running_mean), *vd = plain_f32 (running_var);
  for (int64_t ch = 0; ch < C; ch++)
    {
      eval_pair (param_elem (weight, wd, ch, 1.0), param_elem (bias, bd, ch, 0.0),
                 param_elem (running_mean, md, ch, 0.0), param_elem (running_var, vd, ch, 1.0),
                 eps, &ab[2 * ch], &ab[2 * ch + 1]);
    }
  return ab;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* eval_pair's arithmetic, rounded to float32, 8 channels at a time (w, b may be NULL: 1
 * and 0): the same double operations in the same order, so the same results. A fused
 * convolution makes these on every run, while the other core waits: the scalar loop (a
 * square root and a division a channel) was about 0.7% of a ResNet-50 forward. */
__attribute__ ((target ("avx512f"))) static void
eval_coeffs_f32_avx512 (const float *w, const float *b, const float *rm, const float *rv,
                        double eps, int64_t C, float *out)
{
  const __m512i interleave = _mm512_setr_epi32 (0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6,
                                                22, 7, 23);
  const __m512d one = _mm512_set1_pd (1.0), veps = _mm512_set1_pd (eps);
  int64_t ch = 0;
  for (; ch + 8 <= C; ch += 8)
    {
      __m512d vw = w ? _mm512_cvtps_pd (_mm256_loadu_ps (w + ch)) : one;
      __m512d vb = b ? _mm512_cvtps_pd (_mm256_loadu_ps (b + ch)) : _mm512_setzero_pd ();
      __m512d vm = _mm512_cvtps_pd (_mm256_loadu_ps (rm + ch));
      __m512d vv = _mm512_cvtps_pd (_mm256_loadu_ps (rv + ch));
      __m512d invstd = _mm512_div_pd (one, _mm512_sqrt_pd (_mm512_add_pd (vv, veps)));
      __m512d scale = _mm512_mul_pd (vw, invstd);
      __m512d shift = _mm512_sub_pd (vb, _mm512_mul_pd (_mm512_mul_pd (vm, vw), invstd));
      __m512 pairs = _mm512_permutex2var_ps (_mm512_castps256_ps512 (_mm512_cvtpd_ps (scale)),
                                             interleave,
                                             _mm512_castps256_ps512 (_mm512_cvtpd_ps (shift)));
      _mm512_storeu_ps (out + 2 * ch, pairs);
    }
  for (; ch < C; ch++)
    {
      double scale, shift;
      eval_pair (w ? w[ch] : 1.0, b ? b[ch] : 0.0, rm[ch], rv[ch], eps, &scale, &shift);
      out[2 * ch] = (float) scale;
      out[2 * ch + 1] = (float) shift;
    }
}
#endif

float *
fx_batch_norm_eval_coeffs (FxTensor *running_mean, FxTensor *running_var, FxTensor *weight,
                           FxTensor *bias, double eps, int64_t channels)
{
#if defined(__x86_64__) && defined(__GNUC__)
  const float *wd = plain_f32 (weight), *bd = plain_f32 (bias);
  const float *md = plain_f32 (running_mean), *vd = plain_f32 (running_var);
  if (md != NULL && vd != NULL && (weight == NULL || wd != NULL) && (bias == NULL || bd != NULL)
      && fx_cpu_has_avx512 ())
    {
      float *f = g_new (float, 2 * MAX (channels, 1));
      eval_coeffs_f32_avx512 (wd, bd, md, vd, eps, channels, f);
      return f;
    }
#endif
  double *ab = eval_coeffs (running_mean, running_var, weight, bias, eps, channels);
  float *f = g_new (float, 2 * MAX (channels, 1));
  for (int64_t i = 0; i < 2 * channels; i++)
    f[i] = (float) ab[i];   /* as affine_run rounds them for float32 data */
  g_free (ab);
  return f;
}

/* Planes [p0, p1) of an (N, C, S) tensor, plane p = n*C + ch scaled by ab[2 ch] and shifted
 * by ab[2 ch + 1]. */
typedef struct {
  const FxTensor *in;
  FxTensor *out;
  double *ab;
  int64_t C, S;
} AffineJob;

static void
affine_planes_job (int64_t p0, int64_t p1, gpointer data)
{
  AffineJob *j = data;
  for (int64_t p = p0; p < p1; p++)
    {
      int64_t ch = p % j->C;
      affine_run (j->in, j->out, p * j->S, j->S, j->ab[2 * ch], j->ab[2 * ch + 1]);
    }
}

/* Σ x[i] and Σ (x[i] - m)² over a run of n, in double, in 8 interleaved partial sums: one
 * running sum waited on its own additions (4 cycles each), and training-mode batch_norm of a
 * 64×56×56 input took 0.7 ms. */
#define DEFINE_RUN_SUMS(name, T)                                                            \
  static double                                                                             \
  name##_sum (const T *x, int64_t n)                                                        \
  {                                                                                         \
    double p[8] = { 0 };                                                                    \
    int64_t i = 0;                                                                          \
    for (; i + 8 <= n; i += 8)                                                              \
      for (int q = 0; q < 8; q++)                                                           \
        p[q] += x[i + q];                                                                   \
    for (; i < n; i++)                                                                      \
      p[0] += x[i];                                                                         \
    return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));               \
  }                                                                                         \
  static double                                                                             \
  name##_squares (const T *x, int64_t n, double m)                                          \
  {                                                                                         \
    double p[8] = { 0 };                                                                    \
    int64_t i = 0;                                                                          \
    for (; i + 8 <= n; i += 8)                                                              \
      for (int q = 0; q < 8; q++)                                                           \
        {                                                                                   \
          double d = x[i + q] - m;                                                          \
          p[q] += d * d;                                                                    \
        }                                                                                   \
    for (; i < n; i++)                                                                      \
      {                                                                                     \
        double d = x[i] - m;                                                                \
        p[0] += d * d;                                                                      \
      }                                                                                     \
    return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));               \
  }
DEFINE_RUN_SUMS (run_f64, double)
DEFINE_RUN_SUMS (run_f32, float)
#undef DEFINE_RUN_SUMS

/* Mean and biased variance of a run, two-pass in double. */
static void
run_stats (const FxTensor *c, int64_t start, int64_t n, int64_t stride, int64_t count,
           double *mean, double *var)
{
  /* count runs of n elements, `stride` apart, starting at `start` */
  double s = 0, ss = 0, m;
  int64_t total = n * count;
  if (total == 0)
    {
      *mean = NAN;
      *var = NAN;
      return;
    }
  if (c->dtype == FX_DTYPE_FLOAT64)
    {
      const double *x = fx_tensor_data (c);
      for (int64_t r = 0; r < count; r++)
        s += run_f64_sum (x + start + r * stride, n);
      m = s / (double) total;
      for (int64_t r = 0; r < count; r++)
        ss += run_f64_squares (x + start + r * stride, n, m);
    }
  else
    {
      const float *x = fx_tensor_data (c);
      for (int64_t r = 0; r < count; r++)
        s += run_f32_sum (x + start + r * stride, n);
      m = s / (double) total;
      for (int64_t r = 0; r < count; r++)
        ss += run_f32_squares (x + start + r * stride, n, m);
    }
  *mean = m;
  *var = ss / (double) total;
}

/* "running_mean should contain 3 elements not 4"; factor: how often torch repeated t. */
static gboolean
check_numel (const char *what, FxTensor *t, int64_t expected, int64_t factor, GError **error)
{
  if (t && fx_tensor_numel (t) * factor != expected)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "%s should contain %" G_GINT64_FORMAT " elements not %" G_GINT64_FORMAT, what,
                   expected, fx_tensor_numel (t) * factor);
      return FALSE;
    }
  return TRUE;
}

/* torch's CPU batch norm wants every parameter in the input's dtype. */
static gboolean
check_param_dtypes (FxDType in, FxTensor *const *params, int n, GError **error)
{
  for (int i = 0; i < n; i++)
    if (params[i] && params[i]->dtype != in)
      {
        if (in == FX_DTYPE_FLOAT32)
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "mixed dtype (CPU): expect parameter to have scalar type of Float");
        else
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "mixed dtype (CPU): expect input to have scalar type of BFloat16");
        return FALSE;
      }
  return TRUE;
}

/* ------------------------------------------------------------------ batch / instance norm */

/* The shared core: input viewed as (N, C, S); stats per channel c over (N, S), or — for
 * instance norm — per (n, c) pair. */
static FxTensor *
norm_channels (FxTensor *input, FxTensor *running_mean, FxTensor *running_var,
               FxTensor *weight, FxTensor *bias, gboolean use_batch_stats, double momentum,
               double eps, gboolean per_instance, GError **error)
{
  int64_t N = input->shape[0], C = input->ndim > 1 ? input->shape[1] : 1;
  int64_t S = input->ndim > 2 ? prod (input->shape + 2, input->ndim - 2) : 1;
  FxTensor *c = compute_view (input);
  FxTensor *out = fx_tensor_new_uninit (c->dtype, input->ndim, input->shape);

  if (out == NULL)
    {
      fx_tensor_unref (c);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return NULL;
    }
  if (!use_batch_stats)
    {
      /* eval: one scale and shift per channel, then one pass over the planes, split between
       * the threads when they are big enough */
      AffineJob j = { c, out, eval_coeffs (running_mean, running_var, weight, bias, eps, C),
                      C, S };
      fx_parallel_for (N * C, MAX (1, 32768 / MAX (S, 1)), affine_planes_job, &j);
      g_free (j.ab);
      fx_tensor_unref (c);
      return finish (out, input->dtype);
    }
  for (int64_t ch = 0; ch < C; ch++)
    {
      double w = param_at (weight, ch, 1.0), b = param_at (bias, ch, 0.0);
      if (!per_instance)
        {
          double mean, var;
          run_stats (c, ch * S, S, C * S, N, &mean, &var);
          double invstd = 1.0 / sqrt (var + eps);
          for (int64_t n = 0; n < N; n++)
            affine_run (c, out, (n * C + ch) * S, S, w * invstd, b - mean * w * invstd);
          if (running_mean && N * S > 0)
            param_set (running_mean, ch,
                       momentum * mean + (1 - momentum) * param_at (running_mean, ch, 0));
          if (running_var && N * S > 0)
            {
              int64_t cnt = N * S;
              double unbiased = cnt > 1 ? var * (double) cnt / (double) (cnt - 1) : NAN;
              param_set (running_var, ch,
                         momentum * unbiased + (1 - momentum) * param_at (running_var, ch, 0));
            }
        }
      else
        {
          double msum = 0, vsum = 0;
          for (int64_t n = 0; n < N; n++)
            {
              double mean, var;
              run_stats (c, (n * C + ch) * S, S, 0, 1, &mean, &var);
              double invstd = 1.0 / sqrt (var + eps);
              affine_run (c, out, (n * C + ch) * S, S, w * invstd, b - mean * w * invstd);
              msum += mean;
              vsum += S > 1 ? var * (double) S / (double) (S - 1) : NAN;
            }
          if (running_mean && N * S > 0)
            param_set (running_mean, ch,
                       momentum * (msum / (double) N)
                       + (1 - momentum) * param_at (running_mean, ch, 0));
          if (running_var && N * S > 0)
            param_set (running_var, ch,
                       momentum * (vsum / (double) N)
                       + (1 - momentum) * param_at (running_var, ch, 0));
        }
    }
  fx_tensor_unref (c);
  return finish (out, input->dtype);
}

FxTensor *
fx_batch_norm (FxTensor *input, FxTensor *running_mean, FxTensor *running_var, FxTensor *weight,
               FxTensor *bias, gboolean training, double momentum, double eps, GError **error)
{
  int64_t C = input->ndim > 1 ? input->shape[1] : 0;
  FxTensor *params[4] = { weight, bias, running_mean, running_var };

  if (training)
    {
      int64_t size_prods = input->ndim > 0 ? input->shape[0] : 1;
      for (int i = 2; i < input->ndim; i++)
        size_prods *= input->shape[i];
      if (size_prods == 1)
        {
          GString *s = g_string_new (NULL);
          g_string_append (s, "Expected more than 1 value per channel when training, got input "
                           "size torch.Size(");
          fx_shape_append (s, input->ndim, input->shape);
          g_string_append_c (s, ')');
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
          g_string_free (s, TRUE);
          return NULL;
        }
    }
  if (!training && (running_mean == NULL || running_var == NULL))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "running_%s must be defined in evaluation mode",
                   running_mean == NULL ? "mean" : "var");
      return NULL;
    }
  if (!check_numel ("running_mean", running_mean, C, 1, error)
      || !check_numel ("running_var", running_var, C, 1, error)
      || !check_numel ("weight", weight, C, 1, error)
      || !check_numel ("bias", bias, C, 1, error))
    return NULL;
  if (!fx_dtype_is_floating (input->dtype) || input->dtype == FX_DTYPE_FLOAT16)
    {
      not_implemented_for ("batch_norm", input->dtype, error);
      return NULL;
    }
  if (!check_param_dtypes (input->dtype, params, 4, error))
    return NULL;
  if (input->ndim < 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "batch_norm expects an input with at least 2 dimensions");
      return NULL;
    }
  return norm_channels (input, running_mean, running_var, weight, bias, training, momentum, eps,
                        FALSE, error);
}

FxTensor *
fx_instance_norm (FxTensor *input, FxTensor *running_mean, FxTensor *running_var,
                  FxTensor *weight, FxTensor *bias, gboolean use_input_stats, double momentum,
                  double eps, GError **error)
{
  int64_t N, C;
  FxTensor *params[4] = { weight, bias, running_mean, running_var };

  if (use_input_stats)
    {
      int64_t sp = 1;
      for (int i = 2; i < input->ndim; i++)
        sp *= input->shape[i];
      if (sp == 1)
        {
          GString *s = g_string_new (NULL);
          g_string_append (s, "Expected more than 1 spatial element when training, got input "
                           "size torch.Size(");
          fx_shape_append (s, input->ndim, input->shape);
          g_string_append_c (s, ')');
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
          g_string_free (s, TRUE);
          return NULL;
        }
    }
  if (input->ndim < 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "instance_norm expects an input with at least 2 dimensions");
      return NULL;
    }
  N = input->shape[0];
  C = input->shape[1];
  if (!use_input_stats && (running_mean == NULL || running_var == NULL))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Expected running_mean and running_var to be defined when use_input_stats is "
                   "false");
      return NULL;
    }
  /* torch repeats every per-channel tensor N times, so it counts N * numel */
  if (!check_numel ("running_mean", running_mean, N * C, N, error)
      || !check_numel ("running_var", running_var, N * C, N, error)
      || !check_numel ("weight", weight, N * C, N, error)
      || !check_numel ("bias", bias, N * C, N, error))
    return NULL;
  if (!fx_dtype_is_floating (input->dtype) || input->dtype == FX_DTYPE_FLOAT16)
    {
      not_implemented_for ("batch_norm", input->dtype, error);
      return NULL;
    }
  if (!check_param_dtypes (input->dtype, params, 4, error))
    return NULL;
  return norm_channels (input, running_mean, running_var, weight, bias, use_input_stats,
                        momentum, eps, TRUE, error);
}

/* ------------------------------------------------------------------ layer / group norm */

FxTensor *
fx_layer_norm (FxTensor *input, int n_norm, const int64_t *normalized_shape, FxTensor *weight,
               FxTensor *bias, double eps, GError **error)
{
  int lead;
  int64_t M, K;
  FxTensor *c, *out;
  gboolean match;

  if (n_norm < 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                   "least one element, but got normalized_shape = []");
      return NULL;
    }
  for (int k = 0; k < 2; k++)
    {
      FxTensor *p = k == 0 ? weight : bias;
      gboolean same = p != NULL && p->ndim == n_norm;
      for (int i = 0; same && i < n_norm; i++)
        same = p->shape[i] == normalized_shape[i];
      if (p != NULL && !same)
        {
          g_autofree char *a = fx_shape_to_string (p->ndim, p->shape);
          g_autofree char *b = fx_shape_to_string (n_norm, normalized_shape);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Expected %s to be of same shape as normalized_shape, but got %s of shape "
                       "%s and normalized_shape = %s", k ? "bias" : "weight",
                       k ? "bias" : "weight", a, b);
          return NULL;
        }
    }
  lead = input->ndim - n_norm;
  match = lead >= 0;
  for (int i = 0; match && i < n_norm; i++)
    match = input->shape[lead + i] == normalized_shape[i];
  if (!match)
    {
      g_autofree char *a = fx_shape_to_string (n_norm, normalized_shape);
      g_autofree char *b = fx_shape_to_string (input->ndim, input->shape);
      GString *s = g_string_new (NULL);
      g_string_append_printf (s, "Given normalized_shape=%s, expected input with shape [*", a);
      for (int i = 0; i < n_norm; i++)
        g_string_append_printf (s, ", %" G_GINT64_FORMAT, normalized_shape[i]);
      g_string_append_printf (s, "], but got input of size%s", b);
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, s->str);
      g_string_free (s, TRUE);
      return NULL;
    }
  if (!fx_dtype_is_floating (input->dtype))
    {
      not_implemented_for ("LayerNormKernelImpl", input->dtype, error);
      return NULL;
    }
  M = prod (input->shape, lead);
  K = prod (normalized_shape, n_norm);
  c = compute_view (input);
  out = fx_tensor_new_uninit (c->dtype, input->ndim, input->shape);
  {
    /* the affine parameters gathered once, whatever their layout */
    double *wv = NULL, *bv = NULL;
    if (weight || bias)
      {
        wv = g_new (double, K);
        bv = g_new (double, K);
        for (int64_t k = 0; k < K; k++)
          {
            wv[k] = param_at (weight, k, 1.0);
            bv[k] = param_at (bias, k, 0.0);
          }
      }
    for (int64_t m = 0; m < M; m++)
      {
        double mean, var, invstd;
        run_stats (c, m * K, K, 0, 1, &mean, &var);
        invstd = 1.0 / sqrt (var + eps);
        if (wv == NULL)
          affine_run (c, out, m * K, K, invstd, -mean * invstd);
        else if (c->dtype == FX_DTYPE_FLOAT64)
          {
            const double *x = (const double *) fx_tensor_data (c) + m * K;
            double *y = (double *) fx_tensor_data (out) + m * K;
            for (int64_t k = 0; k < K; k++)
              y[k] = (x[k] - mean) * invstd * wv[k] + bv[k];
          }
        else
          {
            const float *x = (const float *) fx_tensor_data (c) + m * K;
            float *y = (float *) fx_tensor_data (out) + m * K;
            for (int64_t k = 0; k < K; k++)
              y[k] = (float) ((x[k] - mean) * invstd * wv[k] + bv[k]);
          }
      }
    g_free (wv);
    g_free (bv);
  }
  fx_tensor_unref (c);
  return finish (out, input->dtype);
}

FxTensor *
fx_group_norm (FxTensor *input, int64_t G, FxTensor *weight, FxTensor *bias, double eps,
               GError **error)
{
  int64_t N, C, S, D;
  FxTensor *c, *out;

  if (input->ndim < 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Expected at least 2 dimensions for input tensor but received %d", input->ndim);
      return NULL;
    }
  N = input->shape[0];
  C = input->shape[1];
  S = prod (input->shape + 2, input->ndim - 2);
  if (G == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "integer division or modulo by zero");
      return NULL;
    }
  {
    /* F.group_norm checks the batch like batch norm in training, on (N*C/G, G, *) */
    int64_t q = N * C / G;
    if ((N * C) % G != 0 && ((N * C < 0) != (G < 0)))
      q--;   /* Python's floor division */
    if (q * S == 1)
      {
        GString *s = g_string_new (NULL);
        g_string_append_printf (s, "Expected more than 1 value per channel when training, got "
                                "input size [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, q, G);
        for (int i = 2; i < input->ndim; i++)
          g_string_append_printf (s, ", %" G_GINT64_FORMAT, input->shape[i]);
        g_string_append_c (s, ']');
        g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
        g_string_free (s, TRUE);
        return NULL;
      }
  }
  if (G < 0 || C % G != 0)
    {
      g_autofree char *a = fx_shape_to_string (input->ndim, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Expected number of channels in input to be divisible by num_groups, but got "
                   "input of shape %s and num_groups=%" G_GINT64_FORMAT, a, G);
      return NULL;
    }
  for (int k = 0; k < 2; k++)
    {
      FxTensor *p = k == 0 ? weight : bias;
      if (p != NULL && (p->ndim != 1 || p->shape[0] != C))
        {
          g_autofree char *a = fx_shape_to_string (p->ndim, p->shape);
          g_autofree char *b = fx_shape_to_string (input->ndim, input->shape);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "Expected %s to be a vector of size equal to the number of channels in "
                       "input, but got %s of shape %s and input of shape %s",
                       k ? "bias" : "weight", k ? "bias" : "weight", a, b);
          return NULL;
        }
    }
  if (!fx_dtype_is_floating (input->dtype))
    {
      not_implemented_for ("GroupNormKernelImpl", input->dtype, error);
      return NULL;
    }
  D = C / G;
  c = compute_view (input);
  out = fx_tensor_new_uninit (c->dtype, input->ndim, input->shape);
  for (int64_t n = 0; n < N; n++)
    for (int64_t g = 0; g < G; g++)
      {
        double mean, var, invstd;
        int64_t base = (n * C + g * D) * S;
        run_stats (c, base, D * S, 0, 1, &mean, &var);
        invstd = 1.0 / sqrt (var + eps);
        for (int64_t d = 0; d < D; d++)
          {
            int64_t ch = g * D + d;
            double w = param_at (weight, ch, 1.0), b = param_at (bias, ch, 0.0);
            affine_run (c, out, base + d * S, S, w * invstd, b - mean * w * invstd);
          }
      }
  fx_tensor_unref (c);
  return finish (out, input->dtype);
}

/* ------------------------------------------------------------------ dropout */

/* input * noise, where noise = bernoulli(1 - p) / (1 - p) has noise_shape (broadcast). */
static FxTensor *
dropout_impl (FxTensor *input, double p, gboolean training, gboolean inplace, gboolean feature,
              FxGenerator *gen, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS];
  FxTensor *noise, *out;
  int64_t n;

  if (!(p >= 0.0 && p <= 1.0))
    {
      GString *s = g_string_new ("dropout probability has to be between 0 and 1, but got ");
      fx_format_float_repr (p, s);
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, s->str);
      g_string_free (s, TRUE);
      return NULL;
    }
  if (p == 0 || !training || fx_tensor_numel (input) == 0)
    return fx_tensor_ref (input);
  if (!fx_dtype_is_floating (input->dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "result type Float can't be cast to the desired output type %s",
                   fx_dtype_scalar_type_name (input->dtype));
      return NULL;
    }
  if (feature && input->ndim < 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Feature dropout requires at least 2 dimensions in the input");
      return NULL;
    }
  n = fx_tensor_numel (input);
  out = inplace ? fx_tensor_ref (input) : fx_tensor_new_uninit (input->dtype, input->ndim,
                                                                 input->shape);
  if (p == 1)
    {
      /* multiplied by a zero tensor: no draws; NaN and inf inputs stay NaN */
      FxTensor *c = compute_view (input);
      FxTensor *r = fx_tensor_new_uninit (c->dtype, c->ndim, c->shape);
      for (int64_t i = 0; i < n; i++)
        {
          double v = ld (c, i) * 0.0;
          if (r->dtype == FX_DTYPE_FLOAT64)
            ((double *) fx_tensor_data (r))[i] = v;
          else
            ((float *) fx_tensor_data (r))[i] = (float) v;
        }
      fx_tensor_unref (c);
      r = finish (r, input->dtype);
      fx_tensor_copy_into (out, r, NULL);
      fx_tensor_unref (r);
      return out;
    }
  for (int i = 0; i < input->ndim; i++)
    nshape[i] = feature && i >= 2 ? 1 : input->shape[i];
  noise = fx_tensor_new_uninit (input->dtype == FX_DTYPE_FLOAT64 ? FX_DTYPE_FLOAT64
                                                                 : FX_DTYPE_FLOAT32,
                                input->ndim, nshape);
  if (!fx_tensor_bernoulli_ (noise, 1 - p, gen, error))
    {
      fx_tensor_unref (noise);
      fx_tensor_unref (out);
      return NULL;
    }
  {
    FxTensor *c = compute_view (input);
    FxTensor *r = fx_tensor_new_uninit (c->dtype, c->ndim, c->shape);
    int64_t inner = feature ? prod (input->shape + 2, input->ndim - 2) : 1;
    int64_t nn = fx_tensor_numel (noise);
    if (c->dtype == FX_DTYPE_FLOAT64)
      {
        const double *x = fx_tensor_data (c), *z = fx_tensor_data (noise);
        double *y = fx_tensor_data (r), scale = 1.0 / (1 - p);
        for (int64_t j = 0; j < nn; j++)
          {
            double k = z[j] * scale;
            for (int64_t i = 0; i < inner; i++)
              y[j * inner + i] = x[j * inner + i] * k;
          }
      }
    else
      {
        const float *x = fx_tensor_data (c), *z = fx_tensor_data (noise);
        float *y = fx_tensor_data (r), scale = 1.0f / (float) (1 - p);
        for (int64_t j = 0; j < nn; j++)
          {
            float k = z[j] * scale;
            for (int64_t i = 0; i < inner; i++)
              y[j * inner + i] = x[j * inner + i] * k;
          }
      }
    fx_tensor_unref (c);
    fx_tensor_unref (noise);
    r = finish (r, input->dtype);
    if (inplace)
      {
        fx_tensor_copy_into (out, r, NULL);
        fx_tensor_unref (r);
        return out;
      }
    fx_tensor_unref (out);
    return r;
  }
}

FxTensor *
fx_dropout (FxTensor *input, double p, gboolean training, gboolean inplace, FxGenerator *gen,
            GError **error)
{
  return dropout_impl (input, p, training, inplace, FALSE, gen, error);
}

FxTensor *
fx_feature_dropout (FxTensor *input, double p, gboolean training, gboolean inplace,
                    FxGenerator *gen, GError **error)
{
  return dropout_impl (input, p, training, inplace, TRUE, gen, error);
}

/* ------------------------------------------------------------------ embedding */

FxTensor *
fx_embedding (FxTensor *indices, FxTensor *weight, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t V, D, n;
  FxTensor *w, *out;
  gsize rowbytes;
  FxStridedIter it;
  const char *ib;

  if (weight->ndim != 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "'weight' must be 2-D");
      return NULL;
    }
  if (indices->dtype != FX_DTYPE_INT64 && indices->dtype != FX_DTYPE_INT32)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Expected tensor for argument #1 'indices' to have one of the following scalar "
                   "types: Long, Int; but got %s instead (while checking arguments for embedding)",
                   fx_dtype_aten_type_name (indices->dtype));
      return NULL;
    }
  if (indices->ndim + 1 > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "too many dimensions");
      return NULL;
    }
  V = weight->shape[0];
  D = weight->shape[1];
  memcpy (shape, indices->shape, sizeof (int64_t) * indices->ndim);
  shape[indices->ndim] = D;
  w = fx_tensor_contiguous (weight);
  out = fx_tensor_new_uninit (weight->dtype, indices->ndim + 1, shape);
  if (out == NULL)
    {
      fx_tensor_unref (w);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return NULL;
    }
  rowbytes = (gsize) D * fx_dtype_size (weight->dtype);
  n = 0;
  ib = fx_tensor_data (indices);
  fx_strided_iter_init (&it, indices->ndim, indices->shape, indices->strides);
  while (fx_strided_iter_next (&it))
    {
      int64_t idx = indices->dtype == FX_DTYPE_INT64 ? ((const int64_t *) ib)[it.offset]
                                                     : ((const int32_t *) ib)[it.offset];
      if (idx < 0 || idx >= V)
        {
          fx_tensor_unref (w);
          fx_tensor_unref (out);
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX, "index out of range in self");
          return NULL;
        }
      memcpy ((char *) fx_tensor_data (out) + n * rowbytes,
              (const char *) fx_tensor_data (w) + idx * rowbytes, rowbytes);
      n++;
    }
  fx_tensor_unref (w);
  return out;
}

/* ------------------------------------------------------------------ upsampling */

/* 1 / scale when the caller gave a positive scale factor, else in / out (float math). */
static float
nearest_scale (int64_t in, int64_t out, const double *scale)
{
  if (scale && *scale > 0)
    return (float) (1.0 / *scale);
  return (float) in / (float) out;
}

static int64_t
nearest_src (int64_t dst, int64_t in, int64_t out, const double *scale, gboolean exact)
{
  float s;
  int64_t src;
  if (!exact)
    {
      if (out == in)
        return dst;
      if (out == 2 * in)
        return dst >> 1;
    }
  s = nearest_scale (in, out, scale);
  src = exact ? (int64_t) floorf (((float) dst + 0.5f) * s) : (int64_t) floorf ((float) dst * s);
  return MIN (src, in - 1);
}

/* Source coordinate and weights for linear interpolation along one axis (opmath_t T). */
static void
linear_weights (int64_t dst, int64_t in, int64_t out, const double *scale, gboolean align,
                gboolean dbl, int64_t *i0, int64_t *i1, double *l0, double *l1)
{
  double src;
  if (dbl)
    {
      double s;
      if (align)
        s = out > 1 ? (double) (in - 1) / (double) (out - 1) : 0.0;
      else
        s = (scale && *scale > 0) ? 1.0 / *scale : (double) in / (double) out;
      src = align ? s * (double) dst : s * ((double) dst + 0.5) - 0.5;
      if (src < 0)
        src = 0;
      *i0 = (int64_t) src;
      *i1 = *i0 + (*i0 < in - 1 ? 1 : 0);
      *l1 = src - (double) *i0;
      *l0 = 1.0 - *l1;
    }
  else
    {
      float s, fs;
      if (align)
        s = out > 1 ? (float) (in - 1) / (float) (out - 1) : 0.0f;
      else
        s = (scale && *scale > 0) ? (float) (1.0 / *scale) : (float) in / (float) out;
      fs = align ? s * (float) dst : s * ((float) dst + 0.5f) - 0.5f;
      if (fs < 0)
        fs = 0;
      *i0 = (int64_t) fs;
      *i1 = *i0 + (*i0 < in - 1 ? 1 : 0);
      float f1 = fs - (float) *i0;
      *l1 = f1;
      *l0 = 1.0f - f1;
    }
  (void) src;
}

FxTensor *
fx_upsample (FxTensor *input, FxInterpMode mode, const int64_t *out_size, const double *scales,
             gboolean align_corners, GError **error)
{
  int k = input->ndim - 2;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t NC, in_sp, out_sp;
  FxTensor *c, *out;
  gboolean dbl;
  static const char *const axis_names[3][3] = { { "W" }, { "H", "W" }, { "D", "H", "W" } };

  if (k < 1 || k > 3)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "upsampling expects a 3-D, 4-D or 5-D input, got %d-D", input->ndim);
      return NULL;
    }
  {
    gboolean ok = TRUE;
    for (int i = 0; i < k; i++)
      ok = ok && input->shape[2 + i] > 0 && out_size[i] > 0;
    if (!ok)
      {
        GString *s = g_string_new ("Input and output sizes should be greater than 0, but got input (");
        for (int i = 0; i < k; i++)
          g_string_append_printf (s, "%s%s: %" G_GINT64_FORMAT, i ? ", " : "", axis_names[k - 1][i],
                                  input->shape[2 + i]);
        g_string_append (s, ") output (");
        for (int i = 0; i < k; i++)
          g_string_append_printf (s, "%s%s: %" G_GINT64_FORMAT, i ? ", " : "", axis_names[k - 1][i],
                                  out_size[i]);
        g_string_append_c (s, ')');
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, s->str);
        g_string_free (s, TRUE);
        return NULL;
      }
  }
  if (!fx_dtype_is_floating (input->dtype))
    {
      not_implemented_for (mode == FX_INTERP_LINEAR ? "compute_indices_weights_linear"
                           : mode == FX_INTERP_AREA ? "adaptive_avg_pool2d"
                                                    : "compute_indices_weights_nearest",
                           input->dtype, error);
      return NULL;
    }
  shape[0] = input->shape[0];
  shape[1] = input->shape[1];
  for (int i = 0; i < k; i++)
    shape[2 + i] = out_size[i];
  NC = input->shape[0] * input->shape[1];
  in_sp = prod (input->shape + 2, k);
  c = compute_view (input);
  out = fx_tensor_new_uninit (c->dtype, input->ndim, shape);
  if (out == NULL)
    {
      fx_tensor_unref (c);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "DefaultCPUAllocator: not enough memory: you tried to allocate a tensor that "
                   "is too large");
      return NULL;
    }
  if (fx_tensor_numel (out) == 0)
    {
      fx_tensor_unref (c);
      return finish (out, input->dtype);
    }
  out_sp = prod (out_size, k);   /* fits: the output exists */
  dbl = c->dtype == FX_DTYPE_FLOAT64;

  {
    /* per axis: source indices (and weights for linear) for every output position */
    int64_t *idx0[3], *idx1[3];
    double *w0[3], *w1[3];
    int64_t in_st[3];
    for (int a = 0; a < k; a++)
      {
        int64_t in = input->shape[2 + a], o = out_size[a];
        const double *sc = scales ? &scales[a] : NULL;
        idx0[a] = g_new (int64_t, o);
        idx1[a] = g_new (int64_t, o);
        w0[a] = g_new (double, o);
        w1[a] = g_new (double, o);
        for (int64_t d = 0; d < o; d++)
          {
            if (mode == FX_INTERP_AREA)
              {
                /* the window [floor(d*in/out), ceil((d+1)*in/out)) */
                idx0[a][d] = (d * in) / o;
                idx1[a][d] = ((d + 1) * in + o - 1) / o;
                w0[a][d] = w1[a][d] = 0;
              }
            else if (mode == FX_INTERP_LINEAR)
              linear_weights (d, in, o, sc, align_corners, dbl, &idx0[a][d], &idx1[a][d],
                              &w0[a][d], &w1[a][d]);
            else
              {
                idx0[a][d] = idx1[a][d] = nearest_src (d, in, o, sc,
                                                       mode == FX_INTERP_NEAREST_EXACT);
                w0[a][d] = 1;
                w1[a][d] = 0;
              }
          }
      }
    in_st[k - 1] = 1;
    for (int a = k - 2; a >= 0; a--)
      in_st[a] = in_st[a + 1] * input->shape[3 + a];

    if (mode == FX_INTERP_NEAREST || mode == FX_INTERP_NEAREST_EXACT)
      {
        /* row by row along the last axis: a gather through the precomputed indices */
        int64_t last = out_size[k - 1], rows = NC * (out_sp / last);
        const int64_t *ix = idx0[k - 1];
        for (int64_t r = 0; r < rows; r++)
          {
            int64_t rem = r, base = 0;
            for (int a = k - 2; a >= 0; a--)
              {
                base += idx0[a][rem % out_size[a]] * in_st[a];
                rem /= out_size[a];
              }
            base += rem * in_sp;   /* rem is now the (n, c) plane */
            if (dbl)
              {
                const double *src = (const double *) fx_tensor_data (c) + base;
                double *dst = (double *) fx_tensor_data (out) + r * last;
                for (int64_t j = 0; j < last; j++)
                  dst[j] = src[ix[j]];
              }
            else
              {
                const float *src = (const float *) fx_tensor_data (c) + base;
                float *dst = (float *) fx_tensor_data (out) + r * last;
                for (int64_t j = 0; j < last; j++)
                  dst[j] = src[ix[j]];
              }
          }
        goto done;
      }
    if (mode == FX_INTERP_LINEAR && k == 2 && !dbl)
      {
        /* bilinear on float32: blend two source rows per output row */
        int64_t W = input->shape[3], OH = out_size[0], OW = out_size[1];
        for (int64_t p = 0; p < NC; p++)
          for (int64_t h = 0; h < OH; h++)
            {
              const float *r0 = (const float *) fx_tensor_data (c) + p * in_sp + idx0[0][h] * W;
              const float *r1 = (const float *) fx_tensor_data (c) + p * in_sp + idx1[0][h] * W;
              float h0 = (float) w0[0][h], h1 = (float) w1[0][h];
              float *dst = (float *) fx_tensor_data (out) + (p * OH + h) * OW;
              for (int64_t j = 0; j < OW; j++)
                {
                  int64_t a0 = idx0[1][j], a1 = idx1[1][j];
                  float v0 = (float) w0[1][j], v1 = (float) w1[1][j];
                  dst[j] = h0 * (v0 * r0[a0] + v1 * r0[a1]) + h1 * (v0 * r1[a0] + v1 * r1[a1]);
                }
            }
        goto done;
      }

    for (int64_t p = 0; p < NC; p++)
      {
        int64_t pos[3] = { 0, 0, 0 };
        for (int64_t o = 0; o < out_sp; o++)
          {
            double acc = 0;
            if (mode == FX_INTERP_AREA)
              {
                /* sum over the box, axis by axis through an odometer */
                int64_t cnt = 1, box[3], q[3] = { 0, 0, 0 };
                for (int a = 0; a < k; a++)
                  {
                    box[a] = idx1[a][pos[a]] - idx0[a][pos[a]];
                    cnt *= box[a];
                  }
                for (int64_t b = 0; b < cnt; b++)
                  {
                    int64_t off = 0;
                    for (int a = 0; a < k; a++)
                      off += (idx0[a][pos[a]] + q[a]) * in_st[a];
                    acc += ld (c, p * in_sp + off);
                    for (int a = k - 1; a >= 0; a--)
                      {
                        if (++q[a] < box[a])
                          break;
                        q[a] = 0;
                      }
                  }
                acc /= (double) cnt;
              }
            else if (mode != FX_INTERP_LINEAR)
              {
                int64_t off = 0;
                for (int a = 0; a < k; a++)
                  off += idx0[a][pos[a]] * in_st[a];
                acc = ld (c, p * in_sp + off);
              }
            else
              {
                /* 2^k corners, weights multiplied in axis order */
                for (int corner = 0; corner < (1 << k); corner++)
                  {
                    double wgt = 1;
                    int64_t off = 0;
                    for (int a = 0; a < k; a++)
                      {
                        gboolean hi = (corner >> (k - 1 - a)) & 1;
                        wgt *= hi ? w1[a][pos[a]] : w0[a][pos[a]];
                        off += (hi ? idx1[a][pos[a]] : idx0[a][pos[a]]) * in_st[a];
                      }
                    acc += wgt * ld (c, p * in_sp + off);
                  }
              }
            if (dbl)
              ((double *) fx_tensor_data (out))[p * out_sp + o] = acc;
            else
              ((float *) fx_tensor_data (out))[p * out_sp + o] = (float) acc;
            for (int a = k - 1; a >= 0; a--)
              {
                if (++pos[a] < out_size[a])
                  break;
                pos[a] = 0;
              }
          }
      }
  done:
    for (int a = 0; a < k; a++)
      {
        g_free (idx0[a]);
        g_free (idx1[a]);
        g_free (w0[a]);
        g_free (w1[a]);
      }
  }
  fx_tensor_unref (c);
  return finish (out, input->dtype);
}

/* ------------------------------------------------------------------ pad */

/* narrow()'s checks, with its messages, for constant padding's cropping. */
static gboolean
narrow_check (int64_t cur, int64_t start, int64_t length, GError **error)
{
  if (start != cur && (start < -cur || start >= cur))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")",
                   -cur, cur - 1, start);
      return FALSE;
    }
  if (start < 0)
    start += cur;
  if (!(length >= 0 && start <= cur - length))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "start (%" G_GINT64_FORMAT ") + length (%" G_GINT64_FORMAT
                   ") exceeds dimension size (%" G_GINT64_FORMAT ").", start, length, cur);
      return FALSE;
    }
  return TRUE;
}

static inline int64_t
pad_source (FxPadMode mode, int64_t o, int64_t left, int64_t in)
{
  int64_t i = o - left;
  switch (mode)
    {
    case FX_PAD_REFLECT:
      if (in == 1)
        return 0;
      {
        int64_t period = 2 * (in - 1);
        i = i % period;
        if (i < 0)
          i += period;
        return i < in ? i : period - i;
      }
    case FX_PAD_REPLICATE:
      return i < 0 ? 0 : i >= in ? in - 1 : i;
    case FX_PAD_CIRCULAR:
      i %= in;
      return i < 0 ? i + in : i;
    default:
      return i;   /* constant: may be outside [0, in) */
    }
}

FxTensor *
fx_pad (FxTensor *input, int n_pad, const int64_t *pad, FxPadMode mode, double value,
        GError **error)
{
  int nd = input->ndim, k;
  int64_t shape[FX_TENSOR_MAX_DIMS], left[FX_TENSOR_MAX_DIMS];
  FxTensor *out;
  gsize es = fx_dtype_size (input->dtype);
  int64_t n_out;

  if (n_pad % 2 != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Padding length must be divisible by 2");
      return NULL;
    }
  k = n_pad / 2;
  if (k > nd)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Padding length too large");
      return NULL;
    }
  for (int i = 0; i < nd; i++)
    {
      shape[i] = input->shape[i];
      left[i] = 0;
    }
  if (mode == FX_PAD_CONSTANT)
    {
      for (int j = 0; j < k; j++)
        {
          int d = nd - 1 - j;
          int64_t l = pad[2 * j], r = pad[2 * j + 1], cur = input->shape[d];
          if (l < 0)
            {
              if (!narrow_check (cur, -l, cur + l, error))
                return NULL;
              cur += l;
            }
          if (r < 0)
            {
              if (!narrow_check (cur, 0, cur + r, error))
                return NULL;
              cur += r;
            }
          shape[d] = input->shape[d] + l + r;
          left[d] = l;
        }
    }
  else
    {
      static const char *const refl_names[] = { "reflection_pad1d", "reflection_pad2d",
                                                "reflection_pad3d" };
      static const char *const repl_names[] = { "replication_pad1d_cpu",
                                                "replication_pad2d_cpu",
                                                "replication_pad3d_cpu" };
      if (!(k >= 1 && k <= 3 && (nd == k + 1 || nd == k + 2)))
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for "
                       "now");
          return NULL;
        }
      for (int j = 0; j < k; j++)
        {
          int d = nd - 1 - j;
          int64_t l = pad[2 * j], r = pad[2 * j + 1], in = input->shape[d];
          if (mode == FX_PAD_REFLECT && (l >= in || r >= in))
            {
              if (k == 1)
                {
                  g_autofree char *s = fx_shape_to_string (nd, input->shape);
                  g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                               "Argument #4: Padding size should be less than the corresponding "
                               "input dimension, but got: padding (%" G_GINT64_FORMAT ", %"
                               G_GINT64_FORMAT ") at dimension %d of input %s", l, r, d, s);
                }
              else
                g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                             "Argument #%d: Padding size should be less than the corresponding "
                             "input dimension, but got: padding (%" G_GINT64_FORMAT ", %"
                             G_GINT64_FORMAT ") at dimension %d of input %d", 4 + 2 * j, l, r, d,
                             nd);
              return NULL;
            }
          if (mode == FX_PAD_CIRCULAR && (l > in || r > in))
            {
              g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                           "Padding value causes wrapping around more than once.");
              return NULL;
            }
          shape[d] = in + l + r;
          left[d] = l;
          if (shape[d] <= 0 || in == 0)
            {
              g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                           "input size %" G_GINT64_FORMAT " with padding (%" G_GINT64_FORMAT
                           ", %" G_GINT64_FORMAT ") gives an empty output",
                           in, l, r);
              return NULL;
            }
        }
      if (mode == FX_PAD_REFLECT && !fx_dtype_is_floating (input->dtype))
        {
          not_implemented_for (refl_names[k - 1], input->dtype, error);
          return NULL;
        }
      if (mode == FX_PAD_REPLICATE && !fx_dtype_is_floating (input->dtype))
        {
          not_implemented_for (repl_names[k - 1], input->dtype, error);
          return NULL;
        }
    }
  for (int i = 0; i < nd; i++)
    if (shape[i] < 0)
      {
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "The input size %" G_GINT64_FORMAT ", plus negative padding %" G_GINT64_FORMAT
                     " and %" G_GINT64_FORMAT " resulted in a negative output size, which is "
                     "invalid. Check dimension %d of your input.",
                     input->shape[i], left[i], shape[i] - input->shape[i] - left[i], i);
        return NULL;
      }
  out = fx_tensor_new_uninit (input->dtype, nd, shape);
  if (out == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return NULL;
    }
  n_out = fx_tensor_numel (out);
  if (n_out == 0)
    return out;
  if (nd == 0)
    {
      fx_tensor_copy_into (out, input, NULL);
      return out;
    }
  {
    guint64 fill = 0;
    FxTensor *v = fx_tensor_scalar_double (FX_DTYPE_FLOAT64, value);
    FxTensor *vc = fx_tensor_to_dtype (v, input->dtype);
    memcpy (&fill, fx_tensor_data (vc), es);
    fx_tensor_unref (v);
    fx_tensor_unref (vc);

    /* row by row over the last dim: its source row (or the fill), then the middle of the
     * row in one copy and the padded ends element by element */
    int64_t pos[FX_TENSOR_MAX_DIMS] = { 0 };
    int last = nd - 1;
    FxPadMode lmode = last >= nd - k ? mode : FX_PAD_CONSTANT;
    int64_t in_w = input->shape[last], out_w = shape[last], lft = left[last];
    int64_t rows = n_out / out_w;
    int64_t lo = MAX (0, lft), hi = MIN (out_w, lft + in_w);   /* [lo, hi): inside */
    FxTensor *ic = fx_tensor_contiguous (input);
    const char *src = fx_tensor_data (ic);
    char *dst = fx_tensor_data (out);
    int64_t in_st[FX_TENSOR_MAX_DIMS];
    in_st[last] = 1;
    for (int d = last - 1; d >= 0; d--)
      in_st[d] = in_st[d + 1] * input->shape[d + 1];
    for (int64_t r = 0; r < rows; r++)
      {
        int64_t off = 0;
        gboolean inside = TRUE;
        char *row = dst + r * out_w * (int64_t) es;
        for (int d = 0; d < last; d++)
          {
            int64_t sidx = pad_source (d >= nd - k ? mode : FX_PAD_CONSTANT, pos[d], left[d],
                                       input->shape[d]);
            if (sidx < 0 || sidx >= input->shape[d])
              {
                inside = FALSE;
                break;
              }
            off += sidx * in_st[d];
          }
        if (!inside)
          for (int64_t j = 0; j < out_w; j++)
            memcpy (row + j * (int64_t) es, &fill, es);
        else
          {
            const char *srow = src + off * (int64_t) es;
            if (hi > lo)
              memcpy (row + lo * (int64_t) es, srow + (lo - lft) * (int64_t) es,
                      (size_t) (hi - lo) * es);
            for (int64_t j = 0; j < out_w; j++)
              {
                if (j == lo && hi > lo)
                  j = hi;
                if (j >= out_w)
                  break;
                int64_t sidx = pad_source (lmode, j, lft, in_w);
                memcpy (row + j * (int64_t) es,
                        sidx >= 0 && sidx < in_w ? srow + sidx * (int64_t) es
                                                 : (const char *) &fill, es);
              }
          }
        for (int d = last - 1; d >= 0; d--)
          {
            if (++pos[d] < shape[d])
              break;
            pos[d] = 0;
          }
      }
    fx_tensor_unref (ic);
  }
  return out;
}

/* ------------------------------------------------------------------ shuffles, one_hot */

/* Copies input into a new contiguous tensor of `shape` by walking a permuted view of it: the
 * input reshaped to `split` (ns dims) and permuted by `perm`. */
static FxTensor *
permute_copy (FxTensor *input, int ns, const int64_t *split, const int *perm, int nd,
              const int64_t *shape, GError **error)
{
  FxTensor *c = fx_tensor_contiguous (input), *v, *p, *out;
  v = fx_tensor_view (c, ns, split, error);
  fx_tensor_unref (c);
  if (v == NULL)
    return NULL;
  p = fx_tensor_permute (v, ns, perm, error);
  fx_tensor_unref (v);
  if (p == NULL)
    return NULL;
  out = fx_tensor_new_uninit (input->dtype, nd, shape);
  {
    /* the permuted view as a tensor of the output shape's numel, copied in order */
    FxTensor *flat = fx_tensor_reshape (p, nd, shape, error);
    fx_tensor_unref (p);
    if (flat == NULL)
      {
        fx_tensor_unref (out);
        return NULL;
      }
    if (!fx_tensor_copy_into (out, flat, error))
      g_clear_pointer (&out, fx_tensor_unref);
    fx_tensor_unref (flat);
  }
  return out;
}

static FxTensor *
pixel_shuffle_impl (FxTensor *input, int64_t r, gboolean unshuffle, GError **error)
{
  const char *fn = unshuffle ? "pixel_unshuffle" : "pixel_shuffle";
  int nd = input->ndim, lead;
  int64_t split[FX_TENSOR_MAX_DIMS], shape[FX_TENSOR_MAX_DIMS];
  int perm[FX_TENSOR_MAX_DIMS];
  int64_t C, H, W;

  if (nd < 3)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "%s expects input to have at least 3 dimensions, but got input with %d "
                   "dimension(s)", fn, nd);
      return NULL;
    }
  if (r <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "%s expects a positive %s, but got %"
                   G_GINT64_FORMAT, fn, unshuffle ? "downscale_factor" : "upscale_factor", r);
      return NULL;
    }
  C = input->shape[nd - 3];
  H = input->shape[nd - 2];
  W = input->shape[nd - 1];
  lead = nd - 3;
  if (!unshuffle && r > 3037000499)   /* r * r would overflow: it cannot divide C anyway */
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
                   "square of upscale_factor, but input.size(-3)=%" G_GINT64_FORMAT
                   " is not divisible by %" G_GUINT64_FORMAT, C, (guint64) r * (guint64) r);
      return NULL;
    }
  if (!unshuffle && C % (r * r) != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
                   "square of upscale_factor, but input.size(-3)=%" G_GINT64_FORMAT
                   " is not divisible by %" G_GINT64_FORMAT, C, r * r);
      return NULL;
    }
  if (unshuffle && (H % r != 0 || W % r != 0))
    {
      gboolean h = H % r != 0;
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "pixel_unshuffle expects %s to be divisible by downscale_factor, but "
                   "input.size(%d)=%" G_GINT64_FORMAT " is not divisible by %" G_GINT64_FORMAT,
                   h ? "height" : "width", h ? -2 : -1, h ? H : W, r);
      return NULL;
    }
  if (lead + 5 > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "too many dimensions");
      return NULL;
    }
  for (int i = 0; i < lead; i++)
    {
      split[i] = shape[i] = input->shape[i];
      perm[i] = i;
    }
  if (!unshuffle)
    {
      /* (C', r, r, H, W) → (C', H, r, W, r) */
      split[lead] = C / (r * r); split[lead + 1] = r; split[lead + 2] = r;
      split[lead + 3] = H; split[lead + 4] = W;
      perm[lead] = lead; perm[lead + 1] = lead + 3; perm[lead + 2] = lead + 1;
      perm[lead + 3] = lead + 4; perm[lead + 4] = lead + 2;
      shape[lead] = C / (r * r); shape[lead + 1] = H * r; shape[lead + 2] = W * r;
    }
  else
    {
      /* (C, H', r, W', r) → (C, r, r, H', W') */
      split[lead] = C; split[lead + 1] = H / r; split[lead + 2] = r;
      split[lead + 3] = W / r; split[lead + 4] = r;
      perm[lead] = lead; perm[lead + 1] = lead + 2; perm[lead + 2] = lead + 4;
      perm[lead + 3] = lead + 1; perm[lead + 4] = lead + 3;
      shape[lead] = C * r * r; shape[lead + 1] = H / r; shape[lead + 2] = W / r;
    }
  return permute_copy (input, lead + 5, split, perm, nd, shape, error);
}

FxTensor *
fx_pixel_shuffle (FxTensor *input, int64_t upscale_factor, GError **error)
{
  return pixel_shuffle_impl (input, upscale_factor, FALSE, error);
}

FxTensor *
fx_pixel_unshuffle (FxTensor *input, int64_t downscale_factor, GError **error)
{
  return pixel_shuffle_impl (input, downscale_factor, TRUE, error);
}

FxTensor *
fx_channel_shuffle (FxTensor *input, int64_t groups, GError **error)
{
  int nd = input->ndim;
  int64_t split[FX_TENSOR_MAX_DIMS];
  int perm[FX_TENSOR_MAX_DIMS];
  int64_t C;

  if (nd <= 2)
    {
      g_autofree char *s = fx_shape_to_string (nd, input->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "channel_shuffle expects input with > 2 dims, but got input with sizes %s", s);
      return NULL;
    }
  if (groups <= 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Number of groups to divide channels in must be positive. Value of groups:%"
                   G_GINT64_FORMAT, groups);
      return NULL;
    }
  C = input->shape[1];
  if (C % groups != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Number of channels must be divisible by groups. Got %" G_GINT64_FORMAT
                   " channels and %" G_GINT64_FORMAT " groups.", C, groups);
      return NULL;
    }
  if (nd + 1 > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "too many dimensions");
      return NULL;
    }
  split[0] = input->shape[0];
  split[1] = groups;
  split[2] = C / groups;
  for (int i = 2; i < nd; i++)
    split[i + 1] = input->shape[i];
  for (int i = 0; i <= nd; i++)
    perm[i] = i;
  perm[1] = 2;
  perm[2] = 1;
  return permute_copy (input, nd + 1, split, perm, nd, input->shape, error);
}

FxTensor *
fx_one_hot (FxTensor *input, int64_t num_classes, GError **error)
{
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t n = fx_tensor_numel (input), mn = 0, mx = -1;
  FxTensor *out;
  FxStridedIter it;
  const int64_t *src;
  int64_t *dst, i = 0;

  if (input->dtype != FX_DTYPE_INT64)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "one_hot is only applicable to index tensor.");
      return NULL;
    }
  if (input->ndim + 1 > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "too many dimensions");
      return NULL;
    }
  if (n == 0 && num_classes == -1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Can not infer total number of classes from empty tensor.");
      return NULL;
    }
  src = fx_tensor_data (input);
  if (n > 0)
    {
      mn = G_MAXINT64;
      mx = G_MININT64;
      fx_strided_iter_init (&it, input->ndim, input->shape, input->strides);
      while (fx_strided_iter_next (&it))
        {
          mn = MIN (mn, src[it.offset]);
          mx = MAX (mx, src[it.offset]);
        }
      if (mn < 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "Class values must be non-negative.");
          return NULL;
        }
    }
  if (num_classes == -1)
    {
      if (mx == G_MAXINT64)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
          return NULL;
        }
      num_classes = mx + 1;
    }
  else if (n > 0 && mx >= num_classes)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Class values must be smaller than num_classes.");
      return NULL;
    }
  if (num_classes < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Class values must be smaller than num_classes.");
      return NULL;
    }
  memcpy (shape, input->shape, sizeof (int64_t) * input->ndim);
  shape[input->ndim] = num_classes;
  out = fx_tensor_zeros (FX_DTYPE_INT64, input->ndim + 1, shape);
  if (out == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return NULL;
    }
  dst = fx_tensor_data (out);
  fx_strided_iter_init (&it, input->ndim, input->shape, input->strides);
  while (fx_strided_iter_next (&it))
    {
      dst[i * num_classes + src[it.offset]] = 1;
      i++;
    }
  return out;
}
