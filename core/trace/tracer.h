/* tracer.h: the tracer's hooks overridable from C (FxTracer, a vtable like a script subclass of
 * torch.fx.Tracer overriding methods) and the natives that run torch.fx's hot paths (Proxy
 * operators, create_proxy, the patched nn.Module __call__ / __getattr__) in C. */
#pragma once

#include "script/script.h"
#include "ir/graph-module.h"

G_BEGIN_DECLS

typedef struct _FxTracer FxTracer;

/* Hooks of a C tracer; NULL members keep torch.fx's behaviour. A script subclass overriding
 * the same hook still wins (its override is what 1.13 would call). */
typedef struct {
  /* is_leaf_module(m, qualified_name): TRUE keeps the module a call_module node instead of
   * tracing through its forward. class_name / class_module: type(m).__name__ / __module__;
   * default_answer: what torch.fx's own is_leaf_module says. */
  gboolean (*is_leaf_module) (FxTracer *tracer, const char *class_name, const char *class_module,
                              const char *qualified_name, gboolean default_answer);
} FxTracerClass;

struct _FxTracer {
  const FxTracerClass *klass;
  gpointer user_data;
};

/* Like fx_trace_file() (trace.h), with tracer's hooks consulted during the trace. */
FxGraphModule *fx_tracer_trace_file (FxTracer *tracer, const char *path, const char *name,
                                     FxDict *concrete_args, GError **error);

/* ---- internal to core/trace ---- */
/* Adds the tracer natives to the torch.fx._glue module dict. */
void      fx_tracer_natives_add     (FxScriptModule *glue);
/* A script value carrying tracer (borrowed: it must outlive the value's use). */
FxValue   fx_tracer_capsule_new     (FxTracer *tracer);

G_END_DECLS
