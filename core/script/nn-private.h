/* nn-private.h: what nn-module.c, nn-layers.c and nn-init.c share — the payload of every
 * torch.nn.Module instance and the helpers the three files call in each other. */
#pragma once

#include "script/internal.h"
#include "script/nn-bind.h"
#include "ir/module.h"
#include "ops/layers.h"

G_BEGIN_DECLS

/* The payload of a Module instance. Its FxModule mirror holds the truth for parameters and
 * buffers (fx->parameters and fx->buffers are the very dicts Python sees as _parameters and
 * _buffers) and for plain attributes (the instance __dict__ is fx->attributes). Submodules
 * live twice: `modules` maps names to the script instances (what Python sees as _modules,
 * and what keeps them alive), fx->children to their FxModules; the latter is kept in step
 * by every registration here and rebuilt by sc_nn_module_to_fx. */
typedef struct {
  FxModule *fx;
  FxDict *modules;               /* name → Module instance or None */
  gboolean initialized;          /* Module.__init__ ran: registrations allowed */
  FxDict *forward_pre_hooks;     /* handle id → hook, NULL until the first one */
  FxDict *forward_hooks;
} NnModule;

/* Per-interpreter classes of torch.nn, reached through native functions' user_data. */
typedef struct {
  FxScriptClass *module_cls;     /* torch.nn.Module (borrowed: torch.nn's dict owns it) */
  FxScriptClass *parameter_cls;
  FxScriptClass *sequential_cls;
  FxScriptClass *module_list_cls;
  FxScriptClass *module_dict_cls;
  FxScriptClass *incompatible_cls;
  FxScriptClass *handle_cls;     /* torch.utils.hooks.RemovableHandle */
} NnState;

/* nn-module.c */
/* The payload of a Module instance with its instance dict bound to the mirror; raises
 * TypeError and returns NULL for anything else. fname names the method for the message. */
NnModule *nn_self            (FxScript *S, const FxValue *self, const char *fname);
NnModule *nn_payload         (const FxValue *v);            /* NULL unless a Module */
gboolean  nn_is_parameter    (const FxValue *v);
void      nn_mark_parameter  (FxTensor *t);
/* torch.typename(v): "torch.FloatTensor", "int", "__main__.Foo". g_free. */
char     *nn_typename        (FxScript *S, const FxValue *v);
/* Module.add_module's checks and registration. */
gboolean  nn_add_module      (FxScript *S, const FxValue *self, const FxValue *name,
                              const FxValue *module);
/* Puts child (a Module or None) under name into _modules and the mirror, no checks. */
void      nn_set_child       (NnModule *p, const char *name, const FxValue *child);
/* Module.__setattr__ of a Module value on an initialized module: name leaves the plain
 * attributes, parameters and buffers and becomes the child. */
void      nn_assign_child    (NnModule *p, const char *name, const FxValue *child);
/* The builtin layer `m` becomes the mirror of self (nn-layers.c's constructors). */
void      nn_adopt_layer     (FxScript *S, const FxValue *self, FxModule *m);
/* A new generator-like iterator over the items of seq (takes seq). */
FxValue   nn_iterator        (FxScript *S, FxSeq *seq, const char *qualname);
/* collections.OrderedDict(d) when available, else d itself (takes d). */
FxValue   nn_ordered_dict    (FxScript *S, FxDict *d);
gboolean  nn_raise_gerror    (FxScript *S, GError *error);   /* frees error */
FxScriptClass *nn_class      (FxScript *S, NnState *st, const char *module, const char *name,
                              FxScriptClass *base);
void      nn_module_class_init (FxScript *S, FxScriptModule *mod, NnState *st);

/* nn-layers.c */
void      nn_layers_init     (FxScript *S, FxScriptModule *mod, NnState *st);

/* nn-init.c */
gboolean  nn_init_module_init (FxScript *S, FxScriptModule *mod, gpointer user_data);

G_END_DECLS
