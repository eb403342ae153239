/* mod-dataclasses.c: `dataclasses` — @dataclass generating __init__, __repr__, __eq__, ordering,
 * frozen __setattr__ and __hash__ from the class annotations, with field(), fields(), asdict(),
 * astuple(), replace() and is_dataclass(). */
#include <string.h>
#include "script/mod.h"

typedef struct {
  FxValue name, type, dflt, factory;   /* dflt / factory: unbound when MISSING */
  gboolean init, repr, compare;
} Field;

typedef struct {
  gboolean init, repr, eq, order, frozen, unsafe_hash;
} DcOptions;

/* per-interpreter classes, kept as module attributes */
typedef struct {
  FxScriptClass *field_cls, *frozen_error;
  FxValue missing;
} DcState;

static gpointer
field_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  Field *f = g_new0 (Field, 1);
  (void) S;
  (void) cls;
  (void) class_data;
  f->dflt = sc_unbound ();
  f->factory = sc_unbound ();
  f->init = f->repr = f->compare = TRUE;
  return f;
}

static void
clear_maybe_unbound (FxValue *v)
{
  if (!sc_is_unbound (v))
    fx_value_clear (v);
}

static void
field_payload_free (gpointer p)
{
  Field *f = p;
  fx_value_clear (&f->name);
  fx_value_clear (&f->type);
  clear_maybe_unbound (&f->dflt);
  clear_maybe_unbound (&f->factory);
  g_free (f);
}

static gboolean missing_repr (SC_NATIVE_ARGS);

/* The module state hangs on the native dataclasses._fx_state (its user data). */
static DcState *
dc_state (FxScript *S)
{
  FxValue mod, *holder;
  DcState *r = NULL;
  if (!fx_script_import (S, "dataclasses", &mod))
    return NULL;
  holder = fx_script_module_lookup ((FxScriptModule *) mod.obj, "_fx_state");
  if (holder && sc_is_klass (holder, &sc_native_klass) && ((ScNative *) holder->obj)->func == missing_repr)
    r = ((ScNative *) holder->obj)->data;
  fx_value_clear (&mod);
  if (!r)
    sc_raise (S, SC_T_RUNTIME_ERROR, "dataclasses module state missing");
  return r;
}

static FxValue
missing_or (const FxValue *v, DcState *st)
{
  return sc_is_unbound (v) ? fx_value_copy (&st->missing) : fx_value_copy (v);
}

static gboolean
field_attr (SC_NATIVE_ARGS)
{
  Field *f = fx_script_instance_payload (&args[0]);
  DcState *st;
  (void) n_args;
  (void) kwargs;
  if (!f || !(st = dc_state (S)))
    return f ? FALSE : sc_raise (S, SC_T_TYPE_ERROR, "not a Field");
  switch (GPOINTER_TO_INT (data))
    {
    case 0: *result = fx_value_copy (&f->name); break;
    case 1: *result = fx_value_copy (&f->type); break;
    case 2: *result = missing_or (&f->dflt, st); break;
    case 3: *result = missing_or (&f->factory, st); break;
    case 4: *result = fx_value_bool (f->init); break;
    case 5: *result = fx_value_bool (f->repr); break;
    default: *result = fx_value_bool (f->compare); break;
    }
  return TRUE;
}

static gboolean
field_repr (SC_NATIVE_ARGS)
{
  Field *f = fx_script_instance_payload (&args[0]);
  GString *out = g_string_new ("Field(name=");
  (void) n_args;
  (void) kwargs;
  (void) data;
  if (!f)
    return sc_raise (S, SC_T_TYPE_ERROR, "not a Field");
  sc_repr (S, &f->name, out);
  g_string_append (out, ",type=");
  sc_repr (S, &f->type, out);
  g_string_append (out, ",default=");
  if (sc_is_unbound (&f->dflt))
    g_string_append (out, "<dataclasses._MISSING_TYPE object>");
  else
    sc_repr (S, &f->dflt, out);
  g_string_append_printf (out, ",init=%s,repr=%s,compare=%s)", f->init ? "True" : "False",
                          f->repr ? "True" : "False", f->compare ? "True" : "False");
  fx_script_clear_exception (S);
  *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return TRUE;
}

static gboolean
dc_field (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "default", "default_factory", "init", "repr", "hash", "compare",
                                       "metadata", "kw_only" };
  const FxValue *v[8];
  DcState *st = dc_state (S);
  Field *f;
  (void) data;
  if (!st)
    return FALSE;
  if (n_args)
    return sc_raise (S, SC_T_TYPE_ERROR, "field() takes 0 positional arguments but %d were given", n_args);
  if (!fx_script_parse_args (S, "field", args, 0, kwargs, names, 8, 0, 0, v))
    return FALSE;
  *result = fx_script_instance_new (S, st->field_cls);
  f = fx_script_instance_payload (result);
  if (v[0] && !(v[0]->kind == FX_VALUE_OBJECT && v[0]->obj == st->missing.obj))
    f->dflt = fx_value_copy (v[0]);
  if (v[1] && !(v[1]->kind == FX_VALUE_OBJECT && v[1]->obj == st->missing.obj))
    f->factory = fx_value_copy (v[1]);
  if (!sc_is_unbound (&f->dflt) && !sc_is_unbound (&f->factory))
    {
      fx_value_clear (result);
      return sc_raise (S, SC_T_VALUE_ERROR, "cannot specify both default and default_factory");
    }
  if ((v[2] && !sc_truth (S, v[2], &f->init)) || (v[3] && !sc_truth (S, v[3], &f->repr))
      || (v[5] && !sc_truth (S, v[5], &f->compare)))
    {
      fx_value_clear (result);
      return FALSE;
    }
  f->name = fx_value_none ();
  f->type = fx_value_none ();
  return TRUE;
}

/* The fields of a dataclass, in order: borrowed Field payloads from __dataclass_fields__. */
static FxDict *
dc_fields_dict (FxScript *S, FxScriptClass *cls)
{
  FxValue *d = sc_type_lookup_c (S, cls, "__dataclass_fields__");
  return d && d->kind == FX_VALUE_DICT ? d->dict : NULL;
}

static Field *
field_at (FxDict *d, guint i)
{
  const FxValue *k, *v;
  if (!fx_dict_entry (d, i, &k, &v))
    return NULL;
  return fx_script_instance_payload (v);
}

static gboolean
dc_set_field (FxScript *S, const FxValue *self, const FxValue *name, const FxValue *value)
{
  /* object.__setattr__, so that frozen classes can initialise themselves */
  return sc_generic_setattr (S, self, name->s, value);
}

static gboolean
dc_init (SC_NATIVE_ARGS)
{
  FxScriptClass *cls = data;
  FxDict *fd = dc_fields_dict (S, cls);
  GPtrArray *init_fields = g_ptr_array_new ();
  FxValue *vals = NULL;
  const char *qn = cls->qualname->data;
  int n_req = 0;
  gboolean ok = FALSE;
  for (guint i = 0; fd && i < fx_dict_len (fd); i++)
    {
      Field *f = field_at (fd, i);
      if (f && f->init)
        {
          g_ptr_array_add (init_fields, f);
          if (sc_is_unbound (&f->dflt) && sc_is_unbound (&f->factory))
            n_req++;
        }
    }
  if (n_args - 1 > (int) init_fields->len)
    {
      if (n_req == (int) init_fields->len)
        sc_raise (S, SC_T_TYPE_ERROR, "%s.__init__() takes %u positional argument%s but %d were given", qn,
                  init_fields->len + 1, init_fields->len ? "s" : "", n_args);
      else
        sc_raise (S, SC_T_TYPE_ERROR, "%s.__init__() takes from %d to %u positional arguments but %d were given", qn,
                  n_req + 1, init_fields->len + 1, n_args);
      goto out;
    }
  vals = g_new (FxValue, init_fields->len + 1);
  for (guint i = 0; i < init_fields->len; i++)
    vals[i] = sc_unbound ();
  for (int i = 1; i < n_args; i++)
    vals[i - 1] = fx_value_copy (&args[i]);
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint j = 0; fx_dict_entry (kwargs, j, &k, &v); j++)
        {
          int idx = -1;
          for (guint i = 0; i < init_fields->len; i++)
            if (strcmp (((Field *) init_fields->pdata[i])->name.s->data, k->s->data) == 0)
              idx = i;
          if (idx < 0)
            {
              sc_raise (S, SC_T_TYPE_ERROR, "%s.__init__() got an unexpected keyword argument '%s'", qn, k->s->data);
              goto out;
            }
          if (!sc_is_unbound (&vals[idx]))
            {
              sc_raise (S, SC_T_TYPE_ERROR, "%s.__init__() got multiple values for argument '%s'", qn, k->s->data);
              goto out;
            }
          vals[idx] = fx_value_copy (v);
        }
    }
  {
    GString *missing = NULL;
    int n_missing = 0;
    for (guint i = 0; i < init_fields->len; i++)
      {
        Field *f = init_fields->pdata[i];
        if (!sc_is_unbound (&vals[i]))
          continue;
        if (!sc_is_unbound (&f->dflt))
          vals[i] = fx_value_copy (&f->dflt);
        else if (!sc_is_unbound (&f->factory))
          {
            if (!sc_call0 (S, &f->factory, &vals[i]))
              {
                vals[i] = sc_unbound ();
                goto out;
              }
          }
        else
          {
            if (!missing)
              missing = g_string_new (NULL);
            else
              g_string_append (missing, "|");
            g_string_append_printf (missing, "'%s'", f->name.s->data);
            n_missing++;
          }
      }
    if (missing)
      {
        gchar **parts = g_strsplit (missing->str, "|", -1);
        GString *msg = g_string_new (NULL);
        for (int i = 0; parts[i]; i++)
          {
            if (i > 0)
              g_string_append (msg, parts[i + 1] ? ", " : (i > 1 ? ", and " : " and "));
            g_string_append (msg, parts[i]);
          }
        sc_raise (S, SC_T_TYPE_ERROR, "%s.__init__() missing %d required positional argument%s: %s", qn, n_missing,
                  n_missing == 1 ? "" : "s", msg->str);
        g_string_free (msg, TRUE);
        g_strfreev (parts);
        g_string_free (missing, TRUE);
        goto out;
      }
  }
  for (guint i = 0; i < init_fields->len; i++)
    if (!dc_set_field (S, &args[0], &((Field *) init_fields->pdata[i])->name, &vals[i]))
      goto out;
  /* fields with init=False but a default */
  for (guint i = 0; fd && i < fx_dict_len (fd); i++)
    {
      Field *f = field_at (fd, i);
      FxValue v;
      if (!f || f->init)
        continue;
      if (!sc_is_unbound (&f->dflt))
        v = fx_value_copy (&f->dflt);
      else if (!sc_is_unbound (&f->factory))
        {
          if (!sc_call0 (S, &f->factory, &v))
            goto out;
        }
      else
        continue;
      ok = dc_set_field (S, &args[0], &f->name, &v);
      fx_value_clear (&v);
      if (!ok)
        goto out;
    }
  if (sc_type_lookup_c (S, sc_type_of (S, &args[0]), "__post_init__"))
    {
      FxValue r;
      if (!fx_script_call_method (S, &args[0], "__post_init__", NULL, 0, NULL, &r))
        goto out;
      fx_value_clear (&r);
    }
  *result = fx_value_none ();
  ok = TRUE;
out:
  if (vals)
    {
      for (guint i = 0; i < init_fields->len; i++)
        clear_maybe_unbound (&vals[i]);
      g_free (vals);
    }
  g_ptr_array_free (init_fields, TRUE);
  return ok;
}

/* the tuple of field values (compare=TRUE fields, or repr ones) */
static gboolean
field_values (FxScript *S, const FxValue *self, gboolean only_compare, FxValue *out)
{
  FxDict *fd = dc_fields_dict (S, sc_type_of (S, self));
  FxSeq *t = fx_seq_new (0);
  for (guint i = 0; fd && i < fx_dict_len (fd); i++)
    {
      Field *f = field_at (fd, i);
      FxValue v;
      if (!f || (only_compare && !f->compare))
        continue;
      if (!sc_getattr (S, self, f->name.s, &v))
        {
          fx_seq_unref (t);
          return FALSE;
        }
      fx_seq_append (t, v);
    }
  *out = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
dc_repr (SC_NATIVE_ARGS)
{
  FxScriptClass *t;
  FxDict *fd;
  GString *out;
  gboolean first = TRUE;
  (void) n_args;
  (void) kwargs;
  (void) data;
  t = sc_type_of (S, &args[0]);
  fd = dc_fields_dict (S, t);
  out = g_string_new (t->qualname->data);
  g_string_append_c (out, '(');
  for (guint i = 0; fd && i < fx_dict_len (fd); i++)
    {
      Field *f = field_at (fd, i);
      FxValue v;
      if (!f || !f->repr)
        continue;
      if (!sc_getattr (S, &args[0], f->name.s, &v))
        {
          g_string_free (out, TRUE);
          return FALSE;
        }
      g_string_append_printf (out, "%s%s=", first ? "" : ", ", f->name.s->data);
      first = FALSE;
      if (!sc_repr (S, &v, out))
        {
          fx_value_clear (&v);
          g_string_free (out, TRUE);
          return FALSE;
        }
      fx_value_clear (&v);
    }
  g_string_append_c (out, ')');
  *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return TRUE;
}

static gboolean
dc_compare (SC_NATIVE_ARGS)
{
  FxValue a, b;
  gboolean ok;
  (void) kwargs;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "comparison expects 1 argument");
  if (sc_type_of (S, &args[0]) != sc_type_of (S, &args[1]))
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  if (!field_values (S, &args[0], TRUE, &a))
    return FALSE;
  if (!field_values (S, &args[1], TRUE, &b))
    {
      fx_value_clear (&a);
      return FALSE;
    }
  ok = sc_compare (S, (ScCmpOp) GPOINTER_TO_INT (data), &a, &b, result);
  fx_value_clear (&a);
  fx_value_clear (&b);
  return ok;
}

static gboolean
dc_hash (SC_NATIVE_ARGS)
{
  FxValue a;
  gint64 h;
  gboolean ok;
  (void) n_args;
  (void) kwargs;
  (void) data;
  if (!field_values (S, &args[0], TRUE, &a))
    return FALSE;
  ok = sc_hash (S, &a, &h);
  fx_value_clear (&a);
  if (ok)
    *result = fx_value_int (h);
  return ok;
}

static gboolean
dc_frozen_setattr (SC_NATIVE_ARGS)
{
  DcState *st = dc_state (S);
  FxDict *fd;
  (void) kwargs;
  (void) data;
  (void) result;
  if (!st)
    return FALSE;
  if (n_args < 2 || args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "attribute name must be string");
  fd = dc_fields_dict (S, sc_type_of (S, &args[0]));
  if (fd && fx_dict_get (fd, &args[1]))
    return fx_script_raise_class (S, st->frozen_error, "cannot assign to field '%s'", args[1].s->data);
  if (n_args == 2)
    return sc_generic_delattr (S, &args[0], args[1].s);
  *result = fx_value_none ();
  return sc_generic_setattr (S, &args[0], args[1].s, &args[2]);
}

static gboolean
is_classvar (const FxValue *type)
{
  if (sc_is_klass (type, &sc_typing_klass))
    return strcmp (((ScTyping *) type->obj)->name->data, "typing.ClassVar") == 0;
  return type->kind == FX_VALUE_STR && g_str_has_prefix (type->s->data, "ClassVar");
}

static gboolean
process_class (FxScript *S, const FxValue *cls_v, const DcOptions *o, FxValue *result)
{
  FxScriptClass *cls = sc_value_class (cls_v);
  DcState *st = dc_state (S);
  FxDict *fields, *ann;
  FxValue *annv;
  gboolean seen_default = FALSE;
  if (!st)
    return FALSE;
  if (!cls)
    return sc_raise (S, SC_T_TYPE_ERROR, "dataclass() should be called on a class");
  fields = fx_dict_new ();
  /* inherited fields first, base-most first */
  for (int i = cls->n_mro - 1; i >= 1; i--)
    {
      FxValue key = fx_value_str ("__dataclass_fields__"), *bf = fx_dict_get (cls->mro[i]->dict, &key);
      const FxValue *k, *v;
      fx_value_clear (&key);
      if (bf && bf->kind == FX_VALUE_DICT)
        for (guint j = 0; fx_dict_entry (bf->dict, j, &k, &v); j++)
          fx_dict_set (fields, fx_value_copy (k), fx_value_copy (v));
    }
  annv = sc_dict_get_str (cls->dict, sc_n.annotations);
  ann = annv && annv->kind == FX_VALUE_DICT ? annv->dict : NULL;
  for (guint i = 0; ann && i < fx_dict_len (ann); i++)
    {
      const FxValue *name, *type;
      FxValue *dflt, fv;
      Field *f;
      fx_dict_entry (ann, i, &name, &type);
      if (name->kind != FX_VALUE_STR || is_classvar (type))
        continue;
      dflt = sc_dict_get_str (cls->dict, name->s);
      if (dflt && sc_value_instance (dflt) && sc_type_of (S, dflt) == st->field_cls)
        {
          fv = fx_value_copy (dflt);
          f = fx_script_instance_payload (&fv);
        }
      else
        {
          fv = fx_script_instance_new (S, st->field_cls);
          f = fx_script_instance_payload (&fv);
          if (dflt)
            {
              if (dflt->kind == FX_VALUE_LIST || dflt->kind == FX_VALUE_DICT || sc_is_klass (dflt, &sc_set_klass))
                {
                  fx_value_clear (&fv);
                  fx_dict_unref (fields);
                  return sc_raise (S, SC_T_VALUE_ERROR, "mutable default <class '%s'> for field %s is not allowed: "
                                   "use default_factory", sc_type_name (S, dflt), name->s->data);
                }
              f->dflt = fx_value_copy (dflt);
            }
        }
      fx_value_clear (&f->name);
      fx_value_clear (&f->type);
      f->name = fx_value_copy (name);
      f->type = fx_value_copy (type);
      /* the class attribute is the default, or nothing */
      if (!sc_is_unbound (&f->dflt))
        fx_script_class_set_attr (cls, name->s->data, fx_value_copy (&f->dflt));
      else if (dflt)
        {
          fx_dict_remove (cls->dict, name);
          sc_type_modified (S);
        }
      fx_dict_remove (fields, name);
      fx_dict_set (fields, fx_value_copy (name), fv);
    }
  for (guint i = 0; i < fx_dict_len (fields); i++)
    {
      Field *f = field_at (fields, i);
      gboolean has = !sc_is_unbound (&f->dflt) || !sc_is_unbound (&f->factory);
      if (!f->init)
        continue;
      if (has)
        seen_default = TRUE;
      else if (seen_default)
        {
          gboolean r = sc_raise (S, SC_T_TYPE_ERROR, "non-default argument '%s' follows default argument",
                                 f->name.s->data);
          fx_dict_unref (fields);
          return r;
        }
    }
  fx_script_class_set_attr (cls, "__dataclass_fields__", fx_value_take_dict (fields));
  if (o->init)
    fx_script_class_set_attr (cls, "__init__", sc_native_new (cls->name->data, "__init__", SC_NATIVE_METHOD,
                                                              dc_init, cls, NULL));
  if (o->repr)
    fx_script_class_set_attr (cls, "__repr__", sc_native_new (cls->name->data, "__repr__", SC_NATIVE_METHOD,
                                                              dc_repr, NULL, NULL));
  if (o->eq)
    fx_script_class_set_attr (cls, "__eq__", sc_native_new (cls->name->data, "__eq__", SC_NATIVE_METHOD,
                                                            dc_compare, GINT_TO_POINTER (SC_CMP_EQ), NULL));
  if (o->order)
    {
      static const struct { const char *name; ScCmpOp op; } ops[] = {
        { "__lt__", SC_CMP_LT }, { "__le__", SC_CMP_LE }, { "__gt__", SC_CMP_GT }, { "__ge__", SC_CMP_GE },
      };
      for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
        fx_script_class_set_attr (cls, ops[i].name, sc_native_new (cls->name->data, ops[i].name, SC_NATIVE_METHOD,
                                                                   dc_compare, GINT_TO_POINTER (ops[i].op), NULL));
    }
  if (o->frozen)
    {
      fx_script_class_set_attr (cls, "__setattr__", sc_native_new (cls->name->data, "__setattr__",
                                                                   SC_NATIVE_METHOD, dc_frozen_setattr, NULL, NULL));
      fx_script_class_set_attr (cls, "__delattr__", sc_native_new (cls->name->data, "__delattr__",
                                                                   SC_NATIVE_METHOD, dc_frozen_setattr, NULL, NULL));
    }
  if ((o->eq && o->frozen) || o->unsafe_hash)
    fx_script_class_set_attr (cls, "__hash__", sc_native_new (cls->name->data, "__hash__", SC_NATIVE_METHOD,
                                                              dc_hash, NULL, NULL));
  else if (o->eq && !sc_dict_get_str (cls->dict, sc_n.hash))
    fx_script_class_set_attr (cls, "__hash__", fx_value_none ());
  *result = fx_value_copy (cls_v);
  return TRUE;
}

static gboolean
dc_decorator (SC_NATIVE_ARGS)
{
  if (!sc_mod_nargs (S, "dataclass", n_args, kwargs, 1, 1))
    return FALSE;
  return process_class (S, &args[0], data, result);
}

static gboolean
dc_dataclass (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "cls", "init", "repr", "eq", "order", "unsafe_hash", "frozen",
                                       "match_args", "kw_only", "slots" };
  const FxValue *v[10];
  DcOptions o = { TRUE, TRUE, TRUE, FALSE, FALSE, FALSE }, *copy;
  (void) data;
  if (!fx_script_parse_args (S, "dataclass", args, n_args, kwargs, names, 10, 1, 0, v))
    return FALSE;
  if ((v[1] && !sc_truth (S, v[1], &o.init)) || (v[2] && !sc_truth (S, v[2], &o.repr))
      || (v[3] && !sc_truth (S, v[3], &o.eq)) || (v[4] && !sc_truth (S, v[4], &o.order))
      || (v[5] && !sc_truth (S, v[5], &o.unsafe_hash)) || (v[6] && !sc_truth (S, v[6], &o.frozen)))
    return FALSE;
  if (o.order && !o.eq)
    return sc_raise (S, SC_T_VALUE_ERROR, "eq must be true if order is true");
  if (v[0] && v[0]->kind != FX_VALUE_NONE)
    return process_class (S, v[0], &o, result);
  copy = g_memdup2 (&o, sizeof o);
  *result = fx_script_function_new ("dataclasses", "wrap", dc_decorator, copy, g_free);
  return TRUE;
}

static FxScriptClass *
dataclass_of (FxScript *S, const FxValue *v)
{
  FxScriptClass *cls = sc_value_class (v);
  if (!cls)
    cls = sc_type_of (S, v);
  return dc_fields_dict (S, cls) ? cls : NULL;
}

static gboolean
dc_is_dataclass (SC_NATIVE_ARGS)
{
  (void) data;
  if (!sc_mod_nargs (S, "is_dataclass", n_args, kwargs, 1, 1))
    return FALSE;
  *result = fx_value_bool (dataclass_of (S, &args[0]) != NULL);
  return TRUE;
}

static gboolean
dc_fields (SC_NATIVE_ARGS)
{
  FxScriptClass *cls;
  FxDict *fd;
  FxSeq *t;
  const FxValue *v;
  (void) data;
  if (!sc_mod_nargs (S, "fields", n_args, kwargs, 1, 1))
    return FALSE;
  cls = dataclass_of (S, &args[0]);
  if (!cls)
    return sc_raise (S, SC_T_TYPE_ERROR, "must be called with a dataclass type or instance");
  fd = dc_fields_dict (S, cls);
  t = fx_seq_new (0);
  for (guint i = 0; fx_dict_entry (fd, i, NULL, &v); i++)
    fx_seq_append (t, fx_value_copy (v));
  *result = fx_value_take_tuple (t);
  return TRUE;
}

/* asdict / astuple: dataclass instances recursively, containers rebuilt, the rest deep-copied */
static gboolean
convert (FxScript *S, const FxValue *v, gboolean as_tuple, FxValue *out)
{
  if (!sc_check_stack (S))
    return FALSE;
  if (sc_value_instance (v) && dataclass_of (S, v))
    {
      FxDict *fd = dc_fields_dict (S, sc_type_of (S, v));
      FxDict *d = as_tuple ? NULL : fx_dict_new ();
      FxSeq *t = as_tuple ? fx_seq_new (0) : NULL;
      for (guint i = 0; i < fx_dict_len (fd); i++)
        {
          Field *f = field_at (fd, i);
          FxValue x, c;
          if (!sc_getattr (S, v, f->name.s, &x))
            goto fail;
          if (!convert (S, &x, as_tuple, &c))
            {
              fx_value_clear (&x);
              goto fail;
            }
          fx_value_clear (&x);
          if (as_tuple)
            fx_seq_append (t, c);
          else
            fx_dict_set (d, fx_value_copy (&f->name), c);
          continue;
        fail:
          if (d)
            fx_dict_unref (d);
          if (t)
            fx_seq_unref (t);
          return FALSE;
        }
      *out = as_tuple ? fx_value_take_tuple (t) : fx_value_take_dict (d);
      return TRUE;
    }
  if (v->kind == FX_VALUE_LIST || (v->kind == FX_VALUE_TUPLE && !v->seq->type))
    {
      FxSeq *s = fx_seq_new (v->seq->len);
      for (guint i = 0; i < v->seq->len; i++)
        if (!convert (S, &v->seq->items[i], as_tuple, &s->items[i]))
          {
            fx_seq_unref (s);
            return FALSE;
          }
      *out = v->kind == FX_VALUE_LIST ? fx_value_take_list (s) : fx_value_take_tuple (s);
      return TRUE;
    }
  if (v->kind == FX_VALUE_DICT)
    {
      FxDict *d = fx_dict_new ();
      const FxValue *k, *x;
      for (guint i = 0; fx_dict_entry (v->dict, i, &k, &x); i++)
        {
          FxValue ck, cx;
          if (!convert (S, k, as_tuple, &ck))
            {
              fx_dict_unref (d);
              return FALSE;
            }
          if (!convert (S, x, as_tuple, &cx))
            {
              fx_value_clear (&ck);
              fx_dict_unref (d);
              return FALSE;
            }
          fx_dict_set (d, ck, cx);
        }
      *out = fx_value_take_dict (d);
      return TRUE;
    }
  {
    gboolean ok;
    *out = sc_copy_value (S, v, TRUE, NULL, &ok);
    return ok;
  }
}

static gboolean
dc_asdict (SC_NATIVE_ARGS)
{
  if (!sc_mod_nargs (S, data ? "astuple" : "asdict", n_args, kwargs, 1, 1))
    return FALSE;
  if (!sc_value_instance (&args[0]) || !dataclass_of (S, &args[0]))
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() should be called on dataclass instances", data ? "astuple" : "asdict");
  return convert (S, &args[0], data != NULL, result);
}

static gboolean
dc_replace (SC_NATIVE_ARGS)
{
  FxScriptClass *cls;
  FxDict *fd, *kw;
  FxValue cv;
  gboolean ok;
  (void) data;
  if (n_args != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "replace() takes 1 positional argument but %d were given", n_args);
  if (!sc_value_instance (&args[0]) || !(cls = dataclass_of (S, &args[0])))
    return sc_raise (S, SC_T_TYPE_ERROR, "replace() should be called on dataclass instances");
  fd = dc_fields_dict (S, cls);
  kw = fx_dict_new ();
  for (guint i = 0; i < fx_dict_len (fd); i++)
    {
      Field *f = field_at (fd, i);
      FxValue x;
      if (!f->init)
        continue;
      if (kwargs && fx_dict_get (kwargs, &f->name))
        continue;
      if (!sc_getattr (S, &args[0], f->name.s, &x))
        {
          fx_dict_unref (kw);
          return FALSE;
        }
      fx_dict_set (kw, fx_value_copy (&f->name), x);
    }
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
        fx_dict_set (kw, fx_value_copy (k), fx_value_copy (v));
    }
  cv = fx_script_class_value (cls);
  ok = sc_call_dict (S, &cv, NULL, 0, kw, result);
  fx_value_clear (&cv);
  fx_dict_unref (kw);
  return ok;
}

static gboolean
missing_repr (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) S;
  (void) args;
  (void) n_args;
  (void) kwargs;
  (void) data;
  *result = fx_value_str ("<dataclasses._MISSING_TYPE object>");
  return TRUE;
}

static void
dc_state_free (gpointer p)
{
  DcState *st = p;
  fx_value_clear (&st->missing);
  g_free (st);
}

static gboolean
dataclasses_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  static const FxScriptClassInfo field_info = { "dataclasses", "Field", NULL, field_payload_new, field_payload_free,
                                                NULL };
  static const FxScriptClassInfo missing_info = { "dataclasses", "_MISSING_TYPE", NULL, NULL, NULL, NULL };
  static const FxScriptClassInfo frozen_info = { "dataclasses", "FrozenInstanceError", NULL, NULL, NULL, NULL };
  static const char *const attrs[] = { "name", "type", "default", "default_factory", "init", "repr", "compare" };
  DcState *st = g_new0 (DcState, 1);
  FxScriptClass *mc;
  (void) user_data;
  st->field_cls = fx_script_class_new (S, &field_info, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (attrs); i++)
    fx_script_class_add_property (st->field_cls, attrs[i], field_attr, NULL, GINT_TO_POINTER (i));
  fx_script_class_add_method (st->field_cls, "__repr__", field_repr, NULL);
  mc = fx_script_class_new (S, &missing_info, NULL);
  fx_script_class_add_method (mc, "__repr__", missing_repr, NULL);
  st->missing = fx_script_instance_new (S, mc);
  st->frozen_error = fx_script_class_new (S, &frozen_info, S->types[SC_T_ATTRIBUTE_ERROR]);
  fx_script_module_set (m, "Field", fx_script_class_value (st->field_cls));
  fx_script_module_set (m, "MISSING", fx_value_copy (&st->missing));
  fx_script_module_set (m, "FrozenInstanceError", fx_script_class_value (st->frozen_error));
  fx_script_module_set (m, "_fx_state",
                        fx_script_function_new ("dataclasses", "_state", missing_repr, st, dc_state_free));
  sc_mod_set_fn (m, "dataclasses", "dataclass", dc_dataclass, NULL);
  sc_mod_set_fn (m, "dataclasses", "field", dc_field, NULL);
  sc_mod_set_fn (m, "dataclasses", "fields", dc_fields, NULL);
  sc_mod_set_fn (m, "dataclasses", "asdict", dc_asdict, NULL);
  sc_mod_set_fn (m, "dataclasses", "astuple", dc_asdict, GINT_TO_POINTER (1));
  sc_mod_set_fn (m, "dataclasses", "replace", dc_replace, NULL);
  sc_mod_set_fn (m, "dataclasses", "is_dataclass", dc_is_dataclass, NULL);
  return TRUE;
}

void
sc_mod_dataclasses_register (FxScript *S)
{
  fx_script_register_module (S, "dataclasses", dataclasses_init, NULL, NULL);
}
