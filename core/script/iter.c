/* iter.c: the iteration protocol — a stack-allocated ScIter with fast paths for lists,
 * tuples, strings, dicts, sets and ranges, falling back to __iter__/__next__ (or the old
 * __getitem__ protocol); iterator objects for iter() and the builtins that return them. */
#include "script/internal.h"

#include <string.h>

static gboolean
not_iterable (FxScript *S, const FxValue *v)
{
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not iterable", sc_type_name (S, v));
}

static void
iter_dict (ScIter *it, ScIterKind kind, FxDict *d)
{
  it->kind = kind;
  it->src = fx_value_take_dict (fx_dict_ref (d));
  it->i = 0;
  it->dict_len = fx_dict_len (d);
}

static gboolean
user_iterable (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_OBJECT)
    return v->obj->klass == &sc_instance_klass || !(sc_type_of (S, v)->flags & SC_CLASS_BUILTIN);
  if (v->kind >= FX_VALUE_DTYPE && v->kind <= FX_VALUE_OP)
    return S->kind_classes[v->kind] != NULL;
  if (v->kind == FX_VALUE_TUPLE && v->seq->type)
    return !(sc_type_of (S, v)->flags & SC_CLASS_BUILTIN);
  return FALSE;
}

gboolean
sc_iter_init (FxScript *S, const FxValue *v, ScIter *it)
{
  memset (it, 0, sizeof *it);
  it->src = fx_value_none ();
  switch (v->kind)
    {
    case FX_VALUE_LIST:
      it->kind = SC_ITER_SEQ;
      it->src = fx_value_copy (v);
      return TRUE;
    case FX_VALUE_TUPLE:
      if (v->seq->type && user_iterable (S, v) && sc_special_lookup (S, v, "__iter__"))
        break;
      it->kind = SC_ITER_SEQ;
      it->src = fx_value_copy (v);
      return TRUE;
    case FX_VALUE_STR:
      it->kind = SC_ITER_STR;
      it->src = fx_value_copy (v);
      return TRUE;
    case FX_VALUE_DICT:
      iter_dict (it, SC_ITER_DICT_KEYS, v->dict);
      return TRUE;
    case FX_VALUE_OBJECT:
      {
        const FxObjectClass *k = v->obj->klass;
        if (k == &sc_range_klass)
          {
            ScRange *r = (ScRange *) v->obj;
            it->kind = SC_ITER_RANGE;
            it->i = r->start;
            it->n = (int64_t) MIN (sc_range_count (r), (guint64) G_MAXINT64);  /* remaining */
            it->step = r->step;
            return TRUE;
          }
        if (k == &sc_set_klass || k == &sc_frozenset_klass)
          {
            iter_dict (it, SC_ITER_DICT_KEYS, ((ScSet *) v->obj)->d);
            return TRUE;
          }
        if (k == &sc_dictkeys_klass)
          {
            iter_dict (it, SC_ITER_DICT_KEYS, ((ScDictView *) v->obj)->d);
            return TRUE;
          }
        if (k == &sc_dictvalues_klass)
          {
            iter_dict (it, SC_ITER_DICT_VALUES, ((ScDictView *) v->obj)->d);
            return TRUE;
          }
        if (k == &sc_dictitems_klass)
          {
            iter_dict (it, SC_ITER_DICT_ITEMS, ((ScDictView *) v->obj)->d);
            return TRUE;
          }
        if (k == &sc_iterobj_klass)
          {
            it->kind = SC_ITER_NATIVE;
            it->src = fx_value_copy (v);
            return TRUE;
          }
        break;
      }
    default:
      break;
    }
  if (user_iterable (S, v))
    {
      FxValue r;
      int got = sc_call_special (S, v, "__iter__", NULL, 0, &r);
      if (got < 0)
        return FALSE;
      if (got > 0)
        {
          if (r.kind == FX_VALUE_OBJECT && r.obj->klass == &sc_iterobj_klass)
            {
              it->kind = SC_ITER_NATIVE;
              it->src = r;
              return TRUE;
            }
          if (!sc_special_lookup (S, &r, "__next__"))
            {
              gboolean res = sc_raise (S, SC_T_TYPE_ERROR, "iter() returned non-iterator of type '%s'",
                                       sc_type_name (S, &r));
              fx_value_clear (&r);
              return res;
            }
          it->kind = SC_ITER_OBJECT;
          it->src = r;
          return TRUE;
        }
      if (sc_special_lookup (S, v, "__getitem__"))
        {
          it->kind = SC_ITER_GETITEM;
          it->src = fx_value_copy (v);
          it->n = -1;
          return TRUE;
        }
    }
  if (v->kind == FX_VALUE_TENSOR)
    {
      if (v->tensor->ndim == 0)
        return sc_raise (S, SC_T_TYPE_ERROR, "iteration over a 0-d tensor");
      it->kind = SC_ITER_GETITEM;
      it->src = fx_value_copy (v);
      it->n = v->tensor->shape[0];
      return TRUE;
    }
  return not_iterable (S, v);
}

int
sc_iter_next (FxScript *S, ScIter *it, FxValue *out)
{
  switch (it->kind)
    {
    case SC_ITER_SEQ:
      if (it->i < (int64_t) it->src.seq->len)
        {
          *out = fx_value_copy (&it->src.seq->items[it->i++]);
          return 1;
        }
      return 0;
    case SC_ITER_SEQ_REVERSED:
      if (it->i >= 0 && it->i < (int64_t) it->src.seq->len)
        {
          *out = fx_value_copy (&it->src.seq->items[it->i--]);
          return 1;
        }
      return 0;
    case SC_ITER_STR:
      if (it->i < (int64_t) it->src.s->len)
        {
          const char *p = it->src.s->data + it->i;
          gsize n = 1;
          if ((guchar) *p >= 0x80)
            n = g_utf8_next_char (p) - p;
          *out = fx_value_take_str (fx_str_new_len (p, n));
          it->i += n;
          return 1;
        }
      return 0;
    case SC_ITER_DICT_KEYS:
    case SC_ITER_DICT_VALUES:
    case SC_ITER_DICT_ITEMS:
      {
        const FxValue *k, *v;
        if (fx_dict_len (it->src.dict) != it->dict_len)
          {
            it->dict_len = (guint) -1;
            sc_raise (S, SC_T_RUNTIME_ERROR, "dictionary changed size during iteration");
            return -1;
          }
        if (!fx_dict_entry (it->src.dict, (guint) it->i, &k, &v))
          return 0;
        it->i++;
        if (it->kind == SC_ITER_DICT_KEYS)
          *out = fx_value_copy (k);
        else if (it->kind == SC_ITER_DICT_VALUES)
          *out = fx_value_copy (v);
        else
          {
            FxSeq *t = fx_seq_new (2);
            t->items[0] = fx_value_copy (k);
            t->items[1] = fx_value_copy (v);
            *out = fx_value_take_tuple (t);
          }
        return 1;
      }
    case SC_ITER_RANGE:
      if (it->n > 0)
        {
          *out = fx_value_int (it->i);
          it->n--;
          it->i = (int64_t) ((guint64) it->i + (guint64) it->step);  /* wraps after the last */
          return 1;
        }
      return 0;
    case SC_ITER_NATIVE:
      {
        ScIterObj *o = (ScIterObj *) it->src.obj;
        return o->next (S, o, out);
      }
    case SC_ITER_OBJECT:
      {
        int r = sc_call_special (S, &it->src, "__next__", NULL, 0, out);
        if (r > 0)
          return 1;
        if (r == 0)
          {
            sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not an iterator", sc_type_name (S, &it->src));
            return -1;
          }
        if (sc_matches (S, SC_T_STOP_ITERATION))
          {
            sc_clear_exc (S);
            return 0;
          }
        return -1;
      }
    case SC_ITER_GETITEM:
      {
        FxValue idx = fx_value_int (it->i);
        if (it->n >= 0 && it->i >= it->n)
          return 0;
        if (!sc_getitem (S, &it->src, &idx, out))
          {
            if (sc_matches (S, SC_T_INDEX_ERROR) || sc_matches (S, SC_T_STOP_ITERATION))
              {
                sc_clear_exc (S);
                return 0;
              }
            return -1;
          }
        it->i++;
        return 1;
      }
    case SC_ITER_EMPTY:
      return 0;
    }
  return 0;
}

void
sc_iter_clear (ScIter *it)
{
  if (it->kind == SC_ITER_RANGE || it->kind == SC_ITER_EMPTY)
    {
      it->src = fx_value_none ();
      return;
    }
  fx_value_clear (&it->src);
}

FxValue
sc_iterobj_new (FxScript *S, int type_id, ScIterNextFunc next)
{
  ScIterObj *o = g_new0 (ScIterObj, 1);
  fx_object_init (&o->base, &sc_iterobj_klass);
  o->type_id = type_id;
  o->next = next;
  o->inner.kind = SC_ITER_EMPTY;
  o->func = fx_value_none ();
  (void) S;
  return fx_value_take_object (&o->base);
}

static int
plain_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  return sc_iter_next (S, &it->inner, out);
}

gboolean
sc_get_iter (FxScript *S, const FxValue *v, FxValue *out)
{
  ScIter inner;
  FxValue r;
  ScIterObj *o;
  if (v->kind == FX_VALUE_OBJECT && v->obj->klass == &sc_iterobj_klass)
    {
      *out = fx_value_copy (v);
      return TRUE;
    }
  if (!sc_iter_init (S, v, &inner))
    return FALSE;
  if (inner.kind == SC_ITER_NATIVE || inner.kind == SC_ITER_OBJECT)
    {
      /* the object's own iterator */
      *out = inner.src;
      return TRUE;
    }
  r = sc_iterobj_new (S, SC_T_ITERATOR, plain_next);
  o = (ScIterObj *) r.obj;
  o->inner = inner;
  *out = r;
  return TRUE;
}

int
sc_next (FxScript *S, const FxValue *iterator, FxValue *out)
{
  if (iterator->kind == FX_VALUE_OBJECT && iterator->obj->klass == &sc_iterobj_klass)
    {
      ScIterObj *o = (ScIterObj *) iterator->obj;
      return o->next (S, o, out);
    }
  {
    int r = sc_call_special (S, iterator, "__next__", NULL, 0, out);
    if (r > 0)
      return 1;
    if (r == 0)
      {
        sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not an iterator", sc_type_name (S, iterator));
        return -1;
      }
    if (sc_matches (S, SC_T_STOP_ITERATION))
      {
        sc_clear_exc (S);
        return 0;
      }
    return -1;
  }
}

gboolean
sc_collect (FxScript *S, const FxValue *iterable, FxSeq **out)
{
  ScIter it;
  FxSeq *seq;
  FxValue x;
  int r;
  if (iterable->kind == FX_VALUE_LIST || (iterable->kind == FX_VALUE_TUPLE && !user_iterable (S, iterable)))
    {
      seq = fx_seq_new (iterable->seq->len);
      for (guint i = 0; i < iterable->seq->len; i++)
        seq->items[i] = fx_value_copy (&iterable->seq->items[i]);
      *out = seq;
      return TRUE;
    }
  if (!sc_iter_init (S, iterable, &it))
    return FALSE;
  seq = fx_seq_new (0);
  while ((r = sc_iter_next (S, &it, &x)) > 0)
    fx_seq_append (seq, x);
  sc_iter_clear (&it);
  if (r < 0)
    {
      fx_seq_unref (seq);
      return FALSE;
    }
  *out = seq;
  return TRUE;
}
