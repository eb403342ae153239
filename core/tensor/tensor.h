/* tensor.h: FxTensor — refcounted storage plus strided views with PyTorch's semantics.
 * Every operation that can fail on user input reports a GError in FX_ERROR and returns NULL. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include "tensor/dtype.h"

G_BEGIN_DECLS

#define FX_TENSOR_MAX_DIMS 16

/* A flat, refcounted buffer. Views share it. */
typedef struct _FxStorage {
  gatomicrefcount ref;
  gsize nbytes;
  void *data;           /* 64-byte aligned when owned */
  gboolean owned;       /* FALSE: data belongs to someone else (mmap, caller) */
  GDestroyNotify free_func;  /* for !owned data; may be NULL */
  gpointer free_data;
} FxStorage;

typedef struct _FxTensor {
  gatomicrefcount ref;
  FxStorage *storage;
  FxDType dtype;
  int ndim;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t strides[FX_TENSOR_MAX_DIMS];  /* in elements */
  int64_t offset;                        /* in elements, into storage */
  /* A Python number turned into a 0-d tensor: it takes part in type promotion only by
   * category (float/int/bool), as PyTorch's "wrapped numbers" do. */
  gboolean wrapped_number;
  gboolean requires_grad;                /* set on nn.Parameter data; printed and propagated */
  /* The backward node autograd would have made this tensor with (a static string such as
   * "AddBackward0", see ops/grad.h); NULL for leaves. */
  const char *grad_fn;
  gboolean grad_leaf_view;               /* a view of a leaf that requires grad (grad.h) */
  int grad_view_output;                  /* 1 + i: output i of split/chunk/unbind (grad.h) */
  gboolean is_parameter;                 /* an nn.Parameter object (scripts: type Parameter) */
  /* The tensor this one is a view of, as PyTorch's _base (a view of a view has the first's
   * base), holding a reference; NULL when it is no view. Set by fx_grad_record after the
   * registry ops that make views. */
  struct _FxTensor *view_base;
  gboolean in_block;                     /* private to tensor.c: allocated with its storage */
} FxTensor;

/* ---- storage ---- */
FxStorage *fx_storage_new      (gsize nbytes);            /* zero-filled */
FxStorage *fx_storage_new_uninit (gsize nbytes);
FxStorage *fx_storage_new_borrowed (void *data, gsize nbytes, GDestroyNotify free_func,
                                    gpointer free_data);
FxStorage *fx_storage_ref      (FxStorage *storage);
void       fx_storage_unref    (FxStorage *storage);

/* ---- lifetime ---- */
FxTensor *fx_tensor_ref   (FxTensor *t);
void      fx_tensor_unref (FxTensor *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxTensor, fx_tensor_unref)

/* ---- creation (shape: ndim sizes; ndim 0 is a scalar) ---- */
FxTensor *fx_tensor_new_uninit (FxDType dtype, int ndim, const int64_t *shape);
FxTensor *fx_tensor_zeros      (FxDType dtype, int ndim, const int64_t *shape);
FxTensor *fx_tensor_ones       (FxDType dtype, int ndim, const int64_t *shape);
FxTensor *fx_tensor_full       (FxDType dtype, int ndim, const int64_t *shape, double value);
/* Copies numel elements of dtype from data (row-major). */
FxTensor *fx_tensor_new_from_data (FxDType dtype, int ndim, const int64_t *shape,
                                   const void *data);
FxTensor *fx_tensor_new_view   (FxStorage *storage, FxDType dtype, int ndim,
                                const int64_t *shape, const int64_t *strides, int64_t offset);
FxTensor *fx_tensor_scalar_double (FxDType dtype, double value);  /* 0-d */
FxTensor *fx_tensor_scalar_int64  (FxDType dtype, int64_t value); /* 0-d */
/* 0-d wrapped numbers for Python scalars: float → float64, int → int64, bool → bool. */
FxTensor *fx_tensor_wrap_double (double value);
FxTensor *fx_tensor_wrap_int64  (int64_t value);
FxTensor *fx_tensor_wrap_bool   (gboolean value);

/* A Python number as a 0-d wrapped number that lives in the caller's memory (the stack), for
 * handing to an op for the length of one call without allocating. The op may take and drop
 * references, but nothing may keep one past the call; never unref it. */
typedef struct {
  FxTensor tensor;
  FxStorage storage;
  union { double d; int64_t i; uint8_t b; } value;
} FxScalarBox;
FxTensor *fx_scalar_box_double (FxScalarBox *box, double value);
FxTensor *fx_scalar_box_int64  (FxScalarBox *box, int64_t value);
FxTensor *fx_scalar_box_bool   (FxScalarBox *box, gboolean value);

/* ---- inspection ---- */
int64_t   fx_tensor_numel          (const FxTensor *t);
int64_t   fx_tensor_size           (const FxTensor *t, int dim);  /* dim may be negative */
gboolean  fx_tensor_is_contiguous  (const FxTensor *t);
gsize     fx_tensor_element_size   (const FxTensor *t);
/* Pointer to element 0 of the view (storage data + offset). */
void     *fx_tensor_data           (const FxTensor *t);
gboolean  fx_tensor_same_shape     (const FxTensor *a, const FxTensor *b);
/* Wraps a (possibly negative) dim into [0, ndim); error "Dimension out of range ..." */
gboolean  fx_tensor_wrap_dim       (int dim, int ndim, int *out, GError **error);
/* Element at a flat row-major index, converted (slow; for printing, tests and item()). */
double    fx_tensor_get_double     (const FxTensor *t, int64_t flat_index);
int64_t   fx_tensor_get_int64      (const FxTensor *t, int64_t flat_index);
/* item(): the single element; error if numel != 1 */
gboolean  fx_tensor_item_double    (const FxTensor *t, double *out, GError **error);
gboolean  fx_tensor_item_int64     (const FxTensor *t, int64_t *out, GError **error);

/* ---- copies and conversions ---- */
FxTensor *fx_tensor_contiguous (FxTensor *t);           /* ref to t when already contiguous */
FxTensor *fx_tensor_clone      (const FxTensor *t);     /* always a fresh contiguous copy */
FxTensor *fx_tensor_to_dtype   (FxTensor *t, FxDType dtype); /* ref to t when same dtype */
/* dst[...] = src, broadcasting src to dst's shape and converting dtype (copy_). */
gboolean  fx_tensor_copy_into  (FxTensor *dst, const FxTensor *src, GError **error);

/* ---- views (no copy; share storage) ---- */
FxTensor *fx_tensor_view       (FxTensor *t, int ndim, const int64_t *shape, GError **error);
/* reshape: a view when strides allow, else a copy. shape may hold one -1. */
FxTensor *fx_tensor_reshape    (FxTensor *t, int ndim, const int64_t *shape, GError **error);
FxTensor *fx_tensor_permute    (FxTensor *t, int ndim, const int *dims, GError **error);
FxTensor *fx_tensor_transpose  (FxTensor *t, int dim0, int dim1, GError **error);
FxTensor *fx_tensor_t          (FxTensor *t, GError **error);
FxTensor *fx_tensor_expand     (FxTensor *t, int ndim, const int64_t *shape, GError **error);
FxTensor *fx_tensor_squeeze    (FxTensor *t, GError **error);                 /* all size-1 dims */
FxTensor *fx_tensor_squeeze_dim (FxTensor *t, int dim, GError **error);
FxTensor *fx_tensor_unsqueeze  (FxTensor *t, int dim, GError **error);
FxTensor *fx_tensor_narrow     (FxTensor *t, int dim, int64_t start, int64_t length,
                                GError **error);
/* Python slice semantics on one dim (start/stop clamped, step > 0). */
FxTensor *fx_tensor_slice      (FxTensor *t, int dim, int64_t start, int64_t stop, int64_t step,
                                GError **error);
FxTensor *fx_tensor_select     (FxTensor *t, int dim, int64_t index, GError **error);
FxTensor *fx_tensor_as_strided (FxTensor *t, int ndim, const int64_t *shape,
                                const int64_t *strides, int64_t offset, GError **error);

/* ---- shapes in messages: "[2, 3]" ---- */
void      fx_shape_append    (GString *out, int ndim, const int64_t *shape);
char     *fx_shape_to_string (int ndim, const int64_t *shape);   /* g_free */

/* ---- broadcasting helpers ---- */
gboolean  fx_broadcast_shapes (int ndim_a, const int64_t *shape_a, int ndim_b,
                               const int64_t *shape_b, int *out_ndim, int64_t *out_shape,
                               GError **error);

/* ---- iteration: visits every element offset of a strided view in row-major order ---- */
typedef struct {
  int ndim;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  int64_t strides[FX_TENSOR_MAX_DIMS];
  int64_t index[FX_TENSOR_MAX_DIMS];
  int64_t offset;       /* current element offset (elements, relative to data pointer) */
  int64_t remaining;
} FxStridedIter;

void     fx_strided_iter_init (FxStridedIter *it, int ndim, const int64_t *shape,
                               const int64_t *strides);
/* Returns FALSE when done; otherwise it->offset is the element to visit. */
gboolean fx_strided_iter_next (FxStridedIter *it);

/* ---- float16 storage: IEEE half <-> float (round to nearest even) ---- */
float    fx_half_to_float (uint16_t h);
uint16_t fx_float_to_half (float f);

G_END_DECLS
