/* random.c: mt19937 generators and the draws torch 1.13 makes from them on the CPU.
 *
 * How torch turns mt19937 words into numbers was established by experiment against
 * /usr/bin/python3's torch (see tests/conformance/gen_ops_creation.py for the golden data):
 *  - random() is one 32-bit word; random64() is two, the first one in the high half.
 *  - uniform float32: the low 24 bits of random() times 2^-24; float16: the low 11 bits;
 *    float64: the low 53 bits of random64() times 2^-53. uniform_(from, to) then computes
 *    u * (to - from) + from with `to - from` in the tensor's type and the rest in double
 *    (fused for float64; for float16 in float).
 *  - normal, small or strided tensors: Box–Muller on two float64 uniforms per pair, the
 *    first giving the angle and the second the radius through log(1 - u); the cosine value
 *    is returned and the sine value is kept in the generator for the next draw. The result is
 *    fma(z, std, mean) in double.
 *  - normal, contiguous tensors of >= 16 elements: the tensor is first filled with uniforms
 *    of its own dtype, then every block of 16 is transformed in place: u1 = 1 - x[0..8),
 *    u2 = x[8..16), r = sqrt(-2 log u1), θ = 2π u2, x[i] = r cos θ, x[8 + i] = r sin θ.
 *    A ragged end is handled by drawing 16 fresh uniforms into the last 16 slots and
 *    transforming those again. float64 uses libm's log/cos/sin; float32 uses a vectorised
 *    Cephes-style log and sincos evaluated with fused multiply-adds, which
 *    cephes_logf/cephes_sincosf below reproduce bit for bit (AVX2 machines; torch's result
 *    on a machine without AVX2 differs in the last bit now and then).
 *  - random_(from, to): range = to - from; random() % range + from when range < 2^32, else
 *    random64() % range + from.
 *  - bernoulli_(p): a float64 uniform < p (torch.bernoulli(probs) draws a uniform of the
 *    probabilities' own dtype instead; see ops-creation.c).
 *  - randperm(n): Fisher–Yates from the front, swapping i with i + random() % (n - i).
 */
#include "tensor/random.h"

#include <math.h>
#include <string.h>
#include "fx-error.h"


#define MT_N 624
#define MT_M 397

struct _FxGenerator {
  GMutex lock;
  uint64_t seed;
  uint32_t state[MT_N];
  int index;
  gboolean has_next_normal;
  double next_normal;
};

/* ------------------------------------------------------------------ mt19937 */

static void
mt_seed (FxGenerator *g, uint64_t seed)
{
  g->seed = seed;
  g->state[0] = (uint32_t) (seed & 0xffffffffu);
  for (int i = 1; i < MT_N; i++)
    g->state[i] = 1812433253u * (g->state[i - 1] ^ (g->state[i - 1] >> 30)) + (uint32_t) i;
  g->index = MT_N;
  g->has_next_normal = FALSE;
  g->next_normal = 0.0;
}

static void
mt_twist (FxGenerator *g)
{
  uint32_t *s = g->state;
  for (int i = 0; i < MT_N; i++)
    {
      uint32_t y = (s[i] & 0x80000000u) | (s[(i + 1) % MT_N] & 0x7fffffffu);
      s[i] = s[(i + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
  g->index = 0;
}

static inline uint32_t
mt_next (FxGenerator *g)
{
  uint32_t y;
  if (g->index >= MT_N)
    mt_twist (g);
  y = g->state[g->index++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

static inline uint64_t
mt_next64 (FxGenerator *g)
{
  uint64_t hi = mt_next (g);
  uint64_t lo = mt_next (g);
  return (hi << 32) | lo;
}

static inline double
uniform53 (FxGenerator *g)
{
  return (double) (mt_next64 (g) & ((G_GUINT64_CONSTANT (1) << 53) - 1)) * 0x1p-53;
}

static inline double
uniform24 (FxGenerator *g)
{
  return (double) (mt_next (g) & 0xffffffu) * 0x1p-24;
}

static inline float
uniform11 (FxGenerator *g)
{
  return (float) (mt_next (g) & 0x7ffu) * 0x1p-11f;
}

/* One standard normal from the scalar path, sharing the cached half of each pair. */
static double
normal_scalar (FxGenerator *g)
{
  double u1, u2, r, theta;

  if (g->has_next_normal)
    {
      g->has_next_normal = FALSE;
      return g->next_normal;
    }
  u1 = uniform53 (g);
  u2 = uniform53 (g);
  r = sqrt (-2.0 * log (1.0 - u2));
  theta = 2.0 * G_PI * u1;
  g->next_normal = r * sin (theta);
  g->has_next_normal = TRUE;
  return r * cos (theta);
}

/* ------------------------------------------------------------------ generators */

FxGenerator *
fx_generator_new (uint64_t seed)
{
  FxGenerator *g = g_new0 (FxGenerator, 1);
  g_mutex_init (&g->lock);
  mt_seed (g, seed);
  return g;
}

void
fx_generator_free (FxGenerator *gen)
{
  if (gen == NULL || gen == fx_generator_default ())
    return;
  g_mutex_clear (&gen->lock);
  g_free (gen);
}

FxGenerator *
fx_generator_default (void)
{
  static FxGenerator *def;
  if (g_once_init_enter (&def))
    g_once_init_leave (&def, fx_generator_new (FX_DEFAULT_SEED));
  return def;
}

static inline FxGenerator *
gen_lock (FxGenerator *gen)
{
  if (gen == NULL)
    gen = fx_generator_default ();
  g_mutex_lock (&gen->lock);
  return gen;
}

static inline void
gen_unlock (FxGenerator *gen)
{
  g_mutex_unlock (&gen->lock);
}

void
fx_generator_manual_seed (FxGenerator *gen, uint64_t seed)
{
  gen = gen_lock (gen);
  mt_seed (gen, seed);
  gen_unlock (gen);
}

uint64_t
fx_generator_initial_seed (FxGenerator *gen)
{
  uint64_t s;
  gen = gen_lock (gen);
  s = gen->seed;
  gen_unlock (gen);
  return s;
}

uint32_t
fx_generator_random (FxGenerator *gen)
{
  uint32_t r;
  gen = gen_lock (gen);
  r = mt_next (gen);
  gen_unlock (gen);
  return r;
}

uint64_t
fx_generator_random64 (FxGenerator *gen)
{
  uint64_t r;
  gen = gen_lock (gen);
  r = mt_next64 (gen);
  gen_unlock (gen);
  return r;
}

void
fx_manual_seed (uint64_t seed)
{
  fx_generator_manual_seed (NULL, seed);
}

uint64_t
fx_initial_seed (void)
{
  return fx_generator_initial_seed (NULL);
}

uint64_t
fx_seed (void)
{
  /* torch.seed(): a fresh 64-bit seed from the system's entropy */
  uint64_t s = ((uint64_t) g_random_int () << 32) | g_random_int ();
  fx_manual_seed (s);
  return s;
}

/* ------------------------------------------------------------------ generator values */

typedef struct {
  FxObject parent;
  FxGenerator *gen;
} GeneratorObject;

static void
generator_object_finalize (FxObject *obj)
{
  fx_generator_free (((GeneratorObject *) obj)->gen);
  g_free (obj);
}

static void
generator_object_repr (const FxObject *obj, GString *out)
{
  g_string_append_printf (out, "<torch._C.Generator object at %p>", (void *) obj);
}

const FxObjectClass fx_generator_class = {
  .name = "torch._C.Generator",
  .finalize = generator_object_finalize,
  .repr = generator_object_repr,
};

FxValue
fx_value_take_generator (FxGenerator *gen)
{
  GeneratorObject *o = g_new0 (GeneratorObject, 1);
  fx_object_init (&o->parent, &fx_generator_class);
  o->gen = gen;
  return fx_value_take_object (&o->parent);
}

FxGenerator *
fx_value_get_generator (const FxValue *v)
{
  if (v == NULL || v->kind != FX_VALUE_OBJECT || v->obj->klass != &fx_generator_class)
    return NULL;
  return ((GeneratorObject *) v->obj)->gen;
}

/* ------------------------------------------------------------------ element access */

/* Visits the elements of a view in memory order (dims sorted by decreasing stride), the
 * order in which torch's serial kernels write an output. */
typedef struct {
  FxStridedIter it;
  char *base;
  gsize esize;
} MemIter;

static void
mem_iter_init (MemIter *m, FxTensor *t)
{
  int perm[FX_TENSOR_MAX_DIMS];
  int64_t shape[FX_TENSOR_MAX_DIMS], strides[FX_TENSOR_MAX_DIMS];
  int n = t->ndim;

  for (int i = 0; i < n; i++)
    perm[i] = i;
  /* insertion sort: stable, so equal strides keep their logical order */
  for (int i = 1; i < n; i++)
    {
      int p = perm[i], j = i;
      int64_t sp = t->strides[p] < 0 ? -t->strides[p] : t->strides[p];
      while (j > 0)
        {
          int64_t sq = t->strides[perm[j - 1]];
          sq = sq < 0 ? -sq : sq;
          if (sq >= sp)
            break;
          perm[j] = perm[j - 1];
          j--;
        }
      perm[j] = p;
    }
  for (int i = 0; i < n; i++)
    {
      shape[i] = t->shape[perm[i]];
      strides[i] = t->strides[perm[i]];
    }
  fx_strided_iter_init (&m->it, n, shape, strides);
  m->base = fx_tensor_data (t);
  m->esize = fx_dtype_size (t->dtype);
}

static inline void *
mem_iter_next (MemIter *m)
{
  if (!fx_strided_iter_next (&m->it))
    return NULL;
  return m->base + m->it.offset * (int64_t) m->esize;
}

static void
store_double (void *p, FxDType dtype, double v)
{
  switch (dtype)
    {
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = v; break;
    case FX_DTYPE_FLOAT16: *(uint16_t *) p = fx_float_to_half ((float) v); break;
    default: break;
    }
}

static void
store_int64 (void *p, FxDType dtype, int64_t v)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL: *(uint8_t *) p = v != 0; break;
    case FX_DTYPE_UINT8: *(uint8_t *) p = (uint8_t) v; break;
    case FX_DTYPE_INT8: *(int8_t *) p = (int8_t) v; break;
    case FX_DTYPE_INT16: *(int16_t *) p = (int16_t) v; break;
    case FX_DTYPE_INT32: *(int32_t *) p = (int32_t) v; break;
    case FX_DTYPE_INT64: *(int64_t *) p = v; break;
    case FX_DTYPE_FLOAT16: *(uint16_t *) p = fx_float_to_half ((float) v); break;
    case FX_DTYPE_FLOAT32: *(float *) p = (float) v; break;
    case FX_DTYPE_FLOAT64: *(double *) p = (double) v; break;
    default: break;
    }
}

/* ------------------------------------------------------------------ uniform_ */

/* A float in %g style as C++ streams print it ("1", "0.5", "3e+38"). */
static char *
cpp_double (double v)
{
  return g_strdup_printf ("%g", v);
}

gboolean
fx_tensor_uniform_ (FxTensor *t, double from, double to, FxGenerator *gen, GError **error)
{
  FxDType dt = t->dtype;
  double lo_lim, hi_lim;
  int64_t n;

  if (!fx_dtype_is_floating (dt))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"check_uniform_bounds\" not implemented for '%s'", fx_dtype_scalar_type_name (dt));
      return FALSE;
    }
  hi_lim = dt == FX_DTYPE_FLOAT64 ? G_MAXDOUBLE : dt == FX_DTYPE_FLOAT32 ? G_MAXFLOAT : 65504.0;
  lo_lim = -hi_lim;
  if (!(from >= lo_lim && from <= hi_lim))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "from is out of bounds for %s",
                   fx_dtype_typemeta_name (dt));
      return FALSE;
    }
  if (!(to >= lo_lim && to <= hi_lim))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "to is out of bounds for %s",
                   fx_dtype_typemeta_name (dt));
      return FALSE;
    }
  if (from > to)
    {
      g_autofree char *a = cpp_double (from), *b = cpp_double (to);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "uniform_ expects to return a [from, to) range, but found from=%s > to=%s",
                   a, b);
      return FALSE;
    }
  if (to - from > hi_lim)
    {
      g_autofree char *a = cpp_double (from), *b = cpp_double (to);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found "
                   "to=%s and from=%s which result in to-from to exceed the limit",
                   fx_dtype_scalar_type_name (dt), b, a);
      return FALSE;
    }
  n = fx_tensor_numel (t);
  if (n == 0)
    return TRUE;

  gen = gen_lock (gen);
  if (dt == FX_DTYPE_FLOAT32)
    {
      float flo = (float) from, fhi = (float) to;
      double range = (double) (fhi - flo), base = (double) flo;
      if (fx_tensor_is_contiguous (t))
        {
          float *p = fx_tensor_data (t);
          for (int64_t i = 0; i < n; i++)
            p[i] = (float) (uniform24 (gen) * range + base);
        }
      else
        {
          MemIter m;
          float *p;
          mem_iter_init (&m, t);
          while ((p = mem_iter_next (&m)) != NULL)
            *p = (float) (uniform24 (gen) * range + base);
        }
    }
  else if (dt == FX_DTYPE_FLOAT64)
    {
      double range = to - from;
      if (fx_tensor_is_contiguous (t))
        {
          double *p = fx_tensor_data (t);
          for (int64_t i = 0; i < n; i++)
            p[i] = fma (uniform53 (gen), range, from);
        }
      else
        {
          MemIter m;
          double *p;
          mem_iter_init (&m, t);
          while ((p = mem_iter_next (&m)) != NULL)
            *p = fma (uniform53 (gen), range, from);
        }
    }
  else
    {
      float hlo = fx_half_to_float (fx_float_to_half ((float) from));
      float hhi = fx_half_to_float (fx_float_to_half ((float) to));
      float range = fx_half_to_float (fx_float_to_half (hhi - hlo));
      MemIter m;
      uint16_t *p;
      mem_iter_init (&m, t);
      while ((p = mem_iter_next (&m)) != NULL)
        *p = fx_float_to_half (uniform11 (gen) * range + hlo);
    }
  gen_unlock (gen);
  return TRUE;
}

/* ------------------------------------------------------------------ normal_ */

static inline uint32_t
f2u (float f)
{
  uint32_t u;
  memcpy (&u, &f, sizeof u);
  return u;
}

static inline float
u2f (uint32_t u)
{
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
}

/* Natural log of a float in (0, 1], as the AVX2 normal kernel computes it: frexp-style
 * split, Cephes's degree-8 polynomial on the mantissa, every step a fused multiply-add. */
static inline __attribute__ ((always_inline)) float
cephes_logf (float x)
{
  int32_t e_bits;
  float e, z, y, tmp;
  gboolean below;

  if (!(x >= 1.17549435e-38f))   /* denormals and zero: clamp like the vector max */
    x = 1.17549435e-38f;
  e_bits = (int32_t) (f2u (x) >> 23);
  x = u2f ((f2u (x) & 0x807fffffu) | f2u (0.5f));
  e = (float) (e_bits - 0x7f) + 1.0f;
  below = x < 0.707106781186547524f;
  tmp = below ? x : 0.0f;
  x = x - 1.0f;
  e = e - (below ? 1.0f : 0.0f);
  x = x + tmp;
  z = x * x;
  y = 7.0376836292e-2f;
  y = fmaf (y, x, -1.1514610310e-1f);
  y = fmaf (y, x, 1.1676998740e-1f);
  y = fmaf (y, x, -1.2420140846e-1f);
  y = fmaf (y, x, 1.4249322787e-1f);
  y = fmaf (y, x, -1.6668057665e-1f);
  y = fmaf (y, x, 2.0000714765e-1f);
  y = fmaf (y, x, -2.4999993993e-1f);
  y = fmaf (y, x, 3.3333331174e-1f);
  y = y * x;
  y = fmaf (y, z, e * -2.12194440e-4f);
  y = fmaf (-z, 0.5f, y);
  x = x + y;
  return fmaf (e, 0.693359375f, x);
}

/* sin and cos of a float, octant reduction with a three-part π/4 and Cephes's minimax
 * polynomials, fused like the vector code. */
static inline __attribute__ ((always_inline)) void
cephes_sincosf (float xin, float *s_out, float *c_out)
{
  uint32_t sign_sin = f2u (xin) & 0x80000000u, sign_cos, swap;
  float x = fabsf (xin), y, z, yc, ys, sv, cv;
  int32_t j;
  gboolean poly;

  y = x * 1.27323954473516f;
  j = (int32_t) y;
  j = (j + 1) & ~1;
  y = (float) j;
  swap = ((uint32_t) (j & 4)) << 29;
  poly = (j & 2) == 0;
  sign_cos = ((uint32_t) (~(j - 2) & 4)) << 29;
  sign_sin ^= swap;
  x = fmaf (y, -0.78515625f, x);
  x = fmaf (y, -2.4187564849853515625e-4f, x);
  x = fmaf (y, -3.77489497744594108e-8f, x);
  z = x * x;
  yc = 2.443315711809948e-5f;
  yc = fmaf (yc, z, -1.388731625493765e-3f);
  yc = fmaf (yc, z, 4.166664568298827e-2f);
  yc = yc * z;
  yc = fmaf (yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  ys = -1.9515295891e-4f;
  ys = fmaf (ys, z, 8.3321608736e-3f);
  ys = fmaf (ys, z, -1.6666654611e-1f);
  ys = ys * z;
  ys = fmaf (ys, x, x);
  sv = poly ? ys : yc;
  cv = poly ? yc : ys;
  *s_out = u2f (f2u (sv) ^ sign_sin);
  *c_out = u2f (f2u (cv) ^ sign_cos);
}

/* One block of 16: the same code compiled twice, once with FMA instructions for fmaf (the
 * results are identical — fmaf is exact either way — but the library call is slow). */
#define NORMAL_BLOCK16_F32_BODY                                         \
  const float two_pi = (float) (2.0 * G_PI);                            \
  for (int i = 0; i < 8; i++)                                           \
    {                                                                   \
      float u1 = 1.0f - d[i], u2 = d[8 + i];                            \
      float r = sqrtf (-2.0f * cephes_logf (u1));                       \
      float th = two_pi * u2, s, c;                                     \
      cephes_sincosf (th, &s, &c);                                      \
      d[i] = fmaf (r * c, std, mean);                                   \
      d[8 + i] = fmaf (r * s, std, mean);                               \
    }

static void
normal_block16_f32_generic (float *d, float mean, float std)
{
  NORMAL_BLOCK16_F32_BODY
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__ ((target ("fma"))) static void
normal_block16_f32_fma (float *d, float mean, float std)
{
  NORMAL_BLOCK16_F32_BODY
}

static void
normal_block16_f32 (float *d, float mean, float std)
{
  static int has_fma = -1;
  if (has_fma < 0)
    {
      __builtin_cpu_init ();
      has_fma = __builtin_cpu_supports ("fma") ? 1 : 0;
    }
  if (has_fma)
    normal_block16_f32_fma (d, mean, std);
  else
    normal_block16_f32_generic (d, mean, std);
}
#else
#define normal_block16_f32 normal_block16_f32_generic
#endif

static void
normal_block16_f64 (double *d, double mean, double std)
{
  for (int i = 0; i < 8; i++)
    {
      double u1 = 1.0 - d[i], u2 = d[8 + i];
      double r = sqrt (-2.0 * log (u1));
      double th = 2.0 * G_PI * u2;
      d[i] = fma (r * cos (th), std, mean);
      d[8 + i] = fma (r * sin (th), std, mean);
    }
}

gboolean
fx_tensor_normal_ (FxTensor *t, double mean, double std, FxGenerator *gen, GError **error)
{
  FxDType dt = t->dtype;
  int64_t n;

  if (!(std >= 0.0))
    {
      g_autofree char *s = cpp_double (std);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "normal expects std >= 0.0, but found std %s", s);
      return FALSE;
    }
  if (!fx_dtype_is_floating (dt))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"normal_kernel_cpu\" not implemented for '%s'", fx_dtype_scalar_type_name (dt));
      return FALSE;
    }
  n = fx_tensor_numel (t);
  if (n == 0)
    return TRUE;

  gen = gen_lock (gen);
  if (n >= 16 && fx_tensor_is_contiguous (t) && dt == FX_DTYPE_FLOAT32)
    {
      float *p = fx_tensor_data (t);
      float fm = (float) mean, fs = (float) std;
      for (int64_t i = 0; i < n; i++)
        p[i] = (float) uniform24 (gen);
      for (int64_t i = 0; i + 16 <= n; i += 16)
        normal_block16_f32 (p + i, fm, fs);
      if (n % 16 != 0)
        {
          for (int64_t i = n - 16; i < n; i++)
            p[i] = (float) uniform24 (gen);
          normal_block16_f32 (p + n - 16, fm, fs);
        }
    }
  else if (n >= 16 && fx_tensor_is_contiguous (t) && dt == FX_DTYPE_FLOAT64)
    {
      double *p = fx_tensor_data (t);
      for (int64_t i = 0; i < n; i++)
        p[i] = uniform53 (gen);
      for (int64_t i = 0; i + 16 <= n; i += 16)
        normal_block16_f64 (p + i, mean, std);
      if (n % 16 != 0)
        {
          for (int64_t i = n - 16; i < n; i++)
            p[i] = uniform53 (gen);
          normal_block16_f64 (p + n - 16, mean, std);
        }
    }
  else
    {
      /* float16 goes this way too: not bit-exact with torch's half kernel */
      MemIter m;
      void *p;
      mem_iter_init (&m, t);
      while ((p = mem_iter_next (&m)) != NULL)
        store_double (p, dt, fma (normal_scalar (gen), std, mean));
    }
  gen_unlock (gen);
  return TRUE;
}

/* ------------------------------------------------------------------ random_ / bernoulli_ */

static gboolean
check_int_bounds (FxDType dt, int64_t from, int64_t to, GError **error)
{
  int64_t lo, hi;
  switch (dt)
    {
    case FX_DTYPE_BOOL: lo = 0; hi = 1; break;
    case FX_DTYPE_UINT8: lo = 0; hi = 255; break;
    case FX_DTYPE_INT8: lo = -128; hi = 127; break;
    case FX_DTYPE_INT16: lo = -32768; hi = 32767; break;
    case FX_DTYPE_INT32: lo = G_MININT32; hi = G_MAXINT32; break;
    case FX_DTYPE_FLOAT16: lo = -65504; hi = 65504; break;
    default: return TRUE;  /* int64; float32/64 only warn in torch */
    }
  if (from < lo || from > hi)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "from is out of bounds for %s",
                   fx_dtype_typemeta_name (dt));
      return FALSE;
    }
  if (to - 1 < lo || to - 1 > hi)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "to - 1 is out of bounds for %s",
                   fx_dtype_typemeta_name (dt));
      return FALSE;
    }
  return TRUE;
}

gboolean
fx_tensor_random_ (FxTensor *t, int64_t from, int64_t to, FxGenerator *gen, GError **error)
{
  uint64_t range;
  MemIter m;
  void *p;

  if (from >= to)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "random_ expects 'from' to be less than 'to', but got from=%" G_GINT64_FORMAT
                   " >= to=%" G_GINT64_FORMAT, from, to);
      return FALSE;
    }
  if (!check_int_bounds (t->dtype, from, to, error))
    return FALSE;
  if (fx_tensor_numel (t) == 0)
    return TRUE;
  range = (uint64_t) to - (uint64_t) from;
  gen = gen_lock (gen);
  if (t->dtype == FX_DTYPE_INT64 && fx_tensor_is_contiguous (t))
    {
      int64_t *q = fx_tensor_data (t), n = fx_tensor_numel (t);
      if (range < G_GUINT64_CONSTANT (1) << 32)
        for (int64_t i = 0; i < n; i++)
          q[i] = (int64_t) ((uint64_t) from + mt_next (gen) % range);
      else
        for (int64_t i = 0; i < n; i++)
          q[i] = (int64_t) ((uint64_t) from + mt_next64 (gen) % range);
    }
  else
    {
      mem_iter_init (&m, t);
      while ((p = mem_iter_next (&m)) != NULL)
        {
          uint64_t r = range < G_GUINT64_CONSTANT (1) << 32 ? mt_next (gen) % range
                                                            : mt_next64 (gen) % range;
          store_int64 (p, t->dtype, (int64_t) ((uint64_t) from + r));
        }
    }
  gen_unlock (gen);
  return TRUE;
}

gboolean
fx_tensor_bernoulli_ (FxTensor *t, double p, FxGenerator *gen, GError **error)
{
  MemIter m;
  void *q;

  if (!(p >= 0.0 && p <= 1.0))
    {
      g_autofree char *s = cpp_double (p);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "bernoulli_ expects p to be in [0, 1], but got p=%s", s);
      return FALSE;
    }
  if (fx_tensor_numel (t) == 0)
    return TRUE;
  gen = gen_lock (gen);
  mem_iter_init (&m, t);
  while ((q = mem_iter_next (&m)) != NULL)
    store_int64 (q, t->dtype, uniform53 (gen) < p ? 1 : 0);
  gen_unlock (gen);
  return TRUE;
}

/* ------------------------------------------------------------------ factories */

static FxTensor *
new_tensor (FxDType dtype, int ndim, const int64_t *shape, GError **error)
{
  FxTensor *t;

  if (ndim < 0 || ndim > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, ndim);
      return NULL;
    }
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0)
      {
        GString *s = g_string_new ("[");
        for (int j = 0; j < ndim; j++)
          g_string_append_printf (s, "%s%" G_GINT64_FORMAT, j ? ", " : "", shape[j]);
        g_string_append_c (s, ']');
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": %s",
                     shape[i], s->str);
        g_string_free (s, TRUE);
        return NULL;
      }
  t = fx_tensor_new_uninit (dtype, ndim, shape);
  if (t == NULL)
    g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                 "DefaultCPUAllocator: not enough memory: you tried to allocate a tensor "
                 "that is too large");
  return t;
}

FxTensor *
fx_rand (FxDType dtype, int ndim, const int64_t *shape, FxGenerator *gen, GError **error)
{
  FxTensor *t;
  if (!fx_dtype_is_floating (dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"check_uniform_bounds\" not implemented for '%s'", fx_dtype_scalar_type_name (dtype));
      return NULL;
    }
  t = new_tensor (dtype, ndim, shape, error);
  if (t && !fx_tensor_uniform_ (t, 0.0, 1.0, gen, error))
    g_clear_pointer (&t, fx_tensor_unref);
  return t;
}

FxTensor *
fx_normal (double mean, double std, FxDType dtype, int ndim, const int64_t *shape,
           FxGenerator *gen, GError **error)
{
  FxTensor *t;
  if (!fx_dtype_is_floating (dtype))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "\"normal_kernel_cpu\" not implemented for '%s'", fx_dtype_scalar_type_name (dtype));
      return NULL;
    }
  t = new_tensor (dtype, ndim, shape, error);
  if (t && !fx_tensor_normal_ (t, mean, std, gen, error))
    g_clear_pointer (&t, fx_tensor_unref);
  return t;
}

FxTensor *
fx_randn (FxDType dtype, int ndim, const int64_t *shape, FxGenerator *gen, GError **error)
{
  return fx_normal (0.0, 1.0, dtype, ndim, shape, gen, error);
}

FxTensor *
fx_randint (int64_t low, int64_t high, FxDType dtype, int ndim, const int64_t *shape,
            FxGenerator *gen, GError **error)
{
  FxTensor *t;
  if (low >= high)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "random_ expects 'from' to be less than 'to', but got from=%" G_GINT64_FORMAT
                   " >= to=%" G_GINT64_FORMAT, low, high);
      return NULL;
    }
  t = new_tensor (dtype, ndim, shape, error);
  if (t && !fx_tensor_random_ (t, low, high, gen, error))
    g_clear_pointer (&t, fx_tensor_unref);
  return t;
}

FxTensor *
fx_randperm (int64_t n, FxDType dtype, FxGenerator *gen, GError **error)
{
  FxTensor *t;
  int64_t *r;

  if (dtype == FX_DTYPE_BOOL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "\"randperm\" not implemented for 'Bool'");
      return NULL;
    }
  if (dtype == FX_DTYPE_FLOAT32 && n > 16777217)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "n cannot be greater than 2^24+1 for Float type.");
      return NULL;
    }
  if (dtype == FX_DTYPE_FLOAT16 && n > 2049)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "n cannot be greater than 2049 for Half type.");
      return NULL;
    }
  if (fx_dtype_is_integral (dtype) && dtype != FX_DTYPE_INT64)
    {
      static const struct { FxDType dt; int64_t max; const char *name; } lim[] = {
        { FX_DTYPE_UINT8, 255, "uint8_t" }, { FX_DTYPE_INT8, 127, "int8_t" },
        { FX_DTYPE_INT16, 32767, "int16_t" }, { FX_DTYPE_INT32, G_MAXINT32, "int" },
      };
      for (gsize i = 0; i < G_N_ELEMENTS (lim); i++)
        if (lim[i].dt == dtype && n - 1 > lim[i].max)
          {
            g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                         "value cannot be converted to type %s without overflow", lim[i].name);
            return NULL;
          }
    }
  t = new_tensor (FX_DTYPE_INT64, 1, &n, error);
  if (t == NULL)
    return NULL;
  r = fx_tensor_data (t);
  for (int64_t i = 0; i < n; i++)
    r[i] = i;
  gen = gen_lock (gen);
  for (int64_t i = 0; i + 1 < n; i++)
    {
      uint64_t left = (uint64_t) (n - i);
      int64_t z = (int64_t) (left < (G_GUINT64_CONSTANT (1) << 32) ? mt_next (gen) % left
                                                                   : mt_next64 (gen) % left);
      int64_t tmp = r[i];
      r[i] = r[z + i];
      r[z + i] = tmp;
    }
  gen_unlock (gen);
  if (dtype != FX_DTYPE_INT64)
    {
      FxTensor *c = fx_tensor_to_dtype (t, dtype);
      fx_tensor_unref (t);
      t = c;
    }
  return t;
}

/* ------------------------------------------------------------------ nn.init */

gboolean
fx_init_calculate_gain (const char *nonlinearity, double param, gboolean has_param,
                        double *gain, GError **error)
{
  static const char *const linear[] = { "linear", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", NULL };

  for (int i = 0; linear[i]; i++)
    if (g_strcmp0 (nonlinearity, linear[i]) == 0)
      {
        *gain = 1.0;
        return TRUE;
      }
  if (g_strcmp0 (nonlinearity, "sigmoid") == 0)
    *gain = 1.0;
  else if (g_strcmp0 (nonlinearity, "tanh") == 0)
    *gain = 5.0 / 3;
  else if (g_strcmp0 (nonlinearity, "relu") == 0)
    *gain = sqrt (2.0);
  else if (g_strcmp0 (nonlinearity, "leaky_relu") == 0)
    {
      double slope = has_param ? param : 0.01;
      *gain = sqrt (2.0 / (1 + slope * slope));
    }
  else if (g_strcmp0 (nonlinearity, "selu") == 0)
    *gain = 3.0 / 4;
  else
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT, "Unsupported nonlinearity %s",
                   nonlinearity ? nonlinearity : "None");
      return FALSE;
    }
  return TRUE;
}

gboolean
fx_init_fan_in_and_out (const FxTensor *t, int64_t *fan_in, int64_t *fan_out, GError **error)
{
  int64_t receptive = 1;

  if (t->ndim < 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "Fan in and fan out can not be computed for tensor with fewer than 2 "
                   "dimensions");
      return FALSE;
    }
  for (int i = 2; i < t->ndim; i++)
    receptive *= t->shape[i];
  *fan_in = t->shape[1] * receptive;
  *fan_out = t->shape[0] * receptive;
  return TRUE;
}

gboolean
fx_init_uniform_ (FxTensor *t, double a, double b, FxGenerator *gen, GError **error)
{
  return fx_tensor_uniform_ (t, a, b, gen, error);
}

gboolean
fx_init_normal_ (FxTensor *t, double mean, double std, FxGenerator *gen, GError **error)
{
  return fx_tensor_normal_ (t, mean, std, gen, error);
}

static gboolean
fill_value (FxTensor *t, double value, GError **error)
{
  FxTensor *v = fx_tensor_scalar_double (FX_DTYPE_FLOAT64, value);
  gboolean ok = fx_tensor_copy_into (t, v, error);
  fx_tensor_unref (v);
  return ok;
}

gboolean
fx_init_constant_ (FxTensor *t, double value, GError **error)
{
  return fill_value (t, value, error);
}

gboolean
fx_init_zeros_ (FxTensor *t, GError **error)
{
  return fill_value (t, 0.0, error);
}

gboolean
fx_init_ones_ (FxTensor *t, GError **error)
{
  return fill_value (t, 1.0, error);
}

gboolean
fx_init_eye_ (FxTensor *t, GError **error)
{
  int64_t k;

  if (t->ndim != 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "Only tensors with 2 dimensions are supported");
      return FALSE;
    }
  if (!fill_value (t, 0.0, error))
    return FALSE;
  k = MIN (t->shape[0], t->shape[1]);
  for (int64_t i = 0; i < k; i++)
    {
      char *p = (char *) fx_tensor_data (t)
                + (i * t->strides[0] + i * t->strides[1]) * (int64_t) fx_dtype_size (t->dtype);
      store_int64 (p, t->dtype, 1);
    }
  return TRUE;
}

gboolean
fx_init_xavier_uniform_ (FxTensor *t, double gain, FxGenerator *gen, GError **error)
{
  int64_t fi, fo;
  double std, a;
  if (!fx_init_fan_in_and_out (t, &fi, &fo, error))
    return FALSE;
  std = gain * sqrt (2.0 / (double) (fi + fo));
  a = sqrt (3.0) * std;
  return fx_tensor_uniform_ (t, -a, a, gen, error);
}

gboolean
fx_init_xavier_normal_ (FxTensor *t, double gain, FxGenerator *gen, GError **error)
{
  int64_t fi, fo;
  double std;
  if (!fx_init_fan_in_and_out (t, &fi, &fo, error))
    return FALSE;
  std = gain * sqrt (2.0 / (double) (fi + fo));
  return fx_tensor_normal_ (t, 0.0, std, gen, error);
}

/* kaiming's std = gain / sqrt(fan); numel 0 is a no-op (torch only warns). */
static gboolean
kaiming_std (FxTensor *t, double a, const char *mode, const char *nonlinearity,
             gboolean *noop, double *std, GError **error)
{
  int64_t fi, fo, fan;
  double gain;

  *noop = FALSE;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] == 0)
      {
        *noop = TRUE;
        return TRUE;
      }
  if (g_strcmp0 (mode, "fan_in") != 0 && g_strcmp0 (mode, "fan_out") != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "Mode %s not supported, please use one of ['fan_in', 'fan_out']",
                   mode ? mode : "None");
      return FALSE;
    }
  if (!fx_init_fan_in_and_out (t, &fi, &fo, error))
    return FALSE;
  fan = g_strcmp0 (mode, "fan_in") == 0 ? fi : fo;
  if (!fx_init_calculate_gain (nonlinearity, a, TRUE, &gain, error))
    return FALSE;
  *std = gain / sqrt ((double) fan);
  return TRUE;
}

gboolean
fx_init_kaiming_uniform_ (FxTensor *t, double a, const char *mode, const char *nonlinearity,
                          FxGenerator *gen, GError **error)
{
  gboolean noop;
  double std;
  if (!kaiming_std (t, a, mode, nonlinearity, &noop, &std, error))
    return FALSE;
  if (noop)
    return TRUE;
  return fx_tensor_uniform_ (t, -sqrt (3.0) * std, sqrt (3.0) * std, gen, error);
}

gboolean
fx_init_kaiming_normal_ (FxTensor *t, double a, const char *mode, const char *nonlinearity,
                         FxGenerator *gen, GError **error)
{
  gboolean noop;
  double std;
  if (!kaiming_std (t, a, mode, nonlinearity, &noop, &std, error))
    return FALSE;
  if (noop)
    return TRUE;
  return fx_tensor_normal_ (t, 0.0, std, gen, error);
}
