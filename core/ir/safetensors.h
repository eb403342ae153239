/* safetensors.h: the safetensors weight format — an 8-byte little-endian header length, a
 * JSON header naming each tensor's dtype, shape and data_offsets (plus an optional
 * "__metadata__" str → str map), then the raw little-endian data. Used by .fxg sidecars and
 * for weights. Readers validate every field and never trust an offset. */
#pragma once

#include <glib.h>
#include "ir/value.h"

G_BEGIN_DECLS

/* The format's dtype names ("F32", "I64", "BOOL", ...); FALSE for dtypes libfx lacks. */
const char *fx_safetensors_dtype_name (FxDType dtype);
gboolean    fx_safetensors_dtype_from_name (const char *name, FxDType *out);

/* tensors: str → tensor, written in insertion order (any layout: data are written
 * contiguously). metadata: str → str, or NULL. */
GBytes   *fx_safetensors_serialize   (FxDict *tensors, GHashTable *metadata, GError **error);
gboolean  fx_safetensors_save        (FxDict *tensors, GHashTable *metadata, const char *path,
                                      GError **error);
/* Returns str → tensor (fresh contiguous tensors, in data-offset order) and, when
 * metadata_out is not NULL, a new str → str table (empty without "__metadata__"). Any
 * malformed header, dtype, shape, offset or length is an FX_ERROR_PARSE naming the tensor. */
FxDict   *fx_safetensors_deserialize (GBytes *bytes, GHashTable **metadata_out, GError **error);
FxDict   *fx_safetensors_load        (const char *path, GHashTable **metadata_out,
                                      GError **error);

G_END_DECLS
