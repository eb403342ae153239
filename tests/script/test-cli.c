/* test-cli.c: the fx command line's interface — help, version, subcommands, python-like
 * errors for scripts that cannot be opened, `fx trace`'s formats and errors, `fx exec`'s
 * inputs, weights, outputs and errors, `fx export`'s code and packages. Runs the built `fx`
 * ($FX_CLI). */
#include <fx.h>
#include "ir/fxg.h"
#include "ir/safetensors.h"
#include "ir/checkpoint.h"
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

typedef struct {
  int status;
  char *out;
  char *err;
} CliResult;

static CliResult
run_fx (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  CliResult result = { 0 };
  va_list ap;

  g_ptr_array_add (argv, (gpointer) g_getenv ("FX_CLI"));
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  proc = g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &result.out, &result.err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  result.status = g_subprocess_get_exit_status (proc);
  return result;
}

static void
cli_result_clear (CliResult *r)
{
  g_free (r->out);
  g_free (r->err);
}

static void
test_help_lists_subcommands (void)
{
  CliResult r = run_fx ("--help", NULL);
  const char *names[] = { "run", "trace", "exec", "export" };

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Usage: fx COMMAND"));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *line = g_strdup_printf ("\n  %s ", names[i]);
      g_assert_nonnull (strstr (r.out, line));
    }
  cli_result_clear (&r);
}

static void
test_version (void)
{
  CliResult r = run_fx ("--version", NULL);
  g_autofree char *expected = g_strdup_printf ("fx %s\n", fx_version ());

  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, expected);
  cli_result_clear (&r);
}

static void
test_no_arguments_is_usage_error (void)
{
  CliResult r = run_fx (NULL, NULL);

  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_true (g_str_has_prefix (r.err, "Usage: fx COMMAND"));
  cli_result_clear (&r);
}

static void
test_unknown_command (void)
{
  CliResult r = run_fx ("frobnicate", NULL);

  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "fx: unknown command 'frobnicate'\n"));
  cli_result_clear (&r);
}

static void
test_subcommand_help (void)
{
  CliResult r = run_fx ("trace", "--help", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Usage: fx trace MODEL.py --module NAME"));
  cli_result_clear (&r);
}

/* python3 missing.py → "can't open file '/abs/missing.py': [Errno 2] No such file or directory", exit 2 */
static void
test_run_missing_script (void)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *expected = g_strdup_printf (
    "fx: can't open file '%s/no-such-script.py': [Errno 2] No such file or directory\n", cwd);
  CliResult r = run_fx ("run", "no-such-script.py", NULL);

  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, expected);
  cli_result_clear (&r);
}

/* ---- fx trace: a small model; expected texts are torch 1.13's print(...) of the same ---- */

static const char trace_model[] =
  "import torch\n"
  "import torch.nn as nn\n"
  "\n"
  "\n"
  "class Net(nn.Module):\n"
  "    def __init__(self):\n"
  "        super().__init__()\n"
  "        self.fc = nn.Linear(4, 3)\n"
  "\n"
  "    def forward(self, x, flag=True):\n"
  "        if flag:\n"
  "            return torch.relu(self.fc(x))\n"
  "        return self.fc(x).sum(dim=-1)\n"
  "\n"
  "\n"
  "def double_add(x, y):\n"
  "    return x + y * 2\n"
  "\n"
  "\n"
  "net = Net()\n"
  "if __name__ == '__main__':\n"
  "    print('the __main__ block ran')\n";

/* print(symbolic_trace(double_add).code) */
static const char trace_function_code[] =
  "\n\n\ndef forward(self, x, y):\n"
  "    mul = y * 2;  y = None\n"
  "    add = x + mul;  x = mul = None\n"
  "    return add\n"
  "    \n";

/* print(symbolic_trace(double_add).graph) */
static const char trace_function_graph[] =
  "graph():\n"
  "    %x : [#users=1] = placeholder[target=x]\n"
  "    %y : [#users=1] = placeholder[target=y]\n"
  "    %mul : [#users=1] = call_function[target=operator.mul](args = (%y, 2), kwargs = {})\n"
  "    %add : [#users=1] = call_function[target=operator.add](args = (%x, %mul), kwargs = {})\n"
  "    return add\n";

/* symbolic_trace(double_add).graph.print_tabular() */
static const char trace_function_tabular[] =
  "opcode         name    target                   args      kwargs\n"
  "-------------  ------  -----------------------  --------  --------\n"
  "placeholder    x       x                        ()        {}\n"
  "placeholder    y       y                        ()        {}\n"
  "call_function  mul     <built-in function mul>  (y, 2)    {}\n"
  "call_function  add     <built-in function add>  (x, mul)  {}\n"
  "output         output  output                   (add,)    {}\n";

/* print(symbolic_trace(net, concrete_args={'flag': False}).code) */
static const char trace_net_code[] =
  "\n\n\ndef forward(self, x, flag_1 = True):\n"
  "    eq = flag_1 == False;  flag_1 = None\n"
  "    _assert = torch._assert(eq, 'flag has been specialized to have value False but got another value');  eq = None\n"
  "    fc = self.fc(x);  x = None\n"
  "    sum_1 = fc.sum(dim = -1);  fc = None\n"
  "    return sum_1\n"
  "    \n";

/* A fresh directory holding model.py; g_free the path (the directory stays for the run). */
static char *
write_trace_model (char **dir_out)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("fx-test-cli-XXXXXX", &error);
  char *path;

  g_assert_no_error (error);
  path = g_build_filename (dir, "model.py", NULL);
  g_file_set_contents (path, trace_model, -1, &error);
  g_assert_no_error (error);
  *dir_out = dir;
  return path;
}

static void
remove_dir (char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      g_remove (child);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
  g_free (dir);
}

static void
test_trace_formats (void)
{
  char *dir;
  g_autofree char *model = write_trace_model (&dir);
  struct { const char *format; const char *expected; } cases[] = {
    { NULL, trace_function_code }, { "code", trace_function_code },
    { "graph", trace_function_graph }, { "tabular", trace_function_tabular },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      CliResult r = cases[i].format
        ? run_fx ("trace", model, "--module", "double_add", "--format", cases[i].format, NULL)
        : run_fx ("trace", model, "--module", "double_add", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.out, ==, cases[i].expected);
      g_assert_cmpstr (r.err, ==, "");
      cli_result_clear (&r);
    }
  remove_dir (dir);
}

static void
test_trace_concrete_and_output_file (void)
{
  char *dir;
  g_autofree char *model = write_trace_model (&dir);
  g_autofree char *out = g_build_filename (dir, "net.py", NULL);
  g_autofree char *written = NULL;
  CliResult r = run_fx ("trace", model, "--module", "net", "--concrete", "flag=False", "-o", out,
                        NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, trace_net_code);
  cli_result_clear (&r);

  /* a class is constructed with no arguments; --module=NAME works too */
  r = run_fx ("trace", "--module=Net", "--concrete=flag=False", model, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, trace_net_code);
  cli_result_clear (&r);
  remove_dir (dir);
}

static void
test_trace_fxg (void)
{
  char *dir;
  g_autofree char *model = write_trace_model (&dir);
  g_autofree char *out = g_build_filename (dir, "net.fxg", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = NULL;
  CliResult r = run_fx ("trace", model, "--module", "net", "--concrete", "flag=False",
                        "--format", "fxg", "-o", out, NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  gm = fx_fxg_load (out, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gm->module->type_name, ==, "Net");
  {
    g_autofree char *printed = g_strdup_printf ("%s\n", gm->code);
    g_assert_cmpstr (printed, ==, trace_net_code);
  }
  cli_result_clear (&r);

  /* without -o: the document on stdout (small weights are inline) */
  r = run_fx ("trace", model, "--module", "net", "--concrete", "flag=False", "--format", "fxg",
              NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_clear_pointer (&gm, fx_graph_module_unref);
  gm = fx_fxg_from_data (r.out, strlen (r.out), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gm->module->type_name, ==, "Net");
  cli_result_clear (&r);
  remove_dir (dir);
}

static void
test_trace_errors (void)
{
  char *dir;
  g_autofree char *model = write_trace_model (&dir);
  g_autofree char *frame = g_strdup_printf ("  File \"%s\", line 11, in forward\n"
                                            "    if flag:\n", model);
  CliResult r;

  /* TraceError: python's traceback on stderr, exit 1 */
  r = run_fx ("trace", model, "--module", "net", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_true (g_str_has_prefix (r.err, "Traceback (most recent call last):\n"));
  g_assert_nonnull (strstr (r.err, frame));
  g_assert_true (g_str_has_suffix (r.err, "torch.fx.proxy.TraceError: symbolically traced "
                                   "variables cannot be used as inputs to control flow\n"));
  cli_result_clear (&r);

  r = run_fx ("trace", model, "--module", "no_such_thing", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "fx trace: "));
  g_assert_nonnull (strstr (r.err, "'no_such_thing'"));
  cli_result_clear (&r);

  r = run_fx ("trace", "no-such-model.py", "--module", "net", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "fx trace: can't open file '"));
  cli_result_clear (&r);

  /* usage errors: exit 2 with the usage line */
  {
    /* rows padded with NULLs: run_fx stops at the first */
    const char *usage_cases[][8] = {
      { "trace", model },
      { "trace", "--module", "net" },
      { "trace", model, "--module", "net", "--format", "xml" },
      { "trace", model, "--module", "net", "--concrete", "flag" },
      { "trace", model, "--module", "net", "--concrete", "flag=nope" },
      { "trace", model, "--module", "net", "--bogus" },
      { "trace", model, "--module" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (usage_cases); i++)
      {
        const char *const *a = usage_cases[i];
        r = run_fx (a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL);
        g_assert_cmpint (r.status, ==, 2);
        g_assert_cmpstr (r.out, ==, "");
        g_assert_true (g_str_has_prefix (r.err, "fx trace: "));
        g_assert_nonnull (strstr (r.err, "\nUsage: fx trace MODEL.py --module NAME"));
        cli_result_clear (&r);
      }
  }
  remove_dir (dir);
}

/* ---- fx exec ---- */

static char *
write_in (const char *dir, const char *name, const char *text)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* The lines of fx exec's --print-values output that are not "output..." statistics lines:
 * the reprs, as print() would show them one after the other. */
static char *
values_only (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GString *s = g_string_new (NULL);
  for (int i = 0; lines[i] != NULL; i++)
    if (*lines[i] && !g_str_has_prefix (lines[i], "output"))
      g_string_append_printf (s, "%s\n", lines[i]);
  return g_string_free (s, FALSE);
}

/* weights_tiny.pt was saved by PyTorch itself; with it the model must print what torch
 * printed (the last lines of weights_tiny.out) and write what gen_numerics.py recorded. */
static void
test_exec_torch_weights (void)
{
  g_autofree char *cases = g_test_build_filename (G_TEST_DIST, "script", "cases", NULL);
  g_autofree char *model = g_build_filename (cases, "weights_tiny.py", NULL);
  g_autofree char *weights = g_build_filename (cases, "weights_tiny.pt", NULL);
  g_autofree char *golden_out = g_build_filename (cases, "weights_tiny.out", NULL);
  g_autofree char *golden = g_test_build_filename (G_TEST_DIST, "conformance", "goldens",
                                                   "numerics", "tiny.safetensors", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("fx-test-exec-XXXXXX", &error);
  g_autofree char *out_path = g_build_filename (dir, "out.safetensors", NULL);
  g_autofree char *torch_text = NULL;
  FxDict *want, *got;
  const FxValue *k, *w, *h;
  CliResult r;

  g_assert_no_error (error);
  r = run_fx ("exec", model, "--module", "Tiny", "--weights", weights, "--eval",
              "--input", "linspace(-1,1):2x2x4x4", "--print-values", "-o", out_path, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "output  shape=[2, 5]  dtype=torch.float32  min="));
  g_assert_true (g_file_get_contents (golden_out, &torch_text, NULL, NULL));
  {
    /* torch's print(m(x)) is the last two lines of the case's output */
    const char *tail = strstr (torch_text, "tensor([[ ");
    g_autofree char *values = values_only (r.out);
    g_assert_nonnull (tail);
    g_assert_cmpstr (values, ==, tail);
  }
  want = fx_safetensors_load (golden, NULL, &error);
  g_assert_no_error (error);
  got = fx_safetensors_load (out_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (fx_dict_entry (want, 0, &k, &w));
  h = fx_dict_get (got, k);
  g_assert_nonnull (h);
  g_assert_true (fx_tensor_same_shape (w->tensor, h->tensor));
  for (int64_t i = 0; i < fx_tensor_numel (w->tensor); i++)
    {
      double a = fx_tensor_get_double (w->tensor, i), b = fx_tensor_get_double (h->tensor, i);
      g_assert_cmpfloat (fabs (a - b), <=, 1e-5 + 1e-4 * fabs (a));
    }
  fx_dict_unref (want);
  fx_dict_unref (got);
  cli_result_clear (&r);

  /* in training mode BatchNorm uses the batch's statistics: another result */
  r = run_fx ("exec", model, "--module", "Tiny", "--weights", weights,
              "--input", "linspace(-1,1):2x2x4x4", "--print-values", NULL);
  g_assert_cmpint (r.status, ==, 0);
  {
    g_autofree char *values = values_only (r.out);
    g_assert_null (strstr (torch_text, values));
  }
  cli_result_clear (&r);
  remove_dir (g_steal_pointer (&dir));
}

/* Each SPEC makes the tensor the torch expression next to it makes (run under `fx run`,
 * whose randn/linspace/... the script cases check against PyTorch). */
static void
test_exec_inputs (void)
{
  static const struct { const char *spec, *spec2, *python; } cases[] = {
    { "randn(5):3x2", NULL, "torch.manual_seed(5); print(torch.randn(3, 2))" },
    { "randn:2", "randn:3", "torch.manual_seed(0); print(torch.randn(2)); print(torch.randn(3))" },
    { "rand(2):4", NULL, "torch.manual_seed(2); print(torch.rand(4))" },
    { "rand:2x2:float64", NULL, "torch.manual_seed(0); print(torch.rand(2, 2, dtype=torch.float64))" },
    { "zeros:2x2:int64", NULL, "print(torch.zeros(2, 2, dtype=torch.int64))" },
    { "ones:3:float64", NULL, "print(torch.ones(3, dtype=torch.float64))" },
    { "ones:scalar", NULL, "print(torch.ones(()))" },
    { "arange:2x3", NULL, "print(torch.arange(6, dtype=torch.float32).reshape(2, 3))" },
    { "arange:4:int64", NULL, "print(torch.arange(4))" },
    { "linspace(-1,1):5", NULL, "print(torch.linspace(-1, 1, 5))" },
    { "linspace(0, 2.5):2x3", NULL, "print(torch.linspace(0, 2.5, 6).reshape(2, 3))" },
    { "npy_c", NULL, "print(torch.arange(6, dtype=torch.float32).reshape(2, 3) / 4)" },
    { "npy_f", NULL, "print(torch.tensor([[1, 3, 5], [2, 4, 6]], dtype=torch.int64))" },
    { "st", NULL, "print(torch.arange(4, dtype=torch.float64).reshape(2, 2) - 1)" },
  };
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("fx-test-exec-XXXXXX", &error);
  g_autofree char *model = write_in (dir, "m.py", "def ident(x):\n    return x\n\n\n"
                                                   "def pair(a, b):\n    return a, b\n");
  g_autofree char *npy_c = g_build_filename (dir, "c.npy", NULL);
  g_autofree char *npy_f = g_build_filename (dir, "f.npy", NULL);
  g_autofree char *st = g_build_filename (dir, "x.safetensors", NULL);

  g_assert_no_error (error);
  {
    /* .npy files as numpy writes them: a C-order float32 and a Fortran-order int64 array */
    static const char hc[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    static const char hf[] = "{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }";
    float cdata[6] = { 0, 0.25f, 0.5f, 0.75f, 1, 1.25f };
    int64_t fdata[6] = { 1, 2, 3, 4, 5, 6 };
    const char *headers[2] = { hc, hf };
    const char *paths[2] = { npy_c, npy_f };
    const void *data[2] = { cdata, fdata };
    for (int i = 0; i < 2; i++)
      {
        GString *f = g_string_new_len ("\x93NUMPY\x01\x00", 8);
        GString *h = g_string_new (headers[i]);
        while ((10 + h->len + 1) % 64 != 0)
          g_string_append_c (h, ' ');
        g_string_append_c (h, '\n');
        g_string_append_c (f, (char) (h->len & 0xff));
        g_string_append_c (f, (char) (h->len >> 8));
        g_string_append_len (f, h->str, h->len);
        g_string_append_len (f, data[i], 6 * (i ? 8 : 4));
        g_file_set_contents (paths[i], f->str, f->len, &error);
        g_assert_no_error (error);
        g_string_free (f, TRUE);
        g_string_free (h, TRUE);
      }
  }
  {
    double v[4] = { -1, 0, 1, 2 };
    int64_t shape[2] = { 2, 2 };
    FxDict *d = fx_dict_new ();
    fx_dict_set (d, fx_value_take_str (fx_str_new ("x")),
                 fx_value_take_tensor (fx_tensor_new_from_data (FX_DTYPE_FLOAT64, 2, shape, v)));
    g_assert_true (fx_safetensors_save (d, NULL, st, &error));
    fx_dict_unref (d);
  }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *spec = cases[i].spec;
      g_autofree char *script = NULL, *got = NULL;
      CliResult r, py;
      if (strcmp (spec, "npy_c") == 0)
        spec = npy_c;
      else if (strcmp (spec, "npy_f") == 0)
        spec = npy_f;
      else if (strcmp (spec, "st") == 0)
        spec = st;
      script = g_strdup_printf ("import torch\n%s\n", cases[i].python);
      g_free (write_in (dir, "expect.py", script));
      {
        g_autofree char *expect = g_build_filename (dir, "expect.py", NULL);
        py = run_fx ("run", expect, NULL);
      }
      g_assert_cmpint (py.status, ==, 0);
      if (cases[i].spec2)
        r = run_fx ("exec", model, "--module", "pair", "--input", spec, "--input", cases[i].spec2,
                    "--print-values", NULL);
      else
        r = run_fx ("exec", model, "--module", "ident", "--input", spec, "--print-values", NULL);
      g_assert_cmpstr (r.err, ==, "");
      g_assert_cmpint (r.status, ==, 0);
      got = values_only (r.out);
      g_assert_cmpstr (got, ==, py.out);
      cli_result_clear (&r);
      cli_result_clear (&py);
    }

  {
    /* the statistics line: arange(6) has min 0, max 5, mean 2.5 and std sqrt(3.5) */
    CliResult r = run_fx ("exec", model, "--module", "pair", "--input", "arange:2x3",
                          "--input", "zeros:0x2", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==,
                     "output[0]  shape=[2, 3]  dtype=torch.float32  min=0  max=5  mean=2.5  "
                     "std=1.870829\n"
                     "output[1]  shape=[0, 2]  dtype=torch.float32  (empty)\n");
    cli_result_clear (&r);
  }
  remove_dir (dir);
}

/* load_state_dict(strict=True)'s messages: fx exec's must be the script's (which the script
 * cases compare with PyTorch's). */
static void
test_exec_weights_errors (void)
{
  static const char model_src[] =
    "import torch.nn as nn\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.conv = nn.Conv2d(1, 2, 3)\n"
    "        self.bn = nn.BatchNorm2d(2)\n"
    "        self.fc = nn.Linear(2, 3)\n\n"
    "    def forward(self, x):\n"
    "        return self.fc(self.bn(self.conv(x)).mean((2, 3)))\n";
  static const char make_src[] =
    "import sys\nimport torch\nfrom safetensors.torch import save_file\n"
    "from m import Net\n"
    "net = Net()\n"
    "sd = net.state_dict()\n"
    "del sd['conv.bias']\n"
    "sd['fc.weight'] = torch.zeros(4, 2)\n"
    "sd['extra'] = torch.zeros(1)\n"
    "sd['bn.nope.x'] = torch.zeros(1)\n"
    "sd['zz'] = torch.zeros(1)\n"
    "torch.save(sd, sys.argv[1])\n"
    "save_file(sd, sys.argv[2])\n"
    "try:\n"
    "    net.load_state_dict(sd)\n"
    "except RuntimeError as e:\n"
    "    print(e)\n";
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("fx-test-exec-XXXXXX", &error);
  g_autofree char *model = write_in (dir, "m.py", model_src);
  g_autofree char *make = write_in (dir, "make.py", make_src);
  g_autofree char *pt = g_build_filename (dir, "bad.pt", NULL);
  g_autofree char *sft = g_build_filename (dir, "bad.safetensors", NULL);
  const char *files[2] = { pt, sft };
  CliResult py;

  g_assert_no_error (error);
  py = run_fx ("run", make, pt, sft, NULL);
  g_assert_cmpint (py.status, ==, 0);
  g_assert_true (g_str_has_prefix (py.out, "Error(s) in loading state_dict for Net:\n\t"
                                   "Missing key(s) in state_dict: \"conv.bias\". "));
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *want = g_strdup_printf ("fx exec: %s: RuntimeError: %s", files[i], py.out);
      CliResult r = run_fx ("exec", model, "--module", "Net", "--weights", files[i],
                            "--input", "randn:1x1x4x4", NULL);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_cmpstr (r.err, ==, want);
      cli_result_clear (&r);
    }
  cli_result_clear (&py);

  {
    CliResult r = run_fx ("exec", model, "--module", "Net", "--weights", model,
                          "--input", "randn:1x1x4x4", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_true (g_str_has_prefix (r.err, "fx exec: "));
    g_assert_nonnull (strstr (r.err, "--weights"));
    cli_result_clear (&r);
  }
  remove_dir (dir);
}

static void
test_exec_errors_and_profile (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("fx-test-exec-XXXXXX", &error);
  g_autofree char *model = write_in (dir, "m.py", "import torch\n\n\n"
                                                   "def f(x):\n    return torch.relu(x) + 1\n");
  static const struct { const char *spec, *needle; } bad[] = {
    { "randn", "--input 'randn': expected FILL:SHAPE[:DTYPE]" },
    { "randn:2xq", "--input 'randn:2xq': bad shape '2xq'" },
    { "randn:2:float7", "--input 'randn:2:float7': unknown dtype 'float7'" },
    { "gauss:2", "--input 'gauss:2': unknown fill 'gauss'" },
    { "randn(-1):2", "--input 'randn(-1):2': the seed of randn(SEED)" },
    { "linspace(1):2", "--input 'linspace(1):2': linspace needs its ends" },
    { "linspace(a,2):2", "--input 'linspace(a,2):2': 'a' is not a number" },
    { "zeros(3):2", "--input 'zeros(3):2': zeros takes no arguments" },
    { "randn:2:int64", "--input 'randn:2:int64': " },
    { "missing.npy", "--input 'missing.npy': no such file" },
  };
  CliResult r;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      r = run_fx ("exec", model, "--module", "f", "--input", bad[i].spec, NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_true (g_str_has_prefix (r.err, "fx exec: "));
      g_assert_nonnull (strstr (r.err, bad[i].needle));
      g_assert_nonnull (strstr (r.err, "\nUsage: fx exec MODEL.py --module NAME"));
      cli_result_clear (&r);
    }
  r = run_fx ("exec", model, "--input", "randn:2", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--module NAME is required"));
  cli_result_clear (&r);
  r = run_fx ("exec", model, "--module", "f", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--input SPEC is required"));
  cli_result_clear (&r);
  /* a shape the model cannot take: the failing node is named */
  r = run_fx ("exec", model, "--module", "f", "--input", "randn:2", "--input", "randn:2", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "fx exec: "));
  cli_result_clear (&r);

  r = run_fx ("exec", model, "--module", "f", "--input", "arange:3", "--profile", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "output  shape=[3]  dtype=torch.float32  min=1  max=3"));
  g_assert_nonnull (strstr (r.out, "\nforward: "));
  g_assert_nonnull (strstr (r.out, "\nrelu "));
  g_assert_nonnull (strstr (r.out, "\nadd "));
  {
    /* several runs are averaged; the table counts every call of all of them */
    int runs = 0;
    const char *line = strstr (r.out, "\nforward: ");
    const char *mean = line ? strstr (line, " ms, the mean of ") : NULL;
    g_assert_nonnull (mean);
    runs = atoi (mean + strlen (" ms, the mean of "));
    g_assert_cmpint (runs, >=, 5);
    g_assert_cmpint (runs, <=, 100);
    /* the fastest run is no slower than the mean */
    double mean_ms = g_ascii_strtod (line + strlen ("\nforward: "), NULL), best_ms = -1;
    const char *fastest = strstr (line, "; the fastest run ");
    g_assert_nonnull (fastest);
    best_ms = g_ascii_strtod (fastest + strlen ("; the fastest run "), NULL);
    g_assert_cmpfloat (best_ms, >=, 0);
    g_assert_cmpfloat (best_ms, <=, mean_ms + 1e-3);
    char op[32], target[32];
    int calls = 0;
    g_assert_cmpint (sscanf (strstr (r.out, "\nrelu ") + 1, "relu %31s %31s %d", op, target,
                             &calls), ==, 3);
    g_assert_cmpstr (target, ==, "torch.relu");
    g_assert_cmpint (calls, ==, runs);
  }
  cli_result_clear (&r);
  remove_dir (dir);
}

/* ---- fx export ---- */

/* A file's contents, "" when it cannot be read (g_free it). */
static char *
read_text (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

static void
test_export (void)
{
  char *dir;
  g_autofree char *model = write_trace_model (&dir);
  g_autofree char *fxg = g_build_filename (dir, "net.fxg", NULL);
  g_autofree char *package = g_build_filename (dir, "net_pkg", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) saved = NULL;
  CliResult r;

  /* a model's function: the code `fx trace` prints */
  r = run_fx ("export", model, "--module", "double_add", "--code", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, trace_function_code);
  g_assert_cmpstr (r.err, ==, "");
  cli_result_clear (&r);

  /* a saved graph, as the editor saves it: its code, or a package PyTorch imports */
  r = run_fx ("trace", model, "--module", "net", "--concrete", "flag=False", "--format", "fxg",
              "-o", fxg, NULL);
  g_assert_cmpint (r.status, ==, 0);
  cli_result_clear (&r);
  r = run_fx ("export", fxg, "--code", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, trace_net_code);
  cli_result_clear (&r);

  r = run_fx ("export", fxg, "-o", package, "--class", "Net", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_cmpstr (r.err, ==, "");
  cli_result_clear (&r);
  saved = fx_fxg_load (fxg, NULL, &error);
  g_assert_no_error (error);
  {
    g_autofree char *module_py = read_text (package, "module.py");
    g_autofree char *init_py = read_text (package, "__init__.py");
    g_autofree char *state_path = g_build_filename (package, "state_dict.pt", NULL);
    g_autoptr (FxDict) state = NULL;
    g_autoptr (FxDict) expected = fx_module_state_dict (saved->module);

    g_assert_nonnull (strstr (module_py, "\nclass Net(torch.nn.Module):\n"));
    g_assert_nonnull (strstr (module_py, "self.fc = Linear(in_features=4, out_features=3, bias=True)"));
    /* forward as in gm.code, indented into the class */
    g_assert_nonnull (strstr (module_py, "    def forward(self, x, flag_1 = True):\n"
                                         "        eq = flag_1 == False;  flag_1 = None\n"));
    g_assert_cmpstr (init_py, ==, "from .module import *");
    state = fx_checkpoint_load (state_path, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (fx_dict_len (state), ==, fx_dict_len (expected));
    for (guint i = 0; i < fx_dict_len (expected); i++)
      {
        const FxValue *key, *want;
        gboolean same = FALSE;
        g_assert_true (fx_dict_entry (expected, i, &key, &want));
        FxValue *got = fx_dict_get (state, key);
        g_assert_nonnull (got);
        g_assert_true (fx_tensor_allclose (got->tensor, want->tensor, 0, 0, FALSE, &same, &error));
        g_assert_true (same);
      }
  }

  /* errors: exit 2 for usage, 1 for a file that is not a graph, with its path */
  const char *usage_cases[][8] = {
    { "export", fxg, NULL },                                   /* neither -o nor --code */
    { "export", fxg, "--code", "-o", package, NULL },         /* both */
    { "export", model, "--code", NULL },                      /* MODEL.py without --module */
    { "export", fxg, "--module", "net", "--code", NULL },     /* --module with an .fxg */
    { "export", fxg, "-o", package, "--class", "1st", NULL }, /* not an identifier */
  };
  for (guint i = 0; i < G_N_ELEMENTS (usage_cases); i++)
    {
      const char *const *a = usage_cases[i];
      r = run_fx (a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_true (g_str_has_prefix (r.err, "fx export: "));
      g_assert_nonnull (strstr (r.err, "\nUsage: fx export FILE.fxg|MODEL.py"));
      cli_result_clear (&r);
    }
  {
    g_autofree char *bad = g_build_filename (dir, "bad.fxg", NULL);
    g_autofree char *prefix = g_strdup_printf ("fx export: %s: ", bad);
    g_file_set_contents (bad, "not a graph", -1, &error);
    g_assert_no_error (error);
    r = run_fx ("export", bad, "--code", NULL);
    g_assert_cmpint (r.status, ==, 1);
    g_assert_cmpstr (r.out, ==, "");
    g_assert_true (g_str_has_prefix (r.err, prefix));
    cli_result_clear (&r);
  }
  /* tracing errors come as the traceback `fx trace` prints */
  r = run_fx ("export", model, "--module", "net", "--code", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "Traceback (most recent call last):\n"));
  cli_result_clear (&r);

  {
    g_autofree char *p1 = g_build_filename (package, "module.py", NULL);
    g_autofree char *p2 = g_build_filename (package, "__init__.py", NULL);
    g_autofree char *p3 = g_build_filename (package, "state_dict.pt", NULL);
    g_remove (p1);
    g_remove (p2);
    g_remove (p3);
    g_rmdir (package);
  }
  remove_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("FX_CLI") == NULL)
    {
      g_printerr ("FX_CLI is not set: run this test through meson\n");
      return 1;
    }
  g_test_add_func ("/cli/help-lists-subcommands", test_help_lists_subcommands);
  g_test_add_func ("/cli/version", test_version);
  g_test_add_func ("/cli/no-arguments", test_no_arguments_is_usage_error);
  g_test_add_func ("/cli/unknown-command", test_unknown_command);
  g_test_add_func ("/cli/subcommand-help", test_subcommand_help);
  g_test_add_func ("/cli/run-missing-script", test_run_missing_script);
  g_test_add_func ("/cli/trace-formats", test_trace_formats);
  g_test_add_func ("/cli/trace-concrete-and-output-file", test_trace_concrete_and_output_file);
  g_test_add_func ("/cli/trace-fxg", test_trace_fxg);
  g_test_add_func ("/cli/trace-errors", test_trace_errors);
  g_test_add_func ("/cli/exec-torch-weights", test_exec_torch_weights);
  g_test_add_func ("/cli/exec-inputs", test_exec_inputs);
  g_test_add_func ("/cli/exec-weights-errors", test_exec_weights_errors);
  g_test_add_func ("/cli/exec-errors-and-profile", test_exec_errors_and_profile);
  g_test_add_func ("/cli/export", test_export);
  return g_test_run ();
}
