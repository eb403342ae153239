/* value.c: FxValue and its containers (str, tuple/list, dict, slice, object) with Python's
 * equality, hashing and repr() rules. */
#include "ir/value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op.h"

/* Provided by higher layers that may not be linked in (or written) yet: the IR's node names
 * and the tensor printer. Weak references keep libfx linkable without them. */
const char *fx_node_get_name (const FxNode *node) __attribute__ ((weak));
void fx_tensor_repr (const FxTensor *t, GString *out) __attribute__ ((weak));

const FxTupleType fx_tuple_type_size = { "torch.Size", 0, NULL };

/* GLib's g_atomic_ref_count_inc/dec are out-of-line calls with checks; values are copied
 * and dropped on every step of the interpreter and the tracer, so these are inlined. The
 * counts stay atomic: values cross threads (layout, run pane). */
static inline void
ref_inc (gatomicrefcount *rc)
{
  __atomic_fetch_add (rc, 1, __ATOMIC_RELAXED);
}

/* TRUE when the last reference went. */
static inline gboolean
ref_dec (gatomicrefcount *rc)
{
  return __atomic_fetch_sub (rc, 1, __ATOMIC_ACQ_REL) == 1;
}

/* ------------------------------------------------------------------ strings */

FxStr *
fx_str_new_len (const char *s, gsize len)
{
  FxStr *str = fx_mem_alloc (sizeof (FxStr) + len + 1);
  g_atomic_ref_count_init (&str->ref);
  str->hash = 0;
  str->len = len;
  if (len)
    memcpy (str->data, s, len);
  str->data[len] = '\0';
  return str;
}

FxStr *
fx_str_new (const char *s)
{
  if (s == NULL)
    s = "";
  return fx_str_new_len (s, strlen (s));
}

FxStr *
fx_str_ref (FxStr *s)
{
  ref_inc (&s->ref);
  return s;
}

void
fx_str_unref (FxStr *s)
{
  if (s && ref_dec (&s->ref))
    fx_mem_free (s, sizeof (FxStr) + s->len + 1);
}

static guint
hash_bytes (const char *data, gsize len)
{
  /* FNV-1a, then never 0 so that 0 can mean "not computed" */
  guint32 h = 2166136261u;
  for (gsize i = 0; i < len; i++)
    {
      h ^= (guchar) data[i];
      h *= 16777619u;
    }
  return h ? h : 1;
}

guint
fx_str_hash (FxStr *s)
{
  guint h = g_atomic_int_get (&s->hash);
  if (h == 0)
    {
      h = hash_bytes (s->data, s->len);
      g_atomic_int_set (&s->hash, h);
    }
  return h;
}

/* ------------------------------------------------------------------ sequences */

/* ------------------------------------------------------------------ address maps */

/* Rehashes map into size slots (a power of two, more than twice its entries). */
static void
ptr_map_rehash (FxPtrMap *map, gsize size)
{
  FxPtrMap grown = { g_new0 (gconstpointer, size), g_new (gconstpointer, size), size, 0 };
  for (gsize j = 0; j < map->size; j++)
    if (map->keys[j] != NULL)
      fx_ptr_map_insert (&grown, map->keys[j], map->values[j]);
  g_free (map->keys);
  g_free (map->values);
  *map = grown;
}

void
fx_ptr_map_reserve (FxPtrMap *map, gsize n)
{
  gsize size = MAX (map->size, (gsize) 16);
  while (size < 2 * n + 2)
    size *= 2;
  if (size > map->size)
    ptr_map_rehash (map, size);
}

gconstpointer
fx_ptr_map_lookup (const FxPtrMap *map, gconstpointer key)
{
  if (map->size == 0)
    return NULL;
  for (gsize mask = map->size - 1, i = fx_pointer_hash (key) & mask;; i = (i + 1) & mask)
    {
      if (map->keys[i] == key)
        return map->values[i];
      if (map->keys[i] == NULL)
        return NULL;
    }
}

gboolean
fx_ptr_map_insert (FxPtrMap *map, gconstpointer key, gconstpointer value)
{
  gsize mask, i;

  /* at most half full */
  if (2 * (map->count + 1) > map->size)
    ptr_map_rehash (map, map->size ? 2 * map->size : 16);
  mask = map->size - 1;
  for (i = fx_pointer_hash (key) & mask; map->keys[i] != NULL; i = (i + 1) & mask)
    if (map->keys[i] == key)
      {
        map->values[i] = value;
        return FALSE;
      }
  map->keys[i] = key;
  map->values[i] = value;
  map->count++;
  return TRUE;
}

void
fx_ptr_map_clear (FxPtrMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
  map->size = map->count = 0;
}

/* ------------------------------------------------------------------ small blocks */

/* Under AddressSanitizer every block goes to malloc, so that use after free stays visible. */
#if defined(__SANITIZE_ADDRESS__)
#define FX_MEM_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FX_MEM_POOL 0
#endif
#endif
#ifndef FX_MEM_POOL
#define FX_MEM_POOL 1
#endif

#if FX_MEM_POOL
#define POOL_CLASSES 32          /* blocks of 16, 32, ..., 512 bytes */
/* blocks kept per class and thread (beyond, they go back to malloc): at most 4096, and at
 * most 256 KiB a class — 8 MiB a thread at worst */
#define POOL_KEEP(c) MIN (4096u, (256u * 1024u) / (16u * ((c) + 1)))

typedef struct {
  gpointer head[POOL_CLASSES];   /* free blocks, each holding the next one's address */
  guint count[POOL_CLASSES];
} MemPool;

/* initial-exec: libfx is linked, not dlopen()ed, and the default model calls
 * __tls_get_addr on every access */
#define POOL_TLS __thread __attribute__ ((tls_model ("initial-exec")))
static POOL_TLS MemPool *mem_pool;
static POOL_TLS gboolean mem_pool_gone;   /* this thread's pool was released at its exit */

static void
mem_pool_release (gpointer data)
{
  MemPool *mp = data;
  for (guint c = 0; c < POOL_CLASSES; c++)
    while (mp->head[c] != NULL)
      {
        gpointer next = *(gpointer *) mp->head[c];
        g_free (mp->head[c]);
        mp->head[c] = next;
      }
  g_free (mp);
  mem_pool = NULL;
  mem_pool_gone = TRUE;
}

/* GPrivate only to hand each thread's pool back when the thread ends */
static GPrivate mem_pool_owner = G_PRIVATE_INIT (mem_pool_release);

#if defined(FX_MEM_DEBUG) || defined(G_ENABLE_DEBUG)
#include <malloc.h>
/* value.h's rule, checked (meson -Dmem_debug=true): a block joining class c must hold the
 * class's whole size. fx_mem_alloc rounds up to it; a block g_malloc()ed elsewhere for a
 * size that is no multiple of 16 may be short, and would overrun whoever gets it next. */
static void
mem_check_block (gpointer p, gsize size, guint c)
{
  gsize need = (gsize) (c + 1) << 4;
  gsize have = malloc_usable_size (p);
  if (have < need)
    g_error ("fx_mem_free (%p, %" G_GSIZE_FORMAT "): the block holds %" G_GSIZE_FORMAT
             " bytes, its size class %" G_GSIZE_FORMAT " (allocated with g_malloc for a size "
             "that is not a multiple of 16?)", p, size, have, need);
}
#define MEM_CHECK_BLOCK(p, size, c) mem_check_block ((p), (size), (c))
#else
#define MEM_CHECK_BLOCK(p, size, c) ((void) 0)
#endif
#endif

gpointer
fx_mem_alloc (gsize size)
{
#if FX_MEM_POOL
  if (size - 1 < 16 * POOL_CLASSES)
    {
      guint c = (guint) ((size - 1) >> 4);
      MemPool *mp = mem_pool;
      gpointer p;
      if (mp != NULL && (p = mp->head[c]) != NULL)
        {
          mp->head[c] = *(gpointer *) p;
          mp->count[c]--;
          return p;
        }
      size = (gsize) (c + 1) << 4;   /* the whole class: any block of it can be reused */
    }
#endif
  return g_malloc (size);
}

gpointer
fx_mem_alloc0 (gsize size)
{
  gpointer p = fx_mem_alloc (size);
  memset (p, 0, size);
  return p;
}

void
fx_mem_free (gpointer p, gsize size)
{
#if FX_MEM_POOL
  if (p != NULL && size - 1 < 16 * POOL_CLASSES && !mem_pool_gone)
    {
      guint c = (guint) ((size - 1) >> 4);
      MemPool *mp = mem_pool;
      if (mp == NULL)
        {
          mp = mem_pool = g_new0 (MemPool, 1);
          g_private_set (&mem_pool_owner, mp);
        }
      MEM_CHECK_BLOCK (p, size, c);
      if (mp->count[c] < POOL_KEEP (c))
        {
          *(gpointer *) p = mp->head[c];
          mp->head[c] = p;
          mp->count[c]++;
          return;
        }
    }
#else
  (void) size;
#endif
  g_free (p);
}

FxSeq *
fx_seq_new (guint len)
{
  FxSeq *seq = fx_new0 (FxSeq, 1);
  g_atomic_ref_count_init (&seq->ref);
  seq->len = len;
  seq->cap = len;
  seq->items = len ? fx_new0 (FxValue, len) : NULL;   /* zeroed = FX_VALUE_NONE */
  return seq;
}

FxSeq *
fx_seq_ref (FxSeq *seq)
{
  ref_inc (&seq->ref);
  return seq;
}

void
fx_seq_unref (FxSeq *seq)
{
  if (seq == NULL || !ref_dec (&seq->ref))
    return;
  for (guint i = 0; i < seq->len; i++)
    fx_value_clear (&seq->items[i]);
  fx_mem_free (seq->items, sizeof (FxValue) * seq->cap);
  fx_mem_free (seq, sizeof *seq);
}

void
fx_seq_append (FxSeq *seq, FxValue item)
{
  if (seq->len == seq->cap)
    {
      seq->cap = seq->cap ? seq->cap * 2 : 4;
      seq->items = g_renew (FxValue, seq->items, seq->cap);
    }
  seq->items[seq->len++] = item;
}

/* ------------------------------------------------------------------ dicts */

/* Pointers returned by fx_dict_get/fx_dict_entry stay valid until the dict is next changed
 * or iterated with fx_dict_entry after a removal (which compacts the entries).
 *
 * Entries live in insertion order in a dense array; an open-addressing index of entry
 * positions finds them. A removed entry leaves a hole in the array (and a tombstone in the
 * index) until the next compaction, so removal is O(1) and iteration stays ordered. */
#define SLOT_EMPTY (-1)
#define SLOT_DELETED (-2)

typedef struct {
  FxValue key;
  FxValue value;
  guint hash;
  gboolean live;
} DictEntry;

struct _FxDict {
  gatomicrefcount ref;
  DictEntry *entries;
  guint n_entries;     /* used slots of entries, holes included */
  guint cap_entries;
  guint n_live;
  gint32 *index;
  guint index_size;    /* power of two */
  guint index_used;    /* live + tombstones */
  guint64 keys_version;
};

/* fx_dict_keys_version's source: unique over all dicts, so that a dict made where a freed
 * one was is never taken for it — a count per thread (no shared cache line), the thread's
 * serial number in the high bits */
static guint dict_threads;
static __thread __attribute__ ((tls_model ("initial-exec"))) guint64 dict_keys_epoch;

static inline void
dict_keys_changed (FxDict *d)
{
  if (G_UNLIKELY (dict_keys_epoch == 0))
    dict_keys_epoch = (guint64) (__atomic_add_fetch (&dict_threads, 1, __ATOMIC_RELAXED)) << 40;
  d->keys_version = ++dict_keys_epoch;
}

guint64
fx_dict_keys_version (const FxDict *dict)
{
  return dict->keys_version;
}

FxDict *
fx_dict_new (void)
{
  FxDict *d = fx_new0 (FxDict, 1);
  g_atomic_ref_count_init (&d->ref);
  dict_keys_changed (d);
  return d;
}

FxDict *
fx_dict_ref (FxDict *dict)
{
  ref_inc (&dict->ref);
  return dict;
}

void
fx_dict_unref (FxDict *dict)
{
  if (dict == NULL || !ref_dec (&dict->ref))
    return;
  for (guint i = 0; i < dict->n_entries; i++)
    if (dict->entries[i].live)
      {
        fx_value_clear (&dict->entries[i].key);
        fx_value_clear (&dict->entries[i].value);
      }
  fx_mem_free (dict->entries, sizeof (DictEntry) * dict->cap_entries);
  fx_mem_free (dict->index, sizeof (gint32) * dict->index_size);
  fx_mem_free (dict, sizeof *dict);
}

guint
fx_dict_len (const FxDict *dict)
{
  return dict->n_live;
}

/* Squeezes holes out of the entries array and rebuilds the index at a size that keeps the
 * load factor at most 1/2. */
static void
dict_rebuild (FxDict *d, guint min_entries)
{
  guint j = 0;
  guint size = 8;

  for (guint i = 0; i < d->n_entries; i++)
    if (d->entries[i].live)
      d->entries[j++] = d->entries[i];
  d->n_entries = j;
  while (size < 2 * MAX (min_entries, j) + 2)
    size *= 2;
  if (size != d->index_size)
    {
      fx_mem_free (d->index, sizeof (gint32) * d->index_size);
      d->index = fx_mem_alloc (sizeof (gint32) * size);
      d->index_size = size;
    }
  for (guint i = 0; i < size; i++)
    d->index[i] = SLOT_EMPTY;
  for (guint i = 0; i < j; i++)
    {
      guint mask = size - 1, pos = d->entries[i].hash & mask;
      while (d->index[pos] != SLOT_EMPTY)
        pos = (pos + 1) & mask;
      d->index[pos] = (gint32) i;
    }
  d->index_used = j;
  dict_keys_changed (d);   /* entries moved: positions from fx_dict_find are stale */
}

/* Index slot holding key, or -1. */
static gint64
dict_find_slot (const FxDict *d, const FxValue *key, guint hash)
{
  guint mask, pos;

  if (d->index_size == 0)
    return -1;
  mask = d->index_size - 1;
  pos = hash & mask;
  for (;;)
    {
      gint32 e = d->index[pos];
      if (e == SLOT_EMPTY)
        return -1;
      if (e >= 0 && d->entries[e].hash == hash && fx_value_equal (&d->entries[e].key, key))
        return pos;
      pos = (pos + 1) & mask;
    }
}

void
fx_dict_set (FxDict *d, FxValue key, FxValue value)
{
  guint hash = fx_value_hash (&key);
  gint64 slot = dict_find_slot (d, &key, hash);
  guint mask, pos;

  if (slot >= 0)
    {
      /* Python keeps the original key object and replaces the value */
      DictEntry *e = &d->entries[d->index[slot]];
      fx_value_clear (&e->value);
      e->value = value;
      fx_value_clear (&key);
      return;
    }
  if (d->n_entries == d->cap_entries)
    {
      if (d->n_live < d->n_entries / 2)
        dict_rebuild (d, d->n_live + 1);   /* mostly holes: compact instead of growing */
      if (d->n_entries == d->cap_entries)
        {
          d->cap_entries = d->cap_entries ? d->cap_entries * 2 : 8;
          d->entries = d->entries != NULL ? g_renew (DictEntry, d->entries, d->cap_entries)
                                          : fx_mem_alloc (sizeof (DictEntry) * d->cap_entries);
        }
    }
  if (2 * (d->index_used + 1) + 2 > d->index_size)
    dict_rebuild (d, d->n_live + 1);
  mask = d->index_size - 1;
  pos = hash & mask;
  while (d->index[pos] >= 0)
    pos = (pos + 1) & mask;
  if (d->index[pos] == SLOT_EMPTY)
    d->index_used++;
  d->index[pos] = (gint32) d->n_entries;
  d->entries[d->n_entries].key = key;
  d->entries[d->n_entries].value = value;
  d->entries[d->n_entries].hash = hash;
  d->entries[d->n_entries].live = TRUE;
  d->n_entries++;
  d->n_live++;
  dict_keys_changed (d);
}

FxValue *
fx_dict_get (const FxDict *d, const FxValue *key)
{
  gint64 slot = dict_find_slot (d, key, fx_value_hash (key));
  if (slot < 0)
    return NULL;
  return &d->entries[d->index[slot]].value;
}

gint64
fx_dict_find (const FxDict *d, const FxValue *key)
{
  gint64 slot = dict_find_slot (d, key, fx_value_hash (key));
  return slot < 0 ? -1 : d->index[slot];
}

FxValue *
fx_dict_entry_value (const FxDict *d, gint64 e)
{
  g_return_val_if_fail (e >= 0 && (guint) e < d->n_entries && d->entries[e].live, NULL);
  return &d->entries[e].value;
}

gboolean
fx_dict_remove (FxDict *d, const FxValue *key)
{
  gint64 slot = dict_find_slot (d, key, fx_value_hash (key));
  DictEntry *e;

  if (slot < 0)
    return FALSE;
  e = &d->entries[d->index[slot]];
  d->index[slot] = SLOT_DELETED;
  fx_value_clear (&e->key);
  fx_value_clear (&e->value);
  e->live = FALSE;
  d->n_live--;
  dict_keys_changed (d);
  /* drop trailing holes right away so that append/remove patterns stay compact */
  while (d->n_entries > 0 && !d->entries[d->n_entries - 1].live)
    d->n_entries--;
  return TRUE;
}

gboolean
fx_dict_entry (const FxDict *dict, guint i, const FxValue **key, const FxValue **value)
{
  if (i >= dict->n_live)
    return FALSE;
  /* Holes make positions ambiguous: compact first (a cache refresh, hence the cast). */
  if (dict->n_entries != dict->n_live)
    dict_rebuild ((FxDict *) dict, dict->n_live);
  if (key)
    *key = &dict->entries[i].key;
  if (value)
    *value = &dict->entries[i].value;
  return TRUE;
}

/* ------------------------------------------------------------------ slices */

FxSlice *
fx_slice_new (FxValue start, FxValue stop, FxValue step)
{
  FxSlice *s = fx_new0 (FxSlice, 1);
  g_atomic_ref_count_init (&s->ref);
  s->start = start;
  s->stop = stop;
  s->step = step;
  return s;
}

FxSlice *
fx_slice_ref (FxSlice *slice)
{
  ref_inc (&slice->ref);
  return slice;
}

void
fx_slice_unref (FxSlice *slice)
{
  if (slice == NULL || !ref_dec (&slice->ref))
    return;
  fx_value_clear (&slice->start);
  fx_value_clear (&slice->stop);
  fx_value_clear (&slice->step);
  g_free (slice);
}

/* ------------------------------------------------------------------ objects */

void
fx_object_init (FxObject *obj, const FxObjectClass *klass)
{
  g_atomic_ref_count_init (&obj->ref);
  obj->klass = klass;
}

FxObject *
fx_object_ref (FxObject *obj)
{
  ref_inc (&obj->ref);
  return obj;
}

void
fx_object_unref (FxObject *obj)
{
  if (obj == NULL || !ref_dec (&obj->ref))
    return;
  if (obj->klass && obj->klass->finalize)
    obj->klass->finalize (obj);
  else
    g_free (obj);
}

/* ------------------------------------------------------------------ value constructors */

FxValue
fx_value_str (const char *s)
{
  FxValue v = { .kind = FX_VALUE_STR, .s = fx_str_new (s) };
  return v;
}

FxValue
fx_value_take_str (FxStr *s)
{
  FxValue v = { .kind = FX_VALUE_STR, .s = s };
  return v;
}

FxValue
fx_value_device (const char *name)
{
  FxValue v = { .kind = FX_VALUE_DEVICE, .s = fx_str_new (name) };
  return v;
}

FxValue
fx_value_tensor (FxTensor *t)
{
  FxValue v = { .kind = FX_VALUE_TENSOR, .tensor = fx_tensor_ref (t) };
  return v;
}

FxValue
fx_value_take_tensor (FxTensor *t)
{
  FxValue v = { .kind = FX_VALUE_TENSOR, .tensor = t };
  return v;
}

FxValue
fx_value_take_tuple (FxSeq *seq)
{
  FxValue v = { .kind = FX_VALUE_TUPLE, .seq = seq };
  return v;
}

FxValue
fx_value_take_list (FxSeq *seq)
{
  FxValue v = { .kind = FX_VALUE_LIST, .seq = seq };
  return v;
}

FxValue
fx_value_take_dict (FxDict *dict)
{
  FxValue v = { .kind = FX_VALUE_DICT, .dict = dict };
  return v;
}

FxValue
fx_value_take_slice (FxSlice *slice)
{
  FxValue v = { .kind = FX_VALUE_SLICE, .slice = slice };
  return v;
}

FxValue
fx_value_take_object (FxObject *obj)
{
  FxValue v = { .kind = FX_VALUE_OBJECT, .obj = obj };
  return v;
}

FxValue
fx_value_int_tuple (const FxTupleType *type, int n, const int64_t *items)
{
  FxSeq *seq = fx_seq_new (n > 0 ? (guint) n : 0);
  seq->type = type;
  for (int i = 0; i < n; i++)
    seq->items[i] = fx_value_int (items[i]);
  return fx_value_take_tuple (seq);
}

FxValue
fx_value_copy (const FxValue *v)
{
  FxValue c = *v;
  switch (v->kind)
    {
    case FX_VALUE_STR:
    case FX_VALUE_DEVICE:
      fx_str_ref (v->s);
      break;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      fx_seq_ref (v->seq);
      break;
    case FX_VALUE_DICT:
      fx_dict_ref (v->dict);
      break;
    case FX_VALUE_SLICE:
      fx_slice_ref (v->slice);
      break;
    case FX_VALUE_TENSOR:
      fx_tensor_ref (v->tensor);
      break;
    case FX_VALUE_OBJECT:
      fx_object_ref (v->obj);
      break;
    default:
      break;
    }
  return c;
}

void
fx_value_clear (FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_STR:
    case FX_VALUE_DEVICE:
      fx_str_unref (v->s);
      break;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      fx_seq_unref (v->seq);
      break;
    case FX_VALUE_DICT:
      fx_dict_unref (v->dict);
      break;
    case FX_VALUE_SLICE:
      fx_slice_unref (v->slice);
      break;
    case FX_VALUE_TENSOR:
      fx_tensor_unref (v->tensor);
      break;
    case FX_VALUE_OBJECT:
      fx_object_unref (v->obj);
      break;
    default:
      break;
    }
  *v = fx_value_none ();
}

/* ------------------------------------------------------------------ equality and hashing */

static gboolean
is_number (const FxValue *v)
{
  return v->kind == FX_VALUE_BOOL || v->kind == FX_VALUE_INT || v->kind == FX_VALUE_FLOAT;
}

static int64_t
number_as_int (const FxValue *v)
{
  return v->kind == FX_VALUE_BOOL ? (int64_t) v->b : v->i;
}

/* Exact comparison of an int and a float, as Python does it (no rounding of the int). */
static gboolean
int_equals_float (int64_t i, double f)
{
  if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0) || f != floor (f))
    return FALSE;
  return (int64_t) f == i;
}

static gboolean
seq_items_equal (const FxSeq *a, const FxSeq *b)
{
  if (a == b)
    return TRUE;
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!fx_value_equal (&a->items[i], &b->items[i]))
      return FALSE;
  return TRUE;
}

static gboolean
dict_equal (const FxDict *a, const FxDict *b)
{
  if (a == b)
    return TRUE;
  if (a->n_live != b->n_live)
    return FALSE;
  for (guint i = 0; i < a->n_entries; i++)
    {
      const DictEntry *e = &a->entries[i];
      FxValue *other;
      if (!e->live)
        continue;
      other = fx_dict_get (b, &e->key);
      if (other == NULL || !fx_value_equal (&e->value, other))
        return FALSE;
    }
  return TRUE;
}

/* Self-containing lists would recurse forever (Python raises RecursionError): compare and
 * hash nested containers only down to a fixed depth. */
#define NESTING_MAX_DEPTH 1000
/* initial-exec, as the pool's: every dict lookup passes here, and the default model calls
 * __tls_get_addr on each access */
static __thread __attribute__ ((tls_model ("initial-exec"))) int nesting_depth;

static gboolean value_equal (const FxValue *a, const FxValue *b);

gboolean
fx_value_equal (const FxValue *a, const FxValue *b)
{
  gboolean r;
  if (nesting_depth >= NESTING_MAX_DEPTH)
    return a->kind == b->kind && a->seq == b->seq;   /* identity, whatever the payload */
  nesting_depth++;
  r = value_equal (a, b);
  nesting_depth--;
  return r;
}

static gboolean
value_equal (const FxValue *a, const FxValue *b)
{
  if (is_number (a) && is_number (b))
    {
      if (a->kind == FX_VALUE_FLOAT && b->kind == FX_VALUE_FLOAT)
        return a->f == b->f;
      if (a->kind == FX_VALUE_FLOAT)
        return int_equals_float (number_as_int (b), a->f);
      if (b->kind == FX_VALUE_FLOAT)
        return int_equals_float (number_as_int (a), b->f);
      return number_as_int (a) == number_as_int (b);
    }
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case FX_VALUE_NONE:
    case FX_VALUE_ELLIPSIS:
      return TRUE;
    case FX_VALUE_STR:
    case FX_VALUE_DEVICE:
      return a->s == b->s || (a->s->len == b->s->len && memcmp (a->s->data, b->s->data, a->s->len) == 0);
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      /* a namedtuple or torch.Size equals the plain tuple with the same items */
      return seq_items_equal (a->seq, b->seq);
    case FX_VALUE_DICT:
      return dict_equal (a->dict, b->dict);
    case FX_VALUE_SLICE:
      return a->slice == b->slice
             || (fx_value_equal (&a->slice->start, &b->slice->start)
                 && fx_value_equal (&a->slice->stop, &b->slice->stop)
                 && fx_value_equal (&a->slice->step, &b->slice->step));
    case FX_VALUE_DTYPE:
      return a->dtype == b->dtype;
    case FX_VALUE_TENSOR:
      return a->tensor == b->tensor;
    case FX_VALUE_NODE:
      return a->node == b->node;
    case FX_VALUE_OP:
      return a->op == b->op;
    case FX_VALUE_OBJECT:
      if (a->obj == b->obj)
        return TRUE;
      if (a->obj->klass == b->obj->klass && a->obj->klass && a->obj->klass->equal)
        return a->obj->klass->equal (a->obj, b->obj);
      return FALSE;
    default:
      return FALSE;
    }
}

static guint
hash_mix (guint64 x)
{
  /* splitmix64 finaliser */
  x ^= x >> 30;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  x ^= x >> 31;
  return (guint) (x ^ (x >> 32));
}

static guint
hash_pointer (gconstpointer p)
{
  return hash_mix ((guint64) (guintptr) p);
}

static guint value_hash (const FxValue *v);

guint
fx_value_hash (const FxValue *v)
{
  guint h;
  if (nesting_depth >= NESTING_MAX_DEPTH)
    return 0;
  nesting_depth++;
  h = value_hash (v);
  nesting_depth--;
  return h;
}

static guint
value_hash (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE:
      return 0x9e3779b9u;
    case FX_VALUE_ELLIPSIS:
      return 0x7f4a7c15u;
    case FX_VALUE_BOOL:
    case FX_VALUE_INT:
      return hash_mix ((guint64) number_as_int (v));
    case FX_VALUE_FLOAT:
      {
        double f = v->f;
        guint64 bits;
        /* equal numbers must hash alike: integral floats hash as the int */
        if (f >= -9223372036854775808.0 && f < 9223372036854775808.0 && f == floor (f))
          return hash_mix ((guint64) (int64_t) f);
        if (f == 0)
          f = 0;
        memcpy (&bits, &f, sizeof bits);
        return hash_mix (bits ^ G_GUINT64_CONSTANT (0x5bd1e9955bd1e995));
      }
    case FX_VALUE_STR:
      return fx_str_hash (v->s);
    case FX_VALUE_DEVICE:
      return fx_str_hash (v->s) ^ 0x2545f491u;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      {
        guint64 h = 0x345678u + v->seq->len;
        for (guint i = 0; i < v->seq->len; i++)
          h = (h ^ fx_value_hash (&v->seq->items[i])) * G_GUINT64_CONSTANT (1000003);
        return hash_mix (h);
      }
    case FX_VALUE_DICT:
      return hash_mix (0xd1c7u + v->dict->n_live);   /* unhashable in Python; stay consistent */
    case FX_VALUE_SLICE:
      return hash_mix (((guint64) fx_value_hash (&v->slice->start) << 32)
                       ^ ((guint64) fx_value_hash (&v->slice->stop) * 31)
                       ^ fx_value_hash (&v->slice->step));
    case FX_VALUE_DTYPE:
      return hash_mix (0xd7e0u + (guint64) v->dtype);
    case FX_VALUE_TENSOR:
      return hash_pointer (v->tensor);
    case FX_VALUE_NODE:
      return hash_pointer (v->node);
    case FX_VALUE_OP:
      return hash_pointer (v->op);
    case FX_VALUE_OBJECT:
      if (v->obj->klass && v->obj->klass->hash)
        return v->obj->klass->hash (v->obj);
      return hash_pointer (v->obj);
    default:
      return 0;
    }
}

/* ------------------------------------------------------------------ repr */

void
fx_format_float_repr (double f, GString *out)
{
  char buf[40];
  char digits[20];
  int nd = 0, exp10, prec;
  const char *p;

  if (isnan (f))
    {
      g_string_append (out, "nan");
      return;
    }
  if (isinf (f))
    {
      g_string_append (out, f < 0 ? "-inf" : "inf");
      return;
    }
  if (f == 0)
    {
      g_string_append (out, signbit (f) ? "-0.0" : "0.0");
      return;
    }
  /* the shortest %e precision that reads back as the same double */
  for (prec = 0; prec < 17; prec++)
    {
      snprintf (buf, sizeof buf, "%.*e", prec, f);
      if (strtod (buf, NULL) == f)
        break;
    }
  p = buf;
  if (*p == '-')
    {
      g_string_append_c (out, '-');
      p++;
    }
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9')
      digits[nd++] = *p;
  exp10 = atoi (p + 1);
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;

  if (exp10 < -4 || exp10 >= 16)
    {
      g_string_append_c (out, digits[0]);
      if (nd > 1)
        {
          g_string_append_c (out, '.');
          g_string_append_len (out, digits + 1, nd - 1);
        }
      g_string_append_printf (out, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    }
  else if (exp10 < 0)
    {
      g_string_append (out, "0.");
      for (int i = 0; i < -exp10 - 1; i++)
        g_string_append_c (out, '0');
      g_string_append_len (out, digits, nd);
    }
  else if (nd <= exp10 + 1)
    {
      g_string_append_len (out, digits, nd);
      for (int i = nd; i < exp10 + 1; i++)
        g_string_append_c (out, '0');
      g_string_append (out, ".0");
    }
  else
    {
      g_string_append_len (out, digits, exp10 + 1);
      g_string_append_c (out, '.');
      g_string_append_len (out, digits + exp10 + 1, nd - exp10 - 1);
    }
}

/* CPython's str.isprintable() for one code point. */
static gboolean
unichar_is_printable (gunichar c)
{
  if (c == ' ')
    return TRUE;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
      return FALSE;
    default:
      return TRUE;
    }
}

static void
repr_str (const char *s, gsize len, GString *out)
{
  char quote = '\'';
  const char *p = s, *end = s + len;

  if (memchr (s, '\'', len) && !memchr (s, '"', len))
    quote = '"';
  g_string_append_c (out, quote);
  while (p < end)
    {
      guchar c = (guchar) *p;
      if (c < 0x80)
        {
          if (c == (guchar) quote || c == '\\')
            {
              g_string_append_c (out, '\\');
              g_string_append_c (out, (char) c);
            }
          else if (c == '\n')
            g_string_append (out, "\\n");
          else if (c == '\t')
            g_string_append (out, "\\t");
          else if (c == '\r')
            g_string_append (out, "\\r");
          else if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\x%02x", c);
          else
            g_string_append_c (out, (char) c);
          p++;
          continue;
        }
      {
        gunichar u = g_utf8_get_char_validated (p, end - p);
        if (u == (gunichar) -1 || u == (gunichar) -2)
          {
            /* not UTF-8: show the byte as Python shows a surrogateescape'd one */
            g_string_append_printf (out, "\\udc%02x", c);
            p++;
            continue;
          }
        if (unichar_is_printable (u))
          g_string_append_len (out, p, g_utf8_next_char (p) - p);
        else if (u < 0x100)
          g_string_append_printf (out, "\\x%02x", u);
        else if (u < 0x10000)
          g_string_append_printf (out, "\\u%04x", u);
        else
          g_string_append_printf (out, "\\U%08x", u);
        p = g_utf8_next_char (p);
      }
    }
  g_string_append_c (out, quote);
}

static void
repr_items (const FxSeq *seq, GString *out)
{
  for (guint i = 0; i < seq->len; i++)
    {
      if (i)
        g_string_append (out, ", ");
      fx_value_repr (&seq->items[i], out);
    }
}

static void
repr_tuple (const FxSeq *seq, GString *out)
{
  const FxTupleType *type = seq->type;

  if (type && type->n_fields == 0)
    {
      /* torch.Size([2, 3]) */
      g_string_append (out, type->name);
      g_string_append (out, "([");
      repr_items (seq, out);
      g_string_append (out, "])");
      return;
    }
  if (type)
    {
      /* torch.return_types are structseqs, printed one field per line */
      gboolean structseq = g_str_has_prefix (type->name, "torch.return_types.");
      g_string_append (out, type->name);
      g_string_append_c (out, '(');
      for (guint i = 0; i < seq->len; i++)
        {
          if (i)
            g_string_append_c (out, ',');
          if (structseq)
            g_string_append_c (out, '\n');
          else if (i)
            g_string_append_c (out, ' ');
          if ((int) i < type->n_fields)
            {
              g_string_append (out, type->fields[i]);
              g_string_append_c (out, '=');
            }
          fx_value_repr (&seq->items[i], out);
        }
      g_string_append_c (out, ')');
      return;
    }
  g_string_append_c (out, '(');
  repr_items (seq, out);
  if (seq->len == 1)
    g_string_append_c (out, ',');
  g_string_append_c (out, ')');
}

static void
repr_device (const FxStr *s, GString *out)
{
  const char *colon = strchr (s->data, ':');
  g_string_append (out, "device(type='");
  if (colon)
    {
      g_string_append_len (out, s->data, colon - s->data);
      g_string_append (out, "', index=");
      g_string_append (out, colon + 1);
      g_string_append_c (out, ')');
    }
  else
    {
      g_string_append (out, s->data);
      g_string_append (out, "')");
    }
}

/* Containers being printed on this thread: a list that contains itself prints as [...]
 * (as in Python) instead of recursing forever; absurd nesting is cut off the same way. */
#define REPR_MAX_DEPTH 200
static __thread const void *repr_stack[REPR_MAX_DEPTH];
static __thread int repr_depth;

static gboolean
repr_enter (const void *container, const char *ellipsis, GString *out)
{
  for (int i = 0; i < repr_depth; i++)
    if (repr_stack[i] == container)
      {
        g_string_append (out, ellipsis);
        return FALSE;
      }
  if (repr_depth >= REPR_MAX_DEPTH)
    {
      g_string_append (out, ellipsis);
      return FALSE;
    }
  repr_stack[repr_depth++] = container;
  return TRUE;
}

static void
repr_leave (void)
{
  repr_depth--;
}

void
fx_value_repr (const FxValue *v, GString *out)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE:
      g_string_append (out, "None");
      break;
    case FX_VALUE_BOOL:
      g_string_append (out, v->b ? "True" : "False");
      break;
    case FX_VALUE_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, v->i);
      break;
    case FX_VALUE_FLOAT:
      fx_format_float_repr (v->f, out);
      break;
    case FX_VALUE_STR:
      repr_str (v->s->data, v->s->len, out);
      break;
    case FX_VALUE_TUPLE:
      if (!repr_enter (v->seq, "(...)", out))
        break;
      repr_tuple (v->seq, out);
      repr_leave ();
      break;
    case FX_VALUE_LIST:
      if (!repr_enter (v->seq, "[...]", out))
        break;
      g_string_append_c (out, '[');
      repr_items (v->seq, out);
      g_string_append_c (out, ']');
      repr_leave ();
      break;
    case FX_VALUE_DICT:
      {
        const FxValue *k, *val;
        if (!repr_enter (v->dict, "{...}", out))
          break;
        g_string_append_c (out, '{');
        for (guint i = 0; fx_dict_entry (v->dict, i, &k, &val); i++)
          {
            if (i)
              g_string_append (out, ", ");
            fx_value_repr (k, out);
            g_string_append (out, ": ");
            fx_value_repr (val, out);
          }
        g_string_append_c (out, '}');
        repr_leave ();
        break;
      }
    case FX_VALUE_SLICE:
      g_string_append (out, "slice(");
      fx_value_repr (&v->slice->start, out);
      g_string_append (out, ", ");
      fx_value_repr (&v->slice->stop, out);
      g_string_append (out, ", ");
      fx_value_repr (&v->slice->step, out);
      g_string_append_c (out, ')');
      break;
    case FX_VALUE_ELLIPSIS:
      g_string_append (out, "Ellipsis");
      break;
    case FX_VALUE_DTYPE:
      g_string_append (out, "torch.");
      g_string_append (out, fx_dtype_name (v->dtype));
      break;
    case FX_VALUE_DEVICE:
      repr_device (v->s, out);
      break;
    case FX_VALUE_TENSOR:
      if (fx_tensor_repr)
        fx_tensor_repr (v->tensor, out);
      else
        g_string_append (out, "tensor(...)");
      break;
    case FX_VALUE_NODE:
      {
        const char *name = fx_node_get_name ? fx_node_get_name (v->node) : NULL;
        g_string_append (out, name ? name : "<node>");
        break;
      }
    case FX_VALUE_OP:
      g_string_append (out, v->op && v->op->qualified_name ? v->op->qualified_name : "<op>");
      break;
    case FX_VALUE_OBJECT:
      if (v->obj->klass && v->obj->klass->repr)
        v->obj->klass->repr (v->obj, out);
      else
        g_string_append_printf (out, "<%s object at %p>",
                                v->obj->klass && v->obj->klass->name ? v->obj->klass->name
                                                                     : "object",
                                (void *) v->obj);
      break;
    default:
      g_string_append (out, "<?>");
      break;
    }
}

char *
fx_value_to_repr (const FxValue *v)
{
  GString *s = g_string_new (NULL);
  fx_value_repr (v, s);
  return g_string_free (s, FALSE);
}

const char *
fx_value_kind_name (FxValueKind kind)
{
  switch (kind)
    {
    case FX_VALUE_NONE:     return "NoneType";
    case FX_VALUE_BOOL:     return "bool";
    case FX_VALUE_INT:      return "int";
    case FX_VALUE_FLOAT:    return "float";
    case FX_VALUE_STR:      return "str";
    case FX_VALUE_TUPLE:    return "tuple";
    case FX_VALUE_LIST:     return "list";
    case FX_VALUE_DICT:     return "dict";
    case FX_VALUE_SLICE:    return "slice";
    case FX_VALUE_ELLIPSIS: return "ellipsis";
    case FX_VALUE_DTYPE:    return "torch.dtype";
    case FX_VALUE_DEVICE:   return "torch.device";
    case FX_VALUE_TENSOR:   return "Tensor";
    case FX_VALUE_NODE:     return "Node";
    case FX_VALUE_OP:       return "builtin_function_or_method";
    case FX_VALUE_OBJECT:   return "object";
    default:                return "object";
    }
}
