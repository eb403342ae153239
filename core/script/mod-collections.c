/* mod-collections.c: `collections` (namedtuple as typed tuples, OrderedDict, defaultdict and
 * Counter as native mapping classes, deque as a ring buffer) and `collections.abc`. */
#include <string.h>
#include "script/mod.h"

static const char *
caller_module (FxScript *S)
{
  FxValue *n = S->frame && S->frame->globals ? sc_dict_get_str (S->frame->globals, sc_n.name) : NULL;
  return n && n->kind == FX_VALUE_STR ? n->s->data : "__main__";
}

/* ------------------------------------------------------------------ namedtuple */

static const char *const py_keywords[] = {
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
};

static gboolean
is_identifier (const char *s)
{
  if (!*s || !(g_ascii_isalpha (*s) || *s == '_' || (guchar) *s >= 0x80))
    return FALSE;
  for (s++; *s; s++)
    if (!(g_ascii_isalnum (*s) || *s == '_' || (guchar) *s >= 0x80))
      return FALSE;
  return TRUE;
}

static gboolean
is_keyword (const char *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (py_keywords); i++)
    if (strcmp (py_keywords[i], s) == 0)
      return TRUE;
  return FALSE;
}

/* Tuple types live as long as the process (tuples may outlive their class and their
 * interpreter); this list keeps them reachable, so leak checkers do not report them. */
static GPtrArray *nt_process_types;
G_LOCK_DEFINE_STATIC (nt_process_types);

static void
nt_keep_type (FxTupleType *type)
{
  G_LOCK (nt_process_types);
  if (nt_process_types == NULL)
    nt_process_types = g_ptr_array_new ();
  g_ptr_array_add (nt_process_types, type);
  G_UNLOCK (nt_process_types);
}

static const FxTupleType *
nt_type_of (FxScript *S, FxScriptClass *cls)
{
  if (cls->tuple_type)
    return cls->tuple_type;
  /* a Python subclass of a namedtuple class: its own tuple type with the same fields */
  for (int i = 1; i < cls->n_mro; i++)
    if (cls->mro[i]->tuple_type)
      {
        const FxTupleType *base = cls->mro[i]->tuple_type;
        FxTupleType *t = g_new0 (FxTupleType, 1);
        t->name = g_strdup (cls->name->data);
        t->n_fields = base->n_fields;
        t->fields = base->fields;
        nt_keep_type (t);
        cls->tuple_type = t;
        fx_script_register_tuple_type (S, t, cls);
        return t;
      }
  return NULL;
}

static gboolean
nt_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
              gpointer data)
{
  FxScriptClass *cls = data;
  const FxTupleType *type = nt_type_of (S, cls);
  FxValue *defaults_v;
  FxSeq *t;
  int n, n_def = 0;
  const char *name = cls->name->data;
  if (!type)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s is not a namedtuple class", name);
  n = type->n_fields;
  defaults_v = sc_type_lookup_c (S, cls, "_field_defaults");
  if (defaults_v && defaults_v->kind == FX_VALUE_DICT)
    n_def = fx_dict_len (defaults_v->dict);
  if (n_args > n)
    {
      if (n_def)
        return sc_raise (S, SC_T_TYPE_ERROR, "%s.__new__() takes from %d to %d positional arguments but %d were given",
                         name, n - n_def + 1, n + 1, n_args + 1);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s.__new__() takes %d positional argument%s but %d were given", name,
                       n + 1, n + 1 == 1 ? "" : "s", n_args + 1);
    }
  t = fx_seq_new (n);
  for (int i = 0; i < n; i++)
    t->items[i] = sc_unbound ();
  for (int i = 0; i < n_args; i++)
    t->items[i] = fx_value_copy (&args[i]);
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint j = 0; fx_dict_entry (kwargs, j, &k, &v); j++)
        {
          int idx = -1;
          for (int i = 0; i < n && k->kind == FX_VALUE_STR; i++)
            if (strcmp (type->fields[i], k->s->data) == 0)
              idx = i;
          if (idx < 0)
            {
              sc_raise (S, SC_T_TYPE_ERROR, "%s.__new__() got an unexpected keyword argument '%s'", name,
                        k->kind == FX_VALUE_STR ? k->s->data : "?");
              goto fail;
            }
          if (!sc_is_unbound (&t->items[idx]))
            {
              sc_raise (S, SC_T_TYPE_ERROR, "%s.__new__() got multiple values for argument '%s'", name,
                        type->fields[idx]);
              goto fail;
            }
          t->items[idx] = fx_value_copy (v);
        }
    }
  {
    GString *missing = NULL;
    int n_missing = 0;
    for (int i = 0; i < n; i++)
      if (sc_is_unbound (&t->items[i]))
        {
          FxValue *d = NULL;
          if (n_def)
            {
              FxValue key = fx_value_str (type->fields[i]);
              d = fx_dict_get (defaults_v->dict, &key);
              fx_value_clear (&key);
            }
          if (d)
            t->items[i] = fx_value_copy (d);
          else
            {
              if (!missing)
                missing = g_string_new (NULL);
              n_missing++;
              g_string_append_printf (missing, "%s'%s'", missing->len ? "|" : "", type->fields[i]);
            }
        }
    if (missing)
      {
        /* CPython: 'x', 'y' and 'z' */
        gchar **parts = g_strsplit (missing->str, "|", -1);
        GString *msg = g_string_new (NULL);
        for (int i = 0; parts[i]; i++)
          {
            if (i > 0)
              g_string_append (msg, parts[i + 1] ? ", " : (i > 1 ? ", and " : " and "));
            g_string_append (msg, parts[i]);
          }
        sc_raise (S, SC_T_TYPE_ERROR, "%s.__new__() missing %d required positional argument%s: %s", name, n_missing,
                  n_missing == 1 ? "" : "s", msg->str);
        g_string_free (msg, TRUE);
        g_strfreev (parts);
        g_string_free (missing, TRUE);
        goto fail;
      }
  }
  t->type = type;
  *result = fx_value_take_tuple (t);
  return TRUE;
fail:
  for (int i = 0; i < n; i++)
    if (sc_is_unbound (&t->items[i]))
      t->items[i] = fx_value_none ();
  fx_seq_unref (t);
  return FALSE;
}

static gboolean
nt_self (FxScript *S, const FxValue *args, int n_args, const char *what)
{
  if (n_args < 1 || args[0].kind != FX_VALUE_TUPLE)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s needs a namedtuple instance", what);
  return TRUE;
}

static gboolean
nt_field_get (SC_NATIVE_ARGS)
{
  int i = GPOINTER_TO_INT (data);
  (void) kwargs;
  if (!nt_self (S, args, n_args, "field access"))
    return FALSE;
  if (i >= (int) args[0].seq->len)
    return sc_raise (S, SC_T_INDEX_ERROR, "tuple index out of range");
  *result = fx_value_copy (&args[0].seq->items[i]);
  return TRUE;
}

static gboolean
nt_repr (SC_NATIVE_ARGS)
{
  const FxTupleType *type;
  GString *out;
  (void) kwargs;
  (void) data;
  if (!nt_self (S, args, n_args, "__repr__"))
    return FALSE;
  type = args[0].seq->type;
  out = g_string_new (sc_type_name (S, &args[0]));
  g_string_append_c (out, '(');
  for (guint i = 0; i < args[0].seq->len; i++)
    {
      if (i)
        g_string_append (out, ", ");
      if (type && (int) i < type->n_fields)
        g_string_append_printf (out, "%s=", type->fields[i]);
      if (!sc_repr (S, &args[0].seq->items[i], out))
        {
          g_string_free (out, TRUE);
          return FALSE;
        }
    }
  g_string_append_c (out, ')');
  *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return TRUE;
}

static gboolean
nt_asdict (SC_NATIVE_ARGS)
{
  const FxTupleType *type;
  FxDict *d;
  (void) kwargs;
  (void) data;
  if (!nt_self (S, args, n_args, "_asdict"))
    return FALSE;
  type = args[0].seq->type;
  d = fx_dict_new ();
  for (guint i = 0; type && (int) i < type->n_fields && i < args[0].seq->len; i++)
    fx_dict_set (d, fx_value_str (type->fields[i]), fx_value_copy (&args[0].seq->items[i]));
  *result = fx_value_take_dict (d);
  return TRUE;
}

static gboolean
nt_replace (SC_NATIVE_ARGS)
{
  const FxTupleType *type;
  FxSeq *t;
  GString *bad = NULL;
  (void) data;
  if (!nt_self (S, args, n_args, "_replace"))
    return FALSE;
  if (n_args > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "_replace() takes 1 positional argument but %d were given", n_args);
  type = args[0].seq->type;
  t = fx_seq_new (args[0].seq->len);
  t->type = type;
  for (guint i = 0; i < t->len; i++)
    t->items[i] = fx_value_copy (&args[0].seq->items[i]);
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint j = 0; fx_dict_entry (kwargs, j, &k, &v); j++)
        {
          int idx = -1;
          for (int i = 0; type && i < type->n_fields; i++)
            if (strcmp (type->fields[i], k->s->data) == 0)
              idx = i;
          if (idx < 0)
            {
              if (!bad)
                bad = g_string_new ("[");
              else
                g_string_append (bad, ", ");
              sc_repr (S, k, bad);
              continue;
            }
          fx_value_clear (&t->items[idx]);
          t->items[idx] = fx_value_copy (v);
        }
    }
  if (bad)
    {
      g_string_append_c (bad, ']');
      sc_raise (S, SC_T_VALUE_ERROR, "Got unexpected field names: %s", bad->str);
      g_string_free (bad, TRUE);
      fx_seq_unref (t);
      return FALSE;
    }
  *result = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
nt_make (SC_NATIVE_ARGS)
{
  FxSeq *items;
  gboolean ok;
  FxScriptClass *cls;
  (void) data;
  (void) kwargs;
  if (n_args != 2 || !(cls = sc_value_class (&args[0])))
    return sc_raise (S, SC_T_TYPE_ERROR, "_make() takes 1 positional argument");
  if (!sc_collect (S, &args[1], &items))
    return FALSE;
  ok = nt_construct (S, items->items, items->len, NULL, result, cls);
  if (ok && result->kind == FX_VALUE_TUPLE && items->len != result->seq->len)
    ok = FALSE;
  fx_seq_unref (items);
  return ok;
}

static gboolean
nt_getnewargs (SC_NATIVE_ARGS)
{
  (void) kwargs;
  (void) data;
  if (!nt_self (S, args, n_args, "__getnewargs__"))
    return FALSE;
  *result = sc_mod_tuple (args[0].seq->items, args[0].seq->len);
  return TRUE;
}

/* the namedtuple as a plain tuple (its class has object as base, so tuple's comparisons and
 * methods are reached through a plain copy) */
static FxValue
plain_tuple (const FxValue *v)
{
  if (v->kind == FX_VALUE_TUPLE && v->seq->type)
    return sc_mod_tuple (v->seq->items, v->seq->len);
  return fx_value_copy (v);
}

static gboolean
nt_compare (SC_NATIVE_ARGS)
{
  FxValue a, b;
  gboolean ok;
  (void) kwargs;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "comparison expects 1 argument");
  if (args[1].kind != FX_VALUE_TUPLE)
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  a = plain_tuple (&args[0]);
  b = plain_tuple (&args[1]);
  ok = sc_compare (S, (ScCmpOp) GPOINTER_TO_INT (data), &a, &b, result);
  fx_value_clear (&a);
  fx_value_clear (&b);
  return ok;
}

static gboolean
nt_hash (SC_NATIVE_ARGS)
{
  FxValue a;
  gint64 h;
  gboolean ok;
  (void) kwargs;
  (void) data;
  if (!nt_self (S, args, n_args, "__hash__"))
    return FALSE;
  a = plain_tuple (&args[0]);
  ok = sc_hash (S, &a, &h);
  fx_value_clear (&a);
  if (ok)
    *result = fx_value_int (h);
  return ok;
}

static gboolean
nt_tuple_method (SC_NATIVE_ARGS)
{
  FxValue a;
  gboolean ok;
  if (!nt_self (S, args, n_args, data))
    return FALSE;
  a = plain_tuple (&args[0]);
  ok = fx_script_call_method (S, &a, data, args + 1, n_args - 1, kwargs, result);
  fx_value_clear (&a);
  return ok;
}

static gboolean
nt_field_set (SC_NATIVE_ARGS)
{
  (void) args;
  (void) n_args;
  (void) kwargs;
  (void) data;
  (void) result;
  return sc_raise (S, SC_T_ATTRIBUTE_ERROR, "can't set attribute");
}

static gboolean
add_field_name (FxScript *S, GPtrArray *names, const FxValue *v)
{
  if (v->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "Type names and field names must be strings");
  g_ptr_array_add (names, g_strdup (v->s->data));
  return TRUE;
}

static gboolean
collections_namedtuple (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "typename", "field_names", "rename", "defaults", "module" };
  const FxValue *v[5];
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  gboolean rename = FALSE;
  FxSeq *defaults = NULL;
  const char *typename;
  FxTupleType *type;
  FxScriptClass *cls;
  FxScriptClassInfo info = { NULL, NULL, NULL, NULL, NULL, NULL };
  char **field_array;
  (void) data;

  if (!fx_script_parse_args (S, "namedtuple", args, n_args, kwargs, names, 5, 2, 2, v))
    goto fail;
  if (v[0]->kind != FX_VALUE_STR)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "Type names and field names must be strings");
      goto fail;
    }
  typename = v[0]->s->data;
  if (v[2] && !sc_truth (S, v[2], &rename))
    goto fail;
  if (v[1]->kind == FX_VALUE_STR)
    {
      char *s = g_strdup (v[1]->s->data);
      gchar **parts;
      g_strdelimit (s, ",", ' ');
      parts = g_strsplit_set (s, " \t\n\r", -1);
      for (int i = 0; parts[i]; i++)
        if (*parts[i])
          g_ptr_array_add (fields, g_strdup (parts[i]));
      g_strfreev (parts);
      g_free (s);
    }
  else
    {
      FxSeq *items;
      if (!sc_collect (S, v[1], &items))
        goto fail;
      for (guint i = 0; i < items->len; i++)
        if (!add_field_name (S, fields, &items->items[i]))
          {
            fx_seq_unref (items);
            goto fail;
          }
      fx_seq_unref (items);
    }
  if (rename)
    for (guint i = 0; i < fields->len; i++)
      {
        const char *f = fields->pdata[i];
        gboolean dup = FALSE;
        for (guint j = 0; j < i; j++)
          if (strcmp (fields->pdata[j], f) == 0)
            dup = TRUE;
        if (!is_identifier (f) || is_keyword (f) || f[0] == '_' || dup)
          {
            g_free (fields->pdata[i]);
            fields->pdata[i] = g_strdup_printf ("_%u", i);
          }
      }
  {
    const char *all[1] = { typename };
    for (guint i = 0; i <= fields->len; i++)
      {
        const char *f = i == 0 ? all[0] : (const char *) fields->pdata[i - 1];
        if (!is_identifier (f))
          {
            sc_raise (S, SC_T_VALUE_ERROR, "Type names and field names must be valid identifiers: '%s'", f);
            goto fail;
          }
        if (is_keyword (f))
          {
            sc_raise (S, SC_T_VALUE_ERROR, "Type names and field names cannot be a keyword: '%s'", f);
            goto fail;
          }
      }
  }
  for (guint i = 0; i < fields->len; i++)
    {
      const char *f = fields->pdata[i];
      if (f[0] == '_')
        {
          sc_raise (S, SC_T_VALUE_ERROR, "Field names cannot start with an underscore: '%s'", f);
          goto fail;
        }
      for (guint j = 0; j < i; j++)
        if (strcmp (fields->pdata[j], f) == 0)
          {
            sc_raise (S, SC_T_VALUE_ERROR, "Encountered duplicate field name: '%s'", f);
            goto fail;
          }
    }
  if (v[3] && v[3]->kind != FX_VALUE_NONE)
    {
      if (!sc_collect (S, v[3], &defaults))
        goto fail;
      if (defaults->len > fields->len)
        {
          sc_raise (S, SC_T_TYPE_ERROR, "Got more default values than field names");
          goto fail;
        }
    }

  /* tuple types live as long as the process: tuples may outlive their class */
  field_array = g_new0 (char *, fields->len + 1);
  for (guint i = 0; i < fields->len; i++)
    field_array[i] = g_strdup (fields->pdata[i]);
  type = g_new0 (FxTupleType, 1);
  type->name = g_strdup (typename);
  type->n_fields = fields->len;
  type->fields = (const char *const *) field_array;
  nt_keep_type (type);

  info.module = v[4] && v[4]->kind == FX_VALUE_STR ? v[4]->s->data : caller_module (S);
  info.name = typename;
  cls = fx_script_class_new (S, &info, fx_script_builtin_class (S, "tuple"));
  if (!cls)
    goto fail;
  cls->tuple_type = type;
  cls->construct = nt_construct;
  fx_script_register_tuple_type (S, type, cls);
  for (guint i = 0; i < fields->len; i++)
    fx_script_class_add_property (cls, fields->pdata[i], nt_field_get, nt_field_set, GINT_TO_POINTER (i));
  {
    FxSeq *f = fx_seq_new (fields->len);
    FxDict *fd = fx_dict_new ();
    for (guint i = 0; i < fields->len; i++)
      f->items[i] = fx_value_str (fields->pdata[i]);
    if (defaults)
      for (guint i = 0; i < defaults->len; i++)
        fx_dict_set (fd, fx_value_str (fields->pdata[fields->len - defaults->len + i]),
                     fx_value_copy (&defaults->items[i]));
    fx_script_class_set_attr (cls, "_fields", fx_value_take_tuple (fx_seq_ref (f)));
    fx_script_class_set_attr (cls, "__match_args__", fx_value_take_tuple (f));
    fx_script_class_set_attr (cls, "_field_defaults", fx_value_take_dict (fd));
  }
  fx_script_class_add_method (cls, "__repr__", nt_repr, NULL);
  {
    static const struct { const char *name; ScCmpOp op; } cmps[] = {
      { "__eq__", SC_CMP_EQ }, { "__ne__", SC_CMP_NE }, { "__lt__", SC_CMP_LT }, { "__le__", SC_CMP_LE },
      { "__gt__", SC_CMP_GT }, { "__ge__", SC_CMP_GE },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cmps); i++)
      fx_script_class_add_method (cls, cmps[i].name, nt_compare, GINT_TO_POINTER (cmps[i].op));
  }
  fx_script_class_add_method (cls, "__hash__", nt_hash, NULL);
  fx_script_class_add_method (cls, "count", nt_tuple_method, (gpointer) "count");
  fx_script_class_add_method (cls, "index", nt_tuple_method, (gpointer) "index");
  fx_script_class_add_method (cls, "_asdict", nt_asdict, NULL);
  fx_script_class_add_method (cls, "_replace", nt_replace, NULL);
  fx_script_class_add_method (cls, "__getnewargs__", nt_getnewargs, NULL);
  fx_script_class_add_classmethod (cls, "_make", nt_make, NULL);
  *result = fx_script_class_value (cls);
  if (defaults)
    fx_seq_unref (defaults);
  g_ptr_array_free (fields, TRUE);
  return TRUE;
fail:
  if (defaults)
    fx_seq_unref (defaults);
  g_ptr_array_free (fields, TRUE);
  return FALSE;
}

/* ------------------------------------------------------------------ mappings */

typedef enum { MAP_ORDERED, MAP_DEFAULT, MAP_COUNTER, MAP_PLAIN } MapKind;
#define VIEW_ORDERED (1 << 16)   /* with a view's type id: an OrderedDict's view */

typedef struct {
  FxDict *d;
  FxValue factory;    /* defaultdict */
} MapPayload;

static gpointer
map_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  MapPayload *p = g_new0 (MapPayload, 1);
  (void) S;
  (void) cls;
  (void) class_data;
  p->d = fx_dict_new ();
  p->factory = fx_value_none ();
  return p;
}

static void
map_payload_free (gpointer data)
{
  MapPayload *p = data;
  fx_dict_unref (p->d);
  fx_value_clear (&p->factory);
  g_free (p);
}

static MapPayload *
map_self (FxScript *S, const FxValue *args, int n_args)
{
  MapPayload *p = n_args > 0 ? fx_script_instance_payload (&args[0]) : NULL;
  if (!p)
    sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a mapping instance");
  return p;
}

#define MAP_BEGIN()                             \
  MapPayload *p = map_self (S, args, n_args);   \
  MapKind kind = GPOINTER_TO_INT (data);        \
  (void) kind;                                  \
  if (!p)                                       \
    return FALSE;

/* Adds every pair of `src` (a mapping or an iterable of pairs) to d; counter: counts. */
static gboolean map_update_from (FxScript *S, MapPayload *p, MapKind kind, const FxValue *src, int sign);

typedef struct {
  FxScript *S;
  MapPayload *p;
  MapKind kind;
  int sign;
} UpdateState;

static gboolean
counter_add (FxScript *S, MapPayload *p, const FxValue *key, const FxValue *n)
{
  FxValue *cur;
  FxValue sum;
  if (!sc_dict_key_check (S, key))
    return FALSE;
  cur = fx_dict_get (p->d, key);
  if (!cur)
    {
      fx_dict_set (p->d, fx_value_copy (key), fx_value_copy (n));
      return TRUE;
    }
  if (!sc_binary (S, SC_BIN_ADD, cur, n, &sum, FALSE))
    return FALSE;
  fx_dict_set (p->d, fx_value_copy (key), sum);
  return TRUE;
}

static gboolean
update_pair (FxScript *S, const FxValue *item, gpointer user_data)
{
  UpdateState *st = user_data;
  FxSeq *pair;
  gboolean ok;
  if (st->kind == MAP_COUNTER)
    {
      FxValue one = fx_value_int (st->sign);
      return counter_add (S, st->p, item, &one);
    }
  if (item->kind == FX_VALUE_TUPLE || item->kind == FX_VALUE_LIST)
    pair = fx_seq_ref (item->seq);
  else if (!sc_collect (S, item, &pair))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR))
        {
          sc_clear_exc (S);
          return sc_raise (S, SC_T_TYPE_ERROR, "cannot convert dictionary update sequence element #0 to a sequence");
        }
      return FALSE;
    }
  if (pair->len != 2)
    {
      guint n = pair->len;
      fx_seq_unref (pair);
      return sc_raise (S, SC_T_VALUE_ERROR, "dictionary update sequence element #0 has length %u; 2 is required", n);
    }
  ok = sc_dict_key_check (S, &pair->items[0]);
  if (ok)
    fx_dict_set (st->p->d, fx_value_copy (&pair->items[0]), fx_value_copy (&pair->items[1]));
  fx_seq_unref (pair);
  return ok;
}

static gboolean
map_update_from (FxScript *S, MapPayload *p, MapKind kind, const FxValue *src, int sign)
{
  const FxValue *k, *v;
  MapPayload *other;
  FxDict *sd = NULL;
  if (src->kind == FX_VALUE_DICT)
    sd = src->dict;
  else if (sc_value_instance (src))
    {
      FxScriptClass *t = sc_type_of (S, src);
      FxValue *m = sc_type_lookup_c (S, t, "__fx_mapping__");
      if (m)
        {
          other = fx_script_instance_payload (src);
          if (other)
            sd = other->d;
        }
    }
  if (sd)
    {
      for (guint i = 0; fx_dict_entry (sd, i, &k, &v); i++)
        {
          if (kind == MAP_COUNTER)
            {
              FxValue n;
              if (sign < 0)
                {
                  if (!sc_unary (S, SC_UNARY_NEG, v, &n))
                    return FALSE;
                }
              else
                n = fx_value_copy (v);
              if (!counter_add (S, p, k, &n))
                {
                  fx_value_clear (&n);
                  return FALSE;
                }
              fx_value_clear (&n);
            }
          else
            fx_dict_set (p->d, fx_value_copy (k), fx_value_copy (v));
        }
      return TRUE;
    }
  /* a mapping with keys() */
  if (src->kind == FX_VALUE_OBJECT)
    {
      FxValue keys;
      int r = sc_getattr_opt (S, src, sc_n.s_keys, &keys);
      if (r < 0)
        return FALSE;
      if (r > 0)
        {
          FxValue ks;
          FxSeq *list;
          gboolean ok = sc_call0 (S, &keys, &ks);
          fx_value_clear (&keys);
          if (!ok)
            return FALSE;
          ok = sc_collect (S, &ks, &list);
          fx_value_clear (&ks);
          if (!ok)
            return FALSE;
          for (guint i = 0; i < list->len && ok; i++)
            {
              FxValue val;
              ok = sc_getitem (S, src, &list->items[i], &val);
              if (!ok)
                break;
              if (kind == MAP_COUNTER)
                ok = counter_add (S, p, &list->items[i], &val);
              else
                fx_dict_set (p->d, fx_value_copy (&list->items[i]), fx_value_copy (&val));
              fx_value_clear (&val);
            }
          fx_seq_unref (list);
          return ok;
        }
    }
  {
    UpdateState st = { S, p, kind, sign };
    return fx_script_iterate (S, src, update_pair, &st);
  }
}

static gboolean
map_init (SC_NATIVE_ARGS)
{
  int first = 1;
  MAP_BEGIN ();
  if (kind == MAP_DEFAULT && n_args > 1)
    {
      if (args[1].kind != FX_VALUE_NONE && !sc_callable (S, &args[1]))
        return sc_raise (S, SC_T_TYPE_ERROR, "first argument must be callable or None");
      fx_value_clear (&p->factory);
      p->factory = fx_value_copy (&args[1]);
      first = 2;
    }
  if (n_args - first > 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected at most 1 argument, got %d", n_args - first);
  if (n_args > first && !map_update_from (S, p, kind, &args[first], 1))
    return FALSE;
  if (kwargs)
    {
      FxValue kv = fx_value_take_dict (fx_dict_ref (kwargs));
      gboolean ok = map_update_from (S, p, kind, &kv, 1);
      fx_value_clear (&kv);
      if (!ok)
        return FALSE;
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
map_update (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args > 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "update expected at most 1 argument, got %d", n_args - 1);
  if (n_args == 2 && !map_update_from (S, p, kind, &args[1], 1))
    return FALSE;
  if (kwargs)
    {
      FxValue kv = fx_value_take_dict (fx_dict_ref (kwargs));
      gboolean ok = map_update_from (S, p, kind, &kv, 1);
      fx_value_clear (&kv);
      if (!ok)
        return FALSE;
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
counter_subtract (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args == 2 && !map_update_from (S, p, MAP_COUNTER, &args[1], -1))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

/* d[key] with __missing__: defaultdict's factory, Counter's 0, a subclass's __missing__ */
static gboolean
map_getitem (SC_NATIVE_ARGS)
{
  FxValue *v, *missing;
  MAP_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "__getitem__ expects 1 argument");
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  v = fx_dict_get (p->d, &args[1]);
  if (v)
    {
      *result = fx_value_copy (v);
      return TRUE;
    }
  missing = sc_type_lookup (S, sc_type_of (S, &args[0]), sc_n.missing);
  if (missing)
    return fx_script_call_method (S, &args[0], "__missing__", &args[1], 1, NULL, result);
  return sc_raise_key_error (S, &args[1]);
}

static gboolean
map_missing (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "__missing__ expects 1 argument");
  if (kind == MAP_COUNTER)
    {
      *result = fx_value_int (0);
      return TRUE;
    }
  if (p->factory.kind == FX_VALUE_NONE)
    return sc_raise_key_error (S, &args[1]);
  if (!sc_call0 (S, &p->factory, result))
    return FALSE;
  fx_dict_set (p->d, fx_value_copy (&args[1]), fx_value_copy (result));
  return TRUE;
}

static gboolean
map_setitem (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args != 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "__setitem__ expects 2 arguments");
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  fx_dict_set (p->d, fx_value_copy (&args[1]), fx_value_copy (&args[2]));
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
map_delitem (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "__delitem__ expects 1 argument");
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  if (!fx_dict_remove (p->d, &args[1]))
    {
      if (kind == MAP_COUNTER)
        {
          *result = fx_value_none ();
          return TRUE;
        }
      return sc_raise_key_error (S, &args[1]);
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
map_len (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  *result = fx_value_int (fx_dict_len (p->d));
  return TRUE;
}

static gboolean
map_contains (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "__contains__ expects 1 argument");
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  *result = fx_value_bool (fx_dict_get (p->d, &args[1]) != NULL);
  return TRUE;
}

static FxValue
keys_list (FxDict *d, gboolean reversed)
{
  guint n = fx_dict_len (d);
  FxSeq *s = fx_seq_new (n);
  const FxValue *k;
  for (guint i = 0; fx_dict_entry (d, i, &k, NULL); i++)
    s->items[reversed ? n - 1 - i : i] = fx_value_copy (k);
  return fx_value_take_list (s);
}

static gboolean
map_iter (SC_NATIVE_ARGS)
{
  FxValue keys;
  gboolean ok;
  MAP_BEGIN ();
  keys = keys_list (p->d, GPOINTER_TO_INT (data) == 99);
  ok = sc_get_iter (S, &keys, result);
  fx_value_clear (&keys);
  return ok;
}

static gboolean
map_reversed (SC_NATIVE_ARGS)
{
  FxValue keys;
  gboolean ok;
  MAP_BEGIN ();
  keys = keys_list (p->d, TRUE);
  ok = sc_get_iter (S, &keys, result);
  fx_value_clear (&keys);
  return ok;
}

static gboolean
map_view (SC_NATIVE_ARGS)
{
  MapPayload *p = map_self (S, args, n_args);
  (void) kwargs;
  if (!p)
    return FALSE;
  int what = GPOINTER_TO_INT (data);
  *result = sc_dict_view_new (p->d, what & ~VIEW_ORDERED);
  ((ScDictView *) result->obj)->ordered = (what & VIEW_ORDERED) != 0;
  return TRUE;
}

static gboolean
map_get (SC_NATIVE_ARGS)
{
  FxValue *v;
  MAP_BEGIN ();
  if (n_args < 2 || n_args > 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "get expected at least 1 argument, got %d", n_args - 1);
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  v = fx_dict_get (p->d, &args[1]);
  *result = v ? fx_value_copy (v) : n_args == 3 ? fx_value_copy (&args[2]) : fx_value_none ();
  return TRUE;
}

static gboolean
map_pop (SC_NATIVE_ARGS)
{
  FxValue *v;
  MAP_BEGIN ();
  if (n_args < 2 || n_args > 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "pop expected at least 1 argument, got %d", n_args - 1);
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  v = fx_dict_get (p->d, &args[1]);
  if (!v)
    {
      if (n_args == 3)
        {
          *result = fx_value_copy (&args[2]);
          return TRUE;
        }
      return sc_raise_key_error (S, &args[1]);
    }
  *result = fx_value_copy (v);
  fx_dict_remove (p->d, &args[1]);
  return TRUE;
}

static gboolean
map_popitem (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "last" };
  const FxValue *v[1];
  gboolean last = TRUE;
  const FxValue *k, *val;
  guint n;
  FxValue items[2];
  MAP_BEGIN ();
  if (!fx_script_parse_args (S, "popitem", args + 1, n_args - 1, kwargs, names, 1, 1, 0, v))
    return FALSE;
  if (v[0] && !sc_truth (S, v[0], &last))
    return FALSE;
  n = fx_dict_len (p->d);
  if (n == 0)
    return sc_raise (S, SC_T_KEY_ERROR, kind == MAP_ORDERED ? "dictionary is empty" : "'popitem(): dictionary is empty'");
  fx_dict_entry (p->d, last ? n - 1 : 0, &k, &val);
  items[0] = fx_value_copy (k);
  items[1] = fx_value_copy (val);
  fx_dict_remove (p->d, &items[0]);
  *result = sc_mod_tuple (items, 2);
  fx_value_clear (&items[0]);
  fx_value_clear (&items[1]);
  return TRUE;
}

static gboolean
map_setdefault (SC_NATIVE_ARGS)
{
  FxValue *v;
  MAP_BEGIN ();
  if (n_args < 2 || n_args > 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "setdefault expected at least 1 argument, got %d", n_args - 1);
  if (!sc_dict_key_check (S, &args[1]))
    return FALSE;
  v = fx_dict_get (p->d, &args[1]);
  if (v)
    {
      *result = fx_value_copy (v);
      return TRUE;
    }
  *result = n_args == 3 ? fx_value_copy (&args[2]) : fx_value_none ();
  fx_dict_set (p->d, fx_value_copy (&args[1]), fx_value_copy (result));
  return TRUE;
}

static gboolean
map_clear (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  fx_dict_unref (p->d);
  p->d = fx_dict_new ();
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
map_move_to_end (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "key", "last" };
  const FxValue *v[2];
  gboolean last = TRUE;
  FxValue *val;
  MAP_BEGIN ();
  if (!fx_script_parse_args (S, "move_to_end", args + 1, n_args - 1, kwargs, names, 2, 2, 1, v))
    return FALSE;
  if (v[1] && !sc_truth (S, v[1], &last))
    return FALSE;
  if (!sc_dict_key_check (S, v[0]))
    return FALSE;
  val = fx_dict_get (p->d, v[0]);
  if (!val)
    return sc_raise_key_error (S, v[0]);
  {
    FxValue key = fx_value_copy (v[0]), value = fx_value_copy (val);
    fx_dict_remove (p->d, &key);
    if (last)
      fx_dict_set (p->d, key, value);
    else
      {
        FxDict *nd = fx_dict_new ();
        const FxValue *k, *x;
        fx_dict_set (nd, key, value);
        for (guint i = 0; fx_dict_entry (p->d, i, &k, &x); i++)
          fx_dict_set (nd, fx_value_copy (k), fx_value_copy (x));
        fx_dict_unref (p->d);
        p->d = nd;
      }
  }
  *result = fx_value_none ();
  return TRUE;
}

static FxValue
new_like (FxScript *S, const FxValue *self, MapPayload **out)
{
  FxValue inst = fx_script_instance_new (S, sc_type_of (S, self));
  *out = fx_script_instance_payload (&inst);
  return inst;
}

static gboolean
map_copy (SC_NATIVE_ARGS)
{
  MapPayload *np;
  FxValue inst;
  MAP_BEGIN ();
  if (kind == MAP_PLAIN)   /* dict.copy() of a subclass gives a dict */
    {
      *result = sc_dict_copy (p->d);
      return TRUE;
    }
  inst = new_like (S, &args[0], &np);
  if (!np)
    {
      fx_value_clear (&inst);
      return sc_raise (S, SC_T_TYPE_ERROR, "cannot copy this mapping");
    }
  fx_dict_unref (np->d);
  np->d = sc_dict_copy (p->d).dict;
  fx_value_clear (&np->factory);
  np->factory = fx_value_copy (&p->factory);
  {
    FxDict *src = fx_script_instance_dict (&args[0]), *dst = fx_script_instance_dict (&inst);
    const FxValue *k, *v;
    for (guint i = 0; src && dst && fx_dict_entry (src, i, &k, &v); i++)
      fx_dict_set (dst, fx_value_copy (k), fx_value_copy (v));
  }
  *result = inst;
  return TRUE;
}

/* copy.deepcopy support: the state is (items dict, factory) */
static gboolean
map_getstate (SC_NATIVE_ARGS)
{
  FxValue items[3];
  FxDict *own;
  MAP_BEGIN ();
  own = fx_script_instance_dict (&args[0]);
  items[0] = sc_dict_copy (p->d);
  items[1] = fx_value_copy (&p->factory);
  items[2] = own ? sc_dict_copy (own) : fx_value_none ();
  *result = sc_mod_tuple (items, 3);
  for (int i = 0; i < 3; i++)
    fx_value_clear (&items[i]);
  return TRUE;
}

static gboolean
map_setstate (SC_NATIVE_ARGS)
{
  const FxValue *st;
  MAP_BEGIN ();
  if (n_args != 2 || args[1].kind != FX_VALUE_TUPLE || args[1].seq->len != 3
      || args[1].seq->items[0].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "bad mapping state");
  st = args[1].seq->items;
  fx_dict_unref (p->d);
  p->d = sc_dict_copy (st[0].dict).dict;
  fx_value_clear (&p->factory);
  p->factory = fx_value_copy (&st[1]);
  if (st[2].kind == FX_VALUE_DICT)
    {
      FxDict *own = fx_script_instance_dict (&args[0]);
      const FxValue *k, *v;
      for (guint i = 0; own && fx_dict_entry (st[2].dict, i, &k, &v); i++)
        fx_dict_set (own, fx_value_copy (k), fx_value_copy (v));
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
dict_of (FxScript *S, const FxValue *v, FxDict **out, gboolean *ordered)
{
  *ordered = FALSE;
  if (v->kind == FX_VALUE_DICT)
    {
      *out = v->dict;
      return TRUE;
    }
  if (sc_value_instance (v) && sc_type_lookup_c (S, sc_type_of (S, v), "__fx_mapping__"))
    {
      MapPayload *p = fx_script_instance_payload (v);
      FxValue *k = sc_type_lookup_c (S, sc_type_of (S, v), "__fx_mapping__");
      if (p)
        {
          *out = p->d;
          *ordered = k && k->kind == FX_VALUE_INT && k->i == MAP_ORDERED;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
map_eq (SC_NATIVE_ARGS)
{
  FxDict *a, *b;
  gboolean ord_a, ord_b, eq = TRUE;
  const FxValue *k, *v;
  gboolean negate = GPOINTER_TO_INT (data) == 1;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "__eq__ expects 1 argument");
  if (!dict_of (S, &args[0], &a, &ord_a) || !dict_of (S, &args[1], &b, &ord_b))
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  if (fx_dict_len (a) != fx_dict_len (b))
    eq = FALSE;
  for (guint i = 0; eq && fx_dict_entry (a, i, &k, &v); i++)
    {
      FxValue *w = fx_dict_get (b, k);
      if (ord_a && ord_b)
        {
          const FxValue *bk, *bv;
          fx_dict_entry (b, i, &bk, &bv);
          if (!sc_equal (S, k, bk, &eq))
            return FALSE;
          if (!eq)
            break;
          w = (FxValue *) bv;
        }
      if (!w)
        {
          eq = FALSE;
          break;
        }
      if (!sc_equal (S, v, w, &eq))
        return FALSE;
    }
  *result = fx_value_bool (negate ? !eq : eq);
  return TRUE;
}

static gboolean
repr_pairs (FxScript *S, FxDict *d, GString *out, gboolean as_list)
{
  const FxValue *k, *v;
  g_string_append_c (out, as_list ? '[' : '{');
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    {
      if (i)
        g_string_append (out, ", ");
      if (as_list)
        g_string_append_c (out, '(');
      if (!sc_repr (S, k, out))
        return FALSE;
      g_string_append (out, as_list ? ", " : ": ");
      if (!sc_repr (S, v, out))
        return FALSE;
      if (as_list)
        g_string_append_c (out, ')');
    }
  g_string_append_c (out, as_list ? ']' : '}');
  return TRUE;
}

static gboolean counter_sorted (FxScript *S, FxDict *d, FxSeq **out);

static gboolean
map_repr (SC_NATIVE_ARGS)
{
  GString *out;
  gboolean ok = TRUE;
  MAP_BEGIN ();
  if (kind == MAP_PLAIN)   /* a Python subclass of dict: dict's repr */
    {
      out = g_string_new (NULL);
      ok = repr_pairs (S, p->d, out, FALSE);
      if (ok)
        *result = fx_value_str (out->str);
      g_string_free (out, TRUE);
      return ok;
    }
  out = g_string_new (sc_type_name (S, &args[0]));
  g_string_append_c (out, '(');
  if (kind == MAP_DEFAULT)
    {
      ok = sc_repr (S, &p->factory, out);
      g_string_append (out, ", ");
      ok = ok && repr_pairs (S, p->d, out, FALSE);
    }
  else if (fx_dict_len (p->d) == 0)
    ;
  else if (kind == MAP_ORDERED)
    ok = repr_pairs (S, p->d, out, TRUE);
  else
    {
      FxSeq *sorted;
      ok = counter_sorted (S, p->d, &sorted);
      if (ok)
        {
          g_string_append_c (out, '{');
          for (guint i = 0; ok && i < sorted->len; i++)
            {
              const FxValue *pair = sorted->items[i].seq->items;
              if (i)
                g_string_append (out, ", ");
              ok = sc_repr (S, &pair[0], out);
              g_string_append (out, ": ");
              ok = ok && sc_repr (S, &pair[1], out);
            }
          g_string_append_c (out, '}');
          fx_seq_unref (sorted);
        }
    }
  g_string_append_c (out, ')');
  if (ok)
    *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return ok;
}

static gboolean
factory_get (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  *result = fx_value_copy (&p->factory);
  return TRUE;
}

static gboolean
factory_set (SC_NATIVE_ARGS)
{
  MAP_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "default_factory expects a value");
  fx_value_clear (&p->factory);
  p->factory = fx_value_copy (&args[1]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
map_fromkeys (SC_NATIVE_ARGS)
{
  FxSeq *keys;
  MapPayload *np;
  FxScriptClass *cls;
  (void) kwargs;
  (void) data;
  if (n_args < 2 || n_args > 3 || !(cls = sc_value_class (&args[0])))
    return sc_raise (S, SC_T_TYPE_ERROR, "fromkeys expected 1 or 2 arguments");
  if (!sc_collect (S, &args[1], &keys))
    return FALSE;
  /* cls(), then d[key] = value for each key, as CPython's: through a subclass's __init__ and
   * __setitem__ when it has them */
  FxValue none = fx_value_none ();
  gboolean ok = fx_script_call (S, &args[0], NULL, 0, NULL, result);
  np = ok ? fx_script_instance_payload (result) : NULL;
  if (ok && np == NULL)
    {
      fx_value_clear (result);
      ok = sc_raise (S, SC_T_TYPE_ERROR, "fromkeys: %s() did not make a mapping", cls->name->data);
    }
  for (guint i = 0; ok && i < keys->len; i++)
    ok = sc_setitem (S, result, &keys->items[i], n_args == 3 ? &args[2] : &none);
  fx_seq_unref (keys);
  if (!ok)
    fx_value_clear (result);
  return ok;
}

/* Counter: (key, count) pairs by count, largest first, ties in insertion order */
static gboolean
counter_sorted (FxScript *S, FxDict *d, FxSeq **out)
{
  FxSeq *pairs = fx_seq_new (0);
  const FxValue *k, *v;
  FxValue key = fx_value_none ();
  for (guint i = 0; fx_dict_entry (d, i, &k, &v); i++)
    {
      FxValue items[2] = { *k, *v };
      fx_seq_append (pairs, sc_mod_tuple (items, 2));
    }
  {
    FxValue getter, mod, idx = fx_value_int (1);
    /* key=operator.itemgetter(1) through a tiny native: compare counts */
    if (!fx_script_import (S, "operator", &mod))
      {
        fx_seq_unref (pairs);
        return FALSE;
      }
    if (!fx_script_getattr (S, &mod, "itemgetter", &getter))
      {
        fx_value_clear (&mod);
        fx_seq_unref (pairs);
        return FALSE;
      }
    fx_value_clear (&mod);
    if (!sc_call1 (S, &getter, &idx, &key))
      {
        fx_value_clear (&getter);
        fx_seq_unref (pairs);
        return FALSE;
      }
    fx_value_clear (&getter);
  }
  if (!sc_sort (S, pairs, &key, TRUE))
    {
      fx_value_clear (&key);
      fx_seq_unref (pairs);
      return FALSE;
    }
  fx_value_clear (&key);
  *out = pairs;
  return TRUE;
}

static gboolean
counter_most_common (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "n" };
  const FxValue *v[1];
  FxSeq *sorted;
  int64_t n = -1;
  MAP_BEGIN ();
  if (!fx_script_parse_args (S, "most_common", args + 1, n_args - 1, kwargs, names, 1, 1, 0, v))
    return FALSE;
  if (v[0] && v[0]->kind != FX_VALUE_NONE && !sc_mod_to_index (S, v[0], &n))
    return FALSE;
  if (!counter_sorted (S, p->d, &sorted))
    return FALSE;
  if (n >= 0 && n < (int64_t) sorted->len)
    {
      for (guint i = n; i < sorted->len; i++)
        fx_value_clear (&sorted->items[i]);
      sorted->len = n;
    }
  *result = fx_value_take_list (sorted);
  return TRUE;
}

static gboolean
counter_elements (SC_NATIVE_ARGS)
{
  FxSeq *out = fx_seq_new (0);
  const FxValue *k, *v;
  FxValue list;
  gboolean ok;
  MAP_BEGIN ();
  for (guint i = 0; fx_dict_entry (p->d, i, &k, &v); i++)
    if (v->kind == FX_VALUE_INT)
      for (int64_t j = 0; j < v->i; j++)
        fx_seq_append (out, fx_value_copy (k));
  list = fx_value_take_list (out);
  ok = sc_get_iter (S, &list, result);
  fx_value_clear (&list);
  return ok;
}

static gboolean
counter_total (SC_NATIVE_ARGS)
{
  FxValue acc = fx_value_int (0), r;
  const FxValue *v;
  MAP_BEGIN ();
  for (guint i = 0; fx_dict_entry (p->d, i, NULL, &v); i++)
    {
      if (!sc_binary (S, SC_BIN_ADD, &acc, v, &r, FALSE))
        {
          fx_value_clear (&acc);
          return FALSE;
        }
      fx_value_clear (&acc);
      acc = r;
    }
  *result = acc;
  return TRUE;
}

static gboolean
counter_arith (SC_NATIVE_ARGS)
{
  /* Counter + Counter / Counter - Counter: keep positive counts */
  MapPayload *np, *other;
  FxValue inst;
  const FxValue *k, *v;
  gboolean sub = GPOINTER_TO_INT (data) == 1;
  MapPayload *p = map_self (S, args, n_args);
  if (!p || n_args != 2)
    return FALSE;
  (void) kwargs;
  other = sc_value_instance (&args[1]) && sc_type_lookup_c (S, sc_type_of (S, &args[1]), "__fx_mapping__")
            ? fx_script_instance_payload (&args[1]) : NULL;
  if (!other)
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  inst = new_like (S, &args[0], &np);
  for (guint i = 0; np && fx_dict_entry (p->d, i, &k, &v); i++)
    fx_dict_set (np->d, fx_value_copy (k), fx_value_copy (v));
  for (guint i = 0; np && fx_dict_entry (other->d, i, &k, &v); i++)
    {
      FxValue n;
      if (sub)
        {
          if (!sc_unary (S, SC_UNARY_NEG, v, &n))
            goto fail;
        }
      else
        n = fx_value_copy (v);
      if (!counter_add (S, np, k, &n))
        {
          fx_value_clear (&n);
          goto fail;
        }
      fx_value_clear (&n);
    }
  if (np)
    {
      /* drop non-positive counts */
      FxDict *kept = fx_dict_new ();
      for (guint i = 0; fx_dict_entry (np->d, i, &k, &v); i++)
        {
          FxValue zero = fx_value_int (0), gt;
          gboolean pos;
          if (!sc_compare (S, SC_CMP_GT, v, &zero, &gt) || !sc_truth (S, &gt, &pos))
            {
              fx_dict_unref (kept);
              goto fail;
            }
          fx_value_clear (&gt);
          if (pos)
            fx_dict_set (kept, fx_value_copy (k), fx_value_copy (v));
        }
      fx_dict_unref (np->d);
      np->d = kept;
    }
  *result = inst;
  return TRUE;
fail:
  fx_value_clear (&inst);
  return FALSE;
}

static FxScriptClass *
mapping_class (FxScript *S, const char *name, MapKind kind)
{
  FxScriptClassInfo info = { kind == MAP_PLAIN ? "builtins" : "collections", name, NULL,
                             map_payload_new, map_payload_free, NULL };
  FxScriptClass *cls = fx_script_class_new (S, &info, S->types[SC_T_DICT]);
  gpointer k = GINT_TO_POINTER (kind);
  static const struct { const char *name; FxScriptFunc func; } methods[] = {
    { "__init__", map_init }, { "__getitem__", map_getitem }, { "__setitem__", map_setitem },
    { "__delitem__", map_delitem }, { "__len__", map_len }, { "__contains__", map_contains },
    { "__iter__", map_iter }, { "__repr__", map_repr }, { "get", map_get }, { "pop", map_pop },
    { "popitem", map_popitem }, { "setdefault", map_setdefault }, { "update", map_update },
    { "clear", map_clear }, { "copy", map_copy },
    { "__getstate__", map_getstate }, { "__setstate__", map_setstate },
  };
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    fx_script_class_add_method (cls, methods[i].name, methods[i].func, k);
  if (kind != MAP_PLAIN)   /* copy.copy of a dict subclass goes by its state, like CPython's */
    fx_script_class_add_method (cls, "__copy__", map_copy, k);
  /* OrderedDict's views print as odict_keys([...]), ... */
  int ordered_views = kind == MAP_ORDERED ? VIEW_ORDERED : 0;
  fx_script_class_add_method (cls, "keys", map_view,
                              GINT_TO_POINTER (SC_T_DICT_KEYS | ordered_views));
  fx_script_class_add_method (cls, "values", map_view,
                              GINT_TO_POINTER (SC_T_DICT_VALUES | ordered_views));
  fx_script_class_add_method (cls, "items", map_view,
                              GINT_TO_POINTER (SC_T_DICT_ITEMS | ordered_views));
  fx_script_class_add_method (cls, "__eq__", map_eq, GINT_TO_POINTER (0));
  fx_script_class_add_method (cls, "__ne__", map_eq, GINT_TO_POINTER (1));
  fx_script_class_add_classmethod (cls, "fromkeys", map_fromkeys, k);
  fx_script_class_set_attr (cls, "__hash__", fx_value_none ());
  fx_script_class_set_attr (cls, "__fx_mapping__", fx_value_int (kind));
  switch (kind)
    {
    case MAP_ORDERED:
      fx_script_class_add_method (cls, "move_to_end", map_move_to_end, k);
      fx_script_class_add_method (cls, "__reversed__", map_reversed, k);
      break;
    case MAP_DEFAULT:
      fx_script_class_add_method (cls, "__missing__", map_missing, k);
      fx_script_class_add_property (cls, "default_factory", factory_get, factory_set, k);
      break;
    case MAP_PLAIN:
      fx_script_class_add_method (cls, "__reversed__", map_reversed, k);
      break;
    case MAP_COUNTER:
      fx_script_class_add_method (cls, "__missing__", map_missing, k);
      fx_script_class_add_method (cls, "most_common", counter_most_common, k);
      fx_script_class_add_method (cls, "elements", counter_elements, k);
      fx_script_class_add_method (cls, "subtract", counter_subtract, k);
      fx_script_class_add_method (cls, "total", counter_total, k);
      fx_script_class_add_method (cls, "__add__", counter_arith, GINT_TO_POINTER (0));
      fx_script_class_add_method (cls, "__sub__", counter_arith, GINT_TO_POINTER (1));
      break;
    }
  return cls;
}

/* ------------------------------------------------------------------ deque */

typedef struct {
  FxValue *buf;
  guint cap, head, len;
  int64_t maxlen;      /* -1: unbounded */
} Deque;

static gpointer
deque_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  Deque *q = g_new0 (Deque, 1);
  (void) S;
  (void) cls;
  (void) class_data;
  q->maxlen = -1;
  return q;
}

static FxValue *
dq_at (Deque *q, guint i)
{
  return &q->buf[(q->head + i) % q->cap];
}

static void
dq_clear (Deque *q)
{
  for (guint i = 0; i < q->len; i++)
    fx_value_clear (dq_at (q, i));
  q->len = 0;
  q->head = 0;
}

static void
deque_payload_free (gpointer data)
{
  Deque *q = data;
  dq_clear (q);
  g_free (q->buf);
  g_free (q);
}

static void
dq_grow (Deque *q)
{
  guint ncap;
  FxValue *nb;
  if (q->len < q->cap)
    return;
  ncap = q->cap ? q->cap * 2 : 8;
  nb = g_new (FxValue, ncap);
  for (guint i = 0; i < q->len; i++)
    nb[i] = *dq_at (q, i);
  g_free (q->buf);
  q->buf = nb;
  q->cap = ncap;
  q->head = 0;
}

static FxValue
dq_pop_right (Deque *q)
{
  FxValue v = *dq_at (q, q->len - 1);
  q->len--;
  return v;
}

static FxValue
dq_pop_left (Deque *q)
{
  FxValue v = *dq_at (q, 0);
  q->head = (q->head + 1) % q->cap;
  q->len--;
  return v;
}

static void
dq_push_right (Deque *q, FxValue v)
{
  if (q->maxlen == 0)
    {
      fx_value_clear (&v);
      return;
    }
  if (q->maxlen > 0 && q->len >= (guint) q->maxlen)
    {
      FxValue old = dq_pop_left (q);
      fx_value_clear (&old);
    }
  dq_grow (q);
  *dq_at (q, q->len) = v;
  q->len++;
}

static void
dq_push_left (Deque *q, FxValue v)
{
  if (q->maxlen == 0)
    {
      fx_value_clear (&v);
      return;
    }
  if (q->maxlen > 0 && q->len >= (guint) q->maxlen)
    {
      FxValue old = dq_pop_right (q);
      fx_value_clear (&old);
    }
  dq_grow (q);
  q->head = (q->head + q->cap - 1) % q->cap;
  *dq_at (q, 0) = v;
  q->len++;
}

static Deque *
dq_self (FxScript *S, const FxValue *args, int n_args)
{
  Deque *q = n_args > 0 ? fx_script_instance_payload (&args[0]) : NULL;
  if (!q)
    sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a 'collections.deque' object");
  return q;
}

#define DQ_BEGIN()                             \
  Deque *q = dq_self (S, args, n_args);        \
  (void) data;                                 \
  (void) kwargs;                               \
  if (!q)                                      \
    return FALSE;

typedef struct {
  Deque *q;
  gboolean left;
} DqExtend;

static gboolean
dq_extend_step (FxScript *S, const FxValue *item, gpointer user_data)
{
  DqExtend *e = user_data;
  (void) S;
  if (e->left)
    dq_push_left (e->q, fx_value_copy (item));
  else
    dq_push_right (e->q, fx_value_copy (item));
  return TRUE;
}

static gboolean
dq_extend_from (FxScript *S, Deque *q, const FxValue *src, gboolean left)
{
  DqExtend e = { q, left };
  FxSeq *items;
  gboolean ok;
  /* d.extend(d) must see a snapshot */
  if (!sc_collect (S, src, &items))
    return FALSE;
  {
    FxValue list = fx_value_take_list (items);
    ok = fx_script_iterate (S, &list, dq_extend_step, &e);
    fx_value_clear (&list);
  }
  return ok;
}

static gboolean
deque_init (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "iterable", "maxlen" };
  const FxValue *v[2];
  Deque *q = dq_self (S, args, n_args);
  (void) data;
  if (!q || !fx_script_parse_args (S, "deque", args + 1, n_args - 1, kwargs, names, 2, 2, 0, v))
    return FALSE;
  if (v[1] && v[1]->kind != FX_VALUE_NONE)
    {
      if (v[1]->kind != FX_VALUE_INT && v[1]->kind != FX_VALUE_BOOL)
        return sc_raise (S, SC_T_TYPE_ERROR, "an integer is required");
      if (!sc_mod_to_index (S, v[1], &q->maxlen))
        return FALSE;
      if (q->maxlen < 0)
        return sc_raise (S, SC_T_VALUE_ERROR, "maxlen must be non-negative");
    }
  dq_clear (q);
  if (v[0] && !dq_extend_from (S, q, v[0], FALSE))
    return FALSE;
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
deque_append (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "deque.append() takes exactly one argument (%d given)", n_args - 1);
  if (GPOINTER_TO_INT (data))
    dq_push_left (q, fx_value_copy (&args[1]));
  else
    dq_push_right (q, fx_value_copy (&args[1]));
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
deque_extend (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "deque.extend() takes exactly one argument (%d given)", n_args - 1);
  *result = fx_value_none ();
  return dq_extend_from (S, q, &args[1], GPOINTER_TO_INT (data));
}

static gboolean
deque_pop (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  if (q->len == 0)
    return sc_raise (S, SC_T_INDEX_ERROR, "pop from an empty deque");
  *result = GPOINTER_TO_INT (data) ? dq_pop_left (q) : dq_pop_right (q);
  return TRUE;
}

static gboolean
deque_clear (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  dq_clear (q);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
deque_len (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  *result = fx_value_int (q->len);
  return TRUE;
}

static FxValue
dq_list (Deque *q)
{
  FxSeq *s = fx_seq_new (q->len);
  for (guint i = 0; i < q->len; i++)
    s->items[i] = fx_value_copy (dq_at (q, i));
  return fx_value_take_list (s);
}

static gboolean
deque_iter (SC_NATIVE_ARGS)
{
  FxValue list;
  gboolean ok;
  DQ_BEGIN ();
  list = dq_list (q);
  if (GPOINTER_TO_INT (data))
    for (guint i = 0; i < list.seq->len / 2; i++)
      {
        FxValue t = list.seq->items[i];
        list.seq->items[i] = list.seq->items[list.seq->len - 1 - i];
        list.seq->items[list.seq->len - 1 - i] = t;
      }
  ok = sc_get_iter (S, &list, result);
  fx_value_clear (&list);
  return ok;
}

static gboolean
dq_index (FxScript *S, Deque *q, const FxValue *key, guint *out)
{
  int64_t i;
  if (!sc_mod_to_index (S, key, &i))
    return FALSE;
  if (i < 0)
    i += q->len;
  if (i < 0 || i >= (int64_t) q->len)
    return sc_raise (S, SC_T_INDEX_ERROR, "deque index out of range");
  *out = (guint) i;
  return TRUE;
}

static gboolean
deque_getitem (SC_NATIVE_ARGS)
{
  guint i;
  DQ_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument");
  if (args[1].kind == FX_VALUE_SLICE)
    return sc_raise (S, SC_T_TYPE_ERROR, "sequence index must be integer, not 'slice'");
  if (!dq_index (S, q, &args[1], &i))
    return FALSE;
  *result = fx_value_copy (dq_at (q, i));
  return TRUE;
}

static gboolean
deque_setitem (SC_NATIVE_ARGS)
{
  guint i;
  DQ_BEGIN ();
  if (n_args != 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 2 arguments");
  if (!dq_index (S, q, &args[1], &i))
    return FALSE;
  fx_value_clear (dq_at (q, i));
  *dq_at (q, i) = fx_value_copy (&args[2]);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
deque_contains (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument");
  for (guint i = 0; i < q->len; i++)
    {
      gboolean eq;
      if (!sc_equal (S, dq_at (q, i), &args[1], &eq))
        return FALSE;
      if (eq)
        {
          *result = fx_value_bool (TRUE);
          return TRUE;
        }
    }
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
deque_count (SC_NATIVE_ARGS)
{
  int64_t n = 0;
  DQ_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "deque.count() takes exactly one argument (%d given)", n_args - 1);
  for (guint i = 0; i < q->len; i++)
    {
      gboolean eq;
      if (!sc_equal (S, dq_at (q, i), &args[1], &eq))
        return FALSE;
      n += eq;
    }
  *result = fx_value_int (n);
  return TRUE;
}

static gboolean
deque_remove (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "deque.remove() takes exactly one argument (%d given)", n_args - 1);
  for (guint i = 0; i < q->len; i++)
    {
      gboolean eq;
      if (!sc_equal (S, dq_at (q, i), &args[1], &eq))
        return FALSE;
      if (eq)
        {
          fx_value_clear (dq_at (q, i));
          for (guint j = i; j + 1 < q->len; j++)
            *dq_at (q, j) = *dq_at (q, j + 1);
          q->len--;
          *result = fx_value_none ();
          return TRUE;
        }
    }
  return sc_raise (S, SC_T_VALUE_ERROR, "deque.remove(x): x not in deque");
}

static gboolean
deque_rotate (SC_NATIVE_ARGS)
{
  int64_t n = 1;
  DQ_BEGIN ();
  if (n_args > 1 && !sc_mod_to_index (S, &args[1], &n))
    return FALSE;
  if (q->len > 1)
    {
      n %= (int64_t) q->len;
      if (n < 0)
        n += q->len;
      for (int64_t i = 0; i < n; i++)
        {
          FxValue v = dq_pop_right (q);
          dq_grow (q);
          q->head = (q->head + q->cap - 1) % q->cap;
          *dq_at (q, 0) = v;
          q->len++;
        }
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
deque_reverse (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  for (guint i = 0; i < q->len / 2; i++)
    {
      FxValue t = *dq_at (q, i);
      *dq_at (q, i) = *dq_at (q, q->len - 1 - i);
      *dq_at (q, q->len - 1 - i) = t;
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
deque_repr (SC_NATIVE_ARGS)
{
  GString *out;
  FxValue list;
  gboolean ok;
  DQ_BEGIN ();
  out = g_string_new (sc_type_name (S, &args[0]));
  g_string_append_c (out, '(');
  list = dq_list (q);
  ok = sc_repr (S, &list, out);
  fx_value_clear (&list);
  if (q->maxlen >= 0)
    g_string_append_printf (out, ", maxlen=%" G_GINT64_FORMAT, q->maxlen);
  g_string_append_c (out, ')');
  if (ok)
    *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return ok;
}

static gboolean
deque_maxlen (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  *result = q->maxlen < 0 ? fx_value_none () : fx_value_int (q->maxlen);
  return TRUE;
}

static gboolean
deque_copy (SC_NATIVE_ARGS)
{
  FxValue inst;
  Deque *nq;
  DQ_BEGIN ();
  inst = fx_script_instance_new (S, sc_type_of (S, &args[0]));
  nq = fx_script_instance_payload (&inst);
  if (!nq)
    {
      fx_value_clear (&inst);
      return sc_raise (S, SC_T_TYPE_ERROR, "cannot copy deque");
    }
  nq->maxlen = q->maxlen;
  for (guint i = 0; i < q->len; i++)
    dq_push_right (nq, fx_value_copy (dq_at (q, i)));
  *result = inst;
  return TRUE;
}

static gboolean
deque_eq (SC_NATIVE_ARGS)
{
  Deque *o;
  gboolean eq = TRUE;
  DQ_BEGIN ();
  o = n_args == 2 && sc_value_instance (&args[1]) ? fx_script_instance_payload (&args[1]) : NULL;
  if (!o || sc_type_lookup_c (S, sc_type_of (S, &args[1]), "__fx_deque__") == NULL)
    {
      *result = sc_notimpl (S);
      return TRUE;
    }
  if (o->len != q->len)
    eq = FALSE;
  for (guint i = 0; eq && i < q->len; i++)
    if (!sc_equal (S, dq_at (q, i), dq_at (o, i), &eq))
      return FALSE;
  *result = fx_value_bool (eq);
  return TRUE;
}

/* deepcopy: the state is (list, maxlen) */
static gboolean
deque_getstate (SC_NATIVE_ARGS)
{
  FxValue items[2];
  DQ_BEGIN ();
  items[0] = dq_list (q);
  items[1] = fx_value_int (q->maxlen);
  *result = sc_mod_tuple (items, 2);
  fx_value_clear (&items[0]);
  return TRUE;
}

static gboolean
deque_setstate (SC_NATIVE_ARGS)
{
  DQ_BEGIN ();
  if (n_args != 2 || args[1].kind != FX_VALUE_TUPLE || args[1].seq->len != 2
      || args[1].seq->items[0].kind != FX_VALUE_LIST || args[1].seq->items[1].kind != FX_VALUE_INT)
    return sc_raise (S, SC_T_TYPE_ERROR, "bad deque state");
  dq_clear (q);
  q->maxlen = args[1].seq->items[1].i;
  for (guint i = 0; i < args[1].seq->items[0].seq->len; i++)
    dq_push_right (q, fx_value_copy (&args[1].seq->items[0].seq->items[i]));
  *result = fx_value_none ();
  return TRUE;
}

static FxScriptClass *
deque_class (FxScript *S)
{
  static const FxScriptClassInfo info = { "collections", "deque", NULL, deque_payload_new, deque_payload_free,
                                          NULL };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  static const struct { const char *name; FxScriptFunc func; int arg; } methods[] = {
    { "__init__", deque_init, 0 }, { "append", deque_append, 0 }, { "appendleft", deque_append, 1 },
    { "extend", deque_extend, 0 }, { "extendleft", deque_extend, 1 }, { "pop", deque_pop, 0 },
    { "popleft", deque_pop, 1 }, { "clear", deque_clear, 0 }, { "__len__", deque_len, 0 },
    { "__iter__", deque_iter, 0 }, { "__reversed__", deque_iter, 1 }, { "__getitem__", deque_getitem, 0 },
    { "__setitem__", deque_setitem, 0 }, { "__contains__", deque_contains, 0 }, { "count", deque_count, 0 },
    { "remove", deque_remove, 0 }, { "rotate", deque_rotate, 0 }, { "reverse", deque_reverse, 0 },
    { "__repr__", deque_repr, 0 }, { "copy", deque_copy, 0 }, { "__copy__", deque_copy, 0 },
    { "__eq__", deque_eq, 0 }, { "__getstate__", deque_getstate, 0 }, { "__setstate__", deque_setstate, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    fx_script_class_add_method (cls, methods[i].name, methods[i].func, GINT_TO_POINTER (methods[i].arg));
  fx_script_class_add_property (cls, "maxlen", deque_maxlen, NULL, NULL);
  fx_script_class_set_attr (cls, "__hash__", fx_value_none ());
  fx_script_class_set_attr (cls, "__fx_deque__", fx_value_bool (TRUE));
  return cls;
}

/* ------------------------------------------------------------------ collections.abc */

typedef enum { ABC_ITERABLE, ABC_ITERATOR, ABC_MAPPING, ABC_SEQUENCE, ABC_CALLABLE, ABC_SIZED,
               ABC_HASHABLE, ABC_CONTAINER, ABC_SET } AbcKind;

static gboolean
abc_has (FxScript *S, FxScriptClass *cls, const char *name)
{
  FxValue *m = sc_type_lookup_c (S, cls, name);
  return m && m->kind != FX_VALUE_NONE;
}

static gboolean
abc_check (SC_NATIVE_ARGS)
{
  int mode = GPOINTER_TO_INT (data);
  AbcKind kind = mode & 15;
  gboolean subclass = mode >= 16, r = FALSE;
  FxScriptClass *cls, *self;
  (void) kwargs;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument");
  self = sc_value_class (&args[0]);
  cls = subclass ? sc_value_class (&args[1]) : fx_script_type_of (S, &args[1]);
  if (!cls)
    return sc_raise (S, SC_T_TYPE_ERROR, "issubclass() arg 1 must be a class");
  if (self && sc_is_subclass (cls, self))
    r = TRUE;
  else
    switch (kind)
      {
      case ABC_ITERABLE: r = abc_has (S, cls, "__iter__") || cls->type_id == SC_T_STR || cls->type_id == SC_T_LIST
                             || cls->type_id == SC_T_TUPLE || cls->type_id == SC_T_DICT || cls->type_id == SC_T_SET
                             || cls->type_id == SC_T_FROZENSET || cls->type_id == SC_T_RANGE
                             || cls->type_id == SC_T_ITERATOR || cls->type_id == SC_T_GENERATOR
                             || cls->type_id == SC_T_DICT_KEYS || cls->type_id == SC_T_DICT_VALUES
                             || cls->type_id == SC_T_DICT_ITEMS || cls->type_id == SC_T_ENUMERATE
                             || cls->type_id == SC_T_ZIP || cls->type_id == SC_T_MAP
                             || cls->type_id == SC_T_FILTER || cls->type_id == SC_T_REVERSED
                             || cls->tuple_type != NULL;
        break;
      case ABC_ITERATOR: r = (abc_has (S, cls, "__next__") && abc_has (S, cls, "__iter__"))
                             || cls->type_id == SC_T_ITERATOR || cls->type_id == SC_T_GENERATOR
                             || cls->type_id == SC_T_ENUMERATE || cls->type_id == SC_T_ZIP
                             || cls->type_id == SC_T_MAP || cls->type_id == SC_T_FILTER
                             || cls->type_id == SC_T_REVERSED;
        break;
      case ABC_MAPPING: r = cls->type_id == SC_T_DICT || abc_has (S, cls, "__fx_mapping__"); break;
      case ABC_SEQUENCE: r = cls->type_id == SC_T_LIST || cls->type_id == SC_T_TUPLE || cls->type_id == SC_T_STR
                             || cls->type_id == SC_T_RANGE || cls->tuple_type != NULL; break;
      case ABC_SET: r = cls->type_id == SC_T_SET || cls->type_id == SC_T_FROZENSET
                        || cls->type_id == SC_T_DICT_KEYS; break;
      case ABC_CALLABLE: r = subclass ? abc_has (S, cls, "__call__") : sc_callable (S, &args[1]); break;
      case ABC_SIZED: case ABC_CONTAINER:
        r = abc_has (S, cls, kind == ABC_SIZED ? "__len__" : "__contains__") || cls->type_id == SC_T_STR
            || cls->type_id == SC_T_LIST || cls->type_id == SC_T_TUPLE || cls->type_id == SC_T_DICT
            || cls->type_id == SC_T_SET || cls->type_id == SC_T_FROZENSET || cls->type_id == SC_T_RANGE
            || cls->tuple_type != NULL;
        break;
      case ABC_HASHABLE:
        {
          FxValue *h = sc_type_lookup (S, cls, sc_n.hash);
          r = !(h && h->kind == FX_VALUE_NONE) && cls->type_id != SC_T_LIST && cls->type_id != SC_T_DICT
              && cls->type_id != SC_T_SET;
          break;
        }
      }
  *result = fx_value_bool (r);
  return TRUE;
}

static gboolean
abc_module_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  static const struct { const char *name; AbcKind kind; } abcs[] = {
    { "Iterable", ABC_ITERABLE }, { "Iterator", ABC_ITERATOR }, { "Generator", ABC_ITERATOR },
    { "Mapping", ABC_MAPPING }, { "MutableMapping", ABC_MAPPING }, { "Sequence", ABC_SEQUENCE },
    { "MutableSequence", ABC_SEQUENCE }, { "Callable", ABC_CALLABLE }, { "Sized", ABC_SIZED },
    { "Hashable", ABC_HASHABLE }, { "Container", ABC_CONTAINER }, { "Collection", ABC_SIZED },
    { "Set", ABC_SET }, { "MutableSet", ABC_SET }, { "KeysView", ABC_SET },
  };
  (void) user_data;
  for (guint i = 0; i < G_N_ELEMENTS (abcs); i++)
    {
      FxScriptClassInfo info = { "collections.abc", abcs[i].name, NULL, NULL, NULL, NULL };
      FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
      fx_script_class_add_classmethod (cls, "__instancecheck__", abc_check, GINT_TO_POINTER (abcs[i].kind));
      fx_script_class_add_classmethod (cls, "__subclasscheck__", abc_check, GINT_TO_POINTER (abcs[i].kind | 16));
      fx_script_module_set (m, abcs[i].name, fx_script_class_value (cls));
    }
  return TRUE;
}

FxDict *
sc_mapping_dict (FxScript *S, const FxValue *v)
{
  FxDict *d;
  gboolean ordered;
  return v->kind != FX_VALUE_DICT && dict_of (S, v, &d, &ordered) ? d : NULL;
}

FxScriptClass *
sc_dict_standin (FxScript *S)
{
  if (S->dict_standin == NULL)
    {
      S->dict_standin = mapping_class (S, "dict", MAP_PLAIN);
      S->dict_standin->flags |= SC_CLASS_STANDIN;
    }
  return S->dict_standin;
}

static gboolean
collections_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  (void) user_data;
  sc_mod_set_fn (m, "collections", "namedtuple", collections_namedtuple, NULL);
  fx_script_module_set (m, "OrderedDict", fx_script_class_value (mapping_class (S, "OrderedDict", MAP_ORDERED)));
  fx_script_module_set (m, "defaultdict", fx_script_class_value (mapping_class (S, "defaultdict", MAP_DEFAULT)));
  fx_script_module_set (m, "Counter", fx_script_class_value (mapping_class (S, "Counter", MAP_COUNTER)));
  fx_script_module_set (m, "deque", fx_script_class_value (deque_class (S)));
  return TRUE;
}

void
sc_mod_collections_register (FxScript *S)
{
  fx_script_register_module (S, "collections", collections_init, NULL, NULL);
  fx_script_register_module (S, "collections.abc", abc_module_init, NULL, NULL);
}
