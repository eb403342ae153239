/* module.c: FxModule — the nn.Module tree and its PyTorch behaviours (registration order,
 * get_submodule, state_dict order, repr with indented children). */
#include "ir/module.h"
#include "fx-error.h"

#include <string.h>

static void
module_finalize (FxObject *obj)
{
  FxModule *module = (FxModule *) obj;

  g_free (module->type_name);
  fx_dict_unref (module->parameters);
  fx_dict_unref (module->buffers);
  g_hash_table_unref (module->non_persistent);
  fx_dict_unref (module->children);
  fx_dict_unref (module->attributes);
  g_free (module);
}

static void
module_repr (const FxObject *obj, GString *out)
{
  g_autofree char *s = fx_module_repr ((const FxModule *) obj);
  g_string_append (out, s);
}

const FxObjectClass fx_module_class = {
  .name = "Module",
  .finalize = module_finalize,
  .repr = module_repr,
};

FxModule *
fx_module_new (const char *type_name)
{
  FxModule *module = fx_new0 (FxModule, 1);

  fx_object_init (&module->parent, &fx_module_class);
  module->type_name = g_strdup (type_name);
  module->training = TRUE;
  module->parameters = fx_dict_new ();
  module->buffers = fx_dict_new ();
  module->non_persistent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  module->children = fx_dict_new ();
  module->attributes = fx_dict_new ();
  return module;
}

FxModule *
fx_module_ref (FxModule *module)
{
  fx_object_ref (&module->parent);
  return module;
}

void
fx_module_unref (FxModule *module)
{
  if (module != NULL)
    fx_object_unref (&module->parent);
}

gboolean
fx_value_is_module (const FxValue *value)
{
  return value->kind == FX_VALUE_OBJECT && value->obj->klass == &fx_module_class;
}

FxModule *
fx_value_get_module (const FxValue *value)
{
  return fx_value_is_module (value) ? (FxModule *) value->obj : NULL;
}

FxValue
fx_value_module (FxModule *module)
{
  return fx_value_take_object (&fx_module_ref (module)->parent);
}

static void
forget_name (FxModule *module, const char *name, FxDict *keep)
{
  FxValue key = fx_value_str (name);
  FxDict *tables[] = { module->parameters, module->buffers, module->children, module->attributes };

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (tables[i] != keep)
      fx_dict_remove (tables[i], &key);
  fx_value_clear (&key);
}

void
fx_module_register_parameter (FxModule *module, const char *name, FxTensor *param)
{
  forget_name (module, name, module->parameters);
  if (param != NULL)
    param->requires_grad = TRUE;
  fx_dict_set (module->parameters, fx_value_str (name),
               param ? fx_value_tensor (param) : fx_value_none ());
}

void
fx_module_register_buffer (FxModule *module, const char *name, FxTensor *buffer,
                           gboolean persistent)
{
  forget_name (module, name, module->buffers);
  fx_dict_set (module->buffers, fx_value_str (name),
               buffer ? fx_value_tensor (buffer) : fx_value_none ());
  if (persistent)
    g_hash_table_remove (module->non_persistent, name);
  else
    g_hash_table_add (module->non_persistent, g_strdup (name));
}

void
fx_module_add_module (FxModule *module, const char *name, FxModule *child)
{
  forget_name (module, name, module->children);
  fx_dict_set (module->children, fx_value_str (name),
               child ? fx_value_module (child) : fx_value_none ());
}

void
fx_module_set_attribute (FxModule *module, const char *name, const FxValue *value)
{
  forget_name (module, name, module->attributes);
  fx_dict_set (module->attributes, fx_value_str (name), fx_value_copy (value));
}

/* The value of one attribute name (no dots): parameters, buffers, children, then attributes
 * — nn.Module.__getattr__'s order after the instance dict. Borrowed. */
static const FxValue *
lookup_one (const FxModule *module, const char *name, char *kind)
{
  FxValue key = fx_value_str (name);
  const FxValue *v;
  char k = 0;

  if ((v = fx_dict_get (module->parameters, &key)) != NULL)
    k = 'p';
  else if ((v = fx_dict_get (module->buffers, &key)) != NULL)
    k = 'b';
  else if ((v = fx_dict_get (module->children, &key)) != NULL)
    k = 'm';
  else if ((v = fx_dict_get (module->attributes, &key)) != NULL)
    k = 'a';
  fx_value_clear (&key);
  if (kind)
    *kind = k;
  return v;
}

FxModule *
fx_module_get_submodule (FxModule *module, const char *target, GError **error)
{
  g_auto (GStrv) atoms = NULL;

  if (target == NULL || *target == '\0')
    return module;
  atoms = g_strsplit (target, ".", -1);
  for (guint i = 0; atoms[i] != NULL; i++)
    {
      char kind;
      const FxValue *v = lookup_one (module, atoms[i], &kind);

      if (v == NULL)
        {
          g_set_error (error, FX_ERROR, FX_ERROR_ATTRIBUTE, "%s has no attribute `%s`",
                       module->type_name, atoms[i]);
          return NULL;
        }
      if (!fx_value_is_module (v))
        {
          g_set_error (error, FX_ERROR, FX_ERROR_ATTRIBUTE, "`%s` is not an nn.Module",
                       atoms[i]);
          return NULL;
        }
      module = fx_value_get_module (v);
    }
  return module;
}

static const FxValue *
resolve_path (FxModule *module, const char *target, char *kind, GError **error)
{
  const char *dot = strrchr (target, '.');
  g_autofree char *prefix = dot ? g_strndup (target, dot - target) : g_strdup ("");
  const char *field = dot ? dot + 1 : target;
  FxModule *owner = fx_module_get_submodule (module, prefix, error);
  const FxValue *v;

  if (owner == NULL)
    return NULL;
  v = lookup_one (owner, field, kind);
  if (v == NULL)
    g_set_error (error, FX_ERROR, FX_ERROR_ATTRIBUTE,
                 "'%s' object has no attribute '%s'", owner->type_name, field);
  return v;
}

gboolean
fx_module_get_attr (FxModule *module, const char *target, FxValue *out, GError **error)
{
  char kind;
  const FxValue *v = resolve_path (module, target, &kind, error);

  if (v == NULL)
    return FALSE;
  *out = fx_value_copy (v);
  return TRUE;
}

char
fx_module_attr_kind (FxModule *module, const char *target)
{
  char kind = 0;
  return resolve_path (module, target, &kind, NULL) != NULL ? kind : 0;
}

/* Module trees are shallow (their depth is the nesting of the model's source, not the size
 * of its graph), so plain recursion is fine here. */
static void
collect_modules (FxModule *module, const char *prefix, GPtrArray *names, GPtrArray *modules,
                 GHashTable *seen)
{
  const FxValue *k, *v;

  if (!g_hash_table_add (seen, module))
    return;
  g_ptr_array_add (names, g_strdup (prefix));
  g_ptr_array_add (modules, module);
  for (guint i = 0; fx_dict_entry (module->children, i, &k, &v); i++)
    {
      g_autofree char *name = NULL;
      if (!fx_value_is_module (v))
        continue;
      name = *prefix ? g_strdup_printf ("%s.%s", prefix, k->s->data) : g_strdup (k->s->data);
      collect_modules (fx_value_get_module (v), name, names, modules, seen);
    }
}

void
fx_module_named_modules (FxModule *module, GPtrArray *names, GPtrArray *modules)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  collect_modules (module, "", names, modules, seen);
}

static void
named_tensors (FxModule *module, gboolean buffers, GPtrArray *names, GPtrArray *tensors)
{
  g_autoptr (GPtrArray) mod_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) mods = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  fx_module_named_modules (module, mod_names, mods);
  for (guint m = 0; m < mods->len; m++)
    {
      FxModule *mod = mods->pdata[m];
      const char *prefix = mod_names->pdata[m];
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (buffers ? mod->buffers : mod->parameters, i, &k, &v); i++)
        {
          if (v->kind != FX_VALUE_TENSOR || !g_hash_table_add (seen, v->tensor))
            continue;
          g_ptr_array_add (names, *prefix ? g_strdup_printf ("%s.%s", prefix, k->s->data)
                                          : g_strdup (k->s->data));
          g_ptr_array_add (tensors, v->tensor);
        }
    }
}

void
fx_module_named_parameters (FxModule *module, GPtrArray *names, GPtrArray *tensors)
{
  named_tensors (module, FALSE, names, tensors);
}

void
fx_module_named_buffers (FxModule *module, GPtrArray *names, GPtrArray *tensors)
{
  named_tensors (module, TRUE, names, tensors);
}

static FxValue
prefixed_key (const char *prefix, const FxValue *name)
{
  g_autofree char *key = g_strconcat (prefix, name->s->data, NULL);
  return fx_value_str (key);
}

static void
state_dict_into (FxModule *module, const char *prefix, FxDict *out)
{
  const FxValue *k, *v;

  for (guint i = 0; fx_dict_entry (module->parameters, i, &k, &v); i++)
    if (v->kind == FX_VALUE_TENSOR)
      fx_dict_set (out, prefixed_key (prefix, k), fx_value_copy (v));
  for (guint i = 0; fx_dict_entry (module->buffers, i, &k, &v); i++)
    if (v->kind == FX_VALUE_TENSOR && !g_hash_table_contains (module->non_persistent, k->s->data))
      fx_dict_set (out, prefixed_key (prefix, k), fx_value_copy (v));
  for (guint i = 0; fx_dict_entry (module->children, i, &k, &v); i++)
    if (fx_value_is_module (v))
      {
        g_autofree char *child_prefix = g_strconcat (prefix, k->s->data, ".", NULL);
        state_dict_into (fx_value_get_module (v), child_prefix, out);
      }
}

FxDict *
fx_module_state_dict (FxModule *module)
{
  FxDict *out = fx_dict_new ();
  state_dict_into (module, "", out);
  return out;
}

/* _addindent(s, 2): indents every line but the first. */
static void
append_indented (GString *out, const char *s)
{
  for (const char *p = s; *p; p++)
    {
      g_string_append_c (out, *p);
      if (*p == '\n')
        g_string_append (out, "  ");
    }
}

char *
fx_module_repr (const FxModule *module)
{
  GString *s = g_string_new (module->type_name);
  g_autofree char *extra = module->extra_repr ? module->extra_repr (module) : NULL;
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint n_extra = 0;
  const FxValue *k, *v;

  if (extra != NULL && *extra)
    {
      g_auto (GStrv) split = g_strsplit (extra, "\n", -1);
      for (guint i = 0; split[i]; i++)
        g_ptr_array_add (lines, g_strdup (split[i]));
      n_extra = lines->len;
    }
  for (guint i = 0; fx_dict_entry (module->children, i, &k, &v); i++)
    {
      GString *line = g_string_new (NULL);
      g_string_append_printf (line, "(%s): ", k->s->data);
      if (fx_value_is_module (v))
        {
          g_autofree char *child = fx_module_repr (fx_value_get_module (v));
          append_indented (line, child);
        }
      else
        g_string_append (line, "None");
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }

  g_string_append_c (s, '(');
  if (lines->len == 1 && n_extra == 1)
    g_string_append (s, lines->pdata[0]);
  else if (lines->len > 0)
    {
      for (guint i = 0; i < lines->len; i++)
        {
          g_string_append (s, "\n  ");
          g_string_append (s, lines->pdata[i]);
        }
      g_string_append_c (s, '\n');
    }
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

void
fx_module_train (FxModule *module, gboolean mode)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();

  fx_module_named_modules (module, names, modules);
  for (guint i = 0; i < modules->len; i++)
    ((FxModule *) modules->pdata[i])->training = mode;
}
