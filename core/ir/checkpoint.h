/* checkpoint.h: PyTorch's own checkpoint files — what torch.save(state_dict, f) writes in
 * 1.13 (a zip archive of data.pkl, data/<key> storage records and version) — written so that
 * torch.load reads them, and read back through a small, safe pickle interpreter that knows
 * only the globals a state dict uses. */
#pragma once

#include <glib.h>
#include "ir/value.h"

G_BEGIN_DECLS

/* Writes state_dict (str → tensor, in order) as torch.save does: one storage record per
 * distinct FxStorage (views keep sharing it, with their offsets and strides), tensors that
 * require grad saved as nn.Parameters. Tensors viewing one storage as different dtypes are
 * refused, with torch's message. */
gboolean  fx_checkpoint_save (FxDict *state_dict, const char *path, GError **error);
/* torch.save(obj, path) for obj made of None, bools, ints, floats, strs, tuples, lists,
 * dicts and tensors. Dicts in ordered_dicts (a set of FxDict*, may be NULL) are written as
 * collections.OrderedDict, the others as dict. */
gboolean  fx_checkpoint_save_value (const FxValue *obj, GHashTable *ordered_dicts,
                                    const char *path, GError **error);

/* Reads a torch.save file (zip format) whose object is a dict of str → tensor
 * (collections.OrderedDict or dict; Parameters become tensors with requires_grad set).
 * Tensors are views of shared storages, exactly as saved. Anything outside the supported
 * pickle subset — an unknown global, opcode, storage type — is an FX_ERROR_PARSE naming it;
 * a truncated or corrupt archive is an error too, never a crash. */
FxDict   *fx_checkpoint_load (const char *path, GError **error);
/* The same for any object made of None, bools, ints, floats, strs, tuples, lists, dicts and
 * tensors (e.g. {"epoch": 3, "model": {...}}). */
gboolean  fx_checkpoint_load_value (const char *path, FxValue *out, GError **error);
/* The same, also returning the set of dicts (FxDict*, each holding a reference) that the
 * file made as collections.OrderedDict, so that callers can tell them from plain dicts. */
gboolean  fx_checkpoint_load_value_ordered (const char *path, FxValue *out,
                                            GHashTable **ordered_out, GError **error);
/* From a checkpoint held in memory. */
gboolean  fx_checkpoint_load_bytes (GBytes *bytes, FxValue *out, GError **error);

G_END_DECLS
