/* safetensors.c: reading and writing the safetensors format. The header is parsed with
 * json-glib; offsets must tile the data section exactly, as the reference implementation
 * requires, so a file is either fully understood or refused. */
#include "ir/safetensors.h"
#include "ir/json-depth.h"
#include "fx-error.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* The reference implementation refuses headers above 100 MB. */
#define MAX_HEADER (100u * 1000u * 1000u)

static const char *const st_names[FX_DTYPE_N] = {
  [FX_DTYPE_BOOL] = "BOOL", [FX_DTYPE_UINT8] = "U8", [FX_DTYPE_INT8] = "I8",
  [FX_DTYPE_INT16] = "I16", [FX_DTYPE_INT32] = "I32", [FX_DTYPE_INT64] = "I64",
  [FX_DTYPE_FLOAT16] = "F16", [FX_DTYPE_FLOAT32] = "F32", [FX_DTYPE_FLOAT64] = "F64",
};

const char *
fx_safetensors_dtype_name (FxDType dtype)
{
  return (unsigned) dtype < FX_DTYPE_N ? st_names[dtype] : NULL;
}

gboolean
fx_safetensors_dtype_from_name (const char *name, FxDType *out)
{
  for (int d = 0; d < FX_DTYPE_N; d++)
    if (strcmp (st_names[d], name) == 0)
      {
        *out = (FxDType) d;
        return TRUE;
      }
  return FALSE;
}

GBytes *
fx_safetensors_serialize (FxDict *tensors, GHashTable *metadata, GError **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (GPtrArray) contig = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_tensor_unref);
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *header = NULL;
  const FxValue *k, *v;
  GByteArray *out;
  guint64 offset = 0, hlen, hlen_le;
  gsize header_len;

  json_builder_begin_object (b);
  if (metadata != NULL && g_hash_table_size (metadata) > 0)
    {
      g_autoptr (GList) keys = g_list_sort (g_hash_table_get_keys (metadata), (GCompareFunc) strcmp);
      json_builder_set_member_name (b, "__metadata__");
      json_builder_begin_object (b);
      for (GList *l = keys; l; l = l->next)
        {
          json_builder_set_member_name (b, l->data);
          json_builder_add_string_value (b, g_hash_table_lookup (metadata, l->data));
        }
      json_builder_end_object (b);
    }
  for (guint i = 0; fx_dict_entry (tensors, i, &k, &v); i++)
    {
      FxTensor *t;
      guint64 nbytes;

      if (k->kind != FX_VALUE_STR || v->kind != FX_VALUE_TENSOR)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                       "safetensors: entry %u is not a str → tensor pair", i);
          return NULL;
        }
      if (strcmp (k->s->data, "__metadata__") == 0)
        {
          g_set_error_literal (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                               "safetensors: '__metadata__' is not a valid tensor name");
          return NULL;
        }
      t = fx_tensor_contiguous (v->tensor);
      g_ptr_array_add (contig, t);
      nbytes = (guint64) fx_tensor_numel (t) * fx_dtype_size (t->dtype);
      json_builder_set_member_name (b, k->s->data);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "dtype");
      json_builder_add_string_value (b, st_names[t->dtype]);
      json_builder_set_member_name (b, "shape");
      json_builder_begin_array (b);
      for (int d = 0; d < t->ndim; d++)
        json_builder_add_int_value (b, t->shape[d]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "data_offsets");
      json_builder_begin_array (b);
      json_builder_add_int_value (b, (gint64) offset);
      json_builder_add_int_value (b, (gint64) (offset + nbytes));
      json_builder_end_array (b);
      json_builder_end_object (b);
      offset += nbytes;
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  header = json_generator_to_data (gen, &header_len);
  /* Pad with spaces so the data section starts 8-byte aligned, as the reference writer does. */
  hlen = (header_len + 7) & ~(guint64) 7;
  out = g_byte_array_sized_new ((guint) (8 + hlen + offset));
  hlen_le = GUINT64_TO_LE (hlen);
  g_byte_array_append (out, (const guint8 *) &hlen_le, 8);
  g_byte_array_append (out, (const guint8 *) header, (guint) header_len);
  for (gsize i = header_len; i < hlen; i++)
    g_byte_array_append (out, (const guint8 *) " ", 1);
  for (guint i = 0; i < contig->len; i++)
    {
      FxTensor *t = contig->pdata[i];
      gsize nbytes = (gsize) fx_tensor_numel (t) * fx_dtype_size (t->dtype);
      if (nbytes > 0)
        g_byte_array_append (out, fx_tensor_data (t), (guint) nbytes);
    }
  return g_byte_array_free_to_bytes (out);
}

gboolean
fx_safetensors_save (FxDict *tensors, GHashTable *metadata, const char *path, GError **error)
{
  g_autoptr (GBytes) bytes = fx_safetensors_serialize (tensors, metadata, error);
  g_autoptr (GError) local = NULL;
  gsize len;
  const char *data;

  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &len);
  if (!g_file_set_contents (path, data, (gssize) len, &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  const char *name;
  FxDType dtype;
  int ndim;
  int64_t shape[FX_TENSOR_MAX_DIMS];
  guint64 begin, end;
} Entry;

static int
entry_cmp (gconstpointer a, gconstpointer b)
{
  const Entry *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return 0;
}

static gboolean
json_uint (JsonNode *node, guint64 *out)
{
  gint64 v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  v = json_node_get_int (node);
  if (v < 0)
    return FALSE;
  *out = (guint64) v;
  return TRUE;
}

static gboolean
parse_entry (const char *name, JsonNode *node, Entry *e, GError **error)
{
  JsonObject *o;
  JsonNode *dtype, *shape, *offsets;
  JsonArray *a;
  guint64 numel = 1, nbytes;

#define FAIL(...) G_STMT_START { \
    g_autofree char *_m = g_strdup_printf (__VA_ARGS__); \
    g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "safetensors: tensor '%s': %s", name, _m); \
    return FALSE; } G_STMT_END

  e->name = name;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    FAIL ("entry is not an object");
  o = json_node_get_object (node);
  dtype = json_object_get_member (o, "dtype");
  shape = json_object_get_member (o, "shape");
  offsets = json_object_get_member (o, "data_offsets");
  if (dtype == NULL || !JSON_NODE_HOLDS_VALUE (dtype) || json_node_get_value_type (dtype) != G_TYPE_STRING)
    FAIL ("missing or invalid 'dtype'");
  if (!fx_safetensors_dtype_from_name (json_node_get_string (dtype), &e->dtype))
    FAIL ("unsupported dtype '%s'", json_node_get_string (dtype));
  if (shape == NULL || !JSON_NODE_HOLDS_ARRAY (shape))
    FAIL ("missing or invalid 'shape'");
  a = json_node_get_array (shape);
  if (json_array_get_length (a) > FX_TENSOR_MAX_DIMS)
    FAIL ("%u dimensions (at most %d are supported)", json_array_get_length (a), FX_TENSOR_MAX_DIMS);
  e->ndim = (int) json_array_get_length (a);
  for (int d = 0; d < e->ndim; d++)
    {
      guint64 s;
      if (!json_uint (json_array_get_element (a, d), &s) || s > G_MAXINT64)
        FAIL ("shape[%d] is not a non-negative integer", d);
      e->shape[d] = (int64_t) s;
      if (s != 0 && numel > G_MAXUINT64 / s)
        FAIL ("shape overflows");
      numel *= s;
    }
  if (offsets == NULL || !JSON_NODE_HOLDS_ARRAY (offsets)
      || json_array_get_length (json_node_get_array (offsets)) != 2)
    FAIL ("missing or invalid 'data_offsets'");
  a = json_node_get_array (offsets);
  if (!json_uint (json_array_get_element (a, 0), &e->begin)
      || !json_uint (json_array_get_element (a, 1), &e->end) || e->end < e->begin)
    FAIL ("invalid 'data_offsets'");
  if (numel > G_MAXUINT64 / fx_dtype_size (e->dtype))
    FAIL ("shape overflows");
  nbytes = numel * fx_dtype_size (e->dtype);
  if (e->end - e->begin != nbytes)
    FAIL ("data_offsets [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "] hold %" G_GUINT64_FORMAT
          " bytes but dtype and shape need %" G_GUINT64_FORMAT,
          e->begin, e->end, e->end - e->begin, nbytes);
#undef FAIL
  return TRUE;
}

FxDict *
fx_safetensors_deserialize (GBytes *bytes, GHashTable **metadata_out, GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint64 hlen;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_autoptr (GHashTable) metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GList) members = NULL;
  const guint8 *body;
  guint64 body_len, expect;
  JsonNode *root;
  JsonObject *header;
  FxDict *out;

  if (len < 8)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "safetensors: file too short (%" G_GSIZE_FORMAT " bytes) for its header length", len);
      return NULL;
    }
  memcpy (&hlen, data, 8);
  hlen = GUINT64_FROM_LE (hlen);
  if (hlen > MAX_HEADER || hlen > len - 8)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "safetensors: header length %" G_GUINT64_FORMAT " exceeds the file (%" G_GSIZE_FORMAT
                   " bytes)", hlen, len);
      return NULL;
    }
  if (hlen < 2 || data[8] != '{')
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE, "safetensors: header is not a JSON object");
      return NULL;
    }
  if (!fx_json_depth_ok ((const char *) data + 8, hlen, 16))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE, "safetensors: header nests too deeply");
      return NULL;
    }
  if (!g_utf8_validate ((const char *) data + 8, (gssize) hlen, NULL)
      || !json_parser_load_from_data (parser, (const char *) data + 8, (gssize) hlen, &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE, "safetensors: invalid JSON header: %s",
                   local ? local->message : "not UTF-8");
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE, "safetensors: header is not a JSON object");
      return NULL;
    }
  header = json_node_get_object (root);
  members = json_object_get_members (header);
  for (GList *l = members; l; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (header, name);
      Entry e = { 0 };

      if (strcmp (name, "__metadata__") == 0)
        {
          JsonObject *mo;
          g_autoptr (GList) keys = NULL;
          if (!JSON_NODE_HOLDS_OBJECT (node))
            {
              g_set_error_literal (error, FX_ERROR, FX_ERROR_PARSE,
                                   "safetensors: '__metadata__' is not an object");
              return NULL;
            }
          mo = json_node_get_object (node);
          keys = json_object_get_members (mo);
          for (GList *m = keys; m; m = m->next)
            {
              JsonNode *mv = json_object_get_member (mo, m->data);
              if (!JSON_NODE_HOLDS_VALUE (mv) || json_node_get_value_type (mv) != G_TYPE_STRING)
                {
                  g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                               "safetensors: metadata '%s' is not a string", (char *) m->data);
                  return NULL;
                }
              g_hash_table_insert (metadata, g_strdup (m->data), g_strdup (json_node_get_string (mv)));
            }
          continue;
        }
      if (!parse_entry (name, node, &e, error))
        return NULL;
      g_array_append_val (entries, e);
    }

  body = data + 8 + hlen;
  body_len = len - 8 - hlen;
  g_array_sort (entries, entry_cmp);
  expect = 0;
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      if (e->begin != expect)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                       "safetensors: tensor '%s': data_offsets start at %" G_GUINT64_FORMAT
                       " where %" G_GUINT64_FORMAT " was expected (holes and overlaps are invalid)",
                       e->name, e->begin, expect);
          return NULL;
        }
      if (e->end > body_len)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                       "safetensors: tensor '%s': data_offsets end at %" G_GUINT64_FORMAT
                       " beyond the %" G_GUINT64_FORMAT " bytes of data",
                       e->name, e->end, body_len);
          return NULL;
        }
      expect = e->end;
    }
  if (expect != body_len)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_PARSE,
                   "safetensors: %" G_GUINT64_FORMAT " bytes of data but the tensors use %" G_GUINT64_FORMAT,
                   body_len, expect);
      return NULL;
    }

  out = fx_dict_new ();
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      FxTensor *t = fx_tensor_new_uninit (e->dtype, e->ndim, e->shape);

      if (t == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_FAILED,
                       "safetensors: tensor '%s': cannot allocate %" G_GUINT64_FORMAT " bytes",
                       e->name, e->end - e->begin);
          fx_dict_unref (out);
          return NULL;
        }
      if (e->end > e->begin)
        memcpy (fx_tensor_data (t), body + e->begin, e->end - e->begin);
      if (e->dtype == FX_DTYPE_BOOL)
        {
          /* kernels rely on bools being 0 or 1 */
          guint8 *p = fx_tensor_data (t);
          for (guint64 j = 0; j < e->end - e->begin; j++)
            p[j] = p[j] != 0;
        }
      fx_dict_set (out, fx_value_str (e->name), fx_value_take_tensor (t));
    }
  if (metadata_out != NULL)
    *metadata_out = g_steal_pointer (&metadata);
  return out;
}

FxDict *
fx_safetensors_load (const char *path, GHashTable **metadata_out, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GMappedFile) file = g_mapped_file_new (path, FALSE, &local);
  g_autoptr (GBytes) bytes = NULL;

  if (file == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      return NULL;
    }
  bytes = g_mapped_file_get_bytes (file);
  return fx_safetensors_deserialize (bytes, metadata_out, error);
}
