/* test-cli.c: the fx command line's interface — help, version, subcommands, python-like
 * errors for scripts that cannot be opened, `fx trace`'s formats and errors. Runs the built
 * `fx` ($FX_CLI). */
#include <fx.h>
#include "ir/fxg.h"
#include <gio/gio.h>
#include <glib/gstdio.h>
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
  return g_test_run ();
}
