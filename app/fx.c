/* fx.c: the fx command line — `fx run`, `fx trace`, `fx exec`, `fx export`: libfx's headless
 * jobs. Each subcommand is one entry of the table below. */
#include <fx.h>
#include "script/script.h"
#include "trace/trace.h"
#include "fx-cli.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef int (*FxCommandFunc) (int argc, char **argv);

typedef struct {
  const char *name;
  const char *synopsis;
  const char *summary;
  FxCommandFunc run;
  const char *details;     /* more text for `fx COMMAND --help`, or NULL */
} FxCommand;

static int command_run (int argc, char **argv);

static const FxCommand commands[] = {
  { "run", "SCRIPT.py [ARGS...]",
    "Run a Python script that uses torch and torch.fx, as `python SCRIPT.py` would",
    command_run, NULL },
  { "trace", "MODEL.py --module NAME [--concrete NAME=VALUE]... [--leaf CLASS]... [--format code|graph|tabular|fxg] [-o FILE]",
    "Symbolically trace a module or function of a model file and print its graph",
    fx_command_trace, NULL },
  { "exec", "MODEL.py --module NAME [--weights FILE] --input SPEC [--input SPEC]... [--eval] [--print-values] [--profile] [-o FILE]",
    "Trace a module and run it on generated or loaded inputs",
    fx_command_exec,
    "SPEC is FILL:SHAPE[:DTYPE], or a .safetensors or .npy file holding one tensor.\n"
    "  FILL   randn, randn(SEED), rand, rand(SEED), zeros, ones, arange, linspace(A,B)\n"
    "  SHAPE  sizes joined by x, like 1x3x224x224\n"
    "  DTYPE  float32 (default), float64, int64, ...\n"
    "randn(SEED) is torch.manual_seed(SEED); torch.randn(SHAPE); plain randn and rand draw in\n"
    "turn from one generator seeded 0. linspace(A,B) is torch.linspace(A, B, numel) reshaped.\n\n"
    "  --weights FILE   load a state dict (.safetensors, or .pt/.pth from torch.save) strictly,\n"
    "                   with load_state_dict's errors\n"
    "  --eval           run the module in eval mode, as after module.eval()\n"
    "  --print-values   print each output tensor as PyTorch prints it\n"
    "  --profile        print the time spent in each node, slowest first (a warm-up\n"
    "                   run, then at least 5 runs and half a second, up to 100; the\n"
    "                   mean and the fastest call of each node)\n"
    "  -o FILE          write the output tensors to FILE as safetensors" },
  { "export", "FILE.fxg|MODEL.py [--module NAME] [--concrete NAME=VALUE]... [--class NAME] (-o DIR | --code)",
    "Write a traced or edited graph as Python code or as a PyTorch package",
    fx_command_export,
    "  --module NAME   the module, Module subclass or function of MODEL.py to trace\n"
    "  --concrete NAME=VALUE  specialise an argument while tracing, as `fx trace` does\n"
    "  -o DIR          write DIR/module.py, DIR/state_dict.pt and DIR/__init__.py, a package\n"
    "                  PyTorch imports (GraphModule.to_folder): `from DIR import FxModule`\n"
    "  --class NAME    the class name in module.py (default FxModule)\n"
    "  --code          print the generated forward() instead" },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage: fx COMMAND [OPTIONS...]\n\n"
                "torch.fx re-made in C: trace, run, rewrite and export PyTorch models.\n\n"
                "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nOptions:\n"
                "  -h, --help     Show this help, or a command's with `fx COMMAND --help`\n"
                "  --version      Show the version of fx and libfx\n\n"
                "The desktop editor is fx-editor.\n");
}

static void
print_command_usage (const FxCommand *command, FILE *out)
{
  fprintf (out, "Usage: fx %s %s\n\n%s.\n", command->name, command->synopsis, command->summary);
  if (command->details != NULL)
    fprintf (out, "\n%s\n", command->details);
}

static const FxCommand *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

static gboolean
wants_help (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
      return TRUE;
  return FALSE;
}

typedef struct {
  int argc;
  char **argv;
  int status;
} RunJob;

static void *
run_script_thread (void *data)
{
  RunJob *job = data;
  FxScript *script = fx_script_new ();
  job->status = fx_script_main (script, job->argv[0], job->argc, (const char *const *) job->argv);
  fx_script_free (script);
  return NULL;
}

/* `fx run SCRIPT.py ARGS...`: sys.argv is [SCRIPT.py, ARGS...]; the exit status is python's.
 * The script runs on a thread with a large stack so that a raised sys.setrecursionlimit()
 * goes as deep as CPython's would (the interpreter's stack guard still stops a runaway). */
static int
command_run (int argc, char **argv)
{
  RunJob job = { argc - 1, argv + 1, 1 };

  if (argc < 2)
    {
      print_command_usage (find_command ("run"), stderr);
      return 2;
    }
  fx_cli_run_on_big_stack (run_script_thread, &job);
  return job.status;
}

/* A 256 MB stack (or this thread's when no thread can be made). */
void
fx_cli_run_on_big_stack (void *(*func) (void *), void *data)
{
  pthread_attr_t attr;
  pthread_t thread;

  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, (size_t) 256 << 20);
  if (pthread_create (&thread, &attr, func, data) == 0)
    pthread_join (thread, NULL);
  else
    func (data);
  pthread_attr_destroy (&attr);
}

typedef struct {
  const char *model, *name;
  FxDict *concrete;
  const char *const *leaves;
  FxGraphModule *gm;
  GError *error;
} CliTrace;

static void *
trace_job_run (void *data)
{
  CliTrace *job = data;
  job->gm = fx_trace_file (job->model, job->name, job->concrete, job->leaves, &job->error);
  return NULL;
}

FxGraphModule *
fx_cli_trace (const char *model, const char *name, FxDict *concrete,
              const char *const *leaves, GError **error)
{
  CliTrace job = { model, name, concrete, leaves, NULL, NULL };

  fx_cli_run_on_big_stack (trace_job_run, &job);
  if (job.gm == NULL)
    {
      if (job.error == NULL)
        g_set_error_literal (&job.error, FX_ERROR, FX_ERROR_FAILED, "tracing failed");
      g_propagate_error (error, job.error);
    }
  return job.gm;
}

int
fx_cli_fail (const char *command, const char *what, const GError *error)
{
  const char *message = error->message;

  if (g_str_has_prefix (message, "Traceback") || g_str_has_prefix (message, "  File"))
    fprintf (stderr, "%s\n", message);
  else
    fprintf (stderr, "fx %s: %s%s%s\n", command, what ? what : "", what ? ": " : "", message);
  return 1;
}

gboolean
fx_cli_add_concrete (FxDict *concrete, const char *arg, char **message)
{
  const char *eq = strchr (arg, '=');
  g_autofree char *key = NULL;
  g_autoptr (GError) error = NULL;
  FxValue literal;

  if (eq == NULL || eq == arg)
    {
      *message = g_strdup ("--concrete needs NAME=VALUE");
      return FALSE;
    }
  key = g_strndup (arg, eq - arg);
  if (!fx_trace_parse_literal (eq + 1, &literal, &error))
    {
      *message = g_strdup_printf ("--concrete %s: VALUE must be a Python literal (%s)", key,
                                  error->message);
      return FALSE;
    }
  fx_dict_set (concrete, fx_value_str (key), literal);
  return TRUE;
}

int
main (int argc, char **argv)
{
  const FxCommand *command;

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("fx %s\n", fx_version ());
      return 0;
    }
  command = find_command (argv[1]);
  if (command == NULL)
    {
      fprintf (stderr, "fx: unknown command '%s'\n\n", argv[1]);
      print_usage (stderr);
      return 2;
    }
  /* Arguments after the script belong to the script: only look for --help before it. */
  if (wants_help (command->run == command_run ? MIN (argc - 1, 2) : argc - 1, argv + 1))
    {
      print_command_usage (command, stdout);
      return 0;
    }
  return command->run (argc - 1, argv + 1);
}
