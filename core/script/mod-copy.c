/* mod-copy.c: the `copy` module (sc_copy_value: shallow and deep copies with the __copy__ /
 * __deepcopy__ / __getstate__ / __setstate__ hooks and a memo), `warnings` (sc_warn, filters,
 * CPython's message format) and `random` (CPython's Mersenne Twister, same outputs per seed). */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "script/mod.h"

/* ------------------------------------------------------------------ copy */

/* id() of a value that has identity, 0 for immediates (never memoised) */
static int64_t
value_id (const FxValue *v)
{
  switch (v->kind)
    {
    case FX_VALUE_TUPLE: case FX_VALUE_LIST: return (int64_t) (guintptr) v->seq;
    case FX_VALUE_DICT: return (int64_t) (guintptr) v->dict;
    case FX_VALUE_TENSOR: return (int64_t) (guintptr) v->tensor;
    case FX_VALUE_OBJECT: return (int64_t) (guintptr) v->obj;
    default: return 0;
    }
}

static gboolean
is_atomic (FxScript *S, const FxValue *v)
{
  const FxObjectClass *k;
  switch (v->kind)
    {
    case FX_VALUE_TUPLE: case FX_VALUE_LIST: case FX_VALUE_DICT: case FX_VALUE_TENSOR:
      return FALSE;
    case FX_VALUE_OBJECT:
      k = v->obj->klass;
      if (k == &sc_class_klass || k == &sc_function_klass || k == &sc_native_klass || k == &sc_module_klass
          || k == &sc_range_klass || k == &sc_property_klass || k == &sc_notimpl_klass
          || k == &sc_typing_klass || k == &sc_partial_klass || k == &sc_frozenset_klass
          || k == &sc_staticmethod_klass || k == &sc_classmethod_klass)
        return TRUE;
      return FALSE;
    case FX_VALUE_DTYPE: case FX_VALUE_DEVICE: case FX_VALUE_NODE: case FX_VALUE_OP:
      return S->kind_classes[v->kind] == NULL || sc_special_lookup (S, v, "__deepcopy__") == NULL;
    default:
      return TRUE;
    }
}

static gboolean deep_copy (FxScript *S, const FxValue *v, FxValue *memo, FxValue *out);

static void
memo_put (FxValue *memo, int64_t id, const FxValue *copy)
{
  if (id)
    fx_dict_set (memo->dict, fx_value_int (id), fx_value_copy (copy));
}

/* copy._keep_alive: the memo is keyed by id(), so a temporary (the state dict from
 * __getstate__) it recorded must outlive the copy, or a later temporary at the same address
 * would hit its entry. Kept, as in Python, in a list at memo[id(memo)]. */
static void
keep_alive (FxValue *memo, const FxValue *v)
{
  FxValue key = fx_value_int (value_id (memo));
  FxValue *list = fx_dict_get (memo->dict, &key);
  if (list == NULL || list->kind != FX_VALUE_LIST)
    {
      fx_dict_set (memo->dict, key, fx_value_take_list (fx_seq_new (0)));
      list = fx_dict_get (memo->dict, &key);
    }
  fx_seq_append (list->seq, fx_value_copy (v));
}

/* object.__reduce_ex__-style copy of an instance: a new instance of the same class whose state
 * (__getstate__() or __dict__) is copied (deeply when memo is given) and set back
 * (__setstate__ or __dict__.update). */
static gboolean
copy_instance (FxScript *S, const FxValue *v, FxValue *memo, FxValue *out)
{
  FxScriptClass *cls = sc_type_of (S, v);
  FxValue y, state = fx_value_none (), *getstate, *setstate, *odef;
  gboolean ok = TRUE;
  y = sc_instance_new (S, cls);
  if (memo)
    memo_put (memo, value_id (v), &y);
  getstate = sc_type_lookup (S, cls, sc_n.getstate);
  odef = sc_type_lookup (S, S->types[SC_T_OBJECT], sc_n.getstate);
  if (getstate && !(odef && getstate->kind == FX_VALUE_OBJECT && odef->kind == FX_VALUE_OBJECT
                    && getstate->obj == odef->obj))
    {
      if (!fx_script_call_method (S, v, "__getstate__", NULL, 0, NULL, &state))
        goto fail;
    }
  else
    {
      FxDict *d = fx_script_instance_dict (v);
      state = d ? sc_dict_copy (d) : fx_value_none ();
    }
  if (memo && state.kind != FX_VALUE_NONE)
    {
      FxValue deep;
      if (!deep_copy (S, &state, memo, &deep))
        goto fail;
      keep_alive (memo, &state);
      fx_value_clear (&state);
      state = deep;
    }
  setstate = sc_type_lookup_c (S, cls, "__setstate__");
  if (setstate)
    {
      FxValue r;
      if (!fx_script_call_method (S, &y, "__setstate__", &state, 1, NULL, &r))
        goto fail;
      fx_value_clear (&r);
    }
  else if (state.kind == FX_VALUE_DICT)
    {
      FxDict *d = fx_script_instance_dict (&y);
      const FxValue *key, *val;
      if (!d && fx_dict_len (state.dict))
        {
          sc_raise (S, SC_T_TYPE_ERROR, "cannot copy '%s' object: it has no __dict__", cls->name->data);
          goto fail;
        }
      for (guint i = 0; fx_dict_entry (state.dict, i, &key, &val); i++)
        fx_dict_set (d, fx_value_copy (key), fx_value_copy (val));
    }
  else if (state.kind != FX_VALUE_NONE)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "cannot restore the state of a '%s' object without __setstate__",
                cls->name->data);
      goto fail;
    }
  fx_value_clear (&state);
  *out = y;
  return ok;
fail:
  fx_value_clear (&state);
  fx_value_clear (&y);
  return FALSE;
}

static gboolean
copy_set (FxScript *S, const FxValue *v, FxValue *memo, FxValue *out)
{
  ScSet *src = (ScSet *) v->obj, *dst;
  const FxValue *key, *val;
  *out = sc_set_new (S, v->obj->klass == &sc_frozenset_klass);
  dst = (ScSet *) out->obj;
  if (memo)
    memo_put (memo, value_id (v), out);
  for (guint i = 0; fx_dict_entry (src->d, i, &key, &val); i++)
    {
      FxValue k;
      if (memo)
        {
          if (!deep_copy (S, key, memo, &k))
            {
              fx_value_clear (out);
              return FALSE;
            }
        }
      else
        k = fx_value_copy (key);
      fx_dict_set (dst->d, k, fx_value_none ());
    }
  return TRUE;
}

static gboolean
deep_copy (FxScript *S, const FxValue *v, FxValue *memo, FxValue *out)
{
  int64_t id = value_id (v);
  FxValue *hook;
  if (is_atomic (S, v))
    {
      *out = fx_value_copy (v);
      return TRUE;
    }
  if (id)
    {
      FxValue key = fx_value_int (id), *hit = fx_dict_get (memo->dict, &key);
      if (hit)
        {
          *out = fx_value_copy (hit);
          return TRUE;
        }
    }
  if (!sc_check_stack (S))
    return FALSE;
  /* a __deepcopy__ hook on the type (tensors, instances, foreign objects) */
  if (v->kind == FX_VALUE_OBJECT || v->kind == FX_VALUE_TENSOR || v->kind == FX_VALUE_TUPLE)
    {
      FxScriptClass *t = sc_type_of (S, v);
      hook = (v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_instance_klass) || !(t->flags & SC_CLASS_BUILTIN)
               ? sc_type_lookup (S, t, sc_n.deepcopy) : NULL;
      if (hook)
        {
          if (!fx_script_call_method (S, v, "__deepcopy__", memo, 1, NULL, out))
            return FALSE;
          memo_put (memo, id, out);
          return TRUE;
        }
    }
  switch (v->kind)
    {
    case FX_VALUE_TENSOR:
      {
        FxTensor *t = fx_tensor_clone (v->tensor);
        t->requires_grad = v->tensor->requires_grad;
        t->is_parameter = v->tensor->is_parameter;
        t->wrapped_number = v->tensor->wrapped_number;
        *out = fx_value_take_tensor (t);
        memo_put (memo, id, out);
        return TRUE;
      }
    case FX_VALUE_LIST:
      {
        FxSeq *dst = fx_seq_new (0);
        *out = fx_value_take_list (dst);
        memo_put (memo, id, out);
        for (guint i = 0; i < v->seq->len; i++)
          {
            FxValue c;
            if (!deep_copy (S, &v->seq->items[i], memo, &c))
              {
                fx_value_clear (out);
                return FALSE;
              }
            fx_seq_append (dst, c);
          }
        return TRUE;
      }
    case FX_VALUE_TUPLE:
      {
        FxSeq *dst = fx_seq_new (v->seq->len);
        gboolean same = TRUE;
        dst->type = v->seq->type;
        for (guint i = 0; i < v->seq->len; i++)
          {
            if (!deep_copy (S, &v->seq->items[i], memo, &dst->items[i]))
              {
                fx_seq_unref (dst);
                return FALSE;
              }
            if (!(dst->items[i].kind == v->seq->items[i].kind
                  && (value_id (&dst->items[i]) ? value_id (&dst->items[i]) == value_id (&v->seq->items[i])
                                                : TRUE)))
              same = FALSE;
          }
        /* a tuple of atoms is its own copy (a cycle through it may already be memoised) */
        {
          FxValue key = fx_value_int (id), *hit = fx_dict_get (memo->dict, &key);
          if (hit)
            {
              fx_seq_unref (dst);
              *out = fx_value_copy (hit);
              return TRUE;
            }
        }
        if (same)
          {
            fx_seq_unref (dst);
            *out = fx_value_copy (v);
          }
        else
          *out = fx_value_take_tuple (dst);
        memo_put (memo, id, out);
        return TRUE;
      }
    case FX_VALUE_DICT:
      {
        FxDict *dst = fx_dict_new ();
        const FxValue *key, *val;
        *out = fx_value_take_dict (dst);
        memo_put (memo, id, out);
        for (guint i = 0; fx_dict_entry (v->dict, i, &key, &val); i++)
          {
            FxValue k, c;
            if (!deep_copy (S, key, memo, &k))
              {
                fx_value_clear (out);
                return FALSE;
              }
            if (!deep_copy (S, val, memo, &c))
              {
                fx_value_clear (&k);
                fx_value_clear (out);
                return FALSE;
              }
            fx_dict_set (dst, k, c);
          }
        return TRUE;
      }
    case FX_VALUE_OBJECT:
      {
        const FxObjectClass *k = v->obj->klass;
        if (k == &sc_set_klass || k == &sc_frozenset_klass)
          return copy_set (S, v, memo, out);
        if (k == &sc_method_klass)
          {
            ScMethod *m = (ScMethod *) v->obj;
            FxValue self;
            if (!deep_copy (S, &m->self, memo, &self))
              return FALSE;
            *out = sc_method_new (&m->func, &self);
            fx_value_clear (&self);
            memo_put (memo, id, out);
            return TRUE;
          }
        if (k == &sc_instance_klass)
          return copy_instance (S, v, memo, out);
        break;
      }
    default:
      break;
    }
  *out = fx_value_copy (v);
  return TRUE;
}

static gboolean
shallow_copy (FxScript *S, const FxValue *v, FxValue *out)
{
  switch (v->kind)
    {
    case FX_VALUE_LIST:
      {
        FxSeq *dst = fx_seq_new (v->seq->len);
        for (guint i = 0; i < v->seq->len; i++)
          dst->items[i] = fx_value_copy (&v->seq->items[i]);
        *out = fx_value_take_list (dst);
        return TRUE;
      }
    case FX_VALUE_DICT:
      *out = sc_dict_copy (v->dict);
      return TRUE;
    case FX_VALUE_OBJECT:
    case FX_VALUE_TENSOR:
    case FX_VALUE_TUPLE:
      {
        FxScriptClass *t = sc_type_of (S, v);
        gboolean has_hook = ((v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_instance_klass)
                             || !(t->flags & SC_CLASS_BUILTIN))
                            && sc_type_lookup (S, t, sc_n.copy) != NULL;
        if (has_hook)
          return fx_script_call_method (S, v, "__copy__", NULL, 0, NULL, out);
        if (v->kind == FX_VALUE_TENSOR)
          {
            /* a new tensor object sharing the storage, as PyTorch's copy.copy gives */
            const FxTensor *src = v->tensor;
            FxTensor *t = fx_tensor_new_view (src->storage, src->dtype, src->ndim, src->shape, src->strides,
                                              src->offset);
            t->requires_grad = src->requires_grad;
            t->is_parameter = src->is_parameter;
            t->wrapped_number = src->wrapped_number;
            *out = fx_value_take_tensor (t);
            return TRUE;
          }
        if (v->kind == FX_VALUE_OBJECT)
          {
            const FxObjectClass *k = v->obj->klass;
            if (k == &sc_set_klass)
              return copy_set (S, v, NULL, out);
            if (k == &sc_instance_klass)
              return copy_instance (S, v, NULL, out);
          }
        break;
      }
    default:
      break;
    }
  *out = fx_value_copy (v);
  return TRUE;
}

/* copy.copy(v) / copy.deepcopy(v). memo: callers pass NULL (a fresh memo per call); the
 * Python-visible memo of __deepcopy__ hooks is a dict keyed by id(). */
FxValue
sc_copy_value (FxScript *S, const FxValue *v, gboolean deep, GHashTable *memo, gboolean *ok)
{
  FxValue out = fx_value_none (), m;
  (void) memo;
  if (!deep)
    {
      *ok = shallow_copy (S, v, &out);
      return out;
    }
  m = fx_value_take_dict (fx_dict_new ());
  *ok = deep_copy (S, v, &m, &out);
  fx_value_clear (&m);
  return out;
}

static gboolean
copy_copy (SC_NATIVE_ARGS)
{
  (void) data;
  if (!sc_mod_nargs (S, "copy", n_args, kwargs, 1, 1))
    return FALSE;
  return shallow_copy (S, &args[0], result);
}

static gboolean
copy_deepcopy (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "x", "memo", "_nil" };
  const FxValue *v[3];
  FxValue memo;
  gboolean ok;
  (void) data;
  if (!fx_script_parse_args (S, "deepcopy", args, n_args, kwargs, names, 3, 3, 1, v))
    return FALSE;
  if (v[1] && v[1]->kind == FX_VALUE_DICT)
    memo = fx_value_copy (v[1]);
  else if (v[1] && v[1]->kind != FX_VALUE_NONE)
    return sc_raise (S, SC_T_TYPE_ERROR, "deepcopy() memo must be a dict");
  else
    memo = fx_value_take_dict (fx_dict_new ());
  ok = deep_copy (S, v[0], &memo, result);
  fx_value_clear (&memo);
  return ok;
}

static gboolean
copy_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  FxValue err;
  (void) user_data;
  sc_mod_set_fn (m, "copy", "copy", copy_copy, NULL);
  sc_mod_set_fn (m, "copy", "deepcopy", copy_deepcopy, NULL);
  err = sc_builtin_lookup (S, "Exception");
  fx_script_module_set (m, "Error", err);
  return TRUE;
}

void
sc_mod_copy_register (FxScript *S)
{
  fx_script_register_module (S, "copy", copy_init, NULL, NULL);
}

/* ------------------------------------------------------------------ warnings */

static FxValue *
dict_get_c (FxDict *d, const char *name)
{
  FxValue k = fx_value_str (name), *r = fx_dict_get (d, &k);
  fx_value_clear (&k);
  return r;
}

static FxScriptClass *
warning_class_by_name (FxScript *S, const char *name)
{
  FxScriptClass *c = fx_script_builtin_class (S, name);
  if (!c && S->exceptions)
    c = g_hash_table_lookup (S->exceptions, name);
  return c ? c : S->types[SC_T_USER_WARNING];
}

static FxDict *
warnings_dict (FxScript *S)
{
  FxValue mod;
  FxDict *d;
  if (!fx_script_import (S, "warnings", &mod))
    return NULL;
  d = ((FxScriptModule *) mod.obj)->dict;
  fx_value_clear (&mod);   /* sys.modules keeps it */
  return d;
}

static gboolean
regex_match (const char *pattern, const char *text, gboolean caseless)
{
  GRegex *re;
  gboolean r;
  if (!pattern || !*pattern)
    return TRUE;
  re = g_regex_new (pattern, (caseless ? G_REGEX_CASELESS : 0) | G_REGEX_ANCHORED, 0, NULL);
  if (!re)
    return strcmp (pattern, text) == 0;
  r = g_regex_match (re, text, 0, NULL);
  g_regex_unref (re);
  return r;
}

/* the action of the first matching filter; "default" when none matches */
static const char *
filter_action (FxScript *S, FxDict *wd, FxScriptClass *category, const char *text, const char *module,
               int line)
{
  FxValue *filters = wd ? dict_get_c (wd, "filters") : NULL;
  const char *action = "default";
  if (filters && filters->kind == FX_VALUE_LIST)
    for (guint i = 0; i < filters->seq->len; i++)
      {
        const FxValue *f = &filters->seq->items[i];
        FxScriptClass *fc;
        if (f->kind != FX_VALUE_TUPLE || f->seq->len != 5 || f->seq->items[0].kind != FX_VALUE_STR)
          continue;
        fc = sc_value_class (&f->seq->items[2]);
        if (fc && !sc_is_subclass (category, fc))
          continue;
        if (f->seq->items[1].kind == FX_VALUE_STR && !regex_match (f->seq->items[1].s->data, text, TRUE))
          continue;
        if (f->seq->items[3].kind == FX_VALUE_STR && !regex_match (f->seq->items[3].s->data, module, FALSE))
          continue;
        if (f->seq->items[4].kind == FX_VALUE_INT && f->seq->items[4].i != 0 && f->seq->items[4].i != line)
          continue;
        action = f->seq->items[0].s->data;
        break;
      }
  (void) S;
  return action;
}

/* Issues a warning: message is a str or a Warning instance. */
static gboolean
warn_value (FxScript *S, FxScriptClass *category, const FxValue *message, int stacklevel)
{
  ScFrame *F = S->frame;
  const char *filename = "sys", *module = "sys";
  int line = 1;
  char *source = NULL, *text, *key;
  const char *action;
  FxDict *wd;
  FxValue *modname;
  gboolean show = TRUE;

  if (message->kind == FX_VALUE_OBJECT && sc_isinstance_id (S, message, SC_T_WARNING))
    category = sc_type_of (S, message);
  text = fx_script_value_str (S, message);
  if (!text)
    return FALSE;
  for (int i = 1; F && i < stacklevel; i++)
    F = F->back;
  if (F)
    {
      filename = F->code && F->code->unit ? F->code->unit->filename : "<unknown>";
      line = F->loc ? F->loc->line : F->code ? F->code->pos.line : 1;
      modname = F->globals ? sc_dict_get_str (F->globals, sc_n.name) : NULL;
      module = modname && modname->kind == FX_VALUE_STR ? modname->s->data : "<string>";
      if (F->code && F->code->unit)
        source = sc_unit_line (F->code->unit, line);
    }
  wd = warnings_dict (S);
  if (!wd)
    {
      g_free (text);
      g_free (source);
      return FALSE;
    }
  action = filter_action (S, wd, category, text, module, line);
  if (strcmp (action, "ignore") == 0)
    show = FALSE;
  else if (strcmp (action, "error") == 0)
    {
      gboolean r;
      if (message->kind == FX_VALUE_OBJECT && sc_isinstance_id (S, message, SC_T_WARNING))
        r = fx_script_raise_value (S, message);
      else
        r = fx_script_raise_class (S, category, "%s", text);
      g_free (text);
      g_free (source);
      return r;
    }
  else if (strcmp (action, "always") != 0)
    {
      if (!S->warned)
        S->warned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      if (strcmp (action, "once") == 0)
        key = g_strdup_printf ("once\n%s\n%s", category->name->data, text);
      else if (strcmp (action, "module") == 0)
        key = g_strdup_printf ("module\n%s\n%s\n%s", module, category->name->data, text);
      else
        key = g_strdup_printf ("%s\n%s\n%d\n%s\n%s", filename, module, line, category->name->data, text);
      if (g_hash_table_contains (S->warned, key))
        {
          show = FALSE;
          g_free (key);
        }
      else
        g_hash_table_add (S->warned, key);
    }
  if (show)
    {
      FxValue *log = dict_get_c (wd, "_fx_record");
      if (log && log->kind == FX_VALUE_LIST)
        {
          /* catch_warnings(record=True): a WarningMessage-like record */
          FxValue rec = fx_value_none ();
          FxValue *cls = dict_get_c (wd, "WarningMessage");
          if (cls && sc_value_class (cls))
            {
              FxDict *d;
              rec = fx_script_instance_new (S, sc_value_class (cls));
              d = fx_script_instance_dict (&rec);
              if (d)
                {
                  if (message->kind == FX_VALUE_STR)
                    {
                      FxValue arg = fx_value_copy (message), inst, cv = fx_script_class_value (category);
                      if (sc_call1 (S, &cv, &arg, &inst))
                        sc_dict_set_str (d, "message", inst);
                      else
                        sc_clear_exc (S);
                      fx_value_clear (&arg);
                      fx_value_clear (&cv);
                    }
                  else
                    sc_dict_set_str (d, "message", fx_value_copy (message));
                  sc_dict_set_str (d, "category", fx_script_class_value (category));
                  sc_dict_set_str (d, "filename", fx_value_str (filename));
                  sc_dict_set_str (d, "lineno", fx_value_int (line));
                }
            }
          fx_seq_append (log->seq, rec);
        }
      else
        {
          GString *out = g_string_new (NULL);
          g_string_append_printf (out, "%s:%d: %s: %s\n", filename, line, category->name->data, text);
          if (source)
            {
              char *stripped = g_strstrip (g_strdup (source));
              if (*stripped)
                g_string_append_printf (out, "  %s\n", stripped);
              g_free (stripped);
            }
          fx_script_write_stderr (S, out->str, out->len);
          g_string_free (out, TRUE);
        }
    }
  g_free (text);
  g_free (source);
  return TRUE;
}

gboolean
sc_warn (FxScript *S, const char *category, const char *msg, int stacklevel)
{
  FxValue m = fx_value_str (msg);
  gboolean r = warn_value (S, warning_class_by_name (S, category ? category : "UserWarning"), &m,
                           stacklevel < 1 ? 1 : stacklevel);
  fx_value_clear (&m);
  return r;
}

static gboolean
warnings_warn (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "message", "category", "stacklevel", "source" };
  const FxValue *v[4];
  FxScriptClass *category = S->types[SC_T_USER_WARNING];
  int64_t level = 1;
  (void) data;
  if (!fx_script_parse_args (S, "warn", args, n_args, kwargs, names, 4, 4, 1, v))
    return FALSE;
  if (v[1] && v[1]->kind != FX_VALUE_NONE)
    {
      category = sc_value_class (v[1]);
      if (!category || !sc_is_subclass (category, S->types[SC_T_WARNING]))
        return sc_raise (S, SC_T_TYPE_ERROR, "category must be a Warning subclass, not '%s'",
                         sc_type_name (S, v[1]));
    }
  if (v[2] && !sc_mod_to_index (S, v[2], &level))
    return FALSE;
  *result = fx_value_none ();
  return warn_value (S, category, v[0], (int) CLAMP (level, 1, 10000));
}

static void
filters_mutated (FxScript *S)
{
  if (S->warned)
    g_hash_table_remove_all (S->warned);
}

static gboolean
check_action (FxScript *S, const FxValue *a)
{
  static const char *const ok[] = { "error", "ignore", "always", "default", "module", "once" };
  if (a->kind == FX_VALUE_STR)
    for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
      if (strcmp (a->s->data, ok[i]) == 0)
        return TRUE;
  {
    char *r = fx_script_value_repr (S, a);
    sc_raise (S, SC_T_ASSERTION_ERROR, "invalid action: %s", r ? r : "?");
    g_free (r);
  }
  return FALSE;
}

static gboolean
add_filter (FxScript *S, FxValue action, FxValue message, FxValue category, FxValue module, FxValue line,
            gboolean append)
{
  FxDict *wd = warnings_dict (S);
  FxValue *filters;
  FxSeq *t;
  if (!wd)
    return FALSE;
  filters = dict_get_c (wd, "filters");
  if (!filters || filters->kind != FX_VALUE_LIST)
    {
      sc_dict_set_str (wd, "filters", fx_value_take_list (fx_seq_new (0)));
      filters = dict_get_c (wd, "filters");
    }
  t = fx_seq_new (5);
  t->items[0] = action;
  t->items[1] = message;
  t->items[2] = category;
  t->items[3] = module;
  t->items[4] = line;
  {
    FxValue tv = fx_value_take_tuple (t);
    FxSeq *list = filters->seq;
    /* drop an identical existing filter, then insert */
    for (guint i = 0; i < list->len; i++)
      if (fx_value_equal (&list->items[i], &tv))
        {
          fx_value_clear (&list->items[i]);
          memmove (&list->items[i], &list->items[i + 1], sizeof (FxValue) * (list->len - i - 1));
          list->len--;
          break;
        }
    if (append)
      fx_seq_append (list, tv);
    else
      {
        fx_seq_append (list, fx_value_none ());
        memmove (&list->items[1], &list->items[0], sizeof (FxValue) * (list->len - 1));
        list->items[0] = tv;
      }
  }
  filters_mutated (S);
  return TRUE;
}

static gboolean
warnings_simplefilter (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "action", "category", "lineno", "append" };
  const FxValue *v[4];
  gboolean append = FALSE;
  (void) data;
  if (!fx_script_parse_args (S, "simplefilter", args, n_args, kwargs, names, 4, 4, 1, v))
    return FALSE;
  if (!check_action (S, v[0]) || (v[3] && !sc_truth (S, v[3], &append)))
    return FALSE;
  *result = fx_value_none ();
  return add_filter (S, fx_value_copy (v[0]), fx_value_none (),
                     v[1] ? fx_value_copy (v[1]) : fx_script_class_value (S->types[SC_T_WARNING]),
                     fx_value_none (), v[2] ? fx_value_copy (v[2]) : fx_value_int (0), append);
}

static gboolean
warnings_filterwarnings (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "action", "message", "category", "module", "lineno", "append" };
  const FxValue *v[6];
  gboolean append = FALSE;
  FxValue msg, mod;
  (void) data;
  if (!fx_script_parse_args (S, "filterwarnings", args, n_args, kwargs, names, 6, 6, 1, v))
    return FALSE;
  if (!check_action (S, v[0]) || (v[5] && !sc_truth (S, v[5], &append)))
    return FALSE;
  msg = v[1] && v[1]->kind == FX_VALUE_STR && v[1]->s->len ? fx_value_copy (v[1]) : fx_value_none ();
  mod = v[3] && v[3]->kind == FX_VALUE_STR && v[3]->s->len ? fx_value_copy (v[3]) : fx_value_none ();
  *result = fx_value_none ();
  return add_filter (S, fx_value_copy (v[0]), msg,
                     v[2] ? fx_value_copy (v[2]) : fx_script_class_value (S->types[SC_T_WARNING]),
                     mod, v[4] ? fx_value_copy (v[4]) : fx_value_int (0), append);
}

static gboolean
warnings_resetwarnings (SC_NATIVE_ARGS)
{
  FxDict *wd = warnings_dict (S);
  (void) data;
  (void) args;
  (void) n_args;
  (void) kwargs;
  if (!wd)
    return FALSE;
  sc_dict_set_str (wd, "filters", fx_value_take_list (fx_seq_new (0)));
  filters_mutated (S);
  *result = fx_value_none ();
  return TRUE;
}

/* catch_warnings: saves the filters on __enter__ and restores them on __exit__ */
static gboolean
catch_init (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "self", "record", "module", "action", "category", "lineno", "append" };
  const FxValue *v[7];
  FxDict *d;
  (void) data;
  if (!fx_script_parse_args (S, "catch_warnings", args, n_args, kwargs, names, 7, 1, 1, v))
    return FALSE;
  d = fx_script_instance_dict (&args[0]);
  if (d)
    {
      sc_dict_set_str (d, "_record", v[1] ? fx_value_copy (v[1]) : fx_value_bool (FALSE));
      sc_dict_set_str (d, "_action", v[3] ? fx_value_copy (v[3]) : fx_value_none ());
      sc_dict_set_str (d, "_category", v[4] ? fx_value_copy (v[4]) : fx_value_none ());
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
catch_enter (SC_NATIVE_ARGS)
{
  FxDict *wd = warnings_dict (S), *d = fx_script_instance_dict (&args[0]);
  FxValue *filters, *rec, *action, *cat;
  gboolean record = FALSE;
  (void) data;
  (void) n_args;
  (void) kwargs;
  if (!wd || !d)
    return wd ? sc_raise (S, SC_T_RUNTIME_ERROR, "catch_warnings has no state") : FALSE;
  filters = dict_get_c (wd, "filters");
  sc_dict_set_str (d, "_saved", filters ? fx_value_copy (filters) : fx_value_none ());
  sc_dict_set_str (d, "_saved_record", dict_get_c (wd, "_fx_record") ? fx_value_copy (dict_get_c (wd, "_fx_record")) : fx_value_none ());
  if (filters && filters->kind == FX_VALUE_LIST)
    {
      FxSeq *copy = fx_seq_new (filters->seq->len);
      for (guint i = 0; i < filters->seq->len; i++)
        copy->items[i] = fx_value_copy (&filters->seq->items[i]);
      sc_dict_set_str (wd, "filters", fx_value_take_list (copy));
    }
  filters_mutated (S);
  action = dict_get_c (d, "_action");
  if (action && action->kind == FX_VALUE_STR)
    {
      cat = dict_get_c (d, "_category");
      if (!add_filter (S, fx_value_copy (action), fx_value_none (),
                       cat && cat->kind != FX_VALUE_NONE ? fx_value_copy (cat)
                                                         : fx_script_class_value (S->types[SC_T_WARNING]),
                       fx_value_none (), fx_value_int (0), FALSE))
        return FALSE;
    }
  rec = dict_get_c (d, "_record");
  if (rec && !sc_truth (S, rec, &record))
    return FALSE;
  if (record)
    {
      FxValue log = fx_value_take_list (fx_seq_new (0));
      sc_dict_set_str (wd, "_fx_record", fx_value_copy (&log));
      *result = log;
    }
  else
    *result = fx_value_none ();
  return TRUE;
}

static gboolean
catch_exit (SC_NATIVE_ARGS)
{
  FxDict *wd = warnings_dict (S), *d = fx_script_instance_dict (&args[0]);
  FxValue *saved;
  (void) data;
  (void) n_args;
  (void) kwargs;
  if (!wd)
    return FALSE;
  if (d)
    {
      saved = dict_get_c (d, "_saved");
      if (saved)
        sc_dict_set_str (wd, "filters", fx_value_copy (saved));
      saved = dict_get_c (d, "_saved_record");
      sc_dict_set_str (wd, "_fx_record", saved ? fx_value_copy (saved) : fx_value_none ());
    }
  filters_mutated (S);
  *result = fx_value_bool (FALSE);
  return TRUE;
}

static gboolean
warning_message_repr (SC_NATIVE_ARGS)
{
  FxDict *d = fx_script_instance_dict (&args[0]);
  FxValue *msg = d ? dict_get_c (d, "message") : NULL;
  FxValue *cat = d ? dict_get_c (d, "category") : NULL;
  FxValue *file = d ? dict_get_c (d, "filename") : NULL;
  FxValue *line = d ? dict_get_c (d, "lineno") : NULL;
  GString *out = g_string_new ("{message : ");
  (void) data;
  (void) n_args;
  (void) kwargs;
  if ((msg && !sc_repr (S, msg, out)))
    {
      g_string_free (out, TRUE);
      return FALSE;
    }
  g_string_append_printf (out, ", category : '%s', filename : '%s', lineno : %" G_GINT64_FORMAT
                          ", line : None}",
                          cat && sc_value_class (cat) ? sc_value_class (cat)->name->data : "?",
                          file && file->kind == FX_VALUE_STR ? file->s->data : "?",
                          line && line->kind == FX_VALUE_INT ? line->i : 0);
  *result = fx_value_str (out->str);
  g_string_free (out, TRUE);
  return TRUE;
}

static gboolean
warnings_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  static const struct { const char *action, *category, *module; } defaults[] = {
    { "default", "DeprecationWarning", "__main__" }, { "ignore", "DeprecationWarning", NULL },
    { "ignore", "PendingDeprecationWarning", NULL }, { "ignore", "ImportWarning", NULL },
    { "ignore", "ResourceWarning", NULL },
  };
  FxSeq *filters = fx_seq_new (G_N_ELEMENTS (defaults));
  (void) user_data;
  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    {
      FxSeq *t = fx_seq_new (5);
      t->items[0] = fx_value_str (defaults[i].action);
      t->items[1] = fx_value_none ();
      t->items[2] = fx_script_class_value (warning_class_by_name (S, defaults[i].category));
      t->items[3] = defaults[i].module ? fx_value_str (defaults[i].module) : fx_value_none ();
      t->items[4] = fx_value_int (0);
      filters->items[i] = fx_value_take_tuple (t);
    }
  fx_script_module_set (m, "filters", fx_value_take_list (filters));
  fx_script_module_set (m, "_fx_record", fx_value_none ());
  sc_mod_set_fn (m, "warnings", "warn", warnings_warn, NULL);
  sc_mod_set_fn (m, "warnings", "simplefilter", warnings_simplefilter, NULL);
  sc_mod_set_fn (m, "warnings", "filterwarnings", warnings_filterwarnings, NULL);
  sc_mod_set_fn (m, "warnings", "resetwarnings", warnings_resetwarnings, NULL);
  {
    static const FxScriptClassInfo info = { "warnings", "catch_warnings", NULL, NULL, NULL, NULL };
    FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
    fx_script_class_add_method (cls, "__init__", catch_init, NULL);
    fx_script_class_add_method (cls, "__enter__", catch_enter, NULL);
    fx_script_class_add_method (cls, "__exit__", catch_exit, NULL);
    fx_script_module_set (m, "catch_warnings", fx_script_class_value (cls));
  }
  {
    static const FxScriptClassInfo info = { "warnings", "WarningMessage", NULL, NULL, NULL, NULL };
    FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
    fx_script_class_add_method (cls, "__str__", warning_message_repr, NULL);
    fx_script_module_set (m, "WarningMessage", fx_script_class_value (cls));
  }
  return TRUE;
}

void
sc_mod_warnings_register (FxScript *S)
{
  fx_script_register_module (S, "warnings", warnings_init, NULL, NULL);
}

/* ------------------------------------------------------------------ random */

#define MT_N 624
#define MT_M 397

typedef struct {
  guint32 mt[MT_N];
  int index;
  double gauss_next;
  gboolean has_gauss;
} Mt;

static void
mt_init_genrand (Mt *r, guint32 s)
{
  r->mt[0] = s;
  for (int i = 1; i < MT_N; i++)
    r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (guint32) i;
  r->index = MT_N;
}

static void
mt_init_by_array (Mt *r, const guint32 *key, gsize len)
{
  gsize i = 1, j = 0, k;
  mt_init_genrand (r, 19650218U);
  for (k = MT_N > len ? MT_N : len; k; k--)
    {
      r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (guint32) j;
      i++;
      j++;
      if (i >= MT_N)
        {
          r->mt[0] = r->mt[MT_N - 1];
          i = 1;
        }
      if (j >= len)
        j = 0;
    }
  for (k = MT_N - 1; k; k--)
    {
      r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941U)) - (guint32) i;
      i++;
      if (i >= MT_N)
        {
          r->mt[0] = r->mt[MT_N - 1];
          i = 1;
        }
    }
  r->mt[0] = 0x80000000U;
  r->has_gauss = FALSE;
}

static guint32
mt_next (Mt *r)
{
  static const guint32 mag01[2] = { 0, 0x9908b0dfU };
  guint32 y;
  if (r->index >= MT_N)
    {
      int kk;
      for (kk = 0; kk < MT_N - MT_M; kk++)
        {
          y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
          r->mt[kk] = r->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
        }
      for (; kk < MT_N - 1; kk++)
        {
          y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
          r->mt[kk] = r->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
        }
      y = (r->mt[MT_N - 1] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
      r->mt[MT_N - 1] = r->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
      r->index = 0;
    }
  y = r->mt[r->index++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

static double
mt_random (Mt *r)
{
  guint32 a = mt_next (r) >> 5, b = mt_next (r) >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static guint64
mt_getrandbits (Mt *r, int k)
{
  guint64 out = 0;
  if (k <= 0)
    return 0;
  if (k <= 32)
    return mt_next (r) >> (32 - k);
  for (int i = 0; k > 0; i++, k -= 32)
    {
      guint32 w = mt_next (r);
      if (k < 32)
        w >>= 32 - k;
      out |= (guint64) w << (32 * i);
    }
  return out;
}

static int
bit_length (guint64 n)
{
  int k = 0;
  while (n)
    {
      k++;
      n >>= 1;
    }
  return k;
}

static guint64
mt_randbelow (Mt *r, guint64 n)
{
  int k = bit_length (n);
  guint64 v;
  if (n == 0)
    return 0;
  do
    v = mt_getrandbits (r, k);
  while (v >= n);
  return v;
}

static void
mt_seed_bytes (Mt *r, const guint8 *bytes, gsize len)
{
  /* the big-endian integer `bytes`, as 32-bit words, least significant first */
  gsize start = 0, nwords;
  guint32 *key;
  while (start < len && bytes[start] == 0)
    start++;
  len -= start;
  bytes += start;
  nwords = len ? (len + 3) / 4 : 1;
  key = g_new0 (guint32, nwords);
  for (gsize i = 0; i < len; i++)
    {
      gsize pos = len - 1 - i;   /* byte significance */
      key[pos / 4] |= (guint32) bytes[i] << (8 * (pos % 4));
    }
  mt_init_by_array (r, key, nwords);
  g_free (key);
}

static void
mt_seed_u64 (Mt *r, guint64 n)
{
  guint32 key[2] = { (guint32) n, (guint32) (n >> 32) };
  mt_init_by_array (r, key, key[1] ? 2 : 1);
}

static gboolean
mt_seed_value (FxScript *S, Mt *r, const FxValue *a)
{
  if (!a || a->kind == FX_VALUE_NONE)
    {
      guint32 key[4] = { (guint32) g_get_real_time (), (guint32) (g_get_real_time () >> 32), (guint32) getpid (),
                         g_random_int () };
      mt_init_by_array (r, key, 4);
      return TRUE;
    }
  if (a->kind == FX_VALUE_INT || a->kind == FX_VALUE_BOOL)
    {
      int64_t n = a->kind == FX_VALUE_INT ? a->i : a->b;
      mt_seed_u64 (r, n < 0 ? -(guint64) n : (guint64) n);
      return TRUE;
    }
  if (a->kind == FX_VALUE_STR)
    {
      GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA512);
      guint8 digest[64];
      gsize dlen = sizeof digest;
      GByteArray *all = g_byte_array_new ();
      g_checksum_update (sum, (const guchar *) a->s->data, a->s->len);
      g_checksum_get_digest (sum, digest, &dlen);
      g_checksum_free (sum);
      g_byte_array_append (all, (const guint8 *) a->s->data, a->s->len);
      g_byte_array_append (all, digest, dlen);
      mt_seed_bytes (r, all->data, all->len);
      g_byte_array_free (all, TRUE);
      return TRUE;
    }
  if (a->kind == FX_VALUE_FLOAT)
    {
      gint64 h;
      if (!sc_hash (S, a, &h))
        return FALSE;
      mt_seed_u64 (r, h < 0 ? -(guint64) h : (guint64) h);
      return TRUE;
    }
  return sc_raise (S, SC_T_TYPE_ERROR, "The only supported seed types are: None,\nint, float, str, bytes, and "
                   "bytearray.");
}

static gpointer
random_payload_new (FxScript *S, FxScriptClass *cls, gpointer class_data)
{
  Mt *r = g_new0 (Mt, 1);
  (void) cls;
  (void) class_data;
  mt_seed_value (S, r, NULL);
  return r;
}

static Mt *
self_mt (FxScript *S, const FxValue *args, int n_args)
{
  Mt *r = n_args > 0 ? fx_script_instance_payload (&args[0]) : NULL;
  if (!r)
    sc_raise (S, SC_T_TYPE_ERROR, "descriptor requires a 'random.Random' object");
  return r;
}

#define RANDOM_METHOD_BEGIN(fname, lo, hi)                                     \
  Mt *r = self_mt (S, args, n_args);                                           \
  (void) data;                                                                 \
  if (!r)                                                                      \
    return FALSE;                                                              \
  args++;                                                                      \
  n_args--;                                                                    \
  if (!sc_mod_nargs (S, fname, n_args, kwargs, lo, hi))                        \
    return FALSE;

static gboolean
rnd_init (SC_NATIVE_ARGS)
{
  RANDOM_METHOD_BEGIN ("Random", 0, 1);
  *result = fx_value_none ();
  return mt_seed_value (S, r, n_args ? &args[0] : NULL);
}

static gboolean
rnd_seed (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "a", "version" };
  const FxValue *v[2];
  Mt *r = self_mt (S, args, n_args);
  (void) data;
  if (!r || !fx_script_parse_args (S, "seed", args + 1, n_args - 1, kwargs, names, 2, 2, 0, v))
    return FALSE;
  *result = fx_value_none ();
  return mt_seed_value (S, r, v[0]);
}

static gboolean
rnd_random (SC_NATIVE_ARGS)
{
  RANDOM_METHOD_BEGIN ("random", 0, 0);
  *result = fx_value_float (mt_random (r));
  return TRUE;
}

static gboolean
rnd_getrandbits (SC_NATIVE_ARGS)
{
  int64_t k;
  RANDOM_METHOD_BEGIN ("getrandbits", 1, 1);
  if (!sc_mod_to_index (S, &args[0], &k))
    return FALSE;
  if (k < 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "number of bits must be non-negative");
  if (k > 63)
    return sc_raise (S, SC_T_OVERFLOW_ERROR, "getrandbits() with more than 63 bits does not fit fx's integers");
  *result = fx_value_int ((int64_t) mt_getrandbits (r, (int) k));
  return TRUE;
}

static gboolean
randrange (FxScript *S, Mt *r, int64_t start, const FxValue *stop_v, int64_t step, FxValue *result)
{
  int64_t stop, width, n;
  if (!stop_v || stop_v->kind == FX_VALUE_NONE)
    {
      if (start > 0)
        {
          *result = fx_value_int ((int64_t) mt_randbelow (r, start));
          return TRUE;
        }
      return sc_raise (S, SC_T_VALUE_ERROR, "empty range for randrange()");
    }
  if (!sc_mod_to_index (S, stop_v, &stop))
    return FALSE;
  width = stop - start;
  if (step == 1)
    {
      if (width > 0)
        {
          *result = fx_value_int (start + (int64_t) mt_randbelow (r, width));
          return TRUE;
        }
      return sc_raise (S, SC_T_VALUE_ERROR, "empty range for randrange() (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                       ", %" G_GINT64_FORMAT ")", start, stop, width);
    }
  if (step > 0)
    n = (width + step - 1) / step - ((width + step - 1) % step < 0 ? 1 : 0);
  else if (step < 0)
    n = (width + step + 1) / step - ((width + step + 1) % step > 0 ? 1 : 0);
  else
    return sc_raise (S, SC_T_VALUE_ERROR, "zero step for randrange()");
  if (n <= 0)
    return sc_raise (S, SC_T_VALUE_ERROR, "empty range for randrange()");
  *result = fx_value_int (start + step * (int64_t) mt_randbelow (r, n));
  return TRUE;
}

static gboolean
rnd_randrange (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "start", "stop", "step" };
  const FxValue *v[3];
  int64_t start, step = 1;
  Mt *r = self_mt (S, args, n_args);
  (void) data;
  if (!r || !fx_script_parse_args (S, "randrange", args + 1, n_args - 1, kwargs, names, 3, 3, 1, v))
    return FALSE;
  if (!sc_mod_to_index (S, v[0], &start) || (v[2] && !sc_mod_to_index (S, v[2], &step)))
    return FALSE;
  return randrange (S, r, start, v[1], step, result);
}

static gboolean
rnd_randint (SC_NATIVE_ARGS)
{
  int64_t a, b;
  FxValue stop;
  RANDOM_METHOD_BEGIN ("randint", 2, 2);
  if (!sc_mod_to_index (S, &args[0], &a) || !sc_mod_to_index (S, &args[1], &b))
    return FALSE;
  stop = fx_value_int (b + 1);
  return randrange (S, r, a, &stop, 1, result);
}

static gboolean
rnd_choice (SC_NATIVE_ARGS)
{
  int64_t n;
  FxValue idx;
  RANDOM_METHOD_BEGIN ("choice", 1, 1);
  if (!sc_len (S, &args[0], &n))
    return FALSE;
  if (n == 0)
    return sc_raise (S, SC_T_INDEX_ERROR, "Cannot choose from an empty sequence");
  idx = fx_value_int ((int64_t) mt_randbelow (r, n));
  return sc_getitem (S, &args[0], &idx, result);
}

static gboolean
rnd_shuffle (SC_NATIVE_ARGS)
{
  int64_t n;
  RANDOM_METHOD_BEGIN ("shuffle", 1, 1);
  if (!sc_len (S, &args[0], &n))
    return FALSE;
  for (int64_t i = n - 1; i >= 1; i--)
    {
      FxValue iv = fx_value_int (i), jv = fx_value_int ((int64_t) mt_randbelow (r, i + 1)), a, b;
      if (!sc_getitem (S, &args[0], &iv, &a))
        return FALSE;
      if (!sc_getitem (S, &args[0], &jv, &b))
        {
          fx_value_clear (&a);
          return FALSE;
        }
      if (!sc_setitem (S, &args[0], &iv, &b) || !sc_setitem (S, &args[0], &jv, &a))
        {
          fx_value_clear (&a);
          fx_value_clear (&b);
          return FALSE;
        }
      fx_value_clear (&a);
      fx_value_clear (&b);
    }
  *result = fx_value_none ();
  return TRUE;
}

static gboolean
rnd_uniform (SC_NATIVE_ARGS)
{
  double a, b;
  RANDOM_METHOD_BEGIN ("uniform", 2, 2);
  if (!sc_mod_to_double (S, &args[0], &a) || !sc_mod_to_double (S, &args[1], &b))
    return FALSE;
  *result = fx_value_float (a + (b - a) * mt_random (r));
  return TRUE;
}

static gboolean
mu_sigma (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, const char *fname, double *mu,
          double *sigma)
{
  static const char *const names[] = { "mu", "sigma" };
  const FxValue *v[2];
  *mu = 0.0;
  *sigma = 1.0;
  if (!fx_script_parse_args (S, fname, args, n_args, kwargs, names, 2, 2, 0, v))
    return FALSE;
  return (!v[0] || sc_mod_to_double (S, v[0], mu)) && (!v[1] || sc_mod_to_double (S, v[1], sigma));
}

static gboolean
rnd_gauss (SC_NATIVE_ARGS)
{
  double mu, sigma, z;
  Mt *r = self_mt (S, args, n_args);
  (void) data;
  if (!r || !mu_sigma (S, args + 1, n_args - 1, kwargs, "gauss", &mu, &sigma))
    return FALSE;
  if (r->has_gauss)
    {
      z = r->gauss_next;
      r->has_gauss = FALSE;
    }
  else
    {
      double x2pi = mt_random (r) * 2 * G_PI;
      double g2rad = sqrt (-2.0 * log (1.0 - mt_random (r)));
      z = cos (x2pi) * g2rad;
      r->gauss_next = sin (x2pi) * g2rad;
      r->has_gauss = TRUE;
    }
  *result = fx_value_float (mu + z * sigma);
  return TRUE;
}

static gboolean
rnd_normalvariate (SC_NATIVE_ARGS)
{
  double mu, sigma, z;
  const double magic = 4 * exp (-0.5) / sqrt (2.0);
  Mt *r = self_mt (S, args, n_args);
  (void) data;
  if (!r || !mu_sigma (S, args + 1, n_args - 1, kwargs, "normalvariate", &mu, &sigma))
    return FALSE;
  for (;;)
    {
      double u1 = mt_random (r), u2 = 1.0 - mt_random (r);
      z = magic * (u1 - 0.5) / u2;
      if (z * z / 4.0 <= -log (u2))
        break;
    }
  *result = fx_value_float (mu + z * sigma);
  return TRUE;
}

static gboolean
rnd_sample (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "population", "k", "counts" };
  const FxValue *v[3];
  int64_t n, k, setsize = 21;
  FxSeq *out;
  Mt *r = self_mt (S, args, n_args);
  (void) data;
  if (!r || !fx_script_parse_args (S, "sample", args + 1, n_args - 1, kwargs, names, 3, 2, 2, v))
    return FALSE;
  if (v[0]->kind == FX_VALUE_DICT || sc_is_klass (v[0], &sc_set_klass) || sc_is_klass (v[0], &sc_frozenset_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "Population must be a sequence.  For dicts or sets, use sorted(d).");
  if (!sc_len (S, v[0], &n) || !sc_mod_to_index (S, v[1], &k))
    return FALSE;
  if (k < 0 || k > n)
    return sc_raise (S, SC_T_VALUE_ERROR, "Sample larger than population or is negative");
  if (k > 5)
    setsize += (int64_t) pow (4, ceil (log (k * 3) / log (4)));
  out = fx_seq_new (k);
  if (n <= setsize)
    {
      FxSeq *pool;
      if (!sc_collect (S, v[0], &pool))
        {
          fx_seq_unref (out);
          return FALSE;
        }
      for (int64_t i = 0; i < k; i++)
        {
          int64_t j = (int64_t) mt_randbelow (r, n - i);
          out->items[i] = fx_value_copy (&pool->items[j]);
          fx_value_clear (&pool->items[j]);
          pool->items[j] = fx_value_copy (&pool->items[n - i - 1]);
        }
      fx_seq_unref (pool);
    }
  else
    {
      GHashTable *selected = g_hash_table_new (g_int64_hash, g_int64_equal);
      int64_t *keys = g_new (int64_t, k + 1);
      for (int64_t i = 0; i < k; i++)
        {
          int64_t j = (int64_t) mt_randbelow (r, n);
          FxValue jv;
          while (g_hash_table_contains (selected, &j))
            j = (int64_t) mt_randbelow (r, n);
          keys[i] = j;
          g_hash_table_add (selected, &keys[i]);
          jv = fx_value_int (j);
          if (!sc_getitem (S, v[0], &jv, &out->items[i]))
            {
              g_hash_table_destroy (selected);
              g_free (keys);
              fx_seq_unref (out);
              return FALSE;
            }
        }
      g_hash_table_destroy (selected);
      g_free (keys);
    }
  *result = fx_value_take_list (out);
  return TRUE;
}

static gboolean
rnd_choices (SC_NATIVE_ARGS)
{
  static const char *const names[] = { "population", "weights", "cum_weights", "k" };
  const FxValue *v[4];
  int64_t n, k = 1;
  FxSeq *pop = NULL, *out = NULL;
  double *cum = NULL;
  Mt *r = self_mt (S, args, n_args);
  (void) data;
  if (!r || !fx_script_parse_args (S, "choices", args + 1, n_args - 1, kwargs, names, 4, 2, 1, v))
    return FALSE;
  if ((v[3] && !sc_mod_to_index (S, v[3], &k)) || !sc_collect (S, v[0], &pop))
    return FALSE;
  n = pop->len;
  if ((v[1] && v[1]->kind != FX_VALUE_NONE) || (v[2] && v[2]->kind != FX_VALUE_NONE))
    {
      FxSeq *w;
      gboolean given_cum = v[2] && v[2]->kind != FX_VALUE_NONE;
      if (v[1] && v[1]->kind != FX_VALUE_NONE && given_cum)
        {
          sc_raise (S, SC_T_TYPE_ERROR, "Cannot specify both weights and cumulative weights");
          goto fail;
        }
      if (!sc_collect (S, given_cum ? v[2] : v[1], &w))
        goto fail;
      if ((int64_t) w->len != n)
        {
          fx_seq_unref (w);
          sc_raise (S, SC_T_VALUE_ERROR, "The number of weights does not match the population");
          goto fail;
        }
      cum = g_new0 (double, n + 1);
      for (int64_t i = 0; i < n; i++)
        {
          double x;
          if (!sc_mod_to_double (S, &w->items[i], &x))
            {
              fx_seq_unref (w);
              goto fail;
            }
          cum[i] = given_cum ? x : (i ? cum[i - 1] : 0.0) + x;
        }
      fx_seq_unref (w);
      if (n == 0)
        {
          sc_raise (S, SC_T_INDEX_ERROR, "Cannot choose from an empty population");
          goto fail;
        }
      {
        double total = cum[n - 1] + 0.0;
        if (total <= 0.0)
          {
            sc_raise (S, SC_T_VALUE_ERROR, "Total of weights must be greater than zero");
            goto fail;
          }
        out = fx_seq_new (k > 0 ? k : 0);
        for (int64_t i = 0; i < k; i++)
          {
            double x = mt_random (r) * total;
            int64_t lo = 0, hi = n - 1;
            while (lo < hi)
              {
                int64_t mid = (lo + hi) / 2;
                if (x < cum[mid])
                  hi = mid;
                else
                  lo = mid + 1;
              }
            out->items[i] = fx_value_copy (&pop->items[lo]);
          }
      }
    }
  else
    {
      if (n == 0 && k > 0)
        {
          sc_raise (S, SC_T_INDEX_ERROR, "list index out of range");
          goto fail;
        }
      out = fx_seq_new (k > 0 ? k : 0);
      for (int64_t i = 0; i < k; i++)
        out->items[i] = fx_value_copy (&pop->items[(int64_t) floor (mt_random (r) * n)]);
    }
  fx_seq_unref (pop);
  g_free (cum);
  *result = fx_value_take_list (out);
  return TRUE;
fail:
  if (pop)
    fx_seq_unref (pop);
  if (out)
    fx_seq_unref (out);
  g_free (cum);
  return FALSE;
}

static gboolean
random_init (FxScript *S, FxScriptModule *m, gpointer user_data)
{
  static const FxScriptClassInfo info = { "random", "Random", NULL, random_payload_new, g_free, NULL };
  static const struct { const char *name; FxScriptFunc func; } methods[] = {
    { "seed", rnd_seed }, { "random", rnd_random }, { "getrandbits", rnd_getrandbits },
    { "randrange", rnd_randrange }, { "randint", rnd_randint }, { "choice", rnd_choice },
    { "shuffle", rnd_shuffle }, { "uniform", rnd_uniform }, { "gauss", rnd_gauss },
    { "normalvariate", rnd_normalvariate }, { "sample", rnd_sample }, { "choices", rnd_choices },
  };
  FxScriptClass *cls = fx_script_class_new (S, &info, NULL);
  FxValue inst;
  (void) user_data;
  fx_script_class_add_method (cls, "__init__", rnd_init, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    fx_script_class_add_method (cls, methods[i].name, methods[i].func, NULL);
  fx_script_module_set (m, "Random", fx_script_class_value (cls));
  inst = fx_script_instance_new (S, cls);
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      FxValue bound;
      if (!fx_script_getattr (S, &inst, methods[i].name, &bound))
        {
          fx_value_clear (&inst);
          return FALSE;
        }
      fx_script_module_set (m, methods[i].name, bound);
    }
  fx_script_module_set (m, "_inst", inst);
  return TRUE;
}

void
sc_mod_random_register (FxScript *S)
{
  fx_script_register_module (S, "random", random_init, NULL, NULL);
}
