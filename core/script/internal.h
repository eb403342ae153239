/* internal.h: the interpreter's private object model and the functions its stages share
 * (object.c, exc.c, ops.c, iter.c, call.c, eval.c, builtins.c, strings.c, containers.c,
 * modules.c, interp.c). Not installed. */
#pragma once

#include "script/script.h"
#include "script/ast.h"
#include "script/parser.h"

G_BEGIN_DECLS

/* A slot or cell that holds no value yet (UnboundLocalError). Never escapes the evaluator. */
#define SC_KIND_UNBOUND ((FxValueKind) 99)
static inline FxValue sc_unbound (void) { FxValue v = { .kind = SC_KIND_UNBOUND }; return v; }
static inline gboolean sc_is_unbound (const FxValue *v) { return v->kind == SC_KIND_UNBOUND; }

#define SC_RECURSION_LIMIT 1000

/* ------------------------------------------------------------------ interned names */

/* sc_n.X is the interned "__X__"; sc_n.s_X the interned "X". */
#define SC_DUNDERS(X) X(init) X(new) X(call) X(getattr) X(getattribute) X(setattr) X(delattr) \
  X(getitem) X(setitem) X(delitem) X(len) X(iter) X(next) X(contains) X(repr) X(str) X(eq) \
  X(ne) X(lt) X(le) X(gt) X(ge) X(hash) X(bool) X(enter) X(exit) X(get) X(set) X(delete) \
  X(class) X(name) X(qualname) X(module) X(dict) X(doc) X(mro) X(bases) X(base) X(format) \
  X(index) X(neg) X(pos) X(invert) X(abs) X(round) X(reversed) X(missing) \
  X(class_getitem) X(init_subclass) X(set_name) X(annotations) X(file) X(all) X(wrapped) \
  X(defaults) X(kwdefaults) X(globals) X(self) X(func) X(builtins) X(spec) X(package) \
  X(path) X(debug) X(traceback) X(cause) X(context) X(suppress_context) X(main) X(trunc) \
  X(floor) X(ceil) X(slots) X(weakref) X(copy) X(deepcopy) X(dir) X(subclasshook) \
  X(reduce) X(reduce_ex) X(getstate) X(origin) X(loader) X(complex) X(bytes) X(fspath) \
  X(length_hint) X(instancecheck) X(subclasscheck) X(prepare) X(classcell) X(closure) \
  X(code) X(match_args) X(fields) X(signature)
#define SC_PLAIN_NAMES(X) X(args) X(keys) X(items) X(values) X(append) X(super) X(self) \
  X(mro) X(get) X(setter) X(getter) X(deleter) X(fget) X(fset) X(fdel) X(name) X(obj) \
  X(msg) X(filename) X(lineno) X(offset) X(text) X(end_lineno) X(end_offset) X(code) \
  X(value) X(key) X(reverse) X(default) X(sep) X(end) X(file) X(flush) X(start) X(stop) \
  X(step) X(real) X(imag) X(cls) X(metaclass) X(with_traceback) X(add_note) X(errno) \
  X(strerror) X(module) X(n) X(path) X(argv) X(stdout) X(stderr) X(write)

typedef struct {
#define SC_X(n) FxStr *n;
  SC_DUNDERS (SC_X)
#undef SC_X
#define SC_X(n) FxStr *s_##n;
  SC_PLAIN_NAMES (SC_X)
#undef SC_X
  FxStr *bin[SC_BIN_N], *rbin[SC_BIN_N], *ibin[SC_BIN_N];
  FxStr *dot0;                   /* ".0", comprehension argument */
} ScNames;

extern ScNames sc_n;
void sc_names_init (void);

/* ------------------------------------------------------------------ builtin types */

typedef enum {
  SC_T_OBJECT, SC_T_TYPE, SC_T_NONE, SC_T_BOOL, SC_T_INT, SC_T_FLOAT, SC_T_STR, SC_T_TUPLE,
  SC_T_LIST, SC_T_DICT, SC_T_SLICE, SC_T_ELLIPSIS, SC_T_DTYPE, SC_T_DEVICE, SC_T_TENSOR,
  SC_T_NODE, SC_T_OP, SC_T_FUNCTION, SC_T_BUILTIN, SC_T_METHOD, SC_T_MODULE, SC_T_CELL,
  SC_T_PROPERTY, SC_T_STATICMETHOD, SC_T_CLASSMETHOD, SC_T_SUPER, SC_T_RANGE, SC_T_SET,
  SC_T_FROZENSET, SC_T_ITERATOR, SC_T_GENERATOR, SC_T_DICT_KEYS, SC_T_DICT_VALUES,
  SC_T_DICT_ITEMS, SC_T_NOTIMPLEMENTED, SC_T_FOREIGN, SC_T_ENUMERATE, SC_T_ZIP, SC_T_MAP,
  SC_T_FILTER, SC_T_REVERSED, SC_T_PARTIAL, SC_T_TYPING,
  /* exceptions */
  SC_T_BASE_EXCEPTION, SC_T_SYSTEM_EXIT, SC_T_KEYBOARD_INTERRUPT, SC_T_GENERATOR_EXIT,
  SC_T_EXCEPTION, SC_T_STOP_ITERATION, SC_T_ARITHMETIC_ERROR, SC_T_FLOATING_POINT_ERROR,
  SC_T_OVERFLOW_ERROR, SC_T_ZERO_DIVISION_ERROR, SC_T_ASSERTION_ERROR, SC_T_ATTRIBUTE_ERROR,
  SC_T_EOF_ERROR, SC_T_IMPORT_ERROR, SC_T_MODULE_NOT_FOUND_ERROR, SC_T_LOOKUP_ERROR,
  SC_T_INDEX_ERROR, SC_T_KEY_ERROR, SC_T_MEMORY_ERROR, SC_T_NAME_ERROR,
  SC_T_UNBOUND_LOCAL_ERROR, SC_T_OS_ERROR, SC_T_FILE_NOT_FOUND_ERROR, SC_T_FILE_EXISTS_ERROR,
  SC_T_PERMISSION_ERROR, SC_T_IS_A_DIRECTORY_ERROR, SC_T_NOT_A_DIRECTORY_ERROR,
  SC_T_RUNTIME_ERROR, SC_T_NOT_IMPLEMENTED_ERROR, SC_T_RECURSION_ERROR, SC_T_SYNTAX_ERROR,
  SC_T_INDENTATION_ERROR, SC_T_TAB_ERROR, SC_T_SYSTEM_ERROR, SC_T_TYPE_ERROR,
  SC_T_VALUE_ERROR, SC_T_UNICODE_ERROR, SC_T_WARNING, SC_T_USER_WARNING,
  SC_T_DEPRECATION_WARNING, SC_T_PENDING_DEPRECATION_WARNING, SC_T_SYNTAX_WARNING,
  SC_T_RUNTIME_WARNING, SC_T_FUTURE_WARNING, SC_T_IMPORT_WARNING, SC_T_UNICODE_WARNING,
  SC_T_RESOURCE_WARNING,
  SC_T_N
} ScTypeId;

/* ------------------------------------------------------------------ object structs */

typedef enum {
  SC_CLASS_BUILTIN = 1 << 0,     /* defined by the interpreter */
  SC_CLASS_FINAL = 1 << 1,       /* cannot be subclassed (bool, NoneType, function, ...) */
  SC_CLASS_EXCEPTION = 1 << 2,   /* BaseException or a subclass */
  SC_CLASS_NATIVE = 1 << 3,      /* made with fx_script_class_new */
  SC_CLASS_HAS_DICT = 1 << 4,    /* instances have a __dict__ */
  SC_CLASS_SUBCLASSED = 1 << 5,  /* a base of some class made by sc_class_new */
  SC_CLASS_STANDIN = 1 << 6,     /* stands in for its builtin base in Python classes (dict's:
                                  * sc_dict_standin); __mro__ and __bases__ show the base */
} ScClassFlags;

typedef struct _ScTypeCache ScTypeCache;

struct _FxScriptClass {
  FxObject base;
  FxScript *script;
  FxStr *name, *qualname, *module;
  FxDict *dict;
  FxScriptClass **bases;
  int n_bases;
  FxScriptClass **mro;           /* includes the class itself first */
  int n_mro;
  ScClassFlags flags;
  int type_id;                   /* ScTypeId of builtin types, -1 otherwise */
  /* cls(...) of builtin types (int('3'), list(x), range(3), ...): args exclude the class */
  FxScriptFunc construct;
  /* native payloads (FxScriptClassInfo) */
  gpointer (*payload_new) (FxScript *script, FxScriptClass *cls, gpointer class_data);
  void (*payload_free) (gpointer payload);
  gpointer class_data;
  FxScriptClass *payload_class;  /* the class in the MRO providing the payload, or NULL */
  /* attribute lookup cache, valid while cache_version == script->type_version: FxStr* →
   * FxValue* (borrowed, into a class dict) or not found (object.c) */
  ScTypeCache *cache;
  guint cache_version;
  const FxTupleType *tuple_type; /* namedtuple classes */
};

typedef struct {
  FxObject base;
  FxScriptClass *cls;            /* strong reference */
  FxDict *dict;                  /* NULL until the first attribute */
  gpointer payload;
  void (*payload_free) (gpointer payload);
} ScInstance;

typedef struct {
  FxObject base;
  FxValue value;                 /* unbound when empty */
} ScCell;

typedef struct {
  FxObject base;
  ScCode *code;
  ScUnit *unit;                  /* keeps code alive */
  FxDict *globals;
  FxValue *defaults;
  int n_defaults;
  FxValue *kwdefaults;           /* n_kwonly, unbound when required */
  ScCell **closure;
  int n_closure;
  FxStr *name, *qualname;
  FxValue module;                /* __module__ */
  FxValue doc;
  FxDict *dict;                  /* function attributes, created on demand */
  FxDict *annotations;           /* created on demand */
} ScFunction;

typedef enum {
  SC_NATIVE_FUNCTION,            /* a plain builtin function */
  SC_NATIVE_METHOD,              /* binds self when found on a class */
  SC_NATIVE_CLASSMETHOD,         /* binds the class */
  SC_NATIVE_STATIC,              /* never binds */
} ScNativeKind;

typedef struct {
  FxObject base;
  FxScriptFunc func;
  gpointer data;
  GDestroyNotify destroy;
  ScNativeKind kind;
  FxStr *name;
  FxStr *owner;                  /* class name for methods ("str"), module for functions */
  char *qualified;               /* "math.sqrt", made on demand for codegen (trace/) */
} ScNative;

typedef struct {
  FxObject base;
  FxValue func;                  /* function or native */
  FxValue self;
} ScMethod;

struct _FxScriptModule {
  FxObject base;
  FxStr *name;
  FxDict *dict;
  FxValue getattr;               /* module __getattr__ hook or None */
  char *file;                    /* source path, NULL for native modules */
};

typedef struct {
  FxObject base;
  FxValue fget, fset, fdel, doc;
  FxStr *name;
} ScProperty;

typedef struct {
  FxObject base;
  FxValue func;
} ScWrapper;                     /* staticmethod and classmethod */

typedef struct {
  FxObject base;
  FxScriptClass *start;          /* lookup begins after this class in the MRO */
  FxValue self;
  FxScriptClass *self_type;
} ScSuper;

typedef struct {
  FxObject base;
  int64_t start, stop, step;
} ScRange;

typedef struct {
  FxObject base;
  FxDict *d;                     /* keys only; values None */
} ScSet;

typedef struct {
  FxObject base;
  FxDict *d;
  gboolean ordered;              /* an OrderedDict's: odict_keys, odict_values, odict_items */
} ScDictView;

typedef struct {
  FxObject base;
  FxValue func;
  FxValue *args;
  int n_args;
  FxDict *kwargs;
} ScPartial;

typedef struct {
  FxObject base;
  FxStr *name;                   /* "typing.List" */
  FxValue args;                  /* tuple or None */
  FxValue origin;                /* list, dict, ... or None */
} ScTyping;

/* ------------------------------------------------------------------ iteration */

typedef enum {
  SC_ITER_SEQ, SC_ITER_STR, SC_ITER_DICT_KEYS, SC_ITER_DICT_VALUES, SC_ITER_DICT_ITEMS,
  SC_ITER_RANGE, SC_ITER_SEQ_REVERSED, SC_ITER_NATIVE, SC_ITER_OBJECT, SC_ITER_GETITEM,
  SC_ITER_EMPTY,
} ScIterKind;

typedef struct _ScIterObj ScIterObj;

typedef struct {
  ScIterKind kind;
  FxValue src;                   /* the container or iterator (strong) */
  int64_t i, n, step;
  guint dict_len;                /* dicts: size at the start, to detect changes */
} ScIter;

/* Native iterator objects (iter(), enumerate, zip, map, filter, reversed, generators). */
typedef int (*ScIterNextFunc) (FxScript *S, ScIterObj *it, FxValue *out);  /* 1, 0, -1 */
struct _ScIterObj {
  FxObject base;
  int type_id;                   /* SC_T_ITERATOR, SC_T_ENUMERATE, ... SC_T_GENERATOR */
  ScIterNextFunc next;
  ScIter inner;                  /* the iterated thing, for simple wrappers */
  ScIter *inners;                /* zip */
  int n_inners;
  FxValue func;                  /* map / filter */
  int64_t count;                 /* enumerate */
  FxSeq *values;                 /* generators: collected values */
  guint pos;
  gboolean started, exhausted;
  gpointer gen;                  /* generators: the suspended call (call.c) */
  void (*gen_free) (gpointer gen);
  FxStr *name;                   /* generator qualname for repr */
};

gboolean sc_iter_init   (FxScript *S, const FxValue *iterable, ScIter *it);
int      sc_iter_next   (FxScript *S, ScIter *it, FxValue *out);   /* 1 item, 0 end, -1 error */
void     sc_iter_clear  (ScIter *it);
/* iter(v) as a value */
gboolean sc_get_iter    (FxScript *S, const FxValue *v, FxValue *out);
/* next(it): 1/0/-1 */
int      sc_next        (FxScript *S, const FxValue *iterator, FxValue *out);
FxValue  sc_iterobj_new (FxScript *S, int type_id, ScIterNextFunc next);
gboolean sc_collect     (FxScript *S, const FxValue *iterable, FxSeq **out);

/* ------------------------------------------------------------------ traceback */

typedef struct {
  ScUnit *unit;                  /* strong */
  FxStr *func;                   /* co_name */
  ScPos pos;
  int anchor_kind;               /* 0 none, 1 binop (left_end..right_start), 2 subscript */
  int anchor_a, anchor_b;        /* byte columns */
} ScTbEntry;

typedef struct {
  FxValue args;                  /* tuple */
  FxValue cause, context;        /* None or exception */
  gboolean suppress_context;
  GArray *tb;                    /* ScTbEntry, innermost first */
  /* suggestions ("Did you mean") */
  FxStr *attr_name;              /* AttributeError / NameError name */
  FxValue attr_obj;              /* AttributeError object */
  ScUnit *name_unit;             /* NameError: the code whose locals were searched */
  ScCode *name_code;
  FxDict *name_globals;
} ScExcData;

/* ------------------------------------------------------------------ frames */

typedef struct _ScFrame ScFrame;
struct _ScFrame {
  ScFrame *back;
  ScCode *code;
  ScFunction *func;              /* NULL for module and class bodies */
  FxValue *locals;
  ScCell **cells;
  FxDict *globals;
  FxDict *ns;                    /* class body namespace, NULL otherwise */
  FxValue retval;
  const ScPos *loc;              /* what runs now, for fx_script_current_location */
  FxSeq *yields;                 /* generator frames: the collected values */
};

/* ------------------------------------------------------------------ the interpreter */

typedef struct {
  char *name;
  FxScriptModuleInit init;
  gpointer data;
  GDestroyNotify destroy;
} ScNativeModule;

struct _FxScript {
  FxScriptClass *types[SC_T_N];
  FxValue none_notimpl;          /* NotImplemented */
  FxDict *builtins;
  FxDict *modules;               /* sys.modules: name → module */
  GHashTable *native_modules;    /* name → ScNativeModule */
  GHashTable *exceptions;        /* name → FxScriptClass* (registered by embedders) */
  FxScriptClass *kind_classes[FX_VALUE_OBJECT + 1];
  GHashTable *tuple_classes;     /* FxTupleType* → FxScriptClass* */
  GHashTable *object_classes;    /* FxObjectClass* → FxScriptClass* */
  FxScriptOpCallFunc op_call;
  gpointer op_call_data;
  FxScriptWriteFunc out, err;
  gpointer out_data;
  GString *stdout_buf;
  /* evaluation state */
  ScFrame *frame;
  int depth;
  guintptr stack_limit;          /* lowest safe C stack address */
  FxValue exc;                   /* the pending exception, None when there is none */
  FxValue handling;              /* the exception an except/finally block handles */
  guint type_version;
  FxValue argv;                  /* sys.argv list */
  FxValue sys_path;              /* sys.path list */
  gboolean exiting;              /* SystemExit raised */
  GHashTable *importing;         /* module names being imported (cycles) */
  GHashTable *warned;            /* "file:line:msg" already warned */
  int repr_depth;                /* nesting of repr()/== on containers */
  GPtrArray *repr_stack;         /* containers being printed: [...] for cycles */
  /* interp.c */
  GPtrArray *native_classes;     /* classes made by fx_script_class_new (owned) */
  int recursion_limit;           /* sys.setrecursionlimit() */
  gboolean native_class_new;     /* fx_script_class_new: builtin bases allowed */
  FxScriptClass *dict_standin;   /* sc_dict_standin's class, made on first use */
  GPtrArray *failed_modules;     /* modules whose import failed, emptied at teardown (owned) */
};

/* mod-collections.c: the native mapping class (a subclass of dict, named dict) that a Python
 * class written as a subclass of dict derives from instead: its instances are objects holding
 * a dict, with dict's methods and protocols. */
FxScriptClass *sc_dict_standin (FxScript *S);
/* The dict a mapping object (an OrderedDict, defaultdict, Counter or Python subclass of dict)
 * holds, or NULL for any other value: dict's own methods work on it, as on a dict. */
FxDict        *sc_mapping_dict (FxScript *S, const FxValue *v);

/* ------------------------------------------------------------------ object.c */

extern const FxObjectClass sc_class_klass, sc_instance_klass, sc_function_klass,
  sc_native_klass, sc_method_klass, sc_module_klass, sc_cell_klass, sc_property_klass,
  sc_staticmethod_klass, sc_classmethod_klass, sc_super_klass, sc_range_klass, sc_set_klass,
  sc_frozenset_klass, sc_iterobj_klass, sc_dictkeys_klass, sc_dictvalues_klass,
  sc_dictitems_klass, sc_notimpl_klass, sc_partial_klass, sc_typing_klass;

void     sc_types_init      (FxScript *S);
void     sc_types_clear     (FxScript *S);
FxScriptClass *sc_type_of   (FxScript *S, const FxValue *v);
const char *sc_type_name    (FxScript *S, const FxValue *v);   /* type(v).__name__ */
FxScriptClass *sc_class_new (FxScript *S, const char *module, const char *name,
                             FxScriptClass **bases, int n_bases, FxDict *dict, gboolean *ok);
FxScriptClass *sc_builtin_class (FxScript *S, int type_id, const char *name, int base_id,
                                 ScClassFlags flags);
gboolean sc_is_subclass     (const FxScriptClass *cls, const FxScriptClass *base);
gboolean sc_isinstance_id   (FxScript *S, const FxValue *v, int type_id);
gboolean sc_isinstance      (FxScript *S, const FxValue *v, FxScriptClass *cls);
FxValue *sc_type_lookup     (FxScript *S, FxScriptClass *cls, FxStr *name);   /* borrowed */
FxValue *sc_type_lookup_c   (FxScript *S, FxScriptClass *cls, const char *name);
void     sc_type_modified   (FxScript *S);
/* cls's own dict changed: only its lookup cache goes when no class derives from it (the
 * caches of every class otherwise). */
void     sc_type_modified_class (FxScript *S, FxScriptClass *cls);
/* Empties / frees a class's attribute lookup cache (NULL is fine). */
void     sc_type_cache_clear    (ScTypeCache *cache);
void     sc_type_cache_free     (ScTypeCache *cache);
/* Class attributes computed on first lookup: resolve() stores the real value under name in
 * owner's dict (FALSE with an exception pending on failure). */
typedef gboolean (*ScLazyResolve) (FxScript *S, FxScriptClass *owner, FxStr *name, gpointer data);
extern const FxObjectClass sc_lazy_attr_klass;
FxValue  sc_lazy_attr_new   (ScLazyResolve resolve, gpointer data, GDestroyNotify destroy);
gboolean sc_lazy_attr_force (FxScript *S, FxScriptClass *owner, FxStr *name, const FxValue *d);
FxValue  sc_class_value     (FxScriptClass *cls);            /* new ref */
static inline FxScriptClass *
sc_value_class (const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_class_klass ? (FxScriptClass *) v->obj : NULL;
}
static inline ScInstance *
sc_value_instance (const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_instance_klass ? (ScInstance *) v->obj : NULL;
}
static inline gboolean
sc_is_klass (const FxValue *v, const FxObjectClass *k)
{
  return v->kind == FX_VALUE_OBJECT && v->obj->klass == k;
}

FxValue  sc_instance_new    (FxScript *S, FxScriptClass *cls);
FxDict  *sc_instance_dict   (ScInstance *inst);
FxValue  sc_native_new      (const char *owner, const char *name, ScNativeKind kind,
                             FxScriptFunc func, gpointer data, GDestroyNotify destroy);
void     sc_add_native      (FxDict *dict, const char *owner, const char *name, ScNativeKind kind,
                             FxScriptFunc func, gpointer data);
void     sc_add_property    (FxScriptClass *cls, const char *name, FxScriptFunc get, FxScriptFunc set);
FxValue  sc_method_new      (const FxValue *func, const FxValue *self);
ScCell  *sc_cell_new        (FxValue value);
FxScriptModule *sc_module_new (FxScript *S, const char *name);
FxValue  sc_set_new         (FxScript *S, gboolean frozen);
FxValue  sc_range_new       (int64_t start, int64_t stop, int64_t step);
FxValue  sc_dict_view_new   (FxDict *d, int type_id);
void     sc_dict_set_str    (FxDict *d, const char *key, FxValue value);   /* takes value */
FxValue *sc_dict_get_str    (FxDict *d, FxStr *key);                      /* borrowed */
static inline FxValue sc_str_value (FxStr *s) { return fx_value_take_str (fx_str_ref (s)); }
static inline FxValue sc_notimpl (FxScript *S) { return fx_value_copy (&S->none_notimpl); }
static inline gboolean
sc_is_notimpl (FxScript *S, const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT && v->obj == S->none_notimpl.obj;
}

/* attributes */
gboolean sc_getattr          (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out);
/* 1 found, 0 AttributeError swallowed, -1 other error */
int      sc_getattr_opt      (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out);
gboolean sc_setattr          (FxScript *S, const FxValue *obj, FxStr *name, const FxValue *value);
gboolean sc_delattr          (FxScript *S, const FxValue *obj, FxStr *name);
gboolean sc_generic_getattr  (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out,
                              gboolean raise);
gboolean sc_generic_setattr  (FxScript *S, const FxValue *obj, FxStr *name, const FxValue *value);
gboolean sc_generic_delattr  (FxScript *S, const FxValue *obj, FxStr *name);
/* LOAD_METHOD: *unbound TRUE when out is a function to call with obj prepended. */
gboolean sc_get_method       (FxScript *S, const FxValue *obj, FxStr *name, FxValue *out,
                              gboolean *unbound);
/* A special method looked up on the type only (as CPython does for dunders); borrowed. */
FxValue *sc_special_lookup   (FxScript *S, const FxValue *obj, const char *name);
/* Calls a special method found by sc_special_lookup: 1 called, 0 missing, -1 error. */
int      sc_call_special     (FxScript *S, const FxValue *obj, const char *name,
                              const FxValue *args, int n_args, FxValue *out);
gboolean sc_dir              (FxScript *S, const FxValue *obj, FxSeq **out);
gboolean sc_build_class      (FxScript *S, FxValue *out, FxStr *name, FxScriptClass **bases,
                              int n_bases, FxDict *ns, FxDict *kwargs);

/* ------------------------------------------------------------------ exc.c */

void     sc_exc_types_init   (FxScript *S);
gboolean sc_raise            (FxScript *S, int type_id, const char *fmt, ...) G_GNUC_PRINTF (3, 4);
gboolean sc_raise_str        (FxScript *S, int type_id, const char *msg);
gboolean sc_raise_args       (FxScript *S, int type_id, FxValue args);  /* takes args tuple */
gboolean sc_raise_instance   (FxScript *S, FxValue exc, gboolean set_context);  /* takes exc */
gboolean sc_raise_key_error  (FxScript *S, const FxValue *key);
gboolean sc_raise_attribute_error (FxScript *S, const FxValue *obj, FxStr *name);
gboolean sc_raise_name_error (FxScript *S, ScFrame *F, FxStr *name, gboolean unbound_local,
                              gboolean free_var);
gboolean sc_raise_gerror     (FxScript *S, const GError *error);
gboolean sc_matches          (FxScript *S, int type_id);          /* pending exception is a */
gboolean sc_exc_matches      (FxScript *S, const FxValue *exc, const FxValue *spec, gboolean *ok);
FxValue  sc_exc_new          (FxScript *S, FxScriptClass *cls, FxValue args);  /* takes args */
ScExcData *sc_exc_data       (const FxValue *exc);
void     sc_clear_exc        (FxScript *S);
FxValue  sc_take_exc         (FxScript *S);
/* Records (F, pos) in the pending exception's traceback and returns FALSE. */
gboolean sc_fail_at          (FxScript *S, ScFrame *F, const ScPos *pos, const ScExpr *e);
void     sc_format_exception (FxScript *S, const FxValue *exc, GString *out);
FxValue  sc_syntax_error_value (FxScript *S, const ScSyntaxError *err, const char *filename,
                                const char *source, gsize source_len);
const char *sc_exc_message   (FxScript *S, const FxValue *exc, GString *tmp);
void     sc_exc_payload_free (gpointer p);
gpointer sc_exc_payload_new  (FxScript *S, FxScriptClass *cls, gpointer data);

/* ------------------------------------------------------------------ ops.c */

gboolean sc_truth            (FxScript *S, const FxValue *v, gboolean *out);
gboolean sc_equal            (FxScript *S, const FxValue *a, const FxValue *b, gboolean *out);
gboolean sc_compare          (FxScript *S, ScCmpOp op, const FxValue *a, const FxValue *b, FxValue *out);
gboolean sc_binary           (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b,
                              FxValue *out, gboolean inplace);
gboolean sc_unary            (FxScript *S, ScUnaryOp op, const FxValue *a, FxValue *out);
gboolean sc_contains         (FxScript *S, const FxValue *container, const FxValue *item,
                              gboolean *out);
gboolean sc_getitem          (FxScript *S, const FxValue *obj, const FxValue *key, FxValue *out);
gboolean sc_setitem          (FxScript *S, const FxValue *obj, const FxValue *key, const FxValue *value);
gboolean sc_delitem          (FxScript *S, const FxValue *obj, const FxValue *key);
gboolean sc_len              (FxScript *S, const FxValue *v, int64_t *out);
gboolean sc_hash             (FxScript *S, const FxValue *v, gint64 *out);
gboolean sc_check_hashable   (FxScript *S, const FxValue *v);
gboolean sc_repr             (FxScript *S, const FxValue *v, GString *out);
gboolean sc_str              (FxScript *S, const FxValue *v, GString *out);
gboolean sc_format           (FxScript *S, const FxValue *v, const char *spec, GString *out);
gboolean sc_index            (FxScript *S, const FxValue *v, int64_t *out);  /* __index__ */
gboolean sc_lt               (FxScript *S, const FxValue *a, const FxValue *b, gboolean *out);
gboolean sc_op_name_binary   (ScBinOp op, const char **sym, const char **dunder, const char **rdunder,
                              const char **idunder);
/* Python int/float arithmetic (no objects); FALSE + exception for errors/unsupported. */
gboolean sc_number_binary    (FxScript *S, ScBinOp op, const FxValue *a, const FxValue *b,
                              FxValue *out, gboolean *handled);
int64_t  sc_utf8_len         (const FxStr *s);
gboolean sc_slice_indices    (FxScript *S, const FxSlice *sl, int64_t len, int64_t *start,
                              int64_t *stop, int64_t *step, int64_t *count);
gboolean sc_dict_key_check   (FxScript *S, const FxValue *key);
void     sc_repr_float       (double f, GString *out);
/* ops.c (lang2): len(range) as an unsigned count; hash of a float like CPython's */
guint64  sc_range_count      (const ScRange *r);
gint64   sc_hash_float       (double f);
#define SC_UNION_NAME "types.UnionType"   /* ScTyping name of X | Y unions */

/* ------------------------------------------------------------------ call.c */

/* Vector call: args[0..nargs) positional, then nkw keyword values named kwnames. */
gboolean sc_call             (FxScript *S, const FxValue *callable, const FxValue *args,
                              int nargs, FxStr *const *kwnames, int nkw, FxValue *out);
gboolean sc_call_dict        (FxScript *S, const FxValue *callable, const FxValue *args,
                              int nargs, FxDict *kwargs, FxValue *out);
/* A Python function called with one value per parameter (positional, keyword-only, then the
 * *args and **kwargs slots themselves), bound as they are: how torch.fx's tracer hands one
 * Proxy to a *args parameter. */
gboolean sc_call_function_flat (FxScript *S, const FxValue *func, const FxValue *params, int n,
                                FxValue *out);
gboolean sc_call0            (FxScript *S, const FxValue *callable, FxValue *out);
gboolean sc_call1            (FxScript *S, const FxValue *callable, const FxValue *a, FxValue *out);
gboolean sc_call2            (FxScript *S, const FxValue *callable, const FxValue *a,
                              const FxValue *b, FxValue *out);
gboolean sc_callable         (FxScript *S, const FxValue *v);
/* Calls a registry op the way every script path must: through __torch_function__ when an
 * argument's class defines it (how torch.fx's Proxy records calls), else through the op-call
 * hook when one is set (fx_script_set_op_call), else fx_op_call with its GError raised as the
 * matching Python exception. */
gboolean sc_op_invoke        (FxScript *S, const FxOp *op, const FxValue *args, int n_args,
                              FxDict *kwargs, FxValue *out);
FxValue  sc_function_new     (FxScript *S, ScCode *code, FxDict *globals, FxValue *defaults,
                              int n_defaults, FxValue *kwdefaults, ScCell **closure);
gboolean sc_run_code         (FxScript *S, ScCode *code, FxDict *globals, FxDict *ns,
                              ScCell **cells_in, FxValue *out);
gboolean sc_check_stack      (FxScript *S);
gboolean sc_kwargs_to_vector (FxScript *S, FxDict *kwargs, FxValue **vals, FxStr ***names, int *n);
/* call.c — generators. Generator functions run lazily on their own C stack; the yield and
 * yield-from expressions of a frame call these (value/iterable owned; FALSE: exception, e.g.
 * one thrown in). sc_generator_next hands out an eager generator's collected ->values. */
int      sc_generator_next   (FxScript *S, ScIterObj *gen, FxValue *out);
gboolean sc_generator_yield  (FxScript *S, ScFrame *F, FxValue value, FxValue *out);
gboolean sc_generator_yield_from (FxScript *S, ScFrame *F, FxValue iterable, FxValue *out);
void     sc_generator_methods_init (FxScript *S);   /* send, throw, close, ... */
/* interp.c's teardown: begin closes the suspended generators, after which none runs */
void     sc_generators_teardown (FxScript *S, gboolean begin);

/* ------------------------------------------------------------------ eval.c */

gboolean sc_exec_frame       (FxScript *S, ScFrame *F, FxValue *out);

/* ------------------------------------------------------------------ builtins.c, etc */

void     sc_builtins_init    (FxScript *S);
void     sc_str_methods_init (FxScript *S);
void     sc_container_methods_init (FxScript *S);
void     sc_modules_init     (FxScript *S);      /* modules.c: math, operator, typing, ... */
/* modules.c: a registry op operator.X called on non-tensor values, with Python's semantics
 * (instances with __add__, sets, ...). *handled FALSE: not an operator.X op, or a tensor is
 * involved — use the registry kernel. */
gboolean sc_operator_call    (FxScript *S, const FxOp *op, const FxValue *args, int n_args,
                              FxDict *kwargs, FxValue *out, gboolean *handled);
void     sc_torch_init       (FxScript *S);      /* torch.c: torch, Tensor, torch.nn.functional */
void     sc_nn_init          (FxScript *S);      /* nn.c: torch.nn */
/* fx-ir.c: torch.fx._ir (Graph, Node, GraphModule); call after sc_nn_init */
void     sc_fx_ir_init       (FxScript *S);
/* nn-layers.c: torch.nn.Parameter, the type of tensors marked is_parameter (NULL before
 * torch.nn is imported) */
FxScriptClass *sc_nn_parameter_class (FxScript *S);
gboolean sc_str_mod_format   (FxScript *S, FxStr *fmt, const FxValue *args, FxValue *out);
gboolean sc_str_format_method (FxScript *S, const char *fmt, const FxValue *args, int n_args,
                               FxDict *kwargs, GString *out);
gboolean sc_format_spec      (FxScript *S, const FxValue *v, const char *spec, GString *out);
gboolean sc_sort             (FxScript *S, FxSeq *seq, const FxValue *key, gboolean reverse);
gboolean sc_print            (FxScript *S, const FxValue *args, int n, const char *sep,
                              const char *end, gboolean to_stderr);
FxValue  sc_copy_value       (FxScript *S, const FxValue *v, gboolean deep, GHashTable *memo,
                              gboolean *ok);
gboolean sc_warn             (FxScript *S, const char *category, const char *msg, int stacklevel);
gboolean sc_import           (FxScript *S, const char *name, FxValue *out);
gboolean sc_import_from      (FxScript *S, ScFrame *F, FxStr *module, int level, FxValue *out);
gboolean sc_int_from_value   (FxScript *S, const FxValue *v, int base, FxValue *out);
gboolean sc_float_from_value (FxScript *S, const FxValue *v, FxValue *out);
FxValue  sc_builtin_lookup   (FxScript *S, const char *name);   /* new ref or None */
gboolean sc_str_join         (FxScript *S, FxStr *sep, const FxValue *iterable, FxValue *out);
FxValue  sc_dict_copy        (FxDict *d);
/* Empties d, dropping each value only after it left d (finalizers may look at d): breaks
 * reference cycles at teardown (interp.c). */
void     sc_dict_empty       (FxDict *d);

/* strings.c: tables of native methods of builtin types (also used by containers.c). The
 * dispatcher checks self and the argument count with CPython's wording for each style. */
typedef enum {
  SC_ARGS_NOARGS,                /* "str.upper() takes no arguments (1 given)" */
  SC_ARGS_ONE,                   /* "str.join() takes exactly one argument (0 given)" */
  SC_ARGS_RANGE,                 /* "center expected at least 1 argument, got 0" */
  SC_ARGS_OLD,                   /* "find() takes at least 1 argument (0 given)" */
  SC_ARGS_KW,                    /* the method binds its own (keyword) arguments */
} ScArgStyle;
typedef enum {
  SC_SELF_STR, SC_SELF_LIST, SC_SELF_TUPLE, SC_SELF_DICT, SC_SELF_SET, SC_SELF_ANYSET,
  SC_SELF_ANY,
} ScSelfKind;
typedef gboolean (*ScMethodImpl) (FxScript *S, const FxValue *self, const FxValue *args,
                                  int n_args, FxDict *kwargs, FxValue *out);
typedef struct {
  const char *owner, *name;
  ScMethodImpl impl;
  ScArgStyle style;
  int min_args, max_args;
  ScSelfKind self;
  ScNativeKind kind;             /* SC_NATIVE_METHOD, _CLASSMETHOD (self = class), _STATIC */
} ScMethodDef;
void     sc_add_methods      (FxScriptClass *cls, const ScMethodDef *defs, int n);
/* Binds positional-or-keyword arguments names[0..n_names) (the first n_positional may be
 * positional) into out[] (borrowed, NULL when missing), with CPython's errors for fname. */
gboolean sc_bind_args        (FxScript *S, const char *fname, const FxValue *args, int n_args,
                              FxDict *kwargs, const char *const *names, int n_names,
                              int n_positional, const FxValue **out);

/* thread-local current interpreter */
FxScript *sc_current (void);
void      sc_set_current (FxScript *S);

G_END_DECLS
