/* nn-module.c: torch.nn.Module for scripts — a native class Python subclasses, with PyTorch's
 * attribute registration, traversal, state_dict, train/eval, repr and call, each instance
 * mirrored by an FxModule (nn-private.h explains who owns what) — and the torch.nn module. */
#include "script/nn-private.h"
#include "tensor/shape.h"
#include "ops/grad.h"
#include "ops/op.h"
#include "fx-error.h"

#include <string.h>

/* ------------------------------------------------------------------ small helpers */

static FxStr *
name_of (const char *s)
{
  return sc_intern_cstr (s);
}

static FxValue
str_value (const char *s)
{
  return fx_value_str (s);
}

gboolean
nn_raise_gerror (FxScript *S, GError *error)
{
  sc_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

/* CPython-style binding of a method's arguments after self. */
static gboolean
parse_method (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs,
              const char *const *names, int n_names, int n_required, const FxValue **out)
{
  return fx_script_parse_args (S, fname, args + 1, n_args - 1, kwargs, names, n_names, n_names,
                               n_required, out);
}

static gboolean
no_more_args (FxScript *S, const char *fname, const FxValue *args, int n_args, FxDict *kwargs)
{
  return fx_script_parse_args (S, fname, args + 1, n_args - 1, kwargs, NULL, 0, 0, 0, NULL);
}

static gboolean
truth (FxScript *S, const FxValue *v, gboolean dflt, gboolean *out)
{
  if (v == NULL)
    {
      *out = dflt;
      return TRUE;
    }
  return sc_truth (S, v, out);
}

static const char *
opt_str (const FxValue *v, const char *dflt)
{
  return v && v->kind == FX_VALUE_STR ? v->s->data : dflt;
}

/* obj.name(*args) */
static gboolean
call_method (FxScript *S, const FxValue *obj, const char *name, const FxValue *args, int n_args,
             FxValue *out)
{
  FxValue m, none = fx_value_none ();
  gboolean ok;
  if (!sc_getattr (S, obj, name_of (name), &m))
    return FALSE;
  ok = sc_call (S, &m, args ? args : &none, n_args, NULL, 0, out);
  fx_value_clear (&m);
  return ok;
}

static gboolean
has_attr (FxScript *S, const FxValue *obj, const char *name, gboolean *out)
{
  FxValue v;
  int r = sc_getattr_opt (S, obj, name_of (name), &v);
  if (r < 0)
    return FALSE;
  if (r > 0)
    fx_value_clear (&v);
  *out = r > 0;
  return TRUE;
}

/* A str key for one lookup, on the stack when the name fits (attribute names do): every
 * module attribute access of a trace looks names up in three or four of these dicts. */
typedef union {
  FxStr str;
  char bytes[sizeof (FxStr) + 80];
} KeyBuf;

static FxValue
key_on_stack (KeyBuf *buf, const char *name)
{
  gsize len = strlen (name);
  FxValue key = { .kind = FX_VALUE_STR };
  if (len >= sizeof buf->bytes - sizeof (FxStr))
    return str_value (name);
  g_atomic_ref_count_init (&buf->str.ref);
  buf->str.hash = 0;
  buf->str.len = len;
  memcpy (buf->str.data, name, len + 1);
  key.s = &buf->str;
  return key;
}

static void
key_done (KeyBuf *buf, FxValue *key)
{
  if (key->s != &buf->str)
    fx_value_clear (key);
}

static gboolean
dict_has (FxDict *d, const char *name)
{
  KeyBuf buf;
  FxValue key = key_on_stack (&buf, name);
  gboolean r = fx_dict_get (d, &key) != NULL;
  key_done (&buf, &key);
  return r;
}

static void
dict_remove (FxDict *d, const char *name)
{
  KeyBuf buf;
  FxValue key;
  if (fx_dict_len (d) == 0)
    return;
  key = key_on_stack (&buf, name);
  fx_dict_remove (d, &key);
  key_done (&buf, &key);
}

static const FxValue *
dict_lookup (FxDict *d, const char *name)
{
  KeyBuf buf;
  FxValue key;
  const FxValue *v;
  if (fx_dict_len (d) == 0)
    return NULL;
  key = key_on_stack (&buf, name);
  v = fx_dict_get (d, &key);
  key_done (&buf, &key);
  return v;
}

FxValue
nn_iterator (FxScript *S, FxSeq *seq, const char *qualname)
{
  FxValue v = sc_iterobj_new (S, SC_T_GENERATOR, sc_generator_next);
  ScIterObj *it = (ScIterObj *) v.obj;
  it->started = TRUE;
  it->values = seq;
  it->name = fx_str_new (qualname);
  return v;
}

FxValue
nn_ordered_dict (FxScript *S, FxDict *d)
{
  FxValue mod, cls, out, dv = fx_value_take_dict (d);
  if (!sc_import (S, "collections", &mod))
    {
      sc_clear_exc (S);
      return dv;
    }
  if (sc_getattr_opt (S, &mod, name_of ("OrderedDict"), &cls) <= 0)
    {
      sc_clear_exc (S);
      fx_value_clear (&mod);
      return dv;
    }
  fx_value_clear (&mod);
  if (!sc_call1 (S, &cls, &dv, &out))
    {
      sc_clear_exc (S);
      fx_value_clear (&cls);
      return dv;
    }
  fx_value_clear (&cls);
  fx_value_clear (&dv);
  return out;
}

/* ------------------------------------------------------------------ parameters */

gboolean
nn_is_parameter (const FxValue *v)
{
  return v->kind == FX_VALUE_TENSOR && v->tensor->is_parameter;
}

void
nn_mark_parameter (FxTensor *t)
{
  if (t != NULL)
    t->is_parameter = TRUE;
}

gboolean
sc_nn_is_parameter (FxScript *script, const FxValue *v)
{
  (void) script;
  return nn_is_parameter (v);
}

char *
nn_typename (FxScript *S, const FxValue *v)
{
  FxScriptClass *cls;
  if (v->kind == FX_VALUE_TENSOR)
    return g_strdup (fx_dtype_legacy_name (v->tensor->dtype));
  cls = sc_type_of (S, v);
  if (sc_value_class (v) != NULL)
    {
      FxScriptClass *c = sc_value_class (v);
      if (c->module && strcmp (c->module->data, "builtins") != 0)
        return g_strdup_printf ("%s.%s", c->module->data, c->qualname->data);
      return g_strdup (c->qualname->data);
    }
  if (cls->module && strcmp (cls->module->data, "builtins") != 0
      && !(cls->flags & SC_CLASS_BUILTIN))
    return g_strdup_printf ("%s.%s", cls->module->data, cls->name->data);
  return g_strdup (cls->name->data);
}

/* ------------------------------------------------------------------ the payload */

static gpointer
nn_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  NnModule *p = fx_new0 (NnModule, 1);
  (void) S;
  (void) class_data;
  p->fx = fx_module_new (cls->name->data);
  p->modules = fx_dict_new ();
  return p;
}

static void
nn_payload_free (gpointer data)
{
  NnModule *p = data;
  p->fx->impl = NULL;
  fx_module_unref (p->fx);
  fx_dict_unref (p->modules);
  if (p->forward_pre_hooks)
    fx_dict_unref (p->forward_pre_hooks);
  if (p->forward_hooks)
    fx_dict_unref (p->forward_hooks);
  g_free (p);
}

NnModule *
nn_payload (const FxValue *v)
{
  ScInstance *inst = sc_value_instance (v);
  if (inst == NULL || inst->cls->payload_class == NULL
      || inst->cls->payload_class->payload_new != nn_payload_new)
    return NULL;
  return inst->payload;
}

/* The instance __dict__ becomes fx->attributes (what was set before is kept). */
static void
bind_instance (ScInstance *inst, NnModule *p)
{
  if (inst->dict != p->fx->attributes)
    {
      if (inst->dict != NULL)
        {
          const FxValue *k, *v;
          for (guint i = 0; fx_dict_entry (inst->dict, i, &k, &v); i++)
            fx_dict_set (p->fx->attributes, fx_value_copy (k), fx_value_copy (v));
          fx_dict_unref (inst->dict);
        }
      inst->dict = fx_dict_ref (p->fx->attributes);
    }
  p->fx->impl = inst;
}

static NnModule *
nn_bound (const FxValue *v)
{
  NnModule *p = nn_payload (v);
  if (p != NULL)
    bind_instance (sc_value_instance (v), p);
  return p;
}

NnModule *
nn_self (FxScript *S, const FxValue *self, const char *fname)
{
  NnModule *p = nn_bound (self);
  if (p == NULL)
    sc_raise (S, SC_T_TYPE_ERROR, "descriptor '%s' requires a 'Module' object but received a '%s'",
              fname, sc_type_name (S, self));
  return p;
}

gboolean
sc_nn_is_module (FxScript *script, const FxValue *v)
{
  (void) script;
  return nn_payload (v) != NULL;
}

static FxModule *
child_fx (const FxValue *child)
{
  NnModule *c = nn_bound (child);
  return c ? c->fx : NULL;
}

void
nn_set_child (NnModule *p, const char *name, const FxValue *child)
{
  FxValue key = str_value (name);
  fx_dict_set (p->modules, fx_value_copy (&key), fx_value_copy (child));
  /* mirror: the child's FxModule, without leaving the name in the other tables' places */
  if (fx_dict_len (p->fx->parameters) > 0)
    fx_dict_remove (p->fx->parameters, &key);
  if (fx_dict_len (p->fx->buffers) > 0)
    fx_dict_remove (p->fx->buffers, &key);
  if (g_hash_table_size (p->fx->non_persistent) > 0)
    g_hash_table_remove (p->fx->non_persistent, name);
  {
    FxModule *c = child_fx (child);
    fx_dict_set (p->fx->children, key, c ? fx_value_module (c) : fx_value_none ());
  }
}

void
nn_assign_child (NnModule *p, const char *name, const FxValue *child)
{
  dict_remove (p->fx->attributes, name);
  dict_remove (p->fx->parameters, name);
  dict_remove (p->fx->buffers, name);
  if (g_hash_table_size (p->fx->non_persistent) > 0)
    g_hash_table_remove (p->fx->non_persistent, name);
  nn_set_child (p, name, child);
}

static void
remove_child (NnModule *p, const char *name)
{
  dict_remove (p->modules, name);
  dict_remove (p->fx->children, name);
}

/* Rebuilds fx->children of every module in the tree from _modules (Python code may have
 * written into _modules directly). */
static void
sync_tree (const FxValue *root)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  NnModule *rp = nn_bound (root);

  if (rp == NULL)
    return;
  g_ptr_array_add (stack, rp);
  g_hash_table_add (seen, rp);
  while (stack->len > 0)
    {
      NnModule *p = g_ptr_array_steal_index (stack, stack->len - 1);
      FxDict *children;
      const FxValue *k, *v, *ck, *cv;
      gboolean same = TRUE;
      guint j = 0;
      /* most trees are in sync already (every GraphModule syncs one that shares its leaves
       * with the traced model): compare in order, rebuild only a module that differs */
      for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
        {
          NnModule *c = nn_bound (v);
          if (k->kind != FX_VALUE_STR)
            continue;
          if (same && !(fx_dict_entry (p->fx->children, j++, &ck, &cv) && fx_value_equal (ck, k)
                        && (c != NULL ? cv->kind == FX_VALUE_OBJECT && cv->obj == &c->fx->parent
                                      : cv->kind == FX_VALUE_NONE)))
            same = FALSE;
          if (c != NULL && g_hash_table_add (seen, c))
            g_ptr_array_add (stack, c);
        }
      if (same && !fx_dict_entry (p->fx->children, j, &ck, &cv))
        continue;
      children = fx_dict_new ();
      for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
        {
          NnModule *c = nn_bound (v);
          if (k->kind == FX_VALUE_STR)
            fx_dict_set (children, fx_value_copy (k), c ? fx_value_module (c->fx) : fx_value_none ());
        }
      fx_dict_unref (p->fx->children);
      p->fx->children = children;
    }
}

FxModule *
sc_nn_module_to_fx (FxScript *script, const FxValue *module)
{
  NnModule *p = nn_bound (module);
  (void) script;
  if (p == NULL)
    return NULL;
  sync_tree (module);
  return fx_module_ref (p->fx);
}

void
nn_adopt_layer (FxScript *S, const FxValue *self, FxModule *m)
{
  ScInstance *inst = sc_value_instance (self);
  NnModule *p = nn_bound (self);
  const FxValue *k, *v;
  (void) S;

  /* attributes set before __init__ stay unless the layer sets them */
  for (guint i = 0; fx_dict_entry (p->fx->attributes, i, &k, &v); i++)
    if (fx_dict_get (m->attributes, k) == NULL && fx_dict_get (m->parameters, k) == NULL
        && fx_dict_get (m->buffers, k) == NULL)
      fx_dict_set (m->attributes, fx_value_copy (k), fx_value_copy (v));
  for (guint i = 0; fx_dict_entry (m->parameters, i, &k, &v); i++)
    if (v->kind == FX_VALUE_TENSOR)
      nn_mark_parameter (v->tensor);
  g_free (m->type_name);
  m->type_name = g_strdup (inst->cls->name->data);
  m->training = TRUE;
  p->fx->impl = NULL;
  fx_module_unref (p->fx);
  p->fx = fx_module_ref (m);
  fx_dict_unref (p->modules);
  p->modules = fx_dict_new ();
  p->initialized = TRUE;
  fx_dict_unref (inst->dict);
  inst->dict = NULL;
  bind_instance (inst, p);
}

/* ------------------------------------------------------------------ traversal */

typedef struct {
  FxValue module;                /* borrowed from its parent's _modules */
  char *prefix;
} Pending;

static char *
join_name (const char *prefix, const char *name)
{
  /* one per module of every walk (each trace walks the whole tree): no varargs concat */
  gsize lp = strlen (prefix), ln = strlen (name);
  char *out;
  if (lp == 0)
    return g_memdup2 (name, ln + 1);
  out = g_malloc (lp + ln + 2);
  memcpy (out, prefix, lp);
  out[lp] = '.';
  memcpy (out + lp + 1, name, ln + 1);
  return out;
}

/* named_modules(): pre-order, memo by identity (added to only when dedup; NULL: none, when
 * not dedup). names may be NULL. */
static void
walk_modules (const FxValue *root, const char *prefix, gboolean dedup, GHashTable *memo,
              GPtrArray *names, GPtrArray *modules)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (Pending));
  Pending first = { *root, g_strdup (prefix) };
  g_autoptr (GPtrArray) kids = g_ptr_array_new ();

  g_array_append_val (stack, first);
  while (stack->len > 0)
    {
      Pending it = g_array_index (stack, Pending, stack->len - 1);
      NnModule *p;
      const FxValue *k, *v;
      g_array_set_size (stack, stack->len - 1);
      if (memo != NULL && g_hash_table_contains (memo, it.module.obj))
        {
          g_free (it.prefix);
          continue;
        }
      if (dedup)
        g_hash_table_add (memo, it.module.obj);
      g_ptr_array_add (modules, (gpointer) it.module.obj);
      p = nn_payload (&it.module);
      g_ptr_array_set_size (kids, 0);
      for (guint i = 0; p && fx_dict_entry (p->modules, i, &k, &v); i++)
        if (nn_payload (v) != NULL && k->kind == FX_VALUE_STR)
          {
            g_ptr_array_add (kids, (gpointer) k);
            g_ptr_array_add (kids, (gpointer) v);
          }
      for (guint i = kids->len; i > 0; i -= 2)
        {
          const FxValue *key = kids->pdata[i - 2], *val = kids->pdata[i - 1];
          Pending next = { *val, join_name (it.prefix, key->s->data) };
          g_array_append_val (stack, next);
        }
      if (names)
        g_ptr_array_add (names, it.prefix);   /* the walk is done with it: handed over */
      else
        g_free (it.prefix);
    }
  g_array_free (stack, TRUE);
}

static FxValue
object_value (gpointer obj)
{
  return fx_value_take_object (fx_object_ref (obj));
}

static FxValue
pair (const char *name, FxValue v)
{
  FxSeq *t = fx_seq_new (2);
  t->items[0] = str_value (name);
  t->items[1] = v;
  return fx_value_take_tuple (t);
}

/* _named_members over parameters (buffers FALSE) or buffers. */
static FxSeq *
named_tensors (const FxValue *self, const char *prefix, gboolean recurse, gboolean buffers,
               gboolean with_names)
{
  g_autoptr (GHashTable) memo = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) mods = g_ptr_array_new ();
  FxSeq *out = fx_seq_new (0);

  if (recurse)
    walk_modules (self, prefix, TRUE, memo, names, mods);
  else
    {
      g_ptr_array_add (names, g_strdup (prefix));
      g_ptr_array_add (mods, self->obj);
    }
  for (guint m = 0; m < mods->len; m++)
    {
      FxValue mv = { .kind = FX_VALUE_OBJECT, .obj = mods->pdata[m] };
      NnModule *p = nn_payload (&mv);
      const FxValue *k, *v;
      FxDict *table = buffers ? p->fx->buffers : p->fx->parameters;
      for (guint i = 0; fx_dict_entry (table, i, &k, &v); i++)
        {
          if (v->kind == FX_VALUE_NONE || k->kind != FX_VALUE_STR)
            continue;
          if (v->kind == FX_VALUE_TENSOR && !g_hash_table_add (seen, v->tensor))
            continue;
          if (with_names)
            {
              g_autofree char *n = join_name (names->pdata[m], k->s->data);
              fx_seq_append (out, pair (n, fx_value_copy (v)));
            }
          else
            fx_seq_append (out, fx_value_copy (v));
        }
    }
  return out;
}

/* ------------------------------------------------------------------ registration */

static gboolean
check_name (FxScript *S, const char *what, const FxValue *name)
{
  if (name->kind != FX_VALUE_STR)
    {
      g_autofree char *tn = nn_typename (S, name);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s name should be a string. Got %s", what, tn);
    }
  if (strchr (name->s->data, '.') != NULL)
    return sc_raise (S, SC_T_KEY_ERROR, "%s name can't contain \".\"", what);
  if (name->s->len == 0)
    return sc_raise (S, SC_T_KEY_ERROR, "%s name can't be empty string \"\"", what);
  return TRUE;
}

static gboolean
register_buffer (FxScript *S, const FxValue *self, NnModule *p, const FxValue *name,
                 const FxValue *tensor, gboolean persistent)
{
  gboolean has;
  if (!p->initialized)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "cannot assign buffer before Module.__init__() call");
  if (!check_name (S, "buffer", name))
    return FALSE;
  if (!has_attr (S, self, name->s->data, &has))
    return FALSE;
  if (has && !dict_has (p->fx->buffers, name->s->data))
    return sc_raise (S, SC_T_KEY_ERROR, "attribute '%s' already exists", name->s->data);
  if (tensor->kind != FX_VALUE_NONE && tensor->kind != FX_VALUE_TENSOR)
    {
      g_autofree char *tn = nn_typename (S, tensor);
      return sc_raise (S, SC_T_TYPE_ERROR, "cannot assign '%s' object to buffer '%s' "
                       "(torch Tensor or None required)", tn, name->s->data);
    }
  fx_dict_set (p->fx->buffers, fx_value_copy (name), fx_value_copy (tensor));
  if (persistent)
    g_hash_table_remove (p->fx->non_persistent, name->s->data);
  else
    g_hash_table_add (p->fx->non_persistent, g_strdup (name->s->data));
  return TRUE;
}

static gboolean
register_parameter (FxScript *S, const FxValue *self, NnModule *p, const FxValue *name,
                    const FxValue *param)
{
  gboolean has;
  if (!p->initialized)
    return sc_raise (S, SC_T_ATTRIBUTE_ERROR,
                     "cannot assign parameter before Module.__init__() call");
  if (!check_name (S, "parameter", name))
    return FALSE;
  if (!has_attr (S, self, name->s->data, &has))
    return FALSE;
  if (has && !dict_has (p->fx->parameters, name->s->data))
    return sc_raise (S, SC_T_KEY_ERROR, "attribute '%s' already exists", name->s->data);
  if (param->kind != FX_VALUE_NONE && !nn_is_parameter (param))
    {
      g_autofree char *tn = nn_typename (S, param);
      return sc_raise (S, SC_T_TYPE_ERROR, "cannot assign '%s' object to parameter '%s' "
                       "(torch.nn.Parameter or None required)", tn, name->s->data);
    }
  fx_dict_set (p->fx->parameters, fx_value_copy (name), fx_value_copy (param));
  return TRUE;
}

gboolean
nn_add_module (FxScript *S, const FxValue *self, const FxValue *name, const FxValue *module)
{
  NnModule *p = nn_bound (self);
  gboolean has;
  if (module->kind != FX_VALUE_NONE && nn_payload (module) == NULL)
    {
      g_autofree char *tn = nn_typename (S, module);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s is not a Module subclass", tn);
    }
  if (name->kind != FX_VALUE_STR)
    {
      g_autofree char *tn = nn_typename (S, name);
      return sc_raise (S, SC_T_TYPE_ERROR, "module name should be a string. Got %s", tn);
    }
  if (!has_attr (S, self, name->s->data, &has))
    return FALSE;
  if (has && !dict_has (p->modules, name->s->data))
    return sc_raise (S, SC_T_KEY_ERROR, "attribute '%s' already exists", name->s->data);
  if (strchr (name->s->data, '.') != NULL)
    return sc_raise (S, SC_T_KEY_ERROR, "module name can't contain \".\", got: %s", name->s->data);
  if (name->s->len == 0)
    return sc_raise (S, SC_T_KEY_ERROR, "module name can't be empty string \"\"");
  nn_set_child (p, name->s->data, module);
  return TRUE;
}

/* ------------------------------------------------------------------ Module methods */

#define SELF(fname) \
  NnModule *p = nn_self (S, &args[0], fname); \
  if (p == NULL) \
    return FALSE

static gboolean
m_init (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  const FxValue *k, *v;
  (void) data;
  SELF ("__init__");
  if (kwargs && fx_dict_entry (kwargs, 0, &k, &v))
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "Module.__init__() got an unexpected keyword argument '%s'",
                     k->kind == FX_VALUE_STR ? k->s->data : "?");
  if (n_args > 1)
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "Module.__init__() takes 1 positional argument but %d were given", n_args);
  if (!p->initialized || fx_dict_len (p->fx->parameters) || fx_dict_len (p->fx->buffers)
      || fx_dict_len (p->modules))
    {
      fx_dict_unref (p->fx->parameters);
      p->fx->parameters = fx_dict_new ();
      fx_dict_unref (p->fx->buffers);
      p->fx->buffers = fx_dict_new ();
      g_hash_table_remove_all (p->fx->non_persistent);
      fx_dict_unref (p->fx->children);
      p->fx->children = fx_dict_new ();
      fx_dict_unref (p->modules);
      p->modules = fx_dict_new ();
    }
  p->fx->training = TRUE;
  p->initialized = TRUE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
m_getattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  const FxValue *v;
  const char *name;
  (void) data;
  (void) kwargs;
  if (n_args != 2 || args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "__getattr__ expects one str argument");
  SELF ("__getattr__");
  name = args[1].s->data;
  if ((v = dict_lookup (p->fx->parameters, name)) != NULL
      || (v = dict_lookup (p->fx->buffers, name)) != NULL
      || (v = dict_lookup (p->modules, name)) != NULL)
    {
      *result = fx_value_copy (v);
      return TRUE;
    }
  return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "'%s' object has no attribute '%s'",
                   sc_type_name (S, &args[0]), name);
}

static gboolean
m_setattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  const FxValue *value;
  const char *name;
  (void) data;
  (void) kwargs;
  if (n_args != 3 || args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "__setattr__ expects a str and a value");
  SELF ("__setattr__");
  name = args[1].s->data;
  value = &args[2];
  *result = fx_value_none ();
  if (nn_is_parameter (value))
    {
      if (!p->initialized)
        return sc_raise (S, SC_T_ATTRIBUTE_ERROR,
                         "cannot assign parameters before Module.__init__() call");
      dict_remove (p->fx->attributes, name);
      dict_remove (p->fx->buffers, name);
      remove_child (p, name);
      g_hash_table_remove (p->fx->non_persistent, name);
      return register_parameter (S, &args[0], p, &args[1], value);
    }
  if (dict_has (p->fx->parameters, name))
    {
      if (value->kind != FX_VALUE_NONE)
        {
          g_autofree char *tn = nn_typename (S, value);
          return sc_raise (S, SC_T_TYPE_ERROR, "cannot assign '%s' as parameter '%s' "
                           "(torch.nn.Parameter or None expected)", tn, name);
        }
      return register_parameter (S, &args[0], p, &args[1], value);
    }
  if (nn_payload (value) != NULL)
    {
      if (!p->initialized)
        return sc_raise (S, SC_T_ATTRIBUTE_ERROR,
                         "cannot assign module before Module.__init__() call");
      nn_assign_child (p, name, value);
      return TRUE;
    }
  if (dict_has (p->modules, name))
    {
      if (value->kind != FX_VALUE_NONE)
        {
          g_autofree char *tn = nn_typename (S, value);
          return sc_raise (S, SC_T_TYPE_ERROR, "cannot assign '%s' as child module '%s' "
                           "(torch.nn.Module or None expected)", tn, name);
        }
      nn_set_child (p, name, value);
      return TRUE;
    }
  if (dict_has (p->fx->buffers, name))
    {
      if (value->kind != FX_VALUE_NONE && value->kind != FX_VALUE_TENSOR)
        {
          g_autofree char *tn = nn_typename (S, value);
          return sc_raise (S, SC_T_TYPE_ERROR, "cannot assign '%s' as buffer '%s' "
                           "(torch.Tensor or None expected)", tn, name);
        }
      fx_dict_set (p->fx->buffers, fx_value_copy (&args[1]), fx_value_copy (value));
      return TRUE;
    }
  return sc_generic_setattr (S, &args[0], args[1].s, value);
}

static gboolean
m_delattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  const char *name;
  (void) data;
  (void) kwargs;
  if (n_args != 2 || args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "__delattr__ expects one str argument");
  SELF ("__delattr__");
  name = args[1].s->data;
  *result = fx_value_none ();
  if (dict_has (p->fx->parameters, name))
    dict_remove (p->fx->parameters, name);
  else if (dict_has (p->fx->buffers, name))
    {
      dict_remove (p->fx->buffers, name);
      g_hash_table_remove (p->fx->non_persistent, name);
    }
  else if (dict_has (p->modules, name))
    remove_child (p, name);
  else
    return sc_generic_delattr (S, &args[0], args[1].s);
  return TRUE;
}

static gboolean
m_register_buffer (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  static const char *const names[] = { "name", "tensor", "persistent" };
  const FxValue *a[3];
  gboolean persistent;
  (void) data;
  SELF ("register_buffer");
  if (!parse_method (S, "register_buffer", args, n_args, kwargs, names, 3, 2, a)
      || !truth (S, a[2], TRUE, &persistent)
      || !register_buffer (S, &args[0], p, a[0], a[1], persistent))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
m_register_parameter (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                      FxValue *result, gpointer data)
{
  static const char *const names[] = { "name", "param" };
  const FxValue *a[2];
  (void) data;
  SELF ("register_parameter");
  if (!parse_method (S, "register_parameter", args, n_args, kwargs, names, 2, 2, a)
      || !register_parameter (S, &args[0], p, a[0], a[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
m_add_module (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  static const char *const names[] = { "name", "module" };
  const FxValue *a[2];
  (void) data;
  SELF ("add_module");
  (void) p;
  if (!parse_method (S, "add_module", args, n_args, kwargs, names, 2, 2, a)
      || !nn_add_module (S, &args[0], a[0], a[1]))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
m_get_name (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  if (!no_more_args (S, "_get_name", args, n_args, kwargs))
    return FALSE;
  *result = str_value (sc_type_name (S, &args[0]));
  return TRUE;
}

/* get_submodule's walk; *out gets a new reference. */
static gboolean
get_submodule (FxScript *S, const FxValue *self, const char *target, FxValue *out)
{
  g_auto (GStrv) atoms = NULL;
  FxValue mod = fx_value_copy (self);
  if (*target == '\0')
    {
      *out = mod;
      return TRUE;
    }
  atoms = g_strsplit (target, ".", -1);
  for (guint i = 0; atoms[i]; i++)
    {
      FxValue next;
      int r = sc_getattr_opt (S, &mod, name_of (atoms[i]), &next);
      if (r < 0)
        {
          fx_value_clear (&mod);
          return FALSE;
        }
      if (r == 0)
        {
          sc_raise (S, SC_T_ATTRIBUTE_ERROR, "%s has no attribute `%s`",
                    sc_type_name (S, &mod), atoms[i]);
          fx_value_clear (&mod);
          return FALSE;
        }
      fx_value_clear (&mod);
      mod = next;
      if (nn_payload (&mod) == NULL)
        {
          fx_value_clear (&mod);
          return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "`%s` is not an nn.Module", atoms[i]);
        }
    }
  *out = mod;
  return TRUE;
}

static gboolean
m_get_submodule (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                 FxValue *result, gpointer data)
{
  static const char *const names[] = { "target" };
  const FxValue *a[1];
  (void) data;
  if (!parse_method (S, "get_submodule", args, n_args, kwargs, names, 1, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "get_submodule() expects a str target");
  return get_submodule (S, &args[0], a[0]->s->data, result);
}

/* get_parameter (buffers FALSE) / get_buffer */
static gboolean
get_tensor (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gboolean buffer)
{
  static const char *const names[] = { "target" };
  const char *fname = buffer ? "get_buffer" : "get_parameter";
  const FxValue *a[1];
  const char *target, *dot, *field;
  g_autofree char *path = NULL;
  FxValue mod, v;
  int r;
  if (!parse_method (S, fname, args, n_args, kwargs, names, 1, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() expects a str target", fname);
  target = a[0]->s->data;
  dot = strrchr (target, '.');
  path = dot ? g_strndup (target, dot - target) : g_strdup ("");
  field = dot ? dot + 1 : target;
  if (!get_submodule (S, &args[0], path, &mod))
    return FALSE;
  r = sc_getattr_opt (S, &mod, name_of (field), &v);
  if (r <= 0)
    {
      if (r == 0)
        sc_raise (S, SC_T_ATTRIBUTE_ERROR, "%s has no attribute `%s`", sc_type_name (S, &mod),
                  field);
      fx_value_clear (&mod);
      return FALSE;
    }
  if (buffer ? !dict_has (nn_payload (&mod)->fx->buffers, field) : !nn_is_parameter (&v))
    {
      fx_value_clear (&mod);
      fx_value_clear (&v);
      return sc_raise (S, SC_T_ATTRIBUTE_ERROR, buffer ? "`%s` is not a buffer"
                       : "`%s` is not an nn.Parameter", field);
    }
  fx_value_clear (&mod);
  *result = v;
  return TRUE;
}

static gboolean
m_get_parameter (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                 FxValue *result, gpointer data)
{
  (void) data;
  return get_tensor (S, args, n_args, kwargs, result, FALSE);
}

static gboolean
m_get_buffer (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  (void) data;
  return get_tensor (S, args, n_args, kwargs, result, TRUE);
}

/* parameters / named_parameters / buffers / named_buffers */
static gboolean
tensors_method (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gboolean buffers, gboolean named)
{
  static const char *const named_names[] = { "prefix", "recurse" };
  static const char *const plain_names[] = { "recurse" };
  const char *fname = buffers ? (named ? "named_buffers" : "buffers")
                              : (named ? "named_parameters" : "parameters");
  const FxValue *a[2] = { NULL, NULL };
  gboolean recurse;
  g_autofree char *qual = g_strconcat ("Module.", fname, NULL);
  SELF (fname);
  (void) p;
  if (named ? !parse_method (S, fname, args, n_args, kwargs, named_names, 2, 0, a)
            : !parse_method (S, fname, args, n_args, kwargs, plain_names, 1, 0, a + 1))
    return FALSE;
  if (!truth (S, a[1], TRUE, &recurse))
    return FALSE;
  *result = nn_iterator (S, named_tensors (&args[0], opt_str (a[0], ""), recurse, buffers, named),
                         qual);
  return TRUE;
}

static gboolean
m_parameters (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  (void) data;
  return tensors_method (S, args, n_args, kwargs, result, FALSE, FALSE);
}

static gboolean
m_named_parameters (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                    FxValue *result, gpointer data)
{
  (void) data;
  return tensors_method (S, args, n_args, kwargs, result, FALSE, TRUE);
}

static gboolean
m_buffers (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) data;
  return tensors_method (S, args, n_args, kwargs, result, TRUE, FALSE);
}

static gboolean
m_named_buffers (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                 FxValue *result, gpointer data)
{
  (void) data;
  return tensors_method (S, args, n_args, kwargs, result, TRUE, TRUE);
}

static FxSeq *
named_children (NnModule *p, gboolean with_names)
{
  g_autoptr (GHashTable) memo = g_hash_table_new (g_direct_hash, g_direct_equal);
  FxSeq *out = fx_seq_new (0);
  const FxValue *k, *v;
  for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
    {
      if (v->kind == FX_VALUE_NONE || k->kind != FX_VALUE_STR
          || (v->kind == FX_VALUE_OBJECT && !g_hash_table_add (memo, v->obj)))
        continue;
      fx_seq_append (out, with_names ? pair (k->s->data, fx_value_copy (v)) : fx_value_copy (v));
    }
  return out;
}

static gboolean
m_children (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  (void) data;
  SELF ("children");
  if (!no_more_args (S, "children", args, n_args, kwargs))
    return FALSE;
  *result = nn_iterator (S, named_children (p, FALSE), "Module.children");
  return TRUE;
}

static gboolean
m_named_children (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                  FxValue *result, gpointer data)
{
  (void) data;
  SELF ("named_children");
  if (!no_more_args (S, "named_children", args, n_args, kwargs))
    return FALSE;
  *result = nn_iterator (S, named_children (p, TRUE), "Module.named_children");
  return TRUE;
}

/* a set object's members into memo */
static void
memo_from_set (const FxValue *set, GHashTable *memo)
{
  const FxValue *k, *v;
  if (!sc_is_klass (set, &sc_set_klass))
    return;
  for (guint i = 0; fx_dict_entry (((ScSet *) set->obj)->d, i, &k, &v); i++)
    if (k->kind == FX_VALUE_OBJECT)
      g_hash_table_add (memo, k->obj);
}

static gboolean
modules_method (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gboolean named)
{
  static const char *const names[] = { "memo", "prefix", "remove_duplicate" };
  const FxValue *a[3] = { NULL, NULL, NULL };
  g_autoptr (GHashTable) memo = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) mod_names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) mods = g_ptr_array_new ();
  gboolean dedup;
  FxSeq *out;
  SELF (named ? "named_modules" : "modules");
  (void) p;
  if (named ? !parse_method (S, "named_modules", args, n_args, kwargs, names, 3, 0, a)
            : !no_more_args (S, "modules", args, n_args, kwargs))
    return FALSE;
  if (!truth (S, a[2], TRUE, &dedup))
    return FALSE;
  if (a[0])
    memo_from_set (a[0], memo);
  walk_modules (&args[0], opt_str (a[1], ""), dedup, memo, mod_names, mods);
  out = fx_seq_new (0);
  for (guint i = 0; i < mods->len; i++)
    fx_seq_append (out, named ? pair (mod_names->pdata[i], object_value (mods->pdata[i]))
                              : object_value (mods->pdata[i]));
  *result = nn_iterator (S, out, named ? "Module.named_modules" : "Module.modules");
  return TRUE;
}

static gboolean m_named_modules (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                                 FxValue *result, gpointer data);

gboolean
sc_nn_named_modules_all (FxScript *S, const FxValue *root, GPtrArray *names, GPtrArray *modules)
{
  FxValue *method;

  if (nn_payload (root) == NULL)
    return FALSE;
  method = sc_type_lookup (S, sc_type_of (S, root), name_of ("named_modules"));
  if (method == NULL || !sc_is_klass (method, &sc_native_klass)
      || ((ScNative *) method->obj)->func != m_named_modules)
    return FALSE;
  /* remove_duplicate=False with a memo of its own: nothing is ever in it */
  walk_modules (root, "", FALSE, NULL, names, modules);
  return TRUE;
}

static gboolean
m_modules (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) data;
  return modules_method (S, args, n_args, kwargs, result, FALSE);
}

static gboolean
m_named_modules (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                 FxValue *result, gpointer data)
{
  (void) data;
  return modules_method (S, args, n_args, kwargs, result, TRUE);
}

/* ------------------------------------------------------------------ state_dict */

static FxValue
detached (const FxValue *v, gboolean keep_vars)
{
  if (keep_vars || v->kind != FX_VALUE_TENSOR)
    return fx_value_copy (v);
  return fx_value_take_tensor (fx_tensor_detach (v->tensor));
}

static void
state_dict_into (const FxValue *root, const char *prefix, gboolean keep_vars, FxDict *out)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (Pending));
  Pending first = { *root, g_strdup (prefix) };
  g_autoptr (GPtrArray) kids = g_ptr_array_new ();
  guint guard = 0;

  g_array_append_val (stack, first);
  while (stack->len > 0)
    {
      Pending it = g_array_index (stack, Pending, stack->len - 1);
      NnModule *p = nn_payload (&it.module);
      const FxValue *k, *v;
      g_array_set_size (stack, stack->len - 1);
      /* a module containing itself would never end */
      if (p == NULL || ++guard > 1000000)
        {
          g_free (it.prefix);
          continue;
        }
      for (guint i = 0; fx_dict_entry (p->fx->parameters, i, &k, &v); i++)
        if (v->kind != FX_VALUE_NONE && k->kind == FX_VALUE_STR)
          {
            g_autofree char *key = g_strconcat (it.prefix, k->s->data, NULL);
            fx_dict_set (out, str_value (key), detached (v, keep_vars));
          }
      for (guint i = 0; fx_dict_entry (p->fx->buffers, i, &k, &v); i++)
        if (v->kind != FX_VALUE_NONE && k->kind == FX_VALUE_STR
            && !g_hash_table_contains (p->fx->non_persistent, k->s->data))
          {
            g_autofree char *key = g_strconcat (it.prefix, k->s->data, NULL);
            fx_dict_set (out, str_value (key), detached (v, keep_vars));
          }
      g_ptr_array_set_size (kids, 0);
      for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
        if (v->kind != FX_VALUE_NONE && k->kind == FX_VALUE_STR)
          {
            g_ptr_array_add (kids, (gpointer) k);
            g_ptr_array_add (kids, (gpointer) v);
          }
      for (guint i = kids->len; i > 0; i -= 2)
        {
          const FxValue *key = kids->pdata[i - 2], *val = kids->pdata[i - 1];
          Pending next = { *val, g_strconcat (it.prefix, key->s->data, ".", NULL) };
          g_array_append_val (stack, next);
        }
      g_free (it.prefix);
    }
  g_array_free (stack, TRUE);
}

static gboolean
m_state_dict (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  static const char *const names[] = { "destination", "prefix", "keep_vars" };
  const FxValue *a[3] = { NULL, NULL, NULL };
  gboolean keep_vars;
  (void) data;
  SELF ("state_dict");
  (void) p;
  /* positional (destination, prefix, keep_vars) are deprecated but still accepted */
  if (!fx_script_parse_args (S, "state_dict", args + 1, n_args - 1, kwargs, names, 3, 3, 0, a)
      || !truth (S, a[2], FALSE, &keep_vars))
    return FALSE;
  if (a[0] && a[0]->kind != FX_VALUE_NONE)
    {
      if (a[0]->kind != FX_VALUE_DICT)
        return sc_raise (S, SC_T_TYPE_ERROR, "state_dict() destination must be a dict");
      state_dict_into (&args[0], opt_str (a[1], ""), keep_vars, a[0]->dict);
      *result = fx_value_copy (a[0]);
      return TRUE;
    }
  {
    FxDict *d = fx_dict_new ();
    state_dict_into (&args[0], opt_str (a[1], ""), keep_vars, d);
    *result = nn_ordered_dict (S, d);
  }
  return TRUE;
}

typedef struct {
  FxSeq *missing, *unexpected;
  GPtrArray *errors;             /* char* */
} LoadState;

static char *
shape_repr (const FxTensor *t)
{
  FxValue v = fx_value_int_tuple (&fx_tuple_type_size, t->ndim, t->shape);
  char *s = fx_value_to_repr (&v);
  fx_value_clear (&v);
  return s;
}

/* Copies input into the model's tensor param (with torch.no_grad(): param.copy_(input)). */
static gboolean
copy_into (FxTensor *param, const FxValue *input, GError **error)
{
  const FxOp *op = fx_op_lookup_method ("copy_");
  FxValue argv[2] = { fx_value_tensor (param), fx_value_copy (input) }, r;
  gboolean ok;
  if (op == NULL)
    {
      g_set_error (error, FX_ERROR, FX_ERROR_NOT_IMPLEMENTED, "Tensor.copy_ is not available");
      ok = FALSE;
    }
  else
    {
      gboolean grad_mode = fx_grad_mode_set (FALSE);
      ok = fx_op_call (op, argv, 2, NULL, &r, error);
      fx_grad_mode_set (grad_mode);
      if (ok)
        fx_value_clear (&r);
    }
  fx_value_clear (&argv[0]);
  fx_value_clear (&argv[1]);
  return ok;
}

/* _NormBase._load_from_state_dict: state dicts without version metadata (all of them here)
 * may lack num_batches_tracked, which then loads as 0. */
static gboolean
fills_batches_tracked (NnModule *p, const char *name)
{
  const FxValue *track;
  if (p->fx->layer == NULL || strcmp (name, "num_batches_tracked") != 0
      || (strcmp (p->fx->layer->init_owner, "_BatchNorm") != 0
          && strcmp (p->fx->layer->init_owner, "_InstanceNorm") != 0))
    return FALSE;
  track = dict_lookup (p->fx->attributes, "track_running_stats");
  return track && track->kind == FX_VALUE_BOOL && track->b;
}

static void
load_one (FxScript *S, NnModule *owner, const char *name, FxDict *sd, const char *key,
          const FxValue *param, LoadState *ls)
{
  FxValue kv = str_value (key);
  const FxValue *input = fx_dict_get (sd, &kv);
  if (input == NULL && fills_batches_tracked (owner, name) && param->kind == FX_VALUE_TENSOR)
    {
      FxValue zero = fx_value_take_tensor (fx_tensor_scalar_int64 (FX_DTYPE_INT64, 0));
      GError *error = NULL;
      if (!copy_into (param->tensor, &zero, &error))
        g_error_free (error);
      fx_value_clear (&zero);
      fx_value_clear (&kv);
      return;
    }
  if (input == NULL)
    {
      fx_seq_append (ls->missing, kv);
      return;
    }
  fx_value_clear (&kv);
  if (input->kind != FX_VALUE_TENSOR)
    {
      FxScriptClass *c = sc_type_of (S, input);
      g_ptr_array_add (ls->errors, g_strdup_printf (
        "While copying the parameter named \"%s\", expected torch.Tensor or Tensor-like object "
        "from checkpoint but received <class '%s'>", key, c->name->data));
      return;
    }
  if (param->kind != FX_VALUE_TENSOR)
    return;
  {
    FxTensor *t = param->tensor, *in = input->tensor;
    g_autoptr (FxTensor) first = NULL;
    gboolean same = t->ndim == in->ndim;
    GError *error = NULL;
    FxValue inv;
    if (t->ndim == 0 && in->ndim == 1)
      {
        /* backward compatibility: loading a 1-dim tensor into a 0-dim one takes input[0] */
        int64_t shape0 = 0;
        first = fx_tensor_new_view (in->storage, in->dtype, 0, &shape0, &shape0, in->offset);
        in = first;
        same = TRUE;
      }
    for (int i = 0; same && i < t->ndim; i++)
      same = t->shape[i] == in->shape[i];
    if (!same)
      {
        g_autofree char *a = shape_repr (in);
        g_autofree char *b = shape_repr (t);
        g_ptr_array_add (ls->errors, g_strdup_printf (
          "size mismatch for %s: copying a param with shape %s from checkpoint, the shape in "
          "current model is %s.", key, a, b));
        return;
      }
    inv = fx_value_tensor (in);
    if (!copy_into (t, &inv, &error))
      {
        g_autofree char *a = shape_repr (t);
        g_autofree char *b = shape_repr (in);
        g_ptr_array_add (ls->errors, g_strdup_printf (
          "While copying the parameter named \"%s\", whose dimensions in the model are %s and "
          "whose dimensions in the checkpoint are %s, an exception occurred : ('%s',).",
          key, a, b, error->message));
        g_error_free (error);
      }
    fx_value_clear (&inv);
  }
}

/* Module._load_from_state_dict and the recursion of load_state_dict; keys holds the str keys
 * of sd under prefix. Depth is the nesting of the model's source. */
static void
load_rec (FxScript *S, const FxValue *module, FxDict *sd, FxSeq *keys, const char *prefix,
          LoadState *ls, int depth)
{
  NnModule *p = nn_payload (module);
  const FxValue *k, *v;
  gsize plen = strlen (prefix);
  if (p == NULL || depth > SC_RECURSION_LIMIT)
    return;
  for (guint i = 0; fx_dict_entry (p->fx->parameters, i, &k, &v); i++)
    if (v->kind != FX_VALUE_NONE && k->kind == FX_VALUE_STR)
      {
        g_autofree char *key = g_strconcat (prefix, k->s->data, NULL);
        load_one (S, p, k->s->data, sd, key, v, ls);
      }
  for (guint i = 0; fx_dict_entry (p->fx->buffers, i, &k, &v); i++)
    if (v->kind != FX_VALUE_NONE && k->kind == FX_VALUE_STR
        && !g_hash_table_contains (p->fx->non_persistent, k->s->data))
      {
        g_autofree char *key = g_strconcat (prefix, k->s->data, NULL);
        load_one (S, p, k->s->data, sd, key, v, ls);
      }
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = keys->items[i].s->data;
      const char *rest = key + plen, *dot = strchr (rest, '.');
      g_autofree char *input_name = dot ? g_strndup (rest, dot - rest) : g_strdup (rest);
      const FxValue *pv = dict_lookup (p->fx->parameters, input_name);
      const FxValue *bv = dict_lookup (p->fx->buffers, input_name);
      gboolean local = (pv && pv->kind != FX_VALUE_NONE)
                       || (bv && bv->kind != FX_VALUE_NONE
                           && !g_hash_table_contains (p->fx->non_persistent, input_name));
      if (!dict_has (p->modules, input_name) && !local)
        fx_seq_append (ls->unexpected, fx_value_copy (&keys->items[i]));
    }
  for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
    {
      g_autofree char *child_prefix = NULL;
      FxSeq *child_keys;
      if (v->kind == FX_VALUE_NONE || k->kind != FX_VALUE_STR)
        continue;
      child_prefix = g_strconcat (prefix, k->s->data, ".", NULL);
      child_keys = fx_seq_new (0);
      for (guint j = 0; j < keys->len; j++)
        if (g_str_has_prefix (keys->items[j].s->data, child_prefix))
          fx_seq_append (child_keys, fx_value_copy (&keys->items[j]));
      load_rec (S, v, sd, child_keys, child_prefix, ls, depth + 1);
      fx_seq_unref (child_keys);
    }
}

static gboolean
m_load_state_dict (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  static const char *const names[] = { "state_dict", "strict" };
  const FxValue *a[2];
  NnState *st = data;
  gboolean strict;
  FxValue sdv = fx_value_none ();
  FxSeq *keys;
  const FxValue *k, *v;
  LoadState ls;
  SELF ("load_state_dict");
  (void) p;
  if (!parse_method (S, "load_state_dict", args, n_args, kwargs, names, 2, 1, a)
      || !truth (S, a[1], TRUE, &strict))
    return FALSE;
  if (a[0]->kind == FX_VALUE_DICT)
    sdv = fx_value_copy (a[0]);
  else
    {
      FxValue dict_cls = sc_builtin_lookup (S, "dict");
      gboolean keys_ok;
      if (!has_attr (S, a[0], "keys", &keys_ok))
        {
          fx_value_clear (&dict_cls);
          return FALSE;
        }
      if (!keys_ok || !sc_call1 (S, &dict_cls, a[0], &sdv) || sdv.kind != FX_VALUE_DICT)
        {
          FxScriptClass *c = sc_type_of (S, a[0]);
          sc_clear_exc (S);
          fx_value_clear (&dict_cls);
          fx_value_clear (&sdv);
          if (c->module && strcmp (c->module->data, "builtins") != 0)
            return sc_raise (S, SC_T_TYPE_ERROR,
                             "Expected state_dict to be dict-like, got <class '%s.%s'>.",
                             c->module->data, c->qualname->data);
          return sc_raise (S, SC_T_TYPE_ERROR,
                           "Expected state_dict to be dict-like, got <class '%s'>.",
                           c->name->data);
        }
      fx_value_clear (&dict_cls);
    }
  keys = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (sdv.dict, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR)
      fx_seq_append (keys, fx_value_copy (k));
  ls.missing = fx_seq_new (0);
  ls.unexpected = fx_seq_new (0);
  ls.errors = g_ptr_array_new_with_free_func (g_free);
  load_rec (S, &args[0], sdv.dict, keys, "", &ls, 0);
  fx_seq_unref (keys);
  fx_value_clear (&sdv);

  if (strict)
    {
      if (ls.unexpected->len > 0)
        {
          GString *s = g_string_new ("Unexpected key(s) in state_dict: ");
          for (guint i = 0; i < ls.unexpected->len; i++)
            g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", ls.unexpected->items[i].s->data);
          g_string_append (s, ". ");
          g_ptr_array_insert (ls.errors, 0, g_string_free (s, FALSE));
        }
      if (ls.missing->len > 0)
        {
          GString *s = g_string_new ("Missing key(s) in state_dict: ");
          for (guint i = 0; i < ls.missing->len; i++)
            g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", ls.missing->items[i].s->data);
          g_string_append (s, ". ");
          g_ptr_array_insert (ls.errors, 0, g_string_free (s, FALSE));
        }
    }
  if (ls.errors->len > 0)
    {
      GString *s = g_string_new (NULL);
      g_string_append_printf (s, "Error(s) in loading state_dict for %s:\n\t",
                              sc_type_name (S, &args[0]));
      for (guint i = 0; i < ls.errors->len; i++)
        g_string_append_printf (s, "%s%s", i ? "\n\t" : "", (char *) ls.errors->pdata[i]);
      sc_raise_str (S, SC_T_RUNTIME_ERROR, s->str);
      g_string_free (s, TRUE);
      fx_seq_unref (ls.missing);
      fx_seq_unref (ls.unexpected);
      g_ptr_array_unref (ls.errors);
      return FALSE;
    }
  g_ptr_array_unref (ls.errors);
  {
    FxValue cls = fx_script_class_value (st->incompatible_cls);
    FxValue missing = fx_value_take_list (ls.missing), unexpected = fx_value_take_list (ls.unexpected);
    gboolean ok = sc_call2 (S, &cls, &missing, &unexpected, result);
    fx_value_clear (&cls);
    fx_value_clear (&missing);
    fx_value_clear (&unexpected);
    return ok;
  }
}

/* _IncompatibleKeys: the namedtuple load_state_dict returns. Its base, made by
 * collections.namedtuple, or NULL. */
static FxScriptClass *
incompatible_keys_base (FxScript *S)
{
  FxValue mod, factory, cls = fx_value_none ();
  if (!sc_import (S, "collections", &mod))
    return NULL;
  gboolean ok = sc_getattr (S, &mod, name_of ("namedtuple"), &factory);
  fx_value_clear (&mod);
  if (!ok)
    return NULL;
  FxSeq *fields = fx_seq_new (2);
  fields->items[0] = fx_value_str ("missing_keys");
  fields->items[1] = fx_value_str ("unexpected_keys");
  FxValue name = fx_value_str ("IncompatibleKeys"), field_list = fx_value_take_list (fields);
  ok = sc_call2 (S, &factory, &name, &field_list, &cls);
  fx_value_clear (&factory);
  fx_value_clear (&name);
  fx_value_clear (&field_list);
  FxScriptClass *base = ok ? sc_value_class (&cls) : NULL;
  /* the class lives on: native classes and the tuple types of namedtuples are kept by the
   * script */
  fx_value_clear (&cls);
  return base;
}

static gboolean
ik_field (FxScript *S, const FxValue *self, const char *name, FxValue *out)
{
  return sc_getattr (S, self, name_of (name), out);
}

static gboolean
ik_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  FxValue m, u;
  GString *s;
  (void) data;
  (void) n_args;
  (void) kwargs;
  if (!ik_field (S, &args[0], "missing_keys", &m))
    return FALSE;
  if (!ik_field (S, &args[0], "unexpected_keys", &u))
    {
      fx_value_clear (&m);
      return FALSE;
    }
  s = g_string_new (NULL);
  if (m.kind == FX_VALUE_LIST && u.kind == FX_VALUE_LIST && m.seq->len == 0 && u.seq->len == 0)
    g_string_append (s, "<All keys matched successfully>");
  else
    {
      g_string_append (s, "_IncompatibleKeys(missing_keys=");
      if (!sc_repr (S, &m, s))
        goto fail;
      g_string_append (s, ", unexpected_keys=");
      if (!sc_repr (S, &u, s))
        goto fail;
      g_string_append_c (s, ')');
    }
  fx_value_clear (&m);
  fx_value_clear (&u);
  *result = fx_value_take_str (fx_str_new (s->str));
  g_string_free (s, TRUE);
  return TRUE;
fail:
  fx_value_clear (&m);
  fx_value_clear (&u);
  g_string_free (s, TRUE);
  return FALSE;
}

/* ------------------------------------------------------------------ train, apply, to */

static gboolean
m_train (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "mode" };
  const FxValue *a[1] = { NULL };
  gboolean mode = TRUE;
  FxSeq *kids;
  (void) data;
  SELF ("train");
  if (!parse_method (S, "train", args, n_args, kwargs, names, 1, 0, a))
    return FALSE;
  if (a[0] != NULL)
    {
      if (a[0]->kind != FX_VALUE_BOOL)
        return sc_raise (S, SC_T_VALUE_ERROR, "training mode is expected to be boolean");
      mode = a[0]->b;
    }
  p->fx->training = mode;
  kids = named_children (p, FALSE);
  for (guint i = 0; i < kids->len; i++)
    {
      FxValue m = fx_value_bool (mode), r;
      if (!call_method (S, &kids->items[i], "train", &m, 1, &r))
        {
          fx_seq_unref (kids);
          return FALSE;
        }
      fx_value_clear (&r);
    }
  fx_seq_unref (kids);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
m_eval (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  FxValue f = fx_value_bool (FALSE);
  (void) data;
  if (!no_more_args (S, "eval", args, n_args, kwargs))
    return FALSE;
  return call_method (S, &args[0], "train", &f, 1, result);
}

static gboolean
training_get (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  (void) n_args;
  (void) kwargs;
  (void) data;
  SELF ("training");
  *result = fx_value_bool (p->fx->training);
  return TRUE;
}

static gboolean
training_set (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  gboolean b;
  (void) kwargs;
  (void) data;
  SELF ("training");
  if (n_args < 2 || !sc_truth (S, &args[1], &b))
    return FALSE;
  p->fx->training = b;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
dict_prop (FxScript *S, const FxValue *args, FxValue *result, int which)
{
  SELF ("_modules");
  switch (which)
    {
    case 0: *result = fx_value_take_dict (fx_dict_ref (p->fx->parameters)); break;
    case 1: *result = fx_value_take_dict (fx_dict_ref (p->fx->buffers)); break;
    default: *result = fx_value_take_dict (fx_dict_ref (p->modules)); break;
    }
  return TRUE;
}

static gboolean
parameters_get (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  (void) n_args; (void) kwargs; (void) data;
  return dict_prop (S, args, result, 0);
}

static gboolean
buffers_get (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  (void) n_args; (void) kwargs; (void) data;
  return dict_prop (S, args, result, 1);
}

static gboolean
modules_get (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  (void) n_args; (void) kwargs; (void) data;
  return dict_prop (S, args, result, 2);
}

/* self._modules = d (Sequential's __delitem__ renumbering does it) */
static gboolean
modules_set (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  (void) kwargs; (void) data;
  FxValue d = fx_value_none ();
  SELF ("_modules");
  if (n_args < 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "_modules needs a value");
  if (args[1].kind == FX_VALUE_DICT)
    d = fx_value_copy (&args[1]);
  else
    {
      /* an OrderedDict: its items become the dict */
      FxValue dict_cls = sc_builtin_lookup (S, "dict");
      gboolean ok = sc_call1 (S, &dict_cls, &args[1], &d);
      fx_value_clear (&dict_cls);
      if (!ok)
        return FALSE;
      if (d.kind != FX_VALUE_DICT)
        {
          fx_value_clear (&d);
          return sc_raise (S, SC_T_TYPE_ERROR, "_modules must be a dict");
        }
    }
  fx_dict_unref (p->modules);
  p->modules = fx_dict_ref (d.dict);
  fx_value_clear (&d);
  sync_tree (&args[0]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
m_apply (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  static const char *const names[] = { "fn" };
  const FxValue *a[1];
  FxSeq *kids;
  FxValue r;
  (void) data;
  SELF ("apply");
  if (!parse_method (S, "apply", args, n_args, kwargs, names, 1, 1, a))
    return FALSE;
  kids = named_children (p, FALSE);
  for (guint i = 0; i < kids->len; i++)
    {
      if (!call_method (S, &kids->items[i], "apply", a[0], 1, &r))
        {
          fx_seq_unref (kids);
          return FALSE;
        }
      fx_value_clear (&r);
    }
  fx_seq_unref (kids);
  if (!sc_call1 (S, a[0], &args[0], &r))
    return FALSE;
  fx_value_clear (&r);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

/* param.data = converted: the tensor object stays (a Parameter stays the module's). */
static void
assign_data (FxTensor *dst, FxTensor *src)
{
  FxStorage *old = dst->storage;
  dst->storage = fx_storage_ref (src->storage);
  fx_storage_unref (old);
  dst->dtype = src->dtype;
  dst->ndim = src->ndim;
  memcpy (dst->shape, src->shape, sizeof dst->shape);
  memcpy (dst->strides, src->strides, sizeof dst->strides);
  dst->offset = src->offset;
}

/* Converts the floating parameters and buffers of the whole tree to dtype. */
static void
convert_tree (const FxValue *self, FxDType dtype)
{
  g_autoptr (GHashTable) memo = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) mods = g_ptr_array_new ();
  walk_modules (self, "", TRUE, memo, NULL, mods);
  for (guint m = 0; m < mods->len; m++)
    {
      FxValue mv = { .kind = FX_VALUE_OBJECT, .obj = mods->pdata[m] };
      NnModule *p = nn_payload (&mv);
      FxDict *tables[2] = { p->fx->parameters, p->fx->buffers };
      for (int t = 0; t < 2; t++)
        {
          const FxValue *k, *v;
          for (guint i = 0; fx_dict_entry (tables[t], i, &k, &v); i++)
            if (v->kind == FX_VALUE_TENSOR && fx_dtype_is_floating (v->tensor->dtype)
                && v->tensor->dtype != dtype)
              {
                FxTensor *c = fx_tensor_to_dtype (v->tensor, dtype);
                FxTensor *cc = fx_tensor_contiguous (c);
                assign_data (v->tensor, cc);
                fx_tensor_unref (cc);
                fx_tensor_unref (c);
              }
        }
    }
}

static gboolean
check_device (FxScript *S, const FxValue *dev)
{
  const char *name = NULL;
  if (dev->kind == FX_VALUE_STR || dev->kind == FX_VALUE_DEVICE)
    name = dev->s->data;
  else if (dev->kind == FX_VALUE_INT)
    name = "cuda";
  if (name == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "to() received an invalid combination of arguments - "
                     "got (%s)", sc_type_name (S, dev));
  if (g_str_equal (name, "cpu") || g_str_has_prefix (name, "cpu:") || g_str_equal (name, "meta"))
    return TRUE;
  if (g_str_has_prefix (name, "cuda"))
    return sc_raise (S, SC_T_ASSERTION_ERROR, "Torch not compiled with CUDA enabled");
  return sc_raise (S, SC_T_RUNTIME_ERROR, "libfx runs on the CPU only; device '%s' is not "
                   "supported", name);
}

static gboolean
m_to (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
      gpointer data)
{
  const FxValue *dtype = NULL;
  const FxValue *k, *v;
  (void) data;
  SELF ("to");
  (void) p;
  for (int i = 1; i < n_args; i++)
    {
      const FxValue *a = &args[i];
      if (a->kind == FX_VALUE_DTYPE)
        dtype = a;
      else if (a->kind == FX_VALUE_TENSOR)
        dtype = NULL;  /* to(tensor): its dtype, checked below */
      else if (a->kind == FX_VALUE_BOOL)
        continue;      /* non_blocking */
      else if (!check_device (S, a))
        return FALSE;
      if (a->kind == FX_VALUE_TENSOR)
        {
          FxValue d = fx_value_dtype (a->tensor->dtype);
          if (fx_dtype_is_floating (a->tensor->dtype))
            convert_tree (&args[0], d.dtype);
        }
    }
  for (guint i = 0; kwargs && fx_dict_entry (kwargs, i, &k, &v); i++)
    {
      const char *kn = k->kind == FX_VALUE_STR ? k->s->data : "";
      if (g_str_equal (kn, "dtype"))
        dtype = v->kind == FX_VALUE_NONE ? NULL : v;
      else if (g_str_equal (kn, "device"))
        {
          if (v->kind != FX_VALUE_NONE && !check_device (S, v))
            return FALSE;
        }
      else if (!g_str_equal (kn, "non_blocking") && !g_str_equal (kn, "memory_format")
               && !g_str_equal (kn, "copy"))
        return sc_raise (S, SC_T_TYPE_ERROR, "to() received an invalid combination of "
                         "arguments - got an unexpected keyword argument '%s'", kn);
    }
  if (dtype != NULL)
    {
      if (dtype->kind != FX_VALUE_DTYPE)
        return sc_raise (S, SC_T_TYPE_ERROR, "to() received an invalid combination of arguments");
      if (!fx_dtype_is_floating (dtype->dtype))
        return sc_raise (S, SC_T_TYPE_ERROR, "nn.Module.to only accepts floating point or "
                         "complex dtypes, but got desired dtype=torch.%s",
                         fx_dtype_name (dtype->dtype));
      convert_tree (&args[0], dtype->dtype);
    }
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
convert_method (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                const char *fname, FxDType dtype)
{
  SELF (fname);
  (void) p;
  if (!no_more_args (S, fname, args, n_args, kwargs))
    return FALSE;
  convert_tree (&args[0], dtype);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
m_float (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
         gpointer data)
{
  (void) data;
  return convert_method (S, args, n_args, kwargs, result, "float", FX_DTYPE_FLOAT32);
}

static gboolean
m_double (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
          gpointer data)
{
  (void) data;
  return convert_method (S, args, n_args, kwargs, result, "double", FX_DTYPE_FLOAT64);
}

static gboolean
m_half (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  (void) data;
  return convert_method (S, args, n_args, kwargs, result, "half", FX_DTYPE_FLOAT16);
}

static gboolean
m_cpu (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
       gpointer data)
{
  (void) data;
  SELF ("cpu");
  (void) p;
  if (!no_more_args (S, "cpu", args, n_args, kwargs))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
m_cuda (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  (void) args; (void) n_args; (void) kwargs; (void) result; (void) data;
  return sc_raise (S, SC_T_ASSERTION_ERROR, "Torch not compiled with CUDA enabled");
}

static gboolean
m_requires_grad_ (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                  FxValue *result, gpointer data)
{
  static const char *const names[] = { "requires_grad" };
  const FxValue *a[1] = { NULL };
  gboolean rg;
  FxSeq *params;
  (void) data;
  SELF ("requires_grad_");
  (void) p;
  if (!parse_method (S, "requires_grad_", args, n_args, kwargs, names, 1, 0, a)
      || !truth (S, a[0], TRUE, &rg))
    return FALSE;
  params = named_tensors (&args[0], "", TRUE, FALSE, FALSE);
  for (guint i = 0; i < params->len; i++)
    if (params->items[i].kind == FX_VALUE_TENSOR)
      params->items[i].tensor->requires_grad = rg;
  fx_seq_unref (params);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
m_zero_grad (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
             gpointer data)
{
  static const char *const names[] = { "set_to_none" };
  const FxValue *a[1] = { NULL };
  (void) data;
  /* libfx keeps no gradients: nothing to clear */
  if (!parse_method (S, "zero_grad", args, n_args, kwargs, names, 1, 0, a))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

/* ------------------------------------------------------------------ call, forward, repr */

static FxSeq *
hook_list (FxDict *hooks)
{
  FxSeq *out = fx_seq_new (0);
  const FxValue *k, *v;
  for (guint i = 0; hooks && fx_dict_entry (hooks, i, &k, &v); i++)
    fx_seq_append (out, fx_value_copy (v));
  return out;
}

static FxValue
args_tuple (const FxValue *args, int n)
{
  FxSeq *t = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    t->items[i] = fx_value_copy (&args[i]);
  return fx_value_take_tuple (t);
}

/* _call_impl: forward pre-hooks, forward, forward hooks */
static gboolean
m_call (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  NnModule *p;
  FxValue fwd, input;
  gboolean ok;
  (void) data;
  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "Module.__call__() needs self");
  p = nn_payload (&args[0]);
  if (p == NULL
      || ((!p->forward_pre_hooks || fx_dict_len (p->forward_pre_hooks) == 0)
          && (!p->forward_hooks || fx_dict_len (p->forward_hooks) == 0)))
    {
      if (!sc_getattr (S, &args[0], name_of ("forward"), &fwd))
        return FALSE;
      ok = sc_call_dict (S, &fwd, args + 1, n_args - 1, kwargs, result);
      fx_value_clear (&fwd);
      return ok;
    }
  input = args_tuple (args + 1, n_args - 1);
  {
    FxSeq *pre = hook_list (p->forward_pre_hooks);
    for (guint i = 0; i < pre->len; i++)
      {
        FxValue r;
        if (!sc_call2 (S, &pre->items[i], &args[0], &input, &r))
          {
            fx_seq_unref (pre);
            fx_value_clear (&input);
            return FALSE;
          }
        if (r.kind == FX_VALUE_TUPLE)
          {
            fx_value_clear (&input);
            input = r;
          }
        else if (r.kind != FX_VALUE_NONE)
          {
            fx_value_clear (&input);
            input = args_tuple (&r, 1);
            fx_value_clear (&r);
          }
      }
    fx_seq_unref (pre);
  }
  if (!sc_getattr (S, &args[0], name_of ("forward"), &fwd))
    {
      fx_value_clear (&input);
      return FALSE;
    }
  ok = sc_call_dict (S, &fwd, input.seq->items, (int) input.seq->len, kwargs, result);
  fx_value_clear (&fwd);
  if (ok)
    {
      FxSeq *post = hook_list (p->forward_hooks);
      for (guint i = 0; ok && i < post->len; i++)
        {
          FxValue r, hargs[3] = { args[0], input, *result };
          ok = sc_call (S, &post->items[i], hargs, 3, NULL, 0, &r);
          if (ok && r.kind != FX_VALUE_NONE)
            {
              fx_value_clear (result);
              *result = r;
            }
          else if (ok)
            fx_value_clear (&r);
          else
            fx_value_clear (result);
        }
      fx_seq_unref (post);
    }
  fx_value_clear (&input);
  return ok;
}

/* register_forward_hook / register_forward_pre_hook: a RemovableHandle */
static gboolean
add_hook (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
          NnState *st, gboolean pre)
{
  static const char *const names[] = { "hook" };
  static gint next_id;
  const FxValue *a[1];
  FxDict **hooks;
  FxValue handle;
  FxDict *d;
  int id;
  SELF (pre ? "register_forward_pre_hook" : "register_forward_hook");
  if (!parse_method (S, pre ? "register_forward_pre_hook" : "register_forward_hook", args, n_args,
                     kwargs, names, 1, 1, a))
    return FALSE;
  hooks = pre ? &p->forward_pre_hooks : &p->forward_hooks;
  if (*hooks == NULL)
    *hooks = fx_dict_new ();
  id = g_atomic_int_add (&next_id, 1);
  fx_dict_set (*hooks, fx_value_int (id), fx_value_copy (a[0]));
  handle = fx_script_instance_new (S, st->handle_cls);
  d = fx_script_instance_dict (&handle);
  sc_dict_set_str (d, "id", fx_value_int (id));
  sc_dict_set_str (d, "hooks_dict_ref", fx_value_take_dict (fx_dict_ref (*hooks)));
  *result = handle;
  return TRUE;
}

static gboolean
m_register_forward_hook (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                         FxValue *result, gpointer data)
{
  return add_hook (S, args, n_args, kwargs, result, data, FALSE);
}

static gboolean
m_register_forward_pre_hook (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                             FxValue *result, gpointer data)
{
  return add_hook (S, args, n_args, kwargs, result, data, TRUE);
}

static gboolean
handle_remove (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  FxDict *d = fx_script_instance_dict (&args[0]);
  const FxValue *hooks, *id;
  (void) data;
  if (!no_more_args (S, "remove", args, n_args, kwargs))
    return FALSE;
  hooks = d ? dict_lookup (d, "hooks_dict_ref") : NULL;
  id = d ? dict_lookup (d, "id") : NULL;
  if (hooks && id && hooks->kind == FX_VALUE_DICT)
    fx_dict_remove (hooks->dict, id);
  *result = fx_value_none ();
  return TRUE;
}

/* __getstate__ / __setstate__: what copy.copy and copy.deepcopy carry over. */
static FxValue
names_list (GHashTable *set)
{
  FxSeq *l = fx_seq_new (0);
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, set);
  while (g_hash_table_iter_next (&it, &key, NULL))
    fx_seq_append (l, str_value (key));
  return fx_value_take_list (l);
}

static gboolean
m_getstate (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  FxDict *d;
  (void) data;
  SELF ("__getstate__");
  if (!no_more_args (S, "__getstate__", args, n_args, kwargs))
    return FALSE;
  d = fx_dict_new ();
  sc_dict_set_str (d, "__dict__", sc_dict_copy (p->fx->attributes));
  sc_dict_set_str (d, "_parameters", sc_dict_copy (p->fx->parameters));
  sc_dict_set_str (d, "_buffers", sc_dict_copy (p->fx->buffers));
  sc_dict_set_str (d, "_non_persistent_buffers_set", names_list (p->fx->non_persistent));
  sc_dict_set_str (d, "_modules", sc_dict_copy (p->modules));
  sc_dict_set_str (d, "training", fx_value_bool (p->fx->training));
  sc_dict_set_str (d, "_initialized", fx_value_bool (p->initialized));
  sc_dict_set_str (d, "_layer", p->fx->layer ? str_value (p->fx->layer->type_name)
                                             : fx_value_none ());
  *result = fx_value_take_dict (d);
  return TRUE;
}

static gboolean
m_setstate (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
            gpointer data)
{
  const FxValue *v, *k, *x;
  FxDict *st;
  (void) data;
  SELF ("__setstate__");
  if (n_args != 2 || args[1].kind != FX_VALUE_DICT || (kwargs && fx_dict_len (kwargs)))
    return sc_raise (S, SC_T_TYPE_ERROR, "__setstate__() expects a state dict");
  st = args[1].dict;
  if ((v = dict_lookup (st, "__dict__")) && v->kind == FX_VALUE_DICT)
    for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
      fx_dict_set (p->fx->attributes, fx_value_copy (k), fx_value_copy (x));
  if ((v = dict_lookup (st, "_parameters")) && v->kind == FX_VALUE_DICT)
    for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
      fx_dict_set (p->fx->parameters, fx_value_copy (k), fx_value_copy (x));
  if ((v = dict_lookup (st, "_buffers")) && v->kind == FX_VALUE_DICT)
    for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
      fx_dict_set (p->fx->buffers, fx_value_copy (k), fx_value_copy (x));
  if ((v = dict_lookup (st, "_non_persistent_buffers_set")) && v->kind == FX_VALUE_LIST)
    for (guint i = 0; i < v->seq->len; i++)
      if (v->seq->items[i].kind == FX_VALUE_STR)
        g_hash_table_add (p->fx->non_persistent, g_strdup (v->seq->items[i].s->data));
  if ((v = dict_lookup (st, "_modules")) && v->kind == FX_VALUE_DICT)
    for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
      if (k->kind == FX_VALUE_STR)
        nn_set_child (p, k->s->data, x);
  if ((v = dict_lookup (st, "training")))
    p->fx->training = v->kind == FX_VALUE_BOOL ? v->b : TRUE;
  v = dict_lookup (st, "_initialized");
  p->initialized = v == NULL || v->kind != FX_VALUE_BOOL || v->b;
  if ((v = dict_lookup (st, "_layer")) && v->kind == FX_VALUE_STR)
    {
      p->fx->layer = fx_layer_lookup (v->s->data);
      p->fx->extra_repr = p->fx->layer ? p->fx->layer->extra_repr : NULL;
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
m_set_extra_state (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  (void) args; (void) n_args; (void) kwargs; (void) result; (void) data;
  return sc_raise (S, SC_T_RUNTIME_ERROR, "Reached a code path in Module.set_extra_state() that "
                   "should never be called. Please file an issue at "
                   "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                   "report this bug.");
}

/* to(dtype)-like conversions PyTorch has and libfx cannot do */
static gboolean
m_unsupported (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  (void) args; (void) n_args; (void) kwargs; (void) result;
  return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR, "Module.%s() is not supported by libfx",
                   (const char *) data);
}

static gboolean
m_return_self (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  (void) S; (void) n_args; (void) kwargs; (void) data;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
m_type (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  static const char *const names[] = { "dst_type" };
  const FxValue *a[1];
  (void) data;
  SELF ("type");
  (void) p;
  if (!parse_method (S, "type", args, n_args, kwargs, names, 1, 1, a))
    return FALSE;
  if (a[0]->kind != FX_VALUE_DTYPE)
    return sc_raise (S, SC_T_TYPE_ERROR, "Module.type() expects a dtype in libfx");
  convert_tree (&args[0], a[0]->dtype);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
m_get_extra_state (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  (void) args; (void) n_args; (void) kwargs; (void) result; (void) data;
  return sc_raise (S, SC_T_RUNTIME_ERROR, "Reached a code path in Module.get_extra_state() that "
                   "should never be called. Please file an issue at "
                   "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                   "report this bug.");
}

static gboolean
m_forward (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
           gpointer data)
{
  (void) n_args; (void) kwargs; (void) result; (void) data;
  return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR,
                   "Module [%s] is missing the required \"forward\" function",
                   sc_type_name (S, &args[0]));
}

static gboolean
m_extra_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  (void) data;
  if (!no_more_args (S, "extra_repr", args, n_args, kwargs))
    return FALSE;
  *result = str_value ("");
  return TRUE;
}

/* _addindent(s, 2) */
static void
append_indented (GString *out, const char *s)
{
  for (const char *c = s; *c; c++)
    {
      g_string_append_c (out, *c);
      if (*c == '\n')
        g_string_append (out, "  ");
    }
}

static gboolean
m_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
        gpointer data)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint n_extra = 0;
  FxValue extra;
  GString *s;
  FxSeq *items;
  const FxValue *k, *v;
  (void) data;
  SELF ("__repr__");
  if (!no_more_args (S, "__repr__", args, n_args, kwargs))
    return FALSE;
  if (!call_method (S, &args[0], "extra_repr", NULL, 0, &extra))
    return FALSE;
  if (extra.kind != FX_VALUE_STR)
    {
      GString *tmp = g_string_new (NULL);
      gboolean ok = sc_str (S, &extra, tmp);
      fx_value_clear (&extra);
      if (!ok)
        {
          g_string_free (tmp, TRUE);
          return FALSE;
        }
      extra = fx_value_take_str (fx_str_new (tmp->str));
      g_string_free (tmp, TRUE);
    }
  if (extra.s->len > 0)
    {
      g_auto (GStrv) split = g_strsplit (extra.s->data, "\n", -1);
      for (guint i = 0; split[i]; i++)
        g_ptr_array_add (lines, g_strdup (split[i]));
      n_extra = lines->len;
    }
  fx_value_clear (&extra);
  /* a snapshot: repr of a child may run Python code that changes _modules */
  items = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (p->modules, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR)
      fx_seq_append (items, pair (k->s->data, fx_value_copy (v)));
  for (guint i = 0; i < items->len; i++)
    {
      FxSeq *kv = items->items[i].seq;
      GString *child = g_string_new (NULL), *line;
      if (!sc_repr (S, &kv->items[1], child))
        {
          g_string_free (child, TRUE);
          fx_seq_unref (items);
          return FALSE;
        }
      line = g_string_new (NULL);
      g_string_append_printf (line, "(%s): ", kv->items[0].s->data);
      append_indented (line, child->str);
      g_string_free (child, TRUE);
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  fx_seq_unref (items);
  s = g_string_new (sc_type_name (S, &args[0]));
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
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static void
add_keys (FxSeq *out, FxDict *d)
{
  const FxValue *k, *v;
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR && k->s->len > 0 && !g_ascii_isdigit (k->s->data[0]))
      fx_seq_append (out, fx_value_copy (k));
}

static gboolean
m_dir (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
       gpointer data)
{
  FxValue cls;
  FxSeq *class_attrs = NULL, *out;
  (void) data;
  SELF ("__dir__");
  if (!no_more_args (S, "__dir__", args, n_args, kwargs))
    return FALSE;
  cls = sc_class_value (sc_type_of (S, &args[0]));
  if (!sc_dir (S, &cls, &class_attrs))
    {
      fx_value_clear (&cls);
      return FALSE;
    }
  fx_value_clear (&cls);
  out = fx_seq_new (0);
  for (guint i = 0; i < class_attrs->len; i++)
    {
      const FxValue *k = &class_attrs->items[i];
      if (k->kind == FX_VALUE_STR && k->s->len > 0 && !g_ascii_isdigit (k->s->data[0]))
        fx_seq_append (out, fx_value_copy (k));
    }
  fx_seq_unref (class_attrs);
  add_keys (out, p->fx->attributes);
  add_keys (out, p->fx->parameters);
  add_keys (out, p->modules);
  add_keys (out, p->fx->buffers);
  if (!sc_sort (S, out, NULL, FALSE))
    {
      fx_seq_unref (out);
      return FALSE;
    }
  *result = fx_value_take_list (out);
  return TRUE;
}

/* ------------------------------------------------------------------ class setup */

FxScriptClass *
nn_class (FxScript *S, NnState *st, const char *module, const char *name, FxScriptClass *base)
{
  FxScriptClassInfo info = { 0 };
  FxScriptClass *cls;
  info.module = module;
  info.name = name;
  if (base == NULL)
    {
      info.payload_new = nn_payload_new;
      info.payload_free = nn_payload_free;
      info.class_data = st;
    }
  cls = fx_script_class_new (S, &info, base);
  cls->flags |= SC_CLASS_HAS_DICT;
  return cls;
}

static void
method (FxScriptClass *cls, const char *name, FxScriptFunc func, NnState *st)
{
  fx_script_class_add_method (cls, name, func, st);
}

/* The class value goes into the module (which owns it). */
static void
publish (FxScriptModule *mod, FxScriptClass *cls)
{
  fx_script_module_set (mod, fx_script_class_get_name (cls), fx_script_class_value (cls));
}

void
nn_module_class_init (FxScript *S, FxScriptModule *mod, NnState *st)
{
  FxScriptClass *m = nn_class (S, st, "torch.nn.modules.module", "Module", NULL);
  FxScriptClass *ik;
  st->module_cls = m;
  method (m, "__init__", m_init, st);
  method (m, "__getattr__", m_getattr, st);
  method (m, "__setattr__", m_setattr, st);
  method (m, "__delattr__", m_delattr, st);
  method (m, "__call__", m_call, st);
  method (m, "__repr__", m_repr, st);
  method (m, "__dir__", m_dir, st);
  method (m, "forward", m_forward, st);
  method (m, "_call_impl", m_call, st);
  method (m, "_get_name", m_get_name, st);
  method (m, "extra_repr", m_extra_repr, st);
  method (m, "register_buffer", m_register_buffer, st);
  method (m, "register_parameter", m_register_parameter, st);
  method (m, "add_module", m_add_module, st);
  method (m, "register_module", m_add_module, st);
  method (m, "get_submodule", m_get_submodule, st);
  method (m, "get_parameter", m_get_parameter, st);
  method (m, "get_buffer", m_get_buffer, st);
  method (m, "parameters", m_parameters, st);
  method (m, "named_parameters", m_named_parameters, st);
  method (m, "buffers", m_buffers, st);
  method (m, "named_buffers", m_named_buffers, st);
  method (m, "children", m_children, st);
  method (m, "named_children", m_named_children, st);
  method (m, "modules", m_modules, st);
  method (m, "named_modules", m_named_modules, st);
  method (m, "state_dict", m_state_dict, st);
  method (m, "load_state_dict", m_load_state_dict, st);
  method (m, "train", m_train, st);
  method (m, "eval", m_eval, st);
  method (m, "apply", m_apply, st);
  method (m, "to", m_to, st);
  method (m, "float", m_float, st);
  method (m, "double", m_double, st);
  method (m, "half", m_half, st);
  method (m, "cpu", m_cpu, st);
  method (m, "cuda", m_cuda, st);
  method (m, "requires_grad_", m_requires_grad_, st);
  method (m, "zero_grad", m_zero_grad, st);
  method (m, "register_forward_hook", m_register_forward_hook, st);
  method (m, "register_forward_pre_hook", m_register_forward_pre_hook, st);
  method (m, "__getstate__", m_getstate, st);
  method (m, "__setstate__", m_setstate, st);
  method (m, "type", m_type, st);
  method (m, "share_memory", m_return_self, st);
  method (m, "get_extra_state", m_get_extra_state, st);
  method (m, "set_extra_state", m_set_extra_state, st);
  fx_script_class_add_method (m, "register_load_state_dict_post_hook", m_unsupported,
                              "register_load_state_dict_post_hook");
  fx_script_class_add_method (m, "bfloat16", m_unsupported, "bfloat16");
  fx_script_class_add_method (m, "ipu", m_unsupported, "ipu");
  fx_script_class_add_method (m, "xpu", m_unsupported, "xpu");
  fx_script_class_add_method (m, "to_empty", m_unsupported, "to_empty");
  fx_script_class_add_method (m, "register_backward_hook", m_unsupported,
                              "register_backward_hook");
  fx_script_class_add_method (m, "register_full_backward_hook", m_unsupported,
                              "register_full_backward_hook");
  fx_script_class_set_attr (m, "T_destination", str_value ("~T_destination"));
  fx_script_class_add_property (m, "training", training_get, training_set, st);
  fx_script_class_add_property (m, "_parameters", parameters_get, NULL, st);
  fx_script_class_add_property (m, "_buffers", buffers_get, NULL, st);
  fx_script_class_add_property (m, "_modules", modules_get, modules_set, st);
  fx_script_class_set_attr (m, "dump_patches", fx_value_bool (FALSE));
  fx_script_class_set_attr (m, "_version", fx_value_int (1));
  publish (mod, m);

  {
    /* a subclass of namedtuple('IncompatibleKeys', ['missing_keys', 'unexpected_keys']), as
     * in PyTorch: a tuple with _asdict, _fields, count, index and tuple comparisons, whose
     * repr says when every key matched */
    FxScriptClassInfo info = { .module = "torch.nn.modules.module", .name = "_IncompatibleKeys" };
    FxScriptClass *base = incompatible_keys_base (S);
    ik = base ? fx_script_class_new (S, &info, base) : NULL;
    if (ik == NULL)
      g_error ("torch.nn: cannot make _IncompatibleKeys");
    method (ik, "__repr__", ik_repr, st);
    st->incompatible_cls = ik;
  }
  {
    FxScriptClassInfo info = { .module = "torch.utils.hooks", .name = "RemovableHandle" };
    FxScriptClass *h = fx_script_class_new (S, &info, NULL);
    h->flags |= SC_CLASS_HAS_DICT;
    method (h, "remove", handle_remove, st);
    st->handle_cls = h;
    fx_script_module_set (mod, "_RemovableHandle", fx_script_class_value (h));
    /* owned by torch.nn.modules.module in PyTorch; kept alive by torch.nn here */
    fx_script_module_set (mod, "_IncompatibleKeys", fx_script_class_value (ik));
  }
}

/* ------------------------------------------------------------------ torch.nn */

static void
nn_state_free (gpointer data)
{
  g_free (data);
}

/* torch.nn.functional / init / modules / parameter as lazy attributes: importing them here
 * would re-enter the import of torch.nn. */
static gboolean
nn_module_getattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                   FxValue *result, gpointer data)
{
  static const char *const subs[] = { "functional", "init", "modules", "parameter", "utils" };
  (void) kwargs; (void) data;
  if (n_args >= 1 && args[n_args - 1].kind == FX_VALUE_STR)
    {
      const char *name = args[n_args - 1].s->data;
      for (guint i = 0; i < G_N_ELEMENTS (subs); i++)
        if (g_str_equal (name, subs[i]))
          {
            g_autofree char *full = g_strconcat ("torch.nn.", name, NULL);
            return sc_import (S, full, result);
          }
      return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "module 'torch.nn' has no attribute '%s'", name);
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "__getattr__ expects a name");
}

static gboolean
nn_torch_nn_init (FxScript *S, FxScriptModule *mod, gpointer user_data)
{
  NnState *st = user_data;
  nn_module_class_init (S, mod, st);
  nn_layers_init (S, mod, st);
  fx_script_module_set_getattr (mod, nn_module_getattr, st);
  return !fx_script_exception_pending (S);
}

static const char *const nn_files[] = { "module", "container", "linear", "conv", "batchnorm",
  "normalization", "instancenorm", "dropout", "activation", "pooling", "sparse", "upsampling",
  "pixelshuffle", "channelshuffle", "padding", "flatten" };

/* torch.nn.modules.conv etc. as attributes of torch.nn.modules before their import */
static gboolean
nn_modules_getattr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                    FxValue *result, gpointer data)
{
  (void) kwargs; (void) data;
  if (n_args >= 1 && args[n_args - 1].kind == FX_VALUE_STR)
    {
      const char *name = args[n_args - 1].s->data;
      for (guint i = 0; i < G_N_ELEMENTS (nn_files); i++)
        if (g_str_equal (name, nn_files[i]))
          {
            g_autofree char *full = g_strconcat ("torch.nn.modules.", name, NULL);
            return sc_import (S, full, result);
          }
      return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "module 'torch.nn.modules' has no attribute '%s'",
                       name);
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "__getattr__ expects a name");
}

/* torch.nn.modules / torch.nn.parameter: views of torch.nn's names. */
static gboolean
nn_alias_init (FxScript *S, FxScriptModule *mod, gpointer user_data)
{
  FxValue nn;
  FxDict *src;
  const FxValue *k, *v;
  (void) user_data;
  if (!sc_import (S, "torch.nn", &nn))
    return FALSE;
  src = ((FxScriptModule *) nn.obj)->dict;
  for (guint i = 0; fx_dict_entry (src, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR && !g_str_has_prefix (k->s->data, "__"))
      fx_script_module_set (mod, k->s->data, fx_value_copy (v));
  fx_value_clear (&nn);
  if (strcmp (fx_script_module_get_name (mod), "torch.nn.modules") == 0)
    fx_script_module_set_getattr (mod, nn_modules_getattr, NULL);
  return TRUE;
}

/* torch.nn.modules.<file>: the classes of torch.nn defined in that file of PyTorch. */
static gboolean
nn_submodule_init (FxScript *S, FxScriptModule *mod, gpointer user_data)
{
  const char *name = fx_script_module_get_name (mod);
  FxValue nn;
  const FxValue *k, *v;
  (void) user_data;
  if (!sc_import (S, "torch.nn", &nn))
    return FALSE;
  for (guint i = 0; fx_dict_entry (((FxScriptModule *) nn.obj)->dict, i, &k, &v); i++)
    {
      FxScriptClass *c = sc_value_class (v);
      if (c && c->module && k->kind == FX_VALUE_STR && strcmp (c->module->data, name) == 0)
        fx_script_module_set (mod, k->s->data, fx_value_copy (v));
    }
  fx_value_clear (&nn);
  return TRUE;
}

void
sc_nn_init (FxScript *S)
{

  NnState *st = g_new0 (NnState, 1);
  fx_script_register_module (S, "torch.nn", nn_torch_nn_init, st, nn_state_free);
  fx_script_register_module (S, "torch.nn.init", nn_init_module_init, NULL, NULL);
  fx_script_register_module (S, "torch.nn.modules", nn_alias_init, NULL, NULL);
  fx_script_register_module (S, "torch.nn.parameter", nn_alias_init, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (nn_files); i++)
    {
      g_autofree char *name = g_strconcat ("torch.nn.modules.", nn_files[i], NULL);
      fx_script_register_module (S, name, nn_submodule_init, NULL, NULL);
    }
}
