/* test-checkpoint.c: torch.save files — fixtures written by PyTorch 1.13 (gen_checkpoints.py)
 * read entry by entry, fx's re-save giving torch's own bytes, round trips of every dtype and
 * layout, the errors, and robustness against truncated and corrupted archives and pickles. */
#include <fx.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>

/* ------------------------------------------------------------------ a tiny zip toolkit
 * (stored records only) so the tests can look inside archives and build corrupt ones with
 * valid CRCs, independently of the library's libzip code. */

static guint32
crc32_of (const guint8 *data, gsize len)
{
  static guint32 table[256];
  guint32 crc = 0xffffffffu;

  if (table[1] == 0)
    for (guint32 i = 0; i < 256; i++)
      {
        guint32 c = i;
        for (int k = 0; k < 8; k++)
          c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
      }
  for (gsize i = 0; i < len; i++)
    crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

static void
put16 (GByteArray *a, guint16 v)
{
  guint8 b[2] = { v & 0xff, v >> 8 };
  g_byte_array_append (a, b, 2);
}

static void
put32 (GByteArray *a, guint32 v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };
  g_byte_array_append (a, b, 4);
}

static guint32
get32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32) p[3] << 24);
}

static guint16
get16 (const guint8 *p)
{
  return p[0] | (p[1] << 8);
}

/* names and contents: parallel arrays (char*, GBytes*) */
static GBytes *
zip_build (GPtrArray *names, GPtrArray *contents)
{
  GByteArray *out = g_byte_array_new ();
  GByteArray *cd = g_byte_array_new ();
  guint32 cd_offset;

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      gsize len;
      const guint8 *data = g_bytes_get_data (contents->pdata[i], &len);
      guint32 crc = crc32_of (data, len), offset = out->len;

      put32 (out, 0x04034b50); put16 (out, 20); put16 (out, 0); put16 (out, 0);
      put16 (out, 0); put16 (out, 0x21); put32 (out, crc); put32 (out, (guint32) len);
      put32 (out, (guint32) len); put16 (out, (guint16) strlen (name)); put16 (out, 0);
      g_byte_array_append (out, (const guint8 *) name, (guint) strlen (name));
      if (len)
        g_byte_array_append (out, data, (guint) len);

      put32 (cd, 0x02014b50); put16 (cd, 20); put16 (cd, 20); put16 (cd, 0); put16 (cd, 0);
      put16 (cd, 0); put16 (cd, 0x21); put32 (cd, crc); put32 (cd, (guint32) len);
      put32 (cd, (guint32) len); put16 (cd, (guint16) strlen (name)); put16 (cd, 0);
      put16 (cd, 0); put16 (cd, 0); put16 (cd, 0); put32 (cd, 0); put32 (cd, offset);
      g_byte_array_append (cd, (const guint8 *) name, (guint) strlen (name));
    }
  cd_offset = out->len;
  g_byte_array_append (out, cd->data, cd->len);
  put32 (out, 0x06054b50); put16 (out, 0); put16 (out, 0);
  put16 (out, (guint16) names->len); put16 (out, (guint16) names->len);
  put32 (out, cd->len); put32 (out, cd_offset); put16 (out, 0);
  g_byte_array_unref (cd);
  return g_byte_array_free_to_bytes (out);
}

/* Record name without its archive folder → GBytes, for a well-formed stored archive. */
static GHashTable *
zip_records (GBytes *bytes, GHashTable *data_offsets /* may be NULL: name → offset */)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (bytes, &len);
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) g_bytes_unref);
  const guint8 *eocd = d + len - 22;
  guint n, pos;

  g_assert_cmpuint (get32 (eocd), ==, 0x06054b50);
  n = get16 (eocd + 10);
  pos = get32 (eocd + 16);
  for (guint i = 0; i < n; i++)
    {
      const guint8 *c = d + pos;
      guint16 name_len = get16 (c + 28), extra = get16 (c + 30), comment = get16 (c + 32);
      guint32 size = get32 (c + 24), local = get32 (c + 42);
      g_autofree char *name = g_strndup ((const char *) c + 46, name_len);
      const char *slash = strchr (name, '/');
      guint32 data_at;

      g_assert_cmpuint (get32 (c), ==, 0x02014b50);
      g_assert_cmpuint (get16 (c + 10), ==, 0);    /* stored */
      data_at = local + 30 + get16 (d + local + 26) + get16 (d + local + 28);
      g_assert_nonnull (slash);
      if (data_offsets)
        g_hash_table_insert (data_offsets, g_strdup (slash + 1), GUINT_TO_POINTER (data_at));
      g_hash_table_insert (out, g_strdup (slash + 1), g_bytes_new (d + data_at, size));
      pos += 46 + name_len + extra + comment;
    }
  return out;
}

static GBytes *
read_file (const char *path)
{
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static char *
fixture (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "conformance", "goldens", "checkpoints", name, NULL);
}

/* ------------------------------------------------------------------ torch's fixtures */

static void
check_entries (FxDict *sd, JsonArray *expected)
{
  g_autoptr (GHashTable) groups = g_hash_table_new (g_direct_hash, g_direct_equal);

  g_assert_cmpuint (fx_dict_len (sd), ==, json_array_get_length (expected));
  for (guint i = 0; i < json_array_get_length (expected); i++)
    {
      JsonObject *e = json_array_get_object_element (expected, i);
      const FxValue *k, *v;
      FxTensor *t;
      JsonArray *shape = json_object_get_array_member (e, "shape");
      JsonArray *stride = json_object_get_array_member (e, "stride");
      JsonArray *values = json_object_get_array_member (e, "values");
      FxDType dtype;
      gint64 group = json_object_get_int_member (e, "storage");
      gpointer seen;

      g_assert_true (fx_dict_entry (sd, i, &k, &v));
      g_assert_cmpstr (k->s->data, ==, json_object_get_string_member (e, "key"));
      g_assert_cmpint (v->kind, ==, FX_VALUE_TENSOR);
      t = v->tensor;
      g_assert_true (fx_dtype_from_name (json_object_get_string_member (e, "dtype"), &dtype));
      g_assert_cmpint (t->dtype, ==, dtype);
      g_assert_cmpint (t->ndim, ==, (int) json_array_get_length (shape));
      for (int d = 0; d < t->ndim; d++)
        {
          g_assert_cmpint (t->shape[d], ==, json_array_get_int_element (shape, d));
          g_assert_cmpint (t->strides[d], ==, json_array_get_int_element (stride, d));
        }
      if (fx_tensor_numel (t) > 0)
        g_assert_cmpint (t->offset, ==, json_object_get_int_member (e, "offset"));
      g_assert_cmpint (t->requires_grad, ==, json_object_get_boolean_member (e, "requires_grad"));
      /* storages are numbered in order of first use; the same number must be the same storage */
      if (fx_tensor_numel (t) > 0)
        {
          seen = g_hash_table_lookup (groups, GINT_TO_POINTER (group + 1));
          if (seen == NULL)
            g_hash_table_insert (groups, GINT_TO_POINTER (group + 1), t->storage);
          else
            g_assert_true (seen == t->storage);
        }
      g_assert_cmpint (fx_tensor_numel (t), ==, json_array_get_length (values));
      for (guint j = 0; j < json_array_get_length (values); j++)
        {
          JsonNode *x = json_array_get_element (values, j);
          if (json_node_get_value_type (x) == G_TYPE_BOOLEAN)
            g_assert_cmpint (fx_tensor_get_int64 (t, j), ==, json_node_get_boolean (x));
          else if (fx_dtype_is_floating (dtype))
            g_assert_cmpfloat (fx_tensor_get_double (t, j), ==, json_node_get_double (x));
          else
            g_assert_cmpint (fx_tensor_get_int64 (t, j), ==, json_node_get_int (x));
        }
    }
}

static void
test_torch_fixtures (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *manifest = fixture ("manifest.json");
  g_autoptr (GError) error = NULL;
  JsonArray *files;

  json_parser_load_from_file (parser, manifest, &error);
  g_assert_no_error (error);
  files = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "files");
  g_assert_cmpuint (json_array_get_length (files), >=, 5);
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *f = json_array_get_object_element (files, i);
      g_autofree char *path = fixture (json_object_get_string_member (f, "file"));
      g_autoptr (GError) load_error = NULL;

      g_test_message ("%s", path);
      if (json_object_has_member (f, "entries"))
        {
          FxDict *sd = fx_checkpoint_load (path, &load_error);
          g_assert_no_error (load_error);
          check_entries (sd, json_object_get_array_member (f, "entries"));
          fx_dict_unref (sd);
        }
      else if (json_object_has_member (f, "error"))
        {
          FxDict *sd = fx_checkpoint_load (path, &load_error);
          g_assert_null (sd);
          g_assert_error (load_error, FX_ERROR, FX_ERROR_PARSE);
          g_assert_nonnull (strstr (load_error->message, json_object_get_string_member (f, "error")));
        }
      else
        {
          g_auto (FxValue) v = fx_value_none ();
          FxValue key = fx_value_str ("model");
          const FxValue *model, *epoch;
          FxValue ekey = fx_value_str ("epoch");
          g_assert_true (fx_checkpoint_load_value (path, &v, &load_error));
          g_assert_no_error (load_error);
          g_assert_cmpint (v.kind, ==, FX_VALUE_DICT);
          model = fx_dict_get (v.dict, &key);
          epoch = fx_dict_get (v.dict, &ekey);
          g_assert_nonnull (model);
          g_assert_nonnull (epoch);
          g_assert_cmpint (epoch->i, ==, json_object_get_int_member (f, "epoch"));
          check_entries (model->dict, json_object_get_array_member (f, "model"));
          fx_value_clear (&key);
          fx_value_clear (&ekey);
          /* a dict holding a non-tensor is no state dict */
          g_assert_null (fx_checkpoint_load (path, &load_error));
          g_assert_error (load_error, FX_ERROR, FX_ERROR_PARSE);
        }
    }
}

static void
assert_same_records (GHashTable *a, GHashTable *b)
{
  GHashTableIter it;
  gpointer name, bytes;

  g_assert_cmpuint (g_hash_table_size (a), ==, g_hash_table_size (b));
  g_hash_table_iter_init (&it, a);
  while (g_hash_table_iter_next (&it, &name, &bytes))
    {
      GBytes *other = g_hash_table_lookup (b, name);
      g_test_message ("record %s", (char *) name);
      g_assert_nonnull (other);
      g_assert_true (g_bytes_equal (bytes, other));
    }
}

/* fx re-saving torch's file writes torch's very pickle and records. */
static void
test_resave_identical (void)
{
  g_autofree char *basic = fixture ("basic.pt");
  g_autofree char *fx_written = fixture ("fx_written.pt");
  g_autofree char *dir = g_dir_make_tmp ("fx-ckpt-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "resaved.pt", NULL);
  g_autoptr (GError) error = NULL;
  FxDict *sd = fx_checkpoint_load (basic, &error);
  g_autoptr (GBytes) torch_bytes = read_file (basic);
  g_autoptr (GBytes) ours_bytes = NULL, committed = NULL;
  g_autoptr (GHashTable) torch_records = zip_records (torch_bytes, NULL);
  g_autoptr (GHashTable) ours_records = NULL, committed_records = NULL;
  g_autoptr (GHashTable) offsets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *fixture_out = g_getenv ("FX_WRITE_CHECKPOINT_FIXTURE");
  GHashTableIter it;
  gpointer name, at;

  g_assert_no_error (error);
  g_assert_true (fx_checkpoint_save (sd, out, &error));
  g_assert_no_error (error);
  if (fixture_out != NULL)
    g_assert_true (fx_checkpoint_save (sd, fixture_out, NULL));
  ours_bytes = read_file (out);
  ours_records = zip_records (ours_bytes, offsets);
  assert_same_records (torch_records, ours_records);
  /* records start 64-byte aligned, as torch writes them */
  g_hash_table_iter_init (&it, offsets);
  while (g_hash_table_iter_next (&it, &name, &at))
    g_assert_cmpuint (GPOINTER_TO_UINT (at) % 64, ==, 0);
  /* the committed file that real torch was shown to load (gen_checkpoints.py --check-fx) */
  committed = read_file (fx_written);
  committed_records = zip_records (committed, NULL);
  assert_same_records (committed_records, ours_records);
  fx_dict_unref (sd);
  g_unlink (out);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ round trips */

static FxTensor *
ramp (FxDType dtype, int ndim, const int64_t *shape)
{
  int64_t n = 1;
  g_autofree double *data = NULL;
  g_autoptr (FxTensor) t = NULL;

  for (int d = 0; d < ndim; d++)
    n *= shape[d];
  data = g_new (double, n + 1);
  for (int64_t i = 0; i < n; i++)
    data[i] = dtype == FX_DTYPE_BOOL ? (double) (i % 2)
            : fx_dtype_is_floating (dtype) ? ((double) (i * 3 % 11) - 4) / 8 : (double) (i * 3 % 11) - 4;
  if (dtype == FX_DTYPE_UINT8)
    for (int64_t i = 0; i < n; i++)
      data[i] += 4;
  t = fx_tensor_new_from_data (FX_DTYPE_FLOAT64, ndim, shape, data);
  return fx_tensor_to_dtype (t, dtype);
}

static void
assert_tensor_equal (FxTensor *a, FxTensor *b)
{
  g_assert_cmpint (a->dtype, ==, b->dtype);
  g_assert_cmpint (a->ndim, ==, b->ndim);
  for (int d = 0; d < a->ndim; d++)
    {
      g_assert_cmpint (a->shape[d], ==, b->shape[d]);
      g_assert_cmpint (a->strides[d], ==, b->strides[d]);
    }
  g_assert_cmpint (a->requires_grad, ==, b->requires_grad);
  for (int64_t i = 0; i < fx_tensor_numel (a); i++)
    g_assert_cmpfloat (fx_tensor_get_double (a, i), ==, fx_tensor_get_double (b, i));
}

static void
test_round_trip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fx-ckpt-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "rt.pt", NULL);
  g_autoptr (GError) error = NULL;
  FxDict *sd = fx_dict_new (), *back;
  int64_t shape23[] = { 2, 3 }, shape0[] = { 0, 4 }, big[] = { 600 };
  g_autoptr (FxTensor) base = ramp (FX_DTYPE_FLOAT32, 2, shape23);

  for (int d = 0; d < FX_DTYPE_N; d++)
    {
      g_autofree char *name = g_strdup_printf ("t_%s", fx_dtype_name (d));
      fx_dict_set (sd, fx_value_str (name), fx_value_take_tensor (ramp (d, 2, shape23)));
    }
  fx_dict_set (sd, fx_value_str ("base"), fx_value_tensor (base));
  fx_dict_set (sd, fx_value_str ("t"), fx_value_take_tensor (fx_tensor_t (base, NULL)));
  fx_dict_set (sd, fx_value_str ("row"), fx_value_take_tensor (fx_tensor_select (base, 0, 1, NULL)));
  fx_dict_set (sd, fx_value_str ("scalar"), fx_value_take_tensor (fx_tensor_scalar_double (FX_DTYPE_FLOAT64, 2.5)));
  fx_dict_set (sd, fx_value_str ("empty"), fx_value_take_tensor (fx_tensor_zeros (FX_DTYPE_INT64, 2, shape0)));
  fx_dict_set (sd, fx_value_str ("long_storage"), fx_value_take_tensor (ramp (FX_DTYPE_INT64, 1, big)));
  {
    FxTensor *p = ramp (FX_DTYPE_FLOAT32, 1, shape23);
    p->requires_grad = TRUE;
    fx_dict_set (sd, fx_value_str ("param"), fx_value_take_tensor (p));
  }
  /* more than 256 memo entries and a LONG1 integer */
  for (int i = 0; i < 60; i++)
    {
      g_autofree char *name = g_strdup_printf ("many.%d", i);
      int64_t one = 1;
      g_autoptr (FxTensor) v = fx_tensor_full (FX_DTYPE_INT64, 1, &one, i == 7 ? 1e12 : i);
      fx_dict_set (sd, fx_value_str (name), fx_value_tensor (v));
    }

  g_assert_true (fx_checkpoint_save (sd, path, &error));
  g_assert_no_error (error);
  back = fx_checkpoint_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_dict_len (back), ==, fx_dict_len (sd));
  for (guint i = 0; i < fx_dict_len (sd); i++)
    {
      const FxValue *k1, *v1, *k2, *v2;
      fx_dict_entry (sd, i, &k1, &v1);
      fx_dict_entry (back, i, &k2, &v2);
      g_assert_cmpstr (k1->s->data, ==, k2->s->data);
      assert_tensor_equal (v1->tensor, v2->tensor);
      g_assert_cmpint (v1->tensor->offset, ==, v2->tensor->offset);
    }
  /* views still share one storage */
  {
    FxValue kb = fx_value_str ("base"), kt = fx_value_str ("t"), kr = fx_value_str ("row");
    g_assert_true (fx_dict_get (back, &kb)->tensor->storage == fx_dict_get (back, &kt)->tensor->storage);
    g_assert_true (fx_dict_get (back, &kb)->tensor->storage == fx_dict_get (back, &kr)->tensor->storage);
    g_assert_cmpint (fx_dict_get (back, &kr)->tensor->offset, ==, 3);
    fx_value_clear (&kb);
    fx_value_clear (&kt);
    fx_value_clear (&kr);
  }
  fx_dict_unref (back);
  fx_dict_unref (sd);

  /* an empty state dict */
  sd = fx_dict_new ();
  g_assert_true (fx_checkpoint_save (sd, path, &error));
  back = fx_checkpoint_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_dict_len (back), ==, 0);
  fx_dict_unref (back);
  fx_dict_unref (sd);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_save_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fx-ckpt-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad.pt", NULL);
  g_autoptr (GError) error = NULL;
  FxDict *sd = fx_dict_new ();
  int64_t shape[] = { 4 };
  g_autoptr (FxTensor) a = fx_tensor_zeros (FX_DTYPE_INT32, 1, shape);
  g_autoptr (FxTensor) b = fx_tensor_new_view (a->storage, FX_DTYPE_FLOAT32, 1, shape, NULL, 0);

  fx_dict_set (sd, fx_value_str ("a"), fx_value_tensor (a));
  fx_dict_set (sd, fx_value_str ("b"), fx_value_tensor (b));
  g_assert_false (fx_checkpoint_save (sd, path, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "Cannot save multiple tensors or storages that view the same data as different types");
  g_clear_error (&error);
  fx_dict_unref (sd);

  sd = fx_dict_new ();
  fx_dict_set (sd, fx_value_str ("n"), fx_value_int (3));
  g_assert_false (fx_checkpoint_save (sd, path, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  fx_dict_set (sd, fx_value_str ("n"), fx_value_tensor (a));
  g_assert_false (fx_checkpoint_save (sd, "/nonexistent-dir/x.pt", &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_IO);
  g_clear_error (&error);
  fx_dict_unref (sd);

  g_assert_null (fx_checkpoint_load ("/nonexistent-dir/x.pt", &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_IO);
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (path, "hello", -1, NULL));
  g_assert_null (fx_checkpoint_load (path, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (path, "\x80\x02\x8a\x0a", 4, NULL));
  g_assert_null (fx_checkpoint_load (path, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED);
  g_clear_error (&error);
  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ hostile pickles */

/* An archive with the given data.pkl and the storages of basic.pt. */
static GBytes *
archive_with_pickle (GHashTable *records, const guint8 *pkl, gsize len)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) contents = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GHashTableIter it;
  gpointer name, bytes;

  g_ptr_array_add (names, g_strdup ("archive/data.pkl"));
  g_ptr_array_add (contents, g_bytes_new (pkl, len));
  g_hash_table_iter_init (&it, records);
  while (g_hash_table_iter_next (&it, &name, &bytes))
    if (strcmp (name, "data.pkl") != 0)
      {
        g_ptr_array_add (names, g_strconcat ("archive/", name, NULL));
        g_ptr_array_add (contents, g_bytes_ref (bytes));
      }
  return zip_build (names, contents);
}

static gboolean
load_pickle (GHashTable *records, const char *pkl, gsize len, GError **error)
{
  g_autoptr (GBytes) zip = archive_with_pickle (records, (const guint8 *) pkl, len);
  g_auto (FxValue) v = fx_value_none ();
  return fx_checkpoint_load_bytes (zip, &v, error);
}

static void
expect_pickle_error (GHashTable *records, const char *pkl, gsize len, const char *fragment)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (load_pickle (records, pkl, len, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
  g_test_message ("%s", error->message);
  if (!strstr (error->message, fragment))
    g_error ("'%s' does not contain '%s'", error->message, fragment);
}

static void
test_hostile_pickles (void)
{
  g_autofree char *basic = fixture ("basic.pt");
  g_autoptr (GBytes) bytes = read_file (basic);
  g_autoptr (GHashTable) records = zip_records (bytes, NULL);
  g_autoptr (GError) error = NULL;
  GString *deep = g_string_new ("\x80\x02");
  GString *wide = g_string_new ("\x80\x02(");

#define P(s) s, sizeof (s) - 1
  expect_pickle_error (records, P ("\x80\x02" "cos\nsystem\n" "X\x02\0\0\0ls\x85R."), "unsupported global 'os.system'");
  expect_pickle_error (records, P ("\x80\x02" "cbuiltins\neval\n."), "unsupported global 'builtins.eval'");
  expect_pickle_error (records, P ("\x80\x02" "]q\x00h\x00" "a."), "recursive");
  expect_pickle_error (records, P ("\x80\x02" "]q\x00]q\x01h\x00" "a0h\x01" "a."), "changed after");
  expect_pickle_error (records, P ("\x80\x02" "h\x05."), "memo key 5 not found");
  expect_pickle_error (records, P ("\x80\x02" "0."), "stack underflow");
  expect_pickle_error (records, P ("\x80\x02" "N\x86."), "stack underflow");
  expect_pickle_error (records, P ("\x80\x02" "X\xff\xff\xff\x7f"), "truncated");
  expect_pickle_error (records, P ("\x80\x02" "NN."), "left on the stack");
  expect_pickle_error (records, P ("\x80\x02" "\xfe."), "opcode 0xfe");
  expect_pickle_error (records, P ("\x80\x02" "I1\n."), "opcode 'I'");
  expect_pickle_error (records, P ("\x80\x02" "}]N" "s."), "unhashable");
  expect_pickle_error (records, P ("\x80\x02" "N)R."), "calling a NoneType");
  expect_pickle_error (records, P ("\x80\x02" "ctorch\nFloatStorage\n)R."), "cannot be called");
  expect_pickle_error (records, P ("\x80\x02" "ctorch\nBFloat16Storage\n."), "unsupported global 'torch.BFloat16Storage'");
  expect_pickle_error (records, P ("\x80\x02" "(X\x07\0\0\0storagectorch\nFloatStorage\nX\x02\0\0\0" "99X\x03\0\0\0cpuK\x01tQ."),
                       "no record 'archive/data/99'");
  expect_pickle_error (records, P ("\x80\x02" "(X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x63tQ."),
                       "storage '0' holds 24 bytes");
  expect_pickle_error (records, P ("\x80\x02" "(X\x07\0\0\0storagectorch\nFloatStorage\nX\x04\0\0\0../0X\x03\0\0\0cpuK\x06tQ."),
                       "invalid storage key");
  /* a view reaching past its storage of 6 floats */
  expect_pickle_error (records, P ("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n"
                                   "((X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x06tQ"
                                   "K\x02K\x03\x85K\x02\x85\x89}tR."), "beyond its storage");
  expect_pickle_error (records, P ("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n"
                                   "((X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x06tQ"
                                   "K\x00J\xff\xff\xff\x7f\x85J\xff\xff\xff\x7f\x85\x89}tR."), "beyond its storage");
  expect_pickle_error (records, P ("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n(K\x01tR."), "takes 6 arguments");
  expect_pickle_error (records, P ("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n"
                                   "((X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x06tQ"
                                   "K\x00K\x03\x85J\xff\xff\xff\xff\x85\x89}tR."), "negative");
  /* a storage used with two dtypes */
  expect_pickle_error (records, P ("\x80\x02" "(X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x06tQ"
                                   "(X\x07\0\0\0storagectorch\nIntStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x06tQ\x86."),
                       "two dtypes");
  /* a bare storage is no value */
  expect_pickle_error (records, P ("\x80\x02" "(X\x07\0\0\0storagectorch\nFloatStorage\nX\x01\0\0\0" "0X\x03\0\0\0cpuK\x06tQ."),
                       "unsupported object");
  expect_pickle_error (records, P ("\x80\x09."), "protocol 9");
#undef P
  /* nesting deeper than the interpreter allows, and a very long flat tuple */
  for (int i = 0; i < 200; i++)
    g_string_append_c (deep, ']');
  for (int i = 0; i < 199; i++)
    g_string_append_c (deep, 'a');
  g_string_append_c (deep, '.');
  expect_pickle_error (records, deep->str, deep->len, "nested deeper");
  for (int i = 0; i < 100000; i++)
    g_string_append (wide, "K\x01");
  g_string_append (wide, "t.");
  g_assert_true (load_pickle (records, wide->str, wide->len, &error));
  g_assert_no_error (error);
  g_string_free (deep, TRUE);
  g_string_free (wide, TRUE);
}

/* ------------------------------------------------------------------ corruption sweeps */

static void
test_corrupt_archive (void)
{
  g_autofree char *basic = fixture ("basic.pt");
  g_autoptr (GBytes) bytes = read_file (basic);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint8 *copy = g_memdup2 (data, len);
  guint failures = 0;

  for (gsize cut = 0; cut < len; cut += 1)
    {
      g_autoptr (GBytes) b = g_bytes_new_static (data, cut);
      g_auto (FxValue) v = fx_value_none ();
      g_autoptr (GError) error = NULL;
      g_assert_false (fx_checkpoint_load_bytes (b, &v, &error));
      g_assert_nonnull (error);
    }
  for (gsize at = 0; at < len; at++)
    {
      g_autoptr (GBytes) b = NULL;
      g_auto (FxValue) v = fx_value_none ();
      g_autoptr (GError) error = NULL;
      copy[at] ^= (guint8) (1u << (at % 8));
      b = g_bytes_new_static (copy, len);
      if (!fx_checkpoint_load_bytes (b, &v, &error))
        {
          g_assert_nonnull (error);
          failures++;
        }
      copy[at] = data[at];
    }
  g_test_message ("%u of %" G_GSIZE_FORMAT " bit flips refused", failures, len);
  g_assert_cmpuint (failures, >, len / 2);
  g_free (copy);
}

static void
test_corrupt_pickle (void)
{
  g_autofree char *basic = fixture ("basic.pt");
  g_autoptr (GBytes) bytes = read_file (basic);
  g_autoptr (GHashTable) records = zip_records (bytes, NULL);
  GBytes *pkl = g_hash_table_lookup (records, "data.pkl");
  gsize len;
  const guint8 *data = g_bytes_get_data (pkl, &len);
  guint8 *copy = g_memdup2 (data, len);
  static const guint8 replacements[] = { 0x00, 0xff, 0x80, '(', ')', 't', 'R', 'h', 'q', 'Q', 'u', '.' };

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (load_pickle (records, (const char *) data, cut, &error));
      g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
    }
  for (gsize at = 0; at < len; at++)
    for (guint r = 0; r < G_N_ELEMENTS (replacements) + 1; r++)
      {
        g_autoptr (GError) error = NULL;
        copy[at] = r < G_N_ELEMENTS (replacements) ? replacements[r] : data[at] ^ 0x01;
        if (!load_pickle (records, (const char *) copy, len, &error))
          g_assert_nonnull (error);
        copy[at] = data[at];
      }
  g_free (copy);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/checkpoint/torch-fixtures", test_torch_fixtures);
  g_test_add_func ("/checkpoint/resave-identical", test_resave_identical);
  g_test_add_func ("/checkpoint/round-trip", test_round_trip);
  g_test_add_func ("/checkpoint/save-errors", test_save_errors);
  g_test_add_func ("/checkpoint/hostile-pickles", test_hostile_pickles);
  g_test_add_func ("/checkpoint/corrupt-archive", test_corrupt_archive);
  g_test_add_func ("/checkpoint/corrupt-pickle", test_corrupt_pickle);
  return g_test_run ();
}
