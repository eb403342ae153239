/* fxg.h: the editor's .fxg document — a versioned JSON file holding a GraphModule (its module
 * tree with layer hyper-parameters, its graph node by node, selected node meta) plus the
 * editor's own state, with tensors inline (< 64 elements) or in a safetensors sidecar
 * "NAME.fxg.safetensors". Loading validates every field and reports the offending element.
 *
 * Layout (version 1):
 *   {"format": "fxg", "version": 1, "class_name": "GraphModule",
 *    "module": MODULE, "nodes": [NODE, ...], "tensors": {NAME: TENSOR, ...},
 *    "sidecar": {"file": "m.fxg.safetensors", "sha256": "..."},      (only when needed)
 *    "editor": {...}}                                                   (only when given)
 *   MODULE  {"type": "Linear", "layer": true, "training": true,
 *            "parameters": [[name, {"tensor": NAME} | null], ...],
 *            "buffers": [[name, {"tensor": NAME} | null, persistent], ...],
 *            "attributes": [[name, VALUE], ...], "children": [[name, MODULE | null], ...]}
 *   NODE    {"name": "add", "op": "call_function", "target": "operator.add",
 *            "args": [VALUE, ...], "kwargs": [[name, VALUE], ...], "type": "int" | null,
 *            "meta": [[key, VALUE], ...]}
 *   TENSOR  {"dtype": "float32", "shape": [2, 3], "requires_grad": false,
 *            "data": BASE64 (little-endian, row-major) | "sidecar": true}
 *   VALUE   null, true, 3, 2.5 (always with '.' or 'e'), "str", {"float": "nan"|"inf"|"-inf"},
 *           {"tuple": [...]}, {"size": [...]}, {"list": [...]}, {"dict": [[k, v], ...]},
 *           {"slice": [a, b, c]}, {"ellipsis": true}, {"dtype": "float32"},
 *           {"device": "cpu"}, {"tensor": NAME}, {"node": NAME}, {"op": "torch.relu"}
 * Editor state is the caller's: when it has "positions" ({node: [x, y]}), "zoom" (number)
 * or "scroll" ([x, y]), those are checked against the graph; everything else passes through. */
#pragma once

#include <json-glib/json-glib.h>
#include "ir/graph-module.h"

G_BEGIN_DECLS

#define FX_FXG_VERSION 1
/* Tensors with fewer elements are stored inline in the JSON. */
#define FX_FXG_INLINE_MAX_ELEMENTS 64

/* editor_state may be NULL. Writes the sidecar (PATH.safetensors) first when any tensor is
 * large; both files are replaced atomically. */
gboolean       fx_fxg_save (FxGraphModule *gm, JsonObject *editor_state, const char *path,
                            GError **error);
/* editor_state_out (may be NULL) receives a new reference to the editor object, or NULL
 * when the file has none. The graph returned lints. */
FxGraphModule *fx_fxg_load (const char *path, JsonObject **editor_state_out, GError **error);

/* The same on memory: the JSON text, and the sidecar's bytes (NULL if none). */
char          *fx_fxg_to_data   (FxGraphModule *gm, JsonObject *editor_state,
                                 const char *sidecar_name, GBytes **sidecar_out,
                                 GError **error);
FxGraphModule *fx_fxg_from_data (const char *data, gsize length, GBytes *sidecar,
                                 JsonObject **editor_state_out, GError **error);

G_END_DECLS
