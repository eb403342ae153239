/* linalg.c: matrix products. Each PyTorch primitive (mm, mv, dot, bmm, addmm, baddbmm)
 * checks its arguments in PyTorch's order so that the first error reported is PyTorch's;
 * matmul and linear are composed from them the way ATen composes them, and then computed
 * without the copies ATen's reshapes would make. All products end in gemm_batched(). */
#include "tensor/linalg.h"

#include <string.h>
#include "fx-error.h"
#include "tensor/blas.h"
#include "tensor/elementwise.h"

/* ---- messages ---- */

/* The products exist for every dtype but bool and half on PyTorch's CPU. */
static gboolean
check_implemented (const char *kernel, FxDType dtype, GError **error)
{
  if (dtype != FX_DTYPE_BOOL && dtype != FX_DTYPE_FLOAT16)
    return TRUE;
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "\"%s\" not implemented for '%s'", kernel,
               fx_dtype_scalar_type_name (dtype));
  return FALSE;
}

static gboolean
check_same_scalar_type (FxDType expected, FxDType found, GError **error)
{
  if (expected == found)
    return TRUE;
  g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "expected scalar type %s but found %s",
               fx_dtype_scalar_type_name (expected), fx_dtype_scalar_type_name (found));
  return FALSE;
}

/* tensor.size(dim) with PyTorch's IndexErrors (baddbmm reads sizes before checking dims). */
static gboolean
size_at (const FxTensor *t, int dim, int64_t *out, GError **error)
{
  if (t->ndim == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INDEX,
                   "Dimension specified as %d but tensor has no dimensions", dim);
      return FALSE;
    }
  int d;
  if (!fx_tensor_wrap_dim (dim, t->ndim, &d, error))
    return FALSE;
  *out = t->shape[d];
  return TRUE;
}

/* ---- the engine: C[b] = alpha * A[b] @ B[b] + beta * C[b] ---- */

typedef struct {
  const char *data;     /* element 0 of the tensor view */
  int64_t rs, cs;       /* row and column strides of each matrix, in elements */
  const int64_t *boff;  /* per-batch element offsets; NULL: every batch at offset 0 */
} MatOperand;

/* Whether a rows×cols matrix with these strides is a BLAS matrix, plain or transposed. */
static gboolean
blas_layout (int64_t rows, int64_t cols, int64_t rs, int64_t cs, gboolean *trans, int64_t *ld)
{
  if ((cs == 1 || cols <= 1) && (rows <= 1 || rs >= MAX (cols, 1)))
    {
      *trans = FALSE;
      *ld = rows <= 1 ? MAX (cols, 1) : rs;
      return TRUE;
    }
  if ((rs == 1 || rows <= 1) && (cols <= 1 || cs >= MAX (rows, 1)))
    {
      *trans = TRUE;
      *ld = cols <= 1 ? MAX (rows, 1) : cs;
      return TRUE;
    }
  return FALSE;
}

#define DEFINE_PACK(name, T)                                                              \
  static void                                                                             \
  name (T *dst, const T *src, int64_t rows, int64_t cols, int64_t rs, int64_t cs)         \
  {                                                                                       \
    for (int64_t i = 0; i < rows; i++)                                                    \
      for (int64_t j = 0; j < cols; j++)                                                  \
        dst[i * cols + j] = src[i * rs + j * cs];                                         \
  }
DEFINE_PACK (pack_f32, float)
DEFINE_PACK (pack_f64, double)

/* One float product through BLAS; c is contiguous m×n. */
#define DEFINE_GEMM_FLOAT(name, T, gemm, gemv, pack)                                      \
  static void                                                                             \
  name (int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t a_rs, int64_t a_cs, \
        const T *b, int64_t b_rs, int64_t b_cs, T beta, T *c, T **scratch_a,              \
        T **scratch_b)                                                                    \
  {                                                                                       \
    gboolean ta, tb;                                                                      \
    int64_t lda, ldb;                                                                     \
    if (!blas_layout (m, k, a_rs, a_cs, &ta, &lda))                                       \
      {                                                                                   \
        if (*scratch_a == NULL)                                                           \
          *scratch_a = g_new (T, m * k);                                                  \
        pack (*scratch_a, a, m, k, a_rs, a_cs);                                           \
        a = *scratch_a, ta = FALSE, lda = MAX (k, 1), a_rs = k, a_cs = 1;                 \
      }                                                                                   \
    if (!blas_layout (k, n, b_rs, b_cs, &tb, &ldb))                                       \
      {                                                                                   \
        if (*scratch_b == NULL)                                                           \
          *scratch_b = g_new (T, k * n);                                                  \
        pack (*scratch_b, b, k, n, b_rs, b_cs);                                           \
        b = *scratch_b, tb = FALSE, ldb = MAX (n, 1), b_rs = n, b_cs = 1;                 \
      }                                                                                   \
    if (n == 1 && m > 1)                                                                  \
      /* c[m] = A x, x = column 0 of B */                                                 \
      gemv (ta, ta ? k : m, ta ? m : k, alpha, a, lda, b, b_rs, beta, c, 1);              \
    else if (m == 1 && n > 1)                                                             \
      /* c[n] = B^T y, y = row 0 of A */                                                  \
      gemv (!tb, tb ? n : k, tb ? k : n, alpha, b, ldb, a, a_cs, beta, c, 1);             \
    else                                                                                  \
      gemm (ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, n);                          \
  }
DEFINE_GEMM_FLOAT (gemm_f32, float, fx_sgemm, fx_sgemv, pack_f32)
DEFINE_GEMM_FLOAT (gemm_f64, double, fx_dgemm, fx_dgemv, pack_f64)

/* Integer elements, loaded and stored with wrap-around: products of integer tensors are
 * computed modulo 2^bits as PyTorch's loops do. */
static inline uint64_t
load_int (const char *p, FxDType dt)
{
  switch (dt)
    {
    case FX_DTYPE_BOOL:  return *(const uint8_t *) p != 0;
    case FX_DTYPE_UINT8: return *(const uint8_t *) p;
    case FX_DTYPE_INT8:  return (uint64_t) (int64_t) *(const int8_t *) p;
    case FX_DTYPE_INT16: return (uint64_t) (int64_t) *(const int16_t *) p;
    case FX_DTYPE_INT32: return (uint64_t) (int64_t) *(const int32_t *) p;
    default:             return (uint64_t) *(const int64_t *) p;
    }
}

static inline void
store_int (char *p, FxDType dt, uint64_t v)
{
  switch (dt)
    {
    case FX_DTYPE_BOOL:  *(uint8_t *) p = v != 0; break;
    case FX_DTYPE_UINT8: *(uint8_t *) p = (uint8_t) v; break;
    case FX_DTYPE_INT8:  *(int8_t *) p = (int8_t) (uint8_t) v; break;
    case FX_DTYPE_INT16: *(int16_t *) p = (int16_t) (uint16_t) v; break;
    case FX_DTYPE_INT32: *(int32_t *) p = (int32_t) (uint32_t) v; break;
    default:             *(int64_t *) p = (int64_t) v; break;
    }
}

static void
gemm_int (FxDType dt, int64_t m, int64_t n, int64_t k, uint64_t alpha, const char *a,
          int64_t a_rs, int64_t a_cs, const char *b, int64_t b_rs, int64_t b_cs, uint64_t beta,
          gboolean use_beta, char *c, uint64_t *acc)
{
  gsize es = fx_dtype_size (dt);
  for (int64_t i = 0; i < m; i++)
    {
      memset (acc, 0, sizeof (uint64_t) * n);
      for (int64_t p = 0; p < k; p++)
        {
          uint64_t av = load_int (a + (i * a_rs + p * a_cs) * es, dt);
          const char *brow = b + p * b_rs * es;
          for (int64_t j = 0; j < n; j++)
            acc[j] += av * load_int (brow + j * b_cs * es, dt);
        }
      char *crow = c + i * n * es;
      for (int64_t j = 0; j < n; j++)
        {
          uint64_t v = alpha * acc[j];
          if (use_beta)
            v += beta * load_int (crow + j * es, dt);
          store_int (crow + j * es, dt, v);
        }
    }
}

typedef struct {
  FxDType dt;
  int64_t m, n, k;
  double alpha, beta;
  const MatOperand *a, *b;
  void *c;
} BatchJob;

/* Batches [begin, end) of a batched product, one after the other. */
static void
gemm_batch_range (int64_t begin, int64_t end, gpointer data)
{
  const BatchJob *j = data;
  FxDType dt = j->dt;
  gsize es = fx_dtype_size (dt);
  int64_t m = j->m, n = j->n, k = j->k;
  void *scratch_a = NULL, *scratch_b = NULL;
  uint64_t *acc = NULL;
  if (!fx_dtype_is_floating (dt))
    acc = g_new (uint64_t, n);
  for (int64_t i = begin; i < end; i++)
    {
      const char *ap = j->a->data + (j->a->boff ? j->a->boff[i] : 0) * (int64_t) es;
      const char *bp = j->b->data + (j->b->boff ? j->b->boff[i] : 0) * (int64_t) es;
      char *cp = (char *) j->c + i * m * n * (int64_t) es;
      switch (dt)
        {
        case FX_DTYPE_FLOAT32:
          /* a scratch buffer packed for one batch is refilled for the next */
          gemm_f32 (m, n, k, (float) j->alpha, (const float *) ap, j->a->rs, j->a->cs,
                    (const float *) bp, j->b->rs, j->b->cs, (float) j->beta, (float *) cp,
                    (float **) &scratch_a, (float **) &scratch_b);
          break;
        case FX_DTYPE_FLOAT64:
          gemm_f64 (m, n, k, j->alpha, (const double *) ap, j->a->rs, j->a->cs,
                    (const double *) bp, j->b->rs, j->b->cs, j->beta, (double *) cp,
                    (double **) &scratch_a, (double **) &scratch_b);
          break;
        default:
          gemm_int (dt, m, n, k, (uint64_t) (int64_t) j->alpha, ap, j->a->rs, j->a->cs, bp,
                    j->b->rs, j->b->cs, (uint64_t) (int64_t) j->beta, j->beta != 0, cp, acc);
          break;
        }
    }
  g_free (scratch_a);
  g_free (scratch_b);
  g_free (acc);
}

/* C (contiguous [nbatch, m, n], dtype dt) = alpha * A @ B + beta * C. With beta == 0 C is
 * written without being read. Many small float products run side by side on libfx's threads
 * (each single-threaded); a big one is left to OpenBLAS's threads. */
static void
gemm_batched (FxDType dt, int64_t nbatch, int64_t m, int64_t n, int64_t k, double alpha,
              const MatOperand *a, const MatOperand *b, double beta, void *c)
{
  if (nbatch == 0 || m == 0 || n == 0)
    return;
  BatchJob j = { dt, m, n, k, alpha, beta, a, b, c };
  double flops = 2.0 * m * n * k;
  if (nbatch > 1 && fx_dtype_is_floating (dt) && fx_blas_num_threads () > 1
      && flops < 3e7 && flops * nbatch > 2e6)
    {
      fx_blas_enter_single_threaded ();
      fx_parallel_for (nbatch, MAX ((int64_t) 1, (int64_t) (1e6 / MAX (flops, 1.0))),
                       gemm_batch_range, &j);
      fx_blas_leave_single_threaded ();
    }
  else
    gemm_batch_range (0, nbatch, &j);
}

/* Per-batch element offsets of t's leading dims broadcast to batch[nb] (t's last `inner`
 * dims are the matrix). g_free. */
static int64_t *
batch_offsets (const FxTensor *t, int inner, int nb, const int64_t *batch, int64_t nbatch)
{
  int64_t strides[FX_TENSOR_MAX_DIMS];
  int tb = t->ndim - inner;
  for (int i = 0; i < nb; i++)
    {
      int td = i - (nb - tb);
      strides[i] = (td >= 0 && t->shape[td] != 1) ? t->strides[td] : 0;
    }
  int64_t *offs = g_new (int64_t, MAX (nbatch, 1));
  FxStridedIter it;
  fx_strided_iter_init (&it, nb, batch, strides);
  int64_t i = 0;
  while (i < nbatch && fx_strided_iter_next (&it))
    offs[i++] = it.offset;
  return offs;
}

static MatOperand
matrix_operand (const FxTensor *t)
{
  MatOperand op = { fx_tensor_data (t), 0, 0, NULL };
  if (t->ndim >= 2)
    {
      op.rs = t->strides[t->ndim - 2];
      op.cs = t->strides[t->ndim - 1];
    }
  else if (t->ndim == 1)
    op.rs = op.cs = t->strides[0];
  return op;
}

/* Fills out (contiguous, out's dtype) with src broadcast to out's shape times beta — the
 * beta * self term when no product follows (k == 0). */
static gboolean
fill_scaled (FxTensor *out, FxTensor *src, double beta, GError **error)
{
  int64_t n = fx_tensor_numel (out);
  if (beta == 0)
    {
      memset (fx_tensor_data (out), 0, n * fx_tensor_element_size (out));
      return TRUE;
    }
  if (!fx_tensor_copy_into (out, src, error))
    return FALSE;
  if (beta != 1)
    {
      char *p = fx_tensor_data (out);
      gsize es = fx_tensor_element_size (out);
      for (int64_t i = 0; i < n; i++)
        {
          if (out->dtype == FX_DTYPE_FLOAT32)
            ((float *) p)[i] *= (float) beta;
          else if (out->dtype == FX_DTYPE_FLOAT64)
            ((double *) p)[i] *= beta;
          else
            store_int (p + i * es, out->dtype,
                       load_int (p + i * es, out->dtype) * (uint64_t) (int64_t) beta);
        }
    }
  return TRUE;
}

/* ---- primitives ---- */

/* mm / addmm after their own argument checks: out [m, n] = beta * self + alpha * m1 @ m2.
 * self == NULL: no addend. Empty products return before the dtype checks, as in ATen. */
static FxTensor *
mm_compute (FxTensor *self, FxTensor *m1, FxTensor *m2, double beta, double alpha,
            const char *kernel, GError **error)
{
  int64_t m = m1->shape[0], k = m1->shape[1], n = m2->shape[1];
  int64_t shape[2] = { m, n };
  FxTensor *out = fx_tensor_new_uninit (m1->dtype, 2, shape);
  if (m * n == 0)
    return out;
  if (k == 0)
    {
      if (!fill_scaled (out, self, self ? beta : 0, error))
        g_clear_pointer (&out, fx_tensor_unref);
      return out;
    }
  if (!check_implemented (kernel, m1->dtype, error)
      || !check_same_scalar_type (m1->dtype, m2->dtype, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  if (self != NULL && beta != 0 && !fx_tensor_copy_into (out, self, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  MatOperand a = matrix_operand (m1), b = matrix_operand (m2);
  gemm_batched (m1->dtype, 1, m, n, k, alpha, &a, &b, self ? beta : 0, fx_tensor_data (out));
  return out;
}

static gboolean
check_mm_shapes (FxTensor *m1, FxTensor *m2, GError **error)
{
  if (m1->shape[1] == m2->shape[0])
    return TRUE;
  g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
               "mat1 and mat2 shapes cannot be multiplied (%" G_GINT64_FORMAT "x%"
               G_GINT64_FORMAT " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")",
               m1->shape[0], m1->shape[1], m2->shape[0], m2->shape[1]);
  return FALSE;
}

FxTensor *
fx_tensor_mm (FxTensor *self, FxTensor *mat2, GError **error)
{
  if (self->ndim != 2)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE, "self must be a matrix");
      return NULL;
    }
  if (mat2->ndim != 2)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE, "mat2 must be a matrix");
      return NULL;
    }
  if (!check_mm_shapes (self, mat2, error))
    return NULL;
  return mm_compute (NULL, self, mat2, 0, 1, "addmm_impl_cpu_", error);
}

FxTensor *
fx_tensor_addmm (FxTensor *self, FxTensor *mat1, FxTensor *mat2, double beta, double alpha,
                 GError **error)
{
  if (self->dtype != mat2->dtype)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "self and mat2 must have the same dtype");
      return NULL;
    }
  if (mat1->dtype != mat2->dtype)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "mat1 and mat2 must have the same dtype");
      return NULL;
    }
  FxTensor *mats[2] = { mat1, mat2 };
  for (int i = 0; i < 2; i++)
    if (mats[i]->ndim != 2)
      {
        g_set_error (error, FX_ERROR, FX_ERROR_SHAPE, "mat%d must be a matrix, got %d-D tensor",
                     i + 1, mats[i]->ndim);
        return NULL;
      }
  if (!check_mm_shapes (mat1, mat2, error))
    return NULL;
  int64_t shape[2] = { mat1->shape[0], mat2->shape[1] };
  g_autoptr (FxTensor) expanded = fx_tensor_expand (self, 2, shape, error);
  if (expanded == NULL)
    return NULL;
  return mm_compute (expanded, mat1, mat2, beta, alpha, "addmm_impl_cpu_", error);
}

FxTensor *
fx_tensor_mv (FxTensor *self, FxTensor *vec, GError **error)
{
  int64_t m;
  if (!size_at (self, 0, &m, error))
    return NULL;
  if (self->ndim != 2 || vec->ndim != 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "vector + matrix @ vector expected, got 1, %d, %d", self->ndim, vec->ndim);
      return NULL;
    }
  int64_t k = self->shape[1];
  if (k != vec->shape[0])
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "size mismatch, got %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT ",%" G_GINT64_FORMAT, m, m, k, vec->shape[0]);
      return NULL;
    }
  FxTensor *out = fx_tensor_new_uninit (self->dtype, 1, &m);
  if (m == 0)
    return out;
  if (k == 0)
    {
      memset (fx_tensor_data (out), 0, m * fx_tensor_element_size (out));
      return out;
    }
  if (!check_implemented ("addmv_impl_cpu", self->dtype, error)
      || !check_same_scalar_type (self->dtype, vec->dtype, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  MatOperand a = matrix_operand (self);
  MatOperand b = { fx_tensor_data (vec), vec->strides[0], 1, NULL };
  gemm_batched (self->dtype, 1, m, 1, k, 1, &a, &b, 0, fx_tensor_data (out));
  return out;
}

FxTensor *
fx_tensor_dot (FxTensor *self, FxTensor *other, GError **error)
{
  if (self->ndim != 1 || other->ndim != 1)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "1D tensors expected, but got %dD and %dD tensors", self->ndim, other->ndim);
      return NULL;
    }
  if (self->dtype != other->dtype)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                   "dot : expected both vectors to have same dtype, but found %s and %s",
                   fx_dtype_scalar_type_name (self->dtype), fx_dtype_scalar_type_name (other->dtype));
      return NULL;
    }
  int64_t n = self->shape[0];
  if (n != other->shape[0])
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "inconsistent tensor size, expected tensor [%" G_GINT64_FORMAT "] and src [%"
                   G_GINT64_FORMAT "] to have the same number of elements, but got %"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT " elements respectively",
                   n, other->shape[0], n, other->shape[0]);
      return NULL;
    }
  if (!check_implemented ("dot", self->dtype, error))
    return NULL;
  FxTensor *out = fx_tensor_zeros (self->dtype, 0, NULL);
  /* a 1×n by n×1 product: gemv with m == 1 */
  MatOperand a = { fx_tensor_data (self), self->strides[0], self->strides[0], NULL };
  MatOperand b = { fx_tensor_data (other), other->strides[0], other->strides[0], NULL };
  if (n > 0)
    gemm_batched (self->dtype, 1, 1, 1, n, 1, &a, &b, 0, fx_tensor_data (out));
  return out;
}

/* bmm / baddbmm after the 3-D checks: out [nb, m, n] over broadcast batches. a and b hold
 * per-batch offsets already; addend (NULL: none) has out's shape. */
static FxTensor *
bmm_compute (FxDType dtype, FxDType dtype2, int64_t nbatch, int64_t m, int64_t n, int64_t k,
             MatOperand *a, MatOperand *b, FxTensor *addend, double beta, double alpha,
             const char *kernel, int out_ndim, const int64_t *out_shape, GError **error)
{
  FxTensor *out = fx_tensor_new_uninit (dtype, out_ndim, out_shape);
  if (nbatch * m * n == 0)
    return out;
  if (k == 0)
    {
      if (!fill_scaled (out, addend, addend ? beta : 0, error))
        g_clear_pointer (&out, fx_tensor_unref);
      return out;
    }
  if (!check_implemented (kernel, dtype, error) || !check_same_scalar_type (dtype, dtype2, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  if (addend != NULL && beta != 0 && !fx_tensor_copy_into (out, addend, error))
    {
      fx_tensor_unref (out);
      return NULL;
    }
  gemm_batched (dtype, nbatch, m, n, k, alpha, a, b, addend ? beta : 0, fx_tensor_data (out));
  return out;
}

static gboolean
check_bmm_args (FxTensor *b1, FxTensor *b2, GError **error)
{
  if (b1->ndim != 3)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE, "batch1 must be a 3D tensor");
      return FALSE;
    }
  if (b2->ndim != 3)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_SHAPE, "batch2 must be a 3D tensor");
      return FALSE;
    }
  if (b2->shape[0] != b1->shape[0] || b2->shape[1] != b1->shape[2])
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "Expected size for first two dimensions of batch2 tensor to be: [%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] but got: [%" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT "].", b1->shape[0], b1->shape[2], b2->shape[0], b2->shape[1]);
      return FALSE;
    }
  return TRUE;
}

static FxTensor *
bmm_impl (FxTensor *addend, FxTensor *b1, FxTensor *b2, double beta, double alpha,
          const char *kernel, GError **error)
{
  int64_t nb = b1->shape[0];
  g_autofree int64_t *ao = batch_offsets (b1, 2, 1, &nb, nb);
  g_autofree int64_t *bo = batch_offsets (b2, 2, 1, &nb, nb);
  MatOperand a = matrix_operand (b1), b = matrix_operand (b2);
  a.boff = ao;
  b.boff = bo;
  int64_t shape[3] = { nb, b1->shape[1], b2->shape[2] };
  return bmm_compute (b1->dtype, b2->dtype, nb, shape[1], shape[2], b1->shape[2], &a, &b,
                      addend, beta, alpha, kernel, 3, shape, error);
}

FxTensor *
fx_tensor_bmm (FxTensor *self, FxTensor *mat2, GError **error)
{
  if (!check_bmm_args (self, mat2, error))
    return NULL;
  return bmm_impl (NULL, self, mat2, 0, 1, "bmm", error);
}

FxTensor *
fx_tensor_baddbmm (FxTensor *self, FxTensor *batch1, FxTensor *batch2, double beta,
                   double alpha, GError **error)
{
  int64_t shape[3];
  if (!size_at (batch1, 0, &shape[0], error) || !size_at (batch1, 1, &shape[1], error)
      || !size_at (batch2, 2, &shape[2], error))
    return NULL;
  g_autoptr (FxTensor) expanded = fx_tensor_expand (self, 3, shape, error);
  if (expanded == NULL || !check_bmm_args (batch1, batch2, error))
    return NULL;
  return bmm_impl (expanded, batch1, batch2, beta, alpha, "baddbmm", error);
}

/* ---- matmul ---- */

/* An N-D operand (N >= 3) times a 1-D or 2-D one. ATen folds the batch dims into the rows of
 * one mm/mv (transposing both sides when the N-D operand is on the right); the checks here
 * replay that on the folded shapes, and the product is then computed as a broadcast batched
 * gemm, which needs no copies. */
static FxTensor *
matmul_folded (FxTensor *a, FxTensor *b, GError **error)
{
  gboolean transpose = b->ndim > a->ndim;
  FxTensor *big = transpose ? b : a, *small = transpose ? a : b;
  int nb = big->ndim - 2;
  int64_t folded = 1;
  for (int i = 0; i < big->ndim - 1; i++)
    folded *= transpose && i == nb ? big->shape[big->ndim - 1] : big->shape[i];
  /* t1 = big (or big.mT) folded to [folded, k1]; t2 = small (or small.t()) */
  int64_t k1 = transpose ? big->shape[nb] : big->shape[nb + 1];
  int64_t t2_rows = small->ndim == 2 ? (transpose ? small->shape[1] : small->shape[0])
                                     : small->shape[0];
  int64_t t2_cols = small->ndim == 2 ? (transpose ? small->shape[0] : small->shape[1]) : 1;
  FxDType d1 = big->dtype, d2 = small->dtype;
  if (small->ndim == 2 && k1 != t2_rows)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "mat1 and mat2 shapes cannot be multiplied (%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")",
                   folded, k1, t2_rows, t2_cols);
      return NULL;
    }
  if (small->ndim == 1 && k1 != t2_rows)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "size mismatch, got %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT ",%" G_GINT64_FORMAT, folded, folded, k1, t2_rows);
      return NULL;
    }

  /* The product in the operands' own orientation: a [..., m, k] @ b [..., k, n], where a
   * 1-D a is a row and a 1-D b a column. */
  int64_t m = a->ndim >= 2 ? a->shape[a->ndim - 2] : 1;
  int64_t k = a->shape[a->ndim - 1];
  int64_t n = b->ndim >= 2 ? b->shape[b->ndim - 1] : 1;
  int64_t batch[FX_TENSOR_MAX_DIMS], nbatch = 1;
  memcpy (batch, big->shape, sizeof (int64_t) * nb);
  for (int i = 0; i < nb; i++)
    nbatch *= batch[i];

  int out_ndim = 0;
  int64_t out_shape[FX_TENSOR_MAX_DIMS];
  memcpy (out_shape, batch, sizeof (int64_t) * nb);
  out_ndim = nb;
  if (a->ndim >= 2)
    out_shape[out_ndim++] = m;
  if (b->ndim >= 2)
    out_shape[out_ndim++] = n;

  MatOperand ma = matrix_operand (a), mb = matrix_operand (b);
  if (a->ndim == 1)
    ma.rs = 0;          /* one row: its stride is never used */
  if (b->ndim == 1)
    mb.cs = 1;          /* one column */
  g_autofree int64_t *offs = batch_offsets (big, 2, nb, batch, nbatch);
  if (big == a)
    ma.boff = offs;
  else
    mb.boff = offs;

  /* Not transposed, a's batch dims folded into its rows: one large gemm when they fold
   * without a copy, which is what makes Linear on [B, T, C] inputs fast. */
  if (!transpose && nbatch > 1)
    {
      gboolean foldable = TRUE;
      for (int i = nb - 1; i >= 0; i--)
        {
          int64_t inner = i == nb - 1 ? a->strides[nb] * a->shape[nb]
                                      : a->strides[i + 1] * a->shape[i + 1];
          if (a->shape[i] != 1 && a->strides[i] != inner)
            foldable = FALSE;
        }
      if (foldable)
        {
          ma.boff = NULL;
          m *= nbatch;
          nbatch = 1;
        }
    }
  const char *kernel = small->ndim == 1 ? "addmv_impl_cpu" : "addmm_impl_cpu_";
  FxTensor *out = bmm_compute (d1, d2, nbatch, m, n, k, &ma, &mb, NULL, 0, 1, kernel,
                               out_ndim, out_shape, error);
  return out;
}

/* Both operands N-D (N >= 3): broadcast batch dims, then bmm. */
static FxTensor *
matmul_batched (FxTensor *a, FxTensor *b, GError **error)
{
  int nba = a->ndim - 2, nbb = b->ndim - 2, nb;
  int64_t batch[FX_TENSOR_MAX_DIMS];
  if (!fx_broadcast_shapes (nba, a->shape, nbb, b->shape, &nb, batch, error))
    return NULL;
  int64_t nbatch = 1;
  for (int i = 0; i < nb; i++)
    nbatch *= batch[i];
  int64_t m = a->shape[a->ndim - 2], k = a->shape[a->ndim - 1];
  int64_t k2 = b->shape[b->ndim - 2], n = b->shape[b->ndim - 1];
  if (k != k2)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "Expected size for first two dimensions of batch2 tensor to be: [%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] but got: [%" G_GINT64_FORMAT ", %"
                   G_GINT64_FORMAT "].", nbatch, k, nbatch, k2);
      return NULL;
    }
  g_autofree int64_t *ao = batch_offsets (a, 2, nb, batch, nbatch);
  g_autofree int64_t *bo = batch_offsets (b, 2, nb, batch, nbatch);
  MatOperand ma = matrix_operand (a), mb = matrix_operand (b);
  ma.boff = ao;
  mb.boff = bo;
  int64_t out_shape[FX_TENSOR_MAX_DIMS];
  memcpy (out_shape, batch, sizeof (int64_t) * nb);
  out_shape[nb] = m;
  out_shape[nb + 1] = n;
  return bmm_compute (a->dtype, b->dtype, nbatch, m, n, k, &ma, &mb, NULL, 0, 1, "bmm",
                      nb + 2, out_shape, error);
}

FxTensor *
fx_tensor_matmul (FxTensor *a, FxTensor *b, GError **error)
{
  int d1 = a->ndim, d2 = b->ndim;
  if (d1 == 0 || d2 == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_SHAPE,
                   "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                   d1, d2);
      return NULL;
    }
  if (d1 == 1 && d2 == 1)
    return fx_tensor_dot (a, b, error);
  if (d1 == 2 && d2 == 1)
    return fx_tensor_mv (a, b, error);
  if (d1 == 1 && d2 == 2)
    {
      g_autoptr (FxTensor) row = fx_tensor_unsqueeze (a, 0, error);
      if (row == NULL)
        return NULL;
      g_autoptr (FxTensor) r = fx_tensor_mm (row, b, error);
      return r ? fx_tensor_squeeze_dim (r, 0, error) : NULL;
    }
  if (d1 == 2 && d2 == 2)
    return fx_tensor_mm (a, b, error);
  if ((d1 >= 3 && d2 <= 2) || (d2 >= 3 && d1 <= 2))
    return matmul_folded (a, b, error);
  return matmul_batched (a, b, error);
}

/* ---- linear ---- */

FxTensor *
fx_tensor_linear (FxTensor *input, FxTensor *weight, FxTensor *bias, GError **error)
{
  g_autoptr (FxTensor) wt = fx_tensor_t (weight, error);
  if (wt == NULL)
    return NULL;
  if (bias != NULL && input->ndim == 2)
    return fx_tensor_addmm (bias, input, wt, 1, 1, error);
  if (bias != NULL && input->ndim == 3 && fx_tensor_is_contiguous (input))
    {
      /* ATen flattens contiguous 3-D inputs into one addmm (its errors show the folding) */
      int64_t flat[2] = { input->shape[0] * input->shape[1], input->shape[2] };
      g_autoptr (FxTensor) in2 = fx_tensor_view (input, 2, flat, error);
      if (in2 == NULL)
        return NULL;
      g_autoptr (FxTensor) r = fx_tensor_addmm (bias, in2, wt, 1, 1, error);
      if (r == NULL)
        return NULL;
      int64_t shape[3] = { input->shape[0], input->shape[1], r->shape[1] };
      return fx_tensor_view (r, 3, shape, error);
    }
  FxTensor *out = fx_tensor_matmul (input, wt, error);
  if (out == NULL || bias == NULL)
    return out;
  FxTensor *r = fx_tensor_binary_ (FX_BINARY_ADD, out, bias, error);
  fx_tensor_unref (out);
  return r;
}
