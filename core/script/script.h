/* script.h: the Python front end — an interpreter for the subset of Python that model code
 * and torch.fx scripts use — and its embedding API: run files, register native modules and
 * classes (which Python classes may subclass), call Python from C, and turn exceptions into
 * GErrors and back.
 *
 * Values are FxValue (ir/value.h): None, bool, int, float, str, tuple, list, dict, slice,
 * Ellipsis, tensors, dtypes, devices, nodes and registry ops are plain FxValue kinds; every
 * other Python object (functions, classes, instances, modules, sets, ranges, ...) is an
 * FX_VALUE_OBJECT owned by this layer.
 *
 * Error convention: functions returning gboolean return FALSE when a Python exception is
 * pending in the interpreter (fx_script_exception_pending()). Native functions signal errors
 * the same way: either raise with fx_script_raise*() and return FALSE, or set their GError
 * (FX_ERROR domain; the code picks the Python class through fx_error_code_python_name) and
 * return FALSE — the interpreter turns it into an exception of that class. */
#pragma once

#include <glib.h>
#include "ir/value.h"
#include "ops/op.h"

G_BEGIN_DECLS

typedef struct _FxScript FxScript;             /* one interpreter; one thread at a time */
typedef struct _FxScriptClass FxScriptClass;   /* a Python class (type object) */
typedef struct _FxScriptModule FxScriptModule; /* a module object */

/* ------------------------------------------------------------------ interpreters */

FxScript *fx_script_new           (void);
void      fx_script_free          (FxScript *script);
/* The interpreter running on this thread (inside fx_script_* calls), or NULL. */
FxScript *fx_script_get_current   (void);

/* sys.argv; argv[0] is the script path. */
void      fx_script_set_argv      (FxScript *script, int argc, const char *const *argv);

/* Where print() and sys.stdout/sys.stderr write; default: the process's stdout/stderr. */
typedef void (*FxScriptWriteFunc) (const char *text, gsize len, gpointer user_data);
void      fx_script_set_output    (FxScript *script, FxScriptWriteFunc out, FxScriptWriteFunc err,
                                   gpointer user_data);
void      fx_script_write_stdout  (FxScript *script, const char *text, gssize len);
void      fx_script_write_stderr  (FxScript *script, const char *text, gssize len);

/* Runs a file as the __main__ module. FALSE: an exception is pending (a SyntaxError for
 * malformed source, SystemExit after sys.exit()). */
gboolean  fx_script_run_file      (FxScript *script, const char *path);
/* Runs source text in the module `module_name` (created if needed, "__main__" if NULL);
 * filename is what tracebacks show. */
gboolean  fx_script_run_string    (FxScript *script, const char *source, const char *filename,
                                   const char *module_name);
/* Everything `python3 PATH ARGS...` does: sets sys.argv to argv (argv[0] is PATH as given;
 * argc 0: [PATH]), puts the script's directory and $PYTHONPATH on sys.path, runs, prints an
 * uncaught exception as CPython's traceback on stderr; returns the exit status (0, 1, 2 for
 * a missing file, or sys.exit's). */
int       fx_script_main          (FxScript *script, const char *path, int argc,
                                   const char *const *argv);

/* ------------------------------------------------------------------ exceptions */

/* Each returns FALSE, so that natives can `return fx_script_raise (...)`. class_name is a
 * builtin exception ("TypeError", "KeyError", ...) or one registered with
 * fx_script_register_exception(); unknown names raise RuntimeError. */
gboolean  fx_script_raise         (FxScript *script, const char *class_name, const char *format,
                                   ...) G_GNUC_PRINTF (3, 4);
gboolean  fx_script_raise_class   (FxScript *script, FxScriptClass *cls, const char *format,
                                   ...) G_GNUC_PRINTF (3, 4);
/* An exception instance or class value. */
gboolean  fx_script_raise_value   (FxScript *script, const FxValue *exc);
/* GError (FX_ERROR) → exception of class fx_error_code_python_name(code), message as is. */
gboolean  fx_script_raise_gerror  (FxScript *script, const GError *error);

gboolean  fx_script_exception_pending (FxScript *script);
/* Is the pending exception an instance of the named class (or a subclass)? */
gboolean  fx_script_exception_matches (FxScript *script, const char *class_name);
/* The pending exception instance (new reference), or None. */
FxValue   fx_script_get_exception (FxScript *script);
void      fx_script_clear_exception (FxScript *script);
/* Moves the pending exception into a GError: FX_ERROR with the code matching the class
 * (ValueError → FX_ERROR_INVALID_ARGUMENT, ...; others FX_ERROR_FAILED) and the message
 * "ClassName: message". The exception is cleared. */
void      fx_script_exception_to_gerror (FxScript *script, GError **error);
/* The pending exception formatted as CPython prints it (traceback, chained exceptions,
 * SyntaxError carets). g_free. */
char     *fx_script_format_exception (FxScript *script);
/* Prints it on the interpreter's stderr and clears it. */
void      fx_script_print_exception (FxScript *script);
/* Makes a native exception class raisable by name (e.g. torch.fx's TraceError). */
void      fx_script_register_exception (FxScript *script, FxScriptClass *cls);

/* ------------------------------------------------------------------ native functions */

/* A function implemented in C. args/n_args are the positional arguments (for methods,
 * args[0] is self; for classmethods, the class); kwargs (str keys) may be NULL. Write a new
 * reference into *result and return TRUE, or raise and return FALSE. */
typedef gboolean (*FxScriptFunc) (FxScript *script, const FxValue *args, int n_args,
                                  FxDict *kwargs, FxValue *result, gpointer user_data);

/* A callable value: repr "<built-in function NAME>", __module__ `module` (may be NULL). */
FxValue   fx_script_function_new  (const char *module, const char *name, FxScriptFunc func,
                                   gpointer user_data, GDestroyNotify destroy);

/* CPython-style argument binding for natives: names[0..n_names) are the parameters, the
 * first n_positional may be passed by position, the first n_required are required.
 * out[i] receives a borrowed pointer or NULL when not given. Raises TypeError like CPython
 * ("f() missing required argument 'x' (pos 1)", "f() got an unexpected keyword argument"). */
gboolean  fx_script_parse_args    (FxScript *script, const char *fname, const FxValue *args,
                                   int n_args, FxDict *kwargs, const char *const *names,
                                   int n_names, int n_positional, int n_required,
                                   const FxValue **out);

/* Conversions that raise TypeError with CPython's wording on a wrong type. */
gboolean  fx_script_to_int        (FxScript *script, const FxValue *v, int64_t *out);
gboolean  fx_script_to_float      (FxScript *script, const FxValue *v, double *out);
gboolean  fx_script_to_bool       (FxScript *script, const FxValue *v, gboolean *out);  /* truth */
const char *fx_script_to_str      (FxScript *script, const FxValue *v);  /* borrowed; str only */

/* ------------------------------------------------------------------ modules */

/* Called once, on the first import of `name`, to fill the new module. */
typedef gboolean (*FxScriptModuleInit) (FxScript *script, FxScriptModule *module,
                                        gpointer user_data);
/* Registers a native module by dotted name ("torch", "torch.nn.functional"). Importing
 * "a.b" imports "a" first and binds b as an attribute of a. */
void      fx_script_register_module (FxScript *script, const char *name, FxScriptModuleInit init,
                                     gpointer user_data, GDestroyNotify destroy);
/* Imports a module (native, builtin or a .py file on sys.path); new reference in *module. */
gboolean  fx_script_import        (FxScript *script, const char *name, FxValue *module);

const char *fx_script_module_get_name (FxScriptModule *module);
FxValue   fx_script_module_value  (FxScriptModule *module);       /* new reference */
FxDict   *fx_script_module_dict   (FxScriptModule *module);       /* borrowed globals */
/* Takes ownership of value. */
void      fx_script_module_set    (FxScriptModule *module, const char *name, FxValue value);
FxValue  *fx_script_module_lookup (FxScriptModule *module, const char *name);  /* borrowed */
void      fx_script_module_add_function (FxScriptModule *module, const char *name,
                                         FxScriptFunc func, gpointer user_data);
/* A module-level __getattr__(name) for names not in the dict (lazy attributes). */
void      fx_script_module_set_getattr (FxScriptModule *module, FxScriptFunc func,
                                        gpointer user_data);

/* ------------------------------------------------------------------ classes */

typedef struct {
  const char *module;      /* __module__: "torch.nn.modules.module" */
  const char *name;        /* "Module" */
  const char *qualname;    /* NULL: name */
  /* A payload for each new instance of this class or of any subclass (Python ones too);
   * NULL: none. Reached with fx_script_instance_payload(). */
  gpointer (*payload_new) (FxScript *script, FxScriptClass *cls, gpointer class_data);
  void     (*payload_free) (gpointer payload);
  gpointer class_data;
} FxScriptClassInfo;

/* A native class deriving from `base` (NULL: object). Python code may subclass it; its
 * methods are ordinary class attributes, so a subclass overrides them and reaches them with
 * super(). Special methods are methods with the dunder name: add "__init__", "__call__",
 * "__getattr__" (attribute-missing fallback), "__setattr__", "__getitem__", "__repr__", ...
 * and they take part in Python's protocols exactly like Python-defined ones. */
FxScriptClass *fx_script_class_new (FxScript *script, const FxScriptClassInfo *info,
                                    FxScriptClass *base);
/* Methods get self as args[0]; class methods get the class; static methods neither. */
void      fx_script_class_add_method       (FxScriptClass *cls, const char *name,
                                            FxScriptFunc func, gpointer user_data);
void      fx_script_class_add_classmethod  (FxScriptClass *cls, const char *name,
                                            FxScriptFunc func, gpointer user_data);
void      fx_script_class_add_staticmethod (FxScriptClass *cls, const char *name,
                                            FxScriptFunc func, gpointer user_data);
/* A property: getter(self) and setter(self, value) (setter may be NULL: read-only). */
void      fx_script_class_add_property     (FxScriptClass *cls, const char *name,
                                            FxScriptFunc getter, FxScriptFunc setter,
                                            gpointer user_data);
/* A class attribute; takes ownership of value. */
void      fx_script_class_set_attr         (FxScriptClass *cls, const char *name, FxValue value);
FxValue   fx_script_class_value            (FxScriptClass *cls);   /* new reference */
const char *fx_script_class_get_name       (FxScriptClass *cls);
/* The class a value stands for (FX_VALUE_OBJECT holding a class), or NULL. */
FxScriptClass *fx_script_value_get_class   (const FxValue *v);
/* type(v) */
FxScriptClass *fx_script_type_of           (FxScript *script, const FxValue *v);
gboolean  fx_script_is_subclass            (FxScriptClass *cls, FxScriptClass *base);
gboolean  fx_script_isinstance             (FxScript *script, const FxValue *v, FxScriptClass *cls);
/* "object", "int", "list", "Exception", "KeyError", ... or NULL. */
FxScriptClass *fx_script_builtin_class     (FxScript *script, const char *name);

/* Instances: a new instance without calling __init__ (payload created); the payload of the
 * nearest native class in its MRO; its __dict__ (created on demand; borrowed). */
FxValue   fx_script_instance_new     (FxScript *script, FxScriptClass *cls);
gpointer  fx_script_instance_payload (const FxValue *v);
FxDict   *fx_script_instance_dict    (const FxValue *v);

/* The class standing for a non-object value kind (FX_VALUE_TENSOR → torch.Tensor,
 * FX_VALUE_DTYPE, FX_VALUE_DEVICE, FX_VALUE_NODE, FX_VALUE_OP): type(), isinstance(),
 * attribute lookup and operators on such values go through it. */
void      fx_script_set_kind_class   (FxScript *script, FxValueKind kind, FxScriptClass *cls);
/* The class of tuples carrying this FxTupleType (torch.Size, named tuples). */
void      fx_script_register_tuple_type (FxScript *script, const FxTupleType *type,
                                         FxScriptClass *cls);
/* The class of foreign FxObjects with this FxObjectClass (objects of other layers). */
void      fx_script_register_object_class (FxScript *script, const FxObjectClass *klass,
                                           FxScriptClass *cls);

/* Calls of registry ops (FX_VALUE_OP values, e.g. torch.relu) go through this hook when set
 * (the tracer records them); default: fx_op_call(). */
typedef gboolean (*FxScriptOpCallFunc) (FxScript *script, const FxOp *op, const FxValue *args,
                                        int n_args, FxDict *kwargs, FxValue *result,
                                        gpointer user_data);
void      fx_script_set_op_call      (FxScript *script, FxScriptOpCallFunc func, gpointer user_data);

/* ------------------------------------------------------------------ operations */

gboolean  fx_script_getattr    (FxScript *script, const FxValue *obj, const char *name, FxValue *out);
gboolean  fx_script_setattr    (FxScript *script, const FxValue *obj, const char *name,
                                const FxValue *value);
gboolean  fx_script_delattr    (FxScript *script, const FxValue *obj, const char *name);
/* getattr without the error: FALSE (and nothing pending) when missing. Other errors stay
 * pending and also give FALSE: check fx_script_exception_pending(). */
gboolean  fx_script_lookup_attr (FxScript *script, const FxValue *obj, const char *name, FxValue *out);
/* object.__getattribute__ / object.__setattr__: instance dict and descriptors, no hooks. For
 * native __getattr__/__setattr__ implementations that fall back to the default. */
gboolean  fx_script_generic_getattr (FxScript *script, const FxValue *obj, const char *name,
                                     FxValue *out);
gboolean  fx_script_generic_setattr (FxScript *script, const FxValue *obj, const char *name,
                                     const FxValue *value);

gboolean  fx_script_call       (FxScript *script, const FxValue *callable, const FxValue *args,
                                int n_args, FxDict *kwargs, FxValue *result);
gboolean  fx_script_call_method (FxScript *script, const FxValue *obj, const char *name,
                                 const FxValue *args, int n_args, FxDict *kwargs, FxValue *result);
gboolean  fx_script_is_callable (FxScript *script, const FxValue *v);

/* str(v) / repr(v) through __str__/__repr__; NULL with an exception pending. g_free. */
char     *fx_script_value_str  (FxScript *script, const FxValue *v);
char     *fx_script_value_repr (FxScript *script, const FxValue *v);
/* a == b with __eq__; a < b etc. with "<", "<=", ">", ">=", "==", "!=". */
gboolean  fx_script_compare    (FxScript *script, const FxValue *a, const FxValue *b,
                                const char *op, gboolean *out);
/* Python's hash(); raises TypeError for unhashable values. */
gboolean  fx_script_hash       (FxScript *script, const FxValue *v, gint64 *out);

/* Iterates any iterable; func returns FALSE to stop with an exception pending. The item is
 * borrowed for the call. */
typedef gboolean (*FxScriptIterFunc) (FxScript *script, const FxValue *item, gpointer user_data);
gboolean  fx_script_iterate    (FxScript *script, const FxValue *iterable, FxScriptIterFunc func,
                                gpointer user_data);
/* list(iterable) as a new FxSeq. */
gboolean  fx_script_to_list    (FxScript *script, const FxValue *iterable, FxSeq **out);

/* ------------------------------------------------------------------ source locations */

/* The innermost running Python frame: file, line and function name ("<module>" at top
 * level). The strings stay valid while that frame runs. FALSE when no Python code runs. */
gboolean  fx_script_current_location (FxScript *script, const char **filename, int *line,
                                      const char **function);
/* The running Python stack, outermost first, formatted like a traceback's frames. g_free. */
char     *fx_script_format_stack (FxScript *script);

G_END_DECLS
