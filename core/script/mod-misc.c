/* mod-misc.c: the small native modules — typing (subscriptable special forms whose reprs match
 * CPython's), time, os and os.path, string, numbers and abc. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <glib/gstdio.h>
#include "script/mod.h"

/* ------------------------------------------------------------------ typing */

typedef enum {
  FORM_GENERIC,      /* List[int] */
  FORM_OPTIONAL,
  FORM_UNION,
  FORM_CALLABLE,
  FORM_TUPLE,
  FORM_PLAIN,        /* ClassVar, Final, Literal, Type, Generic... : args as given */
} FormKind;

typedef struct {
  char *name;        /* "typing.List" */
  FormKind kind;
  FxValue origin;    /* list, dict, ... or None */
} TypingForm;

static gpointer
form_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  TypingForm *f = g_new0 (TypingForm, 1);
  (void) S;
  (void) cls;
  (void) class_data;
  f->origin = fx_value_none ();
  return f;
}

static void
form_payload_free (gpointer p)
{
  TypingForm *f = p;
  g_free (f->name);
  fx_value_clear (&f->origin);
  g_free (f);
}

static FxValue
typing_new (const char *name, FxValue args, FxValue origin)
{
  ScTyping *t = g_new0 (ScTyping, 1);
  fx_object_init (&t->base, &sc_typing_klass);
  t->name = fx_str_new (name);
  t->args = args;
  t->origin = origin;
  return fx_value_take_object (&t->base);
}

static gboolean
form_repr (SC_NATIVE_ARGS)
{
  TypingForm *f = fx_script_instance_payload (&args[0]);
  (void) n_args;
  (void) kwargs;
  (void) data;
  *result = fx_value_str (f ? f->name : "typing.?");
  return TRUE;
}

static gboolean
form_call (SC_NATIVE_ARGS)
{
  TypingForm *f = fx_script_instance_payload (&args[0]);
  const char *short_name = f && strchr (f->name, '.') ? strchr (f->name, '.') + 1 : "?";
  (void) n_args;
  (void) kwargs;
  (void) data;
  (void) result;
  if (f && f->origin.kind != FX_VALUE_NONE)
    {
      FxScriptClass *c = sc_value_class (&f->origin);
      return sc_raise (S, SC_T_TYPE_ERROR, "Type %s cannot be instantiated; use %s() instead", short_name,
                       c ? c->name->data : "?");
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "Cannot instantiate %s", f ? f->name : "?");
}

static gboolean
is_none_type (FxScript *S, const FxValue *v)
{
  return v->kind == FX_VALUE_NONE || sc_value_class (v) == S->types[SC_T_NONE];
}

/* Union members flattened, duplicates removed */
static void
union_add (FxScript *S, FxSeq *members, const FxValue *v)
{
  if (sc_is_klass (v, &sc_typing_klass))
    {
      ScTyping *t = (ScTyping *) v->obj;
      if ((strcmp (t->name->data, "typing.Union") == 0 || strcmp (t->name->data, "typing.Optional") == 0)
          && t->args.kind == FX_VALUE_TUPLE)
        {
          for (guint i = 0; i < t->args.seq->len; i++)
            union_add (S, members, &t->args.seq->items[i]);
          if (strcmp (t->name->data, "typing.Optional") == 0)
            {
              FxValue none = fx_value_none ();
              union_add (S, members, &none);
            }
          return;
        }
    }
  for (guint i = 0; i < members->len; i++)
    if (fx_value_equal (&members->items[i], v) || (is_none_type (S, v) && is_none_type (S, &members->items[i])))
      return;
  fx_seq_append (members, fx_value_copy (v));
}

static FxValue
list_marker (const FxValue *list)
{
  FxSeq *items = fx_seq_new (list->seq->len);
  for (guint i = 0; i < list->seq->len; i++)
    items->items[i] = fx_value_copy (&list->seq->items[i]);
  return typing_new ("", fx_value_take_tuple (items), fx_value_none ());
}

static gboolean
form_getitem (SC_NATIVE_ARGS)
{
  TypingForm *f = fx_script_instance_payload (&args[0]);
  const FxValue *key;
  FxSeq *items;
  (void) kwargs;
  (void) data;
  if (n_args != 2 || !f)
    return sc_raise (S, SC_T_TYPE_ERROR, "__getitem__ expects one argument");
  key = &args[1];
  if (key->kind == FX_VALUE_TUPLE)
    items = fx_seq_ref (key->seq);
  else
    {
      items = fx_seq_new (1);
      items->items[0] = fx_value_copy (key);
    }
  switch (f->kind)
    {
    case FORM_OPTIONAL:
      if (items->len != 1)
        {
          fx_seq_unref (items);
          return sc_raise (S, SC_T_TYPE_ERROR, "typing.Optional requires a single type.");
        }
      /* falls through */
    case FORM_UNION:
      {
        FxSeq *members = fx_seq_new (0);
        for (guint i = 0; i < items->len; i++)
          union_add (S, members, &items->items[i]);
        if (f->kind == FORM_OPTIONAL)
          {
            FxValue none = fx_value_none ();
            union_add (S, members, &none);
          }
        fx_seq_unref (items);
        if (members->len == 1)
          {
            *result = fx_value_copy (&members->items[0]);
            fx_seq_unref (members);
            return TRUE;
          }
        if (members->len == 2 && is_none_type (S, &members->items[1]))
          {
            FxSeq *one = fx_seq_new (1);
            one->items[0] = fx_value_copy (&members->items[0]);
            fx_seq_unref (members);
            *result = typing_new ("typing.Optional", fx_value_take_tuple (one), fx_value_none ());
            return TRUE;
          }
        *result = typing_new ("typing.Union", fx_value_take_tuple (members), fx_value_none ());
        return TRUE;
      }
    case FORM_CALLABLE:
      if (items->len == 2 && items->items[0].kind == FX_VALUE_LIST)
        {
          FxValue marker = list_marker (&items->items[0]);
          FxSeq *a = fx_seq_new (2);
          a->items[0] = marker;
          a->items[1] = fx_value_copy (&items->items[1]);
          fx_seq_unref (items);
          items = a;
        }
      /* falls through */
    default:
      {
        FxSeq *a = fx_seq_new (items->len);
        for (guint i = 0; i < items->len; i++)
          a->items[i] = items->items[i].kind == FX_VALUE_ELLIPSIS
                          ? typing_new ("...", fx_value_none (), fx_value_none ())
                          : fx_value_copy (&items->items[i]);
        fx_seq_unref (items);
        *result = typing_new (f->name, fx_value_take_tuple (a), fx_value_copy (&f->origin));
        return TRUE;
      }
    }
}

static FxScriptClass *
form_class (FxScript *S)
{
  static const FxScriptClassInfo info = { "typing", "_SpecialForm", NULL, form_payload_new,
                                          form_payload_free, NULL };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  fx_script_class_add_method (cls, "__repr__", form_repr, NULL);
  fx_script_class_add_method (cls, "__getitem__", form_getitem, NULL);
  fx_script_class_add_method (cls, "__call__", form_call, NULL);
  return cls;
}

static void
add_form (FxScript *S, FxScriptModule *m, FxScriptClass *cls, const char *name, FormKind kind,
          const char *origin)
{
  FxValue inst = fx_script_instance_new (S, cls);
  TypingForm *f = fx_script_instance_payload (&inst);
  if (f)
    {
      f->name = g_strdup_printf ("typing.%s", name);
      f->kind = kind;
      if (origin)
        {
          FxScriptClass *o = fx_script_builtin_class (S, origin);
          if (o)
            f->origin = fx_script_class_value (o);
        }
    }
  fx_script_module_set (m, name, inst);
}

static gboolean
typing_cast (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "typ", "val" };
  const FxValue *v[2];
  (void) data;
  if (!fx_script_parse_args (S, "cast", args, n_args, kwargs, names, 2, 2, 2, v))
    return FALSE;
  *result = fx_value_copy (v[1]);
  return TRUE;
}

static gboolean
typing_typevar (SC_NATIVE_ARGS)
{
  char *name;
  (void) kwargs;
  (void) data;
  if (n_args < 1 || args[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "TypeVar name must be a string");
  name = g_strdup_printf ("~%s", args[0].s->data);
  *result = typing_new (name, fx_value_none (), fx_value_none ());
  g_free (name);
  return TRUE;
}

static gboolean
typing_identity (SC_NATIVE_ARGS)
{
  (void) kwargs;
  (void) data;
  if (n_args != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected one argument, got %d", n_args);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
typing_get_type_hints (SC_NATIVE_ARGS)
{
  FxValue ann;
  int r;
  (void) kwargs;
  (void) data;
  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "get_type_hints() missing required argument 'obj'");
  r = sc_getattr_opt (S, &args[0], sc_n.annotations, &ann);
  if (r < 0)
    return FALSE;
  if (r == 0 || ann.kind != FX_VALUE_DICT)
    {
      fx_value_clear (&ann);
      *result = fx_value_take_dict (fx_dict_new ());
      return TRUE;
    }
  *result = sc_dict_copy (ann.dict);
  fx_value_clear (&ann);
  return TRUE;
}

/* typing.NamedTuple('P', [('x', int), ...]) through collections.namedtuple */
static gboolean
typing_namedtuple (SC_NATIVE_ARGS)
{
  FxValue coll, nt, fieldnames;
  FxSeq *fields, *names;
  FxValue call_args[2];
  gboolean ok;
  (void) data;
  (void) kwargs;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "NamedTuple() takes 2 positional arguments (the class form is not "
                     "supported by fx)");
  if (!sc_collect (S, &args[1], &fields))
    return FALSE;
  names = fx_seq_new (fields->len);
  for (guint i = 0; i < fields->len; i++)
    {
      const FxValue *f = &fields->items[i];
      if ((f->kind != FX_VALUE_TUPLE && f->kind != FX_VALUE_LIST) || f->seq->len != 2)
        {
          fx_seq_unref (fields);
          fx_seq_unref (names);
          return sc_raise (S, SC_T_TYPE_ERROR, "NamedTuple fields must be (name, type) pairs");
        }
      names->items[i] = fx_value_copy (&f->seq->items[0]);
    }
  fx_seq_unref (fields);
  fieldnames = fx_value_take_list (names);
  if (!fx_script_import (S, "collections", &coll))
    {
      fx_value_clear (&fieldnames);
      return FALSE;
    }
  ok = fx_script_getattr (S, &coll, "namedtuple", &nt);
  fx_value_clear (&coll);
  if (!ok)
    {
      fx_value_clear (&fieldnames);
      return FALSE;
    }
  call_args[0] = args[0];
  call_args[1] = fieldnames;
  ok = sc_call (S, &nt, call_args, 2, NULL, 0, result);
  fx_value_clear (&nt);
  fx_value_clear (&fieldnames);
  return ok;
}

/* typing.get_origin / typing.get_args */
static gboolean
typing_get_origin_args (SC_NATIVE_ARGS)
{
  gboolean want_args = GPOINTER_TO_INT (data);
  ScTyping *t;
  if (!sc_mod_nargs (S, want_args ? "get_args" : "get_origin", n_args, kwargs, 1, 1))
    return FALSE;
  if (!want_args && sc_value_instance (&args[0]))
    {
      /* an unsubscripted form: List → list */
      FxValue *gi = sc_type_lookup_c (S, sc_type_of (S, &args[0]), "__getitem__");
      if (gi && sc_is_klass (gi, &sc_native_klass) && ((ScNative *) gi->obj)->func == form_getitem)
        {
          TypingForm *f = fx_script_instance_payload (&args[0]);
          *result = f ? fx_value_copy (&f->origin) : fx_value_none ();
          return TRUE;
        }
    }
  if (!sc_is_klass (&args[0], &sc_typing_klass) || ((ScTyping *) args[0].obj)->args.kind != FX_VALUE_TUPLE)
    {
      *result = want_args ? fx_value_take_tuple (fx_seq_new (0)) : fx_value_none ();
      return TRUE;
    }
  t = (ScTyping *) args[0].obj;
  if (!want_args)
    {
      gboolean is_union = strcmp (t->name->data, "typing.Optional") == 0 || strcmp (t->name->data, "typing.Union") == 0;
      FxValue mod;
      if (t->origin.kind != FX_VALUE_NONE)
        {
          *result = fx_value_copy (&t->origin);
          return TRUE;
        }
      if (!fx_script_import (S, "typing", &mod))
        return FALSE;
      {
        const char *short_name = is_union ? "Union" : strchr (t->name->data, '.') ? strchr (t->name->data, '.') + 1 : "";
        FxValue *f = fx_script_module_lookup ((FxScriptModule *) mod.obj, short_name);
        *result = f ? fx_value_copy (f) : fx_value_none ();
      }
      fx_value_clear (&mod);
      return TRUE;
    }
  {
    FxSeq *out = fx_seq_new (0);
    for (guint i = 0; i < t->args.seq->len; i++)
      {
        const FxValue *a = &t->args.seq->items[i];
        if (sc_is_klass (a, &sc_typing_klass) && ((ScTyping *) a->obj)->name->len == 0)
          {
            ScTyping *marker = (ScTyping *) a->obj;
            FxSeq *l = fx_seq_new (marker->args.seq->len);
            for (guint j = 0; j < l->len; j++)
              l->items[j] = fx_value_copy (&marker->args.seq->items[j]);
            fx_seq_append (out, fx_value_take_list (l));
          }
        else if (sc_is_klass (a, &sc_typing_klass) && strcmp (((ScTyping *) a->obj)->name->data, "...") == 0)
          fx_seq_append (out, fx_value_ellipsis ());
        else if (a->kind == FX_VALUE_NONE)
          fx_seq_append (out, fx_script_class_value (S->types[SC_T_NONE]));
        else
          fx_seq_append (out, fx_value_copy (a));
      }
    if (strcmp (t->name->data, "typing.Optional") == 0)
      fx_seq_append (out, fx_script_class_value (S->types[SC_T_NONE]));
    *result = fx_value_take_tuple (out);
  }
  return TRUE;
}

static gboolean
typing_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  FxScriptClass *cls = form_class (S);
  static const struct { const char *name; FormKind kind; const char *origin; } forms[] = {
    { "List", FORM_GENERIC, "list" }, { "Dict", FORM_GENERIC, "dict" },
    { "Set", FORM_GENERIC, "set" }, { "FrozenSet", FORM_GENERIC, "frozenset" },
    { "Tuple", FORM_TUPLE, "tuple" }, { "Type", FORM_GENERIC, "type" },
    { "Sequence", FORM_GENERIC, NULL }, { "MutableSequence", FORM_GENERIC, NULL },
    { "Mapping", FORM_GENERIC, NULL }, { "MutableMapping", FORM_GENERIC, NULL },
    { "Iterable", FORM_GENERIC, NULL }, { "Iterator", FORM_GENERIC, NULL },
    { "Generator", FORM_GENERIC, NULL }, { "Collection", FORM_GENERIC, NULL },
    { "Container", FORM_GENERIC, NULL }, { "AbstractSet", FORM_GENERIC, NULL },
    { "Deque", FORM_GENERIC, NULL }, { "DefaultDict", FORM_GENERIC, NULL },
    { "OrderedDict", FORM_GENERIC, NULL }, { "Counter", FORM_GENERIC, NULL },
    { "Callable", FORM_CALLABLE, NULL }, { "Optional", FORM_OPTIONAL, NULL },
    { "Union", FORM_UNION, NULL }, { "ClassVar", FORM_PLAIN, NULL }, { "Final", FORM_PLAIN, NULL },
    { "Literal", FORM_PLAIN, NULL }, { "Annotated", FORM_PLAIN, NULL },
    { "Generic", FORM_PLAIN, NULL }, { "Protocol", FORM_PLAIN, NULL },
  };
  (void) user_data;
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    add_form (S, m, cls, forms[i].name, forms[i].kind, forms[i].origin);
  {
    static const char *const plain[] = { "Any", "NoReturn", "Hashable", "Sized",
                                         "SupportsInt", "SupportsFloat", "AnyStr", "Text" };
    for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
      {
        char *name = g_strdup_printf ("typing.%s", plain[i]);
        fx_script_module_set (m, plain[i], typing_new (name, fx_value_none (), fx_value_none ()));
        g_free (name);
      }
  }
  fx_script_module_set (m, "TYPE_CHECKING", fx_value_bool (FALSE));
  sc_mod_set_fn (m, "typing", "cast", typing_cast, NULL);
  sc_mod_set_fn (m, "typing", "TypeVar", typing_typevar, NULL);
  sc_mod_set_fn (m, "typing", "overload", typing_identity, NULL);
  sc_mod_set_fn (m, "typing", "final", typing_identity, NULL);
  sc_mod_set_fn (m, "typing", "no_type_check", typing_identity, NULL);
  sc_mod_set_fn (m, "typing", "runtime_checkable", typing_identity, NULL);
  sc_mod_set_fn (m, "typing", "get_type_hints", typing_get_type_hints, NULL);
  sc_mod_set_fn (m, "typing", "get_origin", typing_get_origin_args, GINT_TO_POINTER (0));
  sc_mod_set_fn (m, "typing", "get_args", typing_get_origin_args, GINT_TO_POINTER (1));
  sc_mod_set_fn (m, "typing", "NamedTuple", typing_namedtuple, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ time */

static gboolean
time_time (SC_NATIVE_ARGS)
{
  (void) data;
  if (!sc_mod_nargs (S, "time", n_args, kwargs, 0, 0))
    return FALSE;
  *result = fx_value_float (g_get_real_time () / 1e6);
  return TRUE;
}

static gboolean
time_time_ns (SC_NATIVE_ARGS)
{
  struct timespec ts;
  (void) data;
  if (!sc_mod_nargs (S, "time_ns", n_args, kwargs, 0, 0))
    return FALSE;
  clock_gettime (CLOCK_REALTIME, &ts);
  *result = fx_value_int ((int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec);
  return TRUE;
}

static gboolean
time_clock (SC_NATIVE_ARGS)
{
  struct timespec ts;
  gboolean ns = GPOINTER_TO_INT (data) & 1;
  clockid_t id = (GPOINTER_TO_INT (data) & 2) ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
  if (!sc_mod_nargs (S, "perf_counter", n_args, kwargs, 0, 0))
    return FALSE;
  clock_gettime (id, &ts);
  if (ns)
    *result = fx_value_int ((int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec);
  else
    *result = fx_value_float (ts.tv_sec + ts.tv_nsec / 1e9);
  return TRUE;
}

static gboolean
time_sleep (SC_NATIVE_ARGS)
{
  double secs;
  (void) data;
  if (!sc_mod_nargs (S, "time.sleep", n_args, kwargs, 1, 1))
    return FALSE;
  if (args[0].kind != FX_VALUE_INT && args[0].kind != FX_VALUE_FLOAT && args[0].kind != FX_VALUE_BOOL)
    return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object cannot be interpreted as an integer",
                     sc_type_name (S, &args[0]));
  if (!sc_mod_to_double (S, &args[0], &secs))
    return FALSE;
  if (isnan (secs))
    return sc_raise (S, SC_T_VALUE_ERROR, "Invalid value NaN (not a number)");
  if (secs < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "sleep length must be non-negative");
  g_usleep ((gulong) (secs * 1e6));
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
time_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  (void) S;
  (void) user_data;
  sc_mod_set_fn (m, "time", "time", time_time, NULL);
  sc_mod_set_fn (m, "time", "time_ns", time_time_ns, NULL);
  sc_mod_set_fn (m, "time", "perf_counter", time_clock, GINT_TO_POINTER (0));
  sc_mod_set_fn (m, "time", "monotonic", time_clock, GINT_TO_POINTER (0));
  sc_mod_set_fn (m, "time", "perf_counter_ns", time_clock, GINT_TO_POINTER (1));
  sc_mod_set_fn (m, "time", "monotonic_ns", time_clock, GINT_TO_POINTER (1));
  sc_mod_set_fn (m, "time", "process_time", time_clock, GINT_TO_POINTER (2));
  sc_mod_set_fn (m, "time", "process_time_ns", time_clock, GINT_TO_POINTER (3));
  sc_mod_set_fn (m, "time", "sleep", time_sleep, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ os, os.path */

static gboolean
str_arg (FxScript *S, const char *fname, const FxValue *v, const char **out)
{
  if (v->kind == FX_VALUE_STR)
    {
      *out = v->s->data;
      return TRUE;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "%s: path should be string, bytes or os.PathLike, not %s", fname,
                   sc_type_name (S, v));
}

static gboolean
path_join (SC_NATIVE_ARGS)
{
  GString *out;
  const char *p = NULL;
  (void) data;
  if (!sc_mod_no_kwargs (S, "join", kwargs))
    return FALSE;
  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "join() missing 1 required positional argument: 'a'");
  out = g_string_new (NULL);
  for (int i = 0; i < n_args; i++)
    {
      if (args[i].kind != FX_VALUE_STR)
        {
          g_string_free (out, TRUE);
          return sc_raise (S, SC_T_TYPE_ERROR, "join() argument must be str, bytes, or os.PathLike object, "
                           "not '%s'", sc_type_name (S, &args[i]));
        }
      p = args[i].s->data;
      if (p[0] == '/')
        g_string_assign (out, p);
      else if (out->len == 0 || out->str[out->len - 1] == '/')
        g_string_append (out, p);
      else
        {
          g_string_append_c (out, '/');
          g_string_append (out, p);
        }
    }
  *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return TRUE;
}

static gboolean
path_split_parts (SC_NATIVE_ARGS)
{
  const char *p = NULL, *slash;
  int which = GPOINTER_TO_INT (data);   /* 0 basename, 1 dirname, 2 split */
  char *head, *tail;
  if (!sc_mod_nargs (S, which == 0 ? "basename" : which == 1 ? "dirname" : "split", n_args, kwargs, 1, 1)
      || !str_arg (S, "path", &args[0], &p))
    return FALSE;
  slash = strrchr (p, '/');
  tail = g_strdup (slash ? slash + 1 : p);
  head = slash ? g_strndup (p, slash - p + 1) : g_strdup ("");
  /* strip trailing slashes from head unless it is all slashes */
  {
    gsize n = strlen (head);
    gboolean all = TRUE;
    for (gsize i = 0; i < n; i++)
      if (head[i] != '/')
        all = FALSE;
    if (!all)
      while (n > 0 && head[n - 1] == '/')
        head[--n] = '\0';
  }
  if (which == 0)
    *result = fx_value_str (tail);
  else if (which == 1)
    *result = fx_value_str (head);
  else
    {
      FxValue items[2] = { fx_value_str (head), fx_value_str (tail) };
      *result = sc_mod_tuple (items, 2);
      fx_value_clear (&items[0]);
      fx_value_clear (&items[1]);
    }
  g_free (head);
  g_free (tail);
  return TRUE;
}

static gboolean
path_splitext (SC_NATIVE_ARGS)
{
  const char *p = NULL, *base, *dot;
  FxValue items[2];
  (void) data;
  if (!sc_mod_nargs (S, "splitext", n_args, kwargs, 1, 1) || !str_arg (S, "splitext", &args[0], &p))
    return FALSE;
  base = strrchr (p, '/');
  base = base ? base + 1 : p;
  while (*base == '.')
    base++;
  dot = strrchr (base, '.');
  if (!dot)
    {
      items[0] = fx_value_str (p);
      items[1] = fx_value_str ("");
    }
  else
    {
      items[0] = fx_value_take_str (fx_str_new_len (p, dot - p));
      items[1] = fx_value_str (dot);
    }
  *result = sc_mod_tuple (items, 2);
  fx_value_clear (&items[0]);
  fx_value_clear (&items[1]);
  return TRUE;
}

static gboolean
path_test (SC_NATIVE_ARGS)
{
  const char *p = NULL;
  GFileTest test = GPOINTER_TO_INT (data);
  if (!sc_mod_nargs (S, "exists", n_args, kwargs, 1, 1))
    return FALSE;
  if (args[0].kind != FX_VALUE_STR)
    {
      *result = fx_value_bool (FALSE);
      return TRUE;
    }
  p = args[0].s->data;
  *result = fx_value_bool (g_file_test (p, test));
  return TRUE;
}

static gboolean
path_isabs (SC_NATIVE_ARGS)
{
  const char *p = NULL;
  (void) data;
  if (!sc_mod_nargs (S, "isabs", n_args, kwargs, 1, 1) || !str_arg (S, "isabs", &args[0], &p))
    return FALSE;
  *result = fx_value_bool (p[0] == '/');
  return TRUE;
}

static gboolean
path_abspath (SC_NATIVE_ARGS)
{
  const char *p = NULL;
  char *abs;
  (void) data;
  if (!sc_mod_nargs (S, "abspath", n_args, kwargs, 1, 1) || !str_arg (S, "abspath", &args[0], &p))
    return FALSE;
  abs = g_canonicalize_filename (p, NULL);
  *result = fx_value_str (abs);
  g_free (abs);
  return TRUE;
}

static gboolean
path_expanduser (SC_NATIVE_ARGS)
{
  const char *p = NULL;
  (void) data;
  if (!sc_mod_nargs (S, "expanduser", n_args, kwargs, 1, 1) || !str_arg (S, "expanduser", &args[0], &p))
    return FALSE;
  if (p[0] == '~' && (p[1] == '/' || p[1] == '\0'))
    {
      char *r = g_strconcat (g_get_home_dir (), p + 1, NULL);
      *result = fx_value_str (r);
      g_free (r);
    }
  else
    *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
os_getenv (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "key", "default" };
  const FxValue *v[2];
  const char *val;
  (void) data;
  if (!fx_script_parse_args (S, "getenv", args, n_args, kwargs, names, 2, 2, 1, v))
    return FALSE;
  if (v[0]->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "str expected, not %s", sc_type_name (S, v[0]));
  val = g_getenv (v[0]->s->data);
  *result = val ? fx_value_str (val) : v[1] ? fx_value_copy (v[1]) : fx_value_none ();
  return TRUE;
}

static gboolean
os_getcwd (SC_NATIVE_ARGS)
{
  char *cwd = g_get_current_dir ();
  (void) data;
  if (!sc_mod_nargs (S, "getcwd", n_args, kwargs, 0, 0))
    {
      g_free (cwd);
      return FALSE;
    }
  *result = fx_value_str (cwd);
  g_free (cwd);
  return TRUE;
}

static gboolean
os_getpid (SC_NATIVE_ARGS)
{
  (void) data;
  if (!sc_mod_nargs (S, "getpid", n_args, kwargs, 0, 0))
    return FALSE;
  *result = fx_value_int (getpid ());
  return TRUE;
}

static gboolean
os_cpu_count (SC_NATIVE_ARGS)
{
  (void) data;
  if (!sc_mod_nargs (S, "cpu_count", n_args, kwargs, 0, 0))
    return FALSE;
  *result = fx_value_int (g_get_num_processors ());
  return TRUE;
}

static gboolean
os_fspath (SC_NATIVE_ARGS)
{
  (void) data;
  if (!sc_mod_nargs (S, "fspath", n_args, kwargs, 1, 1))
    return FALSE;
  if (args[0].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected str, bytes or os.PathLike object, not %s",
                     sc_type_name (S, &args[0]));
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
os_listdir (SC_NATIVE_ARGS)
{
  const char *p = ".";
  GDir *dir;
  GError *error = NULL;
  const char *name;
  FxSeq *out;
  (void) data;
  if (!sc_mod_nargs (S, "listdir", n_args, kwargs, 0, 1) || (n_args == 1 && !str_arg (S, "listdir", &args[0], &p)))
    return FALSE;
  dir = g_dir_open (p, 0, &error);
  if (!dir)
    {
      gboolean r = sc_raise (S, SC_T_FILE_NOT_FOUND_ERROR, "[Errno 2] No such file or directory: '%s'", p);
      g_error_free (error);
      return r;
    }
  out = fx_seq_new (0);
  while ((name = g_dir_read_name (dir)))
    fx_seq_append (out, fx_value_str (name));
  g_dir_close (dir);
  *result = fx_value_take_list (out);
  return TRUE;
}

static gboolean
os_makedirs (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "name", "mode", "exist_ok" };
  const FxValue *v[3];
  const char *p = NULL;
  gboolean exist_ok = FALSE;
  (void) data;
  if (!fx_script_parse_args (S, "makedirs", args, n_args, kwargs, names, 3, 3, 1, v)
      || !str_arg (S, "makedirs", v[0], &p) || (v[2] && !sc_truth (S, v[2], &exist_ok)))
    return FALSE;
  if (g_file_test (p, G_FILE_TEST_EXISTS) && !exist_ok)
    return sc_raise (S, SC_T_FILE_EXISTS_ERROR, "[Errno 17] File exists: '%s'", p);
  if (g_mkdir_with_parents (p, 0777) != 0)
    return sc_raise (S, SC_T_OS_ERROR, "[Errno %d] %s: '%s'", errno, g_strerror (errno), p);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
os_remove (SC_NATIVE_ARGS)
{
  const char *p = NULL;
  (void) data;
  if (!sc_mod_nargs (S, "remove", n_args, kwargs, 1, 1) || !str_arg (S, "remove", &args[0], &p))
    return FALSE;
  if (g_remove (p) != 0)
    {
      int e = errno;
      return sc_raise (S, e == ENOENT ? SC_T_FILE_NOT_FOUND_ERROR : SC_T_OS_ERROR,
                       "[Errno %d] %s: '%s'", e, g_strerror (e), p);
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
os_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  FxScriptModule *path = sc_module_new (S, "posixpath");
  FxDict *env = fx_dict_new ();
  gchar **names = g_listenv ();
  (void) user_data;
  for (int i = 0; names[i]; i++)
    {
      const char *val = g_getenv (names[i]);
      if (val)
        fx_dict_set (env, fx_value_str (names[i]), fx_value_str (val));
    }
  g_strfreev (names);
  fx_script_module_set (m, "environ", fx_value_take_dict (env));
  fx_script_module_set (m, "name", fx_value_str ("posix"));
  fx_script_module_set (m, "sep", fx_value_str ("/"));
  fx_script_module_set (m, "linesep", fx_value_str ("\n"));
  fx_script_module_set (m, "curdir", fx_value_str ("."));
  fx_script_module_set (m, "pardir", fx_value_str (".."));
  sc_mod_set_fn (m, "os", "getenv", os_getenv, NULL);
  sc_mod_set_fn (m, "os", "getcwd", os_getcwd, NULL);
  sc_mod_set_fn (m, "os", "getpid", os_getpid, NULL);
  sc_mod_set_fn (m, "os", "cpu_count", os_cpu_count, NULL);
  sc_mod_set_fn (m, "os", "fspath", os_fspath, NULL);
  sc_mod_set_fn (m, "os", "listdir", os_listdir, NULL);
  sc_mod_set_fn (m, "os", "makedirs", os_makedirs, NULL);
  sc_mod_set_fn (m, "os", "remove", os_remove, NULL);

  fx_script_module_set (path, "sep", fx_value_str ("/"));
  sc_mod_set_fn (path, "posixpath", "join", path_join, NULL);
  sc_mod_set_fn (path, "posixpath", "basename", path_split_parts, GINT_TO_POINTER (0));
  sc_mod_set_fn (path, "posixpath", "dirname", path_split_parts, GINT_TO_POINTER (1));
  sc_mod_set_fn (path, "posixpath", "split", path_split_parts, GINT_TO_POINTER (2));
  sc_mod_set_fn (path, "posixpath", "splitext", path_splitext, NULL);
  sc_mod_set_fn (path, "posixpath", "exists", path_test, GINT_TO_POINTER (G_FILE_TEST_EXISTS));
  sc_mod_set_fn (path, "posixpath", "isfile", path_test, GINT_TO_POINTER (G_FILE_TEST_IS_REGULAR));
  sc_mod_set_fn (path, "posixpath", "isdir", path_test, GINT_TO_POINTER (G_FILE_TEST_IS_DIR));
  sc_mod_set_fn (path, "posixpath", "isabs", path_isabs, NULL);
  sc_mod_set_fn (path, "posixpath", "abspath", path_abspath, NULL);
  sc_mod_set_fn (path, "posixpath", "expanduser", path_expanduser, NULL);
  {
    FxValue pv = fx_value_take_object (&path->base);
    fx_dict_set (S->modules, fx_value_str ("os.path"), fx_value_copy (&pv));
    fx_dict_set (S->modules, fx_value_str ("posixpath"), fx_value_copy (&pv));
    fx_script_module_set (m, "path", pv);
  }
  return TRUE;
}

/* ------------------------------------------------------------------ string */

static gboolean
string_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  (void) S;
  (void) user_data;
  fx_script_module_set (m, "ascii_lowercase", fx_value_str ("abcdefghijklmnopqrstuvwxyz"));
  fx_script_module_set (m, "ascii_uppercase", fx_value_str ("ABCDEFGHIJKLMNOPQRSTUVWXYZ"));
  fx_script_module_set (m, "ascii_letters",
                        fx_value_str ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"));
  fx_script_module_set (m, "digits", fx_value_str ("0123456789"));
  fx_script_module_set (m, "hexdigits", fx_value_str ("0123456789abcdefABCDEF"));
  fx_script_module_set (m, "octdigits", fx_value_str ("01234567"));
  fx_script_module_set (m, "punctuation", fx_value_str ("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"));
  fx_script_module_set (m, "whitespace", fx_value_str (" \t\n\r\x0b\x0c"));
  fx_script_module_set (m, "printable",
                        fx_value_str ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\x0b\x0c"));
  return TRUE;
}

/* ------------------------------------------------------------------ numbers, abc */

/* numbers.Number & co.: isinstance() answers for the builtin numeric types through
 * __instancecheck__ / __subclasscheck__ class methods. */
static gboolean
numbers_check (SC_NATIVE_ARGS)
{
  int level = GPOINTER_TO_INT (data);   /* 0 Number/Complex, 1 Real, 2 Rational/Integral */
  gboolean subclass = level >= 16;
  const FxValue *v;
  FxScriptClass *cls, *self_cls;
  (void) kwargs;
  level &= 15;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument");
  v = &args[1];
  self_cls = sc_value_class (&args[0]);
  cls = subclass ? sc_value_class (v) : fx_script_type_of (S, v);
  if (!cls)
    return sc_raise (S, SC_T_TYPE_ERROR, "issubclass() arg 1 must be a class");
  if (cls == S->types[SC_T_BOOL] || cls == S->types[SC_T_INT])
    *result = fx_value_bool (TRUE);
  else if (cls == S->types[SC_T_FLOAT])
    *result = fx_value_bool (level <= 1);
  else
    *result = fx_value_bool (self_cls && sc_is_subclass (cls, self_cls));
  return TRUE;
}

static gboolean
numbers_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  static const char *const names[] = { "Number", "Complex", "Real", "Rational", "Integral" };
  static const int levels[] = { 0, 0, 1, 2, 2 };
  FxScriptClass *prev = NULL;
  (void) user_data;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      FxScriptClassInfo info = { "numbers", names[i], NULL, NULL, NULL, NULL };
      FxScriptClass *cls = fx_script_class_new (S, &info, prev);
      fx_script_class_add_classmethod (cls, "__instancecheck__", numbers_check, GINT_TO_POINTER (levels[i]));
      fx_script_class_add_classmethod (cls, "__subclasscheck__", numbers_check,
                                       GINT_TO_POINTER (levels[i] | 16));
      fx_script_module_set (m, names[i], fx_script_class_value (cls));
      prev = cls;
    }
  return TRUE;
}

static gboolean
abc_abstractmethod (SC_NATIVE_ARGS)
{
  FxValue t = fx_value_bool (TRUE);
  (void) data;
  if (!sc_mod_nargs (S, "abstractmethod", n_args, kwargs, 1, 1))
    return FALSE;
  /* functions accept the marker; other callables keep working without it */
  if (!fx_script_setattr (S, &args[0], "__isabstractmethod__", &t))
    sc_clear_exc (S);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static int
compare_cstr (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* ABC.__new__: refuses classes that still have abstract methods (names in the MRO whose
 * first definition has a true __isabstractmethod__), as object.__new__ does in CPython. */
static gboolean
abc_new (SC_NATIVE_ARGS)
{
  FxScriptClass *cls = n_args >= 1 ? sc_value_class (&args[0]) : NULL;
  GHashTable *seen;
  GPtrArray *abstract;
  FxValue *object_new;
  (void) kwargs;
  (void) data;
  if (!cls)
    return sc_raise (S, SC_T_TYPE_ERROR, "ABC.__new__(X): X is not a type object");
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  abstract = g_ptr_array_new ();
  for (int i = 0; i < cls->n_mro; i++)
    {
      const FxValue *k, *v;
      for (guint e = 0; fx_dict_entry (cls->mro[i]->dict, e, &k, &v); e++)
        {
          FxValue flag;
          gboolean truth = FALSE;
          int r;
          if (k->kind != FX_VALUE_STR || g_hash_table_contains (seen, k->s->data))
            continue;
          g_hash_table_add (seen, k->s->data);
          if (v->kind != FX_VALUE_OBJECT)
            continue;
          /* properties, staticmethods and classmethods are abstract when their function is */
          if (v->obj->klass == &sc_property_klass)
            v = &((ScProperty *) v->obj)->fget;
          else if (v->obj->klass == &sc_staticmethod_klass || v->obj->klass == &sc_classmethod_klass)
            v = &((ScWrapper *) v->obj)->func;
          if (v->kind != FX_VALUE_OBJECT || (v->obj->klass != &sc_function_klass
                                             && v->obj->klass != &sc_instance_klass))
            continue;
          r = sc_getattr_opt (S, v, sc_intern_cstr ("__isabstractmethod__"), &flag);
          if (r < 0)
            sc_clear_exc (S);
          if (r > 0)
            {
              if (!sc_truth (S, &flag, &truth))
                sc_clear_exc (S);
              fx_value_clear (&flag);
            }
          if (truth)
            g_ptr_array_add (abstract, k->s->data);
        }
    }
  g_hash_table_unref (seen);
  if (abstract->len)
    {
      GString *names = g_string_new (NULL);
      g_ptr_array_sort (abstract, compare_cstr);
      for (guint i = 0; i < abstract->len; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "", (const char *) abstract->pdata[i]);
      sc_raise (S, SC_T_TYPE_ERROR, "Can't instantiate abstract class %s with abstract method%s %s",
                cls->name->data, abstract->len > 1 ? "s" : "", names->str);
      g_string_free (names, TRUE);
      g_ptr_array_unref (abstract);
      return FALSE;
    }
  g_ptr_array_unref (abstract);
  object_new = sc_dict_get_str (S->types[SC_T_OBJECT]->dict, sc_n.new);
  if (!object_new)
    return sc_raise (S, SC_T_TYPE_ERROR, "object.__new__ is missing");
  return sc_call (S, object_new, args, 1, NULL, 0, result);
}

static gboolean
abc_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  static const FxScriptClassInfo info = { "abc", "ABC", NULL, NULL, NULL, NULL };
  FxScriptClass *abc = fx_script_class_new (S, &info, NULL);
  (void) user_data;
  {
    /* a staticmethod, as instance creation (call.c) honours a __new__ of that kind */
    ScWrapper *w = g_new0 (ScWrapper, 1);
    fx_object_init (&w->base, &sc_staticmethod_klass);
    w->func = sc_native_new ("ABC", "__new__", SC_NATIVE_STATIC, abc_new, NULL, NULL);
    sc_dict_set_str (abc->dict, "__new__", fx_value_take_object (&w->base));
  }
  fx_script_module_set (m, "ABC", fx_script_class_value (abc));
  fx_script_module_set (m, "ABCMeta", fx_script_class_value (S->types[SC_T_TYPE]));
  sc_mod_set_fn (m, "abc", "abstractmethod", abc_abstractmethod, NULL);
  sc_mod_set_fn (m, "abc", "abstractproperty", abc_abstractmethod, NULL);
  return TRUE;
}

void
sc_mod_typing_register (FxScript *S)
{
  fx_script_register_module (S, "typing", typing_init, NULL, NULL);
}

void
sc_mod_misc_register (FxScript *S)
{
  fx_script_register_module (S, "time", time_init, NULL, NULL);
  fx_script_register_module (S, "os", os_init, NULL, NULL);
  fx_script_register_module (S, "string", string_init, NULL, NULL);
  fx_script_register_module (S, "numbers", numbers_init, NULL, NULL);
  fx_script_register_module (S, "abc", abc_init, NULL, NULL);
}
