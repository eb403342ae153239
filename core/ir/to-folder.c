/* to-folder.c: GraphModule.to_folder — a Python package that real PyTorch imports and runs:
 * module.py laid out as torch.fx 1.13 writes it, weights in state_dict.pt (torch.save's
 * format, fx_checkpoint_save). Where 1.13 pickles submodules that have no "safe" repr, this
 * rebuilds every builtin layer from its repr and plain Module containers as torch.nn.Module()
 * with their own children, parameters and buffers, so no pickled module is needed. */
#include "ir/graph-module.h"
#include "ir/checkpoint.h"
#include "ir/codegen.h"
#include "ops/layers.h"
#include "fx-error.h"

#include <glib/gstdio.h>
#include <string.h>
#include <errno.h>

static const char custom_builtins[] =
  "from math import inf\n"
  "from math import nan\n"
  "NoneType = type(None)\n"
  "import torch\n"
  "from torch import device\n"
  "import torch.fx._pytree as fx_pytree\n"
  "import torch.utils._pytree as pytree";

static void
append_empty (GString *out, const FxTensor *t)
{
  g_string_append (out, "torch.empty([");
  for (int d = 0; d < t->ndim; d++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d ? ", " : "", t->shape[d]);
  g_string_append_printf (out, "], dtype=torch.%s)", fx_dtype_name (t->dtype));
}

/* The Python expression for the module at path ("self", "self.layer1",
 * getattr(self.layer1, "0")). */
static char *
owner_expr (const char *path)
{
  GString *s = g_string_new (NULL);
  if (*path == '\0')
    g_string_append (s, "self");
  else
    fx_format_target (s, "self", path);
  return g_string_free (s, FALSE);
}

static gboolean
simple_value (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_NONE: case FX_VALUE_BOOL: case FX_VALUE_INT: case FX_VALUE_FLOAT:
    case FX_VALUE_STR: case FX_VALUE_DTYPE:
      return TRUE;
    case FX_VALUE_TUPLE: case FX_VALUE_LIST:
      for (guint i = 0; i < v->seq->len; i++)
        if (!simple_value (&v->seq->items[i]))
          return FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

typedef struct {
  GString *out;
  GPtrArray *non_persistent;    /* "owner\nname" of buffers to re-register after loading */
  GHashTable *called;           /* call_module targets */
} Writer;

/* Parameters, buffers, attributes and children of a module that is not rebuilt by a
 * constructor (the root, plain Modules and containers). */
static gboolean write_contents (Writer *w, FxModule *m, const char *path, GError **error);

static gboolean
write_child (Writer *w, FxModule *parent_owner_module, const char *parent_path, const char *name,
             FxModule *child, GError **error)
{
  g_autofree char *owner = owner_expr (parent_path);
  g_autofree char *path = *parent_path ? g_strdup_printf ("%s.%s", parent_path, name) : g_strdup (name);
  g_autofree char *ctor = NULL;
  gboolean rebuild_contents = FALSE;

  (void) parent_owner_module;
  if (child->layer != NULL && !(child->layer->flags & FX_LAYER_FLAG_CONTAINER))
    {
      g_autofree char *repr = NULL;
      if (fx_dict_len (child->children) > 0)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "to_folder: layer '%s' (%s) has submodules; its repr cannot rebuild it",
                       path, child->type_name);
          return FALSE;
        }
      repr = fx_module_repr (child);
      ctor = g_strdup (repr);
    }
  else if (child->layer != NULL)
    {
      ctor = g_strdup_printf ("%s()", child->type_name);       /* Sequential(), ModuleList() */
      rebuild_contents = TRUE;
    }
  else
    {
      if (strcmp (child->type_name, "Module") != 0 && g_hash_table_contains (w->called, path))
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "to_folder: module '%s' of type '%s' is called by the graph but is not a "
                       "builtin layer, so it cannot be rebuilt", path, child->type_name);
          return FALSE;
        }
      ctor = g_strdup ("torch.nn.Module()");
      rebuild_contents = TRUE;
    }
  if (*parent_path == '\0' && fx_is_identifier (name))
    g_string_append_printf (w->out, "        self.%s = %s\n", name, ctor);
  else
    g_string_append_printf (w->out, "        %s.add_module('%s', %s)\n", owner, name, ctor);
  return rebuild_contents ? write_contents (w, child, path, error) : TRUE;
}

static gboolean
write_contents (Writer *w, FxModule *m, const char *path, GError **error)
{
  g_autofree char *owner = owner_expr (path);
  const FxValue *k, *v;
  gboolean top = *path == '\0';

  /* children first, then buffers, then parameters: 1.13's order */
  for (guint i = 0; fx_dict_entry (m->children, i, &k, &v); i++)
    if (fx_value_is_module (v) && !write_child (w, m, path, k->s->data, fx_value_get_module (v), error))
      return FALSE;
  for (guint i = 0; fx_dict_entry (m->buffers, i, &k, &v); i++)
    {
      if (v->kind != FX_VALUE_TENSOR)
        continue;
      g_string_append_printf (w->out, "        %s.register_buffer('%s', ", owner, k->s->data);
      append_empty (w->out, v->tensor);
      g_string_append (w->out, ")\n");
      if (g_hash_table_contains (m->non_persistent, k->s->data))
        g_ptr_array_add (w->non_persistent, g_strdup_printf ("%s\n%s", owner, k->s->data));
    }
  for (guint i = 0; fx_dict_entry (m->parameters, i, &k, &v); i++)
    {
      if (v->kind != FX_VALUE_TENSOR)
        continue;
      if (top && fx_is_identifier (k->s->data))
        g_string_append_printf (w->out, "        self.%s = torch.nn.Parameter(", k->s->data);
      else
        g_string_append_printf (w->out, "        %s.register_parameter('%s', torch.nn.Parameter(",
                                owner, k->s->data);
      append_empty (w->out, v->tensor);
      g_string_append (w->out, top && fx_is_identifier (k->s->data) ? ")\n" : "))\n");
    }
  for (guint i = 0; fx_dict_entry (m->attributes, i, &k, &v); i++)
    {
      g_autofree char *repr = NULL;
      if (!simple_value (v))
        {
          g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED,
                       "to_folder: attribute '%s%s%s' holds a %s, which module.py cannot spell",
                       path, *path ? "." : "", k->s->data, fx_value_kind_name (v->kind));
          return FALSE;
        }
      repr = fx_value_to_repr (v);
      g_string_append_printf (w->out, "        setattr(%s, '%s', %s)\n", owner, k->s->data, repr);
    }
  return TRUE;
}

/* _addindent(s, 4): every line but the first gets four spaces. */
static void
append_indented (GString *out, const char *s)
{
  g_auto (GStrv) lines = g_strsplit (s, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (out, "\n    ");
      g_string_append (out, lines[i]);
    }
}

/* state_dict() detaches: plain tensors viewing the same storages. Non-persistent buffers
 * are saved too (module.py registers them persistent, loads, then marks them back). */
static FxDict *
folder_state_dict (FxModule *root)
{
  FxDict *sd = fx_dict_new ();
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();

  fx_module_named_modules (root, names, modules);
  for (guint m = 0; m < modules->len; m++)
    {
      FxModule *mod = modules->pdata[m];
      const char *prefix = names->pdata[m];
      FxDict *tables[] = { mod->parameters, mod->buffers };
      for (guint t = 0; t < 2; t++)
        {
          const FxValue *k, *v;
          for (guint i = 0; fx_dict_entry (tables[t], i, &k, &v); i++)
            {
              FxTensor *x;
              g_autofree char *key = NULL;
              if (v->kind != FX_VALUE_TENSOR)
                continue;
              x = v->tensor;
              key = *prefix ? g_strdup_printf ("%s.%s", prefix, k->s->data) : g_strdup (k->s->data);
              fx_dict_set (sd, fx_value_str (key),
                           fx_value_take_tensor (fx_tensor_new_view (x->storage, x->dtype, x->ndim, x->shape,
                                                                     x->strides, x->offset)));
            }
        }
    }
  return sd;
}

gboolean
fx_graph_module_to_folder (FxGraphModule *gm, const char *folder, const char *module_name,
                           GError **error)
{
  Writer w = { 0 };
  g_autofree char *state_path = g_build_filename (folder, "state_dict.pt", NULL);
  g_autofree char *module_path = g_build_filename (folder, "module.py", NULL);
  g_autofree char *init_path = g_build_filename (folder, "__init__.py", NULL);
  g_autoptr (GError) local = NULL;
  FxDict *sd;
  gboolean ok = FALSE;

  if (module_name == NULL)
    module_name = "FxModule";
  if (!fx_is_identifier (module_name))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_INVALID_ARGUMENT,
                   "to_folder: '%s' is not a valid class name", module_name);
      return FALSE;
    }
  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s: %s", folder, g_strerror (errno));
      return FALSE;
    }
  w.out = g_string_new (NULL);
  w.non_persistent = g_ptr_array_new_with_free_func (g_free);
  w.called = g_hash_table_new (g_str_hash, g_str_equal);
  for (FxNode *n = fx_graph_first (gm->graph); n; n = fx_node_next (n))
    if (n->op == FX_OP_CALL_MODULE)
      g_hash_table_add (w.called, n->target.s->data);

  g_string_append_printf (w.out, "\nimport torch\n%s\n\nfrom torch.nn import *\n"
                          "class %s(torch.nn.Module):\n    def __init__(self):\n"
                          "        super().__init__()\n", custom_builtins, module_name);
  if (!write_contents (&w, gm->module, "", error))
    goto out;
  g_string_append_printf (w.out, "        self.load_state_dict(torch.load(r'%s/state_dict.pt'))\n", folder);
  for (guint i = 0; i < w.non_persistent->len; i++)
    {
      g_auto (GStrv) parts = g_strsplit (w.non_persistent->pdata[i], "\n", 2);
      g_autofree char *target = fx_is_identifier (parts[1])
                                ? g_strdup_printf ("%s.%s", parts[0], parts[1])
                                : g_strdup_printf ("getattr(%s, '%s')", parts[0], parts[1]);
      g_string_append_printf (w.out, "        %s.register_buffer('%s', %s, persistent=False)\n",
                              parts[0], parts[1], target);
    }
  append_indented (w.out, gm->code);
  g_string_append_c (w.out, '\n');

  sd = folder_state_dict (gm->module);
  ok = fx_checkpoint_save (sd, state_path, error);
  fx_dict_unref (sd);
  if (!ok)
    goto out;
  ok = FALSE;
  if (!g_file_set_contents (module_path, w.out->str, (gssize) w.out->len, &local)
      || !g_file_set_contents (init_path, "from .module import *", -1, &local))
    {
      g_set_error (error, FX_ERROR, FX_ERROR_IO, "%s", local->message);
      goto out;
    }
  ok = TRUE;
out:
  g_string_free (w.out, TRUE);
  g_ptr_array_unref (w.non_persistent);
  g_hash_table_unref (w.called);
  return ok;
}
