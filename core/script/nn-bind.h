/* nn-bind.h: how C code outside torch.nn's bindings sees script nn.Module instances — their
 * FxModule trees (for the tracer building GraphModules) and whether a value is one. */
#pragma once

#include "script/script.h"
#include "ir/module.h"

G_BEGIN_DECLS

/* The FxModule tree of a script Module instance (Python subclasses included), brought in
 * step with the instances' _modules first; new reference. Each FxModule's `impl` is its
 * script instance (an ScInstance, valid while that instance lives). NULL (nothing raised)
 * when module is not a Module instance. */
FxModule *sc_nn_module_to_fx (FxScript *script, const FxValue *module);

/* root.named_modules(remove_duplicate=False) in pre-order without script values around
 * it: names (g_free'd strings, appended) and modules (borrowed FxObject*, appended). FALSE,
 * nothing raised, when root is not a Module or its class has its own named_modules. */
gboolean  sc_nn_named_modules_all (FxScript *script, const FxValue *root, GPtrArray *names,
                                   GPtrArray *modules);
/* isinstance(v, torch.nn.Module) */
gboolean  sc_nn_is_module    (FxScript *script, const FxValue *v);

/* isinstance(v, torch.nn.Parameter) */
gboolean  sc_nn_is_parameter (FxScript *script, const FxValue *v);

G_END_DECLS
