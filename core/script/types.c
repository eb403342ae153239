/* types.c: the builtin class objects (object, type, int, str, ..., torch.Tensor) with
 * CPython's names, modules, bases and flags, object's default special methods, and the
 * order in which the rest of the interpreter's builtins are installed. */
#include "script/internal.h"
#include "trace/trace.h"

#include <string.h>

static const struct {
  int id;
  const char *name;
  const char *module;
  int base;
  ScClassFlags flags;
} type_table[] = {
  /* object first (no base), then every base before its subclasses */
  { SC_T_OBJECT, "object", NULL, -1, 0 },
  { SC_T_TYPE, "type", NULL, SC_T_OBJECT, 0 },
  { SC_T_NONE, "NoneType", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_INT, "int", NULL, SC_T_OBJECT, 0 },
  { SC_T_BOOL, "bool", NULL, SC_T_INT, SC_CLASS_FINAL },
  { SC_T_FLOAT, "float", NULL, SC_T_OBJECT, 0 },
  { SC_T_STR, "str", NULL, SC_T_OBJECT, 0 },
  { SC_T_TUPLE, "tuple", NULL, SC_T_OBJECT, 0 },
  { SC_T_LIST, "list", NULL, SC_T_OBJECT, 0 },
  { SC_T_DICT, "dict", NULL, SC_T_OBJECT, 0 },
  { SC_T_SLICE, "slice", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_ELLIPSIS, "ellipsis", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_DTYPE, "dtype", "torch", SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_DEVICE, "device", "torch", SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_TENSOR, "Tensor", "torch", SC_T_OBJECT, 0 },
  { SC_T_NODE, "Node", "torch.fx.node", SC_T_OBJECT, 0 },
  { SC_T_OP, "builtin_function_or_method", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_FUNCTION, "function", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_BUILTIN, "builtin_function_or_method", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_METHOD, "method", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_MODULE, "module", NULL, SC_T_OBJECT, 0 },
  { SC_T_CELL, "cell", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_PROPERTY, "property", NULL, SC_T_OBJECT, 0 },
  { SC_T_STATICMETHOD, "staticmethod", NULL, SC_T_OBJECT, 0 },
  { SC_T_CLASSMETHOD, "classmethod", NULL, SC_T_OBJECT, 0 },
  { SC_T_SUPER, "super", NULL, SC_T_OBJECT, 0 },
  { SC_T_RANGE, "range", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_SET, "set", NULL, SC_T_OBJECT, 0 },
  { SC_T_FROZENSET, "frozenset", NULL, SC_T_OBJECT, 0 },
  { SC_T_ITERATOR, "iterator", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_GENERATOR, "generator", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_DICT_KEYS, "dict_keys", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_DICT_VALUES, "dict_values", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_DICT_ITEMS, "dict_items", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_NOTIMPLEMENTED, "NotImplementedType", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_FOREIGN, "object", NULL, SC_T_OBJECT, SC_CLASS_FINAL },
  { SC_T_ENUMERATE, "enumerate", NULL, SC_T_OBJECT, 0 },
  { SC_T_ZIP, "zip", NULL, SC_T_OBJECT, 0 },
  { SC_T_MAP, "map", NULL, SC_T_OBJECT, 0 },
  { SC_T_FILTER, "filter", NULL, SC_T_OBJECT, 0 },
  { SC_T_REVERSED, "reversed", NULL, SC_T_OBJECT, 0 },
  { SC_T_PARTIAL, "partial", "functools", SC_T_OBJECT, 0 },
  { SC_T_TYPING, "_GenericAlias", "typing", SC_T_OBJECT, SC_CLASS_FINAL },
};

/* The builtins that are classes, by their builtins name. */
static const int builtin_type_names[] = {
  SC_T_OBJECT, SC_T_TYPE, SC_T_BOOL, SC_T_INT, SC_T_FLOAT, SC_T_STR, SC_T_TUPLE, SC_T_LIST,
  SC_T_DICT, SC_T_SLICE, SC_T_PROPERTY, SC_T_STATICMETHOD, SC_T_CLASSMETHOD, SC_T_SUPER,
  SC_T_RANGE, SC_T_SET, SC_T_FROZENSET, SC_T_ENUMERATE, SC_T_ZIP, SC_T_MAP, SC_T_FILTER,
  SC_T_REVERSED,
};

/* ------------------------------------------------------------------ object's methods */

static gboolean
no_keywords (FxScript *S, FxDict *kwargs, const char *what)
{
  if (kwargs && fx_dict_len (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "%s takes no keyword arguments", what);
  return TRUE;
}

static gboolean
object_init (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) data;
  if (n < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor '__init__' of 'object' object needs an argument");
  if (n > 1 || (kwargs && fx_dict_len (kwargs)))
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "object.__init__() takes exactly one argument (the instance to initialize)");
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
object_new (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxScriptClass *cls;
  (void) data;
  if (n < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "object.__new__(): not enough arguments");
  cls = sc_value_class (&args[0]);
  if (cls == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "object.__new__(X): X is not a type object (%s)",
                     sc_type_name (S, &args[0]));
  if ((cls->flags & SC_CLASS_BUILTIN) && cls->type_id != SC_T_OBJECT
      && !(cls->flags & SC_CLASS_EXCEPTION))
    return sc_raise (S, SC_T_TYPE_ERROR, "object.__new__(%s) is not safe, use %s.__new__()",
                     cls->name->data, cls->name->data);
  if ((n > 1 || (kwargs && fx_dict_len (kwargs))) && !(cls->flags & SC_CLASS_EXCEPTION))
    return sc_raise (S, SC_T_TYPE_ERROR,
                     "object.__new__() takes exactly one argument (the type to instantiate)");
  *result = sc_instance_new (S, cls);
  return TRUE;
}

static gboolean
object_repr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxScriptClass *t;
  const void *addr;
  (void) data;
  if (n != 1 || !no_keywords (S, kwargs, "__repr__()"))
    return n != 1 ? sc_raise (S, SC_T_TYPE_ERROR, "expected 0 arguments, got %d", n - 1) : FALSE;
  t = sc_type_of (S, &args[0]);
  addr = args[0].kind == FX_VALUE_OBJECT ? (const void *) args[0].obj : (const void *) &args[0];
  {
    g_autofree char *s = strcmp (t->module->data, "builtins") == 0
                           ? g_strdup_printf ("<%s object at %p>", t->qualname->data, addr)
                           : g_strdup_printf ("<%s.%s object at %p>", t->module->data,
                                              t->qualname->data, addr);
    *result = fx_value_str (s);
  }
  return TRUE;
}

static gboolean
object_str (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  GString *s;
  (void) data;
  (void) kwargs;
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 0 arguments, got %d", n - 1);
  s = g_string_new (NULL);
  if (!sc_repr (S, &args[0], s))
    {
      g_string_free (s, TRUE);
      return FALSE;
    }
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
object_eq (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) data;
  (void) kwargs;
  if (n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument, got %d", n - 1);
  if (args[0].kind == FX_VALUE_OBJECT && args[1].kind == FX_VALUE_OBJECT && args[0].obj == args[1].obj)
    *result = fx_value_bool (TRUE);
  else
    *result = sc_notimpl (S);
  return TRUE;
}

static gboolean
object_ne (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxValue r;
  gboolean truth;
  int got;
  (void) data;
  (void) kwargs;
  if (n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument, got %d", n - 1);
  got = sc_call_special (S, &args[0], "__eq__", &args[1], 1, &r);
  if (got < 0)
    return FALSE;
  if (got == 0 || sc_is_notimpl (S, &r))
    {
      if (got)
        fx_value_clear (&r);
      *result = sc_notimpl (S);
      return TRUE;
    }
  if (!sc_truth (S, &r, &truth))
    {
      fx_value_clear (&r);
      return FALSE;
    }
  fx_value_clear (&r);
  *result = fx_value_bool (!truth);
  return TRUE;
}

static gboolean
object_hash (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  (void) data;
  (void) kwargs;
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 0 arguments, got %d", n - 1);
  if (args[0].kind == FX_VALUE_OBJECT)
    /* CPython: the address rotated by 4 bits */
    *result = fx_value_int ((int64_t) (((guintptr) args[0].obj >> 4) | ((guintptr) args[0].obj << 60)));
  else
    {
      gint64 h;
      if (!sc_hash (S, &args[0], &h))
        return FALSE;
      *result = fx_value_int (h);
    }
  return TRUE;
}

static FxStr *
attr_name_arg (FxScript *S, const FxValue *v)
{
  if (v->kind != FX_VALUE_STR)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "attribute name must be string, not '%s'", sc_type_name (S, v));
      return NULL;
    }
  return sc_intern (v->s->data, v->s->len);
}

static gboolean
object_getattribute (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                     gpointer data)
{
  FxStr *name;
  (void) data;
  (void) kwargs;
  if (n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument, got %d", n - 1);
  if (!(name = attr_name_arg (S, &args[1])))
    return FALSE;
  return sc_generic_getattr (S, &args[0], name, result, TRUE);
}

static gboolean
object_setattr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  FxStr *name;
  (void) data;
  (void) kwargs;
  if (n != 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 2 arguments, got %d", n - 1);
  if (!(name = attr_name_arg (S, &args[1])))
    return FALSE;
  *result = fx_value_none ();
  return sc_generic_setattr (S, &args[0], name, &args[2]);
}

static gboolean
object_delattr (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  FxStr *name;
  (void) data;
  (void) kwargs;
  if (n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 1 argument, got %d", n - 1);
  if (!(name = attr_name_arg (S, &args[1])))
    return FALSE;
  *result = fx_value_none ();
  return sc_generic_delattr (S, &args[0], name);
}

static gboolean
object_init_subclass (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                      gpointer data)
{
  (void) data;
  (void) n;
  if (kwargs && fx_dict_len (kwargs))
    {
      FxScriptClass *cls = n > 0 ? sc_value_class (&args[0]) : NULL;
      return sc_raise (S, SC_T_TYPE_ERROR, "%s.__init_subclass__() takes no keyword arguments",
                       cls ? cls->name->data : "object");
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
object_format (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
               gpointer data)
{
  GString *s;
  (void) data;
  (void) kwargs;
  if (n != 2 || args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "format_spec must be a str");
  if (args[1].s->len)
    return sc_raise (S, SC_T_TYPE_ERROR, "unsupported format string passed to %s.__format__",
                     sc_type_name (S, &args[0]));
  s = g_string_new (NULL);
  if (!sc_str (S, &args[0], s))
    {
      g_string_free (s, TRUE);
      return FALSE;
    }
  *result = fx_value_take_str (fx_str_new_len (s->str, s->len));
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
object_dir (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxSeq *seq;
  (void) data;
  (void) kwargs;
  if (n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 0 arguments, got %d", n - 1);
  if (!sc_dir (S, &args[0], &seq))
    return FALSE;
  *result = fx_value_take_list (seq);
  return TRUE;
}

/* ------------------------------------------------------------------ type's methods */

static gboolean
type_mro (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result, gpointer data)
{
  FxScriptClass *cls = n == 1 ? sc_value_class (&args[0]) : NULL;
  FxSeq *seq;
  (void) data;
  (void) kwargs;
  if (cls == NULL)
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor 'mro' of 'type' object needs an argument");
  seq = fx_seq_new (cls->n_mro);
  for (int i = 0; i < cls->n_mro; i++)
    seq->items[i] = sc_class_value (cls->mro[i]);
  *result = fx_value_take_list (seq);
  return TRUE;
}

/* type(x) and type(name, bases, dict); builtins.c may install a fuller one. */
static gboolean
type_construct (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *result,
                gpointer data)
{
  (void) data;
  if (n == 1 && !(kwargs && fx_dict_len (kwargs)))
    {
      *result = sc_class_value (sc_type_of (S, &args[0]));
      return TRUE;
    }
  if (n == 3)
    {
      FxScriptClass **bases;
      FxDict *ns;
      FxValue key;
      gboolean ok;
      if (args[0].kind != FX_VALUE_STR)
        return sc_raise (S, SC_T_TYPE_ERROR, "type.__new__() argument 1 must be str, not %s",
                         sc_type_name (S, &args[0]));
      if (args[1].kind != FX_VALUE_TUPLE)
        return sc_raise (S, SC_T_TYPE_ERROR, "type.__new__() argument 2 must be tuple, not %s",
                         sc_type_name (S, &args[1]));
      if (args[2].kind != FX_VALUE_DICT)
        return sc_raise (S, SC_T_TYPE_ERROR, "type.__new__() argument 3 must be dict, not %s",
                         sc_type_name (S, &args[2]));
      bases = g_new0 (FxScriptClass *, args[1].seq->len + 1);
      for (guint i = 0; i < args[1].seq->len; i++)
        if (!(bases[i] = sc_value_class (&args[1].seq->items[i])))
          {
            g_free (bases);
            return sc_raise (S, SC_T_TYPE_ERROR, "bases must be types");
          }
      {
        /* the class owns a copy of the namespace, with __module__ from the caller */
        FxValue copy = sc_dict_copy (args[2].dict);
        ns = copy.dict;
        key = sc_str_value (sc_n.module);
        if (!fx_dict_get (ns, &key) && S->frame)
          {
            FxValue *mn = sc_dict_get_str (S->frame->globals, sc_n.name);
            if (mn)
              fx_dict_set (ns, fx_value_copy (&key), fx_value_copy (mn));
          }
        fx_value_clear (&key);
        ok = sc_build_class (S, result, sc_intern (args[0].s->data, args[0].s->len), bases,
                             (int) args[1].seq->len, ns, kwargs);
        fx_value_clear (&copy);
      }
      g_free (bases);
      return ok;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "type() takes 1 or 3 arguments");
}

/* ------------------------------------------------------------------ function attributes */

static ScFunction *
function_arg (FxScript *S, const FxValue *args, int n)
{
  if (n < 1 || !sc_is_klass (&args[0], &sc_function_klass))
    {
      sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a 'function' object");
      return NULL;
    }
  return (ScFunction *) args[0].obj;
}

static gboolean
set_str_field (FxScript *S, FxStr **field, const FxValue *v, const char *what)
{
  if (v->kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s must be set to a string object", what);
  fx_str_unref (*field);
  *field = fx_str_ref (v->s);
  return TRUE;
}

#define FUNC_GETSET(NAME, GET, SET)                                                              \
  static gboolean                                                                                \
  func_get_##NAME (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result,         \
                   gpointer data)                                                                \
  {                                                                                              \
    ScFunction *f = function_arg (S, args, n);                                                   \
    (void) kw;                                                                                   \
    (void) data;                                                                                 \
    if (!f)                                                                                      \
      return FALSE;                                                                              \
    GET;                                                                                         \
    return TRUE;                                                                                 \
  }                                                                                              \
  static gboolean                                                                                \
  func_set_##NAME (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result,         \
                   gpointer data)                                                                \
  {                                                                                              \
    ScFunction *f = function_arg (S, args, n);                                                   \
    const FxValue *value = n > 1 ? &args[1] : NULL;                                              \
    (void) kw;                                                                                   \
    (void) data;                                                                                 \
    *result = fx_value_none ();                                                                  \
    if (!f || !value)                                                                            \
      return f ? sc_raise (S, SC_T_TYPE_ERROR, "can't delete function attribute") : FALSE;       \
    SET;                                                                                         \
  }

FUNC_GETSET (name, *result = sc_str_value (f->name),
             return set_str_field (S, &f->name, value, "__name__"))
FUNC_GETSET (qualname, *result = sc_str_value (f->qualname),
             return set_str_field (S, &f->qualname, value, "__qualname__"))
FUNC_GETSET (module, *result = fx_value_copy (&f->module),
             fx_value_clear (&f->module); f->module = fx_value_copy (value); return TRUE)
FUNC_GETSET (doc, *result = fx_value_copy (&f->doc),
             fx_value_clear (&f->doc); f->doc = fx_value_copy (value); return TRUE)

static gboolean
func_get_defaults (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  FxSeq *t;
  (void) kw;
  (void) data;
  if (!f)
    return FALSE;
  if (f->n_defaults == 0)
    {
      *result = fx_value_none ();
      return TRUE;
    }
  t = fx_seq_new (f->n_defaults);
  for (int i = 0; i < f->n_defaults; i++)
    t->items[i] = fx_value_copy (&f->defaults[i]);
  *result = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
func_set_defaults (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  const FxValue *v = n > 1 ? &args[1] : NULL;
  int count;
  (void) kw;
  (void) data;
  *result = fx_value_none ();
  if (!f)
    return FALSE;
  if (!v || (v->kind != FX_VALUE_NONE && v->kind != FX_VALUE_TUPLE))
    return sc_raise (S, SC_T_TYPE_ERROR, "__defaults__ must be set to a tuple object");
  count = v->kind == FX_VALUE_TUPLE ? (int) v->seq->len : 0;
  if (count > f->code->n_pos)
    return sc_raise (S, SC_T_NOT_IMPLEMENTED_ERROR,
                     "more __defaults__ than positional parameters is not supported by fx");
  for (int i = 0; i < f->n_defaults; i++)
    fx_value_clear (&f->defaults[i]);
  g_free (f->defaults);
  f->defaults = count ? g_new (FxValue, count) : NULL;
  for (int i = 0; i < count; i++)
    f->defaults[i] = fx_value_copy (&v->seq->items[i]);
  f->n_defaults = count;
  return TRUE;
}

static gboolean
func_get_kwdefaults (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  FxDict *d = NULL;
  (void) kw;
  (void) data;
  if (!f)
    return FALSE;
  for (int i = 0; f->kwdefaults && i < f->code->n_kwonly; i++)
    if (!sc_is_unbound (&f->kwdefaults[i]))
      {
        if (!d)
          d = fx_dict_new ();
        fx_dict_set (d, sc_str_value (f->code->params[f->code->n_pos + i].id),
                     fx_value_copy (&f->kwdefaults[i]));
      }
  *result = d ? fx_value_take_dict (d) : fx_value_none ();
  return TRUE;
}

static gboolean
func_get_globals (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  (void) kw;
  (void) data;
  if (!f)
    return FALSE;
  *result = fx_value_take_dict (fx_dict_ref (f->globals));
  return TRUE;
}

static gboolean
func_get_closure (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  FxSeq *t;
  (void) kw;
  (void) data;
  if (!f)
    return FALSE;
  if (f->n_closure == 0)
    {
      *result = fx_value_none ();
      return TRUE;
    }
  t = fx_seq_new (f->n_closure);
  for (int i = 0; i < f->n_closure; i++)
    t->items[i] = fx_value_take_object (fx_object_ref (&f->closure[i]->base));
  *result = fx_value_take_tuple (t);
  return TRUE;
}

static gboolean
func_get_annotations (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result,
                      gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  (void) kw;
  (void) data;
  if (!f)
    return FALSE;
  if (!f->annotations)
    f->annotations = fx_dict_new ();
  *result = fx_value_take_dict (fx_dict_ref (f->annotations));
  return TRUE;
}

static gboolean
func_set_annotations (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result,
                      gpointer data)
{
  ScFunction *f = function_arg (S, args, n);
  (void) kw;
  (void) data;
  *result = fx_value_none ();
  if (!f)
    return FALSE;
  if (n < 2 || args[1].kind != FX_VALUE_DICT)
    return sc_raise (S, SC_T_TYPE_ERROR, "__annotations__ must be set to a dict object");
  if (f->annotations)
    fx_dict_unref (f->annotations);
  f->annotations = fx_dict_ref (args[1].dict);
  return TRUE;
}

static gboolean
native_attr (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  const char *what = data;
  ScNative *nat;
  (void) kw;
  if (n < 1 || !sc_is_klass (&args[0], &sc_native_klass))
    {
      /* bound natives are ScMethod values typed builtin_function_or_method */
      if (n >= 1 && sc_is_klass (&args[0], &sc_method_klass))
        {
          ScMethod *m = (ScMethod *) args[0].obj;
          if (strcmp (what, "__self__") == 0)
            {
              *result = fx_value_copy (&m->self);
              return TRUE;
            }
          return sc_getattr (S, &m->func, sc_intern_cstr (what), result);
        }
      return sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a builtin function");
    }
  nat = (ScNative *) args[0].obj;
  if (strcmp (what, "__name__") == 0 || strcmp (what, "__qualname__") == 0)
    *result = sc_str_value (nat->name);
  else if (strcmp (what, "__module__") == 0)
    *result = nat->owner && nat->kind == SC_NATIVE_FUNCTION ? sc_str_value (nat->owner) : fx_value_none ();
  else
    *result = fx_value_none ();   /* __self__ of a module function, __doc__ */
  return TRUE;
}

static gboolean
method_attr (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  const char *what = data;
  ScMethod *m;
  (void) kw;
  if (n < 1 || !sc_is_klass (&args[0], &sc_method_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a method");
  m = (ScMethod *) args[0].obj;
  if (strcmp (what, "__self__") == 0)
    *result = fx_value_copy (&m->self);
  else
    *result = fx_value_copy (&m->func);
  return TRUE;
}

/* Other attributes of a bound method are its function's (m.__name__, m.__doc__, ...). */
static gboolean
method_getattr (FxScript *S, const FxValue *args, int n, FxDict *kw, FxValue *result, gpointer data)
{
  (void) kw;
  (void) data;
  if (n != 2 || !sc_is_klass (&args[0], &sc_method_klass) || args[1].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a method");
  return sc_getattr (S, &((ScMethod *) args[0].obj)->func,
                     sc_intern (args[1].s->data, args[1].s->len), result);
}

static void
add_data_property (FxScriptClass *cls, const char *name, FxScriptFunc get, gpointer data)
{
  ScProperty *p = g_new0 (ScProperty, 1);
  fx_object_init (&p->base, &sc_property_klass);
  p->fget = sc_native_new (cls->name->data, name, SC_NATIVE_FUNCTION, get, data, NULL);
  p->fset = fx_value_none ();
  p->fdel = fx_value_none ();
  p->doc = fx_value_none ();
  p->name = fx_str_ref (sc_intern_cstr (name));
  sc_dict_set_str (cls->dict, name, fx_value_take_object (&p->base));
}

static void
function_type_init (FxScript *S)
{
  static const char *const native_names[] = { "__name__", "__qualname__", "__module__", "__self__",
                                              "__doc__" };
  FxScriptClass *meth = S->types[SC_T_METHOD], *fn = S->types[SC_T_FUNCTION];
  for (guint i = 0; i < G_N_ELEMENTS (native_names); i++)
    add_data_property (S->types[SC_T_BUILTIN], native_names[i], native_attr, (gpointer) native_names[i]);
  add_data_property (meth, "__self__", method_attr, (gpointer) "__self__");
  add_data_property (meth, "__func__", method_attr, (gpointer) "__func__");
  sc_add_native (meth->dict, "method", "__getattr__", SC_NATIVE_METHOD, method_getattr, NULL);
  sc_add_property (fn, "__name__", func_get_name, func_set_name);
  sc_add_property (fn, "__qualname__", func_get_qualname, func_set_qualname);
  sc_add_property (fn, "__module__", func_get_module, func_set_module);
  sc_add_property (fn, "__doc__", func_get_doc, func_set_doc);
  sc_add_property (fn, "__defaults__", func_get_defaults, func_set_defaults);
  sc_add_property (fn, "__kwdefaults__", func_get_kwdefaults, NULL);
  sc_add_property (fn, "__globals__", func_get_globals, NULL);
  sc_add_property (fn, "__closure__", func_get_closure, NULL);
  sc_add_property (fn, "__annotations__", func_get_annotations, func_set_annotations);
}

/* ------------------------------------------------------------------ setup */

void
sc_types_init (FxScript *S)
{
  FxScriptClass *object;
  FxObject *ni;

  for (guint i = 0; i < G_N_ELEMENTS (type_table); i++)
    {
      FxScriptClass *cls = sc_builtin_class (S, type_table[i].id, type_table[i].name,
                                             type_table[i].base, type_table[i].flags);
      if (type_table[i].module)
        {
          fx_str_unref (cls->module);
          cls->module = fx_str_new (type_table[i].module);
        }
    }

  object = S->types[SC_T_OBJECT];
  sc_add_native (object->dict, "object", "__init__", SC_NATIVE_METHOD, object_init, NULL);
  sc_add_native (object->dict, "object", "__new__", SC_NATIVE_STATIC, object_new, NULL);
  sc_add_native (object->dict, "object", "__repr__", SC_NATIVE_METHOD, object_repr, NULL);
  sc_add_native (object->dict, "object", "__str__", SC_NATIVE_METHOD, object_str, NULL);
  sc_add_native (object->dict, "object", "__eq__", SC_NATIVE_METHOD, object_eq, NULL);
  sc_add_native (object->dict, "object", "__ne__", SC_NATIVE_METHOD, object_ne, NULL);
  sc_add_native (object->dict, "object", "__hash__", SC_NATIVE_METHOD, object_hash, NULL);
  sc_add_native (object->dict, "object", "__getattribute__", SC_NATIVE_METHOD, object_getattribute, NULL);
  sc_add_native (object->dict, "object", "__setattr__", SC_NATIVE_METHOD, object_setattr, NULL);
  sc_add_native (object->dict, "object", "__delattr__", SC_NATIVE_METHOD, object_delattr, NULL);
  sc_add_native (object->dict, "object", "__init_subclass__", SC_NATIVE_CLASSMETHOD,
                 object_init_subclass, NULL);
  sc_add_native (object->dict, "object", "__format__", SC_NATIVE_METHOD, object_format, NULL);
  sc_add_native (object->dict, "object", "__dir__", SC_NATIVE_METHOD, object_dir, NULL);

  sc_add_native (S->types[SC_T_TYPE]->dict, "type", "mro", SC_NATIVE_METHOD, type_mro, NULL);
  S->types[SC_T_TYPE]->construct = type_construct;
  function_type_init (S);
  sc_generator_methods_init (S);   /* call.c */

  /* NotImplemented: a singleton without payload */
  ni = g_new0 (FxObject, 1);
  fx_object_init (ni, &sc_notimpl_klass);
  S->none_notimpl = fx_value_take_object (ni);

  sc_exc_types_init (S);

  /* classes reachable by name before builtins.c adds the functions */
  for (guint i = 0; i < G_N_ELEMENTS (builtin_type_names); i++)
    {
      FxScriptClass *cls = S->types[builtin_type_names[i]];
      sc_dict_set_str (S->builtins, cls->name->data, sc_class_value (cls));
    }
  for (int id = SC_T_BASE_EXCEPTION; id < SC_T_N; id++)
    sc_dict_set_str (S->builtins, S->types[id]->name->data, sc_class_value (S->types[id]));
  sc_dict_set_str (S->builtins, "None", fx_value_none ());
  sc_dict_set_str (S->builtins, "True", fx_value_bool (TRUE));
  sc_dict_set_str (S->builtins, "False", fx_value_bool (FALSE));
  sc_dict_set_str (S->builtins, "Ellipsis", fx_value_ellipsis ());
  sc_dict_set_str (S->builtins, "NotImplemented", fx_value_copy (&S->none_notimpl));
  sc_dict_set_str (S->builtins, "__debug__", fx_value_bool (TRUE));
  sc_dict_set_str (S->builtins, "EnvironmentError", sc_class_value (S->types[SC_T_OS_ERROR]));
  sc_dict_set_str (S->builtins, "IOError", sc_class_value (S->types[SC_T_OS_ERROR]));

  sc_builtins_init (S);
  sc_str_methods_init (S);
  sc_container_methods_init (S);
  sc_modules_init (S);
  sc_torch_init (S);
  sc_nn_init (S);
  sc_fx_ir_init (S);            /* torch.fx's Graph, Node, GraphModule (fx-ir.c) */
  fx_trace_register_modules (S); /* torch.fx itself (core/trace/) */
  sc_type_modified (S);
}

void
sc_types_clear (FxScript *S)
{
  /* class dicts hold natives only, but break any cycle an embedder made through them */
  for (int i = SC_T_N - 1; i >= 0; i--)
    if (S->types[i])
      {
        FxScriptClass *cls = S->types[i];
        S->types[i] = NULL;
        fx_object_unref (&cls->base);
      }
  fx_value_clear (&S->none_notimpl);
}
