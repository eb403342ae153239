/* fx-trace.c: `fx trace MODEL.py --module NAME ...` — symbolically trace a module, Module
 * subclass or function of a model file and print its code, graph or table, or write it as an
 * .fxg document. */
#include <fx.h>
#include "trace/trace.h"
#include "ir/fxg.h"
#include "fx-cli.h"

#include <stdio.h>
#include <string.h>

#define TRACE_SYNOPSIS \
  "MODEL.py --module NAME [--concrete NAME=VALUE]... [--leaf CLASS]... " \
  "[--format code|graph|tabular|fxg] [-o FILE]"

typedef struct {
  const char *model;
  const char *name;
  const char *format;
  const char *output;
  FxDict *concrete;
  GPtrArray *leaves;        /* class names, NULL-terminated */
} TraceOptions;

static int
usage_error (const char *format, ...) G_GNUC_PRINTF (1, 2);

static int
usage_error (const char *format, ...)
{
  va_list ap;
  g_autofree char *message = NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  fprintf (stderr, "fx trace: %s\nUsage: fx trace %s\n", message, TRACE_SYNOPSIS);
  return 2;
}

/* "--opt VALUE" or "--opt=VALUE" at argv[*i]; advances *i past what it used. */
static gboolean
option_value (int argc, char **argv, int *i, const char *opt, const char **value)
{
  const char *arg = argv[*i];
  gsize n = strlen (opt);

  if (strncmp (arg, opt, n) != 0)
    return FALSE;
  if (arg[n] == '=' && n > 2)
    {
      *value = arg + n + 1;
      return TRUE;
    }
  if (arg[n] != '\0')
    return FALSE;
  *value = *i + 1 < argc ? argv[++*i] : NULL;
  return TRUE;
}

/* The traced graph as text in the chosen format (what print() would show); NULL with
 * error for fxg documents that cannot be written. */
static char *
render (FxGraphModule *gm, const char *format, GError **error)
{
  if (strcmp (format, "code") == 0)
    return g_strdup_printf ("%s\n", gm->code);
  if (strcmp (format, "graph") == 0)
    {
      g_autofree char *s = fx_graph_to_string (gm->graph);
      return g_strdup_printf ("%s\n", s);
    }
  if (strcmp (format, "tabular") == 0)
    {
      g_autofree char *s = fx_graph_tabular (gm->graph);
      return g_strdup_printf ("%s\n", s);
    }
  /* fxg on stdout: only when every tensor fits inline */
  {
    g_autoptr (GBytes) sidecar = NULL;
    char *text = fx_fxg_to_data (gm, NULL, "model.fxg.safetensors", &sidecar, error);
    if (text != NULL && sidecar != NULL)
      {
        g_free (text);
        g_set_error (error, FX_ERROR, FX_ERROR_IO,
                     "the weights need a safetensors sidecar file: write the .fxg with -o FILE");
        return NULL;
      }
    if (text != NULL)
      {
        char *line = g_strdup_printf ("%s\n", text);
        g_free (text);
        return line;
      }
    return NULL;
  }
}

int
fx_command_trace (int argc, char **argv)
{
  TraceOptions job = { 0 };
  g_autoptr (FxDict) concrete = fx_dict_new ();
  g_autoptr (GPtrArray) leaves = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) result = NULL;
  int status = 0;

  job.format = "code";
  for (int i = 1; i < argc; i++)
    {
      const char *value = NULL;
      if (option_value (argc, argv, &i, "--module", &value))
        {
          if (value == NULL)
            return usage_error ("--module needs a NAME");
          job.name = value;
        }
      else if (option_value (argc, argv, &i, "--format", &value))
        {
          if (value == NULL)
            return usage_error ("--format needs one of code, graph, tabular, fxg");
          if (strcmp (value, "code") != 0 && strcmp (value, "graph") != 0
              && strcmp (value, "tabular") != 0 && strcmp (value, "fxg") != 0)
            return usage_error ("unknown format '%s' (choose from code, graph, tabular, fxg)",
                                value);
          job.format = value;
        }
      else if (option_value (argc, argv, &i, "-o", &value)
               || option_value (argc, argv, &i, "--output", &value))
        {
          if (value == NULL)
            return usage_error ("-o needs a FILE");
          job.output = value;
        }
      else if (option_value (argc, argv, &i, "--leaf", &value))
        {
          if (value == NULL)
            return usage_error ("--leaf needs a CLASS name");
          g_ptr_array_add (leaves, (gpointer) value);
        }
      else if (option_value (argc, argv, &i, "--concrete", &value))
        {
          g_autofree char *message = NULL;
          if (!fx_cli_add_concrete (concrete, value ? value : "", &message))
            return usage_error ("%s", message);
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("unknown option '%s'", argv[i]);
      else if (job.model == NULL)
        job.model = argv[i];
      else
        return usage_error ("unexpected argument '%s'", argv[i]);
    }
  if (job.model == NULL)
    return usage_error ("missing MODEL.py");
  if (job.name == NULL)
    {
      /* say what NAME could be, when the file runs */
      g_autoptr (GPtrArray) candidates = fx_trace_list_candidates (job.model, NULL);
      g_autoptr (GString) names = g_string_new (NULL);
      for (guint i = 0; candidates != NULL && i < candidates->len; i++)
        {
          const FxTraceCandidate *c = candidates->pdata[i];
          if (c->kind == FX_TRACE_CANDIDATE_CLASS && !c->constructible)
            continue;
          g_string_append_printf (names, "%s%s", names->len ? ", " : "", c->name);
        }
      if (names->len > 0)
        return usage_error ("missing --module NAME (%s defines %s)", job.model, names->str);
      return usage_error ("missing --module NAME");
    }

  g_ptr_array_add (leaves, NULL);
  job.leaves = leaves;
  job.concrete = fx_dict_len (concrete) > 0 ? concrete : NULL;

  result = fx_cli_trace (job.model, job.name, job.concrete,
                         (const char *const *) job.leaves->pdata, &error);
  if (result == NULL)
    return fx_cli_fail ("trace", NULL, error);

  if (strcmp (job.format, "fxg") == 0 && job.output != NULL)
    {
      if (!fx_fxg_save (result, NULL, job.output, &error))
        status = 1;
    }
  else
    {
      text = render (result, job.format, &error);
      if (text == NULL)
        status = 1;
      else if (job.output != NULL)
        {
          if (!g_file_set_contents (job.output, text, -1, &error))
            status = 1;
        }
      else
        fputs (text, stdout);
    }
  if (status != 0)
    fx_cli_fail ("trace", NULL, error);
  return status;
}
