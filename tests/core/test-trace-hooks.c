/* test-trace-hooks.c: the hooks of a C tracer (trace/tracer.h) — is_leaf_module,
 * path_of_module, create_node, to_bool, iter, keys, create_proxy, create_arg, getattr
 * and call_module — each overridden from C, with the code they lead to. Expected code and node lists are what /usr/bin/python3 with torch 1.13
 * prints for the same model traced by a torch.fx.Tracer subclass overriding the same hooks
 * the same way (the generator is in the comment above each expectation). */
#include <fx.h>
#include "trace/trace.h"
#include "trace/tracer.h"

#include <glib/gstdio.h>

#include <string.h>

static char *tmp_dir;

/* tmp_dir/name holding source; g_free the path */
static char *
write_source (const char *name, const char *source)
{
  GError *error = NULL;
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_file_set_contents (path, source, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* A user module with a torch.nn leaf inside, in both models below. */
#define BLOCK_SOURCE \
  "class Block(nn.Module):\n" \
  "    def __init__(self):\n" \
  "        super().__init__()\n" \
  "        self.lin = nn.Linear(4, 4)\n" \
  "\n" \
  "    def forward(self, x):\n" \
  "        return torch.relu(self.lin(x))\n"

static const char model_source[] =
  "import torch\n"
  "import torch.nn as nn\n"
  "\n"
  "\n"
  "def combine(x, scale, shift):\n"
  "    return x * scale + shift\n"
  "\n"
  "\n"
  BLOCK_SOURCE
  "\n"
  "\n"
  "class Net(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.block = Block()\n"
  "        self.fc = nn.Linear(4, 4)\n"
  "        self.head = self.fc\n"
  "\n"
  "    def forward(self, x, opts):\n"
  "        x = self.block(x)\n"
  "        if x.sum() > 0:\n"
  "            x = self.fc(x)\n"
  "        return combine(x, **opts)\n"
  "\n"
  "\n"
  "def pairwise(x, pair):\n"
  "    for item in pair:\n"
  "        x = x + item\n"
  "    return x\n";

/* With /usr/bin/python3 and torch 1.13, the model above as model.py:
 *
 *   class HookTracer(torch.fx.Tracer):
 *       def is_leaf_module(self, m, qualname):
 *           return type(m).__name__ == 'Block' or super().is_leaf_module(m, qualname)
 *       def path_of_module(self, mod):
 *           path = super().path_of_module(mod)
 *           return 'head' if path == 'fc' else path
 *       def to_bool(self, obj):
 *           return True
 *       def keys(self, obj):
 *           return ['scale', 'shift']
 *
 *   t = HookTracer(); g = t.trace(model.Net())
 *   print(torch.fx.GraphModule(t.root, g, 'Net').code)
 *   print([n.op + ':' + n.name for n in g.nodes])
 */
static const char expected_code[] =
  "\n\n\ndef forward(self, x, opts):\n"
  "    block = self.block(x);  x = None\n"
  "    sum_1 = block.sum()\n"
  "    gt = sum_1 > 0;  sum_1 = None\n"
  "    head = self.head(block);  block = None\n"
  "    getitem = opts['scale']\n"
  "    getitem_1 = opts['shift'];  opts = None\n"
  "    mul = head * getitem;  head = getitem = None\n"
  "    add = mul + getitem_1;  mul = getitem_1 = None\n"
  "    return add\n    ";
static const char *const expected_nodes[] = {
  "placeholder:x", "placeholder:opts", "call_module:block", "call_method:sum_1",
  "call_function:gt", "call_module:head", "call_function:getitem", "call_function:getitem_1",
  "call_function:mul", "call_function:add", "output:output",
};

/* The same without the is_leaf_module override (HookTracer minus that method). */
static const char expected_code_traced_block[] =
  "\n\n\ndef forward(self, x, opts):\n"
  "    block_lin = self.block.lin(x);  x = None\n"
  "    relu = torch.relu(block_lin);  block_lin = None\n"
  "    sum_1 = relu.sum()\n"
  "    gt = sum_1 > 0;  sum_1 = None\n"
  "    head = self.head(relu);  relu = None\n"
  "    getitem = opts['scale']\n"
  "    getitem_1 = opts['shift'];  opts = None\n"
  "    mul = head * getitem;  head = getitem = None\n"
  "    add = mul + getitem_1;  mul = getitem_1 = None\n"
  "    return add\n    ";

typedef struct {
  FxTracer parent;
  gboolean leaf_block;           /* is_leaf_module keeps Block a leaf */
  GPtrArray *created;            /* "op:name" of the nodes create_node saw */
  GPtrArray *paths;              /* default paths path_of_module was asked about */
  guint n_bools, n_iters, n_keys;
} HookTracer;

static gboolean
hook_is_leaf (FxTracer *tracer, const char *class_name, const char *class_module,
              const char *qualified_name, gboolean default_answer)
{
  HookTracer *self = (HookTracer *) tracer;
  return default_answer || (self->leaf_block && strcmp (class_name, "Block") == 0);
}

static char *
hook_path (FxTracer *tracer, const char *class_name, const char *class_module,
           const char *default_path)
{
  HookTracer *self = (HookTracer *) tracer;
  g_ptr_array_add (self->paths, g_strdup (default_path));
  return strcmp (default_path, "fc") == 0 ? g_strdup ("head") : NULL;
}

static gboolean
hook_create_node (FxTracer *tracer, FxNode *node, GError **error)
{
  HookTracer *self = (HookTracer *) tracer;
  g_ptr_array_add (self->created, g_strdup_printf ("%s:%s", fx_node_op_name (node->op),
                                                   node->name));
  fx_dict_set (node->meta, fx_value_str ("hooked"), fx_value_bool (TRUE));
  return TRUE;
}

static gboolean
hook_to_bool (FxTracer *tracer, FxNode *node, gboolean *answer)
{
  HookTracer *self = (HookTracer *) tracer;
  self->n_bools++;
  g_assert_cmpstr (node->name, ==, "gt");
  *answer = TRUE;
  return TRUE;
}

static gboolean
hook_iter (FxTracer *tracer, FxNode *node, guint *n_items)
{
  HookTracer *self = (HookTracer *) tracer;
  self->n_iters++;
  g_assert_cmpstr (node->name, ==, "pair");
  *n_items = 2;
  return TRUE;
}

static gboolean
hook_keys (FxTracer *tracer, FxNode *node, char ***keys)
{
  HookTracer *self = (HookTracer *) tracer;
  static const char *const names[] = { "scale", "shift", NULL };
  self->n_keys++;
  g_assert_cmpstr (node->name, ==, "opts");
  *keys = g_strdupv ((char **) names);
  return TRUE;
}

static const FxTracerClass hook_class = {
  .is_leaf_module = hook_is_leaf,
  .path_of_module = hook_path,
  .create_node = hook_create_node,
  .to_bool = hook_to_bool,
  .iter = hook_iter,
  .keys = hook_keys,
};

/* A HookTracer (Block a leaf or not) traces `name` of the model; the caller clears t. */
static FxGraphModule *
trace_with_hooks (HookTracer *t, gboolean leaf_block, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = write_source ("hooks_model.py", model_source);
  FxGraphModule *gm;

  memset (t, 0, sizeof *t);
  t->parent.klass = &hook_class;
  t->leaf_block = leaf_block;
  t->created = g_ptr_array_new_with_free_func (g_free);
  t->paths = g_ptr_array_new_with_free_func (g_free);
  gm = fx_tracer_trace_file (&t->parent, path, name, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  return gm;
}

static void
hook_tracer_clear (HookTracer *t)
{
  g_ptr_array_unref (t->created);
  g_ptr_array_unref (t->paths);
}

static void
assert_all_hooked (FxGraph *graph)
{
  FxValue key = fx_value_str ("hooked");
  for (FxNode *n = fx_graph_first (graph); n != NULL; n = fx_node_next (n))
    {
      FxValue *v;
      /* the result's graph is a copy (fx_graph_copy), whose output node is made anew */
      if (n->op == FX_OP_OUTPUT)
        continue;
      v = fx_dict_get (n->meta, &key);
      g_assert_nonnull (v);
      g_assert_true (v->kind == FX_VALUE_BOOL && v->b);
    }
  fx_value_clear (&key);
}

/* is_leaf_module, path_of_module, create_node, to_bool and keys together. */
static void
test_hooks (void)
{
  HookTracer t;
  g_autoptr (FxGraphModule) gm = trace_with_hooks (&t, TRUE, "Net");

  g_assert_cmpstr (gm->code, ==, expected_code);
  /* create_node saw every node, placeholders and output included, in graph order */
  g_assert_cmpuint (t.created->len, ==, G_N_ELEMENTS (expected_nodes));
  for (guint i = 0; i < t.created->len; i++)
    g_assert_cmpstr (t.created->pdata[i], ==, expected_nodes[i]);
  assert_all_hooked (gm->graph);
  /* path_of_module was asked about both calls, with torch.fx's answers */
  g_assert_cmpuint (t.paths->len, ==, 2);
  g_assert_cmpstr (t.paths->pdata[0], ==, "block");
  g_assert_cmpstr (t.paths->pdata[1], ==, "fc");
  g_assert_cmpuint (t.n_bools, ==, 1);
  g_assert_cmpuint (t.n_keys, ==, 1);
  g_assert_cmpuint (t.n_iters, ==, 0);
  hook_tracer_clear (&t);
}

/* Without the leaf override, Block is traced through and path_of_module sees block.lin. */
static void
test_hooks_traced_block (void)
{
  HookTracer t;
  g_autoptr (FxGraphModule) gm = trace_with_hooks (&t, FALSE, "Net");

  g_assert_cmpstr (gm->code, ==, expected_code_traced_block);
  g_assert_cmpuint (t.paths->len, ==, 3);
  g_assert_cmpstr (t.paths->pdata[1], ==, "block.lin");
  hook_tracer_clear (&t);
}

/* iter: torch 1.13 under this CPython cannot iterate a Proxy at all (its __iter__ indexes
 * the caller's bytecode by f_lasti // 2, an IndexError on 3.11), so this one is checked on
 * the graph: `for item in pair` over 2 items adds pair[0] and pair[1] in turn. */
static void
test_hook_iter (void)
{
  HookTracer t;
  g_autoptr (FxGraphModule) gm = trace_with_hooks (&t, FALSE, "pairwise");
  g_autoptr (GString) ops = g_string_new (NULL);
  FxNode *n;

  g_assert_cmpuint (t.n_iters, ==, 1);
  for (n = fx_graph_first (gm->graph); n != NULL; n = fx_node_next (n))
    {
      g_string_append_printf (ops, "%s%s", ops->len ? " " : "", n->name);
      if (g_str_has_prefix (n->name, "getitem"))
        {
          /* pair[i]: args (pair, i) */
          g_assert_cmpuint (n->args.seq->len, ==, 2);
          g_assert_true (n->args.seq->items[0].kind == FX_VALUE_NODE);
          g_assert_cmpstr (n->args.seq->items[0].node->name, ==, "pair");
          g_assert_true (n->args.seq->items[1].kind == FX_VALUE_INT);
          g_assert_cmpint (n->args.seq->items[1].i, ==, g_str_has_suffix (n->name, "_1") ? 1 : 0);
        }
    }
  /* the items are taken before the loop body runs (iter returns them all) */
  g_assert_cmpstr (ops->str, ==, "x pair getitem getitem_1 add add_1 output");
  hook_tracer_clear (&t);
}

/* A hook failing fails the trace with its error. */
static gboolean
failing_create_node (FxTracer *tracer, FxNode *node, GError **error)
{
  if (node->op == FX_OP_CALL_MODULE)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "no modules wanted: %s", node->name);
      return FALSE;
    }
  return TRUE;
}

static const FxTracerClass failing_class = { .create_node = failing_create_node };

static void
test_hook_error (void)
{
  g_autofree char *path = write_source ("hooks_model.py", model_source);
  g_autoptr (GError) error = NULL;
  FxTracer t = { &failing_class, NULL };
  g_autoptr (FxGraphModule) gm = NULL;

  gm = fx_tracer_trace_file (&t, path, "Net", NULL, &error);

  g_assert_null (gm);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "no modules wanted: block_lin"));
}


/* ---- create_proxy, create_arg, getattr ---- */

static const char scaled_source[] =
  "import torch\n"
  "import torch.nn as nn\n"
  "\n"
  "\n"
  "class Scaled(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.lin = nn.Linear(4, 4)\n"
  "        self.scale = nn.Parameter(torch.ones(4))\n"
  "\n"
  "    def forward(self, x):\n"
  "        y = torch.relu(self.lin(x)) * 0.5\n"
  "        return y * self.scale + self.scale, (y, 2.0)\n";

enum { HOOK_CREATE_PROXY = 1, HOOK_CREATE_ARG = 2, HOOK_GETATTR = 4 };

/* With /usr/bin/python3 and torch 1.13, the model above as model2.py, each case a subset
 * `hooks` of the three overrides:
 *
 *   class ArgTracer(torch.fx.Tracer):
 *       def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None,
 *                        proxy_factory_fn=None):
 *           p = super().create_proxy(kind, target, args, kwargs, name, type_expr,
 *                                    proxy_factory_fn)
 *           self.proxied.append(p.node.op + ':' + p.node.name)
 *           if p.node.target is torch.relu:
 *               p.node.target = torch.sigmoid
 *           return p
 *       def create_arg(self, a):
 *           if isinstance(a, float):
 *               return a * 2
 *           return super().create_arg(a)
 *       def getattr(self, attr, attr_val, parameter_proxy_cache):
 *           if attr == 'scale':
 *               return attr_val
 *           return super().getattr(attr, attr_val, parameter_proxy_cache)
 *
 *   t = ArgTracer(); g = t.trace(model2.Scaled())
 *   print(repr(torch.fx.GraphModule(t.root, g, 'Scaled').code)); print(t.proxied)
 */
static const struct {
  guint hooks;
  const char *code;
  const char *proxied;           /* "op:name" of create_proxy's nodes, space-separated */
} arg_cases[] = {
  { HOOK_CREATE_PROXY | HOOK_CREATE_ARG | HOOK_GETATTR,
    "\n\n\ndef forward(self, x):\n    lin = self.lin(x);  x = None\n"
    "    relu = torch.sigmoid(lin);  lin = None\n    mul = relu * 1.0;  relu = None\n"
    "    scale = self.scale\n    mul_1 = mul * scale;  scale = None\n"
    "    scale_1 = self.scale\n    add = mul_1 + scale_1;  mul_1 = scale_1 = None\n"
    "    return (add, (mul, 4.0))\n    ",
    "placeholder:x call_module:lin call_function:relu call_function:mul call_function:mul_1 "
    "call_function:add" },
  { HOOK_CREATE_PROXY,
    "\n\n\ndef forward(self, x):\n    lin = self.lin(x);  x = None\n"
    "    relu = torch.sigmoid(lin);  lin = None\n    mul = relu * 0.5;  relu = None\n"
    "    scale = self.scale\n    mul_1 = mul * scale\n"
    "    add = mul_1 + scale;  mul_1 = scale = None\n    return (add, (mul, 2.0))\n    ",
    "placeholder:x call_module:lin call_function:relu call_function:mul get_attr:scale "
    "call_function:mul_1 call_function:add" },
  { HOOK_CREATE_ARG,
    "\n\n\ndef forward(self, x):\n    lin = self.lin(x);  x = None\n"
    "    relu = torch.relu(lin);  lin = None\n    mul = relu * 1.0;  relu = None\n"
    "    scale = self.scale\n    mul_1 = mul * scale\n"
    "    add = mul_1 + scale;  mul_1 = scale = None\n    return (add, (mul, 4.0))\n    ",
    "" },
  { HOOK_GETATTR,
    "\n\n\ndef forward(self, x):\n    lin = self.lin(x);  x = None\n"
    "    relu = torch.relu(lin);  lin = None\n    mul = relu * 0.5;  relu = None\n"
    "    scale = self.scale\n    mul_1 = mul * scale;  scale = None\n"
    "    scale_1 = self.scale\n    add = mul_1 + scale_1;  mul_1 = scale_1 = None\n"
    "    return (add, (mul, 2.0))\n    ",
    "" },
};

typedef struct {
  FxTracer parent;
  guint hooks;
  GString *proxied;
  guint n_getattr;
} ArgTracer;

static gboolean
arg_create_proxy (FxTracer *tracer, FxNode *node, GError **error)
{
  ArgTracer *self = (ArgTracer *) tracer;
  if (!(self->hooks & HOOK_CREATE_PROXY))
    return TRUE;
  g_string_append_printf (self->proxied, "%s%s:%s", self->proxied->len ? " " : "",
                          fx_node_op_name (node->op), node->name);
  if (node->target.kind == FX_VALUE_OP && strcmp (node->target.op->qualified_name, "torch.relu") == 0)
    {
      const FxOp *sigmoid = fx_op_lookup ("torch.sigmoid");
      g_assert_nonnull (sigmoid);
      fx_value_clear (&node->target);
      node->target = fx_value_op (sigmoid);
    }
  return TRUE;
}

static gboolean
arg_create_arg (FxTracer *tracer, const FxValue *a, FxValue *out)
{
  ArgTracer *self = (ArgTracer *) tracer;
  if (!(self->hooks & HOOK_CREATE_ARG) || a->kind != FX_VALUE_FLOAT)
    return FALSE;
  *out = fx_value_float (a->f * 2);
  return TRUE;
}

static gboolean
arg_getattr (FxTracer *tracer, const char *attr, const FxValue *value)
{
  ArgTracer *self = (ArgTracer *) tracer;
  g_assert_true (value->kind == FX_VALUE_TENSOR);
  self->n_getattr++;
  return !(self->hooks & HOOK_GETATTR) || strcmp (attr, "scale") != 0;
}

static const FxTracerClass arg_class = {
  .create_proxy = arg_create_proxy,
  .create_arg = arg_create_arg,
  .getattr = arg_getattr,
};

static void
test_hooks_proxy_arg_getattr (void)
{
  g_autofree char *path = write_source ("hooks_scaled.py", scaled_source);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (arg_cases); i++)
    {
      ArgTracer t = { { &arg_class, NULL }, arg_cases[i].hooks, g_string_new (NULL), 0 };
      g_autoptr (FxGraphModule) gm = fx_tracer_trace_file (&t.parent, path, "Scaled", NULL,
                                                           &error);
      g_assert_no_error (error);
      g_assert_nonnull (gm);
      g_assert_cmpstr (gm->code, ==, arg_cases[i].code);
      g_assert_cmpstr (t.proxied->str, ==, arg_cases[i].proxied);
      /* self.scale is read twice; self.lin is a module, not asked about */
      g_assert_cmpuint (t.n_getattr, ==, 2);
      g_string_free (t.proxied, TRUE);
    }
  g_unlink (path);
}

/* ---- call_module ---- */

/* tests/conformance/trace_cases/call_module_override.py: its model, and what torch 1.13
 * prints for a Tracer subclass whose call_module keeps `a` a call_module node, traces `fc`
 * (a torch.nn leaf) through its forward and leaves `b` to Tracer.call_module, with a
 * create_node recording the module call each node is made in (the golden of
 * tests/conformance/gen_trace_cases.py: goldens/trace_cases/call_module_override.out). */
static const char stack_source[] =
  "import torch\n"
  "import torch.nn as nn\n"
  "\n"
  "\n"
  BLOCK_SOURCE
  "\n"
  "\n"
  "class Stack(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.a = Block()\n"
  "        self.b = Block()\n"
  "        self.fc = nn.Linear(4, 4)\n"
  "\n"
  "    def forward(self, x):\n"
  "        return self.fc(self.b(self.a(x))) + 1\n";

static const char expected_call_code[] =
  "\n\n\ndef forward(self, x):\n    a = self.a(x);  x = None\n"
  "    b_lin = self.b.lin(a);  a = None\n    relu = torch.relu(b_lin);  b_lin = None\n"
  "    fc_weight = self.fc.weight\n    fc_bias = self.fc.bias\n"
  "    linear = torch._C._nn.linear(relu, fc_weight, fc_bias);  relu = fc_weight = fc_bias = None\n"
  "    add = linear + 1;  linear = None\n    return add\n    ";
static const char expected_calls[] = "Block:a Block:b Linear:b.lin Linear:fc";
static const char expected_scopes[] =
  "x@ a@a b_lin@b.lin relu@b fc_weight@fc fc_bias@fc linear@fc add@ output@";

typedef struct {
  FxTracer parent;
  GString *calls;                /* "Class:path" of each call_module */
  GString *scopes;               /* "name@path" of each node create_node saw */
  GPtrArray *stack;              /* paths of the module calls being traced */
  GString *results;              /* the result node of each answer */
} CallTracer;

static gboolean
call_hook_call_module (FxTracer *tracer, FxModuleCall *call, GError **error)
{
  CallTracer *self = (CallTracer *) tracer;
  const char *path = fx_module_call_path (call, error);
  FxNode *node;
  gboolean ok;

  if (path == NULL)
    return FALSE;
  g_string_append_printf (self->calls, "%s%s:%s", self->calls->len ? " " : "",
                          fx_module_call_class_name (call), path);
  g_assert_cmpstr (fx_module_call_class_module (call), ==,
                   strcmp (fx_module_call_class_name (call), "Linear") == 0 ? "torch.nn.modules.linear"
                                                                             : "call_model");
  g_ptr_array_add (self->stack, g_strdup (path));
  if (strcmp (path, "a") == 0)
    ok = fx_module_call_leaf (call, NULL, error);
  else if (strcmp (path, "fc") == 0)
    ok = fx_module_call_forward (call, error);
  else
    ok = fx_module_call_default (call, error);
  g_ptr_array_remove_index (self->stack, self->stack->len - 1);
  node = ok ? fx_module_call_result_node (call) : NULL;
  g_string_append_printf (self->results, "%s%s", self->results->len ? " " : "",
                          node != NULL ? node->name : "-");
  return ok;
}

static gboolean
call_hook_create_node (FxTracer *tracer, FxNode *node, GError **error)
{
  CallTracer *self = (CallTracer *) tracer;
  g_string_append_printf (self->scopes, "%s%s@%s", self->scopes->len ? " " : "", node->name,
                          self->stack->len ? (char *) self->stack->pdata[self->stack->len - 1] : "");
  return TRUE;
}

static const FxTracerClass call_class = {
  .call_module = call_hook_call_module,
  .create_node = call_hook_create_node,
};

static void
test_hook_call_module (void)
{
  g_autofree char *path = write_source ("call_model.py", stack_source);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = NULL;
  CallTracer t = { { &call_class, NULL }, g_string_new (NULL), g_string_new (NULL),
                   g_ptr_array_new_with_free_func (g_free), g_string_new (NULL) };

  gm = fx_tracer_trace_file (&t.parent, path, "Stack", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_cmpstr (gm->code, ==, expected_call_code);
  g_assert_cmpstr (t.calls->str, ==, expected_calls);
  g_assert_cmpstr (t.scopes->str, ==, expected_scopes);
  /* the answers' results, innermost first: a, b.lin, b (relu), fc (linear) */
  g_assert_cmpstr (t.results->str, ==, "a b_lin relu linear");
  g_assert_cmpuint (t.stack->len, ==, 0);
  g_string_free (t.calls, TRUE);
  g_string_free (t.scopes, TRUE);
  g_string_free (t.results, TRUE);
  g_ptr_array_unref (t.stack);
  g_unlink (path);
}

/* A hook that fails, by its own error or by an answer's exception, fails the trace with
 * it; one that catches an answer's exception and answers again goes on; one that answers
 * nothing gets the default. */
static const char bad_source[] =
  "import torch.nn as nn\n"
  "\n"
  "\n"
  "class Bad(nn.Module):\n"
  "    def forward(self, x):\n"
  "        raise ValueError('bad block')\n"
  "\n"
  "\n"
  "class Outer(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.bad = Bad()\n"
  "\n"
  "    def forward(self, x):\n"
  "        return self.bad(x)\n";

static gboolean
call_hook_fail (FxTracer *tracer, FxModuleCall *call, GError **error)
{
  const char *mode = tracer->user_data;
  g_autoptr (GError) inner = NULL;

  if (strcmp (mode, "own") == 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_FAILED, "no call of %s wanted",
                   fx_module_call_class_name (call));
      return FALSE;
    }
  if (strcmp (mode, "forward") == 0)
    return fx_module_call_forward (call, error);
  if (strcmp (mode, "catch") == 0)
    {
      /* try: forward  except: a call_module node instead */
      g_assert_false (fx_module_call_forward (call, &inner));
      g_assert_nonnull (strstr (inner->message, "ValueError: bad block"));
      g_assert_null (fx_module_call_result_node (call));
      return fx_module_call_leaf (call, NULL, error);
    }
  return TRUE;
}

static const FxTracerClass fail_class = { .call_module = call_hook_fail };

static FxGraphModule *
trace_failing (const char *mode, const char *source, const char *name, GError **error)
{
  g_autofree char *path = write_source ("call_bad.py", source);
  FxTracer t = { &fail_class, (gpointer) mode };
  FxGraphModule *gm;

  gm = fx_tracer_trace_file (&t, path, name, NULL, error);
  g_unlink (path);
  return gm;
}

static void
test_hook_call_module_errors (void)
{
  g_autoptr (GError) error = NULL;
  FxGraphModule *gm;

  gm = trace_failing ("own", stack_source, "Stack", &error);
  g_assert_null (gm);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "no call of Block wanted"));
  g_clear_error (&error);

  /* the forward's own exception, raised from where it was */
  gm = trace_failing ("forward", bad_source, "Outer", &error);
  g_assert_null (gm);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "ValueError: bad block"));
  g_clear_error (&error);

  gm = trace_failing ("catch", bad_source, "Outer", &error);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_nonnull (strstr (gm->code, "bad = self.bad(x);  x = None"));
  fx_graph_module_unref (gm);

  /* no answer: 1.13's own call_module, so the plain trace */
  gm = trace_failing ("none", stack_source, "Stack", &error);
  g_assert_no_error (error);
  g_assert_nonnull (gm);
  g_assert_nonnull (strstr (gm->code, "a_lin = self.a.lin(x)"));
  g_assert_nonnull (strstr (gm->code, "fc = self.fc(relu_1)"));
  fx_graph_module_unref (gm);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("fx-test-trace-hooks-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/trace/hooks/all", test_hooks);
  g_test_add_func ("/trace/hooks/traced-block", test_hooks_traced_block);
  g_test_add_func ("/trace/hooks/iter", test_hook_iter);
  g_test_add_func ("/trace/hooks/error", test_hook_error);
  g_test_add_func ("/trace/hooks/create-proxy-arg-getattr", test_hooks_proxy_arg_getattr);
  g_test_add_func ("/trace/hooks/call-module", test_hook_call_module);
  g_test_add_func ("/trace/hooks/call-module-errors", test_hook_call_module_errors);
  status = g_test_run ();
  {
    g_autofree char *model = g_build_filename (tmp_dir, "hooks_model.py", NULL);
    g_unlink (model);
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return status;
}
