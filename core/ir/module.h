/* module.h: FxModule — the nn.Module tree: ordered parameters, buffers and submodules,
 * plain attributes (hyper-parameters), lookup by qualified path, state_dict and PyTorch's
 * repr. Builtin layers (Linear, Conv2d, ...) are FxModules whose `layer` says what they do.
 * An FxModule is an FxObject, so it can sit in FxValues (dicts, args, script objects). */
#pragma once

#include <glib.h>
#include "ir/value.h"

G_BEGIN_DECLS

typedef struct _FxModule FxModule;
typedef struct _FxLayerKind FxLayerKind;   /* ops/layers.h: builtin layer descriptions */

struct _FxModule {
  FxObject parent;
  char *type_name;              /* Python class name: "Linear", "BasicBlock", "Module" */
  const FxLayerKind *layer;     /* the builtin layer this is, or NULL */
  gboolean training;
  FxDict *parameters;           /* name → tensor (requires_grad) or None, registration order */
  FxDict *buffers;              /* name → tensor or None */
  GHashTable *non_persistent;   /* buffer names left out of state_dict */
  FxDict *children;             /* name → FxModule object or None */
  FxDict *attributes;           /* everything else set on the module: in_features=4, ... */
  /* The one-line description between the parentheses of repr (Linear's
   * "in_features=4, out_features=5, bias=True"); NULL for none. g_free the result. */
  char *(*extra_repr) (const FxModule *module);
  gpointer impl;                /* owner object of a higher layer (script instance); not owned */
};

extern const FxObjectClass fx_module_class;

FxModule   *fx_module_new               (const char *type_name);
FxModule   *fx_module_ref               (FxModule *module);
void        fx_module_unref             (FxModule *module);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxModule, fx_module_unref)
gboolean    fx_value_is_module          (const FxValue *value);
/* Borrowed; NULL unless value holds an FxModule. */
FxModule   *fx_value_get_module         (const FxValue *value);
FxValue     fx_value_module             (FxModule *module);   /* adds a reference */

/* Registration (nn.Module.register_parameter / register_buffer / add_module). The tensor
 * or module may be NULL (registered as None). A name registered in one table leaves the
 * others, as in PyTorch. */
void        fx_module_register_parameter (FxModule *module, const char *name, FxTensor *param);
void        fx_module_register_buffer    (FxModule *module, const char *name, FxTensor *buffer,
                                          gboolean persistent);
void        fx_module_add_module         (FxModule *module, const char *name, FxModule *child);
void        fx_module_set_attribute      (FxModule *module, const char *name, const FxValue *value);

/* nn.Module.get_submodule: "" is module itself; errors like PyTorch's AttributeErrors. */
FxModule   *fx_module_get_submodule     (FxModule *module, const char *target, GError **error);
/* Looks up an attribute by qualified path ("layer1.0.conv1.weight"): a parameter, buffer,
 * submodule or plain attribute. Writes a new reference into *out. */
gboolean    fx_module_get_attr          (FxModule *module, const char *target, FxValue *out,
                                         GError **error);
/* What kind of thing path names: 'p'arameter, 'b'uffer, 'm'odule, 'a'ttribute, or 0. */
char        fx_module_attr_kind         (FxModule *module, const char *target);

/* named_modules() in PyTorch's order (pre-order; each module once): arrays of
 * qualified names (g_free) and borrowed modules. */
void        fx_module_named_modules     (FxModule *module, GPtrArray *names, GPtrArray *modules);
/* named_parameters() / named_buffers(): prefix-qualified, each tensor once. Values are
 * borrowed tensors. */
void        fx_module_named_parameters  (FxModule *module, GPtrArray *names, GPtrArray *tensors);
void        fx_module_named_buffers     (FxModule *module, GPtrArray *names, GPtrArray *tensors);
/* state_dict(): name → tensor, parameters then persistent buffers then children, as PyTorch
 * orders it (None entries skipped). */
FxDict     *fx_module_state_dict        (FxModule *module);
/* repr(module): "Net(\n  (fc): Linear(in_features=4, out_features=5, bias=True)\n)". */
char       *fx_module_repr              (const FxModule *module);
/* train(mode) on the whole tree. */
void        fx_module_train             (FxModule *module, gboolean mode);

G_END_DECLS
