/* test-trace.c: the C entry points of symbolic tracing (trace/trace.h) — the candidates of a
 * model file, tracing an instance, a class and a function, concrete args, extra leaf modules,
 * a C tracer's is_leaf_module hook (trace/tracer.h),
 * errors with their source location, --concrete literals. Expected code is what
 * /usr/bin/python3 with torch 1.13 prints for symbolic_trace(...).code of the same model. */
#include <fx.h>
#include "trace/trace.h"
#include "trace/tracer.h"
#include "ir/fxg.h"

#include <glib/gstdio.h>

#include <string.h>

static char *tmp_dir;

/* The model file every test traces; `net` is an instance, Net and Sized classes (Sized needs
 * an argument), double_add a function. Its __main__ block must not run. */
static const char model_source[] =
  "import math\n"
  "import torch\n"
  "import torch.nn as nn\n"
  "\n"
  "\n"
  "class Block(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.lin = nn.Linear(4, 4)\n"
  "\n"
  "    def forward(self, x):\n"
  "        return torch.relu(self.lin(x)) + x\n"
  "\n"
  "\n"
  "class Net(nn.Module):\n"
  "    def __init__(self, hidden=3):\n"
  "        super().__init__()\n"
  "        self.block = Block()\n"
  "        self.fc = nn.Linear(4, hidden)\n"
  "        self.register_buffer('scale', torch.ones(hidden))\n"
  "\n"
  "    def forward(self, x, flag=True):\n"
  "        x = self.block(x)\n"
  "        if flag:\n"
  "            return torch.relu(self.fc(x)) * self.scale\n"
  "        return self.fc(x).sum(dim=-1)\n"
  "\n"
  "\n"
  "class Sized(nn.Module):\n"
  "    def __init__(self, n):\n"
  "        super().__init__()\n"
  "        self.n = n\n"
  "\n"
  "    def forward(self, x):\n"
  "        return x * self.n\n"
  "\n"
  "\n"
  "def double_add(x, y):\n"
  "    return x + y * 2\n"
  "\n"
  "\n"
  "net = Net()\n"
  "helper = math.sqrt\n"
  "if __name__ == '__main__':\n"
  "    raise SystemExit('the __main__ block ran')\n";

/* torch.fx.symbolic_trace(...).code */
static const char expected_instance[] =
  "\n"
  "\n"
  "\n"
  "def forward(self, x, flag_1 = True):\n"
  "    eq = flag_1 == True;  flag_1 = None\n"
  "    _assert = torch._assert(eq, 'flag has been specialized to have value True but got another value');  eq = None\n"
  "    block_lin = self.block.lin(x)\n"
  "    relu = torch.relu(block_lin);  block_lin = None\n"
  "    add = relu + x;  relu = x = None\n"
  "    fc = self.fc(add);  add = None\n"
  "    relu_1 = torch.relu(fc);  fc = None\n"
  "    scale = self.scale\n"
  "    mul = relu_1 * scale;  relu_1 = scale = None\n"
  "    return mul\n"
  "    ";

/* torch.fx.symbolic_trace(...).code */
static const char expected_class[] =
  "\n"
  "\n"
  "\n"
  "def forward(self, x, flag_1 = True):\n"
  "    eq = flag_1 == False;  flag_1 = None\n"
  "    _assert = torch._assert(eq, 'flag has been specialized to have value False but got another value');  eq = None\n"
  "    block_lin = self.block.lin(x)\n"
  "    relu = torch.relu(block_lin);  block_lin = None\n"
  "    add = relu + x;  relu = x = None\n"
  "    fc = self.fc(add);  add = None\n"
  "    sum_1 = fc.sum(dim = -1);  fc = None\n"
  "    return sum_1\n"
  "    ";

/* torch.fx.symbolic_trace(...).code */
static const char expected_function[] =
  "\n"
  "\n"
  "\n"
  "def forward(self, x, y):\n"
  "    mul = y * 2;  y = None\n"
  "    add = x + mul;  x = mul = None\n"
  "    return add\n"
  "    ";

/* torch.fx.symbolic_trace(...).code */
static const char expected_leaf[] =
  "\n"
  "\n"
  "\n"
  "def forward(self, x, flag_1 = True):\n"
  "    eq = flag_1 == True;  flag_1 = None\n"
  "    _assert = torch._assert(eq, 'flag has been specialized to have value True but got another value');  eq = None\n"
  "    block = self.block(x);  x = None\n"
  "    fc = self.fc(block);  block = None\n"
  "    relu = torch.relu(fc);  fc = None\n"
  "    scale = self.scale\n"
  "    mul = relu * scale;  relu = scale = None\n"
  "    return mul\n"
  "    ";

/* str(symbolic_trace(double_add).graph) */
static const char expected_function_graph[] =
  "graph():\n"
  "    %x : [#users=1] = placeholder[target=x]\n"
  "    %y : [#users=1] = placeholder[target=y]\n"
  "    %mul : [#users=1] = call_function[target=operator.mul](args = (%y, 2), kwargs = {})\n"
  "    %add : [#users=1] = call_function[target=operator.add](args = (%x, %mul), kwargs = {})\n"
  "    return add";

static char *
write_file (const char *name, const char *contents)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static char *
model_path (void)
{
  return write_file ("model.py", model_source);
}

static const FxTraceCandidate *
find_candidate (GPtrArray *list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    {
      const FxTraceCandidate *c = list->pdata[i];
      if (strcmp (c->name, name) == 0)
        return c;
    }
  return NULL;
}

static void
test_candidates (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) list = fx_trace_list_candidates (path, &error);
  const FxTraceCandidate *c;

  g_assert_no_error (error);
  g_assert_nonnull (list);
  /* module order; imported names (nn, torch, math.sqrt) are not candidates */
  g_assert_cmpuint (list->len, ==, 5);
  g_assert_cmpstr (((FxTraceCandidate *) list->pdata[0])->name, ==, "Block");
  g_assert_cmpstr (((FxTraceCandidate *) list->pdata[4])->name, ==, "net");
  g_assert_null (find_candidate (list, "helper"));
  g_assert_null (find_candidate (list, "nn"));

  c = find_candidate (list, "Net");
  g_assert_nonnull (c);
  g_assert_cmpint (c->kind, ==, FX_TRACE_CANDIDATE_CLASS);
  g_assert_true (c->constructible);      /* hidden=3 has a default */
  g_assert_cmpint (c->line, ==, 15);

  c = find_candidate (list, "Sized");
  g_assert_nonnull (c);
  g_assert_cmpint (c->kind, ==, FX_TRACE_CANDIDATE_CLASS);
  g_assert_false (c->constructible);
  g_assert_cmpint (c->line, ==, 29);

  c = find_candidate (list, "double_add");
  g_assert_nonnull (c);
  g_assert_cmpint (c->kind, ==, FX_TRACE_CANDIDATE_FUNCTION);
  g_assert_cmpint (c->line, ==, 38);

  c = find_candidate (list, "net");
  g_assert_nonnull (c);
  g_assert_cmpint (c->kind, ==, FX_TRACE_CANDIDATE_INSTANCE);
  g_assert_cmpstr (c->type_name, ==, "Net");
  g_assert_cmpint (c->line, ==, 42);
}

static FxDict *
flag_args (gboolean flag)
{
  FxDict *d = fx_dict_new ();
  fx_dict_set (d, fx_value_str ("flag"), fx_value_bool (flag));
  return d;
}

static void
test_instance (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  FxDict *args = flag_args (TRUE);
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "net", args, NULL, &error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  const char *const state_keys[] = { "scale", "block.lin.weight", "block.lin.bias",
                                     "fc.weight", "fc.bias" };
  const char *const module_names[] = { "", "block", "block.lin", "fc" };
  FxDict *state;
  const FxValue *k, *v;

  fx_dict_unref (args);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_cmpstr (gm->code, ==, expected_instance);
  g_assert_cmpstr (gm->module->type_name, ==, "Net");

  /* gm.state_dict().keys() and gm.named_modules() of torch 1.13 */
  state = fx_module_state_dict (gm->module);
  g_assert_cmpuint (fx_dict_len (state), ==, G_N_ELEMENTS (state_keys));
  for (guint i = 0; fx_dict_entry (state, i, &k, &v); i++)
    {
      g_assert_cmpstr (k->s->data, ==, state_keys[i]);
      g_assert_cmpint (v->kind, ==, FX_VALUE_TENSOR);
    }
  fx_dict_unref (state);
  fx_module_named_modules (gm->module, names, modules);
  g_assert_cmpuint (names->len, ==, G_N_ELEMENTS (module_names));
  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (names->pdata[i], ==, module_names[i]);
  g_assert_cmpstr (((FxModule *) modules->pdata[3])->type_name, ==, "Linear");
  g_assert_nonnull (((FxModule *) modules->pdata[3])->layer);
  /* no pointers back into the interpreter that traced it */
  for (guint i = 0; i < modules->len; i++)
    g_assert_null (((FxModule *) modules->pdata[i])->impl);
}

/* A class is constructed with no arguments; concrete_args specialize `flag`. */
static void
test_class_with_concrete_args (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  FxDict *args = flag_args (FALSE);
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "Net", args, NULL, &error);

  fx_dict_unref (args);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_cmpstr (gm->code, ==, expected_class);
  g_assert_cmpstr (gm->module->type_name, ==, "Net");
}

static void
test_function (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "double_add", NULL, NULL, &error);
  g_autofree char *graph = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_cmpstr (gm->code, ==, expected_function);
  g_assert_cmpstr (gm->module->type_name, ==, "double_add");
  graph = fx_graph_to_string (gm->graph);
  g_assert_cmpstr (graph, ==, expected_function_graph);
}

static void
test_extra_leaf_modules (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  const char *const leaves[] = { "Block", NULL };
  FxDict *args = flag_args (TRUE);
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "net", args, leaves, &error);
  FxModule *block;   /* borrowed */

  fx_dict_unref (args);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_cmpstr (gm->code, ==, expected_leaf);
  block = fx_module_get_submodule (gm->module, "block", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (block->type_name, ==, "Block");
}

/* A C tracer (trace/tracer.h) whose is_leaf_module keeps Block a leaf, as a script subclass
 * overriding is_leaf_module would: the graph calls self.block, like expected_leaf. */
typedef struct {
  FxTracer parent;
  GPtrArray *asked;              /* "qualified_name:class_name:default_answer" */
} LeafBlockTracer;

static gboolean
leaf_block_is_leaf (FxTracer *tracer, const char *class_name, const char *class_module,
                    const char *qualified_name, gboolean default_answer)
{
  LeafBlockTracer *self = (LeafBlockTracer *) tracer;
  g_ptr_array_add (self->asked, g_strdup_printf ("%s:%s:%d", qualified_name, class_name,
                                                 default_answer));
  return default_answer || strcmp (class_name, "Block") == 0;
}

static const FxTracerClass leaf_block_class = { .is_leaf_module = leaf_block_is_leaf };

static void
test_c_tracer_hook (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) asked = g_ptr_array_new_with_free_func (g_free);
  LeafBlockTracer tracer = { { &leaf_block_class, NULL }, asked };
  FxDict *args = flag_args (TRUE);
  g_autoptr (FxGraphModule) gm = fx_tracer_trace_file (&tracer.parent, path, "net", args, &error);

  fx_dict_unref (args);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_cmpstr (gm->code, ==, expected_leaf);
  /* asked about block (not a leaf by default) and fc (a torch.nn leaf); block.lin never,
   * since block was not traced through */
  g_assert_cmpuint (asked->len, ==, 2);
  g_assert_cmpstr (asked->pdata[0], ==, "block:Block:0");
  g_assert_cmpstr (asked->pdata[1], ==, "fc:Linear:1");
}

/* The document of a traced model saves and loads back to the same code. */
static void
test_fxg_round_trip (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  FxDict *args = flag_args (TRUE);
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "net", args, NULL, &error);
  g_autoptr (FxGraphModule) back = NULL;
  g_autoptr (GBytes) sidecar = NULL;
  g_autofree char *data = NULL;

  fx_dict_unref (args);
  g_assert_no_error (error);
  data = fx_fxg_to_data (gm, NULL, "model.fxg.safetensors", &sidecar, &error);
  g_assert_no_error (error);
  back = fx_fxg_from_data (data, strlen (data), sidecar, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->code, ==, expected_instance);
}

static void
test_trace_error_location (void)
{
  g_autofree char *path = model_path ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "net", NULL, NULL, &error);
  g_autofree char *file = NULL;
  g_autofree char *expected_file = g_canonicalize_filename (path, NULL);
  int line = 0;

  g_assert_null (gm);
  g_assert_error (error, FX_ERROR, FX_ERROR_TRACE);
  g_assert_true (g_str_has_prefix (error->message, "Traceback (most recent call last):\n"));
  g_assert_true (g_str_has_suffix (error->message,
    "torch.fx.proxy.TraceError: symbolically traced variables cannot be used as inputs to "
    "control flow"));
  g_assert_null (strstr (error->message, "<fx trace>"));
  g_assert_true (fx_trace_error_location (error, path, &file, &line));
  g_assert_cmpstr (file, ==, expected_file);
  g_assert_cmpint (line, ==, 24);    /* `if flag:` in Net.forward */
  g_clear_pointer (&file, g_free);
  /* without a path: the innermost frame in a file on disk, the same one here */
  g_assert_true (fx_trace_error_location (error, NULL, &file, &line));
  g_assert_cmpstr (file, ==, expected_file);
  g_assert_cmpint (line, ==, 24);
}

static void
test_syntax_error_location (void)
{
  g_autofree char *path = write_file ("broken.py",
                                      "import torch\n"
                                      "\n"
                                      "def f(x):\n"
                                      "    return (x +\n"
                                      "\n"
                                      "g = 1\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = fx_trace_file (path, "f", NULL, NULL, &error);
  g_autoptr (GPtrArray) list = NULL;
  g_autofree char *file = NULL;
  g_autofree char *expected = g_strdup_printf ("  File \"%s\", line 4\n"
                                               "    return (x +\n"
                                               "           ^\n"
                                               "SyntaxError: '(' was never closed", path);
  int line = 0;

  g_assert_null (gm);
  g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, expected);   /* python3 broken.py's report */
  g_assert_true (fx_trace_error_location (error, path, &file, &line));
  g_assert_cmpstr (file, ==, path);
  g_assert_cmpint (line, ==, 4);
  g_clear_error (&error);

  list = fx_trace_list_candidates (path, &error);
  g_assert_null (list);
  g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
}

static void
test_bad_names (void)
{
  g_autofree char *path = model_path ();
  g_autofree char *missing = g_build_filename (tmp_dir, "no-such-model.py", NULL);
  g_autoptr (GError) error = NULL;
  FxGraphModule *gm;

  gm = fx_trace_file (path, "nothing_here", NULL, NULL, &error);
  g_assert_null (gm);
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'nothing_here'"));
  g_clear_error (&error);

  gm = fx_trace_file (path, "helper", NULL, NULL, &error);
  g_assert_null (gm);
  g_assert_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Sized(n) cannot be constructed with no arguments */
  gm = fx_trace_file (path, "Sized", NULL, NULL, &error);
  g_assert_null (gm);
  g_assert_nonnull (strstr (error->message, "missing 1 required positional argument: 'n'"));
  g_clear_error (&error);

  gm = fx_trace_file (missing, "f", NULL, NULL, &error);
  g_assert_null (gm);
  g_assert_error (error, FX_ERROR, FX_ERROR_IO);
  g_assert_false (fx_trace_error_location (error, missing, NULL, NULL));
}

static void
test_parse_literal (void)
{
  const char *const good[][2] = {
    { "3", "3" }, { "-2.5", "-2.5" }, { "True", "True" }, { "None", "None" },
    { "'a b'", "'a b'" }, { "(1, [2, 3.0], 'x')", "(1, [2, 3.0], 'x')" }, { "(4,)", "(4,)" },
    { "{'k': (1, 2)}", "{'k': (1, 2)}" }, { " 7 ", "7" },
  };
  const char *const bad[] = { "foo", "1 + 2", "f(1)", "(1, x)", "", "[1, 2", "1; 2" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr (GError) error = NULL;
      g_auto (FxValue) v = { 0 };
      g_autofree char *repr = NULL;
      g_assert_true (fx_trace_parse_literal (good[i][0], &v, &error));
      g_assert_no_error (error);
      repr = fx_value_to_repr (&v);
      g_assert_cmpstr (repr, ==, good[i][1]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      FxValue v = fx_value_none ();
      g_assert_false (fx_trace_parse_literal (bad[i], &v, &error));
      g_assert_error (error, FX_ERROR, FX_ERROR_PARSE);
    }
}

/* The editor traces on worker threads: one interpreter per call, no shared state. */
static gpointer
trace_in_thread (gpointer data)
{
  const char *path = data;
  GError *error = NULL;
  gboolean ok = TRUE;
  for (int i = 0; i < 2 && ok; i++)
    {
      FxGraphModule *gm = fx_trace_file (path, "double_add", NULL, NULL, &error);
      ok = gm != NULL && strcmp (gm->code, expected_function) == 0;
      if (gm != NULL)
        fx_graph_module_unref (gm);
      g_clear_error (&error);
    }
  return GINT_TO_POINTER (ok);
}

static void
test_threads (void)
{
  g_autofree char *path = model_path ();
  GThread *threads[3];
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("trace", trace_in_thread, path);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (GPOINTER_TO_INT (g_thread_join (threads[i])));
}

static void
remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_dir_close (d);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("fx-test-trace-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/trace/candidates", test_candidates);
  g_test_add_func ("/trace/instance", test_instance);
  g_test_add_func ("/trace/class-with-concrete-args", test_class_with_concrete_args);
  g_test_add_func ("/trace/function", test_function);
  g_test_add_func ("/trace/extra-leaf-modules", test_extra_leaf_modules);
  g_test_add_func ("/trace/c-tracer-hook", test_c_tracer_hook);
  g_test_add_func ("/trace/fxg-round-trip", test_fxg_round_trip);
  g_test_add_func ("/trace/trace-error-location", test_trace_error_location);
  g_test_add_func ("/trace/syntax-error-location", test_syntax_error_location);
  g_test_add_func ("/trace/bad-names", test_bad_names);
  g_test_add_func ("/trace/parse-literal", test_parse_literal);
  g_test_add_func ("/trace/threads", test_threads);
  status = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
