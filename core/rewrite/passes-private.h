/* passes-private.h: helpers the graph passes (passes-*.c) share: calling registry ops on
 * values, copying modules, evaluating a node whose inputs are known. Private to core/rewrite. */
#pragma once

#include "rewrite/passes.h"
#include "ops/op.h"

G_BEGIN_DECLS

/* Calls the registry op at path ("torch.rsqrt", "operator.add", or "Tensor.reshape" for a
 * method) on the NULL-terminated FxValue* arguments; *out (which may be one of them) gets
 * the result, its old value cleared. */
gboolean  fx_pass_call_op     (const char *path, GError **error, FxValue *out, ...)
  G_GNUC_NULL_TERMINATED;

/* A new module with the same type, layer, mode and (shallow-copied) tables. */
FxModule *fx_pass_module_copy (const FxModule *module);

/* Runs node (call_function, call_method, call_module of a builtin layer, get_attr) with
 * its input nodes' values looked up in values (FxNode* → FxValue*); *out: new reference. */
gboolean  fx_pass_eval_node   (FxGraphModule *gm, FxNode *node, GHashTable *values,
                               FxValue *out, GError **error);

G_END_DECLS
