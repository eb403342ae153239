/* test-fxg.c: .fxg documents and safetensors — a GraphModule with layers, nested modules, tied
 * and non-persistent tensors, meta and editor state saved and loaded back identical; every
 * validation error of the loader; truncated and bit-flipped documents and sidecars. */
#include <fx.h>
#include <ops/layers.h>
#include <glib/gstdio.h>
#include <string.h>
#include <math.h>

static FxTensor *
ramp (FxDType dtype, int ndim, const int64_t *shape, double scale)
{
  int64_t n = 1;
  g_autofree double *data = NULL;
  g_autoptr (FxTensor) t = NULL;

  for (int d = 0; d < ndim; d++)
    n *= shape[d];
  data = g_new (double, n + 1);
  for (int64_t i = 0; i < n; i++)
    data[i] = (double) (i % 7) * scale - 1;
  t = fx_tensor_new_from_data (FX_DTYPE_FLOAT64, ndim, shape, data);
  return fx_tensor_to_dtype (t, dtype);
}

static FxValue
node_tuple (int n, ...)
{
  va_list ap;
  FxSeq *seq = fx_seq_new (n);
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    seq->items[i] = va_arg (ap, FxValue);
  va_end (ap);
  return fx_value_take_tuple (seq);
}

/* Net: fc = Linear(4, 70) (its weight goes to the sidecar), act = ReLU(), block.inner.scale
 * (a small parameter), block.stats (non-persistent buffer), block.tied (fc.bias again),
 * an int attribute; the graph uses all of them. */
static FxGraphModule *
sample_gm (void)
{
  g_autoptr (FxModule) root = fx_module_new ("Net");
  g_autoptr (FxModule) block = fx_module_new ("Module");
  g_autoptr (FxModule) inner = fx_module_new ("Module");
  g_autoptr (FxModule) fc = NULL, act = NULL;
  g_autoptr (FxGraph) g = fx_graph_new ();
  g_autoptr (GError) error = NULL;
  int64_t s3[] = { 3 }, s2[] = { 2, 2 };
  g_autoptr (FxTensor) scale = ramp (FX_DTYPE_FLOAT32, 1, s3, 0.5);
  g_autoptr (FxTensor) stats = ramp (FX_DTYPE_INT64, 2, s2, 1);
  FxValue args[2] = { fx_value_int (4), fx_value_int (70) };
  FxValue v, a, kw, size;
  FxNode *x, *y, *f, *r, *w, *view, *add, *sc;
  FxDict *kwargs, *meta;
  FxGraphModule *gm;

  fc = fx_layer_new ("Linear", args, 2, NULL, &error);
  g_assert_no_error (error);
  act = fx_layer_new ("ReLU", NULL, 0, NULL, &error);
  g_assert_no_error (error);
  fx_module_add_module (root, "fc", fc);
  fx_module_add_module (root, "act", act);
  fx_module_add_module (root, "block", block);
  fx_module_add_module (block, "inner", inner);
  fx_module_register_parameter (inner, "scale", scale);
  fx_module_register_buffer (block, "stats", stats, FALSE);
  {
    FxValue bias;
    g_assert_true (fx_module_get_attr (fc, "bias", &bias, NULL));
    fx_module_register_buffer (block, "tied", bias.tensor, TRUE);
    fx_value_clear (&bias);
  }
  v = fx_value_int (7);
  fx_module_set_attribute (block, "n", &v);

  x = fx_graph_placeholder (g, "x", "torch.Tensor", NULL);
  v = fx_value_float (2.5);
  y = fx_graph_placeholder (g, "y", NULL, &v);
  a = node_tuple (1, fx_value_node (x));
  f = fx_graph_call_module (g, "fc", &a, NULL, NULL);
  fx_value_clear (&a);
  a = node_tuple (1, fx_value_node (f));
  r = fx_graph_call_module (g, "act", &a, NULL, NULL);
  fx_value_clear (&a);
  w = fx_graph_get_attr (g, "block.inner.scale", NULL);
  sc = fx_graph_get_attr (g, "block.stats", NULL);
  {
    int64_t dims[] = { -1, 2 };
    size = fx_value_int_tuple (&fx_tuple_type_size, 2, dims);
  }
  a = node_tuple (2, fx_value_node (r), size);
  view = fx_graph_call_method (g, "view", &a, NULL, NULL);
  fx_value_clear (&a);
  kwargs = fx_dict_new ();
  fx_dict_set (kwargs, fx_value_str ("alpha"), fx_value_node (y));
  kw = fx_value_take_dict (kwargs);
  a = node_tuple (2, fx_value_node (view), fx_value_node (view));
  {
    FxValue op = fx_value_op (fx_op_lookup ("torch.add"));
    add = fx_graph_call_function (g, &op, &a, &kw, NULL);
  }
  fx_value_clear (&a);
  fx_value_clear (&kw);
  {
    FxSeq *items = fx_seq_new (4);
    FxSeq *lst = fx_seq_new (2);
    lst->items[0] = fx_value_node (w);
    lst->items[1] = fx_value_take_slice (fx_slice_new (fx_value_none (), fx_value_int (2), fx_value_none ()));
    items->items[0] = fx_value_node (add);
    items->items[1] = fx_value_take_list (lst);
    items->items[2] = fx_value_node (sc);
    items->items[3] = fx_value_float (NAN);
    a = fx_value_take_tuple (items);
    fx_graph_output (g, &a, NULL);
    fx_value_clear (&a);
  }
  meta = add->meta;
  {
    FxDict *tm = fx_dict_new ();
    int64_t shape[] = { 35, 2 };
    fx_dict_set (tm, fx_value_str ("shape"), fx_value_int_tuple (&fx_tuple_type_size, 2, shape));
    fx_dict_set (tm, fx_value_str ("dtype"), fx_value_dtype (FX_DTYPE_FLOAT32));
    fx_dict_set (meta, fx_value_str ("tensor_meta"), fx_value_take_dict (tm));
    fx_dict_set (meta, fx_value_str ("stack_trace"), fx_value_str ("  File \"m.py\", line 3"));
    fx_dict_set (meta, fx_value_str ("scratch"), fx_value_tensor (scale));   /* not saved */
  }
  gm = fx_graph_module_new (root, g, "GraphModule", &error);
  g_assert_no_error (error);
  /* the whole tree, not only what the graph uses */
  fx_module_unref (gm->module);
  gm->module = fx_module_ref (root);
  g_free (root->type_name);
  root->type_name = g_strdup ("GraphModule");
  return gm;
}

static JsonObject *
sample_editor_state (void)
{
  g_autoptr (JsonParser) p = json_parser_new ();
  g_assert_true (json_parser_load_from_data (p, "{\"positions\": {\"x\": [0, 10.5], \"add\": [120, 40]},"
                                             " \"zoom\": 1.25, \"scroll\": [3, 4], \"theme\": \"dark\"}",
                                             -1, NULL));
  return json_object_ref (json_node_get_object (json_parser_get_root (p)));
}

static void
assert_same_gm (FxGraphModule *a, FxGraphModule *b)
{
  g_autofree char *ra = fx_module_repr (a->module), *rb = fx_module_repr (b->module);
  g_autofree char *ga = fx_graph_to_string (a->graph), *gb = fx_graph_to_string (b->graph);
  FxDict *sa = fx_module_state_dict (a->module), *sb = fx_module_state_dict (b->module);
  const FxValue *k1, *v1, *k2, *v2;

  g_assert_cmpstr (a->code, ==, b->code);
  g_assert_cmpstr (ra, ==, rb);
  g_assert_cmpstr (ga, ==, gb);
  g_assert_cmpuint (fx_dict_len (sa), ==, fx_dict_len (sb));
  for (guint i = 0; fx_dict_entry (sa, i, &k1, &v1); i++)
    {
      g_assert_true (fx_dict_entry (sb, i, &k2, &v2));
      g_assert_cmpstr (k1->s->data, ==, k2->s->data);
      g_assert_cmpint (v1->tensor->dtype, ==, v2->tensor->dtype);
      g_assert_cmpint (v1->tensor->requires_grad, ==, v2->tensor->requires_grad);
      g_assert_true (fx_tensor_same_shape (v1->tensor, v2->tensor));
      for (int64_t j = 0; j < fx_tensor_numel (v1->tensor); j++)
        g_assert_cmpfloat (fx_tensor_get_double (v1->tensor, j), ==, fx_tensor_get_double (v2->tensor, j));
    }
  fx_dict_unref (sa);
  fx_dict_unref (sb);
}

static void
test_round_trip_file (void)
{
  g_autoptr (FxGraphModule) gm = sample_gm ();
  g_autoptr (JsonObject) editor = sample_editor_state ();
  g_autoptr (JsonObject) editor_back = NULL;
  g_autoptr (FxGraphModule) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("fx-fxg-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "net.fxg", NULL);
  g_autofree char *sidecar = g_build_filename (dir, "net.fxg.safetensors", NULL);
  g_autofree char *text1 = NULL, *text2 = NULL;
  FxValue t1, t2;
  FxModule *block;

  g_assert_true (fx_fxg_save (gm, editor, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (sidecar, G_FILE_TEST_EXISTS));
  back = fx_fxg_load (path, &editor_back, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  assert_same_gm (gm, back);
  g_assert_true (fx_graph_lint (back->graph, NULL));
  /* tied tensors stay one tensor; non-persistent buffers stay so; layers stay layers */
  g_assert_true (fx_module_get_attr (back->module, "fc.bias", &t1, NULL));
  g_assert_true (fx_module_get_attr (back->module, "block.tied", &t2, NULL));
  g_assert_true (t1.tensor == t2.tensor);
  g_assert_true (t1.tensor->requires_grad);
  fx_value_clear (&t1);
  fx_value_clear (&t2);
  block = fx_module_get_submodule (back->module, "block", NULL);
  g_assert_true (g_hash_table_contains (block->non_persistent, "stats"));
  g_assert_nonnull (fx_module_get_submodule (back->module, "fc", NULL)->layer);
  /* meta: plain data kept, tensors left out */
  {
    FxNode *add = fx_graph_find_node_by_name (back->graph, "add");
    FxValue key = fx_value_str ("tensor_meta"), key2 = fx_value_str ("scratch");
    g_autofree char *repr = NULL;
    g_assert_nonnull (add);
    g_assert_nonnull (fx_dict_get (add->meta, &key));
    repr = fx_value_to_repr (fx_dict_get (add->meta, &key));
    g_assert_cmpstr (repr, ==, "{'shape': torch.Size([35, 2]), 'dtype': torch.float32}");
    g_assert_null (fx_dict_get (add->meta, &key2));
    fx_value_clear (&key);
    fx_value_clear (&key2);
  }
  /* the editor's state comes back as given */
  {
    g_autoptr (JsonNode) n1 = json_node_init_object (json_node_alloc (), editor);
    g_autoptr (JsonNode) n2 = json_node_init_object (json_node_alloc (), editor_back);
    g_assert_true (json_node_equal (n1, n2));
  }
  /* and saving what was loaded gives the same document */
  text1 = fx_fxg_to_data (gm, editor, "s", NULL, &error);
  text2 = fx_fxg_to_data (back, editor_back, "s", NULL, &error);
  g_assert_cmpstr (text1, ==, text2);
  g_unlink (path);
  g_unlink (sidecar);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ validation */

typedef struct {
  char *text;
  GBytes *sidecar;
} Doc;

static Doc
sample_doc (void)
{
  g_autoptr (FxGraphModule) gm = sample_gm ();
  g_autoptr (JsonObject) editor = sample_editor_state ();
  Doc d = { 0 };
  d.text = fx_fxg_to_data (gm, editor, "net.fxg.safetensors", &d.sidecar, NULL);
  g_assert_nonnull (d.text);
  g_assert_nonnull (d.sidecar);
  if (g_getenv ("FX_FXG_DUMP"))
    g_printerr ("%s\n", d.text);
  return d;
}

static void
doc_clear (Doc *d)
{
  g_free (d->text);
  g_bytes_unref (d->sidecar);
}

static char *
replace_once (const char *text, const char *from, const char *to)
{
  const char *at = strstr (text, from);
  if (at == NULL)
    g_error ("'%s' not found in the document", from);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

static void
expect_error (const char *text, GBytes *sidecar, const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = fx_fxg_from_data (text, strlen (text), sidecar, NULL, &error);

  g_assert_null (gm);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  if (strstr (error->message, fragment) == NULL)
    g_error ("'%s' does not contain '%s'", error->message, fragment);
}

#define ARGS_AT "\"args\" : [\n    {\n     \"node\" : \"act\""
#define KWARGS_AT "\"kwargs\" : [\n    [\n     \"alpha\""
#define META_AT "\"meta\" : [\n    [\n     \"tensor_meta\""

static const struct {
  const char *from, *to, *error;
} mutations[] = {
  { "\"version\" : 1", "\"version\" : 99", "fxg: file version 99 is newer than this libfx reads (1)" },
  { "\"version\" : 1", "\"version\" : \"1\"", "missing or invalid version" },
  { "\"format\" : \"fxg\"", "\"format\" : \"json\"", "not an .fxg document" },
  { "\"target\" : \"torch.add\"", "\"target\" : \"torch.nonexistent\"", "node 'add': unknown op 'torch.nonexistent'" },
  { "\"node\" : \"view\"", "\"node\" : \"x_9\"", "node 'add': argument refers to unknown node 'x_9'" },
  { "\"node\" : \"view\"", "\"node\" : \"output\"", "node 'add': argument refers to node 'output' defined after it" },
  { "\"name\" : \"view\"", "\"name\" : \"add\"", "duplicate node name 'add'" },
  { "\"name\" : \"view\"", "\"name\" : \"1view\"", "invalid node name" },
  { "\"op\" : \"call_method\"", "\"op\" : \"call_methods\"", "node 'view': missing or unknown op" },
  { "\"target\" : \"view\"", "\"target\" : \"not a method\"", "node 'view': invalid call_method target" },
  { "\"target\" : \"fc\"", "\"target\" : \"fc2\"", "node 'fc': target 'fc2' does not exist in the module tree" },
  { "\"target\" : \"block.inner.scale\"", "\"target\" : \"block.inner\"", "" },
  { "\"target\" : \"act\"", "\"target\" : \"block.n\"", "node 'act': target 'block.n' is not a module" },
  { "\"type\" : \"ReLU\"", "\"type\" : \"ReLU9\"", "module 'act': unknown layer type 'ReLU9'" },
  { "\"training\" : true", "\"training\" : 1", "'layer' and 'training' must be bools" },
  { "\"dtype\" : \"float32\"\n", "\"dtype\" : \"float33\"\n", "unknown dtype 'float33'" },
  { "\"dtype\" : \"float32\",", "\"dtype\" : \"float33\",", "missing or unknown dtype" },
  { "\"shape\" : [\n    3\n   ]", "\"shape\" : [\n    4\n   ]", "tensor 'block.inner.scale': data hold 12 bytes but dtype and shape need 16" },
  { "\"shape\" : [\n    3\n   ]", "\"shape\" : [\n    -3\n   ]", "shape[0] is not a non-negative integer" },
  { "\"data\" : \"", "\"data\" : \"!", "data is not valid base64" },
  { "\"shape\" : [\n    70,\n    4\n   ]", "\"shape\" : [\n    70,\n    5\n   ]", "dtype or shape differ from sidecar" },
  { "\"tensor\" : \"block.inner.scale\"", "\"tensor\" : \"nothing\"", "module 'block.inner' parameter 'scale': refers to unknown tensor 'nothing'" },
  { "\"stats\",", "\"tied\",", "module 'block': attribute 'tied' already exists" },
  { "\"scale\",", "\"sc.ale\",", "invalid attribute name 'sc.ale'" },
  { "\"kwargs\" : [", "\"kwargz\" : [", "unknown member 'kwargz'" },
  { KWARGS_AT, "\"kwargs\" : [[\"alpha\", 1], [\"alpha\"", "duplicate key 'alpha'" },
  { KWARGS_AT, "\"kwargs\" : [[1, 1], [\"alpha\"", "invalid key" },
  { ARGS_AT, "\"args\" : [[1], {\"node\" : \"act\"", "a bare array is not a value" },
  { ARGS_AT, "\"args\" : [{\"tuple\": [1], \"list\": []}, {\"node\" : \"act\"", "exactly one member" },
  { ARGS_AT, "\"args\" : [{\"frob\": \"x\"}, {\"node\" : \"act\"", "unknown value tag 'frob'" },
  { ARGS_AT, "\"args\" : [{\"device\": \"cpu:\"}, {\"node\" : \"act\"", "invalid device 'cpu:'" },
  { ARGS_AT, "\"args\" : [{\"float\": \"big\"}, {\"node\" : \"act\"", "invalid float" },
  { ARGS_AT, "\"args\" : [{\"op\": \"torch.frobnicate\"}, {\"node\" : \"act\"", "unknown op 'torch.frobnicate'" },
  { ARGS_AT, "\"args\" : [{\"slice\": [1, 2]}, {\"node\" : \"act\"", "a slice needs [start, stop, step]" },
  { "\"op\" : \"output\",\n   \"target\" : \"output\",\n   \"args\" : [", "\"op\" : \"output\",\n   \"target\" : \"output\",\n   \"args\" : [1, ", "output takes exactly one argument" },
  { "\"op\" : \"get_attr\",\n   \"target\" : \"block.inner.scale\",\n   \"args\" : [", "\"op\" : \"get_attr\",\n   \"target\" : \"block.inner.scale\",\n   \"args\" : [1", "get_attr takes no arguments" },
  { META_AT, "\"meta\" : [[\"m\", {\"node\": \"x\"}], [\"tensor_meta\"", "refers to node 'x' outside node arguments" },
  { "\"sha256\" : \"", "\"sha256\" : \"0", "checksum mismatch" },
  { "\"file\" : \"net.fxg.safetensors\"", "\"file\" : \"../net.fxg.safetensors\"", "sidecar: invalid file name" },
  { "\"zoom\" : 1.25", "\"zoom\" : -1", "editor: zoom is not a positive number" },
  { "\"scroll\" : [", "\"scroll\" : [1, ", "editor: scroll is not [x, y]" },
  { "\"add\" : [", "\"sub\" : [", "editor: position of unknown node 'sub'" },
  { "\"add\" : [", "\"add\" : [\"a\", ", "editor: position of node 'add' is not [x, y]" },
  { "\"class_name\" : \"GraphModule\"", "\"class_name\" : \"Other\"", "class_name differs" },
  { "\"editor\" : {", "\"editor\" : 3, \"x\": {", "unknown member 'x'" },
};

static void
test_validation (void)
{
  Doc d = sample_doc ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) ok = fx_fxg_from_data (d.text, strlen (d.text), d.sidecar, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (ok);
  for (guint i = 0; i < G_N_ELEMENTS (mutations); i++)
    {
      g_autofree char *text = replace_once (d.text, mutations[i].from, mutations[i].to);
      if (*mutations[i].error == '\0')
        {
          /* get_attr of a module: legal in torch.fx */
          g_autoptr (FxGraphModule) gm = fx_fxg_from_data (text, strlen (text), d.sidecar, NULL, &error);
          g_assert_no_error (error);
          g_assert_nonnull (gm);
          continue;
        }
      expect_error (text, d.sidecar, mutations[i].error);
    }
  /* a missing sidecar, a sidecar whose offsets are wrong (with a matching checksum), deep
   * nesting, not JSON, not UTF-8 */
  expect_error (d.text, NULL, "sidecar 'net.fxg.safetensors': missing");
  {
    gsize len;
    const guint8 *orig = g_bytes_get_data (d.sidecar, &len);
    guint8 *bad = g_memdup2 (orig, len);
    g_autoptr (GBytes) bad_bytes = NULL;
    g_autofree char *sum = NULL, *old_sum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, d.sidecar);
    g_autofree char *text = NULL;
    char *at = g_strstr_len ((char *) bad + 8, (gssize) len - 8, "\"data_offsets\":[0,");
    g_assert_nonnull (at);
    at[16] = '8';
    bad_bytes = g_bytes_new_take (bad, len);
    sum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bad_bytes);
    text = replace_once (d.text, old_sum, sum);
    expect_error (text, bad_bytes, "sidecar 'net.fxg.safetensors': safetensors: tensor");
  }
  {
    GString *deep = g_string_new ("{\"format\": \"fxg\", \"version\": 1, \"x\": ");
    for (int i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    expect_error (deep->str, NULL, "nests deeper");
    g_string_free (deep, TRUE);
  }
  expect_error ("{\"format\": \"fxg\", \"version\": 1,", NULL, "invalid JSON");
  expect_error ("[1]", NULL, "not a JSON object");
  expect_error ("{\"format\": \"fxg\", \"version\": 1, \"nodes\": []}", NULL, "module '': not an object");
  expect_error ("\xff\xfe", NULL, "not valid UTF-8");
  g_assert_null (fx_fxg_load ("/nonexistent/x.fxg", NULL, &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_IO);
  doc_clear (&d);
}

/* A graph that cannot be saved: a call_function target outside the registry. */
static void
test_save_errors (void)
{
  g_autoptr (FxGraphModule) gm = sample_gm ();
  g_autoptr (GError) error = NULL;
  FxNode *add = fx_graph_find_node_by_name (gm->graph, "add");
  FxValue obj_arg = fx_value_module (gm->module);
  g_autofree char *text = NULL;

  fx_node_update_kwarg (add, "alpha", &obj_arg);
  fx_value_clear (&obj_arg);
  text = fx_fxg_to_data (gm, NULL, NULL, NULL, &error);
  g_assert_null (text);
  g_assert_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED);
  g_assert_nonnull (strstr (error->message, "node 'add'"));
}

/* ------------------------------------------------------------------ robustness */

static void
test_corrupt_documents (void)
{
  Doc d = sample_doc ();
  gsize len = strlen (d.text);
  char *copy = g_strdup (d.text);
  guint loaded = 0;

  for (gsize cut = 0; cut < len; cut += 3)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FxGraphModule) gm = fx_fxg_from_data (d.text, cut, d.sidecar, NULL, &error);
      g_assert_null (gm);
      g_assert_nonnull (error);
    }
  for (gsize at = 0; at < len; at++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FxGraphModule) gm = NULL;
      copy[at] ^= (char) (1u << (at % 7));
      gm = fx_fxg_from_data (copy, len, d.sidecar, NULL, &error);
      if (gm != NULL)
        {
          loaded++;
          g_assert_true (fx_graph_lint (gm->graph, NULL));
        }
      else
        g_assert_nonnull (error);
      copy[at] = d.text[at];
    }
  g_test_message ("%u of %" G_GSIZE_FORMAT " bit flips still load (and lint)", loaded, len);
  g_free (copy);
  doc_clear (&d);
}

/* ------------------------------------------------------------------ safetensors */

static void
test_safetensors (void)
{
  FxDict *tensors = fx_dict_new (), *back;
  g_autoptr (GHashTable) meta = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) meta_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  int64_t shape[] = { 3, 5 };
  gsize len;
  const guint8 *data;
  guint8 *copy;

  for (int d = 0; d < FX_DTYPE_N; d++)
    fx_dict_set (tensors, fx_value_str (fx_dtype_name (d)), fx_value_take_tensor (ramp (d, 2, shape, 1)));
  {
    g_autoptr (FxTensor) base = ramp (FX_DTYPE_FLOAT32, 2, shape, 0.25);
    fx_dict_set (tensors, fx_value_str ("transposed"), fx_value_take_tensor (fx_tensor_t (base, NULL)));
    fx_dict_set (tensors, fx_value_str ("scalar"), fx_value_take_tensor (fx_tensor_scalar_double (FX_DTYPE_FLOAT64, 4)));
    fx_dict_set (tensors, fx_value_str ("empty"), fx_value_take_tensor (fx_tensor_zeros (FX_DTYPE_INT32, 1, (int64_t[]) { 0 })));
  }
  g_hash_table_insert (meta, "format", "pt");
  bytes = fx_safetensors_serialize (tensors, meta, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpuint ((8 + GUINT64_FROM_LE (*(guint64 *) data)) % 8, ==, 0);
  back = fx_safetensors_deserialize (bytes, &meta_back, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (meta_back, "format"), ==, "pt");
  g_assert_cmpuint (fx_dict_len (back), ==, fx_dict_len (tensors));
  for (guint i = 0; i < fx_dict_len (tensors); i++)
    {
      const FxValue *k, *v, *w;
      fx_dict_entry (tensors, i, &k, &v);
      w = fx_dict_get (back, k);
      g_assert_nonnull (w);
      g_assert_cmpint (v->tensor->dtype, ==, w->tensor->dtype);
      g_assert_true (fx_tensor_same_shape (v->tensor, w->tensor));
      for (int64_t j = 0; j < fx_tensor_numel (v->tensor); j++)
        g_assert_cmpfloat (fx_tensor_get_double (v->tensor, j), ==, fx_tensor_get_double (w->tensor, j));
    }
  fx_dict_unref (back);

  /* every truncation fails; bit flips never crash */
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr (GBytes) b = g_bytes_new_static (data, cut);
      g_autoptr (GError) e = NULL;
      g_assert_null (fx_safetensors_deserialize (b, NULL, &e));
      g_assert_nonnull (e);
    }
  copy = g_memdup2 (data, len);
  for (gsize at = 0; at < len; at++)
    {
      g_autoptr (GBytes) b = NULL;
      g_autoptr (GError) e = NULL;
      FxDict *r;
      copy[at] ^= (guint8) (1u << (at % 8));
      b = g_bytes_new_static (copy, len);
      r = fx_safetensors_deserialize (b, NULL, &e);
      if (r)
        fx_dict_unref (r);
      else
        g_assert_nonnull (e);
      copy[at] = data[at];
    }
  g_free (copy);

  /* hand-made headers */
  {
    static const char *const bad[] = {
      "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}",   /* size mismatch */
      "{\"a\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[0,4]}}",  /* dtype */
      "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[1,3]}}",    /* hole */
      "{\"a\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0,8]}}",
      "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}",    /* data left over */
      "{\"__metadata__\":{\"k\":1}}",
      "{\"a\":{\"dtype\":\"U8\",\"shape\":[-1],\"data_offsets\":[0,8]}}",
      "{\"a\":{\"dtype\":\"U8\",\"shape\":[4611686018427387904,4],\"data_offsets\":[0,8]}}",
      "[]",
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        GByteArray *a = g_byte_array_new ();
        guint64 hl = GUINT64_TO_LE (strlen (bad[i]));
        g_autoptr (GBytes) b = NULL;
        g_autoptr (GError) e = NULL;
        g_byte_array_append (a, (const guint8 *) &hl, 8);
        g_byte_array_append (a, (const guint8 *) bad[i], (guint) strlen (bad[i]));
        g_byte_array_append (a, (const guint8 *) "01234567", 8);
        b = g_byte_array_free_to_bytes (a);
        g_assert_null (fx_safetensors_deserialize (b, NULL, &e));
        g_assert_error (e, FX_ERROR, FX_ERROR_PARSE);
        g_test_message ("%s", e->message);
      }
  }
  fx_dict_unref (tensors);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  fx_ops_init ();
  g_test_add_func ("/fxg/round-trip-file", test_round_trip_file);
  g_test_add_func ("/fxg/validation", test_validation);
  g_test_add_func ("/fxg/save-errors", test_save_errors);
  g_test_add_func ("/fxg/corrupt-documents", test_corrupt_documents);
  g_test_add_func ("/fxg/safetensors", test_safetensors);
  return g_test_run ();
}
