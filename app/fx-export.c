/* fx-export.c: `fx export FILE.fxg|MODEL.py [--module NAME] (-o DIR | --code)` — writes a
 * saved (possibly edited) graph or a freshly traced model as a package real PyTorch imports
 * (GraphModule.to_folder: module.py, state_dict.pt, __init__.py) or prints its code. */
#include <fx.h>
#include "trace/trace.h"
#include "ir/fxg.h"
#include "ir/names.h"
#include "fx-cli.h"

#include <stdio.h>
#include <string.h>

#define EXPORT_SYNOPSIS "FILE.fxg|MODEL.py [--module NAME] [--concrete NAME=VALUE]... [--class NAME] (-o DIR | --code)"


static int
export_usage_error (const char *message)
{
  fprintf (stderr, "fx export: %s\nUsage: fx export %s\n", message, EXPORT_SYNOPSIS);
  return 2;
}

/* The graph to export: an .fxg document as saved (by the editor or `fx trace --format fxg`),
 * or the module NAME of a model source traced now. */
static FxGraphModule *
load_graph (const char *path, const char *name, FxDict *concrete, GError **error)
{
  if (g_str_has_suffix (path, ".fxg"))
    {
      FxGraphModule *gm = fx_fxg_load (path, NULL, error);
      if (gm == NULL)
        g_prefix_error (error, "%s: ", path);
      return gm;
    }

  return fx_cli_trace (path, name, concrete, NULL, error);
}

int
fx_command_export (int argc, char **argv)
{
  g_autofree char *module = NULL, *class_name = NULL, *folder = NULL;
  g_auto (GStrv) rest = NULL, concrete_args = NULL;
  gboolean code = FALSE;
  GOptionEntry entries[] = {
    { "module", 0, 0, G_OPTION_ARG_STRING, &module, "Module, class or function to trace", "NAME" },
    { "concrete", 0, 0, G_OPTION_ARG_STRING_ARRAY, &concrete_args, "Specialise an argument", "NAME=VALUE" },
    { "class", 0, 0, G_OPTION_ARG_STRING, &class_name, "Class name in module.py", "NAME" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &folder, "Write the package to DIR", "DIR" },
    { "code", 0, 0, G_OPTION_ARG_NONE, &code, "Print the generated forward()", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxGraphModule) gm = NULL;
  g_autoptr (FxDict) concrete = fx_dict_new ();

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_help_enabled (context, FALSE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return export_usage_error (error->message);
  if (rest == NULL || rest[0] == NULL)
    return export_usage_error ("missing FILE.fxg or MODEL.py");
  if (rest[1] != NULL)
    {
      g_autofree char *message = g_strdup_printf ("unexpected argument '%s'", rest[1]);
      return export_usage_error (message);
    }
  if ((folder != NULL) == code)
    return export_usage_error (code ? "choose one of -o DIR and --code"
                                    : "say where to: -o DIR (a package) or --code (stdout)");
  if (g_str_has_suffix (rest[0], ".fxg") && module != NULL)
    return export_usage_error ("--module is for MODEL.py; an .fxg file holds one graph");
  if (!g_str_has_suffix (rest[0], ".fxg") && module == NULL)
    return export_usage_error ("--module NAME is required for MODEL.py");
  if (class_name != NULL && !fx_is_identifier (class_name))
    {
      g_autofree char *message = g_strdup_printf ("--class '%s' is not a Python identifier",
                                                  class_name);
      return export_usage_error (message);
    }

  for (guint i = 0; concrete_args != NULL && concrete_args[i] != NULL; i++)
    {
      g_autofree char *message = NULL;
      if (!fx_cli_add_concrete (concrete, concrete_args[i], &message))
        return export_usage_error (message);
    }
  if (concrete_args != NULL && g_str_has_suffix (rest[0], ".fxg"))
    return export_usage_error ("--concrete is for MODEL.py; an .fxg file is traced already");

  gm = load_graph (rest[0], module, fx_dict_len (concrete) > 0 ? concrete : NULL, &error);
  if (gm == NULL)
    return fx_cli_fail ("export", NULL, error);
  if (code)
    {
      printf ("%s\n", gm->code);
      return 0;
    }
  if (!fx_graph_module_to_folder (gm, folder, class_name, &error))
    return fx_cli_fail ("export", NULL, error);
  return 0;
}
