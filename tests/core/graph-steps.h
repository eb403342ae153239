/* graph-steps.h: helpers of the golden tests — JSON values to FxValues, and replaying the
 * Graph API steps of gen_graphs.py on libfx. */
#pragma once

#include <fx.h>
#include <json-glib/json-glib.h>

/* Decodes a golden_encode.py value; {"node": name} looks the node up in nodes (name → FxNode). */
FxValue  golden_decode        (JsonNode *node, GHashTable *nodes);
FxValue  golden_decode_seq    (JsonArray *array, GHashTable *nodes, gboolean tuple);
FxValue  golden_decode_kwargs (JsonObject *object, GHashTable *nodes);
/* Replays steps (see gen_graphs.py) on a new graph. targets holds torch's facts about each
 * call_function path (for ops the registry does not have yet). Nodes created are entered in
 * nodes; each error becomes "STEP TYPE MESSAGE" in errors. */
FxGraph *golden_replay_steps  (JsonArray *steps, JsonObject *targets, GHashTable *nodes,
                               GPtrArray *errors);
/* Replaces " at 0x1234" object addresses by " at 0x?". g_free. */
char    *golden_mask_addresses (const char *s);
/* Loads tests/conformance/goldens/FILE and adds one test per case ("PREFIX<id>") running
 * func on the case's JsonObject. Keep the parser alive until g_test_run() returns. */
JsonParser *golden_add_cases (const char *file, const char *prefix, GTestDataFunc func);
