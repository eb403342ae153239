/* golden-values.h: decoding of the values that golden_encode.py writes into the goldens
 * recorded from PyTorch, and tolerant comparison of results with them. Shared by the golden
 * tests of ops and layers. */
#pragma once

#include "fx.h"
#include <json-glib/json-glib.h>

typedef struct {
  double rtol, atol;
  gboolean explicit_tol;
} GoldenTol;

/* Decodes objects golden_encode.py does not know ({"module": ...}): returns 0 when `o` is not
 * one, 1 when decoded (*out set) or on error (*err set). */
typedef int (*GoldenObjectDecoder) (JsonObject *o, FxValue *out, char **err);
void     golden_set_object_decoder (GoldenObjectDecoder decoder);

gboolean golden_decode_value   (JsonNode *node, FxValue *out, char **err);
gboolean golden_number_of      (JsonNode *n, double *out);
gboolean golden_close_enough   (double got, double want, double rtol, double atol);
gboolean golden_compare_value  (const FxValue *got, const FxValue *want, const GoldenTol *tol,
                                GString *why);
