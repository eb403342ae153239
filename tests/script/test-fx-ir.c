/* test-fx-ir.c: torch.fx._ir (core/script/fx-ir.c, fx-graph-module.c) — graphs built by
 * hand in scripts, printed, turned into code and run as GraphModules, compared with what
 * PyTorch 1.13 prints; and the C side of the bindings (one wrapper per node, wrappers that
 * keep their graph alive, conversions of argument trees).
 *
 * Each *_SCRIPT below was run with `/usr/bin/python3 SCRIPT.py` (PyTorch 1.13) and its
 * stdout pasted as the matching *_EXPECTED. */
#include <fx.h>
#include "script/internal.h"
#include "script/fx-ir.h"
#include <glib/gstdio.h>
#include <string.h>

static const char PRINT_SCRIPT[] =
  "import torch, torch.fx, operator\n"
  "g = torch.fx.Graph()\n"
  "x = g.placeholder('x')\n"
  "k = g.placeholder('k', default_value=3)\n"
  "a = g.call_function(operator.add, (x, k))\n"
  "s = g.call_function(operator.getitem, (a, slice(1, None)))\n"
  "r = g.call_function(torch.relu, (s,))\n"
  "m = g.call_method('sum', (r,), {'dim': -1, 'keepdim': True})\n"
  "gl = g.call_function(getattr, (m, 'shape'))\n"
  "n = g.call_function(len, (gl,))\n"
  "g.output((m, n))\n"
  "print(g)\n"
  "print(g.python_code('self').src)\n"
  "print(m.format_node())\n"
  "print(list(g.nodes), len(g.nodes))\n"
  "print(a.users, r.all_input_nodes, m.args, m.kwargs, m.target, m.op, m.name)\n"
  "try:\n"
  "    g.erase_node(a)\n"
  "except RuntimeError as e:\n"
  "    print(e)\n";

static const char PRINT_EXPECTED[] =
  "graph():\n"
  "    %x : [#users=1] = placeholder[target=x]\n"
  "    %k : [#users=1] = placeholder[target=k](default=3)\n"
  "    %add : [#users=1] = call_function[target=operator.add](args = (%x, %k), kwargs = {})\n"
  "    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%add, slice(1, None, None)), kwargs = {})\n"
  "    %relu : [#users=1] = call_function[target=torch.relu](args = (%getitem,), kwargs = {})\n"
  "    %sum_1 : [#users=2] = call_method[target=sum](args = (%relu,), kwargs = {dim: -1, keepdim: True})\n"
  "    %getattr_1 : [#users=1] = call_function[target=builtins.getattr](args = (%sum_1, shape), kwargs = {})\n"
  "    %len_1 : [#users=1] = call_function[target=builtins.len](args = (%getattr_1,), kwargs = {})\n"
  "    return (sum_1, len_1)\n"
  "\n"
  "\n"
  "\n"
  "def forward(self, x, k = 3):\n"
  "    add = x + k;  x = k = None\n"
  "    getitem = add[slice(1, None, None)];  add = None\n"
  "    relu = torch.relu(getitem);  getitem = None\n"
  "    sum_1 = relu.sum(dim = -1, keepdim = True);  relu = None\n"
  "    getattr_1 = sum_1.shape\n"
  "    len_1 = len(getattr_1);  getattr_1 = None\n"
  "    return (sum_1, len_1)\n"
  "    \n"
  "%sum_1 : [#users=2] = call_method[target=sum](args = (%relu,), kwargs = {dim: -1, keepdim: True})\n"
  "[x, k, add, getitem, relu, sum_1, getattr_1, len_1, output] 9\n"
  "{getitem: None} [getitem] (relu,) {'dim': -1, 'keepdim': True} sum call_method sum_1\n"
  "Tried to erase Node add but it still had 1 users in the graph: {getitem: None}!\n";

static const char RUN_SCRIPT[] =
  "import torch, torch.fx, operator\n"
  "def scale(t, f):\n"
  "    return t * f\n"
  "class Net(torch.nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.body = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())\n"
  "        self.register_buffer('offset', torch.tensor([1.0, 2.0, 3.0, 4.0]))\n"
  "torch.manual_seed(0)\n"
  "net = Net()\n"
  "g = torch.fx.Graph()\n"
  "x = g.placeholder('x')\n"
  "h = g.call_module('body.0', (x,))\n"
  "h = g.call_module('body.1', (h,))\n"
  "o = g.get_attr('offset')\n"
  "h = g.call_function(operator.add, (h, o))\n"
  "h = g.call_function(scale, (h, 0.5))\n"
  "g.output(h)\n"
  "gm = torch.fx.GraphModule(net, g, class_name='Scaled')\n"
  "inp = torch.ones(2, 3)\n"
  "out = gm(inp)\n"
  "print(torch.allclose(out, scale(net.body(inp) + net.offset, 0.5)), out.shape)\n"
  "print(type(gm).__name__, isinstance(gm, torch.nn.Module), gm.graph is g, g.owning_module is gm)\n"
  "print(sorted(n for n, _ in gm.named_parameters()), [n for n, _ in gm.named_buffers()])\n";

static const char RUN_EXPECTED[] =
  "True torch.Size([2, 4])\n"
  "Scaled True True True\n"
  "['body.0.bias', 'body.0.weight'] ['offset']\n";

static const char USERCODE_SCRIPT[] =
  "import torch, torch.fx\n"
  "def scale(t, f):\n"
  "    return t * f\n"
  "g = torch.fx.Graph()\n"
  "x = g.placeholder('x')\n"
  "g.output(g.call_function(scale, (x, 0.5)))\n"
  "print(g)\n"
  "print(torch.fx.GraphModule(torch.nn.Module(), g).code)\n";

static const char USERCODE_EXPECTED[] =
  "graph():\n"
  "    %x : [#users=1] = placeholder[target=x]\n"
  "    %scale : [#users=1] = call_function[target=__main__.scale](args = (%x, 0.5), kwargs = {})\n"
  "    return scale\n"
  "\n"
  "\n"
  "\n"
  "def forward(self, x):\n"
  "    scale = __main___scale(x, 0.5);  x = None\n"
  "    return scale\n"
  "    \n";

static void
collect (const char *text, gsize len, gpointer user_data)
{
  g_string_append_len (user_data, text, len);
}

static FxScript *
new_script (GString *out)
{
  FxScript *S = fx_script_new ();
  sc_fx_ir_init (S);   /* a no-op once the interpreter registers torch.fx._ir itself */
  fx_script_set_output (S, collect, collect, out);
  return S;
}

/* Runs source as __main__; the output, with a formatted exception if one escaped. */
static char *
run_script (const char *source)
{
  GString *out = g_string_new (NULL);
  FxScript *S = new_script (out);
  if (!fx_script_run_string (S, source, "<test>", NULL))
    {
      g_autofree char *exc = fx_script_format_exception (S);
      g_string_append (out, exc);
      fx_script_clear_exception (S);
    }
  fx_script_free (S);
  return g_string_free (out, FALSE);
}

static void
test_print (void)
{
  g_autofree char *out = run_script (PRINT_SCRIPT);
  g_assert_cmpstr (out, ==, PRINT_EXPECTED);
}

static void
test_graph_module_run (void)
{
  g_autofree char *out = run_script (RUN_SCRIPT);
  g_assert_cmpstr (out, ==, RUN_EXPECTED);
}

/* 1.13 names a user function by module and __name__: "__main__.scale" in print(graph), the
 * global "__main___scale" in the code (object.c's FxObjectClass.qualified_name hook). */
static void
test_user_function_code (void)
{
  g_autofree char *out = run_script (USERCODE_SCRIPT);
  g_assert_cmpstr (out, ==, USERCODE_EXPECTED);
}

static gboolean
init_fixture (FxScript *S, FxScriptModule *module, gpointer user_data)
{
  fx_script_module_set (module, "g", sc_fx_graph_wrap (S, user_data));
  return TRUE;
}

/* One wrapper per node; a node wrapper keeps its graph alive after every other owner
 * went; argument trees convert both ways. */
static void
test_c_api (void)
{
  GString *out = g_string_new (NULL);
  FxScript *S = new_script (out);
  FxGraph *graph = fx_graph_new ();
  FxNode *x = fx_graph_placeholder (graph, "x", NULL, NULL);
  FxValue w1, w2, gv, tree, mapped, back;
  FxSeq *seq, *inner;
  FxDict *d;

  fx_script_register_module (S, "fxtest", init_fixture, graph, NULL);
  g_assert_true (fx_script_run_string (S,
    "import fxtest, operator\n"
    "g = fxtest.g\n"
    "x = list(g.nodes)[0]\n"
    "y = g.call_function(operator.neg, (x,))\n"
    "g.output(y)\n"
    "print(x is list(g.nodes)[0], x.users, g.nodes.__len__())\n", "<c-api>", NULL));
  g_assert_cmpstr (out->str, ==, "True {neg: None} 3\n");

  w1 = sc_fx_node_wrap (S, x);
  w2 = sc_fx_node_wrap (S, x);
  g_assert_true (w1.kind == FX_VALUE_OBJECT && w1.obj == w2.obj);
  g_assert_true (sc_fx_node_get (&w1) == x);
  gv = sc_fx_graph_wrap (S, graph);
  g_assert_true (sc_fx_graph_get (&gv) == graph);

  /* (x, [1, x], {'a': x}, slice(x, None, None)) */
  seq = fx_seq_new (4);
  seq->items[0] = fx_value_copy (&w1);
  inner = fx_seq_new (2);
  inner->items[0] = fx_value_int (1);
  inner->items[1] = fx_value_copy (&w1);
  seq->items[1] = fx_value_take_list (inner);
  d = fx_dict_new ();
  fx_dict_set (d, fx_value_str ("a"), fx_value_copy (&w1));
  seq->items[2] = fx_value_take_dict (d);
  seq->items[3] = fx_value_take_slice (fx_slice_new (fx_value_copy (&w1), fx_value_none (),
                                                     fx_value_none ()));
  tree = fx_value_take_tuple (seq);
  g_assert_true (sc_fx_value_from_script (S, &tree, &mapped));
  g_assert_cmpint (mapped.seq->items[0].kind, ==, FX_VALUE_NODE);
  g_assert_true (mapped.seq->items[1].seq->items[1].node == x);
  g_assert_true (mapped.seq->items[3].slice->start.node == x);
  back = sc_fx_value_to_script (S, &mapped);
  g_assert_true (back.seq->items[2].kind == FX_VALUE_DICT);
  g_assert_true (fx_value_equal (&back, &tree));
  fx_value_clear (&back);
  fx_value_clear (&mapped);
  fx_value_clear (&tree);

  /* the graph outlives the script's Graph and our own reference while w1 lives */
  fx_value_clear (&gv);
  fx_graph_unref (graph);
  g_assert_true (fx_script_run_string (S, "del fxtest.g, g, y\n", "<c-api>", NULL));
  g_assert_cmpstr (sc_fx_node_get (&w1)->name, ==, "x");
  g_assert_cmpuint (fx_node_set_size (&sc_fx_node_get (&w1)->users), ==, 1);
  fx_value_clear (&w2);
  fx_value_clear (&w1);
  fx_script_free (S);
  g_string_free (out, TRUE);
}

static void
test_to_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("fx-ir-XXXXXX", NULL);
  g_autofree char *fixed = NULL;
  g_autofree char *out = NULL;
  g_autofree char *module_py = NULL;
  g_autofree char *contents = NULL;

  g_assert_nonnull (dir);
  fixed = g_strdup_printf (
    "import torch, torch.fx\n"
    "m = torch.nn.Module()\n"
    "m.lin = torch.nn.Linear(2, 3)\n"
    "g = torch.fx.Graph()\n"
    "x = g.placeholder('x')\n"
    "g.output(g.call_module('lin', (x,)))\n"
    "gm = torch.fx.GraphModule(m, g)\n"
    "gm.to_folder(r'%s', 'Saved')\n"
    "print('ok')\n", dir);
  out = run_script (fixed);
  g_assert_cmpstr (out, ==, "ok\n");
  module_py = g_build_filename (dir, "module.py", NULL);
  g_assert_true (g_file_get_contents (module_py, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "class Saved(torch.nn.Module):"));
  g_assert_nonnull (strstr (contents, "def forward(self, x):"));
  {
    const char *names[] = { "module.py", "__init__.py", "state_dict.pt" };
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = g_build_filename (dir, names[i], NULL);
        g_remove (p);
      }
    g_rmdir (dir);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fx-ir/print", test_print);
  g_test_add_func ("/fx-ir/graph-module-run", test_graph_module_run);
  g_test_add_func ("/fx-ir/user-function-code", test_user_function_code);
  g_test_add_func ("/fx-ir/c-api", test_c_api);
  g_test_add_func ("/fx-ir/to-folder", test_to_folder);
  return g_test_run ();
}
