/* checkpoint.c: torch.save's zip checkpoint format. The writer emits the very pickle stream
 * PyTorch 1.13's pickler emits for an OrderedDict of tensors (same opcodes, same memo
 * indices); the reader interprets a safe subset of pickle: a whitelist of globals, no
 * arbitrary calls, bounded nesting, and containers that cannot be changed once placed in
 * another (so no cycles and depths stay known). Archives go through libzip. */
#include "ir/checkpoint.h"
#include "fx-error.h"

#include <string.h>
#include <zip.h>

#define MAX_DEPTH 64
#define MAX_STACK (1u << 24)

/* ================================================================== shared tables */

typedef struct {
  const char *name;     /* the global's name in module torch */
  FxDType dtype;
} StorageType;

static const StorageType storage_types[] = {
  { "BoolStorage", FX_DTYPE_BOOL }, { "ByteStorage", FX_DTYPE_UINT8 },
  { "CharStorage", FX_DTYPE_INT8 }, { "ShortStorage", FX_DTYPE_INT16 },
  { "IntStorage", FX_DTYPE_INT32 }, { "LongStorage", FX_DTYPE_INT64 },
  { "HalfStorage", FX_DTYPE_FLOAT16 }, { "FloatStorage", FX_DTYPE_FLOAT32 },
  { "DoubleStorage", FX_DTYPE_FLOAT64 },
};

static const char *
storage_type_name (FxDType dtype)
{
  for (guint i = 0; i < G_N_ELEMENTS (storage_types); i++)
    if (storage_types[i].dtype == dtype)
      return storage_types[i].name;
  return NULL;
}

/* ================================================================== writer */

enum {
  OP_MARK = '(', OP_STOP = '.', OP_BININT = 'J', OP_BININT1 = 'K', OP_BININT2 = 'M',
  OP_BINPERSID = 'Q', OP_REDUCE = 'R', OP_BINUNICODE = 'X', OP_EMPTY_TUPLE = ')',
  OP_TUPLE = 't', OP_GLOBAL = 'c', OP_BINGET = 'h', OP_LONG_BINGET = 'j', OP_BINPUT = 'q',
  OP_LONG_BINPUT = 'r', OP_SETITEM = 's', OP_SETITEMS = 'u', OP_PROTO = 0x80,
  OP_TUPLE1 = 0x85, OP_TUPLE2 = 0x86, OP_TUPLE3 = 0x87, OP_NEWTRUE = 0x88,
  OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a,
  OP_NONE = 'N', OP_BINFLOAT = 'G', OP_EMPTY_LIST = ']', OP_APPEND = 'a', OP_APPENDS = 'e',
  OP_EMPTY_DICT = '}',
};

typedef struct {
  char *key;            /* "0", "1", ... in order of first use */
  guint key_memo;       /* memo index of the key string */
  FxDType dtype;
  int64_t numel;
  FxStorage *storage;
} SavedStorage;

typedef struct {
  GByteArray *out;
  guint memo;                   /* next memo index */
  GHashTable *globals;          /* "module\nname" → memo index + 1 */
  GHashTable *storages;         /* FxStorage* → SavedStorage* */
  GPtrArray *storage_order;     /* SavedStorage*, by key number */
  GHashTable *tensors;          /* FxTensor* → memo index + 1 (the same tensor twice) */
  guint storage_str_memo, cpu_str_memo;   /* + 1; 0 = not yet written */
} Pickler;

static void
put_byte (Pickler *p, guint8 b)
{
  g_byte_array_append (p->out, &b, 1);
}

static void
put_u32 (Pickler *p, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  g_byte_array_append (p->out, (const guint8 *) &le, 4);
}

static guint
memoize (Pickler *p)
{
  guint idx = p->memo++;
  if (idx < 256)
    {
      put_byte (p, OP_BINPUT);
      put_byte (p, (guint8) idx);
    }
  else
    {
      put_byte (p, OP_LONG_BINPUT);
      put_u32 (p, idx);
    }
  return idx;
}

static void
memo_get (Pickler *p, guint idx)
{
  if (idx < 256)
    {
      put_byte (p, OP_BINGET);
      put_byte (p, (guint8) idx);
    }
  else
    {
      put_byte (p, OP_LONG_BINGET);
      put_u32 (p, idx);
    }
}

/* pickle's save_long for protocol 2 */
static void
put_int (Pickler *p, int64_t v)
{
  if (v >= 0 && v <= 0xff)
    {
      put_byte (p, OP_BININT1);
      put_byte (p, (guint8) v);
    }
  else if (v >= 0 && v <= 0xffff)
    {
      guint16 le = GUINT16_TO_LE ((guint16) v);
      put_byte (p, OP_BININT2);
      g_byte_array_append (p->out, (const guint8 *) &le, 2);
    }
  else if (v >= G_MININT32 && v <= G_MAXINT32)
    {
      put_byte (p, OP_BININT);
      put_u32 (p, (guint32) (gint32) v);
    }
  else
    {
      /* shortest two's complement little-endian encoding */
      guint8 bytes[8];
      int n = 8;
      guint64 u = (guint64) v;
      for (int i = 0; i < 8; i++)
        bytes[i] = (guint8) (u >> (8 * i));
      while (n > 1 && ((bytes[n - 1] == 0 && !(bytes[n - 2] & 0x80))
                       || (bytes[n - 1] == 0xff && (bytes[n - 2] & 0x80))))
        n--;
      put_byte (p, OP_LONG1);
      put_byte (p, (guint8) n);
      g_byte_array_append (p->out, bytes, (guint) n);
    }
}

/* A new str object: BINUNICODE + memo. */
static guint
put_str (Pickler *p, const char *s)
{
  gsize len = strlen (s);
  put_byte (p, OP_BINUNICODE);
  put_u32 (p, (guint32) len);
  g_byte_array_append (p->out, (const guint8 *) s, (guint) len);
  return memoize (p);
}

static void
put_global (Pickler *p, const char *module, const char *name)
{
  g_autofree char *key = g_strdup_printf ("%s\n%s\n", module, name);
  gpointer idx = g_hash_table_lookup (p->globals, key);

  if (idx != NULL)
    {
      memo_get (p, GPOINTER_TO_UINT (idx) - 1);
      return;
    }
  put_byte (p, OP_GLOBAL);
  g_byte_array_append (p->out, (const guint8 *) key, (guint) strlen (key));
  g_hash_table_insert (p->globals, g_steal_pointer (&key), GUINT_TO_POINTER (memoize (p) + 1));
}

/* A tuple of ints as the pickler writes tuple(t.size()) / t.stride(). */
static void
put_int_tuple (Pickler *p, int n, const int64_t *items)
{
  if (n == 0)
    {
      put_byte (p, OP_EMPTY_TUPLE);
      return;
    }
  if (n > 3)
    put_byte (p, OP_MARK);
  for (int i = 0; i < n; i++)
    put_int (p, items[i]);
  put_byte (p, n == 1 ? OP_TUPLE1 : n == 2 ? OP_TUPLE2 : n == 3 ? OP_TUPLE3 : OP_TUPLE);
  memoize (p);
}

/* collections.OrderedDict(): backward_hooks */
static void
put_empty_ordered_dict (Pickler *p)
{
  put_global (p, "collections", "OrderedDict");
  put_byte (p, OP_EMPTY_TUPLE);
  put_byte (p, OP_REDUCE);
  memoize (p);
}

static gboolean
put_tensor_v2 (Pickler *p, FxTensor *t, gboolean requires_grad, GError **error)
{
  SavedStorage *st = g_hash_table_lookup (p->storages, t->storage);
  gsize esize = fx_dtype_size (t->dtype);

  if (st == NULL)
    {
      st = g_new0 (SavedStorage, 1);
      st->key = g_strdup_printf ("%u", p->storage_order->len);
      st->dtype = t->dtype;
      st->numel = (int64_t) (t->storage->nbytes / esize);
      st->storage = t->storage;
      g_hash_table_insert (p->storages, t->storage, st);
      g_ptr_array_add (p->storage_order, st);
    }
  else if (st->dtype != t->dtype)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_FAILED,
                           "Cannot save multiple tensors or storages that view the same data as different types");
      return FALSE;
    }

  put_global (p, "torch._utils", "_rebuild_tensor_v2");
  put_byte (p, OP_MARK);
  /* the persistent id ('storage', torch.XStorage, key, 'cpu', numel) */
  put_byte (p, OP_MARK);
  if (p->storage_str_memo)
    memo_get (p, p->storage_str_memo - 1);
  else
    p->storage_str_memo = put_str (p, "storage") + 1;
  put_global (p, "torch", storage_type_name (t->dtype));
  if (st->key_memo)
    memo_get (p, st->key_memo - 1);
  else
    st->key_memo = put_str (p, st->key) + 1;
  if (p->cpu_str_memo)
    memo_get (p, p->cpu_str_memo - 1);
  else
    p->cpu_str_memo = put_str (p, "cpu") + 1;
  put_int (p, st->numel);
  put_byte (p, OP_TUPLE);
  memoize (p);
  put_byte (p, OP_BINPERSID);
  put_int (p, t->offset);
  put_int_tuple (p, t->ndim, t->shape);
  put_int_tuple (p, t->ndim, t->strides);
  put_byte (p, requires_grad ? OP_NEWTRUE : OP_NEWFALSE);
  put_empty_ordered_dict (p);
  put_byte (p, OP_TUPLE);
  memoize (p);
  put_byte (p, OP_REDUCE);
  memoize (p);
  return TRUE;
}

static gboolean
put_tensor (Pickler *p, FxTensor *t, GError **error)
{
  gpointer seen = g_hash_table_lookup (p->tensors, t);
  int64_t extent = t->offset;

  if (seen != NULL)
    {
      memo_get (p, GPOINTER_TO_UINT (seen) - 1);
      return TRUE;
    }
  for (int d = 0; d < t->ndim; d++)
    {
      if (t->shape[d] == 0)
        {
          extent = 0;
          break;
        }
      extent += (t->shape[d] - 1) * t->strides[d];
    }
  if (fx_tensor_numel (t) > 0 && (gsize) extent >= t->storage->nbytes / fx_dtype_size (t->dtype))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           "checkpoint: a tensor reaches beyond its storage");
      return FALSE;
    }
  if (t->requires_grad)
    {
      /* nn.Parameter.__reduce_ex__: _rebuild_parameter(self.data, True, OrderedDict()) */
      put_global (p, "torch._utils", "_rebuild_parameter");
      if (!put_tensor_v2 (p, t, FALSE, error))
        return FALSE;
      put_byte (p, OP_NEWTRUE);
      put_empty_ordered_dict (p);
      put_byte (p, OP_TUPLE3);
      memoize (p);
      put_byte (p, OP_REDUCE);
    }
  else if (!put_tensor_v2 (p, t, FALSE, error))
    return FALSE;
  else
    {
      /* put_tensor_v2 memoized the result already */
      g_hash_table_insert (p->tensors, t, GUINT_TO_POINTER (p->memo));
      return TRUE;
    }
  g_hash_table_insert (p->tensors, t, GUINT_TO_POINTER (memoize (p) + 1));
  return TRUE;
}

static int
key_cmp (gconstpointer a, gconstpointer b)
{
  const SavedStorage *x = *(SavedStorage *const *) a, *y = *(SavedStorage *const *) b;
  return strcmp (x->key, y->key);
}

static gboolean
zip_fail (GError **error, const char *path, zip_error_t *zerr)
{
  g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s: %s", path, zip_error_strerror (zerr));
  return FALSE;
}

/* torch's writer pads each record's local header with an "FB" extra field so that the data
 * start 64-byte aligned (what lets it mmap them); libzip writes entries in order, each as a
 * local header (30 bytes + name + extra) followed by the data, so the offsets are known. */
static gboolean
add_record (zip_t *za, const char *name, const void *data, gsize len, guint64 *offset,
            const char *path, GError **error)
{
  zip_source_t *src = zip_source_buffer (za, data, len, 0);
  zip_int64_t idx;
  guint64 header_end = *offset + 30 + strlen (name) + 4;
  guint16 pad = (guint16) ((64 - header_end % 64) % 64);
  static const guint8 zeros[64] = { 0 };

  if (src == NULL)
    return zip_fail (error, path, zip_get_error (za));
  idx = zip_file_add (za, name, src, ZIP_FL_OVERWRITE);
  if (idx < 0)
    {
      zip_source_free (src);
      return zip_fail (error, path, zip_get_error (za));
    }
  if (zip_set_file_compression (za, (zip_uint64_t) idx, ZIP_CM_STORE, 0) < 0
      || zip_file_set_mtime (za, (zip_uint64_t) idx, 946684800, 0) < 0
      || zip_file_extra_field_set (za, (zip_uint64_t) idx, 0x4246, ZIP_EXTRA_FIELD_NEW,
                                   zeros, pad, ZIP_FL_LOCAL) < 0)
    return zip_fail (error, path, zip_get_error (za));
  *offset = header_end + pad + len;
  return TRUE;
}

/* pickle's save of a list's or dict's items: batches of 1000, a batch of one written alone
 * (APPEND / SETITEM), longer ones between MARK and APPENDS / SETITEMS. */
static gboolean put_value (Pickler *p, const FxValue *v, GHashTable *ordered, int depth,
                           GError **error);

static gboolean
put_items (Pickler *p, const FxValue *v, GHashTable *ordered, int depth, GError **error)
{
  gboolean is_list = v->kind == FX_VALUE_LIST;
  guint n = is_list ? v->seq->len : fx_dict_len (v->dict);
  const FxValue *k, *x;

  for (guint start = 0; start < n; start += 1000)
    {
      guint end = MIN (n, start + 1000);
      if (end - start > 1)
        put_byte (p, OP_MARK);
      for (guint i = start; i < end; i++)
        if (is_list)
          {
            if (!put_value (p, &v->seq->items[i], ordered, depth + 1, error))
              return FALSE;
          }
        else
          {
            fx_dict_entry (v->dict, i, &k, &x);
            if (!put_value (p, k, ordered, depth + 1, error)
                || !put_value (p, x, ordered, depth + 1, error))
              return FALSE;
          }
      if (is_list)
        put_byte (p, end - start > 1 ? OP_APPENDS : OP_APPEND);
      else
        put_byte (p, end - start > 1 ? OP_SETITEMS : OP_SETITEM);
    }
  return TRUE;
}

/* pickle protocol 2's encoding of one value; depth bounds the nesting of the data. */
static gboolean
put_value (Pickler *p, const FxValue *v, GHashTable *ordered, int depth, GError **error)
{
  if (depth > 200)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                           "checkpoint: the data are nested too deeply");
      return FALSE;
    }
  switch (v->kind)
    {
    case FX_VALUE_NONE:
      put_byte (p, OP_NONE);
      return TRUE;
    case FX_VALUE_BOOL:
      put_byte (p, v->b ? OP_NEWTRUE : OP_NEWFALSE);
      return TRUE;
    case FX_VALUE_INT:
      put_int (p, v->i);
      return TRUE;
    case FX_VALUE_FLOAT:
      {
        guint64 bits;
        memcpy (&bits, &v->f, 8);
        bits = GUINT64_TO_BE (bits);
        put_byte (p, OP_BINFLOAT);
        g_byte_array_append (p->out, (const guint8 *) &bits, 8);
        return TRUE;
      }
    case FX_VALUE_STR:
      put_str (p, v->s->data);
      return TRUE;
    case FX_VALUE_TENSOR:
      return put_tensor (p, v->tensor, error);
    case FX_VALUE_TUPLE:
      {
        guint n = v->seq->len;
        if (n == 0)
          {
            put_byte (p, OP_EMPTY_TUPLE);
            return TRUE;
          }
        if (n > 3)
          put_byte (p, OP_MARK);
        for (guint i = 0; i < n; i++)
          if (!put_value (p, &v->seq->items[i], ordered, depth + 1, error))
            return FALSE;
        put_byte (p, n == 1 ? OP_TUPLE1 : n == 2 ? OP_TUPLE2 : n == 3 ? OP_TUPLE3 : OP_TUPLE);
        memoize (p);
        return TRUE;
      }
    case FX_VALUE_LIST:
      put_byte (p, OP_EMPTY_LIST);
      memoize (p);
      return put_items (p, v, ordered, depth, error);
    case FX_VALUE_DICT:
      if (ordered != NULL && g_hash_table_contains (ordered, v->dict))
        put_empty_ordered_dict (p);
      else
        {
          put_byte (p, OP_EMPTY_DICT);
          memoize (p);
        }
      return put_items (p, v, ordered, depth, error);
    default:
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                   "checkpoint: cannot save a value of type '%s'", fx_value_kind_name (v->kind));
      return FALSE;
    }
}

gboolean
fx_checkpoint_save (FxDict *state_dict, const char *path, GError **error)
{
  const FxValue *k, *v;
  g_autoptr (GHashTable) ordered = g_hash_table_new (g_direct_hash, g_direct_equal);
  FxValue obj;
  gboolean ok;

  for (guint i = 0; fx_dict_entry (state_dict, i, &k, &v); i++)
    if (k->kind != FX_VALUE_STR || v->kind != FX_VALUE_TENSOR)
      {
        g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                     "checkpoint: entry %u of the state dict is not a str → tensor pair", i);
        return FALSE;
      }
  g_hash_table_add (ordered, state_dict);
  obj = fx_value_take_dict (fx_dict_ref (state_dict));
  ok = fx_checkpoint_save_value (&obj, ordered, path, error);
  fx_value_clear (&obj);
  return ok;
}

gboolean
fx_checkpoint_save_value (const FxValue *obj, GHashTable *ordered_dicts, const char *path,
                          GError **error)
{
  Pickler p = { 0 };
  gboolean ok = FALSE;
  zip_t *za = NULL;
  int zerr_code = 0;
  guint64 offset = 0;
  static const char version[] = "3\n";

  p.out = g_byte_array_new ();
  p.globals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.storages = g_hash_table_new (g_direct_hash, g_direct_equal);
  p.storage_order = g_ptr_array_new_with_free_func (NULL);
  p.tensors = g_hash_table_new (g_direct_hash, g_direct_equal);

  put_byte (&p, OP_PROTO);
  put_byte (&p, 2);
  if (!put_value (&p, obj, ordered_dicts, 0, error))
    goto out;
  put_byte (&p, OP_STOP);

  za = zip_open (path, ZIP_CREATE | ZIP_TRUNCATE, &zerr_code);
  if (za == NULL)
    {
      zip_error_t zerr;
      zip_error_init_with_code (&zerr, zerr_code);
      zip_fail (error, path, &zerr);
      zip_error_fini (&zerr);
      goto out;
    }
  if (!add_record (za, "archive/data.pkl", p.out->data, p.out->len, &offset, path, error))
    goto out;
  {
    g_autoptr (GPtrArray) sorted = g_ptr_array_copy (p.storage_order, NULL, NULL);
    g_ptr_array_sort (sorted, key_cmp);
    for (guint i = 0; i < sorted->len; i++)
      {
        SavedStorage *st = sorted->pdata[i];
        g_autofree char *name = g_strdup_printf ("archive/data/%s", st->key);
        gsize nbytes = (gsize) st->numel * fx_dtype_size (st->dtype);
        if (!add_record (za, name, nbytes ? st->storage->data : "", nbytes, &offset, path, error))
          goto out;
      }
  }
  if (!add_record (za, "archive/version", version, strlen (version), &offset, path, error))
    goto out;
  if (zip_close (za) < 0)
    {
      zip_fail (error, path, zip_get_error (za));
      goto out;
    }
  za = NULL;
  ok = TRUE;

out:
  if (za != NULL)
    zip_discard (za);
  for (guint i = 0; i < p.storage_order->len; i++)
    {
      SavedStorage *st = p.storage_order->pdata[i];
      g_free (st->key);
      g_free (st);
    }
  g_ptr_array_unref (p.storage_order);
  g_hash_table_unref (p.storages);
  g_hash_table_unref (p.globals);
  g_hash_table_unref (p.tensors);
  g_byte_array_unref (p.out);
  return ok;
}

/* ================================================================== archive reading */

typedef struct {
  zip_t *za;
  char *prefix;         /* "archive/" */
  gsize file_len;
} Archive;

static void
archive_close (Archive *ar)
{
  if (ar->za != NULL)
    zip_discard (ar->za);
  g_free (ar->prefix);
}

/* Reads one whole record; its CRC is checked by libzip on reaching the end. */
static GBytes *
archive_read (Archive *ar, const char *name, GError **error)
{
  g_autofree char *full = g_strconcat (ar->prefix, name, NULL);
  zip_int64_t idx = zip_name_locate (ar->za, full, 0);
  zip_stat_t st;
  zip_file_t *f;
  guint8 *buf;
  zip_int64_t got;
  guint8 extra;

  if (idx < 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: archive has no record '%s'", full);
      return NULL;
    }
  zip_stat_init (&st);
  if (zip_stat_index (ar->za, (zip_uint64_t) idx, 0, &st) < 0
      || !(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: cannot stat record '%s'", full);
      return NULL;
    }
  /* never trust a size the data cannot back: stored records are no bigger than the file, and
   * deflate expands at most ~1032 times */
  if (st.comp_size > ar->file_len
      || st.size > (st.comp_method == ZIP_CM_STORE ? st.comp_size : st.comp_size * 1100 + 64)
      || st.size > G_MAXUINT32 * (guint64) 16)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "checkpoint: record '%s' claims %" G_GUINT64_FORMAT " bytes, more than the archive holds",
                   full, (guint64) st.size);
      return NULL;
    }
  f = zip_fopen_index (ar->za, (zip_uint64_t) idx, 0);
  if (f == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: cannot open record '%s': %s", full,
                   zip_error_strerror (zip_get_error (ar->za)));
      return NULL;
    }
  buf = g_malloc (st.size ? st.size : 1);
  got = st.size ? zip_fread (f, buf, st.size) : 0;
  if (got != (zip_int64_t) st.size || zip_fread (f, &extra, 1) != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: record '%s' is truncated or corrupt: %s",
                   full, zip_error_strerror (zip_file_get_error (f)));
      zip_fclose (f);
      g_free (buf);
      return NULL;
    }
  zip_fclose (f);
  return g_bytes_new_take (buf, st.size);
}

static gboolean
archive_open (Archive *ar, GBytes *bytes, GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  zip_error_t zerr;
  zip_source_t *src;
  zip_int64_t n;

  ar->file_len = len;
  if (len >= 2 && data[0] == 0x80 && data[1] <= 5)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                           "checkpoint: legacy (pre-1.6, non-zip) torch.save files are not supported");
      return FALSE;
    }
  if (len < 4 || memcmp (data, "PK\x03\x04", 4) != 0)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE,
                           "checkpoint: not a PyTorch checkpoint (no zip archive)");
      return FALSE;
    }
  zip_error_init (&zerr);
  src = zip_source_buffer_create (data, len, 0, &zerr);
  if (src != NULL)
    {
      ar->za = zip_open_from_source (src, ZIP_RDONLY | ZIP_CHECKCONS, &zerr);
      if (ar->za == NULL)
        zip_source_free (src);
    }
  if (ar->za == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: corrupt zip archive: %s",
                   zip_error_strerror (&zerr));
      zip_error_fini (&zerr);
      return FALSE;
    }
  zip_error_fini (&zerr);
  /* the archive's folder is the first record's, as torch's reader takes it */
  n = zip_get_num_entries (ar->za, 0);
  if (n > 0)
    {
      const char *first = zip_get_name (ar->za, 0, ZIP_FL_ENC_RAW);
      const char *slash = first ? strchr (first, '/') : NULL;
      if (slash != NULL)
        ar->prefix = g_strndup (first, slash - first + 1);
    }
  if (ar->prefix == NULL)
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE,
                           "checkpoint: the zip archive has no PyTorch records");
      return FALSE;
    }
  return TRUE;
}

/* ================================================================== the unpickler */

typedef enum {
  GLOBAL_ORDERED_DICT,
  GLOBAL_REBUILD_TENSOR_V2,
  GLOBAL_REBUILD_TENSOR,
  GLOBAL_REBUILD_PARAMETER,
  GLOBAL_REBUILD_PARAMETER_WITH_STATE,
  GLOBAL_REBUILD_FROM_TYPE_V2,
  GLOBAL_TENSOR_TYPE,
  GLOBAL_TORCH_SIZE,
  GLOBAL_STORAGE_TYPE,
} GlobalKind;

static const struct {
  const char *module, *name;
  GlobalKind kind;
} known_globals[] = {
  { "collections", "OrderedDict", GLOBAL_ORDERED_DICT },
  { "torch._utils", "_rebuild_tensor_v2", GLOBAL_REBUILD_TENSOR_V2 },
  { "torch._utils", "_rebuild_tensor", GLOBAL_REBUILD_TENSOR },
  { "torch._utils", "_rebuild_parameter", GLOBAL_REBUILD_PARAMETER },
  { "torch._utils", "_rebuild_parameter_with_state", GLOBAL_REBUILD_PARAMETER_WITH_STATE },
  { "torch._tensor", "_rebuild_from_type_v2", GLOBAL_REBUILD_FROM_TYPE_V2 },
  { "torch.tensor", "_rebuild_from_type_v2", GLOBAL_REBUILD_FROM_TYPE_V2 },
  { "torch._tensor", "Tensor", GLOBAL_TENSOR_TYPE },
  { "torch", "Tensor", GLOBAL_TENSOR_TYPE },
  { "torch", "Size", GLOBAL_TORCH_SIZE },
};

typedef struct {
  FxObject parent;
  GlobalKind kind;
  FxDType dtype;        /* storage types */
  char *name;           /* "module.name" */
} PickleGlobal;

typedef struct {
  FxObject parent;
  FxStorage *storage;
  FxDType dtype;
  int64_t numel;
} PickleStorage;

static void
global_finalize (FxObject *obj)
{
  g_free (((PickleGlobal *) obj)->name);
  g_free (obj);
}

static void
global_repr (const FxObject *obj, GString *out)
{
  g_string_append (out, ((const PickleGlobal *) obj)->name);
}

static const FxObjectClass global_class = {
  .name = "global", .finalize = global_finalize, .repr = global_repr,
};

static void
storage_finalize (FxObject *obj)
{
  fx_storage_unref (((PickleStorage *) obj)->storage);
  g_free (obj);
}

static const FxObjectClass storage_class = {
  .name = "storage", .finalize = storage_finalize,
};

typedef struct {
  const guint8 *start, *p, *end;
  GArray *stack;                /* FxValue */
  GArray *marks;                /* guint: stack heights */
  GHashTable *memo;             /* index → FxValue* */
  GHashTable *depth;            /* container pointer → depth */
  GHashTable *sealed;           /* containers placed inside another */
  GPtrArray *keep;              /* FxValue*: keeps registered containers alive, so their
                                   addresses are never reused while the tables hold them */
  GHashTable *storages;         /* key → PickleStorage object (ref) */
  Archive *archive;
  gsize op_offset;
  GHashTable *ordered;          /* FxDict* (ref) made by collections.OrderedDict, or NULL */
} Unpickler;

#define FAIL(...) G_STMT_START { \
    g_autofree char *_m = g_strdup_printf (__VA_ARGS__); \
    g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: data.pkl offset %" G_GSIZE_FORMAT ": %s", \
                 u->op_offset, _m); \
    return FALSE; } G_STMT_END

static gpointer
container_ptr (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      return v->seq;
    case FX_VALUE_DICT:
      return v->dict;
    default:
      return NULL;
    }
}

static int
depth_of (Unpickler *u, const FxValue *v)
{
  gpointer c = container_ptr (v);
  return c ? GPOINTER_TO_INT (g_hash_table_lookup (u->depth, c)) : 0;
}

static void
register_container (Unpickler *u, const FxValue *v, int depth)
{
  FxValue *kept = g_new (FxValue, 1);
  *kept = fx_value_copy (v);
  g_ptr_array_add (u->keep, kept);
  g_hash_table_insert (u->depth, container_ptr (v), GINT_TO_POINTER (depth));
}

static void
free_value (gpointer p)
{
  fx_value_clear (p);
  g_free (p);
}

/* Records that item goes inside container c (which is `holder`). */
static gboolean
place (Unpickler *u, const FxValue *holder, const FxValue *item, GError **error)
{
  gpointer c = container_ptr (holder), ic = container_ptr (item);
  int d = depth_of (u, item) + 1;

  if (ic != NULL && ic == c)
    FAIL ("recursive containers are not supported");
  if (d > MAX_DEPTH)
    FAIL ("containers nested deeper than %d", MAX_DEPTH);
  if (d > depth_of (u, holder))
    g_hash_table_insert (u->depth, c, GINT_TO_POINTER (d));
  if (ic != NULL)
    g_hash_table_add (u->sealed, ic);
  return TRUE;
}

static gboolean
check_mutable (Unpickler *u, const FxValue *container, GError **error)
{
  if (g_hash_table_contains (u->sealed, container_ptr (container)))
    FAIL ("a container is changed after being placed in another (recursive structures are not supported)");
  return TRUE;
}

static gboolean
hashable (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR:
      return TRUE;
    case FX_VALUE_TUPLE:
      for (guint i = 0; i < v->seq->len; i++)
        if (!hashable (&v->seq->items[i]))   /* depth is bounded by MAX_DEPTH */
          return FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

static void
push (Unpickler *u, FxValue v)
{
  g_array_append_val (u->stack, v);
}

static gboolean
pop (Unpickler *u, FxValue *out, GError **error)
{
  guint floor = u->marks->len ? g_array_index (u->marks, guint, u->marks->len - 1) : 0;
  if (u->stack->len <= floor)
    FAIL ("stack underflow");
  *out = g_array_index (u->stack, FxValue, u->stack->len - 1);
  g_array_set_size (u->stack, u->stack->len - 1);
  return TRUE;
}

static FxValue *
top (Unpickler *u, GError **error)
{
  guint floor = u->marks->len ? g_array_index (u->marks, guint, u->marks->len - 1) : 0;
  if (u->stack->len <= floor)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: data.pkl offset %" G_GSIZE_FORMAT
                   ": stack underflow", u->op_offset);
      return NULL;
    }
  return &g_array_index (u->stack, FxValue, u->stack->len - 1);
}

/* Pops everything above the last mark (and the mark) into a new tuple or list. */
static gboolean
pop_mark (Unpickler *u, guint *start, GError **error)
{
  if (u->marks->len == 0)
    FAIL ("no MARK on the stack");
  *start = g_array_index (u->marks, guint, u->marks->len - 1);
  g_array_set_size (u->marks, u->marks->len - 1);
  return TRUE;
}

static void
clear_stack_from (Unpickler *u, guint start)
{
  for (guint i = start; i < u->stack->len; i++)
    fx_value_clear (&g_array_index (u->stack, FxValue, i));
  g_array_set_size (u->stack, start);
}

/* Builds a tuple/list of stack[start:], taking the items off the stack. */
static gboolean
make_seq (Unpickler *u, guint start, gboolean tuple, FxValue *out, GError **error)
{
  guint n = u->stack->len - start;
  FxSeq *seq = fx_seq_new (n);
  int depth = 1;

  for (guint i = 0; i < n; i++)
    {
      FxValue *item = &g_array_index (u->stack, FxValue, start + i);
      gpointer ic = container_ptr (item);
      depth = MAX (depth, depth_of (u, item) + 1);
      if (ic != NULL)
        g_hash_table_add (u->sealed, ic);
      seq->items[i] = *item;
      *item = fx_value_none ();
    }
  g_array_set_size (u->stack, start);
  *out = tuple ? fx_value_take_tuple (seq) : fx_value_take_list (seq);
  if (depth > MAX_DEPTH)
    {
      fx_value_clear (out);
      FAIL ("containers nested deeper than %d", MAX_DEPTH);
    }
  register_container (u, out, depth);
  return TRUE;
}

static gboolean
dict_set (Unpickler *u, FxValue *dict, FxValue *key, FxValue *value, GError **error)
{
  if (dict->kind != FX_VALUE_DICT)
    FAIL ("SETITEM on a %s", fx_value_kind_name (dict->kind));
  if (!hashable (key))
    FAIL ("unhashable dict key of type %s", fx_value_kind_name (key->kind));
  if (!check_mutable (u, dict, error) || !place (u, dict, key, error) || !place (u, dict, value, error))
    return FALSE;
  fx_dict_set (dict->dict, *key, *value);
  *key = fx_value_none ();
  *value = fx_value_none ();
  return TRUE;
}

static gboolean
list_append (Unpickler *u, FxValue *list, FxValue *item, GError **error)
{
  if (list->kind != FX_VALUE_LIST)
    FAIL ("APPEND to a %s", fx_value_kind_name (list->kind));
  if (!check_mutable (u, list, error) || !place (u, list, item, error))
    return FALSE;
  fx_seq_append (list->seq, *item);
  *item = fx_value_none ();
  return TRUE;
}

static gboolean
resolve_global (Unpickler *u, const char *module, const char *name, FxValue *out, GError **error)
{
  PickleGlobal *g = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (known_globals); i++)
    if (strcmp (known_globals[i].module, module) == 0 && strcmp (known_globals[i].name, name) == 0)
      {
        g = g_new0 (PickleGlobal, 1);
        g->kind = known_globals[i].kind;
        break;
      }
  if (g == NULL && (strcmp (module, "torch") == 0 || strcmp (module, "torch.cuda") == 0))
    for (guint i = 0; i < G_N_ELEMENTS (storage_types); i++)
      if (strcmp (storage_types[i].name, name) == 0)
        {
          g = g_new0 (PickleGlobal, 1);
          g->kind = GLOBAL_STORAGE_TYPE;
          g->dtype = storage_types[i].dtype;
          break;
        }
  if (g == NULL)
    FAIL ("unsupported global '%s.%s'", module, name);
  fx_object_init (&g->parent, &global_class);
  g->name = g_strdup_printf ("%s.%s", module, name);
  *out = fx_value_take_object (&g->parent);
  return TRUE;
}

static PickleGlobal *
as_global (const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT && v->obj->klass == &global_class ? (PickleGlobal *) v->obj : NULL;
}

static PickleStorage *
as_storage (const FxValue *v)
{
  return v->kind == FX_VALUE_OBJECT && v->obj->klass == &storage_class ? (PickleStorage *) v->obj : NULL;
}

static gboolean
persistent_load (Unpickler *u, const FxValue *pid, FxValue *out, GError **error)
{
  const FxValue *items;
  PickleGlobal *type;
  PickleStorage *st;
  const char *key;
  g_autofree char *record = NULL;
  g_autoptr (GBytes) bytes = NULL;
  gsize len, esize;

  if (pid->kind != FX_VALUE_TUPLE || pid->seq->len != 5)
    FAIL ("persistent id is not a 5-tuple ('storage', type, key, location, numel)");
  items = pid->seq->items;
  if (items[0].kind != FX_VALUE_STR || strcmp (items[0].s->data, "storage") != 0)
    FAIL ("unsupported persistent id kind");
  type = as_global (&items[1]);
  if (type == NULL || type->kind != GLOBAL_STORAGE_TYPE)
    FAIL ("persistent id names no storage type");
  if (items[2].kind != FX_VALUE_STR || items[3].kind != FX_VALUE_STR || items[4].kind != FX_VALUE_INT
      || items[4].i < 0)
    FAIL ("malformed persistent id");
  key = items[2].s->data;
  st = g_hash_table_lookup (u->storages, key);
  if (st != NULL)
    {
      if (st->dtype != type->dtype)
        FAIL ("storage '%s' is used with two dtypes", key);
      *out = fx_value_take_object (fx_object_ref (&st->parent));
      return TRUE;
    }
  for (const char *c = key; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      FAIL ("invalid storage key '%s'", key);
  if (*key == '\0')
    FAIL ("empty storage key");
  record = g_strdup_printf ("data/%s", key);
  bytes = archive_read (u->archive, record, error);
  if (bytes == NULL)
    return FALSE;
  len = g_bytes_get_size (bytes);
  esize = fx_dtype_size (type->dtype);
  if ((guint64) items[4].i > G_MAXSIZE / esize || (gsize) items[4].i * esize != len)
    FAIL ("storage '%s' holds %" G_GSIZE_FORMAT " bytes, not %" G_GINT64_FORMAT " elements of %s",
          key, len, items[4].i, fx_dtype_name (type->dtype));
  st = g_new0 (PickleStorage, 1);
  fx_object_init (&st->parent, &storage_class);
  st->storage = fx_storage_new_uninit (len);
  st->dtype = type->dtype;
  st->numel = items[4].i;
  if (st->storage == NULL)
    {
      fx_object_unref (&st->parent);
      FAIL ("cannot allocate %" G_GSIZE_FORMAT " bytes", len);
    }
  if (len > 0)
    memcpy (st->storage->data, g_bytes_get_data (bytes, NULL), len);
  if (st->dtype == FX_DTYPE_BOOL)
    for (gsize i = 0; i < len; i++)   /* kernels rely on bools being 0 or 1 */
      ((guint8 *) st->storage->data)[i] = ((guint8 *) st->storage->data)[i] != 0;
  g_hash_table_insert (u->storages, g_strdup (key), fx_object_ref (&st->parent));
  *out = fx_value_take_object (&st->parent);
  return TRUE;
}

static gboolean
int_tuple (const FxValue *v, int64_t *out, int *n)
{
  if (v->kind != FX_VALUE_TUPLE || v->seq->len > FX_TENSOR_MAX_DIMS)
    return FALSE;
  for (guint i = 0; i < v->seq->len; i++)
    {
      if (v->seq->items[i].kind != FX_VALUE_INT)
        return FALSE;
      out[i] = v->seq->items[i].i;
    }
  *n = (int) v->seq->len;
  return TRUE;
}

static gboolean
rebuild_tensor (Unpickler *u, const FxValue *a, guint n, gboolean v2, FxValue *out, GError **error)
{
  PickleStorage *st;
  int64_t shape[FX_TENSOR_MAX_DIMS], strides[FX_TENSOR_MAX_DIMS], last;
  int ndim, nstride;
  gboolean empty = FALSE;
  FxTensor *t;

  if (n != (v2 ? 6u : 4u) && !(v2 && n == 7))
    FAIL ("_rebuild_tensor%s takes %d arguments, not %u", v2 ? "_v2" : "", v2 ? 6 : 4, n);
  if ((st = as_storage (&a[0])) == NULL)
    FAIL ("tensor rebuilt without a storage");
  if (a[1].kind != FX_VALUE_INT || a[1].i < 0)
    FAIL ("invalid storage offset");
  if (!int_tuple (&a[2], shape, &ndim) || !int_tuple (&a[3], strides, &nstride) || ndim != nstride)
    FAIL ("invalid tensor size or stride");
  if (v2 && (a[4].kind != FX_VALUE_BOOL || a[5].kind != FX_VALUE_DICT))
    FAIL ("invalid requires_grad or backward hooks");
  last = a[1].i;
  for (int d = 0; d < ndim; d++)
    {
      if (shape[d] < 0 || strides[d] < 0)
        FAIL ("negative tensor size or stride");
      if (shape[d] == 0)
        empty = TRUE;
    }
  if (!empty)
    for (int d = 0; d < ndim; d++)
      {
        int64_t step;
        if (__builtin_mul_overflow (shape[d] - 1, strides[d], &step)
            || __builtin_add_overflow (last, step, &last))
          FAIL ("tensor size and stride overflow");
      }
  if (empty ? a[1].i > st->numel : last >= st->numel)
    FAIL ("a %d-d tensor at offset %" G_GINT64_FORMAT " reaches beyond its storage of %"
          G_GINT64_FORMAT " elements", ndim, a[1].i, st->numel);
  t = fx_tensor_new_view (st->storage, st->dtype, ndim, shape, strides, a[1].i);
  t->requires_grad = v2 && a[4].b;
  *out = fx_value_take_tensor (t);
  return TRUE;
}

static gboolean
call_global (Unpickler *u, PickleGlobal *g, const FxValue *args, FxValue *out, GError **error)
{
  const FxValue *a;
  guint n;

  if (args->kind != FX_VALUE_TUPLE)
    FAIL ("arguments of '%s' are not a tuple", g->name);
  a = args->seq->items;
  n = args->seq->len;
  switch (g->kind)
    {
    case GLOBAL_ORDERED_DICT:
      {
        FxValue d = fx_value_take_dict (fx_dict_new ());
        register_container (u, &d, 1);
        if (u->ordered != NULL)
          g_hash_table_add (u->ordered, fx_dict_ref (d.dict));
        if (n == 1 && (a[0].kind == FX_VALUE_LIST || a[0].kind == FX_VALUE_TUPLE))
          for (guint i = 0; i < a[0].seq->len; i++)
            {
              const FxValue *pair = &a[0].seq->items[i];
              FxValue k, v;
              if ((pair->kind != FX_VALUE_TUPLE && pair->kind != FX_VALUE_LIST) || pair->seq->len != 2)
                {
                  fx_value_clear (&d);
                  FAIL ("OrderedDict items are not pairs");
                }
              k = fx_value_copy (&pair->seq->items[0]);
              v = fx_value_copy (&pair->seq->items[1]);
              if (!dict_set (u, &d, &k, &v, error))
                {
                  fx_value_clear (&k);
                  fx_value_clear (&v);
                  fx_value_clear (&d);
                  return FALSE;
                }
            }
        else if (n != 0)
          {
            fx_value_clear (&d);
            FAIL ("unsupported arguments to collections.OrderedDict");
          }
        *out = d;
        return TRUE;
      }
    case GLOBAL_TORCH_SIZE:
      {
        int64_t items[FX_TENSOR_MAX_DIMS];
        int nd;
        if (n != 1 || !int_tuple (&a[0], items, &nd))
          FAIL ("unsupported arguments to torch.Size");
        *out = fx_value_int_tuple (&fx_tuple_type_size, nd, items);
        register_container (u, out, 1);
        return TRUE;
      }
    case GLOBAL_REBUILD_TENSOR_V2:
    case GLOBAL_REBUILD_TENSOR:
      return rebuild_tensor (u, a, n, g->kind == GLOBAL_REBUILD_TENSOR_V2, out, error);
    case GLOBAL_REBUILD_PARAMETER:
    case GLOBAL_REBUILD_PARAMETER_WITH_STATE:
      {
        FxTensor *data, *t;
        if (n != (g->kind == GLOBAL_REBUILD_PARAMETER ? 3u : 4u))
          FAIL ("wrong number of arguments to %s", g->name);
        if (a[0].kind != FX_VALUE_TENSOR || a[1].kind != FX_VALUE_BOOL)
          FAIL ("invalid arguments to %s", g->name);
        data = a[0].tensor;
        t = fx_tensor_new_view (data->storage, data->dtype, data->ndim, data->shape, data->strides,
                                data->offset);
        t->requires_grad = a[1].b;
        *out = fx_value_take_tensor (t);
        return TRUE;
      }
    case GLOBAL_REBUILD_FROM_TYPE_V2:
      {
        PickleGlobal *func, *type;
        if (n != 4)
          FAIL ("wrong number of arguments to %s", g->name);
        func = as_global (&a[0]);
        type = as_global (&a[1]);
        if (type == NULL || type->kind != GLOBAL_TENSOR_TYPE)
          FAIL ("tensor subclasses are not supported");
        if (func == NULL || func->kind == GLOBAL_REBUILD_FROM_TYPE_V2)
          FAIL ("invalid arguments to %s", g->name);
        return call_global (u, func, &a[2], out, error);
      }
    case GLOBAL_TENSOR_TYPE:
    case GLOBAL_STORAGE_TYPE:
      break;
    }
  FAIL ("'%s' cannot be called", g->name);
}

static gboolean
need (Unpickler *u, gsize n, GError **error)
{
  if ((gsize) (u->end - u->p) < n)
    FAIL ("unexpected end of data (truncated pickle)");
  return TRUE;
}

static gboolean
read_line (Unpickler *u, char **out, GError **error)
{
  const guint8 *nl = memchr (u->p, '\n', MIN ((gsize) (u->end - u->p), 1024));
  if (nl == NULL)
    FAIL ("unterminated line");
  for (const guint8 *c = u->p; c < nl; c++)
    if (*c < 0x20 || *c > 0x7e)
      FAIL ("invalid character in a GLOBAL name");
  *out = g_strndup ((const char *) u->p, nl - u->p);
  u->p = nl + 1;
  return TRUE;
}

static gboolean
push_string (Unpickler *u, gsize len, GError **error)
{
  if (!need (u, len, error))
    return FALSE;
  if (!g_utf8_validate_len ((const char *) u->p, len, NULL))
    FAIL ("invalid UTF-8 in a string");
  push (u, fx_value_take_str (fx_str_new_len ((const char *) u->p, len)));
  u->p += len;
  return TRUE;
}

static guint32
read_u32 (Unpickler *u)
{
  guint32 v;
  memcpy (&v, u->p, 4);
  u->p += 4;
  return GUINT32_FROM_LE (v);
}

static gboolean
memo_put (Unpickler *u, guint32 idx, GError **error)
{
  FxValue *t = top (u, error), *copy;
  if (t == NULL)
    return FALSE;
  if (g_hash_table_size (u->memo) >= MAX_STACK)
    FAIL ("memo too large");
  copy = g_new (FxValue, 1);
  *copy = fx_value_copy (t);
  g_hash_table_insert (u->memo, GUINT_TO_POINTER (idx), copy);
  return TRUE;
}

static gboolean
memo_fetch (Unpickler *u, guint32 idx, GError **error)
{
  FxValue *v = g_hash_table_lookup (u->memo, GUINT_TO_POINTER (idx));
  if (v == NULL)
    FAIL ("memo key %u not found", idx);
  push (u, fx_value_copy (v));
  return TRUE;
}

/* One opcode. */
static gboolean
step (Unpickler *u, gboolean *stop, GError **error)
{
  guint8 op;
  guint start;
  FxValue a = fx_value_none (), b = fx_value_none (), c = fx_value_none ();
  gboolean ok = TRUE;

  u->op_offset = u->p - u->start;
  if (!need (u, 1, error))
    return FALSE;
  if (u->stack->len >= MAX_STACK)
    FAIL ("stack too deep");
  op = *u->p++;
  switch (op)
    {
    case 0x80:          /* PROTO */
      if (!need (u, 1, error))
        return FALSE;
      if (*u->p > 5)
        FAIL ("unsupported pickle protocol %u", *u->p);
      u->p++;
      return TRUE;
    case 0x95:          /* FRAME: a hint only */
      if (!need (u, 8, error))
        return FALSE;
      u->p += 8;
      return TRUE;
    case '.':           /* STOP */
      *stop = TRUE;
      return TRUE;
    case '(':           /* MARK */
      g_array_append_val (u->marks, u->stack->len);
      return TRUE;
    case '0':           /* POP */
      if (!pop (u, &a, error))
        return FALSE;
      fx_value_clear (&a);
      return TRUE;
    case '1':           /* POP_MARK */
      if (!pop_mark (u, &start, error))
        return FALSE;
      clear_stack_from (u, start);
      return TRUE;
    case '2':           /* DUP */
      {
        FxValue *t = top (u, error);
        if (t == NULL)
          return FALSE;
        push (u, fx_value_copy (t));
        return TRUE;
      }
    case 'N':
      push (u, fx_value_none ());
      return TRUE;
    case 0x88:
      push (u, fx_value_bool (TRUE));
      return TRUE;
    case 0x89:
      push (u, fx_value_bool (FALSE));
      return TRUE;
    case 'J':           /* BININT */
      if (!need (u, 4, error))
        return FALSE;
      push (u, fx_value_int ((gint32) read_u32 (u)));
      return TRUE;
    case 'K':           /* BININT1 */
      if (!need (u, 1, error))
        return FALSE;
      push (u, fx_value_int (*u->p++));
      return TRUE;
    case 'M':           /* BININT2 */
      if (!need (u, 2, error))
        return FALSE;
      push (u, fx_value_int (u->p[0] | (u->p[1] << 8)));
      u->p += 2;
      return TRUE;
    case 0x8a:          /* LONG1 */
      {
        guint n;
        guint64 v = 0;
        if (!need (u, 1, error))
          return FALSE;
        n = *u->p++;
        if (n > 8)
          FAIL ("integer of %u bytes does not fit in 64 bits", n);
        if (!need (u, n, error))
          return FALSE;
        for (guint i = 0; i < n; i++)
          v |= (guint64) u->p[i] << (8 * i);
        if (n > 0 && n < 8 && (u->p[n - 1] & 0x80))
          v |= ~(guint64) 0 << (8 * n);
        u->p += n;
        push (u, fx_value_int ((int64_t) v));
        return TRUE;
      }
    case 'G':           /* BINFLOAT: big-endian */
      {
        guint64 bits = 0;
        double d;
        if (!need (u, 8, error))
          return FALSE;
        for (int i = 0; i < 8; i++)
          bits = (bits << 8) | u->p[i];
        u->p += 8;
        memcpy (&d, &bits, 8);
        push (u, fx_value_float (d));
        return TRUE;
      }
    case 'X':           /* BINUNICODE */
    case 'T':           /* BINSTRING */
      if (!need (u, 4, error))
        return FALSE;
      return push_string (u, read_u32 (u), error);
    case 0x8c:          /* SHORT_BINUNICODE */
    case 'U':           /* SHORT_BINSTRING */
      if (!need (u, 1, error))
        return FALSE;
      return push_string (u, *u->p++, error);
    case 0x8d:          /* BINUNICODE8 */
      {
        guint64 len;
        if (!need (u, 8, error))
          return FALSE;
        memcpy (&len, u->p, 8);
        len = GUINT64_FROM_LE (len);
        u->p += 8;
        if (len > (guint64) (u->end - u->p))
          FAIL ("unexpected end of data (truncated pickle)");
        return push_string (u, (gsize) len, error);
      }
    case ')':
      push (u, fx_value_take_tuple (fx_seq_new (0)));
      register_container (u, &g_array_index (u->stack, FxValue, u->stack->len - 1), 1);
      return TRUE;
    case 't':           /* TUPLE */
      if (!pop_mark (u, &start, error) || !make_seq (u, start, TRUE, &a, error))
        return FALSE;
      push (u, a);
      return TRUE;
    case 0x85: case 0x86: case 0x87:    /* TUPLE1..3 */
      {
        guint n = op - 0x84;
        guint floor = u->marks->len ? g_array_index (u->marks, guint, u->marks->len - 1) : 0;
        if (u->stack->len < floor + n)
          FAIL ("stack underflow");
        if (!make_seq (u, u->stack->len - n, TRUE, &a, error))
          return FALSE;
        push (u, a);
        return TRUE;
      }
    case ']':
      push (u, fx_value_take_list (fx_seq_new (0)));
      register_container (u, &g_array_index (u->stack, FxValue, u->stack->len - 1), 1);
      return TRUE;
    case 'l':           /* LIST */
      if (!pop_mark (u, &start, error) || !make_seq (u, start, FALSE, &a, error))
        return FALSE;
      push (u, a);
      return TRUE;
    case '}':
      push (u, fx_value_take_dict (fx_dict_new ()));
      register_container (u, &g_array_index (u->stack, FxValue, u->stack->len - 1), 1);
      return TRUE;
    case 'a':           /* APPEND */
      {
        FxValue *list;
        if (!pop (u, &a, error))
          return FALSE;
        ok = (list = top (u, error)) != NULL && list_append (u, list, &a, error);
        break;
      }
    case 'e':           /* APPENDS */
      {
        FxValue *list;
        if (!pop_mark (u, &start, error))
          return FALSE;
        if (start == 0 || start > u->stack->len)
          FAIL ("APPENDS without a list");
        list = &g_array_index (u->stack, FxValue, start - 1);
        for (guint i = start; ok && i < u->stack->len; i++)
          ok = list_append (u, list, &g_array_index (u->stack, FxValue, i), error);
        clear_stack_from (u, start);
        return ok;
      }
    case 'd':           /* DICT */
    case 'u':           /* SETITEMS */
      {
        FxValue *dict;
        if (!pop_mark (u, &start, error))
          return FALSE;
        if ((u->stack->len - start) % 2 != 0)
          {
            clear_stack_from (u, start);
            FAIL ("odd number of items for a dict");
          }
        if (op == 'd')
          {
            FxValue d = fx_value_take_dict (fx_dict_new ());
            register_container (u, &d, 1);
            /* insert below the items so they can be moved in place */
            g_array_insert_val (u->stack, start, d);
            start++;
          }
        if (start == 0)
          FAIL ("SETITEMS without a dict");
        dict = &g_array_index (u->stack, FxValue, start - 1);
        for (guint i = start; ok && i + 1 < u->stack->len; i += 2)
          ok = dict_set (u, dict, &g_array_index (u->stack, FxValue, i),
                         &g_array_index (u->stack, FxValue, i + 1), error);
        clear_stack_from (u, start);
        return ok;
      }
    case 's':           /* SETITEM */
      {
        FxValue *dict;
        if (!pop (u, &b, error))
          return FALSE;
        if (!pop (u, &a, error))
          {
            fx_value_clear (&b);
            return FALSE;
          }
        ok = (dict = top (u, error)) != NULL && dict_set (u, dict, &a, &b, error);
        break;
      }
    case 'c':           /* GLOBAL */
      {
        g_autofree char *module = NULL, *name = NULL;
        if (!read_line (u, &module, error) || !read_line (u, &name, error)
            || !resolve_global (u, module, name, &a, error))
          return FALSE;
        push (u, a);
        return TRUE;
      }
    case 0x93:          /* STACK_GLOBAL */
      if (!pop (u, &b, error))
        return FALSE;
      if (!pop (u, &a, error))
        {
          fx_value_clear (&b);
          return FALSE;
        }
      if (a.kind != FX_VALUE_STR || b.kind != FX_VALUE_STR)
        {
          fx_value_clear (&a);
          fx_value_clear (&b);
          FAIL ("STACK_GLOBAL needs two strings");
        }
      ok = resolve_global (u, a.s->data, b.s->data, &c, error);
      if (ok)
        push (u, c);
      c = fx_value_none ();
      break;
    case 'R':           /* REDUCE */
    case 0x81:          /* NEWOBJ */
      {
        PickleGlobal *g;
        if (!pop (u, &b, error))
          return FALSE;
        if (!pop (u, &a, error))
          {
            fx_value_clear (&b);
            return FALSE;
          }
        if ((g = as_global (&a)) == NULL)
          {
            ok = FALSE;
            g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                         "checkpoint: data.pkl offset %" G_GSIZE_FORMAT ": calling a %s",
                         u->op_offset, fx_value_kind_name (a.kind));
          }
        else if (op == 0x81 && g->kind != GLOBAL_ORDERED_DICT)
          {
            ok = FALSE;
            g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                         "checkpoint: data.pkl offset %" G_GSIZE_FORMAT ": NEWOBJ of '%s'",
                         u->op_offset, g->name);
          }
        else if ((ok = call_global (u, g, &b, &c, error)))
          {
            push (u, c);
            c = fx_value_none ();
          }
        break;
      }
    case 'b':           /* BUILD */
      {
        FxValue *obj;
        if (!pop (u, &a, error))
          return FALSE;
        if ((obj = top (u, error)) == NULL)
          ok = FALSE;
        else if (obj->kind == FX_VALUE_DICT && (a.kind == FX_VALUE_DICT || a.kind == FX_VALUE_NONE))
          ok = check_mutable (u, obj, error);   /* instance attributes (state_dict's _metadata) */
        else
          {
            ok = FALSE;
            g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                         "checkpoint: data.pkl offset %" G_GSIZE_FORMAT ": unsupported BUILD of a %s",
                         u->op_offset, fx_value_kind_name (obj->kind));
          }
        break;
      }
    case 'q':           /* BINPUT */
      if (!need (u, 1, error))
        return FALSE;
      return memo_put (u, *u->p++, error);
    case 'r':           /* LONG_BINPUT */
      if (!need (u, 4, error))
        return FALSE;
      return memo_put (u, read_u32 (u), error);
    case 0x94:          /* MEMOIZE */
      return memo_put (u, g_hash_table_size (u->memo), error);
    case 'h':           /* BINGET */
      if (!need (u, 1, error))
        return FALSE;
      return memo_fetch (u, *u->p++, error);
    case 'j':           /* LONG_BINGET */
      if (!need (u, 4, error))
        return FALSE;
      return memo_fetch (u, read_u32 (u), error);
    case 'Q':           /* BINPERSID */
      if (!pop (u, &a, error))
        return FALSE;
      ok = persistent_load (u, &a, &c, error);
      if (ok)
        push (u, c);
      c = fx_value_none ();
      break;
    default:
      if (op >= 0x20 && op < 0x7f)
        FAIL ("unsupported pickle opcode '%c'", op);
      FAIL ("unsupported pickle opcode 0x%02x", op);
    }
  fx_value_clear (&a);
  fx_value_clear (&b);
  fx_value_clear (&c);
  return ok;
}

#undef FAIL

static gboolean
unpickle (Archive *ar, GBytes *pkl, FxValue *out, GHashTable *ordered, GError **error)
{
  Unpickler u = { 0 };
  u.ordered = ordered;
  gsize len;
  gboolean stop = FALSE, ok = TRUE;

  u.start = u.p = g_bytes_get_data (pkl, &len);
  u.end = u.start + len;
  u.stack = g_array_new (FALSE, FALSE, sizeof (FxValue));
  u.marks = g_array_new (FALSE, FALSE, sizeof (guint));
  u.memo = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, free_value);
  u.depth = g_hash_table_new (g_direct_hash, g_direct_equal);
  u.sealed = g_hash_table_new (g_direct_hash, g_direct_equal);
  u.keep = g_ptr_array_new_with_free_func (free_value);
  u.storages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) fx_object_unref);
  u.archive = ar;

  while (ok && !stop)
    ok = step (&u, &stop, error);
  if (ok && (u.stack->len != 1 || u.marks->len != 0))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "checkpoint: data.pkl: %u values left on the stack at STOP", u.stack->len);
      ok = FALSE;
    }
  if (ok)
    {
      *out = g_array_index (u.stack, FxValue, 0);
      g_array_set_size (u.stack, 0);
    }
  clear_stack_from (&u, 0);
  g_array_unref (u.stack);
  g_array_unref (u.marks);
  g_hash_table_unref (u.memo);
  g_hash_table_unref (u.depth);
  g_hash_table_unref (u.sealed);
  g_ptr_array_unref (u.keep);
  g_hash_table_unref (u.storages);
  return ok;
}

/* Objects of the pickle machinery (globals, bare storages) must not leak out. */
static gboolean
check_plain (const FxValue *v, GError **error)
{
  switch (v->kind)
    {
    case FX_VALUE_OBJECT:
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: unsupported object '%s' in the data",
                   v->obj->klass == &global_class ? ((PickleGlobal *) v->obj)->name : "storage");
      return FALSE;
    case FX_VALUE_TUPLE:
    case FX_VALUE_LIST:
      for (guint i = 0; i < v->seq->len; i++)
        if (!check_plain (&v->seq->items[i], error))
          return FALSE;
      return TRUE;
    case FX_VALUE_DICT:
      {
        const FxValue *k, *x;
        for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
          if (!check_plain (k, error) || !check_plain (x, error))
            return FALSE;
        return TRUE;
      }
    default:
      return TRUE;
    }
}

static gboolean load_bytes (GBytes *bytes, FxValue *out, GHashTable *ordered, GError **error);

gboolean
fx_checkpoint_load_bytes (GBytes *bytes, FxValue *out, GError **error)
{
  return load_bytes (bytes, out, NULL, error);
}

static gboolean
load_bytes (GBytes *bytes, FxValue *out, GHashTable *ordered, GError **error)
{
  Archive ar = { 0 };
  g_autoptr (GBytes) pkl = NULL, version = NULL;
  gboolean ok = FALSE;
  FxValue v = fx_value_none ();

  if (!archive_open (&ar, bytes, error))
    goto out;
  version = archive_read (&ar, "version", error);
  if (version == NULL)
    goto out;
  {
    gsize vlen;
    const char *vdata = g_bytes_get_data (version, &vlen);
    g_autofree char *text = g_strndup (vdata, vlen);
    guint64 n;
    g_strstrip (text);
    if (!g_ascii_string_to_unsigned (text, 10, 1, 10, &n, NULL))
      {
        g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: unsupported archive version '%s'", text);
        goto out;
      }
  }
  pkl = archive_read (&ar, "data.pkl", error);
  if (pkl == NULL || !unpickle (&ar, pkl, &v, ordered, error))
    goto out;
  if (!check_plain (&v, error))
    {
      fx_value_clear (&v);
      goto out;
    }
  *out = v;
  ok = TRUE;
out:
  archive_close (&ar);
  return ok;
}

gboolean
fx_checkpoint_load_value (const char *path, FxValue *out, GError **error)
{
  return fx_checkpoint_load_value_ordered (path, out, NULL, error);
}

gboolean
fx_checkpoint_load_value_ordered (const char *path, FxValue *out, GHashTable **ordered_out,
                                  GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GHashTable) ordered = ordered_out
    ? g_hash_table_new_full (g_direct_hash, g_direct_equal, (GDestroyNotify) fx_dict_unref, NULL)
    : NULL;
  g_autoptr (GMappedFile) file = g_mapped_file_new (path, FALSE, &local);
  g_autoptr (GBytes) bytes = NULL;

  if (file == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  bytes = g_mapped_file_get_bytes (file);
  if (!load_bytes (bytes, out, ordered, error))
    return FALSE;
  if (ordered_out != NULL)
    *ordered_out = g_steal_pointer (&ordered);
  return TRUE;
}

FxDict *
fx_checkpoint_load (const char *path, GError **error)
{
  g_auto (FxValue) v = fx_value_none ();
  const FxValue *k, *x;

  if (!fx_checkpoint_load_value (path, &v, error))
    return NULL;
  if (v.kind != FX_VALUE_DICT)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "checkpoint: %s holds a %s, not a state dict", path, fx_value_kind_name (v.kind));
      return NULL;
    }
  for (guint i = 0; fx_dict_entry (v.dict, i, &k, &x); i++)
    {
      if (k->kind != FX_VALUE_STR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: state dict key %u is a %s, not a str",
                       i, fx_value_kind_name (k->kind));
          return NULL;
        }
      if (x->kind != FX_VALUE_TENSOR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "checkpoint: state dict entry '%s' is a %s, not a tensor",
                       k->s->data, fx_value_kind_name (x->kind));
          return NULL;
        }
    }
  return fx_dict_ref (v.dict);
}
