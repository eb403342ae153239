/* tensor.c: storage, tensor lifetime, element access, the converting strided copy that every
 * layout change funnels through, and the view operations with PyTorch's checks and messages. */
#include "tensor/tensor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fx-error.h"

#define FX_STORAGE_ALIGN 64

/* ------------------------------------------------------------------ half floats */

float
fx_half_to_float (uint16_t h)
{
  uint32_t sign = (uint32_t) (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  float f;

  if (exp == 0x1f)
    bits = sign | 0x7f800000u | (mant << 13);
  else if (exp == 0)
    {
      /* zero or subnormal: mant * 2^-24 is exact in float */
      f = (float) mant * (1.0f / 16777216.0f);
      return sign ? -f : f;
    }
  else
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  memcpy (&f, &bits, sizeof f);
  return f;
}

uint16_t
fx_float_to_half (float f)
{
  uint32_t x, abs, sign;

  memcpy (&x, &f, sizeof x);
  sign = (x >> 16) & 0x8000u;
  abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u)       /* inf, nan (keep a quiet payload) */
    return (uint16_t) (sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0));
  if (abs >= 0x477ff000u)       /* >= 65520 rounds to inf */
    return (uint16_t) (sign | 0x7c00u);
  if (abs < 0x38800000u)        /* below 2^-14: half subnormal */
    {
      /* Adding 0.5 puts the value's 2^-24 units into the float mantissa, and the FPU rounds
       * to nearest even for us. */
      float a;
      uint32_t r;
      memcpy (&a, &abs, sizeof a);
      a += 0.5f;
      memcpy (&r, &a, sizeof r);
      return (uint16_t) (sign | (r - 0x3f000000u));
    }
  /* normal: rebias exponent by -112 and round the 13 dropped bits to nearest even */
  abs += 0xc8000fffu + ((abs >> 13) & 1u);
  return (uint16_t) (sign | (abs >> 13));
}

/* ------------------------------------------------------------------ scalar conversions */

/* Float to integer as PyTorch on x86 does it: the 64-bit conversion gives INT64_MIN when out
 * of range or NaN; narrower types convert through int32 (INT32_MIN when out of range) and
 * then wrap. */
static inline int64_t
double_to_i64 (double x)
{
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
    return INT64_MIN;
  return (int64_t) x;
}

static inline int32_t
double_to_i32 (double x)
{
  if (!(x > -2147483649.0 && x < 2147483648.0))
    return INT32_MIN;
  return (int32_t) x;
}

static inline uint8_t store_bool_d (double x) { return x != 0; }
static inline uint8_t store_bool_i (int64_t x) { return x != 0; }
static inline uint8_t store_u8_d (double x) { return (uint8_t) (uint32_t) double_to_i32 (x); }
static inline uint8_t store_u8_i (int64_t x) { return (uint8_t) (uint64_t) x; }
static inline int8_t store_i8_d (double x) { return (int8_t) double_to_i32 (x); }
static inline int8_t store_i8_i (int64_t x) { return (int8_t) x; }
static inline int16_t store_i16_d (double x) { return (int16_t) double_to_i32 (x); }
static inline int16_t store_i16_i (int64_t x) { return (int16_t) x; }
static inline int32_t store_i32_d (double x) { return double_to_i32 (x); }
static inline int32_t store_i32_i (int64_t x) { return (int32_t) x; }
static inline int64_t store_i64_d (double x) { return double_to_i64 (x); }
static inline int64_t store_i64_i (int64_t x) { return x; }
static inline uint16_t store_f16_d (double x) { return fx_float_to_half ((float) x); }
static inline uint16_t store_f16_i (int64_t x) { return fx_float_to_half ((float) x); }
static inline float store_f32_d (double x) { return (float) x; }
static inline float store_f32_i (int64_t x) { return (float) x; }
static inline double store_f64_d (double x) { return x; }
static inline double store_f64_i (int64_t x) { return (double) x; }

/* Integer sources load as int64 and floating ones as double (exact for every source type),
 * and _Generic picks the matching store, so that int64 → float32 rounds only once. */
#define LOAD_I(x) ((int64_t) (x))
#define LOAD_F(x) ((double) (x))
#define LOAD_H(x) ((double) fx_half_to_float (x))

#define STORE_BOOL(v) _Generic ((v), int64_t: store_bool_i, double: store_bool_d) (v)
#define STORE_U8(v)   _Generic ((v), int64_t: store_u8_i, double: store_u8_d) (v)
#define STORE_I8(v)   _Generic ((v), int64_t: store_i8_i, double: store_i8_d) (v)
#define STORE_I16(v)  _Generic ((v), int64_t: store_i16_i, double: store_i16_d) (v)
#define STORE_I32(v)  _Generic ((v), int64_t: store_i32_i, double: store_i32_d) (v)
#define STORE_I64(v)  _Generic ((v), int64_t: store_i64_i, double: store_i64_d) (v)
#define STORE_F16(v)  _Generic ((v), int64_t: store_f16_i, double: store_f16_d) (v)
#define STORE_F32(v)  _Generic ((v), int64_t: store_f32_i, double: store_f32_d) (v)
#define STORE_F64(v)  _Generic ((v), int64_t: store_f64_i, double: store_f64_d) (v)

#define CONVERT_ROW(DCT, STORE, SCT, LOAD)                                  \
  do {                                                                      \
    DCT *d_ = dst;                                                          \
    const SCT *s_ = src;                                                    \
    if (ds == 1 && ss == 1)                                                 \
      for (int64_t i_ = 0; i_ < n; i_++)                                    \
        d_[i_] = STORE (LOAD (s_[i_]));                                     \
    else                                                                    \
      for (int64_t i_ = 0; i_ < n; i_++)                                    \
        d_[i_ * ds] = STORE (LOAD (s_[i_ * ss]));                           \
  } while (0)

#define CONVERT_FROM_ANY(DCT, STORE)                                        \
  switch (st)                                                               \
    {                                                                       \
    case FX_DTYPE_BOOL:    CONVERT_ROW (DCT, STORE, uint8_t, LOAD_I); break; \
    case FX_DTYPE_UINT8:   CONVERT_ROW (DCT, STORE, uint8_t, LOAD_I); break; \
    case FX_DTYPE_INT8:    CONVERT_ROW (DCT, STORE, int8_t, LOAD_I); break; \
    case FX_DTYPE_INT16:   CONVERT_ROW (DCT, STORE, int16_t, LOAD_I); break; \
    case FX_DTYPE_INT32:   CONVERT_ROW (DCT, STORE, int32_t, LOAD_I); break; \
    case FX_DTYPE_INT64:   CONVERT_ROW (DCT, STORE, int64_t, LOAD_I); break; \
    case FX_DTYPE_FLOAT16: CONVERT_ROW (DCT, STORE, uint16_t, LOAD_H); break; \
    case FX_DTYPE_FLOAT32: CONVERT_ROW (DCT, STORE, float, LOAD_F); break;  \
    case FX_DTYPE_FLOAT64: CONVERT_ROW (DCT, STORE, double, LOAD_F); break; \
    default: break;                                                         \
    }

#define COPY_ROW(CT)                                                        \
  do {                                                                      \
    CT *d_ = dst;                                                           \
    const CT *s_ = src;                                                     \
    for (int64_t i_ = 0; i_ < n; i_++)                                      \
      d_[i_ * ds] = s_[i_ * ss];                                            \
  } while (0)

/* One row: n elements, strides ds/ss in elements of their own types. */
static void
convert_row (void *dst, FxDType dt, int64_t ds, const void *src, FxDType st, int64_t ss,
             int64_t n)
{
  if (dt == st)
    {
      gsize es = fx_dtype_size (dt);
      if (ds == 1 && ss == 1)
        {
          memcpy (dst, src, (size_t) n * es);
          return;
        }
      switch (es)
        {
        case 1: COPY_ROW (uint8_t); break;
        case 2: COPY_ROW (uint16_t); break;
        case 4: COPY_ROW (uint32_t); break;
        default: COPY_ROW (uint64_t); break;
        }
      return;
    }
  switch (dt)
    {
    case FX_DTYPE_BOOL:    CONVERT_FROM_ANY (uint8_t, STORE_BOOL); break;
    case FX_DTYPE_UINT8:   CONVERT_FROM_ANY (uint8_t, STORE_U8); break;
    case FX_DTYPE_INT8:    CONVERT_FROM_ANY (int8_t, STORE_I8); break;
    case FX_DTYPE_INT16:   CONVERT_FROM_ANY (int16_t, STORE_I16); break;
    case FX_DTYPE_INT32:   CONVERT_FROM_ANY (int32_t, STORE_I32); break;
    case FX_DTYPE_INT64:   CONVERT_FROM_ANY (int64_t, STORE_I64); break;
    case FX_DTYPE_FLOAT16: CONVERT_FROM_ANY (uint16_t, STORE_F16); break;
    case FX_DTYPE_FLOAT32: CONVERT_FROM_ANY (float, STORE_F32); break;
    case FX_DTYPE_FLOAT64: CONVERT_FROM_ANY (double, STORE_F64); break;
    default: break;
    }
}

/* Reads one element as double / int64 (the slow path for printing, item() and tests). */
static double
load_double (const void *p, FxDType dtype)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:    return *(const uint8_t *) p != 0;
    case FX_DTYPE_UINT8:   return *(const uint8_t *) p;
    case FX_DTYPE_INT8:    return *(const int8_t *) p;
    case FX_DTYPE_INT16:   return *(const int16_t *) p;
    case FX_DTYPE_INT32:   return *(const int32_t *) p;
    case FX_DTYPE_INT64:   return (double) *(const int64_t *) p;
    case FX_DTYPE_FLOAT16: return fx_half_to_float (*(const uint16_t *) p);
    case FX_DTYPE_FLOAT32: return *(const float *) p;
    case FX_DTYPE_FLOAT64: return *(const double *) p;
    default:               return 0;
    }
}

static int64_t
load_int64 (const void *p, FxDType dtype)
{
  switch (dtype)
    {
    case FX_DTYPE_BOOL:    return *(const uint8_t *) p != 0;
    case FX_DTYPE_UINT8:   return *(const uint8_t *) p;
    case FX_DTYPE_INT8:    return *(const int8_t *) p;
    case FX_DTYPE_INT16:   return *(const int16_t *) p;
    case FX_DTYPE_INT32:   return *(const int32_t *) p;
    case FX_DTYPE_INT64:   return *(const int64_t *) p;
    default:               return double_to_i64 (load_double (p, dtype));
    }
}

static void
store_double (void *p, FxDType dtype, double v)
{
  convert_row (p, dtype, 1, &v, FX_DTYPE_FLOAT64, 1, 1);
}

static void
store_int64 (void *p, FxDType dtype, int64_t v)
{
  convert_row (p, dtype, 1, &v, FX_DTYPE_INT64, 1, 1);
}

/* ------------------------------------------------------------------ small helpers */

static gboolean
check_ndim (int ndim, GError **error)
{
  if (ndim < 0 || ndim > FX_TENSOR_MAX_DIMS)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "libfx tensors have at most %d dimensions, got %d", FX_TENSOR_MAX_DIMS, ndim);
      return FALSE;
    }
  return TRUE;
}

/* Contiguous strides as PyTorch computes them (a size-0 dim counts as 1). */
static void
contiguous_strides (int ndim, const int64_t *shape, int64_t *strides)
{
  int64_t z = 1;
  for (int i = ndim - 1; i >= 0; i--)
    {
      strides[i] = z;
      z *= shape[i] > 1 ? shape[i] : 1;
    }
}

static int64_t
shape_numel (int ndim, const int64_t *shape)
{
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  return n;
}

/* numel with overflow detection; -1 when the product does not fit. */
static int64_t
checked_numel (int ndim, const int64_t *shape)
{
  int64_t n = 1;
  gboolean zero = FALSE;
  for (int i = 0; i < ndim; i++)
    if (shape[i] == 0)
      zero = TRUE;
  if (zero)
    return 0;
  /* __builtin_mul_overflow, not a division per dimension: a 64-bit division takes tens of
   * cycles on Intel's cores, and every new tensor comes here */
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0 || __builtin_mul_overflow (n, shape[i], &n))
      return -1;
  return n;
}

/* ------------------------------------------------------------------ storage */

/* Freed big buffers are kept for reuse, keyed by their exact size: a model's forward pass
 * allocates the same activation sizes on every run, and a fresh multi-megabyte buffer from
 * malloc is a fresh mmap whose every page faults on first touch (that cost was ~10% of a
 * ResNet forward). Blocks below CACHE_MIN stay with malloc, which recycles those well; the
 * cache holds at most CACHE_MAX bytes, and a block that does not fit is freed. */
#define CACHE_MIN ((gsize) 64 << 10)
#define CACHE_MAX ((gsize) 256 << 20)

static struct {
  GMutex lock;
  GHashTable *by_size;     /* gsize → GSList of free blocks of that size */
  gsize bytes;
} buffer_cache;

static void *
cache_take (gsize alloc)
{
  void *data = NULL;
  if (alloc < CACHE_MIN)
    return NULL;
  g_mutex_lock (&buffer_cache.lock);
  if (buffer_cache.by_size != NULL)
    {
      GSList *list = g_hash_table_lookup (buffer_cache.by_size, GSIZE_TO_POINTER (alloc));
      if (list != NULL)
        {
          data = list->data;
          list = g_slist_delete_link (list, list);
          if (list != NULL)
            g_hash_table_insert (buffer_cache.by_size, GSIZE_TO_POINTER (alloc), list);
          else
            g_hash_table_remove (buffer_cache.by_size, GSIZE_TO_POINTER (alloc));
          buffer_cache.bytes -= alloc;
        }
    }
  g_mutex_unlock (&buffer_cache.lock);
  return data;
}

static void
cache_give (void *data, gsize alloc)
{
  if (alloc >= CACHE_MIN)
    {
      g_mutex_lock (&buffer_cache.lock);
      if (buffer_cache.bytes + alloc <= CACHE_MAX)
        {
          if (buffer_cache.by_size == NULL)
            buffer_cache.by_size = g_hash_table_new (g_direct_hash, g_direct_equal);
          GSList *list = g_hash_table_lookup (buffer_cache.by_size, GSIZE_TO_POINTER (alloc));
          g_hash_table_insert (buffer_cache.by_size, GSIZE_TO_POINTER (alloc),
                               g_slist_prepend (list, data));
          buffer_cache.bytes += alloc;
          data = NULL;
        }
      g_mutex_unlock (&buffer_cache.lock);
    }
  free (data);
}

/* The size storage_alloc really allocates for nbytes: rounded up so that vector loops may
 * read whole 64-byte lines. 0 when it overflows. */
static gsize
storage_alloc_size (gsize nbytes)
{
  gsize alloc = nbytes ? nbytes : 1;
  if (alloc > G_MAXSIZE - FX_STORAGE_ALIGN)
    return 0;
  return (alloc + FX_STORAGE_ALIGN - 1) & ~(gsize) (FX_STORAGE_ALIGN - 1);
}

/* Small buffers live in the same malloc block as their FxStorage, after it at the next
 * 64-byte boundary: one plain malloc (which glibc serves from its per-thread cache) instead
 * of an aligned allocation plus the struct — on a chain of tiny ops, the allocator was most
 * of the time. Whether a storage is laid out so follows from its size alone. */
#define INLINE_MAX ((gsize) 512)

static inline gboolean
storage_is_inline (gsize alloc)
{
  return alloc <= INLINE_MAX;
}

static inline void *
storage_inline_data (FxStorage *s)
{
  guintptr p = (guintptr) (s + 1);
  return (void *) ((p + FX_STORAGE_ALIGN - 1) & ~(guintptr) (FX_STORAGE_ALIGN - 1));
}

/* A storage struct at s over data (nothing else set). */
static FxStorage *
storage_init (FxStorage *s, gsize nbytes, void *data, gboolean owned)
{
  memset (s, 0, sizeof *s);
  g_atomic_ref_count_init (&s->ref);
  s->nbytes = nbytes;
  s->data = data;
  s->owned = owned;
  return s;
}

static FxStorage *
storage_alloc (gsize nbytes, gboolean zero)
{
  FxStorage *s;
  gsize alloc = storage_alloc_size (nbytes);
  void *data = NULL;

  if (alloc == 0)
    return NULL;
  if (storage_is_inline (alloc))
    {
      s = g_malloc (sizeof (FxStorage) + FX_STORAGE_ALIGN + alloc);
      storage_init (s, nbytes, storage_inline_data (s), TRUE);
      if (zero)
        memset (s->data, 0, alloc);
      return s;
    }
  data = cache_take (alloc);
  if (data == NULL && posix_memalign (&data, FX_STORAGE_ALIGN, alloc) != 0)
    return NULL;
  if (zero)
    memset (data, 0, alloc);
  return storage_init (g_malloc (sizeof (FxStorage)), nbytes, data, TRUE);
}

FxStorage *
fx_storage_new (gsize nbytes)
{
  return storage_alloc (nbytes, TRUE);
}

FxStorage *
fx_storage_new_uninit (gsize nbytes)
{
  return storage_alloc (nbytes, FALSE);
}

FxStorage *
fx_storage_new_borrowed (void *data, gsize nbytes, GDestroyNotify free_func, gpointer free_data)
{
  FxStorage *s = storage_init (g_malloc (sizeof (FxStorage)), nbytes, data, FALSE);
  s->free_func = free_func;
  s->free_data = free_data;
  return s;
}

FxStorage *
fx_storage_ref (FxStorage *storage)
{
  g_return_val_if_fail (storage != NULL, NULL);
  g_atomic_int_inc (&storage->ref);
  return storage;
}

/* A small fresh tensor is one malloc block: the struct, its storage and the data. The
 * storage can outlive the tensor (views) and the tensor its storage (when something swaps
 * t->storage), so the block goes when both are gone. An owned storage whose free_data is set
 * lives in the block free_data points to. */
typedef struct {
  FxTensor tensor;
  FxStorage storage;
  gint alive;           /* 2 while both live */
} TensorBlock;

static void
block_release (TensorBlock *b)
{
  if (g_atomic_int_dec_and_test (&b->alive))
    g_free (b);
}

void
fx_storage_unref (FxStorage *storage)
{
  if (storage == NULL)
    return;
  if (!g_atomic_int_dec_and_test (&storage->ref))
    return;
  if (storage->owned && storage->free_data != NULL)
    {
      block_release (storage->free_data);
      return;
    }
  if (storage->owned)
    {
      gsize alloc = storage_alloc_size (storage->nbytes);
      if (!storage_is_inline (alloc))   /* inline data goes with the struct */
        cache_give (storage->data, alloc);
    }
  else if (storage->free_func)
    storage->free_func (storage->free_data);
  g_free (storage);
}

/* ------------------------------------------------------------------ lifetime */

FxTensor *
fx_tensor_ref (FxTensor *t)
{
  g_return_val_if_fail (t != NULL, NULL);
  g_atomic_int_inc (&t->ref);
  return t;
}

void
fx_tensor_unref (FxTensor *t)
{
  if (t == NULL)
    return;
  if (!g_atomic_int_dec_and_test (&t->ref))
    return;
  fx_tensor_unref (t->view_base);   /* a base is no view (views point to the first base) */
  fx_storage_unref (t->storage);
  if (t->in_block)
    block_release ((TensorBlock *) t);
  else
    g_free (t);
}

/* ------------------------------------------------------------------ creation */

/* Fills the tensor struct at t, on storage, whose reference it takes over. */
__attribute__ ((optimize ("no-tree-loop-distribute-patterns"))) static FxTensor *
tensor_init (FxTensor *t, FxStorage *storage, FxDType dtype, int ndim, const int64_t *shape,
             const int64_t *strides, int64_t offset)
{
  /* Plain stores, not memset and memcpy: GCC made them `rep stos` and `rep movs`, whose
   * start-up cost (tens of cycles each on Intel's cores) was a fifth of a tiny op. */
  typedef guint64 __attribute__ ((may_alias)) Word;
  G_STATIC_ASSERT (sizeof (FxTensor) % sizeof (Word) == 0);
  Word *words = (Word *) t;
  for (gsize i = 0; i < sizeof *t / sizeof *words; i++)
    words[i] = 0;
  g_atomic_ref_count_init (&t->ref);
  t->storage = storage;
  t->dtype = dtype;
  t->ndim = ndim;
  for (int i = 0; i < ndim; i++)
    t->shape[i] = shape[i];
  if (strides)
    for (int i = 0; i < ndim; i++)
      t->strides[i] = strides[i];
  else
    contiguous_strides (ndim, shape, t->strides);
  t->offset = offset;
  return t;
}

static FxTensor *
tensor_alloc (FxStorage *storage, FxDType dtype, int ndim, const int64_t *shape,
              const int64_t *strides, int64_t offset)
{
  /* g_malloc, not g_new0: glibc's calloc bypasses its per-thread cache (tensor_init zeroes) */
  return tensor_init (g_malloc (sizeof (FxTensor)), fx_storage_ref (storage), dtype, ndim,
                      shape, strides, offset);
}

/* A fresh contiguous tensor of nbytes (alloc rounded up, small) in one TensorBlock. */
static FxTensor *
tensor_new_in_block (FxDType dtype, int ndim, const int64_t *shape, gsize nbytes, gsize alloc,
                     gboolean zero)
{
  TensorBlock *b = g_malloc (sizeof *b + FX_STORAGE_ALIGN + alloc);
  guintptr data = ((guintptr) (b + 1) + FX_STORAGE_ALIGN - 1) & ~(guintptr) (FX_STORAGE_ALIGN - 1);
  FxStorage *s = storage_init (&b->storage, nbytes, (void *) data, TRUE);
  FxTensor *t;

  s->free_data = b;
  if (zero)
    memset (s->data, 0, alloc);
  b->alive = 2;
  t = tensor_init (&b->tensor, s, dtype, ndim, shape, NULL, 0);
  t->in_block = TRUE;
  return t;
}

static FxTensor *
tensor_new_contiguous (FxDType dtype, int ndim, const int64_t *shape, gboolean zero)
{
  FxStorage *storage;
  int64_t numel;
  gsize nbytes, alloc;

  g_return_val_if_fail ((unsigned) dtype < FX_DTYPE_N, NULL);
  g_return_val_if_fail (ndim >= 0 && ndim <= FX_TENSOR_MAX_DIMS, NULL);
  g_return_val_if_fail (ndim == 0 || shape != NULL, NULL);
  numel = checked_numel (ndim, shape);
  if (numel < 0 || (guint64) numel > G_MAXSIZE / 8)
    return NULL;
  nbytes = (gsize) numel * fx_dtype_size (dtype);
  alloc = storage_alloc_size (nbytes);
  if (alloc != 0 && storage_is_inline (alloc))
    return tensor_new_in_block (dtype, ndim, shape, nbytes, alloc, zero);
  storage = storage_alloc (nbytes, zero);
  if (storage == NULL)
    return NULL;
  return tensor_init (g_malloc (sizeof (FxTensor)), storage, dtype, ndim, shape, NULL, 0);
}

FxTensor *
fx_tensor_new_uninit (FxDType dtype, int ndim, const int64_t *shape)
{
  return tensor_new_contiguous (dtype, ndim, shape, FALSE);
}

FxTensor *
fx_tensor_zeros (FxDType dtype, int ndim, const int64_t *shape)
{
  return tensor_new_contiguous (dtype, ndim, shape, TRUE);
}

FxTensor *
fx_tensor_full (FxDType dtype, int ndim, const int64_t *shape, double value)
{
  FxTensor *t = tensor_new_contiguous (dtype, ndim, shape, FALSE);
  int64_t n;
  char *data;
  gsize es;

  if (t == NULL)
    return NULL;
  n = fx_tensor_numel (t);
  data = t->storage->data;
  es = fx_dtype_size (dtype);
  if (n == 0)
    return t;
  store_double (data, dtype, value);
  switch (dtype)
    {
    case FX_DTYPE_FLOAT32:
      {
        float v = *(float *) data, *p = (float *) data;
        for (int64_t i = 1; i < n; i++)
          p[i] = v;
        break;
      }
    case FX_DTYPE_FLOAT64:
      {
        double v = *(double *) data, *p = (double *) data;
        for (int64_t i = 1; i < n; i++)
          p[i] = v;
        break;
      }
    default:
      if (es == 1)
        memset (data + 1, data[0], (size_t) n - 1);
      else
        {
          /* doubling memcpy: log(n) calls */
          int64_t done = 1;
          while (done < n)
            {
              int64_t chunk = MIN (done, n - done);
              memcpy (data + done * es, data, (size_t) chunk * es);
              done += chunk;
            }
        }
      break;
    }
  return t;
}

FxTensor *
fx_tensor_ones (FxDType dtype, int ndim, const int64_t *shape)
{
  return fx_tensor_full (dtype, ndim, shape, 1.0);
}

FxTensor *
fx_tensor_new_from_data (FxDType dtype, int ndim, const int64_t *shape, const void *data)
{
  FxTensor *t = tensor_new_contiguous (dtype, ndim, shape, FALSE);
  int64_t n;

  if (t == NULL)
    return NULL;
  n = fx_tensor_numel (t);
  if (n > 0)
    memcpy (t->storage->data, data, (size_t) n * fx_dtype_size (dtype));
  return t;
}

FxTensor *
fx_tensor_new_view (FxStorage *storage, FxDType dtype, int ndim, const int64_t *shape,
                    const int64_t *strides, int64_t offset)
{
  g_return_val_if_fail (storage != NULL, NULL);
  g_return_val_if_fail ((unsigned) dtype < FX_DTYPE_N, NULL);
  g_return_val_if_fail (ndim >= 0 && ndim <= FX_TENSOR_MAX_DIMS, NULL);
  return tensor_alloc (storage, dtype, ndim, shape, strides, offset);
}

FxTensor *
fx_tensor_scalar_double (FxDType dtype, double value)
{
  return fx_tensor_full (dtype, 0, NULL, value);
}

FxTensor *
fx_tensor_scalar_int64 (FxDType dtype, int64_t value)
{
  FxTensor *t = tensor_new_contiguous (dtype, 0, NULL, FALSE);
  if (t)
    store_int64 (t->storage->data, dtype, value);
  return t;
}

static FxTensor *
scalar_box (FxScalarBox *box, FxDType dtype)
{
  FxStorage *s = storage_init (&box->storage, sizeof box->value, &box->value, FALSE);
  FxTensor *t = tensor_init (&box->tensor, s, dtype, 0, NULL, NULL, 0);

  t->wrapped_number = TRUE;
  return t;
}

FxTensor *
fx_scalar_box_double (FxScalarBox *box, double value)
{
  box->value.d = value;
  return scalar_box (box, FX_DTYPE_FLOAT64);
}

FxTensor *
fx_scalar_box_int64 (FxScalarBox *box, int64_t value)
{
  box->value.i = value;
  return scalar_box (box, FX_DTYPE_INT64);
}

FxTensor *
fx_scalar_box_bool (FxScalarBox *box, gboolean value)
{
  box->value.b = value != 0;
  return scalar_box (box, FX_DTYPE_BOOL);
}

FxTensor *
fx_tensor_wrap_double (double value)
{
  FxTensor *t = fx_tensor_scalar_double (FX_DTYPE_FLOAT64, value);
  t->wrapped_number = TRUE;
  return t;
}

FxTensor *
fx_tensor_wrap_int64 (int64_t value)
{
  FxTensor *t = fx_tensor_scalar_int64 (FX_DTYPE_INT64, value);
  t->wrapped_number = TRUE;
  return t;
}

FxTensor *
fx_tensor_wrap_bool (gboolean value)
{
  FxTensor *t = fx_tensor_scalar_int64 (FX_DTYPE_BOOL, value ? 1 : 0);
  t->wrapped_number = TRUE;
  return t;
}

/* ------------------------------------------------------------------ inspection */

int64_t
fx_tensor_numel (const FxTensor *t)
{
  return shape_numel (t->ndim, t->shape);
}

int64_t
fx_tensor_size (const FxTensor *t, int dim)
{
  int d;
  if (!fx_tensor_wrap_dim (dim, t->ndim, &d, NULL))
    return -1;
  return t->ndim == 0 ? 1 : t->shape[d];
}

static gboolean
is_contiguous_layout (int ndim, const int64_t *shape, const int64_t *strides)
{
  int64_t z = 1;
  for (int i = ndim - 1; i >= 0; i--)
    {
      if (shape[i] == 0)
        return TRUE;
      if (shape[i] != 1)
        {
          if (strides[i] != z)
            return FALSE;
          z *= shape[i];
        }
    }
  return TRUE;
}

gboolean
fx_tensor_is_contiguous (const FxTensor *t)
{
  /* an empty tensor is contiguous whatever its strides */
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] == 0)
      return TRUE;
  return is_contiguous_layout (t->ndim, t->shape, t->strides);
}

gsize
fx_tensor_element_size (const FxTensor *t)
{
  return fx_dtype_size (t->dtype);
}

void *
fx_tensor_data (const FxTensor *t)
{
  return (char *) t->storage->data + t->offset * (int64_t) fx_dtype_size (t->dtype);
}

gboolean
fx_tensor_same_shape (const FxTensor *a, const FxTensor *b)
{
  if (a->ndim != b->ndim)
    return FALSE;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i])
      return FALSE;
  return TRUE;
}

gboolean
fx_tensor_wrap_dim (int dim, int ndim, int *out, GError **error)
{
  int n = ndim > 0 ? ndim : 1;   /* a 0-d tensor accepts dims -1 and 0 */
  if (dim < -n || dim >= n)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                   -n, n - 1, dim);
      return FALSE;
    }
  if (out)
    *out = dim < 0 ? dim + n : dim;
  return TRUE;
}

/* Element offset (relative to the view's data) of a flat row-major index. */
static int64_t
flat_to_offset (const FxTensor *t, int64_t flat)
{
  int64_t off = 0;
  for (int i = t->ndim - 1; i >= 0; i--)
    {
      int64_t s = t->shape[i];
      if (s <= 0)
        return 0;
      off += (flat % s) * t->strides[i];
      flat /= s;
    }
  return off;
}

double
fx_tensor_get_double (const FxTensor *t, int64_t flat_index)
{
  int64_t n = fx_tensor_numel (t);
  g_return_val_if_fail (flat_index >= 0 && flat_index < n, 0.0);
  return load_double ((const char *) fx_tensor_data (t)
                        + flat_to_offset (t, flat_index) * (int64_t) fx_dtype_size (t->dtype),
                      t->dtype);
}

int64_t
fx_tensor_get_int64 (const FxTensor *t, int64_t flat_index)
{
  int64_t n = fx_tensor_numel (t);
  g_return_val_if_fail (flat_index >= 0 && flat_index < n, 0);
  return load_int64 ((const char *) fx_tensor_data (t)
                       + flat_to_offset (t, flat_index) * (int64_t) fx_dtype_size (t->dtype),
                     t->dtype);
}

static gboolean
check_item (const FxTensor *t, GError **error)
{
  if (fx_tensor_numel (t) != 1)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           "only one element tensors can be converted to Python scalars");
      return FALSE;
    }
  return TRUE;
}

gboolean
fx_tensor_item_double (const FxTensor *t, double *out, GError **error)
{
  if (!check_item (t, error))
    return FALSE;
  *out = fx_tensor_get_double (t, 0);
  return TRUE;
}

gboolean
fx_tensor_item_int64 (const FxTensor *t, int64_t *out, GError **error)
{
  if (!check_item (t, error))
    return FALSE;
  *out = fx_tensor_get_int64 (t, 0);
  return TRUE;
}

/* ------------------------------------------------------------------ strided copy */

/* Drops size-1 dims and merges dims that are adjacent in memory for both operands, so the
 * loops below run over as few and as long rows as possible. Returns the new ndim. */
static int
coalesce2 (int ndim, const int64_t *shape, const int64_t *sa, const int64_t *sb,
           int64_t *oshape, int64_t *oa, int64_t *ob)
{
  int n = 0;
  for (int i = 0; i < ndim; i++)
    {
      if (shape[i] == 1)
        continue;
      if (n > 0 && oa[n - 1] == sa[i] * shape[i] && ob[n - 1] == sb[i] * shape[i])
        {
          oshape[n - 1] *= shape[i];
          oa[n - 1] = sa[i];
          ob[n - 1] = sb[i];
          continue;
        }
      oshape[n] = shape[i];
      oa[n] = sa[i];
      ob[n] = sb[i];
      n++;
    }
  return n;
}

/* The last two dims of a copy whose source runs along the other dim than the destination (a
 * transpose): copying in square tiles keeps both sides in cache. */
#define COPY_TILE 16

static void
copy_tiled_2d (char *dst, FxDType dt, int64_t dr, int64_t dc, const char *src, FxDType st,
               int64_t sr, int64_t sc, int64_t rows, int64_t cols)
{
  int64_t des = (int64_t) fx_dtype_size (dt), ses = (int64_t) fx_dtype_size (st);

  if (dt == st && (des == 4 || des == 8) && dc == 1)
    {
      /* the common transpose-to-contiguous case, without per-row dispatch */
#define TILE_LOOP(CT)                                                                     \
      for (int64_t rb = 0; rb < rows; rb += COPY_TILE)                                    \
        for (int64_t cb = 0; cb < cols; cb += COPY_TILE)                                  \
          {                                                                               \
            int64_t rend = MIN (rb + COPY_TILE, rows), cend = MIN (cb + COPY_TILE, cols); \
            for (int64_t r = rb; r < rend; r++)                                           \
              {                                                                           \
                CT *d_ = (CT *) dst + r * dr;                                             \
                const CT *s_ = (const CT *) src + r * sr;                                 \
                for (int64_t c = cb; c < cend; c++)                                       \
                  d_[c] = s_[c * sc];                                                     \
              }                                                                           \
          }
      if (des == 4)
        TILE_LOOP (uint32_t)
      else
        TILE_LOOP (uint64_t)
#undef TILE_LOOP
      return;
    }
  for (int64_t rb = 0; rb < rows; rb += COPY_TILE)
    for (int64_t cb = 0; cb < cols; cb += COPY_TILE)
      {
        int64_t rend = MIN (rb + COPY_TILE, rows), clen = MIN (COPY_TILE, cols - cb);
        for (int64_t r = rb; r < rend; r++)
          convert_row (dst + (r * dr + cb * dc) * des, dt, dc, src + (r * sr + cb * sc) * ses, st,
                       sc, clen);
      }
}

/* dst (dtype dt, strides ds) = src (dtype st, strides ss), both of shape `shape`. */
static void
copy_strided (void *dst, FxDType dt, const int64_t *dstrides, const void *src, FxDType st,
              const int64_t *sstrides, int ndim, const int64_t *shape)
{
  int64_t cs[FX_TENSOR_MAX_DIMS], cd[FX_TENSOR_MAX_DIMS], css[FX_TENSOR_MAX_DIMS];
  int64_t idx[FX_TENSOR_MAX_DIMS];
  int64_t doff = 0, soff = 0, rows = 1;
  gsize des = fx_dtype_size (dt), ses = fx_dtype_size (st);
  int n, inner;
  gboolean tiled;

  if (shape_numel (ndim, shape) == 0)
    return;
  n = coalesce2 (ndim, shape, dstrides, sstrides, cs, cd, css);
  if (n == 0)
    {
      convert_row (dst, dt, 1, src, st, 1, 1);
      return;
    }
  tiled = n >= 2 && cs[n - 1] >= COPY_TILE && cs[n - 2] >= COPY_TILE
          && css[n - 1] != 1 && css[n - 2] == 1 && cd[n - 1] == 1;
  inner = tiled ? 2 : 1;
  for (int i = 0; i < n - inner; i++)
    {
      rows *= cs[i];
      idx[i] = 0;
    }
  for (int64_t r = 0; r < rows; r++)
    {
      if (tiled)
        copy_tiled_2d ((char *) dst + doff * (int64_t) des, dt, cd[n - 2], cd[n - 1],
                       (const char *) src + soff * (int64_t) ses, st, css[n - 2], css[n - 1],
                       cs[n - 2], cs[n - 1]);
      else
        convert_row ((char *) dst + doff * (int64_t) des, dt, cd[n - 1],
                     (const char *) src + soff * (int64_t) ses, st, css[n - 1], cs[n - 1]);
      /* odometer step over the outer dims */
      for (int d = n - inner - 1; d >= 0; d--)
        {
          doff += cd[d];
          soff += css[d];
          if (++idx[d] < cs[d])
            break;
          doff -= cd[d] * cs[d];
          soff -= css[d] * cs[d];
          idx[d] = 0;
        }
    }
}

static FxTensor *
clone_as (const FxTensor *t, FxDType dtype)
{
  FxTensor *out = fx_tensor_new_uninit (dtype, t->ndim, t->shape);
  if (out == NULL)
    return NULL;
  copy_strided (fx_tensor_data (out), dtype, out->strides, fx_tensor_data (t), t->dtype,
                t->strides, t->ndim, t->shape);
  return out;
}

FxTensor *
fx_tensor_contiguous (FxTensor *t)
{
  if (fx_tensor_is_contiguous (t))
    return fx_tensor_ref (t);
  return clone_as (t, t->dtype);
}

FxTensor *
fx_tensor_clone (const FxTensor *t)
{
  return clone_as (t, t->dtype);
}

FxTensor *
fx_tensor_to_dtype (FxTensor *t, FxDType dtype)
{
  if (t->dtype == dtype)
    return fx_tensor_ref (t);
  return clone_as (t, dtype);
}

static gboolean
is_non_overlapping_and_dense (const FxTensor *t)
{
  int64_t sz[FX_TENSOR_MAX_DIMS], st[FX_TENSOR_MAX_DIMS];
  int n = 0;
  int64_t expected = 1;

  for (int i = 0; i < t->ndim; i++)
    {
      if (t->shape[i] == 0)
        return TRUE;
      if (t->shape[i] == 1)
        continue;
      /* insertion sort by stride: ndim is tiny */
      int j = n++;
      while (j > 0 && st[j - 1] > t->strides[i])
        {
          st[j] = st[j - 1];
          sz[j] = sz[j - 1];
          j--;
        }
      st[j] = t->strides[i];
      sz[j] = t->shape[i];
    }
  for (int i = 0; i < n; i++)
    {
      if (st[i] != expected)
        return FALSE;
      expected *= sz[i];
    }
  return TRUE;
}

/* Byte range [lo, hi) spanned by a view's elements. */
static void
byte_span (const FxTensor *t, int64_t *lo, int64_t *hi)
{
  int64_t es = (int64_t) fx_dtype_size (t->dtype);
  int64_t min = t->offset, max = t->offset;
  for (int i = 0; i < t->ndim; i++)
    {
      int64_t ext = (t->shape[i] - 1) * t->strides[i];
      if (ext < 0)
        min += ext;
      else
        max += ext;
    }
  *lo = min * es;
  *hi = (max + 1) * es;
}

static gboolean
same_layout (const FxTensor *a, const FxTensor *b)
{
  if (a->storage != b->storage || a->dtype != b->dtype || a->offset != b->offset
      || !fx_tensor_same_shape (a, b))
    return FALSE;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] > 1 && a->strides[i] != b->strides[i])
      return FALSE;
  return TRUE;
}

static const char overlap_internal_msg[] =
  "unsupported operation: more than one element of the written-to tensor refers to a single "
  "memory location. Please clone() the tensor before performing the operation.";
static const char overlap_partial_msg[] =
  "unsupported operation: some elements of the input tensor and the written-to tensor refer "
  "to a single memory location. Please clone() the tensor before performing the operation.";

gboolean
fx_tensor_copy_into (FxTensor *dst, const FxTensor *src, GError **error)
{
  int64_t bshape[FX_TENSOR_MAX_DIMS], sstrides[FX_TENSOR_MAX_DIMS];
  int bndim;
  FxTensor *tmp = NULL;
  const FxTensor *from = src;

  for (int i = 0; i < dst->ndim; i++)
    if (dst->strides[i] == 0 && dst->shape[i] > 1)
      {
        g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, overlap_internal_msg);
        return FALSE;
      }
  if (!fx_broadcast_shapes (dst->ndim, dst->shape, src->ndim, src->shape, &bndim, bshape, error))
    return FALSE;
  if (bndim != dst->ndim || memcmp (bshape, dst->shape, sizeof (int64_t) * bndim) != 0)
    {
      char *a = fx_shape_to_string (dst->ndim, dst->shape), *b = fx_shape_to_string (bndim, bshape);
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "output with shape %s doesn't match the broadcast shape %s", a, b);
      g_free (a);
      g_free (b);
      return FALSE;
    }
  if (fx_tensor_numel (dst) == 0)
    return TRUE;
  if (src->storage == dst->storage)
    {
      int64_t dlo, dhi, slo, shi;
      if (same_layout (dst, src))
        return TRUE;
      byte_span (dst, &dlo, &dhi);
      byte_span (src, &slo, &shi);
      if (dlo < shi && slo < dhi)
        {
          if (is_non_overlapping_and_dense (dst) && is_non_overlapping_and_dense (src))
            {
              g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, overlap_partial_msg);
              return FALSE;
            }
          /* PyTorch cannot tell either; we copy from a snapshot so the result is defined */
          tmp = fx_tensor_clone (src);
          if (tmp == NULL)
            {
              g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
              return FALSE;
            }
          from = tmp;
        }
    }
  /* strides of src broadcast to dst's shape */
  for (int i = 0; i < dst->ndim; i++)
    {
      int si = i - (dst->ndim - from->ndim);
      sstrides[i] = (si < 0 || from->shape[si] == 1) ? 0 : from->strides[si];
    }
  copy_strided (fx_tensor_data (dst), dst->dtype, dst->strides, fx_tensor_data (from),
                from->dtype, sstrides, dst->ndim, dst->shape);
  if (tmp)
    fx_tensor_unref (tmp);
  return TRUE;
}

/* ------------------------------------------------------------------ views */

static FxTensor *
make_view (FxTensor *t, int ndim, const int64_t *shape, const int64_t *strides, int64_t offset)
{
  return tensor_alloc (t->storage, t->dtype, ndim, shape, strides, offset);
}

/* Resolves one -1 in a requested shape (PyTorch's infer_size). */
static gboolean
infer_size (int ndim, const int64_t *shape, int64_t numel, int64_t *out, GError **error)
{
  int infer = -1;
  int64_t prod = 1;
  gboolean overflow = FALSE;

  for (int i = 0; i < ndim; i++)
    {
      out[i] = shape[i];
      if (shape[i] == -1)
        {
          if (infer >= 0)
            {
              g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE,
                                   "only one dimension can be inferred");
              return FALSE;
            }
          infer = i;
        }
      else if (shape[i] >= 0)
        {
          if (shape[i] != 0 && prod > INT64_MAX / shape[i])
            overflow = TRUE;
          else
            prod *= shape[i];
        }
      else
        {
          g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                       "invalid shape dimension %" G_GINT64_FORMAT, shape[i]);
          return FALSE;
        }
    }
  if (!overflow)
    {
      if (infer < 0 && prod == numel)
        return TRUE;
      if (infer >= 0)
        {
          if (prod == 0)
            {
              if (numel == 0)
                {
                  char *s = fx_shape_to_string (ndim, shape);
                  g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                               "cannot reshape tensor of 0 elements into shape %s because the "
                               "unspecified dimension size -1 can be any value and is ambiguous",
                               s);
                  g_free (s);
                  return FALSE;
                }
            }
          else if (numel % prod == 0)
            {
              out[infer] = numel / prod;
              return TRUE;
            }
        }
    }
  {
    char *s = fx_shape_to_string (ndim, shape);
    g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "shape '%s' is invalid for input of size %"
                 G_GINT64_FORMAT, s, numel);
    g_free (s);
  }
  return FALSE;
}

/* Strides that let a tensor of (oshape, ostride) be viewed as nshape without copying, or FALSE
 * when a new dim would span two memory-contiguous chunks of the old layout. Same decisions as
 * PyTorch's computeStride: walk old dims from the back in chunks of mutually contiguous
 * dims, and cover each chunk exactly with new dims. */
static gboolean
compute_view_strides (int ondim, const int64_t *oshape, const int64_t *ostride, int nndim,
                      const int64_t *nshape, int64_t *nstride)
{
  int64_t numel = shape_numel (ondim, oshape);
  int view_d;
  int64_t chunk_base, tensor_numel, view_numel;

  if (numel == 0)
    {
      if (ondim == nndim && memcmp (oshape, nshape, sizeof (int64_t) * ondim) == 0)
        memcpy (nstride, ostride, sizeof (int64_t) * ondim);
      else
        contiguous_strides (nndim, nshape, nstride);
      return TRUE;
    }
  if (ondim == 0)
    {
      contiguous_strides (nndim, nshape, nstride);
      return TRUE;
    }

  view_d = nndim - 1;
  chunk_base = ostride[ondim - 1];
  tensor_numel = 1;
  view_numel = 1;
  for (int td = ondim - 1; td >= 0; td--)
    {
      tensor_numel *= oshape[td];
      if (td == 0 || (oshape[td - 1] != 1 && ostride[td - 1] != tensor_numel * chunk_base))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || nshape[view_d] == 1))
            {
              nstride[view_d] = view_numel * chunk_base;
              view_numel *= nshape[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (td > 0)
            {
              chunk_base = ostride[td - 1];
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

FxTensor *
fx_tensor_view (FxTensor *t, int ndim, const int64_t *shape, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];

  if (!check_ndim (ndim, error)
      || !infer_size (ndim, shape, fx_tensor_numel (t), nshape, error))
    return NULL;
  if (!compute_view_strides (t->ndim, t->shape, t->strides, ndim, nshape, nstride))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE,
                           "view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.");
      return NULL;
    }
  return make_view (t, ndim, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_reshape (FxTensor *t, int ndim, const int64_t *shape, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  FxTensor *c, *out;

  if (!check_ndim (ndim, error)
      || !infer_size (ndim, shape, fx_tensor_numel (t), nshape, error))
    return NULL;
  if (compute_view_strides (t->ndim, t->shape, t->strides, ndim, nshape, nstride))
    return make_view (t, ndim, nshape, nstride, t->offset);
  c = fx_tensor_clone (t);
  if (c == NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED, "out of memory");
      return NULL;
    }
  contiguous_strides (ndim, nshape, nstride);
  out = make_view (c, ndim, nshape, nstride, 0);
  fx_tensor_unref (c);
  return out;
}

FxTensor *
fx_tensor_permute (FxTensor *t, int ndim, const int *dims, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  gboolean seen[FX_TENSOR_MAX_DIMS] = { FALSE };

  if (ndim != t->ndim)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "permute(sparse_coo): number of dimensions in the tensor input does not "
                   "match the length of the desired ordering of dimensions i.e. input.dim() = "
                   "%d is not equal to len(dims) = %d", t->ndim, ndim);
      return NULL;
    }
  for (int i = 0; i < ndim; i++)
    {
      int d;
      if (!fx_tensor_wrap_dim (dims[i], t->ndim, &d, error))
        return NULL;
      if (t->ndim == 0)
        continue;
      if (seen[d])
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                               "permute(): duplicate dims are not allowed.");
          return NULL;
        }
      seen[d] = TRUE;
      nshape[i] = t->shape[d];
      nstride[i] = t->strides[d];
    }
  return make_view (t, t->ndim, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_transpose (FxTensor *t, int dim0, int dim1, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  int a, b;

  if (!fx_tensor_wrap_dim (dim0, t->ndim, &a, error)
      || !fx_tensor_wrap_dim (dim1, t->ndim, &b, error))
    return NULL;
  if (t->ndim == 0)
    return make_view (t, 0, NULL, NULL, t->offset);
  memcpy (nshape, t->shape, sizeof (int64_t) * t->ndim);
  memcpy (nstride, t->strides, sizeof (int64_t) * t->ndim);
  nshape[a] = t->shape[b];
  nstride[a] = t->strides[b];
  nshape[b] = t->shape[a];
  nstride[b] = t->strides[a];
  return make_view (t, t->ndim, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_t (FxTensor *t, GError **error)
{
  if (t->ndim > 2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
      return NULL;
    }
  if (t->ndim < 2)
    return make_view (t, t->ndim, t->shape, t->strides, t->offset);
  return fx_tensor_transpose (t, 0, 1, error);
}

FxTensor *
fx_tensor_expand (FxTensor *t, int ndim, const int64_t *shape, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];

  if (!check_ndim (ndim, error))
    return NULL;
  if (ndim < t->ndim)
    {
      char *a = fx_shape_to_string (t->ndim, t->shape), *b = fx_shape_to_string (ndim, shape);
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater "
                   "or equal to the number of dimensions in the tensor (%d)",
                   fx_dtype_aten_type_name (t->dtype), a, b, ndim, t->ndim);
      g_free (a);
      g_free (b);
      return NULL;
    }
  for (int i = ndim - 1; i >= 0; i--)
    {
      int off = ndim - 1 - i;
      int td = t->ndim - 1 - off;
      int64_t size = td >= 0 ? t->shape[td] : 1;
      /* a new leading dim of size 1 gets the stride it would have if contiguous with the
       * next one, as PyTorch computes it (it shows in .stride()) */
      int64_t stride = td >= 0 ? t->strides[td] : (i + 1 < ndim ? nshape[i + 1] * nstride[i + 1] : 0);
      int64_t target = shape[i];

      if (td < 0 && target < 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "The expanded size of the tensor (%" G_GINT64_FORMAT ") isn't allowed "
                       "in a leading, non-existing dimension %d", target, i);
          return NULL;
        }
      if (td >= 0 && target == -1)
        target = size;
      if (size != target)
        {
          if (size != 1 || target < 0)
            {
              char *a = fx_shape_to_string (ndim, shape), *b = fx_shape_to_string (t->ndim, t->shape);
              g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                           "The expanded size of the tensor (%" G_GINT64_FORMAT ") must match "
                           "the existing size (%" G_GINT64_FORMAT ") at non-singleton dimension "
                           "%d.  Target sizes: %s.  Tensor sizes: %s",
                           shape[i], size, i, a, b);
              g_free (a);
              g_free (b);
              return NULL;
            }
          stride = 0;
        }
      nshape[i] = target;
      nstride[i] = stride;
    }
  return make_view (t, ndim, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_squeeze (FxTensor *t, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  int n = 0;
  (void) error;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] != 1)
      {
        nshape[n] = t->shape[i];
        nstride[n] = t->strides[i];
        n++;
      }
  return make_view (t, n, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_squeeze_dim (FxTensor *t, int dim, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  int d, n = 0;

  if (!fx_tensor_wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  if (t->ndim == 0 || t->shape[d] != 1)
    return make_view (t, t->ndim, t->shape, t->strides, t->offset);
  for (int i = 0; i < t->ndim; i++)
    if (i != d)
      {
        nshape[n] = t->shape[i];
        nstride[n] = t->strides[i];
        n++;
      }
  return make_view (t, n, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_unsqueeze (FxTensor *t, int dim, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  int d;

  if (!fx_tensor_wrap_dim (dim, t->ndim + 1, &d, error) || !check_ndim (t->ndim + 1, error))
    return NULL;
  for (int i = 0, j = 0; i <= t->ndim; i++)
    {
      if (i == d)
        {
          nshape[i] = 1;
          nstride[i] = d >= t->ndim ? 1 : t->shape[d] * t->strides[d];
          continue;
        }
      nshape[i] = t->shape[j];
      nstride[i] = t->strides[j];
      j++;
    }
  return make_view (t, t->ndim + 1, nshape, nstride, t->offset);
}

FxTensor *
fx_tensor_narrow (FxTensor *t, int dim, int64_t start, int64_t length, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS];
  int d;
  int64_t size;

  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "narrow() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!fx_tensor_wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  size = t->shape[d];
  if (start != size)
    {
      /* PyTorch wraps start like a dim index, with its message */
      int64_t n = size > 0 ? size : 1;
      if (start < -n || start >= n)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                       "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT
                       ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")",
                       -n, n - 1, start);
          return NULL;
        }
      if (start < 0)
        start += n;
    }
  if (length < 0 || start > size - length)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "start (%" G_GINT64_FORMAT ") + length (%" G_GINT64_FORMAT ") exceeds "
                   "dimension size (%" G_GINT64_FORMAT ").", start, length, size);
      return NULL;
    }
  memcpy (nshape, t->shape, sizeof (int64_t) * t->ndim);
  nshape[d] = length;
  return make_view (t, t->ndim, nshape, t->strides, t->offset + start * t->strides[d]);
}

FxTensor *
fx_tensor_slice (FxTensor *t, int dim, int64_t start, int64_t stop, int64_t step,
                 GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  int d;
  int64_t size, len;

  if (step <= 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           step == 0 ? "slice step cannot be zero"
                                     : "step must be greater than zero");
      return NULL;
    }
  if (!fx_tensor_wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                           "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                           "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
      return NULL;
    }
  size = t->shape[d];
  if (start < 0)
    start = start + size < 0 ? 0 : start + size;
  if (stop < 0)
    stop = stop + size < 0 ? 0 : stop + size;
  if (start > size)
    start = size;
  if (stop > size)
    stop = size;
  len = stop > start ? (stop - start - 1) / step + 1 : 0;
  memcpy (nshape, t->shape, sizeof (int64_t) * t->ndim);
  memcpy (nstride, t->strides, sizeof (int64_t) * t->ndim);
  nshape[d] = len;
  /* a step past the end leaves at most one element: the stride no longer matters */
  nstride[d] = len > 1 ? t->strides[d] * step : t->strides[d];
  return make_view (t, t->ndim, nshape, nstride, t->offset + start * t->strides[d]);
}

FxTensor *
fx_tensor_select (FxTensor *t, int dim, int64_t index, GError **error)
{
  int64_t nshape[FX_TENSOR_MAX_DIMS], nstride[FX_TENSOR_MAX_DIMS];
  int d, n = 0;
  int64_t size, i;

  if (t->ndim == 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INDEX,
                           "select() cannot be applied to a 0-dim tensor.");
      return NULL;
    }
  if (!fx_tensor_wrap_dim (dim, t->ndim, &d, error))
    return NULL;
  size = t->shape[d];
  if (index < -size || index >= size)
    {
      char *s = fx_shape_to_string (t->ndim, t->shape);
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "select(): index %" G_GINT64_FORMAT " out of range for tensor of size %s at "
                   "dimension %d", index, s, d);
      g_free (s);
      return NULL;
    }
  i = index < 0 ? index + size : index;
  for (int k = 0; k < t->ndim; k++)
    if (k != d)
      {
        nshape[n] = t->shape[k];
        nstride[n] = t->strides[k];
        n++;
      }
  return make_view (t, n, nshape, nstride, t->offset + i * t->strides[d]);
}

FxTensor *
fx_tensor_as_strided (FxTensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                      int64_t offset, GError **error)
{
  int64_t last = offset;
  gsize es = fx_dtype_size (t->dtype);

  if (!check_ndim (ndim, error))
    return NULL;
  for (int i = 0; i < ndim; i++)
    if (strides[i] < 0)
      {
        char *s = fx_shape_to_string (ndim, strides);
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "as_strided: Negative strides are not supported at the moment, got "
                     "strides: %s", s);
        g_free (s);
        return NULL;
      }
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0)
      {
        char *s = fx_shape_to_string (ndim, shape);
        g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                     "Trying to create tensor with negative dimension %" G_GINT64_FORMAT ": %s",
                     shape[i], s);
        g_free (s);
        return NULL;
      }
  if (offset < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "Tensor: invalid storage offset %" G_GINT64_FORMAT, offset);
      return NULL;
    }
  if (shape_numel (ndim, shape) > 0)
    {
      gboolean overflow = FALSE;
      for (int i = 0; i < ndim; i++)
        {
          if (strides[i] != 0 && (shape[i] - 1) > (INT64_MAX / 16 - last) / strides[i])
            overflow = TRUE;
          else
            last += (shape[i] - 1) * strides[i];
        }
      if (overflow || (guint64) (last + 1) * es > t->storage->nbytes)
        {
          char *a = fx_shape_to_string (ndim, shape), *b = fx_shape_to_string (ndim, strides);
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "setStorage: sizes %s, strides %s, storage offset %" G_GINT64_FORMAT
                       ", and itemsize %" G_GSIZE_FORMAT " requiring a storage size of %"
                       G_GINT64_FORMAT " are out of bounds for storage of size %" G_GSIZE_FORMAT,
                       a, b, offset, es, overflow ? INT64_MAX : (last + 1) * (int64_t) es,
                       t->storage->nbytes);
          g_free (a);
          g_free (b);
          return NULL;
        }
    }
  return make_view (t, ndim, shape, strides, offset);
}

/* ------------------------------------------------------------------ broadcasting */

gboolean
fx_broadcast_shapes (int ndim_a, const int64_t *shape_a, int ndim_b, const int64_t *shape_b,
                     int *out_ndim, int64_t *out_shape, GError **error)
{
  int n = MAX (ndim_a, ndim_b);
  int64_t tmp[FX_TENSOR_MAX_DIMS];

  if (!check_ndim (n, error))
    return FALSE;
  for (int i = n - 1; i >= 0; i--)
    {
      int ia = i - (n - ndim_a), ib = i - (n - ndim_b);
      int64_t a = ia >= 0 ? shape_a[ia] : 1, b = ib >= 0 ? shape_b[ib] : 1;
      if (a == b || b == 1)
        tmp[i] = a;
      else if (a == 1)
        tmp[i] = b;
      else
        {
          g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                       "The size of tensor a (%" G_GINT64_FORMAT ") must match the size of "
                       "tensor b (%" G_GINT64_FORMAT ") at non-singleton dimension %d", a, b, i);
          return FALSE;
        }
    }
  memcpy (out_shape, tmp, sizeof (int64_t) * n);
  *out_ndim = n;
  return TRUE;
}

/* ------------------------------------------------------------------ iteration */

void
fx_strided_iter_init (FxStridedIter *it, int ndim, const int64_t *shape, const int64_t *strides)
{
  int n = 0;

  memset (it, 0, sizeof *it);
  it->remaining = shape_numel (ndim, shape);
  /* size-1 dims never move the offset; memory-adjacent dims merge into one */
  for (int i = 0; i < ndim; i++)
    {
      if (shape[i] == 1)
        continue;
      if (n > 0 && it->strides[n - 1] == strides[i] * shape[i])
        {
          it->shape[n - 1] *= shape[i];
          it->strides[n - 1] = strides[i];
          continue;
        }
      it->shape[n] = shape[i];
      it->strides[n] = strides[i];
      n++;
    }
  it->ndim = n;
  /* start one step before the first element so that next() lands on it */
  if (n > 0)
    {
      it->index[n - 1] = -1;
      it->offset = -it->strides[n - 1];
    }
}

gboolean
fx_strided_iter_next (FxStridedIter *it)
{
  int d;

  if (it->remaining <= 0)
    return FALSE;
  it->remaining--;
  d = it->ndim - 1;
  if (d < 0)
    return TRUE;   /* a single element at offset 0 */
  it->offset += it->strides[d];
  while (++it->index[d] == it->shape[d] && d > 0)
    {
      it->offset -= it->strides[d] * it->shape[d];
      it->index[d] = 0;
      d--;
      it->offset += it->strides[d];
    }
  return TRUE;
}

void
fx_shape_append (GString *out, int ndim, const int64_t *shape)
{
  g_string_append_c (out, '[');
  for (int i = 0; i < ndim; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (out, ']');
}

char *
fx_shape_to_string (int ndim, const int64_t *shape)
{
  GString *s = g_string_new (NULL);
  fx_shape_append (s, ndim, shape);
  return g_string_free (s, FALSE);
}
