/* layers.h: the module registry next to the op registry — the builtin torch.nn layers (Linear,
 * Conv2d, ReLU, Sequential, ...) with PyTorch 1.13's constructor, initialisation, repr and forward. */
#pragma once

#include <glib.h>
#include "ir/module.h"

G_BEGIN_DECLS

/* argv: one value per constructor-schema argument, as the caller gave it (Python converts
 * nothing when it binds __init__'s arguments; the layer checks what it needs). For layers
 * taking *args (Identity, Sequential), argv is the positional arguments themselves. */
typedef gboolean (*FxLayerInitFunc)    (FxModule *module, const FxValue *argv, int n_argv,
                                        GError **error);
/* argv: one value per forward-schema argument, after self. */
typedef gboolean (*FxLayerForwardFunc) (FxModule *module, const FxValue *argv,
                                        FxValue *result, GError **error);

typedef enum {
  FX_LAYER_FLAG_VARARGS  = 1 << 0,   /* __init__(self, *args): Sequential */
  FX_LAYER_FLAG_ANY_ARGS = 1 << 1,   /* __init__(self, *args, **kwargs), all ignored: Identity */
  FX_LAYER_FLAG_CONTAINER = 1 << 2,  /* holds user-given children: Sequential, ModuleList, ... */
} FxLayerFlags;

struct _FxLayerKind {
  const char *type_name;       /* Python class name: "Linear" */
  const char *module_path;     /* its module: "torch.nn.modules.linear" */
  /* PyTorch's constructor signature without self, e.g. "Linear(int in_features,
   * int out_features, bool bias=True, Device? device=None, ScalarType? dtype=None)"; in
   * fx_schema_parse()'s grammar except for *args layers ("Sequential(*args)"). */
  const char *schema;
  /* forward's signature without self: "forward(Tensor input) -> Tensor"; NULL: no forward. */
  const char *forward_schema;
  /* The classes whose __init__ / forward run (for messages: "_BatchNorm.__init__() ..."). */
  const char *init_owner;
  const char *forward_owner;
  const char *category;        /* catalog group: "linear", "convolution", "activation", ... */
  const char *doc;             /* one line for the catalog */
  FxLayerFlags flags;
  FxLayerInitFunc init;
  /* The text between repr's parentheses, read from the module's attributes; NULL: none. */
  char *(*extra_repr) (const FxModule *module);
  FxLayerForwardFunc forward;  /* NULL: no forward (ModuleList, ModuleDict) */
};

/* NULL when type_name is not a builtin layer. */
const FxLayerKind        *fx_layer_lookup (const char *type_name);
/* Every builtin layer, in catalog order. */
const FxLayerKind *const *fx_layers_all   (guint *n);

/* torch.nn.<type_name>(*args, **kwargs): binds like PyTorch (TypeErrors with CPython's
 * wording), checks what PyTorch checks, and initialises parameters exactly as torch 1.13
 * draws them from the default generator. kwargs: str keys; may be NULL. */
FxModule *fx_layer_new            (const char *type_name, const FxValue *args, int n_args,
                                   const FxDict *kwargs, GError **error);
/* module(*args, **kwargs) for a builtin layer (module->layer set); reads the hyper-parameters
 * from module->attributes and module->training, as PyTorch's forward reads self.*. */
gboolean  fx_module_forward_layer (FxModule *module, const FxValue *args, int n_args,
                                   const FxDict *kwargs, FxValue *result, GError **error);

/* How containers (Sequential) call their children. A higher layer (the script evaluator, the
 * tracer) installs a caller so that children written in script, and hooks such as the
 * tracer's call_module, see these calls; func NULL restores the default, which runs builtin
 * layers with fx_module_forward_layer() and fails for any other module. */
typedef gboolean (*FxModuleCallFunc) (FxModule *module, const FxValue *args, int n_args,
                                      const FxDict *kwargs, FxValue *result, gpointer user_data,
                                      GError **error);
void      fx_layers_set_module_caller (FxModuleCallFunc func, gpointer user_data);
/* module(*args, **kwargs) through the installed caller. */
gboolean  fx_module_call          (FxModule *module, const FxValue *args, int n_args,
                                   const FxDict *kwargs, FxValue *result, GError **error);

G_END_DECLS
