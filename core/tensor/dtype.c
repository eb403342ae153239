/* dtype.c: element sizes, canonical names and aliases, and PyTorch's promotion lattice. */
#include "tensor/dtype.h"

#include <string.h>

static const gsize dtype_sizes[FX_DTYPE_N] = {
  [FX_DTYPE_BOOL] = 1,    [FX_DTYPE_UINT8] = 1,   [FX_DTYPE_INT8] = 1,
  [FX_DTYPE_INT16] = 2,   [FX_DTYPE_INT32] = 4,   [FX_DTYPE_INT64] = 8,
  [FX_DTYPE_FLOAT16] = 2, [FX_DTYPE_FLOAT32] = 4, [FX_DTYPE_FLOAT64] = 8,
};

static const char *const dtype_names[FX_DTYPE_N] = {
  [FX_DTYPE_BOOL] = "bool",       [FX_DTYPE_UINT8] = "uint8",     [FX_DTYPE_INT8] = "int8",
  [FX_DTYPE_INT16] = "int16",     [FX_DTYPE_INT32] = "int32",     [FX_DTYPE_INT64] = "int64",
  [FX_DTYPE_FLOAT16] = "float16", [FX_DTYPE_FLOAT32] = "float32", [FX_DTYPE_FLOAT64] = "float64",
};

/* The other attribute names under which torch exposes the same dtype objects. */
static const struct { const char *name; FxDType dtype; } dtype_aliases[] = {
  { "half", FX_DTYPE_FLOAT16 },
  { "float", FX_DTYPE_FLOAT32 },
  { "double", FX_DTYPE_FLOAT64 },
  { "short", FX_DTYPE_INT16 },
  { "int", FX_DTYPE_INT32 },
  { "long", FX_DTYPE_INT64 },
};

gsize
fx_dtype_size (FxDType dtype)
{
  if ((unsigned) dtype >= FX_DTYPE_N)
    return 0;
  return dtype_sizes[dtype];
}

const char *
fx_dtype_name (FxDType dtype)
{
  if ((unsigned) dtype >= FX_DTYPE_N)
    return "unknown";
  return dtype_names[dtype];
}

gboolean
fx_dtype_from_name (const char *name, FxDType *out)
{
  if (name == NULL)
    return FALSE;
  if (g_str_has_prefix (name, "torch."))
    name += strlen ("torch.");
  for (int i = 0; i < FX_DTYPE_N; i++)
    if (strcmp (name, dtype_names[i]) == 0)
      {
        if (out)
          *out = (FxDType) i;
        return TRUE;
      }
  for (gsize i = 0; i < G_N_ELEMENTS (dtype_aliases); i++)
    if (strcmp (name, dtype_aliases[i].name) == 0)
      {
        if (out)
          *out = dtype_aliases[i].dtype;
        return TRUE;
      }
  return FALSE;
}

gboolean
fx_dtype_is_floating (FxDType dtype)
{
  return dtype == FX_DTYPE_FLOAT16 || dtype == FX_DTYPE_FLOAT32 || dtype == FX_DTYPE_FLOAT64;
}

gboolean
fx_dtype_is_integral (FxDType dtype)
{
  return dtype >= FX_DTYPE_UINT8 && dtype <= FX_DTYPE_INT64;
}

FxDType
fx_dtype_promote (FxDType a, FxDType b)
{
  /* The enum is ordered along the lattice, so the larger one wins; the only pair whose
   * join is neither is uint8 with int8 (no 8-bit type holds both ranges). */
  if ((a == FX_DTYPE_UINT8 && b == FX_DTYPE_INT8) || (a == FX_DTYPE_INT8 && b == FX_DTYPE_UINT8))
    return FX_DTYPE_INT16;
  return a > b ? a : b;
}

const char *
fx_dtype_scalar_type_name (FxDType dtype)
{
  static const char *const names[FX_DTYPE_N] = {
    [FX_DTYPE_BOOL] = "Bool", [FX_DTYPE_UINT8] = "Byte", [FX_DTYPE_INT8] = "Char",
    [FX_DTYPE_INT16] = "Short", [FX_DTYPE_INT32] = "Int", [FX_DTYPE_INT64] = "Long",
    [FX_DTYPE_FLOAT16] = "Half", [FX_DTYPE_FLOAT32] = "Float", [FX_DTYPE_FLOAT64] = "Double",
  };
  return (unsigned) dtype < FX_DTYPE_N ? names[dtype] : "Undefined";
}

const char *
fx_dtype_legacy_name (FxDType dtype)
{
  static const char *const names[FX_DTYPE_N] = {
    [FX_DTYPE_BOOL] = "torch.BoolTensor", [FX_DTYPE_UINT8] = "torch.ByteTensor",
    [FX_DTYPE_INT8] = "torch.CharTensor", [FX_DTYPE_INT16] = "torch.ShortTensor",
    [FX_DTYPE_INT32] = "torch.IntTensor", [FX_DTYPE_INT64] = "torch.LongTensor",
    [FX_DTYPE_FLOAT16] = "torch.HalfTensor", [FX_DTYPE_FLOAT32] = "torch.FloatTensor",
    [FX_DTYPE_FLOAT64] = "torch.DoubleTensor",
  };
  return (unsigned) dtype < FX_DTYPE_N ? names[dtype] : "torch.Tensor";
}

const char *
fx_dtype_typemeta_name (FxDType dtype)
{
  static const char *const names[FX_DTYPE_N] = {
    [FX_DTYPE_BOOL] = "bool", [FX_DTYPE_UINT8] = "unsigned char", [FX_DTYPE_INT8] = "signed char",
    [FX_DTYPE_INT16] = "short int", [FX_DTYPE_INT32] = "int", [FX_DTYPE_INT64] = "long int",
    [FX_DTYPE_FLOAT16] = "c10::Half", [FX_DTYPE_FLOAT32] = "float", [FX_DTYPE_FLOAT64] = "double",
  };
  return (unsigned) dtype < FX_DTYPE_N ? names[dtype] : "unknown";
}

const char *
fx_dtype_aten_type_name (FxDType dtype)
{
  return dtype == FX_DTYPE_BOOL ? "CPUBoolType" : fx_dtype_legacy_name (dtype);
}
