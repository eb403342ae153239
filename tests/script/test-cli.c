/* test-cli.c: the fx command line's interface — help, version, subcommands, python-like
 * errors for scripts that cannot be opened. Runs the built `fx` ($FX_CLI). */
#include <fx.h>
#include <gio/gio.h>
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
  return g_test_run ();
}
