/* tracer.h: the tracer's hooks overridable from C (FxTracer, a vtable like a script subclass of
 * torch.fx.Tracer overriding methods) and the natives that run torch.fx's hot paths (Proxy
 * operators, create_proxy, the patched nn.Module __call__ / __getattr__) in C. */
#pragma once

#include "script/script.h"
#include "ir/graph-module.h"

G_BEGIN_DECLS

typedef struct _FxTracer FxTracer;
/* One call of a submodule during a trace, as a call_module hook sees it (tracer.c). */
typedef struct _FxModuleCall FxModuleCall;

/* Hooks of a C tracer; NULL members keep torch.fx's behaviour. A script subclass overriding
 * the same hook still wins (its override is what 1.13 would call). Together is_leaf_module
 * and path_of_module decide what torch.fx's call_module does. */
typedef struct {
  /* is_leaf_module(m, qualified_name): TRUE keeps the module a call_module node instead of
   * tracing through its forward. class_name / class_module: type(m).__name__ / __module__;
   * default_answer: what torch.fx's own is_leaf_module says. */
  gboolean (*is_leaf_module) (FxTracer *tracer, const char *class_name, const char *class_module,
                              const char *qualified_name, gboolean default_answer);
  /* path_of_module(m): the qualified name a called submodule is known by (the call_module
   * target, what is_leaf_module is asked with). default_path: torch.fx's answer. NULL keeps
   * it; else a new string the tracer frees. */
  char *(*path_of_module) (FxTracer *tracer, const char *class_name, const char *class_module,
                           const char *default_path);
  /* create_node: every node torch.fx's create_node makes (placeholders, get_attr, calls,
   * output), right after it is in the graph; the hook may edit it (meta, args...). FALSE
   * fails the trace with error (a RuntimeError when error is left NULL). */
  gboolean (*create_node) (FxTracer *tracer, FxNode *node, GError **error);
  /* to_bool(proxy): node's value used as a condition (if, while, bool()). TRUE with *answer:
   * the trace takes that branch; FALSE keeps torch.fx's TraceError. */
  gboolean (*to_bool) (FxTracer *tracer, FxNode *node, gboolean *answer);
  /* iter(proxy): node's value iterated (for, *args). TRUE with *n_items: the iteration yields
   * proxy[0] ... proxy[n_items - 1] (getitem nodes); FALSE keeps torch.fx's TraceError. */
  gboolean (*iter) (FxTracer *tracer, FxNode *node, guint *n_items);
  /* keys(proxy): node's value's keys (proxy.keys(), **proxy). TRUE with *keys (a
   * NULL-terminated array the tracer frees with g_strfreev): those strings, so that **proxy
   * yields proxy[key] nodes; FALSE keeps torch.fx's keys() call_method node. */
  gboolean (*keys) (FxTracer *tracer, FxNode *node, char ***keys);
  /* create_proxy: every node torch.fx's create_proxy makes (placeholders, calls, the
   * parameters getattr proxies; not output, nor create_arg's get_attr nodes), after
   * create_node (and its hook) and before the node's Proxy is made; the hook may edit it
   * (target, args, meta...). FALSE fails the trace as create_node's does. */
  gboolean (*create_proxy) (FxTracer *tracer, FxNode *node, GError **error);
  /* create_arg(a): each value create_arg lowers into a node's arguments, asked before
   * torch.fx's own rules — not proxies, nor the tuples, lists, dicts and slices it walks
   * (their items are asked). TRUE with *out (a new value, no node references) puts that in
   * a's place; FALSE keeps torch.fx's lowering. */
  gboolean (*create_arg) (FxTracer *tracer, const FxValue *a, FxValue *out);
  /* getattr(attr, value): a module's tensor attribute read during the trace. TRUE keeps
   * torch.fx's getattr (a parameter becomes one cached get_attr proxy); FALSE gives the
   * tensor itself, which create_arg then lowers where it is used (a get_attr node per use
   * for a parameter or buffer of the root, a _tensor_constant otherwise). */
  gboolean (*getattr) (FxTracer *tracer, const char *attr, const FxValue *value);
  /* call_module(m, forward, args, kwargs): each call of a submodule in the traced code. The
   * hook answers with fx_module_call_default() (1.13's Tracer.call_module: path_of_module,
   * then is_leaf_module picks a call_module node or tracing through forward),
   * fx_module_call_forward() or fx_module_call_leaf(); the last answer that succeeded is the
   * call's result, and returning TRUE without one takes the default. An answer that fails
   * leaves the script exception pending: returning FALSE then raises it as it was (a hook
   * that returns TRUE drops it, as a try/except would); else FALSE fails the trace with
   * error (a RuntimeError when error is left NULL). */
  gboolean (*call_module) (FxTracer *tracer, FxModuleCall *call, GError **error);
} FxTracerClass;

struct _FxTracer {
  const FxTracerClass *klass;
  gpointer user_data;
};

/* type(m).__name__ and type(m).__module__ of the called module. */
const char *fx_module_call_class_name   (const FxModuleCall *call);
const char *fx_module_call_class_module (const FxModuleCall *call);
/* path_of_module(m) (a script override or the C path_of_module hook included), asked once
 * per call; NULL with error when it fails. */
const char *fx_module_call_path         (FxModuleCall *call, GError **error);
/* The answers (see call_module above). forward: run m's forward on the proxies, recording
 * what it does. leaf: one call_module node of target (NULL: the call's path) through
 * create_proxy. */
gboolean    fx_module_call_default      (FxModuleCall *call, GError **error);
gboolean    fx_module_call_forward      (FxModuleCall *call, GError **error);
gboolean    fx_module_call_leaf         (FxModuleCall *call, const char *target, GError **error);
/* The node of the last answer's result when it is a Proxy, else NULL. */
FxNode     *fx_module_call_result_node  (FxModuleCall *call);

/* Like fx_trace_file() (trace.h), with tracer's hooks consulted during the trace. */
FxGraphModule *fx_tracer_trace_file (FxTracer *tracer, const char *path, const char *name,
                                     FxDict *concrete_args, GError **error);

/* ---- internal to core/trace ---- */
/* Adds the tracer natives to the torch.fx._glue module dict. */
void      fx_tracer_natives_add     (FxScriptModule *glue);
/* A script value carrying tracer (borrowed: it must outlive the value's use). */
FxValue   fx_tracer_capsule_new     (FxTracer *tracer);

G_END_DECLS
