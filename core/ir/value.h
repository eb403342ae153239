/* value.h: FxValue, the tagged value shared by op schemas, node args/kwargs, the interpreter
 * and the script front end: None, bool, int, float, str, tuple/list, dict, slice, dtype,
 * tensor, node reference, op reference, or an object of a higher layer. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include "tensor/tensor.h"

G_BEGIN_DECLS

/* Zeroed small blocks, recycled per thread: values, nodes and script objects are made and
 * dropped by the hundred thousand (a trace runs in the script's own thread), and glibc's
 * calloc takes the arena lock on every call. A block from fx_mem_alloc(0) goes back with
 * fx_mem_free (p, size) — size at most what was asked — or with g_free; a block from
 * g_malloc only with g_free, unless its size is a multiple of 16. */
gpointer fx_mem_alloc0 (gsize size);
gpointer fx_mem_alloc  (gsize size);   /* not zeroed */
void     fx_mem_free   (gpointer p, gsize size);
#define fx_new0(type, n) ((type *) fx_mem_alloc0 (sizeof (type) * (gsize) (n)))

/* A well-mixed hash of an address (allocations share their low bits). */
static inline guint
fx_pointer_hash (gconstpointer p)
{
  guint64 x = (guint64) (guintptr) p;
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  return (guint) x;
}

/* Address → pointer by open addressing, entries never removed: cheaper than a GHashTable
 * where every node of a graph adds one (a namespace's obj → name, codegen's last uses,
 * GraphModule's copied targets). A zeroed FxPtrMap is empty. */
typedef struct {
  gconstpointer *keys;           /* NULL: empty slot */
  gconstpointer *values;
  gsize size, count;             /* size: a power of two, or 0 */
} FxPtrMap;

/* Makes room for n entries in all, so that inserting up to them does not rehash. */
void          fx_ptr_map_reserve (FxPtrMap *map, gsize n);
/* key's value, or NULL when key is not in map. */
gconstpointer fx_ptr_map_lookup  (const FxPtrMap *map, gconstpointer key);
/* Sets key's value (key not NULL); FALSE when key was there already (its value replaced):
 * used as a set, TRUE says key is new. */
gboolean      fx_ptr_map_insert  (FxPtrMap *map, gconstpointer key, gconstpointer value);
void          fx_ptr_map_clear   (FxPtrMap *map);

typedef struct _FxNode FxNode;    /* ir/graph.h */
typedef struct _FxOp FxOp;        /* ops/op.h */
typedef struct _FxStr FxStr;
typedef struct _FxSeq FxSeq;
typedef struct _FxDict FxDict;
typedef struct _FxSlice FxSlice;
typedef struct _FxObject FxObject;

typedef enum {
  FX_VALUE_NONE,
  FX_VALUE_BOOL,
  FX_VALUE_INT,
  FX_VALUE_FLOAT,
  FX_VALUE_STR,
  FX_VALUE_TUPLE,
  FX_VALUE_LIST,
  FX_VALUE_DICT,
  FX_VALUE_SLICE,
  FX_VALUE_ELLIPSIS,
  FX_VALUE_DTYPE,
  FX_VALUE_DEVICE,      /* payload: str ("cpu") */
  FX_VALUE_TENSOR,
  FX_VALUE_NODE,        /* a reference to a graph node; not owned */
  FX_VALUE_OP,          /* a registry op (a torch function); static, not owned */
  FX_VALUE_OBJECT,      /* anything else, defined by a higher layer (script objects, ...) */
} FxValueKind;

typedef struct {
  FxValueKind kind;
  union {
    gboolean b;
    int64_t i;
    double f;
    FxStr *s;
    FxSeq *seq;
    FxDict *dict;
    FxSlice *slice;
    FxDType dtype;
    FxTensor *tensor;
    FxNode *node;
    const FxOp *op;
    FxObject *obj;
  };
} FxValue;

/* ---- strings: immutable, refcounted, UTF-8, with a cached hash ---- */
struct _FxStr {
  gatomicrefcount ref;
  guint hash;           /* 0 = not yet computed */
  gsize len;
  char data[];          /* NUL-terminated */
};
FxStr *fx_str_new      (const char *s);
FxStr *fx_str_new_len  (const char *s, gsize len);
FxStr *fx_str_ref      (FxStr *s);
void   fx_str_unref    (FxStr *s);
guint  fx_str_hash     (FxStr *s);

/* ---- tuples and lists ----
 * A tuple may carry a named type (torch.Size, torch.return_types.max, namedtuples). */
typedef struct {
  const char *name;             /* "torch.Size", "torch.return_types.max", ... */
  int n_fields;                 /* 0 for torch.Size-like types without field names */
  const char *const *fields;
} FxTupleType;

extern const FxTupleType fx_tuple_type_size;   /* torch.Size */

struct _FxSeq {
  gatomicrefcount ref;
  const FxTupleType *type;      /* tuples only; NULL for plain tuples and lists */
  guint len;
  guint cap;
  FxValue *items;
};
FxSeq *fx_seq_new    (guint len);          /* len None items */
FxSeq *fx_seq_ref    (FxSeq *seq);
void   fx_seq_unref  (FxSeq *seq);
void   fx_seq_append (FxSeq *seq, FxValue item);   /* takes ownership of item */

/* ---- dicts: insertion ordered, keys hashable values ---- */
struct _FxDict;
FxDict  *fx_dict_new     (void);
FxDict  *fx_dict_ref     (FxDict *dict);
void     fx_dict_unref   (FxDict *dict);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxDict, fx_dict_unref)
guint    fx_dict_len     (const FxDict *dict);
/* Takes ownership of key and value; replaces an existing value in place. */
void     fx_dict_set     (FxDict *dict, FxValue key, FxValue value);
/* Borrowed pointer to the value, or NULL. */
FxValue *fx_dict_get     (const FxDict *dict, const FxValue *key);
gboolean fx_dict_remove  (FxDict *dict, const FxValue *key);
/* Changes whenever a key is added or removed or the entries move (not when a value is
 * replaced); never the same for two dicts. */
guint64  fx_dict_keys_version (const FxDict *dict);
/* The entry holding key, or -1: a position for fx_dict_entry_value that stays good while
 * fx_dict_keys_version (dict) stays the same — for lookups repeated at each run of a plan. */
gint64   fx_dict_find    (const FxDict *dict, const FxValue *key);
/* Entry e's value (e from fx_dict_find, the keys version unchanged since), borrowed: the one
 * stored now, whatever replaced it. */
FxValue *fx_dict_entry_value (const FxDict *dict, gint64 e);
/* Iteration in insertion order: i from 0 while fx_dict_entry returns TRUE. */
gboolean fx_dict_entry   (const FxDict *dict, guint i, const FxValue **key, const FxValue **value);

/* ---- slices ---- */
struct _FxSlice {
  gatomicrefcount ref;
  FxValue start, stop, step;
};
FxSlice *fx_slice_new   (FxValue start, FxValue stop, FxValue step);  /* takes ownership */
FxSlice *fx_slice_ref   (FxSlice *slice);
void     fx_slice_unref (FxSlice *slice);

/* ---- objects of higher layers ---- */
typedef struct {
  const char *name;                                   /* type name for errors */
  void     (*finalize) (FxObject *obj);
  void     (*repr)     (const FxObject *obj, GString *out);     /* may be NULL */
  guint    (*hash)     (const FxObject *obj);                    /* NULL: identity */
  gboolean (*equal)    (const FxObject *a, const FxObject *b);   /* NULL: identity */
  /* Callables used as call_function targets: "module.name" as torch.fx's
   * _get_qualified_name gives it. NULL: not callable / use name. */
  const char *(*qualified_name) (const FxObject *obj);
  /* The Python type name of this object when it is not the same for all (the class of a
   * script's instance); NULL: name. */
  const char *(*type_name) (const FxObject *obj);
} FxObjectClass;

struct _FxObject {
  gatomicrefcount ref;
  const FxObjectClass *klass;
};
void      fx_object_init  (FxObject *obj, const FxObjectClass *klass);
FxObject *fx_object_ref   (FxObject *obj);
void      fx_object_unref (FxObject *obj);

/* ---- values ---- */
static inline FxValue fx_value_none (void) { FxValue v = { .kind = FX_VALUE_NONE }; return v; }
static inline FxValue fx_value_bool (gboolean b) { FxValue v = { .kind = FX_VALUE_BOOL, .b = !!b }; return v; }
static inline FxValue fx_value_int (int64_t i) { FxValue v = { .kind = FX_VALUE_INT, .i = i }; return v; }
static inline FxValue fx_value_float (double f) { FxValue v = { .kind = FX_VALUE_FLOAT, .f = f }; return v; }
static inline FxValue fx_value_dtype (FxDType d) { FxValue v = { .kind = FX_VALUE_DTYPE, .dtype = d }; return v; }
static inline FxValue fx_value_ellipsis (void) { FxValue v = { .kind = FX_VALUE_ELLIPSIS }; return v; }
static inline FxValue fx_value_node (FxNode *n) { FxValue v = { .kind = FX_VALUE_NODE, .node = n }; return v; }
static inline FxValue fx_value_op (const FxOp *op) { FxValue v = { .kind = FX_VALUE_OP, .op = op }; return v; }

/* The take_ constructors steal the reference passed in; the others add one. */
FxValue  fx_value_str         (const char *s);
FxValue  fx_value_take_str    (FxStr *s);
FxValue  fx_value_device      (const char *name);
FxValue  fx_value_tensor      (FxTensor *t);
FxValue  fx_value_take_tensor (FxTensor *t);
FxValue  fx_value_take_tuple  (FxSeq *seq);
FxValue  fx_value_take_list   (FxSeq *seq);
FxValue  fx_value_take_dict   (FxDict *dict);
FxValue  fx_value_take_slice  (FxSlice *slice);
FxValue  fx_value_take_object (FxObject *obj);
/* A tuple of ints: torch.Size when type is &fx_tuple_type_size, plain tuple when NULL. */
FxValue  fx_value_int_tuple   (const FxTupleType *type, int n, const int64_t *items);

FxValue  fx_value_copy  (const FxValue *v);   /* adds a reference */
void     fx_value_clear (FxValue *v);         /* drops it; leaves None */
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FxValue, fx_value_clear)

/* Python semantics: 1 == 1.0 == True, tuples compare by items, tensors and objects by
 * identity unless the object class says otherwise. */
gboolean fx_value_equal (const FxValue *a, const FxValue *b);
guint    fx_value_hash  (const FxValue *v);
/* Python's repr(): 'a', 1.5, (1,), [1, 2], {'a': 1}, slice(None, 2, None), torch.float32,
 * nodes by name, ops by qualified name, tensors in PyTorch's repr. */
void     fx_value_repr  (const FxValue *v, GString *out);
char    *fx_value_to_repr (const FxValue *v);  /* g_free */
/* Python's float repr: shortest round-tripping digits, 'inf', 'nan', '1e-05', '2.0'. */
void     fx_format_float_repr (double f, GString *out);
const char *fx_value_kind_name (FxValueKind kind);  /* Python type name: "int", "tuple", ... */

G_END_DECLS
