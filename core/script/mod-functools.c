/* mod-functools.c: `functools` (partial, reduce, wraps/update_wrapper, lru_cache/cache as
 * pass-through decorators, cmp_to_key, total_ordering) and `itertools` (lazy iterators). */
#include <string.h>
#include "script/mod.h"

/* ------------------------------------------------------------------ functools.partial */

static gboolean
partial_construct (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                   gpointer data)
{
  ScPartial *p;
  const FxValue *func;
  (void) data;
  if (n_args < 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "type 'partial' takes at least one argument");
  func = &args[0];
  if (!sc_callable (S, func))
    return sc_raise (S, SC_T_TYPE_ERROR, "the first argument must be callable");
  p = g_new0 (ScPartial, 1);
  fx_object_init (&p->base, &sc_partial_klass);
  if (sc_is_klass (func, &sc_partial_klass))
    {
      /* partial(partial(f, a), b) flattens to partial(f, a, b) */
      ScPartial *inner = (ScPartial *) func->obj;
      p->func = fx_value_copy (&inner->func);
      p->n_args = inner->n_args + n_args - 1;
      p->args = g_new0 (FxValue, p->n_args + 1);
      for (int i = 0; i < inner->n_args; i++)
        p->args[i] = fx_value_copy (&inner->args[i]);
      for (int i = 1; i < n_args; i++)
        p->args[inner->n_args + i - 1] = fx_value_copy (&args[i]);
      if (inner->kwargs)
        p->kwargs = sc_dict_copy (inner->kwargs).dict;
    }
  else
    {
      p->func = fx_value_copy (func);
      p->n_args = n_args - 1;
      p->args = g_new0 (FxValue, n_args);
      for (int i = 1; i < n_args; i++)
        p->args[i - 1] = fx_value_copy (&args[i]);
    }
  if (kwargs && fx_dict_len (kwargs))
    {
      const FxValue *k, *v;
      if (!p->kwargs)
        p->kwargs = fx_dict_new ();
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
        fx_dict_set (p->kwargs, fx_value_copy (k), fx_value_copy (v));
    }
  *result = fx_value_take_object (&p->base);
  return TRUE;
}

static ScPartial *
partial_self (FxScript *S, const FxValue *args, int n_args)
{
  if (n_args < 1 || !sc_is_klass (&args[0], &sc_partial_klass))
    {
      sc_raise (S, SC_T_TYPE_ERROR, "descriptor needs a 'functools.partial' object");
      return NULL;
    }
  return (ScPartial *) args[0].obj;
}

static gboolean
partial_get_func (SC_NATIVE_ARGS)
{
  ScPartial *p = partial_self (S, args, n_args);
  (void) kwargs;
  (void) data;
  if (!p)
    return FALSE;
  *result = fx_value_copy (&p->func);
  return TRUE;
}

static gboolean
partial_get_args (SC_NATIVE_ARGS)
{
  ScPartial *p = partial_self (S, args, n_args);
  (void) kwargs;
  (void) data;
  if (!p)
    return FALSE;
  *result = sc_mod_tuple (p->args, p->n_args);
  return TRUE;
}

static gboolean
partial_get_keywords (SC_NATIVE_ARGS)
{
  ScPartial *p = partial_self (S, args, n_args);
  (void) kwargs;
  (void) data;
  if (!p)
    return FALSE;
  *result = p->kwargs ? sc_dict_copy (p->kwargs) : fx_value_take_dict (fx_dict_new ());
  return TRUE;
}

/* ------------------------------------------------------------------ reduce, wraps */

typedef struct {
  const FxValue *func;
  FxValue acc;
  gboolean has;
} ReduceState;

static gboolean
reduce_step (FxScript *S, const FxValue *item, gpointer user_data)
{
  ReduceState *st = user_data;
  FxValue r;
  if (!st->has)
    {
      st->acc = fx_value_copy (item);
      st->has = TRUE;
      return TRUE;
    }
  if (!sc_call2 (S, st->func, &st->acc, item, &r))
    return FALSE;
  fx_value_clear (&st->acc);
  st->acc = r;
  return TRUE;
}

static gboolean
functools_reduce (SC_NATIVE_ARGS)
{
  ReduceState st = { NULL, { .kind = FX_VALUE_NONE }, FALSE };
  (void) data;
  if (!sc_mod_no_kwargs (S, "reduce", kwargs))
    return FALSE;
  if (n_args < 2 || n_args > 3)
    return sc_raise (S, SC_T_TYPE_ERROR, "reduce expected at %s %d arguments, got %d", n_args < 2 ? "least" : "most",
                     n_args < 2 ? 2 : 3, n_args);
  st.func = &args[0];
  if (n_args == 3)
    {
      st.acc = fx_value_copy (&args[2]);
      st.has = TRUE;
    }
  if (!fx_script_iterate (S, &args[1], reduce_step, &st))
    {
      if (sc_matches (S, SC_T_TYPE_ERROR) && st.acc.kind == FX_VALUE_NONE && !st.has)
        {
          /* "reduce() arg 2 must support iteration" */
        }
      fx_value_clear (&st.acc);
      return FALSE;
    }
  if (!st.has)
    return sc_raise (S, SC_T_TYPE_ERROR, "reduce() of empty iterable with no initial value");
  *result = st.acc;
  return TRUE;
}

static const char *const wrapper_assignments[] = { "__module__", "__name__", "__qualname__", "__doc__" };

static gboolean
update_wrapper_impl (FxScript *S, const FxValue *wrapper, const FxValue *wrapped)
{
  for (guint i = 0; i < G_N_ELEMENTS (wrapper_assignments); i++)
    {
      FxValue v;
      if (!fx_script_lookup_attr (S, wrapped, wrapper_assignments[i], &v))
        {
          if (fx_script_exception_pending (S))
            return FALSE;
          continue;
        }
      if (!fx_script_setattr (S, wrapper, wrapper_assignments[i], &v))
        {
          fx_value_clear (&v);
          return FALSE;
        }
      fx_value_clear (&v);
    }
  {
    FxValue d;
    if (fx_script_lookup_attr (S, wrapped, "__dict__", &d))
      {
        FxValue wd;
        if (d.kind == FX_VALUE_DICT && fx_script_lookup_attr (S, wrapper, "__dict__", &wd))
          {
            const FxValue *k, *v;
            if (wd.kind == FX_VALUE_DICT)
              for (guint i = 0; fx_dict_entry (d.dict, i, &k, &v); i++)
                fx_dict_set (wd.dict, fx_value_copy (k), fx_value_copy (v));
            fx_value_clear (&wd);
          }
        fx_value_clear (&d);
      }
    if (fx_script_exception_pending (S))
      sc_clear_exc (S);
  }
  return fx_script_setattr (S, wrapper, "__wrapped__", wrapped);
}

static gboolean
functools_update_wrapper (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "wrapper", "wrapped", "assigned", "updated" };
  const FxValue *v[4];
  (void) data;
  if (!fx_script_parse_args (S, "update_wrapper", args, n_args, kwargs, names, 4, 4, 2, v))
    return FALSE;
  if (!update_wrapper_impl (S, v[0], v[1]))
    return FALSE;
  *result = fx_value_copy (v[0]);
  return TRUE;
}

static void
value_free (gpointer p)
{
  FxValue *v = p;
  fx_value_clear (v);
  g_free (v);
}

static gboolean
wraps_apply (SC_NATIVE_ARGS)
{
  const FxValue *wrapped = data;
  if (!sc_mod_nargs (S, "wraps", n_args, kwargs, 1, 1))
    return FALSE;
  if (!update_wrapper_impl (S, &args[0], wrapped))
    return FALSE;
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
functools_wraps (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "wrapped", "assigned", "updated" };
  const FxValue *v[3];
  FxValue *keep;
  (void) data;
  if (!fx_script_parse_args (S, "wraps", args, n_args, kwargs, names, 3, 3, 1, v))
    return FALSE;
  keep = g_new (FxValue, 1);
  *keep = fx_value_copy (v[0]);
  *result = fx_script_function_new ("functools", "update_wrapper", wraps_apply, keep, value_free);
  return TRUE;
}

/* lru_cache / cache: a Python wrapper (run from source once per interpreter, in the private
 * module _functools_lru) keeping results in a dict ordered by use, with cache_info(),
 * cache_clear() and __wrapped__. */
static const char lru_source[] =
  "_mark = object()\n"
  "_info_type = None\n"
  "def _lru_cache_wrapper(user_function, maxsize, typed):\n"
  "    cache = {}\n"
  "    stats = [0, 0]\n"
  "    def make_key(args, kwds):\n"
  "        key = args\n"
  "        if kwds:\n"
  "            key += (_mark,)\n"
  "            for item in kwds.items():\n"
  "                key += item\n"
  "        if typed:\n"
  "            key += tuple(type(v) for v in args)\n"
  "            if kwds:\n"
  "                key += tuple(type(v) for v in kwds.values())\n"
  "        return key\n"
  "    def wrapper(*args, **kwds):\n"
  "        if maxsize == 0:\n"
  "            stats[1] += 1\n"
  "            return user_function(*args, **kwds)\n"
  "        key = make_key(args, kwds)\n"
  "        if key in cache:\n"
  "            stats[0] += 1\n"
  "            result = cache.pop(key)\n"
  "            cache[key] = result\n"
  "            return result\n"
  "        stats[1] += 1\n"
  "        result = user_function(*args, **kwds)\n"
  "        if key not in cache:\n"
  "            if maxsize is not None and len(cache) >= maxsize:\n"
  "                del cache[next(iter(cache))]\n"
  "            cache[key] = result\n"
  "        return result\n"
  "    def cache_info():\n"
  "        global _info_type\n"
  "        if _info_type is None:\n"
  "            from collections import namedtuple\n"
  "            _info_type = namedtuple('CacheInfo', ['hits', 'misses', 'maxsize', 'currsize'])\n"
  "        return _info_type(stats[0], stats[1], maxsize, len(cache))\n"
  "    def cache_clear():\n"
  "        cache.clear()\n"
  "        stats[0] = stats[1] = 0\n"
  "    def cache_parameters():\n"
  "        return {'maxsize': maxsize, 'typed': typed}\n"
  "    for name in ('__module__', '__name__', '__qualname__', '__doc__'):\n"
  "        try:\n"
  "            setattr(wrapper, name, getattr(user_function, name))\n"
  "        except AttributeError:\n"
  "            pass\n"
  "    try:\n"
  "        wrapper.__dict__.update(user_function.__dict__)\n"
  "    except AttributeError:\n"
  "        pass\n"
  "    wrapper.__wrapped__ = user_function\n"
  "    wrapper.cache_info = cache_info\n"
  "    wrapper.cache_clear = cache_clear\n"
  "    wrapper.cache_parameters = cache_parameters\n"
  "    return wrapper\n"
  "def _lru_decorator(maxsize, typed):\n"
  "    def decorating_function(user_function):\n"
  "        return _lru_cache_wrapper(user_function, maxsize, typed)\n"
  "    return decorating_function\n";

/* The Python helper `name` of _functools_lru (borrowed), run first if needed. */
static FxValue *
lru_helper (FxScript *S, const char *name)
{
  FxValue *mv = sc_dict_get_str (S->modules, sc_intern_cstr ("_functools_lru"));
  FxValue *f;
  if (!mv || !sc_is_klass (mv, &sc_module_klass))
    {
      if (!fx_script_run_string (S, lru_source, "<functools>", "_functools_lru"))
        return NULL;
      mv = sc_dict_get_str (S->modules, sc_intern_cstr ("_functools_lru"));
      if (!mv || !sc_is_klass (mv, &sc_module_klass))
        {
          sc_raise (S, SC_T_IMPORT_ERROR, "functools: lru_cache helpers are missing");
          return NULL;
        }
    }
  f = sc_dict_get_str (((FxScriptModule *) mv->obj)->dict, sc_intern_cstr (name));
  if (!f)
    sc_raise (S, SC_T_IMPORT_ERROR, "functools: lru_cache helper %s is missing", name);
  return f;
}

static gboolean
lru_call (FxScript *S, const char *helper, const FxValue *args, int n, FxValue *result)
{
  FxValue *f = lru_helper (S, helper);
  if (!f)
    return FALSE;
  return sc_call (S, f, args, n, NULL, 0, result);
}

static gboolean
functools_lru_cache (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "maxsize", "typed" };
  const FxValue *v[2];
  FxValue call[3];
  (void) data;
  if (!fx_script_parse_args (S, "lru_cache", args, n_args, kwargs, names, 2, 2, 0, v))
    return FALSE;
  call[1] = v[1] ? *v[1] : fx_value_bool (FALSE);
  if (v[0] && sc_callable (S, v[0]) && v[0]->kind != FX_VALUE_INT)
    {
      call[0] = *v[0];
      call[1] = fx_value_int (128);
      call[2] = v[1] ? *v[1] : fx_value_bool (FALSE);
      return lru_call (S, "_lru_cache_wrapper", call, 3, result);
    }
  if (v[0] && v[0]->kind != FX_VALUE_NONE && v[0]->kind != FX_VALUE_INT && v[0]->kind != FX_VALUE_BOOL)
    return sc_raise (S, SC_T_TYPE_ERROR, "Expected first argument to be an integer, a callable, or None");
  call[0] = !v[0] ? fx_value_int (128)
            : v[0]->kind == FX_VALUE_NONE ? fx_value_none ()
            : fx_value_int (MAX (0, v[0]->kind == FX_VALUE_BOOL ? (int64_t) v[0]->b : v[0]->i));
  return lru_call (S, "_lru_decorator", call, 2, result);
}

static gboolean
functools_cache (SC_NATIVE_ARGS)
{
  FxValue call[3];
  (void) data;
  if (!sc_mod_nargs (S, "cache", n_args, kwargs, 1, 1))
    return FALSE;
  call[0] = args[0];
  call[1] = fx_value_none ();
  call[2] = fx_value_bool (FALSE);
  return lru_call (S, "_lru_cache_wrapper", call, 3, result);
}

/* ------------------------------------------------------------------ cmp_to_key */

typedef struct {
  FxValue obj, cmp;
} KeyWrapper;

static gpointer
key_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  KeyWrapper *k = g_new0 (KeyWrapper, 1);
  (void) S;
  (void) cls;
  (void) class_data;
  return k;
}

static void
key_payload_free (gpointer p)
{
  KeyWrapper *k = p;
  fx_value_clear (&k->obj);
  fx_value_clear (&k->cmp);
  g_free (k);
}

static gboolean
key_compare (SC_NATIVE_ARGS)
{
  int which = GPOINTER_TO_INT (data);   /* ScCmpOp */
  KeyWrapper *a, *b;
  FxValue r, zero = fx_value_int (0);
  gboolean ok;
  (void) kwargs;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "comparison expects 1 argument");
  a = fx_script_instance_payload (&args[0]);
  b = fx_script_instance_payload (&args[1]);
  if (!a || !b || sc_type_of (S, &args[0]) != sc_type_of (S, &args[1]))
    return sc_raise (S, SC_T_TYPE_ERROR, "other argument must be K instance");
  if (!sc_call2 (S, &a->cmp, &a->obj, &b->obj, &r))
    return FALSE;
  ok = sc_compare (S, (ScCmpOp) which, &r, &zero, result);
  fx_value_clear (&r);
  return ok;
}

static gboolean
cmp_key_make (SC_NATIVE_ARGS)
{
  FxScriptClass *cls = data;
  KeyWrapper *k;
  FxValue *cmp;
  if (!sc_mod_nargs (S, "K", n_args, kwargs, 1, 1))
    return FALSE;
  cmp = sc_type_lookup_c (S, cls, "_cmp");
  *result = fx_script_instance_new (S, cls);
  k = fx_script_instance_payload (result);
  k->obj = fx_value_copy (&args[0]);
  k->cmp = cmp ? fx_value_copy (cmp) : fx_value_none ();
  return TRUE;
}

static gboolean
functools_cmp_to_key (SC_NATIVE_ARGS)
{
  static const FxScriptClassInfo info = { "functools", "KeyWrapper", NULL, key_payload_new, key_payload_free, NULL };
  static const struct { const char *name; ScCmpOp op; } cmps[] = {
    { "__lt__", SC_CMP_LT }, { "__le__", SC_CMP_LE }, { "__gt__", SC_CMP_GT }, { "__ge__", SC_CMP_GE },
    { "__eq__", SC_CMP_EQ }, { "__ne__", SC_CMP_NE },
  };
  FxScriptClass *cls;
  (void) data;
  if (!sc_mod_nargs (S, "cmp_to_key", n_args, kwargs, 1, 1))
    return FALSE;
  cls = fx_script_class_new (S, &info, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cmps); i++)
    fx_script_class_add_method (cls, cmps[i].name, key_compare, GINT_TO_POINTER (cmps[i].op));
  fx_script_class_set_attr (cls, "__hash__", fx_value_none ());
  fx_script_class_set_attr (cls, "_cmp", fx_value_copy (&args[0]));
  *result = fx_script_function_new ("functools", "K", cmp_key_make, cls, NULL);
  return TRUE;
}

/* ------------------------------------------------------------------ total_ordering */

/* the derived comparison `target` from the class's `root` (one of < <= > >=) and == */
static gboolean
ordering_derived (SC_NATIVE_ARGS)
{
  int code = GPOINTER_TO_INT (data);
  ScCmpOp root = code >> 4, target = code & 15;
  FxValue r, eq;
  gboolean rv, ev;
  static const char *const root_names[] = { [SC_CMP_LT] = "__lt__", [SC_CMP_LE] = "__le__",
                                            [SC_CMP_GT] = "__gt__", [SC_CMP_GE] = "__ge__" };
  (void) kwargs;
  if (n_args != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "comparison expects 1 argument");
  if (!fx_script_call_method (S, &args[0], root_names[root], &args[1], 1, NULL, &r))
    return FALSE;
  if (sc_is_notimpl (S, &r))
    {
      *result = r;
      return TRUE;
    }
  if (!sc_truth (S, &r, &rv))
    {
      fx_value_clear (&r);
      return FALSE;
    }
  fx_value_clear (&r);
  if (!sc_compare (S, SC_CMP_EQ, &args[0], &args[1], &eq) || !sc_truth (S, &eq, &ev))
    return FALSE;
  fx_value_clear (&eq);
  /* express everything as "a < b" (lt) and "a == b" (ev) */
  {
    gboolean lt, gt;
    switch (root)
      {
      case SC_CMP_LT: lt = rv; gt = !rv && !ev; break;
      case SC_CMP_LE: lt = rv && !ev; gt = !rv; break;
      case SC_CMP_GT: gt = rv; lt = !rv && !ev; break;
      default: gt = rv && !ev; lt = !rv; break;
      }
    switch (target)
      {
      case SC_CMP_LT: *result = fx_value_bool (lt); break;
      case SC_CMP_LE: *result = fx_value_bool (lt || ev); break;
      case SC_CMP_GT: *result = fx_value_bool (gt); break;
      default: *result = fx_value_bool (gt || ev); break;
      }
  }
  return TRUE;
}

static gboolean
functools_total_ordering (SC_NATIVE_ARGS)
{
  static const struct { const char *name; ScCmpOp op; } ops[] = {
    { "__lt__", SC_CMP_LT }, { "__le__", SC_CMP_LE }, { "__gt__", SC_CMP_GT }, { "__ge__", SC_CMP_GE },
  };
  FxScriptClass *cls;
  FxValue *objs[4];
  int root = -1;
  (void) data;
  if (!sc_mod_nargs (S, "total_ordering", n_args, kwargs, 1, 1))
    return FALSE;
  cls = sc_value_class (&args[0]);
  if (!cls)
    return sc_raise (S, SC_T_TYPE_ERROR, "total_ordering needs a class");
  for (int i = 0; i < 4; i++)
    {
      FxValue *m = sc_type_lookup_c (S, cls, ops[i].name);
      FxValue *om = sc_type_lookup_c (S, S->types[SC_T_OBJECT], ops[i].name);
      objs[i] = m && !(om && m->kind == FX_VALUE_OBJECT && om->kind == FX_VALUE_OBJECT && m->obj == om->obj) ? m
                                                                                                          : NULL;
      if (objs[i] && root < 0)
        root = i;
    }
  if (root < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "must define at least one ordering operation: < > <= >=");
  for (int i = 0; i < 4; i++)
    if (!objs[i])
      {
        FxValue fn = sc_native_new (cls->name->data, ops[i].name, SC_NATIVE_METHOD, ordering_derived,
                                    GINT_TO_POINTER ((ops[root].op << 4) | ops[i].op), NULL);
        sc_dict_set_str (cls->dict, ops[i].name, fn);
      }
  sc_type_modified (S);
  *result = fx_value_copy (&args[0]);
  return TRUE;
}

/* ------------------------------------------------------------------ cached_property */

typedef struct {
  FxValue func;
  FxStr *name;
} CachedProperty;

static gpointer
cached_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  CachedProperty *c = g_new0 (CachedProperty, 1);
  (void) S;
  (void) cls;
  (void) class_data;
  c->func = fx_value_none ();
  return c;
}

static void
cached_payload_free (gpointer p)
{
  CachedProperty *c = p;
  fx_value_clear (&c->func);
  if (c->name)
    fx_str_unref (c->name);
  g_free (c);
}

static gboolean
cached_init (SC_NATIVE_ARGS)
{
  CachedProperty *c = n_args > 0 ? fx_script_instance_payload (&args[0]) : NULL;
  (void) data;
  if (!c || !sc_mod_nargs (S, "cached_property", n_args - 1, kwargs, 1, 1))
    return c ? FALSE : sc_raise (S, SC_T_TYPE_ERROR, "cached_property needs a function");
  fx_value_clear (&c->func);
  c->func = fx_value_copy (&args[1]);
  if (sc_is_klass (&args[1], &sc_function_klass))
    c->name = fx_str_ref (((ScFunction *) args[1].obj)->name);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
cached_set_name (SC_NATIVE_ARGS)
{
  CachedProperty *c = n_args > 0 ? fx_script_instance_payload (&args[0]) : NULL;
  (void) data;
  (void) kwargs;
  if (!c || n_args != 3 || args[2].kind != FX_VALUE_STR)
    return sc_raise (S, SC_T_TYPE_ERROR, "__set_name__ expects (owner, name)");
  if (c->name)
    fx_str_unref (c->name);
  c->name = fx_str_ref (args[2].s);
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
cached_get (SC_NATIVE_ARGS)
{
  CachedProperty *c = n_args > 0 ? fx_script_instance_payload (&args[0]) : NULL;
  FxDict *d;
  FxValue *hit;
  (void) data;
  (void) kwargs;
  if (!c || n_args < 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "__get__ expects an instance");
  if (args[1].kind == FX_VALUE_NONE)
    {
      *result = fx_value_copy (&args[0]);
      return TRUE;
    }
  if (!c->name)
    return sc_raise (S, SC_T_TYPE_ERROR, "Cannot use cached_property instance without calling __set_name__ on it.");
  d = fx_script_instance_dict (&args[1]);
  if (!d)
    return sc_raise (S, SC_T_TYPE_ERROR, "No '__dict__' attribute on '%s' instance to cache '%s' property.",
                     sc_type_name (S, &args[1]), c->name->data);
  hit = sc_dict_get_str (d, c->name);
  if (hit)
    {
      *result = fx_value_copy (hit);
      return TRUE;
    }
  if (!sc_call1 (S, &c->func, &args[1], result))
    return FALSE;
  fx_dict_set (d, sc_str_value (c->name), fx_value_copy (result));
  return TRUE;
}

static gboolean
functools_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  FxScriptClass *pc = S->types[SC_T_PARTIAL];
  (void) user_data;
  if (pc)
    {
      if (!pc->construct)
        pc->construct = partial_construct;
      if (!sc_dict_get_str (pc->dict, sc_n.s_args))
        {
          sc_add_property (pc, "func", partial_get_func, NULL);
          sc_add_property (pc, "args", partial_get_args, NULL);
          sc_add_property (pc, "keywords", partial_get_keywords, NULL);
        }
      fx_script_module_set (m, "partial", fx_script_class_value (pc));
    }
  else
    sc_mod_set_fn (m, "functools", "partial", partial_construct, NULL);
  sc_mod_set_fn (m, "functools", "reduce", functools_reduce, NULL);
  sc_mod_set_fn (m, "functools", "update_wrapper", functools_update_wrapper, NULL);
  sc_mod_set_fn (m, "functools", "wraps", functools_wraps, NULL);
  sc_mod_set_fn (m, "functools", "lru_cache", functools_lru_cache, NULL);
  sc_mod_set_fn (m, "functools", "cache", functools_cache, NULL);
  sc_mod_set_fn (m, "functools", "cmp_to_key", functools_cmp_to_key, NULL);
  sc_mod_set_fn (m, "functools", "total_ordering", functools_total_ordering, NULL);
  {
    static const FxScriptClassInfo info = { "functools", "cached_property", NULL, cached_payload_new,
                                            cached_payload_free, NULL };
    FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
    fx_script_class_add_method (cls, "__init__", cached_init, NULL);
    fx_script_class_add_method (cls, "__set_name__", cached_set_name, NULL);
    fx_script_class_add_method (cls, "__get__", cached_get, NULL);
    fx_script_module_set (m, "cached_property", fx_script_class_value (cls));
  }
  {
    FxSeq *a = fx_seq_new (G_N_ELEMENTS (wrapper_assignments));
    for (guint i = 0; i < G_N_ELEMENTS (wrapper_assignments); i++)
      a->items[i] = fx_value_str (wrapper_assignments[i]);
    fx_script_module_set (m, "WRAPPER_ASSIGNMENTS", fx_value_take_tuple (a));
  }
  return TRUE;
}

void
sc_mod_functools_register (FxScript *S)
{
  fx_script_register_module (S, "functools", functools_init, NULL, NULL);
}

/* ------------------------------------------------------------------ itertools */

/* Each iterator keeps its state in an ItState hung on ScIterObj.gen (type SC_T_ITERATOR, so the
 * generator machinery never looks at it). */
typedef struct {
  ScIter *its;          /* the source iterators */
  int n_its;
  FxSeq *pools;         /* product / combinations / permutations: the pools as tuples */
  int64_t *idx;         /* indices */
  int64_t *cycles;
  int64_t n_idx;
  int64_t a, b, c, pos; /* islice start/stop/step, counters */
  FxValue v0, v1;       /* count: current, step; repeat: object; accumulate: total, initial */
  FxSeq *saved;         /* cycle */
  gboolean first, done;
} ItState;

static void
itstate_free (gpointer p)
{
  ItState *st = p;
  for (int i = 0; i < st->n_its; i++)
    sc_iter_clear (&st->its[i]);
  g_free (st->its);
  if (st->pools)
    fx_seq_unref (st->pools);
  if (st->saved)
    fx_seq_unref (st->saved);
  g_free (st->idx);
  g_free (st->cycles);
  fx_value_clear (&st->v0);
  fx_value_clear (&st->v1);
  g_free (st);
}

static FxValue
it_new (FxScript *S, ScIterNextFunc next, ItState **out)
{
  FxValue v = sc_iterobj_new (S, SC_T_ITERATOR, next);
  ScIterObj *o = (ScIterObj *) v.obj;
  ItState *st = g_new0 (ItState, 1);
  st->first = TRUE;
  o->gen = st;
  o->gen_free = itstate_free;
  *out = st;
  return v;
}

static gboolean
it_sources (FxScript *S, ItState *st, const FxValue *iterables, int n)
{
  st->its = g_new0 (ScIter, n + 1);
  for (int i = 0; i < n; i++)
    {
      if (!sc_iter_init (S, &iterables[i], &st->its[i]))
        {
          st->n_its = i;
          return FALSE;
        }
      st->n_its = i + 1;
    }
  return TRUE;
}

#define IT_STATE() ItState *st = it->gen

/* count(start=0, step=1) */
static int
count_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  FxValue nv;
  IT_STATE ();
  *out = fx_value_copy (&st->v0);
  if (!sc_binary (S, SC_BIN_ADD, &st->v0, &st->v1, &nv, FALSE))
    {
      fx_value_clear (out);
      return -1;
    }
  fx_value_clear (&st->v0);
  st->v0 = nv;
  return 1;
}

static gboolean
it_count (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "start", "step" };
  const FxValue *v[2];
  ItState *st;
  (void) data;
  if (!fx_script_parse_args (S, "count", args, n_args, kwargs, names, 2, 2, 0, v))
    return FALSE;
  *result = it_new (S, count_next, &st);
  st->v0 = v[0] ? fx_value_copy (v[0]) : fx_value_int (0);
  st->v1 = v[1] ? fx_value_copy (v[1]) : fx_value_int (1);
  return TRUE;
}

/* repeat(object[, times]) */
static int
repeat_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  (void) S;
  if (st->a >= 0 && st->pos >= st->a)
    return 0;
  st->pos++;
  *out = fx_value_copy (&st->v0);
  return 1;
}

static gboolean
it_repeat (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "object", "times" };
  const FxValue *v[2];
  ItState *st;
  int64_t times = -1;
  (void) data;
  if (!fx_script_parse_args (S, "repeat", args, n_args, kwargs, names, 2, 2, 1, v))
    return FALSE;
  if (v[1] && !sc_mod_to_index (S, v[1], &times))
    return FALSE;
  *result = it_new (S, repeat_next, &st);
  st->v0 = fx_value_copy (v[0]);
  st->a = v[1] ? MAX (times, 0) : -1;
  return TRUE;
}

/* cycle(iterable) */
static int
cycle_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  if (!st->done)
    {
      int r = sc_iter_next (S, &st->its[0], out);
      if (r != 0)
        {
          if (r > 0)
            fx_seq_append (st->saved, fx_value_copy (out));
          return r;
        }
      st->done = TRUE;
    }
  if (st->saved->len == 0)
    return 0;
  *out = fx_value_copy (&st->saved->items[st->pos % st->saved->len]);
  st->pos++;
  return 1;
}

static gboolean
it_cycle (SC_NATIVE_ARGS)
{
  ItState *st;
  (void) data;
  if (!sc_mod_nargs (S, "cycle", n_args, kwargs, 1, 1))
    return FALSE;
  *result = it_new (S, cycle_next, &st);
  st->saved = fx_seq_new (0);
  if (!it_sources (S, st, args, 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* chain(*iterables) / chain.from_iterable(iterable): its[0] walks the iterables, its[1] the
 * current one */
static int
chain_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  for (;;)
    {
      if (st->n_its == 2)
        {
          int r = sc_iter_next (S, &st->its[1], out);
          if (r != 0)
            return r;
          sc_iter_clear (&st->its[1]);
          st->n_its = 1;
        }
      {
        FxValue next;
        int r = sc_iter_next (S, &st->its[0], &next);
        gboolean ok;
        if (r <= 0)
          return r;
        ok = sc_iter_init (S, &next, &st->its[1]);
        fx_value_clear (&next);
        if (!ok)
          return -1;
        st->n_its = 2;
      }
    }
}

static gboolean
chain_of (FxScript *S, const FxValue *outer, FxValue *result)
{
  ItState *st;
  *result = it_new (S, chain_next, &st);
  st->its = g_new0 (ScIter, 2);
  if (!sc_iter_init (S, outer, &st->its[0]))
    {
      fx_value_clear (result);
      return FALSE;
    }
  st->n_its = 1;
  return TRUE;
}

static gboolean
it_chain (SC_NATIVE_ARGS)
{
  FxValue t;
  gboolean ok;
  (void) data;
  if (!sc_mod_no_kwargs (S, "chain", kwargs))
    return FALSE;
  t = sc_mod_tuple (args, n_args);
  ok = chain_of (S, &t, result);
  fx_value_clear (&t);
  return ok;
}

static gboolean
it_chain_from_iterable (SC_NATIVE_ARGS)
{
  (void) data;
  /* a class method: args[0] is the class */
  if (!sc_mod_nargs (S, "from_iterable", n_args - 1, kwargs, 1, 1))
    return FALSE;
  return chain_of (S, &args[1], result);
}

/* islice(iterable, stop) / islice(iterable, start, stop[, step]) */
static int
islice_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  FxValue skip;
  if (st->done)
    return 0;
  while (st->pos < st->a)
    {
      int r = sc_iter_next (S, &st->its[0], &skip);
      if (r <= 0)
        {
          st->done = TRUE;
          return r;
        }
      fx_value_clear (&skip);
      st->pos++;
    }
  if (st->b >= 0 && st->pos >= st->b)
    {
      st->done = TRUE;
      return 0;
    }
  {
    int r = sc_iter_next (S, &st->its[0], out);
    if (r <= 0)
      {
        st->done = TRUE;
        return r;
      }
  }
  st->pos++;
  st->a += st->c;
  if (st->b >= 0 && st->a > st->b)
    st->a = st->b;
  return 1;
}

static gboolean
slice_arg (FxScript *S, const FxValue *v, int64_t dflt, int64_t *out, const char *what)
{
  if (v->kind == FX_VALUE_NONE)
    {
      *out = dflt;
      return TRUE;
    }
  if ((v->kind != FX_VALUE_INT && v->kind != FX_VALUE_BOOL) || (v->kind == FX_VALUE_INT && v->i < 0))
    return sc_raise (S, SC_T_VALUE_ERROR, "%s for islice() must be None or an integer: 0 <= x <= sys.maxsize.",
                     what);
  *out = v->kind == FX_VALUE_INT ? v->i : v->b;
  return TRUE;
}

static gboolean
it_islice (SC_NATIVE_ARGS)
{
  ItState *st;
  int64_t start = 0, stop = -1, step = 1;
  (void) data;
  if (!sc_mod_no_kwargs (S, "islice", kwargs))
    return FALSE;
  if (n_args < 2 || n_args > 4)
    return sc_raise (S, SC_T_TYPE_ERROR, "islice expected at %s %d arguments, got %d",
                     n_args < 2 ? "least" : "most", n_args < 2 ? 2 : 4, n_args);
  if (n_args == 2)
    {
      if (!slice_arg (S, &args[1], -1, &stop, "Stop argument"))
        return FALSE;
    }
  else
    {
      if (!slice_arg (S, &args[1], 0, &start, "Indices") || !slice_arg (S, &args[2], -1, &stop, "Stop argument"))
        return FALSE;
      if (n_args == 4)
        {
          if (!slice_arg (S, &args[3], 1, &step, "Step"))
            return FALSE;
          if (step == 0)
            return sc_raise (S, SC_T_VALUE_ERROR, "Step for islice() must be a positive integer or None.");
        }
    }
  *result = it_new (S, islice_next, &st);
  st->a = stop >= 0 ? MIN (start, stop) : start;
  st->b = stop;
  st->c = step;
  if (!it_sources (S, st, args, 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* zip_longest(*iterables, fillvalue=None): pos = number of sources still running */
static int
zip_longest_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  FxSeq *t;
  if (st->done || st->n_its == 0)
    return 0;
  t = fx_seq_new (st->n_its);
  for (int i = 0; i < st->n_its; i++)
    {
      int r;
      if (st->idx[i])
        {
          t->items[i] = fx_value_copy (&st->v0);
          continue;
        }
      r = sc_iter_next (S, &st->its[i], &t->items[i]);
      if (r < 0)
        {
          t->items[i] = fx_value_none ();
          fx_seq_unref (t);
          return -1;
        }
      if (r == 0)
        {
          st->idx[i] = 1;
          st->pos--;
          if (st->pos == 0)
            {
              st->done = TRUE;
              t->items[i] = fx_value_none ();
              fx_seq_unref (t);
              return 0;
            }
          t->items[i] = fx_value_copy (&st->v0);
        }
    }
  *out = fx_value_take_tuple (t);
  return 1;
}

static gboolean
it_zip_longest (SC_NATIVE_ARGS)
{
  ItState *st;
  FxValue *fill = NULL;
  (void) data;
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
        {
          if (strcmp (k->s->data, "fillvalue") != 0)
            return sc_raise (S, SC_T_TYPE_ERROR, "zip_longest() got an unexpected keyword argument '%s'", k->s->data);
          fill = (FxValue *) v;
        }
    }
  *result = it_new (S, zip_longest_next, &st);
  st->v0 = fill ? fx_value_copy (fill) : fx_value_none ();
  st->idx = g_new0 (int64_t, n_args + 1);
  st->pos = n_args;
  if (!it_sources (S, st, args, n_args))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* accumulate(iterable, func=None, *, initial=None) */
static int
accumulate_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  FxValue x, nv;
  int r;
  if (st->first)
    {
      st->first = FALSE;
      if (st->v1.kind != FX_VALUE_NONE)
        {
          st->v0 = fx_value_copy (&st->v1);
          st->a = 1;
          *out = fx_value_copy (&st->v0);
          return 1;
        }
    }
  r = sc_iter_next (S, &st->its[0], &x);
  if (r <= 0)
    return r;
  if (!st->a)
    {
      st->a = 1;
      st->v0 = x;
      *out = fx_value_copy (&x);
      return 1;
    }
  if (it->func.kind == FX_VALUE_NONE ? !sc_binary (S, SC_BIN_ADD, &st->v0, &x, &nv, FALSE)
                                     : !sc_call2 (S, &it->func, &st->v0, &x, &nv))
    {
      fx_value_clear (&x);
      return -1;
    }
  fx_value_clear (&x);
  fx_value_clear (&st->v0);
  st->v0 = nv;
  *out = fx_value_copy (&nv);
  return 1;
}

static gboolean
it_accumulate (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "iterable", "func", "initial" };
  const FxValue *v[3];
  ItState *st;
  (void) data;
  if (!fx_script_parse_args (S, "accumulate", args, n_args, kwargs, names, 3, 2, 1, v))
    return FALSE;
  *result = it_new (S, accumulate_next, &st);
  ((ScIterObj *) result->obj)->func = v[1] ? fx_value_copy (v[1]) : fx_value_none ();
  st->v1 = v[2] ? fx_value_copy (v[2]) : fx_value_none ();
  if (!it_sources (S, st, v[0], 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* starmap(function, iterable) */
static int
starmap_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  FxValue x;
  FxSeq *a;
  gboolean ok;
  int r = sc_iter_next (S, &st->its[0], &x);
  if (r <= 0)
    return r;
  ok = sc_collect (S, &x, &a);
  fx_value_clear (&x);
  if (!ok)
    return -1;
  ok = sc_call (S, &it->func, a->items, a->len, NULL, 0, out);
  fx_seq_unref (a);
  return ok ? 1 : -1;
}

static gboolean
it_starmap (SC_NATIVE_ARGS)
{
  ItState *st;
  (void) data;
  if (!sc_mod_nargs (S, "starmap", n_args, kwargs, 2, 2))
    return FALSE;
  *result = it_new (S, starmap_next, &st);
  ((ScIterObj *) result->obj)->func = fx_value_copy (&args[0]);
  if (!it_sources (S, st, &args[1], 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* takewhile / dropwhile / filterfalse: a = 0, 1, 2 */
static int
predicate_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  for (;;)
    {
      FxValue x, t;
      gboolean truth;
      int r;
      if (st->done)
        return 0;
      r = sc_iter_next (S, &st->its[0], &x);
      if (r <= 0)
        return r;
      if (st->a == 1 && !st->first)
        {
          *out = x;
          return 1;
        }
      if (it->func.kind == FX_VALUE_NONE)
        t = fx_value_copy (&x);
      else if (!sc_call1 (S, &it->func, &x, &t))
        {
          fx_value_clear (&x);
          return -1;
        }
      if (!sc_truth (S, &t, &truth))
        {
          fx_value_clear (&t);
          fx_value_clear (&x);
          return -1;
        }
      fx_value_clear (&t);
      switch (st->a)
        {
        case 0:
          if (truth)
            {
              *out = x;
              return 1;
            }
          st->done = TRUE;
          fx_value_clear (&x);
          return 0;
        case 1:
          if (!truth)
            {
              st->first = FALSE;
              *out = x;
              return 1;
            }
          break;
        default:
          if (!truth)
            {
              *out = x;
              return 1;
            }
          break;
        }
      fx_value_clear (&x);
    }
}

static gboolean
it_predicate (SC_NATIVE_ARGS)
{
  ItState *st;
  static const char *const fnames[] = { "takewhile", "dropwhile", "filterfalse" };
  int which = GPOINTER_TO_INT (data);
  if (!sc_mod_nargs (S, fnames[which], n_args, kwargs, 2, 2))
    return FALSE;
  *result = it_new (S, predicate_next, &st);
  st->a = which;
  ((ScIterObj *) result->obj)->func = fx_value_copy (&args[0]);
  if (!it_sources (S, st, &args[1], 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* compress(data, selectors) */
static int
compress_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  for (;;)
    {
      FxValue x, sel;
      gboolean t;
      int r = sc_iter_next (S, &st->its[0], &x);
      if (r <= 0)
        return r;
      r = sc_iter_next (S, &st->its[1], &sel);
      if (r <= 0)
        {
          fx_value_clear (&x);
          return r;
        }
      if (!sc_truth (S, &sel, &t))
        {
          fx_value_clear (&x);
          fx_value_clear (&sel);
          return -1;
        }
      fx_value_clear (&sel);
      if (t)
        {
          *out = x;
          return 1;
        }
      fx_value_clear (&x);
    }
}

static gboolean
it_compress (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "data", "selectors" };
  const FxValue *v[2];
  FxValue both[2];
  ItState *st;
  (void) data;
  if (!fx_script_parse_args (S, "compress", args, n_args, kwargs, names, 2, 2, 2, v))
    return FALSE;
  both[0] = *v[0];
  both[1] = *v[1];
  *result = it_new (S, compress_next, &st);
  if (!it_sources (S, st, both, 2))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* pairwise(iterable) */
static int
pairwise_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  FxValue x, items[2];
  int r;
  if (st->first)
    {
      st->first = FALSE;
      r = sc_iter_next (S, &st->its[0], &st->v0);
      if (r <= 0)
        {
          st->v0 = fx_value_none ();
          st->done = TRUE;
          return r;
        }
    }
  if (st->done)
    return 0;
  r = sc_iter_next (S, &st->its[0], &x);
  if (r <= 0)
    {
      st->done = TRUE;
      return r;
    }
  items[0] = st->v0;
  items[1] = x;
  *out = sc_mod_tuple (items, 2);
  fx_value_clear (&st->v0);
  st->v0 = x;
  return 1;
}

static gboolean
it_pairwise (SC_NATIVE_ARGS)
{
  ItState *st;
  (void) data;
  if (!sc_mod_nargs (S, "pairwise", n_args, kwargs, 1, 1))
    return FALSE;
  *result = it_new (S, pairwise_next, &st);
  if (!it_sources (S, st, args, 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* product(*iterables, repeat=1): pools in st->pools (tuples), odometer in st->idx */
static int
product_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  int64_t n = st->n_idx;
  FxSeq *t;
  (void) S;
  if (st->done)
    return 0;
  if (st->first)
    {
      st->first = FALSE;
      for (int64_t i = 0; i < n; i++)
        if (st->pools->items[i].seq->len == 0)
          {
            st->done = TRUE;
            return 0;
          }
    }
  else
    {
      int64_t i = n - 1;
      for (; i >= 0; i--)
        {
          st->idx[i]++;
          if (st->idx[i] < (int64_t) st->pools->items[i].seq->len)
            break;
          st->idx[i] = 0;
        }
      if (i < 0)
        {
          st->done = TRUE;
          return 0;
        }
    }
  t = fx_seq_new (n);
  for (int64_t i = 0; i < n; i++)
    t->items[i] = fx_value_copy (&st->pools->items[i].seq->items[st->idx[i]]);
  *out = fx_value_take_tuple (t);
  return 1;
}

static gboolean
it_product (SC_NATIVE_ARGS)
{
  ItState *st;
  int64_t repeat = 1;
  FxSeq *pools;
  (void) data;
  if (kwargs)
    {
      const FxValue *k, *v;
      for (guint i = 0; fx_dict_entry (kwargs, i, &k, &v); i++)
        {
          if (strcmp (k->s->data, "repeat") != 0)
            return sc_raise (S, SC_T_TYPE_ERROR, "product() got an unexpected keyword argument '%s'", k->s->data);
          if (!sc_mod_to_index (S, v, &repeat))
            return FALSE;
        }
    }
  if (repeat < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "repeat argument cannot be negative");
  pools = fx_seq_new (0);
  for (int i = 0; i < n_args; i++)
    {
      FxSeq *p;
      if (!sc_collect (S, &args[i], &p))
        {
          fx_seq_unref (pools);
          return FALSE;
        }
      fx_seq_append (pools, fx_value_take_tuple (p));
    }
  {
    guint base = pools->len;
    for (int64_t r = 1; r < repeat; r++)
      for (guint i = 0; i < base; i++)
        fx_seq_append (pools, fx_value_copy (&pools->items[i]));
    if (repeat == 0)
      {
        for (guint i = 0; i < pools->len; i++)
          fx_value_clear (&pools->items[i]);
        pools->len = 0;
      }
  }
  *result = it_new (S, product_next, &st);
  st->pools = pools;
  st->n_idx = pools->len;
  st->idx = g_new0 (int64_t, pools->len + 1);
  return TRUE;
}

/* combinations(iterable, r) / combinations_with_replacement: pools[0] is the pool */
static int
combinations_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  int64_t r = st->n_idx, n = st->pools->items[0].seq->len;
  gboolean repl = st->a;
  FxSeq *t;
  (void) S;
  if (st->done)
    return 0;
  if (st->first)
    {
      st->first = FALSE;
      if ((!repl && r > n) || (repl && n == 0 && r > 0))
        {
          st->done = TRUE;
          return 0;
        }
    }
  else
    {
      int64_t i = r - 1;
      if (!repl)
        {
          while (i >= 0 && st->idx[i] == i + n - r)
            i--;
          if (i < 0)
            {
              st->done = TRUE;
              return 0;
            }
          st->idx[i]++;
          for (int64_t j = i + 1; j < r; j++)
            st->idx[j] = st->idx[j - 1] + 1;
        }
      else
        {
          while (i >= 0 && st->idx[i] == n - 1)
            i--;
          if (i < 0)
            {
              st->done = TRUE;
              return 0;
            }
          {
            int64_t v = st->idx[i] + 1;
            for (int64_t j = i; j < r; j++)
              st->idx[j] = v;
          }
        }
    }
  t = fx_seq_new (r);
  for (int64_t i = 0; i < r; i++)
    t->items[i] = fx_value_copy (&st->pools->items[0].seq->items[st->idx[i]]);
  *out = fx_value_take_tuple (t);
  return 1;
}

static gboolean
it_combinations (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "iterable", "r" };
  const FxValue *v[2];
  ItState *st;
  FxSeq *pool;
  int64_t r;
  gboolean repl = GPOINTER_TO_INT (data);
  if (!fx_script_parse_args (S, repl ? "combinations_with_replacement" : "combinations", args, n_args, kwargs,
                             names, 2, 2, 2, v))
    return FALSE;
  if (!sc_mod_to_index (S, v[1], &r))
    return FALSE;
  if (r < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "r must be non-negative");
  if (!sc_collect (S, v[0], &pool))
    return FALSE;
  *result = it_new (S, combinations_next, &st);
  st->pools = fx_seq_new (1);
  st->pools->items[0] = fx_value_take_tuple (pool);
  st->n_idx = r;
  st->a = repl;
  st->idx = g_new0 (int64_t, r + 1);
  for (int64_t i = 0; i < r; i++)
    st->idx[i] = repl ? 0 : i;
  return TRUE;
}

/* permutations(iterable, r=None): CPython's indices/cycles algorithm */
static int
permutations_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  int64_t r = st->n_idx, n = st->pools->items[0].seq->len;
  FxSeq *t;
  (void) S;
  if (st->done)
    return 0;
  if (st->first)
    {
      st->first = FALSE;
      if (r > n)
        {
          st->done = TRUE;
          return 0;
        }
    }
  else
    {
      int64_t i = r - 1;
      for (; i >= 0; i--)
        {
          st->cycles[i]--;
          if (st->cycles[i] == 0)
            {
              int64_t first = st->idx[i];
              for (int64_t j = i; j < n - 1; j++)
                st->idx[j] = st->idx[j + 1];
              st->idx[n - 1] = first;
              st->cycles[i] = n - i;
            }
          else
            {
              int64_t j = st->cycles[i], tmp = st->idx[i];
              st->idx[i] = st->idx[n - j];
              st->idx[n - j] = tmp;
              break;
            }
        }
      if (i < 0)
        {
          st->done = TRUE;
          return 0;
        }
    }
  t = fx_seq_new (r);
  for (int64_t i = 0; i < r; i++)
    t->items[i] = fx_value_copy (&st->pools->items[0].seq->items[st->idx[i]]);
  *out = fx_value_take_tuple (t);
  return 1;
}

static gboolean
it_permutations (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "iterable", "r" };
  const FxValue *v[2];
  ItState *st;
  FxSeq *pool;
  int64_t r, n;
  (void) data;
  if (!fx_script_parse_args (S, "permutations", args, n_args, kwargs, names, 2, 2, 1, v))
    return FALSE;
  if (!sc_collect (S, v[0], &pool))
    return FALSE;
  n = pool->len;
  r = n;
  if (v[1] && v[1]->kind != FX_VALUE_NONE)
    {
      if (!sc_mod_to_index (S, v[1], &r))
        {
          fx_seq_unref (pool);
          return FALSE;
        }
      if (r < 0)
        {
          fx_seq_unref (pool);
          return sc_raise (S, SC_T_VALUE_ERROR, "r must be non-negative");
        }
    }
  *result = it_new (S, permutations_next, &st);
  st->pools = fx_seq_new (1);
  st->pools->items[0] = fx_value_take_tuple (pool);
  st->n_idx = r;
  st->idx = g_new0 (int64_t, n + 1);
  st->cycles = g_new0 (int64_t, r + 1);
  for (int64_t i = 0; i < n; i++)
    st->idx[i] = i;
  for (int64_t i = 0; i < r && i < n; i++)
    st->cycles[i] = n - i;
  return TRUE;
}

/* groupby(iterable, key=None): lazy over the groups, each group collected as a list
 * (v0 = the pending item, v1 = its key, a = 1 when one is pending) */
static int
groupby_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  IT_STATE ();
  FxSeq *group;
  FxValue gkey, glist, items[2];
  int r;
  if (!st->a)
    {
      if (st->done)
        return 0;
      r = sc_iter_next (S, &st->its[0], &st->v0);
      if (r <= 0)
        {
          st->v0 = fx_value_none ();
          st->done = TRUE;
          return r;
        }
      if (it->func.kind == FX_VALUE_NONE)
        st->v1 = fx_value_copy (&st->v0);
      else if (!sc_call1 (S, &it->func, &st->v0, &st->v1))
        return -1;
      st->a = 1;
    }
  group = fx_seq_new (0);
  gkey = st->v1;
  fx_seq_append (group, st->v0);
  st->v0 = fx_value_none ();
  st->v1 = fx_value_none ();
  st->a = 0;
  for (;;)
    {
      FxValue x, k;
      gboolean eq;
      r = sc_iter_next (S, &st->its[0], &x);
      if (r < 0)
        goto fail;
      if (r == 0)
        {
          st->done = TRUE;
          break;
        }
      if (it->func.kind == FX_VALUE_NONE)
        k = fx_value_copy (&x);
      else if (!sc_call1 (S, &it->func, &x, &k))
        {
          fx_value_clear (&x);
          goto fail;
        }
      if (!sc_equal (S, &k, &gkey, &eq))
        {
          fx_value_clear (&x);
          fx_value_clear (&k);
          goto fail;
        }
      if (!eq)
        {
          st->v0 = x;
          st->v1 = k;
          st->a = 1;
          break;
        }
      fx_value_clear (&k);
      fx_seq_append (group, x);
    }
  glist = fx_value_take_list (group);
  items[0] = gkey;
  if (!sc_get_iter (S, &glist, &items[1]))
    {
      fx_value_clear (&glist);
      fx_value_clear (&gkey);
      return -1;
    }
  fx_value_clear (&glist);
  *out = sc_mod_tuple (items, 2);
  fx_value_clear (&items[1]);
  fx_value_clear (&gkey);
  return 1;
fail:
  fx_seq_unref (group);
  fx_value_clear (&gkey);
  return -1;
}

static gboolean
it_groupby (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "iterable", "key" };
  const FxValue *v[2];
  ItState *st;
  (void) data;
  if (!fx_script_parse_args (S, "groupby", args, n_args, kwargs, names, 2, 2, 1, v))
    return FALSE;
  *result = it_new (S, groupby_next, &st);
  ((ScIterObj *) result->obj)->func = v[1] ? fx_value_copy (v[1]) : fx_value_none ();
  if (!it_sources (S, st, v[0], 1))
    {
      fx_value_clear (result);
      return FALSE;
    }
  return TRUE;
}

/* tee(iterable, n=2): the items collected once, n independent iterators over them */
static gboolean
it_tee (SC_NATIVE_ARGS)
{
  int64_t n = 2;
  FxSeq *items, *out;
  FxValue list;
  (void) data;
  if (!sc_mod_nargs (S, "tee", n_args, kwargs, 1, 2))
    return FALSE;
  if (n_args == 2 && !sc_mod_to_index (S, &args[1], &n))
    return FALSE;
  if (n < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "n must be >= 0");
  if (!sc_collect (S, &args[0], &items))
    return FALSE;
  list = fx_value_take_list (items);
  out = fx_seq_new (n);
  for (int64_t i = 0; i < n; i++)
    if (!sc_get_iter (S, &list, &out->items[i]))
      {
        fx_value_clear (&list);
        fx_seq_unref (out);
        return FALSE;
      }
  fx_value_clear (&list);
  *result = fx_value_take_tuple (out);
  return TRUE;
}

static gboolean
itertools_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  FxValue chain;
  (void) user_data;
  sc_mod_set_fn (m, "itertools", "count", it_count, NULL);
  sc_mod_set_fn (m, "itertools", "repeat", it_repeat, NULL);
  sc_mod_set_fn (m, "itertools", "cycle", it_cycle, NULL);
  {
    static const FxScriptClassInfo info = { "itertools", "chain", NULL, NULL, NULL, NULL };
    FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
    cls->construct = it_chain;
    fx_script_class_add_classmethod (cls, "from_iterable", it_chain_from_iterable, NULL);
    chain = fx_script_class_value (cls);
  }
  fx_script_module_set (m, "chain", chain);
  sc_mod_set_fn (m, "itertools", "islice", it_islice, NULL);
  sc_mod_set_fn (m, "itertools", "zip_longest", it_zip_longest, NULL);
  sc_mod_set_fn (m, "itertools", "accumulate", it_accumulate, NULL);
  sc_mod_set_fn (m, "itertools", "starmap", it_starmap, NULL);
  sc_mod_set_fn (m, "itertools", "takewhile", it_predicate, GINT_TO_POINTER (0));
  sc_mod_set_fn (m, "itertools", "dropwhile", it_predicate, GINT_TO_POINTER (1));
  sc_mod_set_fn (m, "itertools", "filterfalse", it_predicate, GINT_TO_POINTER (2));
  sc_mod_set_fn (m, "itertools", "compress", it_compress, NULL);
  sc_mod_set_fn (m, "itertools", "pairwise", it_pairwise, NULL);
  sc_mod_set_fn (m, "itertools", "product", it_product, NULL);
  sc_mod_set_fn (m, "itertools", "combinations", it_combinations, GINT_TO_POINTER (0));
  sc_mod_set_fn (m, "itertools", "combinations_with_replacement", it_combinations, GINT_TO_POINTER (1));
  sc_mod_set_fn (m, "itertools", "permutations", it_permutations, NULL);
  sc_mod_set_fn (m, "itertools", "groupby", it_groupby, NULL);
  sc_mod_set_fn (m, "itertools", "tee", it_tee, NULL);
  return TRUE;
}

void
sc_mod_itertools_register (FxScript *S)
{
  fx_script_register_module (S, "itertools", itertools_init, NULL, NULL);
}
