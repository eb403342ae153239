/* test-to-folder.c: fx_graph_module_to_folder — module.py byte for byte what torch.fx 1.13's
 * to_folder writes (goldens/to_folder.json, gen_to_folder.py) for GraphModules with safe
 * reprs; nested containers rebuilt without pickles; weights readable back; errors.
 * With FX_TO_FOLDER_OUT=DIR it also leaves DIR/safe and DIR/nested for check_to_folder.py,
 * which imports and runs them with real PyTorch. */
#include <fx.h>
#include <ops/layers.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>

static FxValue
tuple_of (int n, FxNode **nodes)
{
  FxSeq *seq = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    seq->items[i] = fx_value_node (nodes[i]);
  return fx_value_take_tuple (seq);
}

static FxNode *
call (FxGraph *g, FxNodeOp op, const char *target, int n, FxNode **args)
{
  FxValue a = tuple_of (n, args), t;
  FxNode *node;
  if (op == FX_OP_CALL_FUNCTION)
    t = fx_value_op (fx_op_lookup (target));
  else
    t = fx_value_str (target);
  node = fx_graph_create_node (g, op, &t, &a, NULL, NULL, NULL, NULL);
  g_assert_nonnull (node);
  fx_value_clear (&t);
  fx_value_clear (&a);
  return node;
}

static FxModule *
layer (const char *type, int n, const int64_t *ints, FxDict *kwargs)
{
  FxValue args[4];
  g_autoptr (GError) error = NULL;
  FxModule *m;
  for (int i = 0; i < n; i++)
    args[i] = fx_value_int (ints[i]);
  m = fx_layer_new (type, args, n, kwargs, &error);
  g_assert_no_error (error);
  return m;
}

/* gen_to_folder.py's build_safe, in C. */
static FxGraphModule *
build_safe (void)
{
  g_autoptr (FxModule) root = fx_module_new ("Module");
  g_autoptr (FxGraph) g = fx_graph_new ();
  FxDict *kw = fx_dict_new ();
  int64_t conv_args[] = { 1, 2, 3 }, bn_args[] = { 2 }, lin_args[] = { 3, 4 }, four[] = { 4 };
  FxModule *conv, *bn, *lin;
  FxNode *x, *y, *n[8];
  g_autoptr (FxTensor) ones = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, four);
  g_autoptr (FxTensor) zeros = fx_tensor_zeros (FX_DTYPE_FLOAT32, 1, four);
  g_autoptr (GError) error = NULL;
  FxGraphModule *gm;

  fx_dict_set (kw, fx_value_str ("stride"), fx_value_int (2));
  conv = layer ("Conv2d", 3, conv_args, kw);
  fx_dict_unref (kw);
  bn = layer ("BatchNorm2d", 1, bn_args, NULL);
  lin = layer ("Linear", 2, lin_args, NULL);
  fx_module_add_module (root, "conv", conv);
  fx_module_add_module (root, "bn", bn);
  fx_module_add_module (root, "lin", lin);
  fx_module_unref (conv);
  fx_module_unref (bn);
  fx_module_unref (lin);
  fx_module_register_buffer (root, "buf", ones, TRUE);
  fx_module_register_parameter (root, "p", zeros);

  x = fx_graph_placeholder (g, "x", NULL, NULL);
  y = fx_graph_placeholder (g, "y", NULL, NULL);
  n[0] = call (g, FX_OP_CALL_MODULE, "conv", 1, &y);
  n[1] = call (g, FX_OP_CALL_MODULE, "bn", 1, &n[0]);
  n[2] = call (g, FX_OP_CALL_MODULE, "lin", 1, &x);
  n[3] = call (g, FX_OP_CALL_FUNCTION, "torch.relu", 1, &n[2]);
  n[4] = fx_graph_get_attr (g, "p", NULL);
  n[5] = fx_graph_get_attr (g, "buf", NULL);
  {
    FxNode *mul_args[] = { n[5], n[4] };
    n[6] = call (g, FX_OP_CALL_FUNCTION, "operator.mul", 2, mul_args);
  }
  {
    FxNode *add_args[] = { n[3], n[6] };
    n[7] = call (g, FX_OP_CALL_FUNCTION, "operator.add", 2, add_args);
  }
  {
    FxNode *s = call (g, FX_OP_CALL_METHOD, "sum", 1, &n[1]);
    FxNode *add_args[] = { n[7], s };
    FxNode *add1 = call (g, FX_OP_CALL_FUNCTION, "operator.add", 2, add_args);
    FxValue out = fx_value_node (add1);
    fx_graph_output (g, &out, NULL);
  }
  gm = fx_graph_module_new (root, g, "GraphModule", &error);
  g_assert_no_error (error);
  return gm;
}

/* gen_to_folder.py's build_nested, plus a non-persistent buffer in the plain submodule. */
static FxGraphModule *
build_nested (void)
{
  g_autoptr (FxModule) root = fx_module_new ("Module");
  g_autoptr (FxModule) seq = NULL;
  g_autoptr (FxModule) block = fx_module_new ("Module");
  g_autoptr (FxGraph) g = fx_graph_new ();
  FxDict *kw = fx_dict_new ();
  int64_t conv_args[] = { 2, 2, 3 }, pool_args[] = { 2 }, one[] = { 1 };
  FxValue children[2];
  g_autoptr (FxTensor) scale = fx_tensor_ones (FX_DTYPE_FLOAT32, 1, one);
  g_autoptr (FxTensor) np = fx_tensor_full (FX_DTYPE_FLOAT32, 1, one, 0.5);
  g_autoptr (FxModule) pool = layer ("MaxPool2d", 1, pool_args, NULL);
  g_autoptr (GError) error = NULL;
  FxNode *x, *c, *r, *p, *s, *m, *npn, *add;
  FxValue out;
  FxGraphModule *gm;

  fx_dict_set (kw, fx_value_str ("padding"), fx_value_int (1));
  children[0] = fx_value_take_object (&layer ("Conv2d", 3, conv_args, kw)->parent);
  children[1] = fx_value_take_object (&layer ("ReLU", 0, NULL, NULL)->parent);
  fx_dict_unref (kw);
  seq = fx_layer_new ("Sequential", children, 2, NULL, &error);
  g_assert_no_error (error);
  fx_value_clear (&children[0]);
  fx_value_clear (&children[1]);
  fx_module_add_module (root, "layer1", seq);
  fx_module_add_module (root, "pool", pool);
  fx_module_add_module (root, "block", block);
  fx_module_register_parameter (block, "scale", scale);
  fx_module_register_buffer (block, "np", np, FALSE);

  x = fx_graph_placeholder (g, "x", NULL, NULL);
  c = call (g, FX_OP_CALL_MODULE, "layer1.0", 1, &x);
  r = call (g, FX_OP_CALL_MODULE, "layer1.1", 1, &c);
  p = call (g, FX_OP_CALL_MODULE, "pool", 1, &r);
  s = fx_graph_get_attr (g, "block.scale", NULL);
  {
    FxNode *a[] = { p, s };
    m = call (g, FX_OP_CALL_FUNCTION, "operator.mul", 2, a);
  }
  npn = fx_graph_get_attr (g, "block.np", NULL);
  {
    FxNode *a[] = { npn, npn };
    add = call (g, FX_OP_CALL_FUNCTION, "operator.sub", 2, a);     /* 0, keeps the result */
  }
  {
    FxNode *a[] = { m, add };
    add = call (g, FX_OP_CALL_FUNCTION, "operator.add", 2, a);
  }
  out = fx_value_node (add);
  fx_graph_output (g, &out, NULL);
  gm = fx_graph_module_new (root, g, "GraphModule", &error);
  g_assert_no_error (error);
  /* GraphModule made block a plain Module holding what the graph uses; keep np non-persistent */
  {
    FxModule *b = fx_module_get_submodule (gm->module, "block", NULL);
    g_assert_nonnull (b);
    fx_module_register_buffer (b, "np", np, FALSE);
  }
  return gm;
}

static char *
read_text (const char *dir, const char *file)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static char *
replace_all (const char *text, const char *from, const char *to)
{
  g_auto (GStrv) parts = g_strsplit (text, from, -1);
  return g_strjoinv (to, parts);
}

static void
remove_folder (const char *dir)
{
  const char *files[] = { "module.py", "__init__.py", "state_dict.pt" };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *p = g_build_filename (dir, files[i], NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

static void
write_for_check (FxGraphModule *gm, const char *name)
{
  const char *out = g_getenv ("FX_TO_FOLDER_OUT");
  g_autofree char *dir = NULL;
  g_autoptr (GError) error = NULL;

  if (out == NULL)
    return;
  dir = g_build_filename (out, name, NULL);
  g_assert_true (fx_graph_module_to_folder (gm, dir, "MyModel", &error));
  g_assert_no_error (error);
}

static void
test_safe_golden (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *golden = g_test_build_filename (G_TEST_DIST, "conformance", "goldens", "to_folder.json", NULL);
  g_autoptr (FxGraphModule) gm = build_safe ();
  g_autofree char *tmp = g_dir_make_tmp ("fx-folder-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "out", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *module_py = NULL, *masked = NULL, *init_py = NULL, *sd_path = NULL;
  JsonObject *c;
  JsonArray *keys;
  FxDict *sd;

  g_assert_true (json_parser_load_from_file (parser, golden, NULL));
  c = json_array_get_object_element (json_object_get_array_member (
        json_node_get_object (json_parser_get_root (parser)), "cases"), 0);
  g_assert_cmpstr (json_object_get_string_member (c, "id"), ==, "safe");

  g_assert_true (fx_graph_module_to_folder (gm, dir, "MyModel", &error));
  g_assert_no_error (error);
  module_py = read_text (dir, "module.py");
  masked = replace_all (module_py, dir, "FOLDER");
  g_assert_cmpstr (masked, ==, json_object_get_string_member (c, "module_py"));
  init_py = read_text (dir, "__init__.py");
  g_assert_cmpstr (init_py, ==, json_object_get_string_member (c, "init_py"));
  /* state_dict.pt holds state_dict() — detached tensors — in torch's order */
  sd_path = g_build_filename (dir, "state_dict.pt", NULL);
  sd = fx_checkpoint_load (sd_path, &error);
  g_assert_no_error (error);
  keys = json_object_get_array_member (c, "state_dict");
  g_assert_cmpuint (fx_dict_len (sd), ==, json_array_get_length (keys));
  for (guint i = 0; i < json_array_get_length (keys); i++)
    {
      const FxValue *k, *v;
      fx_dict_entry (sd, i, &k, &v);
      g_assert_cmpstr (k->s->data, ==, json_array_get_string_element (keys, i));
      g_assert_false (v->tensor->requires_grad);
    }
  fx_dict_unref (sd);
  remove_folder (dir);
  g_rmdir (tmp);
  write_for_check (gm, "safe");
}

static void
test_nested (void)
{
  g_autoptr (FxGraphModule) gm = build_nested ();
  g_autofree char *tmp = g_dir_make_tmp ("fx-folder-XXXXXX", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *module_py = NULL;
  static const char *const expected[] = {
    "        self.layer1 = torch.nn.Module()\n"
    "        self.layer1.add_module('0', Conv2d(2, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)))\n"
    "        self.layer1.add_module('1', ReLU())\n"
    "        self.pool = MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)\n"
    "        self.block = torch.nn.Module()\n"
    "        self.block.register_buffer('np', torch.empty([1], dtype=torch.float32))\n"
    "        self.block.register_parameter('scale', torch.nn.Parameter(torch.empty([1], dtype=torch.float32)))\n",
    "        self.block.register_buffer('np', self.block.np, persistent=False)\n",
  };

  g_assert_true (fx_graph_module_to_folder (gm, tmp, "MyModel", &error));
  g_assert_no_error (error);
  module_py = read_text (tmp, "module.py");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (strstr (module_py, expected[i]) == NULL)
      g_error ("module.py lacks:\n%s\nin:\n%s", expected[i], module_py);
  /* no pickled module: the only torch.load is the state dict's */
  g_assert_null (strstr (module_py, ".pt') # "));
  remove_folder (tmp);
  write_for_check (gm, "nested");
}

static void
test_errors (void)
{
  g_autoptr (FxGraphModule) gm = build_safe ();
  g_autoptr (GError) error = NULL;
  FxModule *lin = fx_module_get_submodule (gm->module, "lin", NULL);

  g_assert_false (fx_graph_module_to_folder (gm, "/tmp/x", "not a name", &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (fx_graph_module_to_folder (gm, "/proc/fx-no/such", "M", &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_IO);
  g_clear_error (&error);
  /* a called module that is no builtin layer cannot be rebuilt */
  lin->layer = NULL;
  g_free (lin->type_name);
  lin->type_name = g_strdup ("MyBlock");
  g_assert_false (fx_graph_module_to_folder (gm, "/tmp/fx-never-written", "M", &error));
  g_assert_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED);
  g_assert_nonnull (strstr (error->message, "'lin' of type 'MyBlock'"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  fx_ops_init ();
  g_test_add_func ("/to-folder/safe-golden", test_safe_golden);
  g_test_add_func ("/to-folder/nested", test_nested);
  g_test_add_func ("/to-folder/errors", test_errors);
  return g_test_run ();
}
