/* trace.h: symbolic tracing — torch.fx's Tracer, Proxy, wrap() and symbolic_trace(), written
 * in the Python subset (core/trace/torch_fx/) and embedded in libfx — and the C entry points
 * that trace a model of a script. */
#pragma once

#include "script/script.h"
#include "ir/graph-module.h"

G_BEGIN_DECLS

/* Makes torch.fx (and its Python-written submodules) importable in `script`. */
void fx_trace_register_modules (FxScript *script);

/* ---- tracing a model file (trace.c) ----
 * The file runs as a module named after its stem (not __main__, so `if __name__ ==
 * '__main__':` blocks stay out), with its directory first on sys.path, in an interpreter of
 * its own that each call creates and frees: calls on different threads do not interfere.
 * What the file prints goes to the process's stderr. Errors are FX_ERROR GErrors whose
 * message is the Python traceback as CPython prints it: FX_ERROR_PARSE for a SyntaxError,
 * FX_ERROR_TRACE for torch.fx's TraceError, FX_ERROR_IO for an unreadable file,
 * FX_ERROR_INVALID_ARGUMENT for a NAME that is not there or cannot be traced,
 * FX_ERROR_FAILED for any other exception. */

typedef enum {
  FX_TRACE_CANDIDATE_INSTANCE,   /* a module-level nn.Module instance */
  FX_TRACE_CANDIDATE_CLASS,      /* an nn.Module subclass defined in the file */
  FX_TRACE_CANDIDATE_FUNCTION,   /* a plain function defined in the file */
} FxTraceCandidateKind;

typedef struct {
  char *name;                    /* the module-level name */
  FxTraceCandidateKind kind;
  char *type_name;               /* instances: their class's name; classes: their own */
  gboolean constructible;        /* classes: callable with no arguments; others TRUE */
  int line;                      /* where the file binds name (def, class, assignment); 0: unknown */
} FxTraceCandidate;

void       fx_trace_candidate_free   (FxTraceCandidate *candidate);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxTraceCandidate, fx_trace_candidate_free)

/* What fx_trace_file() can trace in the file at path, in module order: a GPtrArray of
 * FxTraceCandidate (freed with the array). NULL with error when the file does not run. */
GPtrArray *fx_trace_list_candidates  (const char *path, GError **error);

/* symbolic_trace of the module-level object `name` of the file at path: an nn.Module
 * instance, an nn.Module subclass (constructed with no arguments) or a function.
 * concrete_args (str → value; may be NULL) is symbolic_trace's; modules whose class name is
 * in extra_leaf_modules (NULL-terminated; may be NULL) are kept as call_module leaves like
 * torch.nn's own. The result owns its module tree and weights (no interpreter behind it);
 * its class name is 1.13's (the module's class name, or the function's name). */
FxGraphModule *fx_trace_file         (const char *path, const char *name, FxDict *concrete_args,
                                      const char *const *extra_leaf_modules, GError **error);

/* Where a tracing error happened, for an editor to open the source there: the innermost
 * frame of error's traceback in the file `path` (NULL: in any file on disk), or for a
 * SyntaxError its position. FALSE when the traceback has no such frame. *file: g_free. */
gboolean   fx_trace_error_location   (const GError *error, const char *path, char **file,
                                      int *line);

/* A Python literal (int, float, bool, None, str, tuples, lists, dicts of those; as
 * ast.literal_eval accepts them) as a value, e.g. for `fx trace --concrete NAME=VALUE`.
 * FALSE with FX_ERROR_PARSE (message as CPython words it) otherwise. */
gboolean   fx_trace_parse_literal    (const char *text, FxValue *out, GError **error);

G_END_DECLS
