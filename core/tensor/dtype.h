/* dtype.h: the element types of FxTensor, their sizes and names, and PyTorch's type promotion. */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* Ordered by PyTorch's promotion lattice: a later kind wins within the same category. */
typedef enum {
  FX_DTYPE_BOOL,
  FX_DTYPE_UINT8,
  FX_DTYPE_INT8,
  FX_DTYPE_INT16,
  FX_DTYPE_INT32,
  FX_DTYPE_INT64,
  FX_DTYPE_FLOAT16,  /* storage only: kernels compute in float32 */
  FX_DTYPE_FLOAT32,
  FX_DTYPE_FLOAT64,
  FX_DTYPE_N
} FxDType;

#define FX_DTYPE_DEFAULT_FLOAT FX_DTYPE_FLOAT32

gsize        fx_dtype_size        (FxDType dtype);
/* "float32", "int64", "bool", ... (PyTorch's canonical name, without "torch.") */
const char  *fx_dtype_name        (FxDType dtype);
/* Parses "float32", "float", "torch.float32", "double", "long", "int", ...; FALSE if unknown. */
gboolean     fx_dtype_from_name   (const char *name, FxDType *out);
gboolean     fx_dtype_is_floating (FxDType dtype);
gboolean     fx_dtype_is_integral (FxDType dtype);  /* bool excluded */
/* The C++ scalar type name PyTorch's messages use: "Float", "Long", "Bool", ... */
const char  *fx_dtype_scalar_type_name (FxDType dtype);
/* PyTorch's legacy tensor type names: "torch.FloatTensor", ... (its Python layer's) */
const char  *fx_dtype_legacy_name (FxDType dtype);
/* The same names as ATen's C++ messages print them: bool is "CPUBoolType" there. */
const char  *fx_dtype_aten_type_name (FxDType dtype);
/* c10's TypeMeta names some messages print: "float", "unsigned char", "c10::Half", ... */
const char  *fx_dtype_typemeta_name (FxDType dtype);
/* torch.promote_types(a, b) */
FxDType      fx_dtype_promote     (FxDType a, FxDType b);

G_END_DECLS
